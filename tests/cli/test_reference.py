#!/usr/bin/env python3
"""The reference check of the host figures: gpubarrier_tools/cli/report.py `reference` and the host
tables' preference for `loop_latency` (on CSVs written here), and scripts/reference-check run for
real (one round of MPI and OpenMP against gpubarrier_tools/reference/'s programs, NCCL skipped for want of
GPUs behind a fake nvidia-smi).

Run by pytest: pytest tests/.../test_reference.py [--gpubarrier PATH]
  report     `report.py reference` on a small check CSV: ratios, verdicts, a skipped method
  headline   multi / hostwait / scaling show a v3 host point's loop_latency row, labelled, and a
             v1 point's latency row as before
  script     scripts/reference-check --rounds 1 --no-build (needs mpirun, cc, mpicc)
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT = ["-m", "gpubarrier_tools.cli.report"]
from gpubarrier_tools.data import gbcsv
from gpubarrier_tools.reference import rows as reference_rows
from cli_common import executable, expect, read_csv

EXE = executable()
TMP = tempfile.mkdtemp(prefix="test_reference.")


def report(*args):
    return subprocess.run([sys.executable, *REPORT, *args], capture_output=True, text=True,
                          timeout=120, cwd=TMP)


def write_rows(name, columns, rows):
    path = os.path.join(TMP, name)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(columns)
        for r in rows:
            w.writerow([r.get(c, "") for c in columns])
    return path


def table_lines(text):
    return [line for line in text.splitlines() if line.startswith("| `")]


def test_report():
    check = []
    for rnd, gb, ref in (("1", 400, 380), ("2", 410, 390)):  # +5.2%: within 10%
        for source, v in (("gpubarrier", gb), ("reference", ref)):
            check.append(dict(method="host.mpi.barrier", config="ranks=2", convention="OSU",
                              source=source, round=rnd, value_ns=str(v), host="box"))
    for rnd, gb, ref in (("1", 600, 500), ("2", 640, 500)):  # +24%: outside
        for source, v in (("gpubarrier", gb), ("reference", ref)):
            check.append(dict(method="host.omp.barrier", config="threads=2", convention="EPCC",
                              source=source, round=rnd, value_ns=str(v), host="box"))
    check.append(dict(method="host.nccl.allreduce", config="gpus=2 launcher=threads blocking=1",
                      convention="nccl-tests", source="gpubarrier", host="box",
                      note="skipped: needs 2 GPUs (0 visible)"))
    path = write_rows("check.csv", reference_rows.COLUMNS, check)
    p = report("reference", path)
    expect(p.returncode == 0, "report.py reference exits 0", p)
    lines = table_lines(p.stdout)
    expect(len(lines) == 3, "one line per method and config", p)
    mpi, omp, nccl = lines
    expect("400 / 410" in mpi and "380 / 390" in mpi, "every round's figures", p)
    expect("1.052 (1.051-1.053)" in mpi and "yes (+5.2%)" in mpi, "ratio of means, by round", p)
    expect("1.240" in omp and "**no** (+24.0%)" in omp, "outside 10% says no", p)
    expect("skipped: needs 2 GPUs (0 visible)" in nccl, "a skipped method says why", p)
    expect("2 rounds on box" in p.stdout, "rounds and machine under the table", p)
    bad = write_rows("bad.csv", ["method", "value"], [dict(method="x", value="1")])
    p = report("reference", bad)
    expect(p.returncode == 2 and "expected the columns" in p.stderr, "a CSV of another kind", p)
    print("PASS report")


def gb_row(**kw):
    r = {name: "" for name in gbcsv.NAMES}
    r.update(schema_version="3", run_id="r1", timestamp="2026-01-01T00:00:00Z", host="h",
             system="local", gpu_count="2", gpu_ids="0,1", topology="nv18-clique2",
             level="multi-gpu", launcher="threads", ranks="1", nodes="1", technique="host-loop",
             samples="20", unit="ns", status="ok", note="verified")
    r.update({k: str(v) for k, v in kw.items()})
    return r


def host_point(method, config, loop, step, **kw):
    """A v3 host point: loop_latency first, then latency (as src/methods/host/ writes them)."""
    return [gb_row(method=method, config=config, metric="loop_latency", value=loop,
                   statistic="loop-mean-avg-threads", **kw),
            gb_row(method=method, config=config, metric="latency", value=step,
                   statistic="median", **kw)]


def test_headline():
    v3 = host_point("host.nccl.allreduce", "gpu_count=2 blocking=0 host_wait=0", 6100, 9170)
    v3 += host_point("host.mpi.barrier", "", 350, 640, level="host", gpu_count="0", gpu_ids="",
                     launcher="mpi", ranks="2")
    for hw, loop, step in (("0", 10000, 10700), ("1", 10500, 11300), ("2", 30000, 58500)):
        v3 += host_point("host.omp.gpu-barrier", f"gpu_count=2 host_wait={hw}", loop, step)
    v3_path = write_rows("v3.csv", gbcsv.NAMES, v3)
    # A v1 file: no loop_latency, its latency row stays the figure.
    v1 = [dict(r, schema_version="1", statistic="") for r in
          host_point("host.nccl.allreduce", "gpu_count=2 blocking=1 host_wait=0", 0, 15920)[1:]]
    v1_path = write_rows("v1.csv", gbcsv.NAMES, v1)

    p = report("multi", v3_path, v1_path)
    expect(p.returncode == 0, "multi exits 0", p)
    out = p.stdout
    # A back-to-back point's rows, written as loop_latency and latency, read as loop_interval and
    # interval (gpubarrier_tools/data/gbcsv.py): shown named, the loop mean first.
    expect("| `host.nccl.allreduce` | back-to-back in the stream, `loop_interval` | - | - | 6.10 |"
           in out, "multi: the v3 back-to-back point's loop figure, labelled loop_interval", p)
    expect("9.17" not in out, "multi: the v3 point's differential interval is not the headline", p)
    expect("| `host.mpi.barrier` | `loop_latency` | - | - | - | 0.35 |" in out,
           "multi: host.mpi.barrier by loop_latency", p)
    expect("| `host.nccl.allreduce` | blocking (stream sync each step) | - | - | 15.92 |" in out,
           "multi: a v1 point keeps its latency row, unlabelled", p)

    p = report("hostwait", v3_path)
    expect("| `host.omp.gpu-barrier`, `loop_latency` | threads | 2 | 10.00 | 10.50 | 30.00 | 3.0x |"
           in p.stdout, "hostwait: loop_latency by host_wait, labelled", p)

    p = report("scaling", v3_path)
    expect(p.returncode == 0 and
           "| `host.nccl.allreduce` | back-to-back in the stream, `loop_interval` | - | 6.10 / - |"
           in p.stdout, "scaling: loop_interval, labelled", p)
    print("PASS headline")


def fake_nvidia_smi():
    """A directory whose nvidia-smi lists no GPU, to put first on PATH."""
    d = os.path.join(TMP, "bin")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "nvidia-smi")
    with open(path, "w") as f:
        f.write("#!/bin/sh\necho 'No devices were found'\n")
    os.chmod(path, 0o755)
    return d


@pytest.mark.mpi
def test_script():
    for tool in ("mpirun", "mpicc", "cc"):
        if not shutil.which(tool):
            pytest.fail(f"{tool} not found (scripts/setup installs openmpi-bin, g++)")
    out = os.path.join(TMP, "out")
    env = dict(os.environ, OUT=out, BUILD_DIR=os.path.dirname(os.path.abspath(EXE)),
               PATH=fake_nvidia_smi() + os.pathsep + os.environ["PATH"],
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_rmaps_base_oversubscribe="1", OMP_SIZES="2")
    for var in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID"):
        env.pop(var, None)
    p = subprocess.run([os.path.join(ROOT, "scripts", "reference-check"), "--rounds", "1",
                        "--no-build"], capture_output=True, text=True, env=env, timeout=500)
    log = os.path.join(out, "reference-check.log")
    detail = open(log).read()[-6000:] if os.path.exists(log) else ""
    expect(p.returncode == 0, f"reference-check exits 0\n{detail}", p)
    rows = read_csv(os.path.join(out, "reference-check.csv"))
    got = {(r["method"], r["source"]) for r in rows if r["value_ns"]}
    whole = [r for r in rows if r["config"] == "ranks=2 whole-loop" and r["value_ns"]]
    expect({r["source"] for r in whole} == {"gpubarrier", "reference"} and
           all("whole loop" in r["note"] for r in whole if r["source"] == "reference"),
           "host.mpi.barrier also against the loop timed as a whole (-w)", p)
    funneled = [r for r in rows if r["config"] == "ranks=2 funneled" and r["value_ns"]]
    expect({r["source"] for r in funneled} == {"gpubarrier", "reference"},
           "host.mpi.barrier also with both at MPI thread level funneled (-t funneled)", p)
    shared = [r for r in rows if r["config"] == "threads=2 shared-store" and r["value_ns"]]
    expect({r["source"] for r in shared} == {"gpubarrier", "reference"},
           "host.omp.barrier also against the reference with its old shared store", p)
    for method in ("host.mpi.barrier", "host.omp.barrier"):
        for source in ("gpubarrier", "reference"):
            expect((method, source) in got, f"a {source} figure of {method}", p)
    for r in rows:
        if r["value_ns"]:
            expect(float(r["value_ns"]) > 0 and int(r["steps"]) >= 20 and int(r["loops"]) >= 1,
                   f"figure, steps and loops: {r}", p)
    nccl = [r for r in rows if r["method"] == "host.nccl.allreduce"]
    expect(len(nccl) == 4 and all(r["note"] == "skipped: needs 2 GPUs (0 visible)" for r in nccl),
           "the NCCL configurations are skipped: needs 2 GPUs", p)
    expect("within 10%" in p.stdout and "skipped: needs 2 GPUs" in p.stdout and
           os.path.exists(os.path.join(out, "reference-summary.md")),
           "the summary table on stdout and in reference-summary.md", p)
    print("PASS script")
    print(p.stdout)

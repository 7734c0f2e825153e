#!/usr/bin/env python3
"""CLI behaviour of the real gpubarrier executable: output files, errors, exit codes.

Run by pytest: pytest test_cli.py [--gpubarrier PATH]
"""
import csv
import ctypes
import json
import os
import subprocess
import sys
import tempfile

import pytest

from tool_python import python_with_matplotlib

from cli_common import executable, expect, loop_against_step, read_csv, run_gpubarrier

EXE = executable()
# Keep runs short: these tests check behaviour, not figures.
QUICK = ["--samples", "5", "--time-budget", "0.2"]


def gpubarrier(*args, env=None):
    return run_gpubarrier(EXE, *args, env=env)


def has_gpu():
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    except FileNotFoundError:
        return False


def driver_library_loads():
    """Whether the NVIDIA driver's library loads here (absent on a machine without a driver)."""
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def test_list_shows_methods():
    p = gpubarrier("list")
    expect(p.returncode == 0, "list exits 0", p)
    for name in ("host.omp.barrier", "host.mpi.barrier", "gpu.block.syncthreads", "gpu.grid.cg"):
        expect(name in p.stdout, f"list shows {name}", p)
    p = gpubarrier("list", "--json")
    methods = {m["name"]: m for m in json.loads(p.stdout)}
    expect(methods["gpu.grid.cg"]["axes"]["blocks_per_sm"] == [1, 2, 4, 8, 16, 32], "grid axes", p)
    expect(methods["host.mpi.barrier"]["usable"] is False, "mpi method not usable outside mpirun", p)


def test_run_writes_csv():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "sub", "r.csv")
        p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2", "--out", out, *QUICK)
        expect(p.returncode == 0, "run exits 0", p)
        rows = read_csv(out)
        expect(len(rows) == 2, "two rows for one configuration: loop_latency, latency", p)
        for r in rows:
            expect(r["schema_version"] == "5", "schema version")
            expect(r["sm_clock_source"] == "", "no SM clock source on a host row")
            expect(r["mpi_thread_level"] == "", "no MPI thread level outside mpirun")
            expect(r["method"] == "host.omp.barrier" and r["status"] == "ok", f"row ok: {r}")
            expect(r["unit"] == "ns" and r["technique"] == "host-loop", "unit and technique")
            expect(float(r["value"]) > 0 and int(r["samples"]) >= 5, "a positive figure from >=5 samples")
            expect(r["stop"] in ("converged", "budget"), "stop reason recorded")
            expect(r["group_size"] == "2" and r["config"] == "group_size=2", "axis columns")
            expect(r["note"].startswith("not verified: ") and "OMP_WAIT_POLICY=" in r["note"],
                   f"no barrier check: the note says so: {r['note']}")
        loop, step = rows
        expect(loop["metric"] == "loop_latency" and loop["statistic"] == "loop-mean-max-threads",
               f"the headline first: EPCC's loop mean, the slowest thread's: {loop}")
        expect(int(loop["reps_hi"]) >= 20 and "per-thread loop means min" in loop["note"],
               f"steps per loop and per-thread min/max: {loop}")
        expect(step["metric"] == "latency" and step["statistic"] == "median", f"per-step: {step}")
        problem = loop_against_step(loop, step)
        expect(problem is None, f"{problem}: {loop}, {step}")
        expect("host.omp.barrier" in p.stdout, "console table printed", p)
        with open(out, newline="") as f:
            expect(f.readline().startswith("schema_version,run_id,timestamp,"), "header first")


def test_loop_against_step_accepts_noisy_marking():
    # Rows of a run on a loaded 2-core machine: the program marked the figures noisy.
    note = ("not verified: no barrier check; noisy: threads had 9% of a CPU each "
            "(other work took the rest)")
    loop = {"metric": "loop_latency", "median": "396.611", "note": note}
    step = {"metric": "latency", "median": "437770", "note": note}
    expect(loop_against_step(loop, step) is None, "a noisy pair is accepted as marked")
    quiet = {"note": "not verified: no barrier check"}
    expect(loop_against_step({**loop, **quiet}, {**step, **quiet}) is not None,
           "the same figures unmarked are refused")
    expect(loop_against_step({**loop, **quiet, "median": "400000"}, {**step, **quiet}) is None,
           "quiet figures that agree are accepted")
    expect(loop_against_step({**loop, **quiet, "median": "4e6"}, {**step, **quiet}) is not None,
           "quiet figures far apart the other way are refused")


def test_json_output():
    p = gpubarrier("--json", "run", "--methods", "host.omp.barrier", "--axis", "group_size=2",
                   "--out", "none", *QUICK)
    expect(p.returncode == 0, "exit 0", p)
    rows = json.loads(p.stdout)
    expect(rows[0]["method"] == "host.omp.barrier" and isinstance(rows[0]["value"], float), "json row", p)
    expect([r["metric"] for r in rows] == ["loop_latency", "latency"], "loop_latency first", p)


def test_unknown_method():
    p = gpubarrier("run", "--methods", "gpu.grid.gc", "--out", "none")
    expect(p.returncode == 2, "exit code 2", p)
    expect("no method matches 'gpu.grid.gc'" in p.stderr and "gpu.grid.cg" in p.stderr,
           "names the glob and close names", p)


def test_malformed_axis():
    p = gpubarrier("run", "--methods", "gpu.grid.cg", "--axis", "blocks_per_sm=1:x", "--out", "none")
    expect(p.returncode == 2 and "malformed --axis 'blocks_per_sm=1:x'" in p.stderr, "axis error", p)
    expect("expected name=v1,v2" in p.stderr, "says what is expected", p)


def test_unknown_axis():
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "warps=1", "--out", "none")
    expect(p.returncode == 2 and "no selected method has this axis" in p.stderr, "unknown axis", p)
    expect("group_size" in p.stderr, "lists the axes", p)


def test_unwritable_out():
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", "/proc/nope/x.csv", *QUICK)
    expect(p.returncode == 2 and "cannot write output file '/proc/nope/x.csv'" in p.stderr, "out error", p)
    expect("host.omp.barrier" not in p.stdout, "fails before measuring", p)


def test_bad_gpu():
    p = gpubarrier("run", "--methods", "gpu.grid.cg", "--gpus", "99", "--out", "none")
    expect(p.returncode == 2 and "--gpus names GPU 99" in p.stderr, "bad gpu", p)


def test_mpi_outside_mpirun():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.csv")
        p = gpubarrier("run", "--methods", "host.mpi.barrier", "--out", out)
        expect(p.returncode == 0, "a skipped method is not an error", p)
        r = read_csv(out)[0]
        expect(r["status"] == "skipped" and "mpirun -np 2" in r["note"], f"skipped with how-to: {r}")


def test_gpu_methods_without_gpu():
    if has_gpu():
        pytest.skip("a GPU is visible: the GPU methods run (tests/gpu)")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "g.csv")
        p = gpubarrier("run", "--methods", "gpu.*", "--out", out)
        expect(p.returncode == 0, "no GPU is not a failure", p)
        rows = read_csv(out)
        expect({r["method"] for r in rows} >= {"gpu.block.syncthreads", "gpu.grid.cg"}, "rows per method")
        for r in rows:
            expect(r["status"] == "skipped" and "no CUDA GPU visible" in r["note"], f"reason: {r}")
    if driver_library_loads():
        return
    # No driver at all: the reason says so, not "driver version is insufficient" (an upgrade).
    no_driver = "no NVIDIA driver or GPU found"
    for r in rows:
        expect(no_driver in r["note"] and "insufficient" not in r["note"].lower(), f"no driver: {r}")
    p = gpubarrier("list", "--json")
    reasons = {m["name"]: m["reason"] for m in json.loads(p.stdout)}
    expect(no_driver in reasons["gpu.grid.cg"] and
           "insufficient" not in reasons["gpu.grid.cg"].lower(),
           f"list --json says why: {reasons['gpu.grid.cg']}", p)
    p = gpubarrier("run", "--methods", "gpu.grid.cg", "--gpus", "0", "--out", "none")
    expect(p.returncode == 2 and no_driver in p.stderr, "--gpus 0 without a driver says so", p)


def test_nvshmem_refusals():
    """multigpu.nvshmem.barrier outside mpirun: one skipped row that says why, whether this build
    has NVSHMEM (then: mpi mode only, one PE per process) or not (then: built without it)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "n.csv")
        p = gpubarrier("run", "--methods", "multigpu.nvshmem.barrier", "--out", out)
        expect(p.returncode == 0, "a refused method is not a failure", p)
        rows = read_csv(out)
        expect(len(rows) == 1 and rows[0]["status"] == "skipped", f"one skipped row: {rows}", p)
        note = rows[0]["note"]
        expect("mpi mode only" in note or "built without NVSHMEM" in note,
               f"the reason names mpi mode or the missing NVSHMEM: {note}", p)
        p = gpubarrier("list")
        expect("multigpu.nvshmem.barrier" in p.stdout and
               "variant=barrier-all-block,sync-all-block,barrier-all" in p.stdout,
               "listed with its variants", p)


def test_sweep_file():
    with tempfile.TemporaryDirectory() as d:
        sweep = os.path.join(d, "s.yaml")
        with open(sweep, "w") as f:
            f.write("samples: 5\ntime_budget: 0.2\nruns:\n  - methods: host.omp.barrier\n"
                    "    axes: {group_size: [2]}\n  - methods: host.mpi.barrier\n")
        out = os.path.join(d, "s.csv")
        p = gpubarrier("sweep", sweep, "--out", out)
        expect(p.returncode == 0, "sweep exits 0", p)
        rows = read_csv(out)
        expect([r["method"] for r in rows] == ["host.omp.barrier"] * 2 + ["host.mpi.barrier"],
               "both entries (loop_latency and latency of the first, the second skipped)", p)
        expect(len({r["run_id"] for r in rows}) == 1, "one run id for the whole sweep")
        with open(sweep, "w") as f:
            f.write("runs:\n  - methods: host.omp.barrier\n    axes: {group_size: [two]}\n")
        p = gpubarrier("sweep", sweep, "--out", "none")
        expect(p.returncode == 2 and "s.yaml:3:" in p.stderr, "bad sweep names file and line", p)


def test_axis_value_names():
    """`--axis ordering=release-acquire`: a categorical value by name (or its integer code),
    resolved per method; the row's config carries the name; an unknown name or code is exit 2 and
    one line naming the axis, the value and the valid names."""
    p = gpubarrier("run", "--methods", "multigpu.device.push", "--axis", "ordering=relaxed",
                   "--out", "none")
    err = p.stderr.strip()
    expect(p.returncode == 2 and len(err.split("\n")) == 1, "an unknown name: exit 2, one line", p)
    for part in ("ordering=relaxed", "multigpu.device.push", "release-acquire, seq-cst-fence, "
                 "acq-rel-fence"):
        expect(part in err, f"the line names {part!r}", p)
    # An integer is a code of the axis: one the method does not name is refused in the same way,
    # before anything runs, instead of becoming a skipped row.
    for axis, names in (("part=7", "whole, gather, gather-send, exchange"),
                        ("ordering=3", "release-acquire, seq-cst-fence, acq-rel-fence")):
        p = gpubarrier("run", "--methods", "multigpu.device.push", "--axis", axis, "--out",
                       "none")
        err = p.stderr.strip()
        expect(p.returncode == 2 and len(err.split("\n")) == 1 and axis in err and names in err
               and "multigpu.device.push" in err, f"an unknown code {axis}: exit 2, one line", p)
    # One name resolved per method: floor.signal has `relaxed`, so naming both is refused.
    p = gpubarrier("run", "--methods", "multigpu.floor.signal,multigpu.device.push", "--axis",
                   "ordering=relaxed", "--out", "none")
    expect(p.returncode == 2 and "multigpu.device.push" in p.stderr, "every method must know it", p)
    p = gpubarrier("run", "--methods", "gpu.grid.cg", "--axis", "blocks_per_sm=many",
                   "--out", "none")
    expect(p.returncode == 2 and "blocks_per_sm=many" in p.stderr and "integers only" in p.stderr,
           "a name on a numeric axis", p)
    listed = gpubarrier("list")
    expect("ordering=release-acquire,seq-cst-fence" in listed.stdout, "list shows names", listed)
    methods = {m["name"]: m for m in json.loads(gpubarrier("list", "--json").stdout)}
    named = {v["name"]: v["code"] for v in methods["multigpu.floor.signal"]["value_names"]
             ["ordering"]}
    expect(named["release-acquire"] == 3 and methods["multigpu.device.push"]["value_names"]
           ["ordering"][0]["name"] == "release-acquire", f"list --json value names: {named}")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "n.csv")
        args = ["--axis", "blocks_per_sm=1", "--axis", "threads_per_block=128"]
        args += ["--gpus", "0"] if has_gpu() else []
        p = gpubarrier("run", "--methods", "multigpu.device.push", "--axis",
                       "ordering=release-acquire,1", *args, "--out", out, *QUICK)
        expect(p.returncode == 0, "names and integers are accepted together", p)
        rows = read_csv(out)
        if has_gpu():
            configs = {r["config"] for r in rows}
            for want in ("ordering=release-acquire", "ordering=seq-cst-fence", "fault=none"):
                expect(any(want in c for c in configs), f"the config carries {want}: {configs}")
        sweep = os.path.join(d, "n.yaml")

        def push_sweep(axes):
            """`sweep` of a file with one run of multigpu.device.push over `axes` (line 3)."""
            with open(sweep, "w") as f:
                f.write(f"runs:\n  - methods: multigpu.device.push\n    axes: {axes}\n")
            return gpubarrier("sweep", sweep, "--out", "none")
        p = push_sweep("{ordering: [release-acquire, 2], blocks_per_sm: [1]}")
        expect(p.returncode == 0, "a sweep file takes names", p)
        p = push_sweep("{ordering: [release-aquire]}")
        expect(p.returncode == 2 and "n.yaml:3:" in p.stderr and "release-aquire" in p.stderr and
               "release-acquire" in p.stderr, "a sweep file's unknown name: exit 2", p)
        p = push_sweep("{part: [0, 9]}")
        expect(p.returncode == 2 and "n.yaml:3:" in p.stderr and "part=9" in p.stderr and
               "gather-send" in p.stderr, "a sweep file's unknown code: exit 2 with its line", p)


def test_version():
    p = gpubarrier("--version")
    expect(p.returncode == 0 and "gpubarrier 0." in p.stdout and "CUDA runtime" in p.stdout, "version", p)
    expect("NCCL" in p.stdout and "MPI" in p.stdout and "git" in p.stdout, "versions", p)
    # The sha is read at every build (cmake/WriteVersion.cmake), not only at configure time, and
    # says -dirty when tracked files differ from the commit: rows name the code that made them.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    head = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True)
    if head.returncode == 0:
        dirty = subprocess.run(["git", "-C", root, "diff", "--quiet", "HEAD", "--"]).returncode
        want = head.stdout.strip() + ("-dirty" if dirty == 1 else "")
        expect(f"(git {want})" in p.stdout, f"--version names the built tree, git {want} "
               "(a build after the last commit or edit)", p)


def test_version_outside_checkout():
    # A copy of the tree inside another repository (the GPU machine's copy of this one, say) must
    # not report the enclosing repository's commit: `unknown`, or what GPUBARRIER_GIT_SHA says.
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = os.path.join(root, "cmake", "WriteVersion.cmake")
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(EXE))) as d:
        copy = os.path.join(d, "copy")  # inside the build folder, which lies in the checkout
        os.makedirs(copy)
        header = os.path.join(d, "version.hpp")
        for env_sha, want in (("", "unknown"), ("0123456789ab", "0123456789ab")):
            env = dict(os.environ, GPUBARRIER_GIT_SHA=env_sha)
            p = subprocess.run(["cmake", f"-DSOURCE_DIR={copy}", f"-DOUT={header}",
                                "-DVERSION=0.1.0", "-P", script],
                               capture_output=True, text=True, env=env)
            text = open(header).read() if os.path.exists(header) else ""
            expect(p.returncode == 0 and f'GPUBARRIER_GIT_SHA "{want}"' in text,
                   f"a nested copy with GPUBARRIER_GIT_SHA={env_sha!r} reports {want}", p)


def test_topo_without_gpu():
    # On a machine without GPU, topo maps what there is: hwloc's CPUs and NUMA nodes, "no GPU" once.
    if has_gpu():
        pytest.skip("a GPU is visible: tests/topology checks the text of a machine without one")
    p = gpubarrier("topo")
    expect(p.returncode == 0, "topo exits 0", p)
    expect("\nCPUs:" in p.stdout and "\nNUMA nodes:        0: CPUs " in p.stdout,
           "the CPUs and NUMA nodes hwloc sees", p)
    expect(p.stdout.count("no GPU") == 1, "'no GPU' said once", p)
    for absent in ("NVLink", "NVSwitch", "Class:", "N/A", "not recorded"):
        expect(absent not in p.stdout, f"nothing of GPUs without one: {absent!r}", p)
    cpus = json.loads(gpubarrier("topo", "--json").stdout)["cpus"]
    expect(cpus["pus"] >= 1 and cpus["cores"] >= 1 and cpus["numa_nodes"], f"topo --json: {cpus}")


def test_help():
    p = gpubarrier("run", "--help")
    expect(p.returncode == 0 and "--axis" in p.stdout and "Examples" in p.stdout, "run --help teaches", p)
    p = gpubarrier()
    expect(p.returncode == 2 and "list" in p.stderr, "no subcommand shows usage", p)
    expect(p.stderr.startswith("gpubarrier measures") and
           "Usage: gpubarrier [OPTIONS] SUBCOMMAND" in p.stderr,
           "the usage line names the program", p)
    for args in (["--help"], ["run", "--help"]):
        p = gpubarrier(*args)
        expect("Usage: gpubarrier " in p.stdout, f"{' '.join(args)}: the program's name, not its path", p)


def selfcheck_rows(header):
    """A selfcheck run as the CSV holds it (notes in the form of core/selfcheck_records.hpp): the
    loop kernel disagreeing at 2048 and agreeing at 5120, two unrolled chains of which the
    second overflows the instruction cache; plus one ordinary latency row."""
    def row(method, config, technique, value, stddev, samples, note, metric="cycles_per_add"):
        r = dict.fromkeys(header, "")
        r.update(schema_version="1", run_id="20261123T090000Z-gpu1-42", host="gpu1",
                 gpu_model="NVIDIA H100 80GB HBM3", gpu_count="1", gpu_ids="0", topology="single",
                 method=method, level="kernel", launcher="single", config=config,
                 technique=technique, samples=str(samples), metric=metric,
                 unit="cycles" if metric == "cycles_per_add" else "ns", value=str(value),
                 mean=str(value), stddev=str(stddev), stop="converged", status="ok", note=note)
        return r
    clock = "SM clock 1980 MHz measured"
    agree = "deviation {}; agreement {} (tolerance 5%, or 2 standard errors); SM clock 1980 MHz " \
            "in the pair's kernels"
    loop, unrolled = "selfcheck.fadd.loop", "selfcheck.fadd.unrolled"
    return [
        row(loop, "repeat_difference=0 base_trips=20", "clock", 4.037, 0.004, 20, clock),
        row(loop, "repeat_difference=2048 base_trips=20", "clock", 4.038, 0.004, 20, clock),
        row(loop, "repeat_difference=2048 base_trips=20", "differential", 4.588, 2.566, 3129,
            agree.format("+13.6%", "none")),
        row(loop, "repeat_difference=5120 base_trips=20", "clock", 4.038, 0.004, 20, clock),
        row(loop, "repeat_difference=5120 base_trips=20", "differential", 4.05, 0.948, 549,
            agree.format("+0.3%", "tolerance")),
        row(unrolled, "repeat_difference=0 base_adds=512", "clock", 3.996, 0.004, 20,
            "8 KiB of code; the base chain"),
        row(unrolled, "repeat_difference=2048 base_adds=512", "clock", 3.999, 0.004, 20,
            "40 KiB of code; fits the instruction cache (+0.1% against the 512-add chain, "
            "margin 10%)"),
        row(unrolled, "repeat_difference=2048 base_adds=512", "differential", 4.377, 2.4, 2873,
            "launch difference +771 cycles (standard error 90); " + clock),
        row(unrolled, "repeat_difference=10240 base_adds=512", "clock", 5.005, 0.004, 20,
            "168 KiB of code; overflows the instruction cache (+25.3% against the 512-add "
            "chain, margin 10%)"),
        row(unrolled, "repeat_difference=10240 base_adds=512", "differential", 5.054, 0.53, 109,
            "launch difference -16 cycles (standard error 518); " + clock),
        row("host.omp.barrier", "group_size=2", "host-loop", 350.0, 20.0, 100, "", "latency"),
    ]


def test_selfcheck():
    # Bad flags fail before anything else, GPU or not.
    p = gpubarrier("selfcheck", "--tolerance", "2", "--out", "none")
    expect(p.returncode == 2 and "--tolerance must be within (0, 1)" in p.stderr, "tolerance", p)
    p = gpubarrier("selfcheck", "--out", "/proc/nope/x.csv")
    expect(p.returncode == 2 and "cannot write output file" in p.stderr, "unwritable --out", p)
    with tempfile.TemporaryDirectory() as d:
        if not has_gpu():
            # Without a GPU: exit 1 (nothing was checked), and rows that say why.
            out = os.path.join(d, "none.csv")
            p = gpubarrier("selfcheck", "--out", out)
            expect(p.returncode == 1 and "selfcheck needs a CUDA GPU" in p.stderr, "no GPU", p)
            rows = read_csv(out)
            methods = [r["method"] for r in rows]
            expect(methods == ["selfcheck.fadd.loop", "selfcheck.fadd.unrolled"],
                   f"one row per selfcheck method: {rows}")
            for r in rows:
                expect(r["status"] == "skipped" and "no CUDA GPU visible" in r["note"], f"{r}")
                expect(r["level"] == "kernel" and r["value"] == "", f"{r}")
        # report.py and plot.py on a selfcheck run, in the header gpubarrier writes.
        header_csv = os.path.join(d, "header.csv")
        gpubarrier("run", "--methods", "host.mpi.barrier", "--out", header_csv)
        with open(header_csv, newline="") as f:
            header = next(csv.reader(f))
        synthetic = os.path.join(d, "selfcheck.csv")
        with open(synthetic, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header, lineterminator="\r\n")
            w.writeheader()
            w.writerows(selfcheck_rows(header))
        p = subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.report", "selfcheck", synthetic],
                           capture_output=True, text=True)
        expect(p.returncode == 0, "report.py selfcheck exits 0", p)
        for line in ("| 20 | 2048 | 4.038 | 4.588 ± 0.046 | +13.6% | **no** |",
                     "| 20 | 5120 | 4.038 | 4.050 ± 0.040 | +0.3% | within 5% |",
                     "| 2560 | 40 KiB | 3.999 | fits | 4.377 ± 0.045 | +771 ± 90 |",
                     "| 10752 | 168 KiB | 5.005 | overflows | 5.054 ± 0.051 | -16 ± 518 |"):
            expect(line in p.stdout, f"report shows {line}", p)
        plots = os.path.join(d, "plots")
        p = subprocess.run([python_with_matplotlib(), "-m", "gpubarrier_tools.cli.plot", synthetic, "--out",
                            plots], capture_output=True, text=True, timeout=300)
        expect(p.returncode == 0, "plot.py takes selfcheck rows beside latency rows", p)
        expect({"selfcheck.png", "summary.png"} <= set(os.listdir(plots)), "both plots", p)
        only = os.path.join(d, "only.csv")
        with open(only, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=header, lineterminator="\r\n")
            w.writeheader()
            w.writerows(selfcheck_rows(header)[:-1])
        p = subprocess.run([python_with_matplotlib(), "-m", "gpubarrier_tools.cli.plot", only,
                            "--out", os.path.join(d, "only")], capture_output=True, text=True,
                           timeout=300)
        expect(p.returncode == 0 and
               sorted(os.listdir(os.path.join(d, "only"))) == ["selfcheck.png", "selfcheck.svg"],
               "a selfcheck-only CSV gives selfcheck.png (and .svg) alone", p)



#!/usr/bin/env python3
"""Host barriers whose spinning members outnumber their CPUs: the rows are measured, stay `ok`,
and their note says `noisy: oversubscribed: ...` (results/SCHEMA.md "Noisy figures"), so that no
such figure becomes an answer or a verdict.

omp_team     host.omp.barrier group_size=8 on at most 2 CPUs: both rows noisy, naming 8 threads
omp_fits     group_size=2 on 2 CPUs: no oversubscription claimed
mpi_ranks    mpirun -np 3 --bind-to none on 2 CPUs: host.mpi.barrier's rows noisy, naming 3 ranks
mpi_bound    mpirun -np 2 --bind-to core: a core each, no oversubscription claimed (the ranks'
             CPUs are counted together, not each rank's one core)
cpus_taken   the same team of 2 on 2 CPUs, each CPU shared with a busy process: both rows
             noisy, naming the share of a CPU each thread had; likewise 2 ranks of mpirun
compare      gpubarrier_tools/cli/compare.py gives no verdict ("N.NNx slower") where a side's row is noisy

Run by pytest: pytest tests/.../test_oversubscribe.py [--gpubarrier PATH]
"""
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

from bounded_run import run_bounded
from cli_common import clean_env, executable, expect, read_csv, synthetic_row, write_rows

EXE = executable()
QUICK = ["--samples", "2", "--time-budget", "0.2"]


def cpus(n):
    """`taskset -c` of this process's first n CPUs (the test needs n of them), as a prefix."""
    mine = sorted(os.sched_getaffinity(0))
    if len(mine) < n or not shutil.which("taskset"):
        pytest.skip(f"needs {n} CPUs and taskset")
    return ["taskset", "-c", ",".join(str(c) for c in mine[:n])]


def rows_of(cmd, out, env=None):
    p = run_bounded(cmd, env=clean_env(env), timeout=300)
    expect(p.returncode == 0, f"exit 0: {' '.join(cmd)}", p)
    rows = read_csv(out)
    expect(rows, "rows written", p)
    return rows, p


def omp(n_cpus, group_size):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "o.csv")
        return rows_of([*cpus(n_cpus), EXE, "run", "--methods", "host.omp.barrier", "--axis",
                        f"group_size={group_size}", *QUICK, "--out", out], out)


def expect_oversubscribed(rows, p, words):
    expect({r["metric"] for r in rows} == {"loop_latency", "latency"}, "both rows", p)
    for r in rows:
        expect(r["status"] == "ok", f"measured, status ok: {r['status']} {r['note']}", p)
        expect("noisy: " in r["note"] and "oversubscribed: " + words in r["note"],
               f"the note says noisy: oversubscribed: {words}: {r['note']}", p)


def expect_not_oversubscribed(rows, p):
    for r in rows:
        expect(r["status"] == "ok", f"status ok: {r['status']} {r['note']}", p)
        expect("oversubscribed" not in r["note"], f"no oversubscription claimed: {r['note']}", p)


def test_omp_team():
    n = min(2, len(os.sched_getaffinity(0)))
    rows, p = omp(n, 8)
    expect_oversubscribed(rows, p, f"8 spinning threads on {n} CPU")


def test_omp_fits():
    rows, p = omp(2, 2)
    expect_not_oversubscribed(rows, p)


@contextlib.contextmanager
def busy(prefix):
    """One busy process on each CPU of `prefix` (`taskset -c a,b`), for as long as the block
    runs: whatever runs there too gets about half of each CPU."""
    spin = [sys.executable, "-c", "print('spinning', flush=True)\nwhile True: pass"]
    procs = [subprocess.Popen(["taskset", "-c", c, *spin], stdout=subprocess.PIPE, text=True)
             for c in prefix[-1].split(",")]
    try:
        for q in procs:
            expect(q.stdout.readline().strip() == "spinning", "a busy process spins")
        yield
    finally:
        for q in procs:
            q.kill()
            q.wait()


def expect_cpus_taken(rows, p, who):
    for r in rows:
        expect(r["status"] == "ok", f"measured, status ok: {r['status']} {r['note']}", p)
        expect("noisy: " in r["note"] and f"{who} had " in r["note"] and
               "% of a CPU each (other work took the rest)" in r["note"],
               f"the note says noisy: {who} had N% of a CPU each: {r['note']}", p)


def test_omp_cpus_taken():
    with busy(cpus(2)):
        rows, p = omp(2, 2)
    expect_not_oversubscribed(rows, p)
    expect_cpus_taken(rows, p, "threads")


def mpirun(n_cpus, np, *binding):
    mpi = shutil.which("mpirun")
    expect(mpi, "mpirun on PATH (scripts/setup installs openmpi-bin)")
    env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_btl": "self,tcp", "OMPI_MCA_rmaps_base_oversubscribe": "1"}
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.csv")
        return rows_of([*cpus(n_cpus), mpi, "-np", str(np), "--oversubscribe", *binding, EXE,
                        "run", "--methods", "host.mpi.barrier", *QUICK, "--out", out], out, env)


@pytest.mark.mpi
def test_mpi_ranks():
    rows, p = mpirun(2, 3, "--bind-to", "none")
    expect_oversubscribed(rows, p, "3 spinning ranks on 2 CPUs")


@pytest.mark.mpi
def test_mpi_bound():
    rows, p = mpirun(2, 2, "--bind-to", "core")
    expect_not_oversubscribed(rows, p)


@pytest.mark.mpi
def test_mpi_cpus_taken():
    with busy(cpus(2)):
        rows, p = mpirun(2, 2, "--bind-to", "none")
    expect_not_oversubscribed(rows, p)
    expect_cpus_taken(rows, p, "ranks")


def test_compare():
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from gpubarrier_tools.data import gbcsv
    quiet = dict(method="host.mpi.barrier", level="host", launcher="mpi", ranks="2",
                 technique="host-loop", metric="loop_latency", unit="ns", stddev="10",
                 samples="20", statistic="loop-mean-avg-ranks", cv="0.05")
    noisy = dict(quiet, value="7999540", cv="0.14",
                 note="noisy: loop_latency 16326x latency (more than 4x apart: members waited "
                      "for CPUs)")
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.csv"), os.path.join(d, "b.csv")
        write_rows(a, gbcsv.NAMES, [synthetic_row(gbcsv.NAMES, gbcsv.LATEST, value="170", **quiet)])
        write_rows(b, gbcsv.NAMES, [synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **noisy)])
        p = subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.compare", a, b],
                           capture_output=True, text=True, timeout=300, cwd=root)
        expect(p.returncode == 0, "compare.py runs", p)
        expect("slower" not in p.stdout.replace("0 slower", ""), "no slower/faster verdict", p)
        expect("noisy, no verdict: loop_latency 16326x latency" in p.stdout,
               "the verdict names why there is none", p)

#!/usr/bin/env python3
"""MPI: the real OpenMPI mpirun drives gpubarrier; rank 0 writes the CSV.

Run by pytest: pytest tests/mpi/test_mpi.py. The node proxy's tests run
tests/mpi/node_proxy_check.cpp's program: GB_NODE_PROXY_CHECK (ctest sets it), else
build/tests/node_proxy_check beside the gpubarrier under test; skipped where it was not built (no
MPI).
"""
import csv
import os
import re
import shutil
import subprocess

import pytest

from bounded_run import run_bounded
from cli_common import executable, loop_against_step

EXE = executable()


def mpirun_two(*args, extra_env=None, mpirun_args=(), timeout=300):
    """`mpirun -np 2 [MPIRUN_ARGS] gpubarrier ARGS` on this machine's CPUs; the finished process."""
    mpirun = shutil.which("mpirun")
    if not mpirun:
        pytest.fail("mpirun not found (scripts/setup installs openmpi-bin)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_rmaps_base_oversubscribe="1", **(extra_env or {}))
    forward = [a for var in (extra_env or {}) for a in ("-x", var)]
    return run_bounded([mpirun, "-np", "2", "--oversubscribe", *mpirun_args, *forward, EXE, *args],
                       env=env, timeout=timeout)


def one_message(p, says):
    """Bad input under mpirun: exit 2, one `gpubarrier: error:` line (rank 0's) saying `says`, no
    MPI_Abort banner, no rank that left MPI without its orderly end."""
    out = p.stdout + p.stderr
    lines = [l for l in out.splitlines() if l.startswith("gpubarrier: ")]
    problems = [what for bad, what in (
        (p.returncode != 2, f"exit {p.returncode}, expected 2"),
        (len(lines) != 1, f"{len(lines)} gpubarrier lines, expected one"),
        (not lines or says not in lines[0], f"no line says {says!r}"),
        ("MPI_ABORT" in out, "an MPI_Abort banner"),
        ("exiting improperly" in out or "without calling \"finalize\"" in out,
         "a rank left without MPI_Finalize"),
        ("Traceback" in out, "a traceback")) if bad]
    if problems:
        pytest.fail("; ".join(problems) + f"\n{out}")


def test_bad_input_one_message(tmp_path):
    # Found before MPI starts (the command line, a sweep file) or only by one rank (MPMD: rank 1
    # alone was given a misspelt method): every rank exits 2, rank 0 says it once.
    sweep = tmp_path / "typo.yaml"
    sweep.write_text("runs:\n  - methods: host.mpi.barrier\n    axes: {group_sise: [2]}\n")
    one_message(mpirun_two("run", "--methods", "host.mpi.barier", "--out", "none"),
                "no method matches 'host.mpi.barier'")
    one_message(mpirun_two("run", "--methods", "host.mpi.barrier", "--samples", "x"), "--samples")
    one_message(mpirun_two("sweep", str(sweep), "--out", "none"),
                f"{sweep}:3:12: runs[0].axes.group_sise")
    mpirun = shutil.which("mpirun")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_rmaps_base_oversubscribe="1")
    good = [EXE, "run", "--methods", "host.mpi.barrier", "--out", "none"]
    bad = [EXE, "run", "--methods", "host.mpi.barier", "--out", "none"]
    one_message(run_bounded([mpirun, "--oversubscribe", "-np", "1", *good, ":", "-np", "1", *bad],
                            env=env, timeout=300),
                "rank 1: no method matches 'host.mpi.barier'")


def test_barrier_two_ranks(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "mpi.csv")
    p = mpirun_two("run", "--methods", "host.mpi.barrier", "--out", out, "--samples", "20",
                   "--time-budget", "1")
    if p.returncode != 0:
        pytest.fail(f"mpirun exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) != 2:
        pytest.fail(f"expected two rows (rank 0 writes loop_latency and latency), got {len(rows)}")
    for r in rows:
        checks = [r["method"] == "host.mpi.barrier", r["status"] == "ok", r["ranks"] == "2",
                  r["launcher"] == "mpi", float(r["value"]) > 0, int(r["samples"]) >= 20,
                  r["technique"] == "host-loop", r["mpi"].startswith("Open MPI"),
                  # MPI_Barrier has no wait check: the row says so and stays ok
                  r["note"].startswith("not verified: "),
                  # where the ranks ran (mpirun binds 2 ranks a core each): in the note
                  re.search(r"; ranks on CPUs \S+( / \S+| each)", r["note"]) is not None]
        if not all(checks):
            pytest.fail(f"row {r}")
    loop, step = rows
    # The headline first: osu_barrier's convention (each rank's loop mean, averaged over ranks)
    if (loop["metric"], loop["unit"], loop["statistic"]) != ("loop_latency", "ns",
                                                             "loop-mean-avg-ranks"):
        pytest.fail(f"first row is not the loop_latency headline: {loop}")
    if int(loop["reps_hi"]) < 20 or "per-rank loop means min" not in loop["note"]:
        pytest.fail(f"loop row without steps per loop or per-rank min/max: {loop}")
    if (step["metric"], step["statistic"]) != ("latency", "median"):
        pytest.fail(f"second row is not the per-step median: {step}")
    # A loop of barriers costs what its steps cost: the typical loop (median over loops) within
    # a sane factor of the per-step median; the mean over loops too; unless preemption pulled
    # them and the rows say they are noisy.
    problem = loop_against_step(loop, step)
    if problem:
        pytest.fail(f"{problem}: loop {loop}, step {step}")
    per_step = float(step["median"])
    if float(loop["value"]) > 20 * per_step and "noisy:" not in loop["note"]:
        pytest.fail(f"loop mean {loop['value']} ns >> per-step {per_step} ns, not noisy")


def test_member_throws(tmp_path):
    # Rank 1 throws in its measure part of host.mpi.barrier (GPUBARRIER_TEST_THROW, test-only:
    # core/faults.hpp). Both ranks must end that point as failed and go on: a rank that left
    # its MPI_Barrier loop early would leave rank 0 waiting in it forever (a hang), or meet it in
    # the wrong collective. host.omp.barrier (rank 0 alone) then measures, and both ranks reach
    # MPI_Finalize in time. (No other collective method runs without a GPU, and a point runs
    # once per process; mpi.gpu_member_throws measures the next collective point.)
    timeout = 120
    d = str(tmp_path)
    out = os.path.join(d, "mpi.csv")
    try:
        p = mpirun_two("run", "--methods", "host.mpi.barrier,host.omp.barrier", "--axis",
                       "group_size=2", "--out", out, "--samples", "20", "--time-budget", "0.5",
                       extra_env={"GPUBARRIER_TEST_THROW": "measure:1"},
                       # rank 0's two OpenMP threads need two CPUs, not the one core each
                       # rank is bound to by default
                       mpirun_args=("--bind-to", "none"), timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung: mpirun did not end within {timeout} s after rank 1 threw")
    if p.returncode != 0:
        pytest.fail(f"mpirun exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    statuses = [(r["method"], r["metric"], r["status"]) for r in rows]
    if statuses != [("host.mpi.barrier", "", "failed"), ("host.omp.barrier", "loop_latency", "ok"),
                    ("host.omp.barrier", "latency", "ok")]:
        pytest.fail(f"expected host.mpi.barrier failed, then host.omp.barrier ok: {statuses}")
    failed = rows[0]
    if "rank 1 failed: GPUBARRIER_TEST_THROW" not in failed["note"] or failed["ranks"] != "2":
        pytest.fail(f"the failed row must name rank 1 and its message: {failed}")
    # Every rank wrote the point off as failed, not only rank 0 (rank 0 alone writes rows; each
    # rank logs its failed point).
    logged = p.stderr.count("rank 1 failed: GPUBARRIER_TEST_THROW")
    if logged != 2:
        pytest.fail(f"both ranks must log the failed point, {logged} did\n{p.stderr}")


def test_simulated_nodes(tmp_path):
    """GPUBARRIER_TEST_RANKS_AS_NODES=1 (test only): 2 ranks on one machine count as 2
    nodes, each named by its rank, and the system column says `simulated`."""
    d = str(tmp_path)
    out = os.path.join(d, "nodes.csv")
    p = mpirun_two("run", "--methods", "host.mpi.barrier", "--out", out, "--samples", "5",
                   "--time-budget", "0.2", "--system", "lab",
                   extra_env={"GPUBARRIER_TEST_RANKS_AS_NODES": "1"})
    if p.returncode != 0:
        pytest.fail(f"mpirun exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    names = rows[0]["node"].split(",") if rows else []
    bad = [r for r in rows if r["nodes"] != "2" or r["system"] != "lab-simulated"
           or r["node"] != rows[0]["node"] or r["status"] != "ok"]
    if not rows or bad or len(names) != 2 or not all(
            n.endswith(f"-rank{i}") for i, n in enumerate(names)):
        pytest.fail(f"rows must say nodes=2, system lab-simulated, one node per rank: "
                    f"{bad or rows}")
    if "every rank counts as a node of its own" not in p.stderr:
        pytest.fail(f"the test setting is not announced\n{p.stderr}")


def test_multinode_without_gpu(tmp_path):
    """multinode.hierarchical on CPUs: listed at level multi-node; under mpirun with 2
    ranks as 2 "nodes" (GPUBARRIER_TEST_RANKS_AS_NODES=1) every point is one clean skipped row
    with the reason, on 2 nodes (outside mpirun: unit test MultinodeUsable). The same
    setting with 2 ranks per node makes one node of both ranks; a bad value is refused."""
    p = run_bounded([EXE, "list"], timeout=120)
    listed = [line for line in p.stdout.splitlines() if line.startswith("multinode.hierarchical")]
    if p.returncode != 0 or len(listed) != 1 or " multi-node " not in listed[0] or \
            "network=host-proxy,device-initiated" not in listed[0] or " no: " not in listed[0]:
        pytest.fail(f"list must show multinode.hierarchical (multi-node, network axis, not "
                    f"usable outside mpirun): {p.returncode} {listed}\n{p.stderr}")
    d = str(tmp_path)
    out = os.path.join(d, "multinode.csv")
    p = mpirun_two("run", "--methods", "multinode.hierarchical", "--out", out, "--system", "lab",
                   extra_env={"GPUBARRIER_TEST_RANKS_AS_NODES": "1"})
    if p.returncode != 0:
        pytest.fail(f"mpirun exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    if any(r["status"] == "ok" for r in rows):
        pytest.skip("GPUs visible here; mpi.gpu_multinode_* cover the method")
    bad = [r for r in rows if r["status"] != "skipped" or r["level"] != "multi-node"
           or r["nodes"] != "2" or r["ranks"] != "2" or r["system"] != "lab-simulated"
           or "no CUDA GPU visible" not in r["note"]]
    if len(rows) != 1 or bad:
        pytest.fail(f"one skipped row on 2 simulated nodes with the reason: {rows}")
    out2 = os.path.join(d, "pairs.csv")
    p = mpirun_two("run", "--methods", "host.mpi.barrier", "--out", out2, "--samples", "5",
                   "--time-budget", "0.2", extra_env={"GPUBARRIER_TEST_RANKS_AS_NODES": "2"})
    if p.returncode != 0:
        pytest.fail(f"mpirun exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    with open(out2, newline="") as f:
        pairs = list(csv.DictReader(f))
    names = pairs[0]["node"].split(",") if pairs else []
    if not pairs or any(r["nodes"] != "1" for r in pairs) or len(names) != 2 or \
            len(set(names)) != 1 or not names[0].endswith("-node0") or \
            "every 2 ranks count as one node" not in p.stderr:
        pytest.fail(f"=2 must make one node of both ranks, named <node>-node0: {pairs}\n"
                    f"{p.stderr}")
    p = mpirun_two("run", "--methods", "host.mpi.barrier", "--out", "none",
                   extra_env={"GPUBARRIER_TEST_RANKS_AS_NODES": "yes"})
    if p.returncode == 0 or "GPUBARRIER_TEST_RANKS_AS_NODES='yes'" not in p.stderr:
        pytest.fail(f"a bad value must be refused: {p.returncode}\n{p.stderr}")


@pytest.fixture(scope="module")
def node_proxy_check(gpubarrier):
    path = os.environ.get("GB_NODE_PROXY_CHECK") or \
        os.path.join(os.path.dirname(gpubarrier), "tests", "node_proxy_check")
    if not os.access(path, os.X_OK):
        pytest.skip(f"no {path} (built with MPI only)")
    return path


@pytest.mark.parametrize("mode", ["healthy_barrier", "healthy_min", "absent_min",
                                  "absent_barrier"])
def test_node_proxy(node_proxy_check, mode):
    """The host proxy of multinode.hierarchical without a GPU (tests/mpi/node_proxy_check.cpp):
    2 ranks, each a node leader whose "GPU" is a thread."""
    check = node_proxy_check
    mpirun = shutil.which("mpirun")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_rmaps_base_oversubscribe="1")
    p = run_bounded([mpirun, "-np", "2", "--oversubscribe", check, mode], env=env, timeout=60)
    if p.returncode != 0 or p.stdout.count("ok rank") != 2:
        pytest.fail(f"{mode}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")


def test_thread_level(tmp_path):
    """The MPI thread level asked for (--mpi-thread-level, GPUBARRIER_MPI_THREAD_LEVEL; default
    single) is the one MPI_Init_thread provided and every row says it; a bad name is refused."""
    d = str(tmp_path)
    levels = {}
    for name, args, env in [("default", [], None),
                            ("flag", ["--mpi-thread-level", "funneled"], None),
                            ("env", [], {"GPUBARRIER_MPI_THREAD_LEVEL": "multiple"})]:
        out = os.path.join(d, name + ".csv")
        p = mpirun_two("run", "--methods", "host.mpi.barrier", "--out", out, "--samples", "5",
                       "--time-budget", "0.2", *args, extra_env=env)
        if p.returncode != 0:
            pytest.fail(f"{name}: mpirun exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        with open(out, newline="") as f:
            levels[name] = {r["mpi_thread_level"] for r in csv.DictReader(f)}
    want = {"default": {"single"}, "flag": {"funneled"}, "env": {"multiple"}}
    if levels != want:
        pytest.fail(f"mpi_thread_level per run {levels}, expected {want}")
    p = mpirun_two("run", "--methods", "host.mpi.barrier", "--out", "none",
                   "--mpi-thread-level", "threaded")
    if p.returncode == 0 or "--mpi-thread-level: threaded not in {single,funneled," \
            "serialized,multiple}" not in p.stderr:
        pytest.fail(f"a bad level not refused: {p.returncode}\n{p.stderr}")


def test_lost_point(tmp_path):
    """A rank that dies inside a point takes every rank down (OpenMPI), so none writes the point's
    row: rank 0's in-flight mark beside the CSV lets `gpubarrier lost-point` write it (timeout),
    and --resume goes on with the next point instead of the same one."""
    sweep = "samples: 5\ntime_budget: 0.1\nruns:\n  - methods: host.mpi.barrier\n" \
            "  - methods: host.omp.barrier\n    axes: {group_size: [2]}\n"
    d = str(tmp_path)
    path, out = os.path.join(d, "s.yaml"), os.path.join(d, "lost.csv")
    mark = out + ".inflight"
    with open(path, "w") as f:
        f.write(sweep)
    # Rank 1 alone aborts inside host.mpi.barrier's point (test hook, glob@rank).
    p = mpirun_two("sweep", path, "--out", out, "--resume",
                   extra_env={"GPUBARRIER_TEST_CRASH": "host.mpi.barrier@1"}, timeout=120)
    if p.returncode == 0 or not os.path.exists(mark):
        pytest.fail(f"rank 1's abort must end the run and leave the point's mark: exit "
                    f"{p.returncode}, mark {os.path.exists(mark)}\n{p.stderr[-2000:]}")
    with open(mark) as f:
        saved_mark = f.read()
    lost = subprocess.run([EXE, "lost-point", "--out", out, "--note", "test: rank 1 died"],
                          capture_output=True, text=True, timeout=60)
    if lost.returncode != 0 or "host.mpi.barrier" not in lost.stdout or os.path.exists(mark):
        pytest.fail(f"lost-point must record the point and remove the mark: exit "
                    f"{lost.returncode}\n{lost.stdout}{lost.stderr}")
    p = mpirun_two("sweep", path, "--out", out, "--resume", timeout=120)
    if p.returncode != 0:
        pytest.fail(f"the resumed run: exit {p.returncode}\n{p.stderr[-2000:]}")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    got = [(r["method"], r["status"]) for r in rows]
    if got[0] != ("host.mpi.barrier", "timeout") or \
            [m for m, _ in got].count("host.mpi.barrier") != 1 or \
            not any(m == "host.omp.barrier" for m, _ in got):
        pytest.fail(f"expected host.mpi.barrier once (timeout), then host.omp.barrier "
                    f"from the resumed run: {got}")
    note = rows[0]["note"]
    if not note.startswith("lost: ") or "test: rank 1 died" not in note or \
            rows[0]["ranks"] != "2" or rows[0]["launcher"] != "mpi":
        pytest.fail(f"the lost row says why, with the point's own ranks: {rows[0]}")
    again = subprocess.run([EXE, "lost-point", "--out", out], capture_output=True, text=True,
                           timeout=60)
    if again.returncode != 3 or "no point in flight" not in again.stdout:
        pytest.fail(f"with nothing in flight lost-point writes nothing and exits 3: "
                    f"{again.returncode}\n{again.stdout}{again.stderr}")
    # A mark of a point that is done (a run killed between its completion line and the
    # mark's removal) is removed, and nothing is written.
    with open(mark, "w") as f:
        f.write(saved_mark)
    again = subprocess.run([EXE, "lost-point", "--out", out], capture_output=True, text=True,
                           timeout=60)
    if again.returncode != 3 or "finished before the run ended" not in again.stdout or \
            os.path.exists(mark):
        pytest.fail(f"the mark of a finished point: {again.returncode}\n{again.stdout}")
    # A run that replaces the old CSV (--force, not --resume) drops a stale mark with it.
    with open(mark, "w") as f:
        f.write("stale\n")
    p = mpirun_two("sweep", path, "--out", out, "--force", timeout=120)
    if p.returncode != 0 or os.path.exists(mark):
        pytest.fail(f"a fresh run must remove a stale mark: exit {p.returncode}")
    bad = os.path.join(d, "bad.csv")
    with open(bad + ".inflight", "w") as f:
        f.write("not a point\n")
    p = subprocess.run([EXE, "lost-point", "--out", bad], capture_output=True, text=True,
                       timeout=60)
    if p.returncode == 0 or "bad.csv.inflight:1: expected the point" not in p.stderr:
        pytest.fail(f"a malformed mark is named with its line: {p.returncode} {p.stderr}")

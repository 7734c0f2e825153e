#!/usr/bin/env python3
"""--isolate of the real executable: a point that aborts becomes a `failed` row with the end of
its output, a point that hangs becomes a `timeout` row once --point-timeout passes (its child
killed with its process group), and the points after them still run. The crash and the hang
come from the runner's test-only hooks GPUBARRIER_TEST_CRASH / GPUBARRIER_TEST_HANG.

Run by pytest: pytest tests/cli/test_isolation.py [-m hang_wait | -m "not hang_wait"]
"""
import csv
import json
import os
import signal
import subprocess
import time

from cli_common import executable, expect, run_gpubarrier, write_text

EXE = executable()
TOKEN = f"GB_ISOLATION_TEST_{os.getpid()}"
# Sleeping OpenMP threads: spinning ones on a loaded 2-CPU machine wait out each other's time
# slices, and a healthy point then took over 8 s beside other tests.
FAULTS = {"GPUBARRIER_TEST_CRASH": "host.omp.barrier group_size=3",
          "GPUBARRIER_TEST_HANG": "host.omp.barrier group_size=4", "GB_TEST_TOKEN": TOKEN,
          "OMP_WAIT_POLICY": "passive"}
# The hang is a real one (it never ends), so the limit only has to be longer than any healthy
# point on a loaded 2-CPU CI machine; each case waits it out once.
POINT_TIMEOUT = 30
SWEEP = """name: isolation-test
samples: 5
time_budget: 0.1
point_timeout: %d
runs:
  - methods: host.omp.barrier
    axes: {group_size: [2, 3, 4, 5]}
  - methods: gpu.block.syncthreads
    axes: {threads_per_block: [32]}
""" % POINT_TIMEOUT


def gpubarrier(*args, env=None):
    return run_gpubarrier(EXE, *args, env=env)


def leftovers():
    pids = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if TOKEN.encode() in f.read():
                    pids.append(pid)
        except OSError:
            pass
    return pids


def children():
    """Isolated children (they run with --child-fd) of this test."""
    found = []
    for pid in leftovers():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"--child-fd" in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


def check_rows(rows, proc):
    by = {(r["method"], r["config"]): r for r in rows}
    crash = by.get(("host.omp.barrier", "group_size=3"))
    hang = by.get(("host.omp.barrier", "group_size=4"))
    expect(crash and crash["status"] == "failed", f"the aborting point is a failed row: {crash}",
           proc)
    expect("signal 6" in crash["note"] and "GPUBARRIER_TEST_CRASH: aborting" in crash["note"],
           f"the failed row says how the child died and its last output: {crash['note']}")
    expect(hang and hang["status"] == "timeout", f"the hanging point is a timeout row: {hang}",
           proc)
    expect(f"--point-timeout {POINT_TIMEOUT} s" in hang["note"] and "hanging in" in hang["note"],
           f"the timeout row names the limit and the last output: {hang['note']}")
    expect(by[("host.omp.barrier", "group_size=2")]["status"] in ("ok", "skipped"), "before", proc)
    expect(("host.omp.barrier", "group_size=5") in by, "the point after them ran", proc)
    expect(any(m == "gpu.block.syncthreads" for m, _ in by), "the next method ran", proc)
    figures = [(r["method"], r["config"], r["gpu_ids"], r["technique"], r["metric"]) for r in rows]
    expect(len(figures) == len(set(figures)), "each figure once", proc)
    expect(not leftovers(), f"a child outlived its point: pids {leftovers()}")
    run_ids = {r["run_id"] for r in rows}
    expect(len(run_ids) == 1, f"children write the parent's run_id: {run_ids}")


def sweep_file(d):
    return write_text(d, "s.yaml", SWEEP)


def test_per_method(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "o.csv")
    t0 = time.time()
    p = gpubarrier("sweep", sweep_file(d), "--out", out, env=FAULTS)  # sweep: method default
    expect(p.returncode == 0, "the sweep goes on and exits 0", p)
    expect(time.time() - t0 < POINT_TIMEOUT + 240,
           "the hang cost about --point-timeout, not a second one (a hang-only bound)", p)
    with open(out, newline="") as f:
        check_rows(list(csv.DictReader(f)), p)


def test_per_point(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "o.csv")
    p = gpubarrier("run", "--methods", "host.omp.barrier,gpu.block.syncthreads", "--axis",
                   "group_size=2,3,4,5", "--axis", "threads_per_block=32", "--out", out,
                   "--samples", "5", "--time-budget", "0.1",
                   env=dict(FAULTS, GPUBARRIER_ISOLATE="point", GPUBARRIER_POINT_TIMEOUT=str(POINT_TIMEOUT)))
    expect(p.returncode == 0, "run --isolate point (from the environment) exits 0", p)
    with open(out, newline="") as f:
        check_rows(list(csv.DictReader(f)), p)


def test_json(tmp_path):
    d = str(tmp_path)
    p = gpubarrier("--json", "sweep", sweep_file(d), "--out", "none", env=FAULTS)
    expect(p.returncode == 0, "exit 0", p)
    rows = json.loads(p.stdout)  # children's output went to stderr, stdout stays JSON
    check_rows([{k: "" if v is None else str(v) for k, v in r.items()} for r in rows], p)


def test_run_default_is_in_process(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "o.csv")
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2,3",
                   "--out", out, "--samples", "5", "--time-budget", "0.1", env=FAULTS)
    expect(p.returncode == -signal.SIGABRT, "without --isolate the crash ends the run", p)
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    expect([r["config"] for r in rows] == ["group_size=2"] * 2, "rows before it are kept", p)


def test_parent_killed(tmp_path):
    """A sweep killed with SIGKILL while its child hangs takes the child along (no orphan that
    keeps the GPU busy into the next job step)."""
    d = str(tmp_path)
    env = dict(os.environ, GPUBARRIER_TEST_HANG="host.omp.barrier*", GB_TEST_TOKEN=TOKEN)
    proc = subprocess.Popen([EXE, "sweep", sweep_file(d), "--out", os.path.join(d, "o.csv"),
                             "--point-timeout", "60"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while not children() and time.time() < deadline:
        time.sleep(0.05)
    expect(children(), "the child started")
    time.sleep(1.0)  # into its hang, well past start-up
    proc.kill()
    proc.wait()
    deadline = time.time() + 5
    while leftovers() and time.time() < deadline:
        time.sleep(0.05)
    expect(not leftovers(), f"the hung child outlived its killed sweep: pids {leftovers()}")

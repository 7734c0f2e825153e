#!/usr/bin/env python3
"""No hang, no silent mix-up, threads: one thread of host.omp.barrier throws
(GPUBARRIER_TEST_THROW=measure:1, test-only, core/faults.hpp). Its point must end as one
`failed` row that names the thread, well inside the timeout (a thread that left its barriers
would leave the others waiting forever, or end the process: an exception leaving an OpenMP
region terminates it), and the run must go on with the next point (group_size=4: measured, or
skipped where fewer than 4 CPUs are allowed). The MPI side is tests/mpi/test_mpi.py
member_throws.

Run by pytest: pytest tests/cli/test_member_fails.py [--gpubarrier PATH]
"""
import os
import subprocess
import tempfile
import time

import pytest

from cli_common import executable, expect, read_csv, run_gpubarrier

EXE = executable()
TIMEOUT_S = 120  # a hang fails the test here instead of blocking CI for ctest's 600 s


def test_omp_barrier_thread_throws():
    # The fault fires once per process, in the first point.
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "rows.csv")
        start = time.monotonic()
        try:
            p = run_gpubarrier(EXE, "run", "--methods", "host.omp.barrier", "--axis",
                               "group_size=2,4", "--samples", "10", "--time-budget", "0.5",
                               "--out", out, env={"GPUBARRIER_TEST_THROW": "measure:1"},
                               timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"gpubarrier hung: no end within {TIMEOUT_S} s after thread 1 threw")
        took = time.monotonic() - start
        expect(p.returncode == 0, f"exit {p.returncode}", p)
        rows = read_csv(out)
    failed, *rest = rows
    expect(failed["status"] == "failed" and failed["config"] == "group_size=2"
           and "thread 1 failed: GPUBARRIER_TEST_THROW" in failed["note"],
           f"the first point must fail naming thread 1: {rows}", p)
    next_point = [r["status"] for r in rest if r["config"] == "group_size=4"]
    expect(next_point in (["ok", "ok"], ["skipped"]) and len(rest) == len(next_point),
           f"the run must go on with group_size=4 (ok, or skipped for lack of CPUs): {rest}", p)
    expect("thread 1 failed" in p.stderr, "the failure must be logged", p)
    print(f"PASS: thread 1's failure ended its point in {took:.1f} s; next point {next_point}")

#!/usr/bin/env python3
"""Multi-GPU methods in threads mode on every visible GPU (1..N); exit 77 (ctest skip) without a
GPU, or when a case needs more GPUs than are visible.

Usage: test_multigpu.py GPUBARRIER CASE
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gpu_rows import NCCL_LSA, fail, gpu_count, rows_of, without_nccl_refusals  # noqa: E402

EXE, CASE = sys.argv[1], sys.argv[2]
# The fault axis (broken_variant, partial_participation) belongs to these alone: multigpu.nccl.lsa
# has none, since a GPU that skipped NCCL's barrier would leave its peers spinning inside NCCL,
# where no watchdog reaches (the host-side deadline can only report such a kernel, not end it).
DEVICE = "multigpu.device.*"
SMALL = ["--samples", "5", "--time-budget", "0.3", "--reps-lo", "64", "--reps-hi", "640"]
SHAPE = ["--axis", "blocks_per_sm=1", "--axis", "threads_per_block=128"]


def run_rows(*args, shape=True):
    return rows_of([EXE, "run", *SMALL, *(SHAPE if shape else []), *args],
                   env=dict(os.environ, NCCL_NVLS_ENABLE="0"))


def counts(n):
    return "gpu_count=" + ",".join(str(i) for i in range(1, n + 1))


def case_threads_all_methods():
    rows = run_rows("--methods", DEVICE + "," + NCCL_LSA + ",host.omp.gpu-barrier,"
                    "host.nccl.allreduce,kernel.multi-device-launch,multigpu.cg.multi-grid",
                    "--axis", counts(N))
    multi_grid = [r for r in rows if r["method"] == "multigpu.cg.multi-grid"]
    if any(r["status"] != "skipped" or "CUDA 13" not in r["note"] for r in multi_grid):
        fail("multi-grid must be skipped on CUDA 13 builds", multi_grid)
    rows = [r for r in rows if r["method"] != "multigpu.cg.multi-grid"]
    # NCCL gives no device communicator to a single GPU (no symmetric memory without peers).
    refused = {int(r["gpu_count"]) for r in rows if r not in without_nccl_refusals(rows)}
    rows = without_nccl_refusals(rows)
    bad = [r for r in rows if r["status"] != "ok" or "verified" not in r["note"]
           or float(r["value"]) <= 0 or r["launcher"] != "threads"]
    if bad:
        fail("rows not ok+verified in threads mode", bad)
    for method in {r["method"] for r in rows}:
        seen = sorted({int(r["gpu_count"]) for r in rows if r["method"] == method})
        expected = [n for n in range(1, N + 1) if method != NCCL_LSA or n not in refused]
        if seen != expected:
            fail(f"{method}: gpu_count column {seen}, expected {expected}", rows)
    print("PASS", [(r["method"], r["gpu_count"], r["value"]) for r in rows])


def case_host_wait():
    rows = run_rows("--methods", "host.omp.gpu-barrier", "--axis", "host_wait=0,1,2", shape=False)
    # Each point: loop_latency (EPCC's loop mean, the headline) first, then the per-step latency.
    if [r["metric"] for r in rows] != ["loop_latency", "latency"] * 3 or any(
            r["status"] != "ok" or "OMP_WAIT_POLICY" not in r["note"] for r in rows):
        fail("host_wait 0/1/2 must each give ok loop_latency and latency rows that record "
             "OMP_WAIT_POLICY", rows)
    print("PASS", [(r["config"], r["value"]) for r in rows])


def case_broken_variant():
    # fault=1 signals but never waits: the stamp check must catch every algorithm, on 1 GPU too.
    rows = run_rows("--methods", DEVICE, "--axis", "fault=1", "--axis", "ordering=0")
    if not rows or any(r["status"] != "unverified" for r in rows):
        fail("a barrier that does not wait must give unverified rows", rows)
    print("PASS", len(rows), "unverified rows")


def case_partial_participation():
    if N < 2:
        print("SKIP: partial participation needs 2 GPUs")
        sys.exit(77)
    # fault=2 keeps the last GPU out: the others must end on the watchdog, not hang.
    rows = run_rows("--methods", DEVICE, "--axis", "fault=2", "--axis", "ordering=0")
    if not rows or any(r["status"] != "timeout" for r in rows):
        fail("one GPU skipping the barrier must give timeout rows", rows)
    print("PASS", len(rows), "timeout rows")


def case_absent_alone():
    # fault=2 on one GPU would leave nobody to cross: empty launches that verify nothing. Refused.
    rows = run_rows("--methods", DEVICE, "--axis", "fault=2", "--axis", "gpu_count=1",
                    "--axis", "ordering=0")
    if not rows or any(r["status"] != "skipped" or "needs 2 or more GPUs" not in r["note"]
                       for r in rows):
        fail("fault=2 with one GPU must be skipped with the reason", rows)
    print("PASS", len(rows), "skipped rows")


N = gpu_count()
if N == 0:
    print("SKIP: no GPU visible")
    sys.exit(77)
globals()["case_" + CASE]()

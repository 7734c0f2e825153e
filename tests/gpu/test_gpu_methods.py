#!/usr/bin/env python3
"""GPU methods at small sizes on a real GPU; exit 77 (ctest skip) when none is visible.

Usage: test_gpu_methods.py GPUBARRIER CASE
"""
import os
import sys

from gpu_rows import has_gpu, rows_of, verified

EXE, CASE = sys.argv[1], sys.argv[2]


def run_rows(*args):
    return rows_of([EXE, "run", "--samples", "5", "--time-budget", "0.5", *args], timeout=600)


def expect_verified(rows, metric):
    picked = [r for r in rows if r["metric"] == metric]
    if not picked:
        sys.exit(f"FAIL: no {metric} rows: {rows}")
    for r in picked:
        if not verified(r) or float(r["value"]) <= 0:
            sys.exit(f"FAIL: {r}")
    return picked


def case_block_syncthreads():
    rows = run_rows("--methods", "gpu.block.syncthreads", "--gpus", "0",
                    "--axis", "threads_per_block=32,1024")
    cyc = expect_verified(rows, "latency_cycles")
    # More warps at the barrier cannot make it cheaper.
    if float(cyc[1]["value"]) < float(cyc[0]["value"]):
        sys.exit(f"FAIL: 1024 threads faster than 32: {cyc}")
    print("PASS", [(r["threads_per_block"], r["value"]) for r in cyc])


def case_grid_cg():
    rows = run_rows("--methods", "gpu.grid.cg", "--gpus", "0", "--axis", "blocks_per_sm=1,64",
                    "--axis", "threads_per_block=128", "--reps-lo", "64", "--reps-hi", "640")
    ok = expect_verified([r for r in rows if r["blocks_per_sm"] == "1"], "latency")
    big = [r for r in rows if r["blocks_per_sm"] == "64"]
    if len(big) != 1 or big[0]["status"] != "skipped" or "occupancy" not in big[0]["note"]:
        sys.exit(f"FAIL: 64 blocks/SM must be skipped for occupancy: {big}")
    print("PASS", ok[0]["value"], "ns")


if not has_gpu():
    print("SKIP: no GPU visible")
    sys.exit(77)
globals()["case_" + CASE]()

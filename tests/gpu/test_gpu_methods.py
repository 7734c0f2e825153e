#!/usr/bin/env python3
"""GPU methods at small sizes on a real GPU; skipped when none is visible.

Run by pytest (`pytest tests/gpu/test_gpu_methods.py`; ctest: gpu.gpu_methods).
"""
import pytest

from gpu_rows import rows_of, verified


def run_rows(exe, *args):
    return rows_of([exe, "run", "--samples", "5", "--time-budget", "0.5", *args], timeout=600)


def expect_verified(rows, metric):
    picked = [r for r in rows if r["metric"] == metric]
    if not picked:
        pytest.fail(f"no {metric} rows: {rows}")
    for r in picked:
        if not verified(r) or float(r["value"]) <= 0:
            pytest.fail(f"{r}")
    return picked


def test_block_syncthreads(gpubarrier, gpus):
    rows = run_rows(gpubarrier, "--methods", "gpu.block.syncthreads", "--gpus", "0",
                    "--axis", "threads_per_block=32,1024")
    cyc = expect_verified(rows, "latency_cycles")
    # More warps at the barrier cannot make it cheaper.
    if float(cyc[1]["value"]) < float(cyc[0]["value"]):
        pytest.fail(f"1024 threads faster than 32: {cyc}")
    print("PASS", [(r["threads_per_block"], r["value"]) for r in cyc])


def test_grid_cg(gpubarrier, gpus):
    rows = run_rows(gpubarrier, "--methods", "gpu.grid.cg", "--gpus", "0",
                    "--axis", "blocks_per_sm=1,64", "--axis", "threads_per_block=128",
                    "--reps-lo", "64", "--reps-hi", "640")
    ok = expect_verified([r for r in rows if r["blocks_per_sm"] == "1"], "latency")
    big = [r for r in rows if r["blocks_per_sm"] == "64"]
    if len(big) != 1 or big[0]["status"] != "skipped" or "occupancy" not in big[0]["note"]:
        pytest.fail(f"64 blocks/SM must be skipped for occupancy: {big}")
    print("PASS", ok[0]["value"], "ns")

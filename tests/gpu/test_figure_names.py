#!/usr/bin/env python3
"""Figures named for what they measure, on the GPU; skipped without one.

  nccl_one_gpu  host.nccl.allreduce at one GPU: blocking=sync-each-step gives a barrier's
                loop_latency and latency; blocking=back-to-back gives loop_interval and interval
                (calls overlapping, timed to the completion of the last: no barrier's latency),
                whose notes say that one GPU's in-place allreduce enqueues nothing
  sm_clock      the clock technique's rows name the SM clock they were converted with
                (sm_clock_source estimate, nvml or max) and never one above the GPU's maximum
                SM clock (nvidia-smi clocks.max.sm)

Run by pytest (`pytest tests/gpu/test_figure_names.py`; ctest: gpu.figure_names).
"""
import os
import subprocess

import pytest

from gpu_rows import codes, fail, rows_of
SMALL = ["--samples", "5", "--time-budget", "0.3"]


def test_nccl_one_gpu(gpubarrier, gpus):
    rows = rows_of([gpubarrier, "run", *SMALL, "--methods", "host.nccl.allreduce", "--axis",
                    "gpu_count=1", "--axis", "blocking=0,1"],
                   env=dict(os.environ, NCCL_NVLS_ENABLE="0"))
    if any(r["status"] == "skipped" for r in rows):
        pytest.skip(f"host.nccl.allreduce skipped: {rows[0]['note']}")
    by = {b: [r["metric"] for r in rows if codes(r).get("blocking") == b] for b in (0, 1)}
    if by[1] != ["loop_latency", "latency"] or by[0] != ["loop_interval", "interval"]:
        fail(f"metrics by blocking {by}: expected sync-each-step loop_latency, latency and "
             "back-to-back loop_interval, interval", rows)
    b2b = [r for r in rows if codes(r).get("blocking") == 0]
    if any(r["status"] != "ok" or "one GPU: NCCL enqueues nothing" not in r["note"] for r in b2b):
        fail("back-to-back rows at one GPU: ok, the note saying NCCL enqueues nothing", b2b)
    print("PASS", [(r["config"], r["metric"], r["value"]) for r in rows])


def max_sm_mhz():
    p = subprocess.run(["nvidia-smi", "-i", "0", "--query-gpu=clocks.max.sm",
                        "--format=csv,noheader,nounits"], capture_output=True, text=True)
    try:
        return float(p.stdout.split()[0])
    except (IndexError, ValueError):
        return None


def test_sm_clock(gpubarrier, gpus):
    rows = rows_of([gpubarrier, "run", *SMALL, "--gpus", "0", "--methods", "gpu.block.syncthreads",
                    "--axis", "threads_per_block=128", "--axis", "blocks_per_sm=1"])
    clocked = [r for r in rows if r["sm_clock_mhz"]]
    if not clocked or any(r["sm_clock_source"] not in ("estimate", "nvml", "max")
                          for r in clocked):
        fail("every clock row names its SM clock's source (estimate, nvml, max)", rows)
    if any(r["sm_clock_mhz"] == "" and r["sm_clock_source"] for r in rows):
        fail("no source without an SM clock", rows)
    top = max_sm_mhz()
    if top and any(float(r["sm_clock_mhz"]) > top * 1.001 for r in clocked):
        fail(f"an SM clock above the GPU's maximum {top} MHz", clocked)
    for r in clocked:
        if r["metric"] == "latency" and r["sm_clock_source"] == "estimate" and \
                "MHz measured" not in r["note"]:
            fail("the estimate's note says it was measured", [r])
        if r["metric"] == "latency" and r["sm_clock_source"] != "estimate" and \
                "estimate" not in r["note"]:
            fail("a refused estimate's note says so", [r])
    print("PASS", sorted({(r["sm_clock_mhz"], r["sm_clock_source"]) for r in clocked}), top)

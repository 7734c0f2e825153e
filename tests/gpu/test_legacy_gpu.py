#!/usr/bin/env python3
"""The methods that run in the gpubarrier-legacy helper, on the GPUs of this machine:
skipped without a GPU or without the helper (it is built on a machine with a package registry and
carried along: README, "GPU machine").

Run by pytest (`pytest tests/gpu/test_legacy_gpu.py`; ctest: gpu.legacy).
"""
import os
import time

import pytest

from gpu_rows import codes, fail, rows_of, verified

SMALL = ["--samples", "5", "--time-budget", "0.3", "--reps-lo", "64", "--reps-hi", "640"]


@pytest.fixture
def helper(gpubarrier, gpus):
    """The helper's path, once a GPU is visible; the test is skipped without the helper."""
    path = os.environ.get("GPUBARRIER_LEGACY_HELPER") or \
        os.path.join(os.path.dirname(os.path.abspath(gpubarrier)), "gpubarrier-legacy")
    if not os.access(path, os.X_OK):
        pytest.skip("no gpubarrier-legacy next to gpubarrier (GPUBARRIER_LEGACY=1 scripts/setup "
                    "on a machine with a package registry, then carry it: README, GPU machine)")
    return path


def counts(n):
    return "gpu_count=" + ",".join(sorted({"1", str(n)}))


def ok_rows(rows, what, lo_ns, hi_ns, checked=True):
    bad = [r for r in rows if r["status"] != "ok" or r["launcher"] != "threads"
           or "gpubarrier-legacy, CUDA 1" not in r["note"]
           or (checked and not verified(r))
           or not lo_ns < float(r["value"]) < hi_ns]
    if not rows or bad:
        fail(f"{what}: every row ok{', verified' if checked else ''}, within "
             f"{lo_ns}..{hi_ns} ns, from the helper", bad or rows)


def test_multi_grid(gpubarrier, gpus, helper):
    # The study's heat map in small: blocks/SM x threads, on one GPU and on all (2 x H200: 7.4 us
    # at 1 x 128, ../shared/notes/legacy-cuda.md).
    rows = rows_of([gpubarrier, "run", *SMALL, "--methods", "multigpu.cg.multi-grid",
                    "--axis", counts(gpus), "--axis", "blocks_per_sm=1,2",
                    "--axis", "threads_per_block=128,256"])
    ok_rows(rows, "multi-grid", 300, 100_000)
    if any(r["technique"] != "differential" or r["statistic"] != "eq7" for r in rows):
        fail("multi-grid figures are Eq. 7 figures", rows)
    print("PASS", [(r["gpu_count"], r["config"], r["value"]) for r in rows])


def test_fusion(gpubarrier, gpus, helper):
    rows = rows_of([gpubarrier, "run", *SMALL, "--methods", "kernel.fusion.multi-device",
                    "--axis", counts(gpus)])
    # Eq. 6 is a difference of means: a launch whose overhead the queue hides entirely comes out
    # near zero, either side (one H100: -6.6 ns, sd 66 ns over 20 pairs). Such a row is unverified
    # with the bound it establishes (results/SCHEMA.md, "Unresolved figures"); a resolved one is
    # ok and positive.
    for r in rows:
        if r["status"] == "unverified" and "; unresolved: 95% interval " in r["note"] and \
                " includes zero, below " in r["note"]:
            continue
        ok_rows([r], "multi-device launch overhead", 0, 1_000_000, checked=False)
    if any(r["metric"] != "launch_overhead" or r["statistic"] != "eq6" for r in rows):
        fail("fusion figures are Eq. 6 launch overheads", rows)
    print("PASS", [(r["gpu_count"], r["value"]) for r in rows])


def test_real_launch(gpubarrier, gpus, helper):
    # impl=1: cudaLaunchCooperativeKernelMultiDevice itself; impl=0 beside it (the emulation).
    rows = rows_of([gpubarrier, "run", *SMALL, "--methods", "kernel.multi-device-launch",
                    "--axis", counts(gpus), "--axis", "host_wait=0", "--axis", "impl=0,1"])
    real = [r for r in rows if codes(r).get("impl") == 1]
    ok_rows(real, "real multi-device launch", 1000, 1_000_000)
    emulated = [r for r in rows if codes(r).get("impl") == 0]
    if not emulated or any(r["status"] != "ok" or "emulated" not in r["note"] for r in emulated):
        fail("the emulation still runs beside it", emulated)
    print("PASS", [(r["gpu_count"], r["config"], r["value"]) for r in rows])


def test_deadline_kills_helper(gpubarrier, gpus, helper):
    # GPUBARRIER_LEGACY_TEST_HANG=1 (test only): block 0 of the helper's first GPU never arrives,
    # so CUDA's multi-grid sync spins for ever. gpubarrier's host-side deadline (--watchdog + 1 ms
    # per crossing) must kill the helper: a timeout row in bounded time, and the GPUs free for the
    # next run.
    cmd = [gpubarrier, "run", *SMALL, "--watchdog", "1", "--methods", "multigpu.cg.multi-grid"]
    t0 = time.monotonic()
    rows = rows_of(cmd, env=dict(os.environ, GPUBARRIER_LEGACY_TEST_HANG="1"), timeout=300)
    took = time.monotonic() - t0
    if [r["status"] for r in rows] != ["timeout"] or "host-side deadline" not in rows[0]["note"] \
            or "was killed" not in rows[0]["note"]:
        fail("a participant that never arrives must give one timeout row", rows)
    if took > 120:
        fail(f"the timeout took {took:.0f} s", rows)
    after = rows_of(cmd, timeout=300)
    ok_rows(after, "the run after the killed helper", 300, 100_000)
    print(f"PASS timeout in {took:.1f} s:", rows[0]["note"], "; then", after[0]["value"], "ns")

#!/usr/bin/env python3
"""configs/sweeps/study-tables.yaml (the study's throughput tables at its shapes) without a GPU:
`config check` accepts it as a sweep of 10 runs over 12 methods (the converged warp syncs and
their diverged variants among them, and a warp sync's latency over the repeat count), and where
no GPU is visible `sweep` runs it to the end with exit 0, one skipped row per method that says
why (on a GPU machine that part is left out: it would measure for minutes).

Run by pytest: pytest tests/cli/test_study_tables.py
"""
import os

from cli_common import expect, expect_sweep_skipped_without_gpu, run_gpubarrier

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "configs", "sweeps",
                     "study-tables.yaml")
METHODS = {"gpu.warp.tile-sync", "gpu.warp.tile-shuffle", "gpu.warp.coalesced-sync",
           "gpu.warp.coalesced-shuffle", "gpu.warp.syncwarp", "gpu.block.syncthreads",
           "gpu.block.cg-sync", "multigpu.cg.multi-grid", "gpu.warp.tile-sync-diverged",
           "gpu.warp.coalesced-sync-diverged", "gpu.warp.syncwarp-diverged",
           "gpu.warp.repeat-count"}


def test_config_check(gpubarrier):
    p = run_gpubarrier(gpubarrier, "config", "check", SWEEP)
    expect(p.returncode == 0 and
           p.stdout.strip() == f"ok: {SWEEP}: sweep study-tables, 10 run(s), 12 method(s)",
           "config check accepts the sweep: 10 runs, 12 methods", p)


def test_sweep_without_gpu(gpubarrier, tmp_path):
    expect_sweep_skipped_without_gpu(gpubarrier, SWEEP, METHODS, "gpu.warp.tile-sync",
                                     str(tmp_path / "t.csv"))

#!/usr/bin/env python3
"""`gpubarrier report legacy-study` (gpubarrier_tools/analysis/legacy_study.py): the study's Table 1 and the
workshop version's Table 9 beside the legacy helper's rows.

Run by pytest: pytest tests/cli/test_legacy_study.py
"""
import os

from gpubarrier_tools.data import gbcsv
from cli_common import expect, run_gpubarrier, synthetic_row, write_rows


def row(method, config, value, metric="latency", gpus=1):
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, method=method, config=config, value=value,
                         metric=metric, unit="ns", gpu_count=gpus, launcher="threads")


def test_legacy_study(tmp_path, gpubarrier):
    d = str(tmp_path)
    path = os.path.join(d, "legacy.csv")
    write_rows(path, gbcsv.NAMES, [
        row("kernel.fusion", "blocks_per_sm=1 threads_per_block=128", 1500, "launch_overhead"),
        row("kernel.fusion", "blocks_per_sm=1 launch=1", 1100, "launch_overhead"),
        row("kernel.launch.triple-chevron", "blocks_per_sm=1 threads_per_block=128", 8700),
        row("kernel.launch.cooperative", "blocks_per_sm=1 threads_per_block=128", 9200),
        row("kernel.multi-device-launch", "gpu_count=2 host_wait=0 impl=1", 25000, gpus=2),
        row("kernel.multi-device-launch", "gpu_count=2 host_wait=0 impl=0", 14000, gpus=2),
        row("multigpu.cg.multi-grid", "gpu_count=2 blocks_per_sm=1 threads_per_block=32", 5900,
            gpus=2),
        row("multigpu.cg.multi-grid", "gpu_count=2 blocks_per_sm=16 threads_per_block=64", 16100,
            gpus=2),
        row("multigpu.cg.multi-grid", "gpu_count=1 blocks_per_sm=1 threads_per_block=32", 1500)])
    p = run_gpubarrier(gpubarrier, "report", "legacy-study", "launch", path)
    expect(p.returncode == 0, "legacy-study launch exits 0", p)
    lines = p.stdout.splitlines()
    for want in ["| traditional (`<<<>>>`) | 1 | 1.5 | 1.08 | 8.7 | 8.89 |",
                 "| cooperative | 1 | 1.1 | 1.06 | 9.2 | 10.2 |",
                 "| cooperative multi-device (helper) | 2 | - | 1.26 | 25 | 10.9 |"]:
        expect(want in lines, f"the line {want} (ours beside the study's Table 1; impl=1 only)", p)
    p = run_gpubarrier(gpubarrier, "report", "legacy-study", "multigrid", path)
    expect(p.returncode == 0, "legacy-study multigrid exits 0", p)
    lines = p.stdout.splitlines()
    expect("| V100 | block/sm <= 4 and warp/sm <= 16 | 6.02-9.12 | 5.9-5.9 (1 shapes) |" in lines
           and "| P100 | block/sm > 8 | 33.18-74.89 | 16.1-16.1 (1 shapes) |" in lines,
           "each region of the workshop version's Table 9 over our 2-GPU rows only", p)
    p = run_gpubarrier(gpubarrier, "report", "legacy-study", "table9", path)
    expect(p.returncode != 0 and "launch|multigrid" in p.stderr, "a wrong table is refused", p)

#!/usr/bin/env python3
"""configs/sweeps/verdicts.yaml and scripts/verdicts-measure without a GPU: the sweep file is
accepted, names the methods the study's remaining conclusions need (Eq. 6 over kernel lengths of
1-200 us, the partial grid with cg::this_grid().sync(), the fully unrolled repeat count, ...),
gives the partial grid.sync's child a short point_timeout, and runs to the end here with a
skipped row per method that says why; the script is clean under shellcheck.

Run by pytest: pytest tests/cli/test_verdicts_sweep.py [--gpubarrier PATH]
"""
import os
import re
import shutil
import subprocess

import pytest

from cli_common import expect, expect_sweep_skipped_without_gpu, run_gpubarrier

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SWEEP = os.path.join(ROOT, "configs", "sweeps", "verdicts.yaml")
SCRIPT = os.path.join(ROOT, "scripts", "verdicts-measure")
METHODS = {"kernel.fusion", "pitfall.grid.partial-sync", "gpu.warp.repeat-count-unrolled",
           "gpu.warp.repeat-count", "gpu.block.syncthreads",
           "gpu.warp.syncwarp-diverged", "gpu.warp.tile-sync-diverged",
           "gpu.warp.coalesced-sync-diverged", "gpu.warp.syncwarp", "gpu.warp.tile-sync",
           "gpu.warp.tile-shuffle", "gpu.warp.coalesced-shuffle", "model.smem.stream",
           "reduction.block", "kernel.launch.cooperative"}


def runs():
    """The sweep file's point_timeout and its runs as (methods, axes text), read as written."""
    with open(SWEEP) as f:
        text = f.read()
    timeout = float(re.search(r"^point_timeout: ([0-9.]+)$", text, re.M)[1])
    body = " ".join(line.strip() for line in text.split("\nruns:\n", 1)[1].splitlines()
                    if not line.strip().startswith("#"))
    entries = re.findall(r"- methods: (.+?) axes: \{(.+?)\}(?= - methods:|$)", body)
    return timeout, [(m.strip(), a) for m, a in entries]


def numbers(axes, name):
    return [int(v) for v in re.search(name + r": \[([0-9, ]+)\]", axes)[1].split(",")]


def test_config_check(gpubarrier):
    p = run_gpubarrier(gpubarrier, "config", "check", SWEEP)
    expect(p.returncode == 0 and p.stdout.startswith(f"ok: {SWEEP}: sweep verdicts,"),
           "config check accepts the sweep", p)


def test_what_it_measures():
    timeout, entries = runs()
    # A killed child costs one point_timeout: short, yet longer than any point here.
    expect(5 <= timeout <= 30, f"point_timeout {timeout}")
    fusion = [a for m, a in entries if m == "kernel.fusion"]
    expect(len(fusion) == 1, f"one fusion run: {entries}")
    shorter = min(numbers(fusion[0], "fusion_i")[0], numbers(fusion[0], "fusion_j")[0])
    lengths = [shorter * u for u in numbers(fusion[0], "unit_ns")]
    expect(min(lengths) == 1000 and max(lengths) == 200000,
           f"the shorter kernel from 1 to 200 us: {lengths}")
    grid = [a for m, a in entries if m == "pitfall.grid.partial-sync"]
    expect(any(2 in numbers(a, "barrier") and 1 in numbers(a, "missing") for a in grid),
           f"grid.sync with a block absent: {grid}")
    expect(numbers(grid[-1], "barrier") == [2] and numbers(grid[-1], "missing") == [0] and
           numbers(grid[-1], "threads_per_block") == [256],
           f"the grid.sync control runs last, after the killed child: {grid}")


def test_sweep_without_gpu(gpubarrier, tmp_path):
    expect_sweep_skipped_without_gpu(gpubarrier, SWEEP, METHODS, "kernel.fusion",
                                     str(tmp_path / "v.csv"))


def test_script_lint():
    shellcheck = shutil.which("shellcheck")
    if not shellcheck:
        pytest.skip("no shellcheck")
    p = subprocess.run([shellcheck, SCRIPT], capture_output=True, text=True)
    expect(p.returncode == 0, f"shellcheck {SCRIPT}: {p.stdout}", p)
    text = open(SCRIPT).read()
    for word in ("NCCL_NVLS_ENABLE=0", "NVSHMEM_DISABLE_NVLS=1",
                 "TORCH_SYMM_MEM_DISABLE_MULTICAST=1", "configs/sweeps/verdicts.yaml",
                 "verdicts.csv", "verdicts-machine.txt", "nvidia-smi"):
        expect(word in text, f"the script has {word}")

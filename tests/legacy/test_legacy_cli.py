#!/usr/bin/env python3
"""The legacy methods as the CLI shows them without a GPU or without the helper:
skipped rows that say why and which build option provides the helper; and the helper itself,
when this build made one (test_helper_runs, marked legacy).

Run by pytest (`pytest tests/legacy/test_legacy_cli.py`; ctest: cli.legacy, and legacy.helper_runs
in a build configured with -DGPUBARRIER_LEGACY_CUDA).
"""
import json
import os
import shutil
import subprocess

import pytest

from cli_common import expect, read_csv, run_gpubarrier

METHODS = ["multigpu.cg.multi-grid", "kernel.fusion.multi-device"]


def test_helper_absent(gpubarrier, tmp_path):
    # A copy of gpubarrier in a folder of its own: whatever this build put next to the original,
    # nothing is next to the copy.
    d = str(tmp_path)
    exe = shutil.copy(gpubarrier, os.path.join(d, "gpubarrier"))
    out = os.path.join(d, "l.csv")
    p = run_gpubarrier(exe, "run", "--methods", ",".join(METHODS), "--out", out,
                       drop=("GPUBARRIER_LEGACY_HELPER",))
    expect(p.returncode == 0, "an absent helper is not an error", p)
    rows = read_csv(out)
    expect(sorted(r["method"] for r in rows) == sorted(METHODS), f"one row per method: {rows}")
    for r in rows:
        expect(r["status"] == "skipped", f"skipped: {r}")
        for words in (f"gpubarrier-legacy is not next to gpubarrier ({d}/)",
                      "CUDA 13 removed", "GPUBARRIER_LEGACY=1 scripts/setup",
                      "-DGPUBARRIER_LEGACY_CUDA="):
            expect(words in r["note"], f"the reason names {words!r}: {r['note']}")


def test_helper_not_executable(gpubarrier, tmp_path):
    bogus = str(tmp_path / "not-a-helper")
    open(bogus, "w").close()
    out = str(tmp_path / "l.csv")
    p = run_gpubarrier(gpubarrier, "run", "--methods", METHODS[0], "--out", out,
                       env={"GPUBARRIER_LEGACY_HELPER": bogus})
    expect(p.returncode == 0, "exit 0", p)
    r = read_csv(out)[0]
    expect(r["status"] == "skipped" and
           f"GPUBARRIER_LEGACY_HELPER={bogus} is not an executable file" in r["note"],
           f"the variable is named: {r}")


def test_listed(gpubarrier):
    p = run_gpubarrier(gpubarrier, "--json", "list")
    expect(p.returncode == 0, "list works", p)
    methods = {m["name"]: m for m in json.loads(p.stdout)}
    for name in METHODS:
        expect(name in methods, f"{name} is listed")
    axes = methods["multigpu.cg.multi-grid"]["axes"]
    expect(axes.get("blocks_per_sm") == [1] and axes.get("threads_per_block") == [128],
           f"multi-grid axes: {axes}")


def test_multi_device_launch_impl(gpubarrier):
    # impl 0 (emulated) first, so that rows of earlier CSVs, which had no impl, mean impl=0.
    p = run_gpubarrier(gpubarrier, "--json", "list")
    expect(p.returncode == 0, "list works", p)
    method = next(m for m in json.loads(p.stdout) if m["name"] == "kernel.multi-device-launch")
    expect(method["axes"].get("impl") == [0, 1], f"impl axis 0, 1: {method['axes']}")


def configured_without_helper(build):
    """Whether the CMake cache of `build` says that it builds no helper (GPUBARRIER_LEGACY_CUDA
    empty); False where there is no cache (an installed gpubarrier)."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            return any(line.strip() == "GPUBARRIER_LEGACY_CUDA:PATH=" for line in f)
    except OSError:
        return False


@pytest.mark.legacy
def test_helper_runs(gpubarrier):
    build = os.path.dirname(gpubarrier)
    if configured_without_helper(build):
        pytest.skip(f"{build} builds no gpubarrier-legacy (configure with "
                    "-DGPUBARRIER_LEGACY_CUDA=..., or GPUBARRIER_LEGACY=1 scripts/setup)")
    helper = os.path.join(build, "gpubarrier-legacy")
    expect(os.access(helper, os.X_OK),
           f"{helper} was not built: cmake --build <build> --target gpubarrier-legacy")
    p = subprocess.run([helper, "--help"], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0 and "check <n> | sync <reps>" in p.stdout, "--help", p)
    p = subprocess.run([helper, "--version"], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0 and "protocol 1, built with CUDA 1" in p.stdout, "--version", p)
    # Malformed requests are refused on one line, before any GPU is touched.
    p = subprocess.run([helper, "--threads", "64"], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 1 and p.stdout.startswith("error --gpus is required"), "no --gpus", p)
    ldd = subprocess.run(["ldd", helper], capture_output=True, text=True)
    expect("libcudart" not in ldd.stdout, f"static cudart (carried to GPU machines as it is):\n"
           f"{ldd.stdout}")

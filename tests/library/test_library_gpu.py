#!/usr/bin/env python3
"""Each public barrier's contract on the GPU (tests/library/library_gpu.cu, one case a run of the
test_library_gpu executable): message passing across the barrier and the check catching a run
without it, the watchdog, the residency refusal; the cluster grid barrier's cases skip without
clusters, the 2-GPU case on fewer GPUs (the executable's exit 77, with its reason).

Run by pytest (`pytest tests/library/test_library_gpu.py`; ctest: gpu.library, which names the
executable in GB_TEST_LIBRARY_GPU; else the one of the build folder that holds gpubarrier).
"""
import os
import subprocess

import pytest

CASES = ["grid_contract", "grid_without_barrier", "grid_watchdog", "residency_refusal",
         "cluster_grid_contract", "cluster_grid_without_barrier", "cluster_grid_watchdog",
         "cluster_residency_refusal", "device_contract_1gpu", "device_contract_2gpu",
         "device_watchdog"]
SKIP = 77


@pytest.fixture(scope="module")
def library_gpu(gpubarrier):
    path = os.environ.get("GB_TEST_LIBRARY_GPU") or \
        os.path.join(os.path.dirname(gpubarrier), "tests", "library", "test_library_gpu")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no test executable at {path} (cmake --build <build> --target "
                    "test_library_gpu; the sanitized build makes none)")
    return path


@pytest.mark.parametrize("case", CASES)
def test_library_gpu(gpus, library_gpu, case):
    p = subprocess.run([library_gpu, case], capture_output=True, text=True, timeout=300)
    print(p.stdout + p.stderr, end="")
    if p.returncode == SKIP:
        lines = (p.stdout + p.stderr).strip().splitlines()
        pytest.skip(lines[-1] if lines else f"{case}: exit {SKIP}")
    assert p.returncode == 0, f"{case}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"

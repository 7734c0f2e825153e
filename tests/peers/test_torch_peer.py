#!/usr/bin/env python3
"""multigpu.torch.symm-barrier (PyTorch's symmetric-memory barrier, run by
gpubarrier_tools/peers/torch_symm_barrier.py) and the device barriers' launch=1 (one launch per barrier in a
CUDA graph).

CPU tests (label cli): without torch the method's rows are skipped with the script's reason, in the
same columns as every other row; the script itself says why in one JSON line and exits 77; the
axes are listed. Torch is hidden from the script by a `torch` package on PYTHONPATH whose import
fails, so that the tests see the same thing on a machine that has torch.
GPU test (marked gpu, ctest label gpu; skipped without 2 GPUs or without torch): the method and
launch=1 of two device barriers on 2 GPUs, every row ok and verified.

Run by pytest (`pytest tests/peers/test_torch_peer.py`; ctest: cli.torch with -m "not gpu",
gpu.torch_two_gpus with -m gpu).
"""
import json
import os
import subprocess
import sys

import pytest

from cli_common import expect, read_csv, run_gpubarrier
from gpu_rows import fail, rows_of, verified

HERE = os.path.dirname(os.path.abspath(__file__))
METHOD = "multigpu.torch.symm-barrier"
SCRIPT = os.path.join(HERE, "..", "..", "gpubarrier_tools", "peers", "torch_symm_barrier.py")
SKIP = 77


def without_torch(folder):
    """Environment additions that hide torch from any Python started with them."""
    os.makedirs(os.path.join(folder, "torch"))
    with open(os.path.join(folder, "torch", "__init__.py"), "w") as f:
        f.write('raise ImportError("torch hidden by the test")\n')
    return {"PYTHONPATH": folder}


def test_skipped_without_torch(gpubarrier, tmp_path):
    out = str(tmp_path / "t.csv")
    p = run_gpubarrier(gpubarrier, "run", "--methods", METHOD + ",host.omp.barrier", "--out", out,
                       "--samples", "3", "--time-budget", "0.2",
                       env=without_torch(str(tmp_path / "py")))
    expect(p.returncode == 0, "a missing torch is not an error", p)
    rows = read_csv(out)
    torch_rows = [r for r in rows if r["method"] == METHOD]
    expect(len(torch_rows) == 1, f"one row for {METHOD}: {rows}")
    r = torch_rows[0]
    expect(r["status"] == "skipped", f"skipped: {r}")
    for words in ("PyTorch is not importable by", "torch hidden by the test",
                  "GPUBARRIER_TORCH_PYTHON"):
        expect(words in r["note"], f"the reason names {words!r}: {r['note']}")
    expect(r["level"] == "multi-gpu" and r["schema_version"] and r["run_id"],
           f"the row is filled like any other: {r}")
    other = [x for x in rows if x["method"] == "host.omp.barrier"]
    expect(other and set(other[0]) == set(r), "the same columns as every other row")


def script(*args, env=None):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})), timeout=120)


def test_script_skips(tmp_path):
    env = without_torch(str(tmp_path))
    for args in (["--probe"], ["--gpus", "0,1"], ["--gpus", "0,1", "--serve"]):
        p = script(*args, env=env)
        expect(p.returncode == SKIP, f"{args}: exit {SKIP} (skip)", p)
        lines = p.stdout.splitlines()
        expect(len(lines) == 1, f"{args}: one line on stdout", p)
        line = json.loads(lines[0])
        expect(line["event"] == "skip" and "torch hidden by the test" in line["reason"],
               f"{args}: the skip line says why: {line}", p)
    # Bad arguments are argparse's: exit 2, nothing on stdout.
    for args in (["--gpus", "0"], ["--gpus", "0,0"], ["--gpus", "0,1", "--reps-lo", "10",
                                                      "--reps-hi", "5"], []):
        p = script(*args)
        expect(p.returncode == 2 and p.stdout == "", f"{args}: a usage error", p)


def test_listed(gpubarrier):
    p = run_gpubarrier(gpubarrier, "--json", "list")
    expect(p.returncode == 0, "list works", p)
    methods = {m["name"]: m for m in json.loads(p.stdout)}
    expect(METHOD in methods, f"{METHOD} is listed")
    m = methods[METHOD]
    expect(m["level"] == "multi-gpu", f"level multi-gpu: {m}")
    expect(sorted(m["axes"]) == ["channel", "gpu_count"], f"axes gpu_count and channel: {m}")
    push = methods["multigpu.device.push"]
    expect(push["axes"].get("launch") in ([0], ["persistent"]),
           f"launch persistent (0) by default: {push['axes']}")


@pytest.mark.gpu
def test_gpu_two_gpus(gpubarrier, gpus):
    if gpus < 2:
        pytest.skip("needs 2 GPUs")
    small = ["--samples", "5", "--time-budget", "0.5", "--reps-lo", "64", "--reps-hi", "640"]
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    rows = rows_of([gpubarrier, "run", *small, "--methods",
                    "multigpu.device.push,multigpu.device.central", "--axis", "gpu_count=2",
                    "--axis", "blocks_per_sm=1", "--axis", "threads_per_block=128", "--axis",
                    "ordering=0", "--axis", "launch=persistent,graph"], env=env)
    bad = [r for r in rows if not verified(r) or float(r["value"]) <= 0]
    if bad or len(rows) != 4:
        fail("launch=0 and launch=1 rows of push and central on 2 GPUs, ok and verified", rows)
    graph = [r for r in rows if {"launch=graph", "launch=1"} & set(r["config"].split())]
    if len(graph) != 2 or any("CUDA graph of R launches of 1 block per GPU" not in r["note"]
                              for r in graph):
        fail("launch=1 rows say they are one launch per barrier in a CUDA graph", graph)
    probe = subprocess.run(["python3", SCRIPT, "--probe"], capture_output=True, text=True,
                           timeout=300)
    if probe.returncode == SKIP:
        pytest.skip(f"launch=1 passed; the torch method skipped: {probe.stdout.strip()}")
    rows = rows_of([gpubarrier, "run", *small, "--methods", METHOD, "--axis", "gpu_count=2"],
                   env=env)
    if len(rows) != 1 or not verified(rows[0]) or float(rows[0]["value"]) <= 0 or \
            "CUDA graph of R barrier() calls" not in rows[0]["note"]:
        fail(f"{METHOD} on 2 GPUs: one ok, verified row", rows)
    print("PASS", [(r["method"], r["config"], r["value"]) for r in rows + graph])

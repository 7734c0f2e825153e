#!/usr/bin/env python3
"""The reduction methods at small sizes on a real GPU; skipped when none is visible.

Tests:
  model_stream  model.smem.stream (1, 32, 1024 threads) and model.gmem.stream (grid 0, 1): ok rows
                with positive bandwidth and latency in the units gpubarrier_tools/cli/model.py expects, and more
                bandwidth with more threads.
  warp_reduce   gpu.warp.reduce: every variant but 1 ok and verified; variant 1 (no sync) is
                `unverified` with the wrong sum's error in the note (never verified).
  reductions    reduction.block, reduction.single.{two-kernel,grid-sync,cub} and reduction.copy
                at a few sizes: ok, verified, relative error in the note; a size that is no
                multiple of 8 and a reduction.block array beyond shared memory are skipped rows.
  multi         reduction.multi.{device-barrier,omp,nccl} in threads mode on GPUs 0 and 1 (skipped
                with fewer than 2 GPUs) at gpu_count 1 and 2: ok, verified, relative error in the
                note, latency in ns and bandwidth in GB/s; bytes=8 leaves GPU 1 without a double
                (skipped); reduction.multi.mpi is skipped with how to run it (mpirun).
  model_from    `gpubarrier model --from` on the CSV of a short run of configs/sweeps/reduction.yaml's
                single-GPU inputs computes the in-block and the grid predictions.

Run by pytest (`pytest tests/gpu/test_reduction.py`; ctest: gpu.reduction).
"""
import csv
import os
import subprocess

import pytest

from gpu_rows import codes, fail, rows_of, verified
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_rows(exe, methods, *axes):
    args = [a for axis in axes for a in ("--axis", axis)]
    return rows_of([exe, "run", "--samples", "5", "--time-budget", "0.3", "--methods", methods,
                    "--gpus", "0", *args], timeout=600)


def figure(rows, method, metric, **axes):
    picked = [r for r in rows if r["method"] == method and r["metric"] == metric and
              all(codes(r).get(k) == v for k, v in axes.items())]
    if len(picked) != 1:
        fail(f"expected one {method} {metric} {axes} row, got {len(picked)}", rows)
    r = picked[0]
    if r["status"] != "ok" or float(r["value"]) <= 0:
        fail(f"{method} {metric} {axes}: not ok and positive", [r])
    return r


def test_model_stream(gpubarrier, gpus):
    rows = run_rows(gpubarrier, "model.smem.stream", "threads_per_block=1,32,1024")
    bw = {}
    for t in (1, 32, 1024):
        r = figure(rows, "model.smem.stream", "bandwidth_cycles", threads_per_block=t)
        if r["unit"] != "B/cycle" or "concurrency C" not in r["note"]:
            fail("bandwidth_cycles in B/cycle with the concurrency in the note", [r])
        bw[t] = float(r["value"])
        if figure(rows, "model.smem.stream", "latency_cycles", threads_per_block=t)["unit"] != \
                "cycles":
            fail("latency_cycles in cycles", rows)
    if not bw[1] < bw[32] < bw[1024]:
        fail(f"shared-memory bandwidth must grow with the threads: {bw}", rows)
    rows = run_rows(gpubarrier, "model.gmem.stream", "grid=0,1")
    gbw = {g: float(figure(rows, "model.gmem.stream", "bandwidth", grid=g)["value"])
           for g in (0, 1)}
    for g in (0, 1):
        if figure(rows, "model.gmem.stream", "latency", grid=g)["unit"] != "ns":
            fail("gmem latency in ns", rows)
    if not gbw[0] < gbw[1]:
        fail(f"the grid streams faster than one block: {gbw}", rows)
    print("PASS smem B/cycle", bw, "gmem B/ns", gbw)


def test_warp_reduce(gpubarrier, gpus):
    rows = run_rows(gpubarrier, "gpu.warp.reduce", "variant=0:5")
    for v in range(6):
        mine = [r for r in rows if codes(r).get("variant") == v]
        if len(mine) != 2:
            fail(f"variant {v}: expected latency_cycles and latency rows", rows)
        for r in mine:
            if v == 1:
                if r["status"] != "unverified" or "the sum of 32 doubles is wrong" not in r["note"]:
                    fail("the no-sync variant must be unverified with its wrong sum", [r])
            elif not verified(r):
                fail(f"variant {v} must be ok and verified", [r])
    print("PASS", [(r["config"], r["value"], r["status"]) for r in rows
                   if r["metric"] == "latency_cycles"])


def test_reductions(gpubarrier, gpus):
    sizes = "bytes=8,1024,65536"
    rows = run_rows(gpubarrier, "reduction.block", "threads_per_block=1,32,1024", sizes)
    big = "bytes=1024,1048576,16777216"
    rows += run_rows(gpubarrier, "reduction.single.two-kernel,reduction.single.cub", big)
    rows += run_rows(gpubarrier, "reduction.single.grid-sync", "grid=0,1", big)
    rows += run_rows(gpubarrier, "reduction.copy", "bytes=1048576")
    for r in rows:
        if r["status"] != "ok" or float(r["value"]) <= 0:
            fail("every reduction row ok and positive", [r])
        if r["method"] != "reduction.copy" and (not verified(r) or
                                                "relative error" not in r["note"]):
            fail("every reduction verified, with its relative error", [r])
    for m in ("reduction.block", "reduction.single.two-kernel", "reduction.single.grid-sync",
              "reduction.single.cub", "reduction.copy"):
        if not any(r["method"] == m and r["metric"] == "bandwidth" and r["unit"] == "GB/s"
                   for r in rows):
            fail(f"{m}: no bandwidth row in GB/s", rows)
    skipped = run_rows(gpubarrier, "reduction.block", "threads_per_block=32",
                       "bytes=12,1073741824")
    if len(skipped) != 2 or any(r["status"] != "skipped" for r in skipped) or \
            "multiple of 8" not in skipped[0]["note"] or "shared memory" not in skipped[1]["note"]:
        fail("bytes=12 and an array beyond shared memory must be skipped with the reason", skipped)
    print("PASS", len(rows), "rows")


MULTI = ["reduction.multi.device-barrier", "reduction.multi.omp", "reduction.multi.nccl"]


def check_multi(rows, launcher):
    """Every row ok, verified with its relative error, positive, in the mode asked; both figures
    of every (method, config)."""
    for r in rows:
        if not verified(r) or float(r["value"]) <= 0 or r["launcher"] != launcher or \
                "relative error" not in r["note"]:
            fail(f"every multi-GPU reduction row ok, verified, {launcher} mode", [r])
    for key in {(r["method"], r["config"]) for r in rows}:
        have = {(r["metric"], r["unit"]) for r in rows if (r["method"], r["config"]) == key}
        if have != {("latency", "ns"), ("bandwidth", "GB/s")}:
            fail(f"{key}: latency (ns) and bandwidth (GB/s) rows", rows)


def test_multi(gpubarrier, gpus):
    if gpus < 2:
        pytest.skip("the multi-GPU reductions need 2 GPUs")
    rows = rows_of([gpubarrier, "run", "--samples", "5", "--time-budget", "0.3", "--gpus", "0,1",
                    "--methods", ",".join(MULTI + ["reduction.multi.mpi"]), "--axis",
                    "gpu_count=1,2", "--axis", "bytes=8,1024,1048576"], timeout=600)
    mpi = [r for r in rows if r["method"] == "reduction.multi.mpi"]
    if not mpi or any(r["status"] != "skipped" or "mpirun" not in r["note"] for r in mpi):
        fail("reduction.multi.mpi must be skipped outside mpirun, saying how to run it", mpi)
    tiny = [r for r in rows if r["method"] != "reduction.multi.mpi" and "bytes=8" in
            r["config"].split() and r["gpu_count"] == "2"]
    if len(tiny) != len(MULTI) + 1 or any(r["status"] != "skipped" or "without a double" not in
                                          r["note"] for r in tiny):
        fail("bytes=8 on 2 GPUs must be skipped (a GPU without a double)", tiny)
    measured = [r for r in rows if r not in mpi and r not in tiny]
    check_multi(measured, "threads")
    for m in MULTI:
        for n in ("1", "2"):
            if not any(r["method"] == m and r["gpu_count"] == n for r in measured):
                fail(f"{m}: no rows at gpu_count {n}", rows)
    print("PASS", [(r["method"], r["config"], r["metric"], r["value"]) for r in measured])


def test_model_from(gpubarrier, gpus, tmp_path):
    out = str(tmp_path / "in.csv")
    axes = [("model.smem.stream", "threads_per_block=1,32,1024"),
            ("model.gmem.stream", "grid=0,1"), ("gpu.warp.tile-shuffle", "group_size=32"),
            ("gpu.block.syncthreads", "threads_per_block=1024 blocks_per_sm=1"),
            ("gpu.grid.cg", "blocks_per_sm=1 threads_per_block=1024")]
    rows = []
    for method, ax in axes:
        rows += run_rows(gpubarrier, method, *ax.split())
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\r\n")
        w.writeheader()
        w.writerows(rows)
    p = subprocess.run([gpubarrier, "model", "--from", out], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, GPUBARRIER_TOOLS=os.path.join(
                           ROOT, "gpubarrier_tools")))
    if p.returncode != 0 or "not computed" in p.stdout:
        fail(f"model --from: exit {p.returncode}\n{p.stdout}\n{p.stderr}", [])
    for label in ("1 thread vs 1 warp", "32 vs 1024 threads", "1 block vs the grid"):
        if f"| {label} |" not in p.stdout:
            fail(f"model --from: no '{label}' prediction\n{p.stdout}", [])
    print(p.stdout)

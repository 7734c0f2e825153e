#!/usr/bin/env python3
"""reduction.multi.multi-grid: the study's multi-GPU reduction with the multi-grid sync, run by the
gpubarrier-legacy helper.

Tests:
  listed         (cli) `list --json` lists it at level multi-gpu with the gpu_count and bytes axes
                 of reduction.multi.device-barrier, and says that the helper runs it.
  helper_absent  (cli) a gpubarrier with no helper beside it writes skipped rows that name the
                 helper and how to build it.
  two_gpus       (gpu) on GPUs 0 and 1 at gpu_count 1 and 2: every row ok, its sum verified
                 (relative error in the note), latency (ns) and bandwidth (GB/s) by host-loop from
                 the helper; bytes=8 on 2 GPUs is skipped (a GPU without a double), bytes=12 too
                 (not whole doubles). Skipped with fewer than 2 GPUs or without the helper;
                 marked gpu.

Run by pytest (`pytest tests/legacy/test_legacy_reduction.py`; ctest: cli.legacy_reduction with
-m "not gpu", gpu.legacy_reduction with -m gpu).
"""
import json
import os
import shutil

import pytest

from cli_common import expect, read_csv, run_gpubarrier
from gpu_rows import fail, rows_of, verified

METHOD = "reduction.multi.multi-grid"


def test_listed(gpubarrier):
    p = run_gpubarrier(gpubarrier, "--json", "list")
    expect(p.returncode == 0, "list works", p)
    methods = {m["name"]: m for m in json.loads(p.stdout)}
    expect(METHOD in methods, f"{METHOD} is listed", p)
    mine, peer = methods[METHOD], methods["reduction.multi.device-barrier"]
    expect(mine["level"] == "multi-gpu", f"level multi-gpu: {mine}")
    for axis in ("gpu_count", "bytes"):
        expect(axis in mine["axes"] and mine["axes"][axis] == peer["axes"][axis],
               f"{axis} as reduction.multi.device-barrier's {peer['axes'].get(axis)}: "
               f"{mine['axes']}")
    for words in ("gpubarrier-legacy", "this_multi_grid().sync()", "host-loop"):
        expect(words in mine["description"], f"the description says {words!r}: {mine}")


def test_helper_absent(gpubarrier, tmp_path):
    # A copy of gpubarrier in a folder of its own: nothing is next to the copy.
    d = str(tmp_path)
    exe = shutil.copy(gpubarrier, os.path.join(d, "gpubarrier"))
    out = os.path.join(d, "r.csv")
    p = run_gpubarrier(exe, "run", "--methods", METHOD, "--axis", "bytes=1024,65536",
                       "--out", out, drop=("GPUBARRIER_LEGACY_HELPER",))
    expect(p.returncode == 0, "an absent helper is not an error", p)
    rows = read_csv(out)
    expect(len(rows) == 1 and rows[0]["method"] == METHOD,
           f"one skipped row for the method: {rows}")
    note = rows[0]["note"]
    expect(rows[0]["status"] == "skipped", f"skipped: {rows[0]}")
    for words in (f"gpubarrier-legacy is not next to gpubarrier ({d}/)", "CUDA 13 removed",
                  "-DGPUBARRIER_LEGACY_CUDA="):
        expect(words in note, f"the reason names {words!r}: {note}")


@pytest.mark.gpu
def test_two_gpus(gpubarrier, gpus):
    if gpus < 2:
        pytest.skip("needs 2 GPUs")
    helper = os.environ.get("GPUBARRIER_LEGACY_HELPER") or \
        os.path.join(os.path.dirname(os.path.abspath(gpubarrier)), "gpubarrier-legacy")
    if not os.access(helper, os.X_OK):
        pytest.skip("no gpubarrier-legacy next to gpubarrier (GPUBARRIER_LEGACY=1 scripts/setup "
                    "on a machine with a package registry, then carry it)")
    rows = rows_of([gpubarrier, "run", "--samples", "5", "--time-budget", "0.3", "--gpus", "0,1",
                    "--methods", METHOD, "--axis", "gpu_count=1,2",
                    "--axis", "bytes=8,12,1024,1048576,16777216"], timeout=600)

    def at(n, size):
        return [r for r in rows
                if r["gpu_count"] == str(n) and f"bytes={size}" in r["config"].split()]

    tiny, odd = at(2, 8), at(1, 12) + at(2, 12)
    if len(tiny) != 1 or tiny[0]["status"] != "skipped" or \
            "without a double" not in tiny[0]["note"]:
        fail("bytes=8 on 2 GPUs must be one skipped row (a GPU without a double)", tiny)
    if len(odd) != 2 or any(r["status"] != "skipped" or "multiple of 8" not in r["note"]
                            for r in odd):
        fail("bytes=12 must be skipped at both GPU counts (not whole doubles)", odd)
    measured = [r for r in rows if r not in tiny and r not in odd]
    for r in measured:
        if not verified(r) or r["launcher"] != "threads" or r["technique"] != "host-loop" or \
                float(r["value"]) <= 0:
            fail("every row ok, verified, threads mode, host-loop, positive", [r])
        for words in ("relative error", "blocks of 1024 threads", "this_multi_grid().sync()",
                      "gpubarrier-legacy, CUDA 1"):
            if words not in r["note"]:
                fail(f"the note says {words!r}", [r])
    for n, sizes in ((1, (8, 1024, 1048576, 16777216)), (2, (1024, 1048576, 16777216))):
        for size in sizes:
            have = {(r["metric"], r["unit"]) for r in at(n, size)}
            if have != {("latency", "ns"), ("bandwidth", "GB/s")}:
                fail(f"gpu_count={n} bytes={size}: one latency (ns) and one bandwidth (GB/s) "
                     f"row, got {sorted(have)}", rows)
    print("PASS", [(r["gpu_count"], r["config"], r["metric"], r["value"]) for r in measured])

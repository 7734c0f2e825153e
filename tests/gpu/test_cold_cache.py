#!/usr/bin/env python3
"""Cold L2 (the `cache` axis) on a real GPU; skipped when none is visible.

One run of reduction.single.two-kernel at 16 and 32 MiB, cold (cache=0) and warm (cache=1), and
model.gmem.stream (grid 0 and 1, cold and warm): every row ok; the reduction's rows verified; the
note of every cold reduction row and cold stream bandwidth row says that L2 was evicted before
every sample and by reading how much (four times the L2), every warm one that it was not; and the cold 16 -> 32 MiB
increment, 16 MiB / (t32 - t16), reads no faster than the GPU's DRAM bandwidth (gpubarrier_tools/data/bounds.py,
the data sheet's; 1.3 x the same run's model.gmem.stream grid=1 where the GPU is not listed) plus
10% for the event timer's jitter on a 5 us step: the extra 16 MiB come from DRAM, so more would
mean L2 served them (a physical bound, not a speed target; warm steps on a GPU with 50 MiB of L2
read about 8 TB/s). On H100 the cold step read 3158 B/ns, 1.18 x the stream loop, which is no
ceiling (CUB reads faster than it).

Run by pytest (`pytest tests/gpu/test_cold_cache.py`; ctest: gpu.reduction_cold_cache).
"""
import re

from gpu_rows import codes, fail, rows_of, verified

from gpubarrier_tools.data import bounds

MIB = 1 << 20
REDUCTION, STREAM = "reduction.single.two-kernel", "model.gmem.stream"
COLD = re.compile(r"cold: L2 \((\d+) MiB\) evicted before every sample by reading (\d+) MiB")
WARM = "warm: L2 not evicted"


def pick(rows, method, metric, **axes):
    got = [r for r in rows if r["method"] == method and r["metric"] == metric and
           all(codes(r).get(k) == v for k, v in axes.items())]
    if len(got) != 1:
        fail(f"expected one {method} {metric} {axes} row, got {len(got)}", rows)
    return got[0]


def check_note(r, cache):
    if cache == 0:
        m = COLD.search(r["note"])
        if not m or int(m.group(2)) < 4 * int(m.group(1)) or int(m.group(1)) <= 0:
            fail("a cold row names the L2 and the bytes read (at least four times the L2)", [r])
        if WARM in r["note"]:
            fail("a cold row does not say warm", [r])
    elif WARM not in r["note"] or "cold:" in r["note"]:
        fail("a warm row says that L2 was not evicted", [r])


def test_cold_cache(gpubarrier, gpus):
    rows = rows_of([gpubarrier, "run", "--samples", "20", "--time-budget", "1", "--gpus", "0",
                    "--methods", f"{REDUCTION},{STREAM}",
                    "--axis", f"bytes={16 * MIB},{32 * MIB}", "--axis", "cache=0,1"], timeout=600)
    for r in rows:
        if r["status"] != "ok":
            fail("every row ok", [r])
        if r["method"] == REDUCTION and not verified(r):
            fail("every reduction row verified", [r])
    mine = [r for r in rows if r["method"] == REDUCTION]
    if len(mine) != 8:  # 2 sizes x 2 caches x (latency, bandwidth)
        fail(f"expected 8 {REDUCTION} rows, got {len(mine)}", rows)
    for r in mine:
        check_note(r, codes(r)["cache"])
    for grid in (0, 1):
        for cache in (0, 1):
            check_note(pick(rows, STREAM, "bandwidth", grid=grid, cache=cache), cache)

    t = {(b, c): float(pick(rows, REDUCTION, "latency", bytes=b * MIB, cache=c)["value"])
         for b in (16, 32) for c in (0, 1)}
    dram = float(pick(rows, STREAM, "bandwidth", grid=1, cache=0)["value"])  # B/ns
    step = t[(32, 0)] - t[(16, 0)]
    if step <= 0:
        fail(f"cold: 32 MiB must take longer than 16 MiB: {t}", mine)
    increment = 16 * MIB / step  # B/ns
    warm_step = t[(32, 1)] - t[(16, 1)]
    print(f"cold 16->32 MiB: {increment:.0f} B/ns; model.gmem.stream grid=1: {dram:.0f} B/ns; warm "
          f"16->32 MiB: {16 * MIB / warm_step if warm_step > 0 else float('inf'):.0f} B/ns")
    peak = bounds.dram_peak(mine[0]["gpu_model"])
    limit = 1.1 * peak if peak else 1.3 * dram
    if increment > limit:
        fail(f"cold 16->32 MiB reads {increment:.0f} B/ns, above {limit:.0f} B/ns (the DRAM peak "
             f"{peak} + 10%, or 1.3 x the stream's {dram:.0f}): L2 still served the array", mine)
    print("PASS")

#!/usr/bin/env python3
"""Warp, block and cluster synchronisation methods at small sizes on a real GPU; skipped when
none is visible. Every measured row must be ok and verified; configurations the GPU cannot run
must be skipped rows with a reason, never failures.

Run by pytest (`pytest tests/gpu/test_single_gpu_sync.py`; ctest: gpu.sync).
"""
import os
import re

import pytest

from gpu_rows import caught, fail, rows_of, verified


def run_rows(exe, method, *axes, env=None):
    args = [a for axis in axes for a in ("--axis", axis)]
    return rows_of([exe, "run", "--samples", "5", "--time-budget", "0.5", "--methods", method,
                    "--gpus", "0", *args], env=env, timeout=600)


def expect_caught(exe, method, *axes, points):
    """With GPUBARRIER_TEST_BREAK the check runs without the barrier: every row of each of the
    `points` configurations unverified (none skipped: the shapes are chosen to fit)."""
    rows = run_rows(exe, method, *axes, env=dict(os.environ, GPUBARRIER_TEST_BREAK=method))
    if len({r["config"] for r in rows}) != points or not all(caught(r) for r in rows):
        fail(f"{method} without its barrier must give unverified rows at {points} points", rows)
    print("PASS", method, "broken:", len(rows), "unverified rows;", rows[0]["note"][:120])


def expect_verified(rows, metric, count):
    picked = [r for r in rows if r["metric"] == metric]
    if len(picked) != count:
        fail(f"expected {count} {metric} rows, got {len(picked)}", rows)
    for r in picked:
        if not verified(r) or float(r["value"]) <= 0:
            fail(f"{metric} row not ok, verified and positive", [r])
    return picked


def warp_case(exe, method, sizes):
    rows = run_rows(exe, method, "group_size=" + ",".join(map(str, sizes)))
    lat = expect_verified(rows, "latency_cycles", len(sizes))
    expect_verified(rows, "latency", len(sizes))
    thr = expect_verified(rows, "throughput", len(sizes))
    expect_verified(rows, "throughput_cycles", len(sizes))
    for r in thr:
        if "active_warps_per_sm=" not in r["note"] or "best of" not in r["note"]:
            fail("throughput note must name the shape and the active warps", [r])
    print("PASS", [(r["group_size"], r["value"]) for r in lat])
    return rows


@pytest.mark.parametrize("method, sizes", [
    ("gpu.warp.tile-sync", [1, 4, 32]),
    ("gpu.warp.tile-shuffle", [2, 32]),
    ("gpu.warp.coalesced-sync", [1, 3, 31, 32]),
    ("gpu.warp.coalesced-shuffle", [3, 32]),
    ("gpu.warp.syncwarp", [5, 32]),
], ids=["tile_sync", "tile_shuffle", "coalesced_sync", "coalesced_shuffle", "syncwarp"])
def test_warp(gpubarrier, gpus, method, sizes):
    warp_case(gpubarrier, method, sizes)


NO_WARPSYNC = "not timed: compiled to no WARPSYNC on sm_90"


def timed_parts(row):
    """The note's parts that say what the clock figure did not time (core/timed_regions.hpp)."""
    return [p for p in row["note"].split("; ") if p.startswith(("not timed:", "unresolved:"))]


def test_warp_converged_not_timed(gpubarrier, gpus):
    # On sm_90 the syncs of a converged chain are NOPs: every figure says so in a part of its own,
    # after the verification (on another architecture: unresolved, nothing checked its SASS).
    for method, sizes in (("gpu.warp.tile-sync", [2, 32]), ("gpu.warp.syncwarp", [32])):
        rows = run_rows(gpubarrier, method, "group_size=" + ",".join(map(str, sizes)))
        expect_verified(rows, "latency_cycles", len(sizes))
        for r in rows:
            parts = timed_parts(r)
            if len(parts) != 1 or not (parts[0] == NO_WARPSYNC or
                                       parts[0].startswith("unresolved: the timed region's SASS")):
                fail(f"a converged sync's row must say '{NO_WARPSYNC}' once", [r])
            if not r["note"].startswith("verified; "):
                fail("the note must still start with the verification", [r])
        print("PASS", method, rows[0]["note"])


def test_warp_diverged(gpubarrier, gpus):
    # Members reach every sync from two branches: the diverged path's WARPSYNC is timed, so no
    # row says "not timed", and every row is verified (the stamp check runs split as well).
    for method, sizes in (("gpu.warp.tile-sync-diverged", [2, 32]),
                          ("gpu.warp.coalesced-sync-diverged", [3, 32]),
                          ("gpu.warp.syncwarp-diverged", [2, 17, 32])):
        rows = warp_case(gpubarrier, method, sizes)
        bad = [r for r in rows if any(p.startswith("not timed:") for p in timed_parts(r))]
        if bad:
            fail(f"{method} must time its WARPSYNC", bad)
        one = run_rows(gpubarrier, method, "group_size=1")
        if len(one) != 1 or one[0]["status"] != "skipped" or "two branches" not in one[0]["note"]:
            fail(f"{method} group_size=1 must be a skipped row with the reason", one)


def test_warp_repeat_count(gpubarrier, gpus):
    # The study's section 9.4 over the chain's length: every variant's figure verified and timed
    # (the syncs reached from two branches, the shuffles converged) at a short and a long chain;
    # a length that is no whole number of unrolled loop trips is a skipped row with the reason.
    rows = run_rows(gpubarrier, "gpu.warp.repeat-count", "variant=1,2,3,4,5", "repeats=32,2048")
    lat = expect_verified(rows, "latency_cycles", 10)
    bad = [r for r in rows if timed_parts(r)]
    if bad:
        fail("every repeat-count figure must time its instruction", bad)
    if any("operations between the clock reads" not in r["note"] for r in lat):
        fail("the note names the chain's length", lat)
    odd = run_rows(gpubarrier, "gpu.warp.repeat-count", "repeats=48")  # one row per variant
    if len(odd) != 5 or any(r["status"] != "skipped" or "multiple of 32" not in r["note"]
                            for r in odd):
        fail("repeats=48 must be a skipped row with the reason for every variant", odd)
    print("PASS", [(r["config"], r["value"]) for r in lat])


def test_warp_repeat_count_unrolled(gpubarrier, gpus):
    # The study's section 9.4 with the chain fully unrolled (its code grows with the length):
    # the shortest and longest chain of both variants verified and timing their instruction (the
    # diverged __syncwarp behind its divergence branches, the tile shuffle on the path); a length
    # not compiled for the variant is a skipped row that lists those that are.
    method = "gpu.warp.repeat-count-unrolled"
    rows = run_rows(gpubarrier, method, "variant=1", "repeats=64,1024") + \
        run_rows(gpubarrier, method, "variant=4", "repeats=2048,16384")
    lat = expect_verified(rows, "latency_cycles", 4)
    expect_verified(rows, "latency", 4)
    bad = [r for r in rows if timed_parts(r)]
    if bad:
        fail("every unrolled figure must time its instruction", bad)
    if any("operations between the clock reads, fully unrolled" not in r["note"] for r in lat):
        fail("the note names the chain's length and its shape", lat)
    other = run_rows(gpubarrier, method, "variant=1", "repeats=2048")
    if len(other) != 1 or other[0]["status"] != "skipped" or \
            "no unrolled chain of 2048" not in other[0]["note"]:
        fail("a length not compiled for the variant must be a skipped row with the reason", other)
    print("PASS", [(r["config"], r["value"]) for r in lat])


def test_warp_bad_sizes_skipped(gpubarrier, gpus):
    rows = run_rows(gpubarrier, "gpu.warp.tile-sync", "group_size=3,64")
    if len(rows) != 2 or any(r["status"] != "skipped" or not r["note"] for r in rows):
        fail("tile sizes 3 and 64 must be skipped rows with a reason", rows)
    print("PASS", [r["note"] for r in rows])


def block_case(exe, method):
    rows = run_rows(exe, method, "threads_per_block=32,1024", "blocks_per_sm=1,2,4")
    # Latency only with one block per SM (one block alone), throughput at every resident point.
    lat = expect_verified(rows, "latency_cycles", 2)
    if float(lat[1]["value"]) < float(lat[0]["value"]):
        fail("1024 threads faster than 32", lat)
    thr = expect_verified(rows, "throughput", 5)
    for r in thr:
        warps = int(r["blocks_per_sm"]) * int(r["threads_per_block"]) // 32
        seen = re.search(r"active_warps_per_sm=(\d+)", r["note"])
        # The block scheduler spreads the grid evenly in practice; allow one block of slack.
        if not seen or abs(int(seen.group(1)) - warps) > int(r["threads_per_block"]) // 32:
            fail(f"expected active_warps_per_sm={warps}", [r])
    # 4 blocks of 1024 threads exceed an SM's 2048 threads.
    big = [r for r in rows if r["threads_per_block"] == "1024" and r["blocks_per_sm"] == "4"]
    if len(big) != 1 or big[0]["status"] != "skipped" or "occupancy" not in big[0]["note"]:
        fail("1024 threads x 4 blocks/SM must be skipped for occupancy", big)
    print("PASS", [(r["threads_per_block"], r["blocks_per_sm"], r["value"]) for r in thr])


@pytest.mark.parametrize("method", ["gpu.block.syncthreads", "gpu.block.cg-sync"],
                         ids=["syncthreads", "cg_sync"])
def test_block(gpubarrier, gpus, method):
    block_case(gpubarrier, method)


def test_block_broken(gpubarrier, gpus):
    # In every round of the check one warp arrives late, each in turn, so a block of two warps or
    # more must be caught at every size. A block of one warp (32 threads) is not asked: its lanes
    # have nobody to be late for and run the check in step, so it verifies without the barrier.
    for method in ("gpu.block.syncthreads", "gpu.block.cg-sync"):
        expect_caught(gpubarrier, method, "threads_per_block=64,256,1024", "blocks_per_sm=1,2",
                      points=6)


def test_cluster_broken(gpubarrier, gpus):
    # One warp of one block arrives late in every round: the other blocks read its stamps whatever
    # the block size, and with several warps so does its own block (cluster_size=1 is then a
    # block barrier). Only a cluster of one block of one warp would have nobody to be late for.
    for method in ("gpu.cluster.sync", "gpu.cluster.arrive-wait"):
        expect_caught(gpubarrier, method, "cluster_size=2,4,8", "threads_per_block=32,128,1024",
                      "blocks_per_sm=1", points=9)
        expect_caught(gpubarrier, method, "cluster_size=1", "threads_per_block=128",
                      "blocks_per_sm=1", points=1)


def cluster_case(exe, method):
    rows = run_rows(exe, method, "cluster_size=1,2,8,16,32", "threads_per_block=128",
                    "blocks_per_sm=1,4,32")
    if any(r["status"] in ("failed", "timeout", "unverified") for r in rows):
        fail("no cluster row may fail", rows)
    by_size = {}
    for r in rows:
        by_size.setdefault(r["cluster_size"], []).append(r)
    for size in ("1", "2", "8"):
        here = by_size.get(size, [])
        # Latency only with one cluster (blocks_per_sm=1), throughput at every resident point.
        lat = expect_verified(here, "latency_cycles", 1)
        if lat[0]["blocks_per_sm"] != "1":
            fail("latency belongs to blocks_per_sm=1", lat)
        for r in expect_verified(here, "throughput_cycles", 2):
            # Clusters side by side cannot each beat their lone latency by much.
            clusters = re.search(r"active_clusters=(\d+)", r["note"])
            ceiling = 1.5 * int(clusters.group(1)) / float(lat[0]["value"]) if clusters else 0
            if r["blocks_per_sm"] == "1" and float(r["value"]) > ceiling:
                fail(f"throughput above {ceiling:.3g} cluster-barriers/cycle", [r] + lat)
        for r in expect_verified(here, "throughput", 2):
            if r["unit"] != "cluster-barriers/us":
                fail("cluster throughput is counted in cluster-barriers/us", [r])
            seen = re.search(r"active_clusters=(\d+) \(blocks_per_sm x (\d+) SMs", r["note"])
            warps = re.search(r"active_warps_per_sm=(\d+)", r["note"])
            if not seen or not warps or int(warps.group(1)) < 1:
                fail("throughput note must give active_clusters and active_warps_per_sm", [r])
            clusters, sms = int(seen.group(1)), int(seen.group(2))
            if clusters != int(r["blocks_per_sm"]) * sms // int(size):
                fail(f"expected blocks_per_sm x {sms} SMs / {size} active clusters", [r])
        # 32 blocks of 128 threads exceed an SM's 2048 threads.
        big = [r for r in here if r["blocks_per_sm"] == "32"]
        if len(big) != 1 or big[0]["status"] != "skipped" or "occupancy" not in big[0]["note"]:
            fail("32 blocks/SM x 128 threads must be skipped for occupancy", big)
    # 16 needs the non-portable opt-in: measured where the GPU can place it, else a reason.
    for r in by_size.get("16", []):
        if r["status"] == "skipped" and "cluster" not in r["note"]:
            fail("a skipped cluster size must say why", [r])
        if r["status"] == "ok" and not verified(r):
            fail("cluster size 16 not verified", [r])
    big = by_size.get("32", [])
    if len(big) != 3 or any(r["status"] != "skipped" or "cluster" not in r["note"] for r in big):
        fail("cluster size 32 must be skipped rows with the reason", big)
    print("PASS", [(r["cluster_size"], r["blocks_per_sm"], r["metric"], r["status"], r["value"])
                   for r in rows if r["metric"] in ("latency_cycles", "throughput", "")])


@pytest.mark.parametrize("method", ["gpu.cluster.sync", "gpu.cluster.arrive-wait"],
                         ids=["sync", "arrive_wait"])
def test_cluster(gpubarrier, gpus, method):
    cluster_case(gpubarrier, method)

#!/usr/bin/env python3
"""Grid barriers, kernel boundaries, the fusion technique, the watchdog and selfcheck on a real
GPU at small sizes; skipped when none is visible.

Run by pytest (`pytest tests/gpu/test_grid_kernel.py`; ctest: gpu.grid_kernel).
"""
import csv
import fnmatch
import json
import os
import subprocess
import time

import pytest

from gpu_rows import caught, codes, fail, rows_of, verified


def registered(exe, glob, axis=None):
    """The registered methods whose name matches `glob` (and that have `axis`), from `list
    --json`: a grid barrier or a launch kind added in a file of its own is tested here as it is,
    with no list to extend."""
    p = subprocess.run([exe, "list", "--json"], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        pytest.fail(f"gpubarrier list --json (exit {p.returncode}): {p.stderr}")
    names = [m["name"] for m in json.loads(p.stdout)
             if fnmatch.fnmatchcase(m["name"], glob) and (axis is None or axis in m["axes"])]
    if not names:
        pytest.fail(f"no registered method matches {glob}")
    return names


def grid(exe):
    """The grid barriers."""
    return registered(exe, "gpu.grid.*")


def software(exe):
    """The grid barriers whose spin loops carry the watchdog: those with the skip_block axis."""
    return registered(exe, "gpu.grid.*", "skip_block")


def launch_kinds(exe):
    return registered(exe, "kernel.launch.*")


# The clustered barrier's one axis more: clusters of 2 blocks (every grid here is a multiple).
CLUSTERS = ("--axis", "cluster_size=2")


def run_rows(exe, *args, env=None):
    return rows_of([exe, "run", "--gpus", "0", "--samples", "5", "--time-budget", "0.5", *args],
                   env=env, timeout=600)


def expect_verified(rows, method, metric):
    picked = [r for r in rows if r["method"] == method and r["metric"] == metric]
    if not picked:
        pytest.fail(f"no {method} {metric} rows: {rows}")
    for r in picked:
        if not verified(r) or float(r["value"]) <= 0:
            pytest.fail(f"{r}")
    return picked


def test_grid_all(gpubarrier, gpus):
    methods = grid(gpubarrier)
    rows = run_rows(gpubarrier, "--methods", ",".join(methods), "--axis", "blocks_per_sm=1,2",
                    "--axis", "threads_per_block=128", *CLUSTERS, "--reps-lo", "64",
                    "--reps-hi", "640")
    for m in methods:
        got = expect_verified(rows, m, "latency")
        if len(got) != 2:
            pytest.fail(f"{m}: expected 2 configurations, got {got}")
        print("PASS", m, [(r["blocks_per_sm"], r["value"]) for r in got], "ns")


def test_grid_occupancy(gpubarrier, gpus):
    methods = grid(gpubarrier)
    rows = run_rows(gpubarrier, "--methods", ",".join(methods), "--axis", "blocks_per_sm=64",
                    "--axis", "threads_per_block=1024", *CLUSTERS)
    for m in methods:
        got = [r for r in rows if r["method"] == m]
        if len(got) != 1 or got[0]["status"] != "skipped" or "occupancy" not in got[0]["note"]:
            pytest.fail(f"{m}: 64 blocks/SM of 1024 threads must be skipped: {got}")
    print("PASS occupancy skips")


def test_grid_timeout(gpubarrier, gpus):
    # One block (the clustered barrier: one cluster) never arrives at the software barriers: each
    # run must end as a timeout row after the watchdog, and the configuration after it must still
    # work (nothing is left wedged).
    methods = software(gpubarrier)
    start = time.monotonic()
    rows = run_rows(gpubarrier, "--methods", ",".join(methods), "--axis", "blocks_per_sm=1",
                    "--axis", "threads_per_block=128", "--axis", "skip_block=1,0", *CLUSTERS,
                    "--reps-lo", "64", "--reps-hi", "640")
    took = time.monotonic() - start
    for m in methods:
        timed_out = [r for r in rows if r["method"] == m and codes(r).get("skip_block") == 1]
        if len(timed_out) != 1 or timed_out[0]["status"] != "timeout" or \
                "watchdog" not in timed_out[0]["note"]:
            pytest.fail(f"{m}: skip_block=1 must give one timeout row: {timed_out}")
        after = [r for r in rows if r["method"] == m and codes(r).get("skip_block") == 0]
        expect_verified(after, m, "latency")
    if took > 120:
        pytest.fail(f"the timeouts took {took:.0f} s; the watchdog should end them in seconds")
    print(f"PASS timeouts in {took:.1f} s")


def test_grid_broken(gpubarrier, gpus):
    # GPUBARRIER_TEST_BREAK: the check kernel runs without its grid barrier. In every round one
    # block, drawn from the seed, publishes its stamp late, so every grid method's check must see
    # stale stamps (unverified) at every shape: from one block per SM to the most blocks (32 of
    # one warp: the longest read of the stamps) and the largest blocks.
    shapes = [("blocks_per_sm=1,4", "threads_per_block=128"),
              ("blocks_per_sm=32", "threads_per_block=32"),
              ("blocks_per_sm=1", "threads_per_block=1024")]
    methods = grid(gpubarrier)
    rows = []
    for per_sm, threads in shapes:
        rows += run_rows(gpubarrier, "--methods", ",".join(methods), "--axis", per_sm,
                         "--axis", threads, *CLUSTERS, "--reps-lo", "64", "--reps-hi", "640",
                         env=dict(os.environ, GPUBARRIER_TEST_BREAK="gpu.grid.*"))
    for m in methods:
        got = [r for r in rows if r["method"] == m]
        # 4224 blocks in clusters may be more clusters than are co-resident: a skipped row there.
        got = [r for r in got if not (r["status"] == "skipped" and "occupancy" in r["note"]
                                      and m == "gpu.grid.cluster-count-epoch")]
        want = 3 if m == "gpu.grid.cluster-count-epoch" else 4
        if len(got) < want or not all(caught(r) and "stamps" in r["note"] for r in got):
            fail(f"{m} without its barrier must give {want} or more unverified rows", got)
    print("PASS", len(rows), "unverified grid rows")


def test_kernel_launch(gpubarrier, gpus):
    methods = launch_kinds(gpubarrier)
    rows = run_rows(gpubarrier, "--methods", ",".join(methods), "--axis", "blocks_per_sm=1")
    for m in methods:
        latency = expect_verified(rows, m, "latency")[0]
        interval = expect_verified(rows, m, "launch_interval")[0]
        # Back to back, the host stays ahead of the GPU: never dearer than launch + sync.
        if float(interval["value"]) > float(latency["value"]):
            pytest.fail(f"{m}: launch interval above launch+sync latency: {interval} {latency}")
        print("PASS", m, "latency", latency["value"], "ns, interval", interval["value"], "ns")


def test_cooperative_launch_refuses_over_large_grids(gpubarrier, gpus):
    # The workshop version: "a cooperative launch rejects over-large grids". More blocks/SM than
    # are co-resident is a skipped row giving the occupancy limit and the launch's own refusal;
    # the grid that fits, measured right after, is ok (the refused launch left no error behind).
    rows = run_rows(gpubarrier, "--methods", "kernel.launch.cooperative", "--axis",
                    "blocks_per_sm=64,1", "--axis", "threads_per_block=1024")
    refused = [r for r in rows if codes(r).get("blocks_per_sm") == 64]
    if len(refused) != 1 or refused[0]["status"] != "skipped" or \
            "cudaLaunchCooperativeKernel refused a grid of" not in refused[0]["note"] or \
            "cudaErrorCooperativeLaunchTooLarge" not in refused[0]["note"]:
        fail("64 blocks/SM of 1024 threads: a skipped row quoting the launch's refusal", rows)
    expect_verified(rows, "kernel.launch.cooperative", "latency")
    print("PASS", refused[0]["note"][:200])


def test_kernel_fusion(gpubarrier, gpus):
    # Both single-GPU launch types of the study's Table 1: <<<>>> and cooperative.
    rows = run_rows(gpubarrier, "--methods", "kernel.fusion", "--axis", "fusion_i=40",
                    "--axis", "fusion_j=10", "--axis", "launch=0,1")
    got = [r for r in rows if r["metric"] == "launch_overhead"]
    if len(got) != 2 or any(r["status"] != "ok" or r["technique"] != "fusion" for r in got):
        pytest.fail(f"{rows}")
    for r in got:
        value = float(r["value"])
        # The study found about 1 us on V100; anything positive and well below a launch+sync.
        if not 0 < value < 20000:
            pytest.fail(f"launch overhead {value} ns out of range: {r}")
        # Eq. 6 depends on the length of the kernels that hide the launches: the note names it.
        if "shorter kernels 10 x 1000 ns = 10 us of nominal sleep" not in r["note"]:
            pytest.fail(f"the note names the shorter kernels' length: {r}")
        print("PASS kernel.fusion", r["config"], value, "ns")


def test_kernel_fusion_omp_barrier(gpubarrier, gpus):
    # Eq. 6 over the CPU-side barrier's step (the study's section 4.2.2) on one GPU: the launch
    # and stream wait that no running kernel hides, so more than kernel.fusion's hidden launch
    # overhead and less than a whole launch + sync step of an empty kernel (host.omp.gpu-barrier).
    rows = run_rows(gpubarrier,
                    "--methods", "kernel.fusion.omp-barrier,kernel.fusion,host.omp.gpu-barrier",
                    "--axis", "fusion_i=40", "--axis", "fusion_j=10", "--axis", "host_wait=0")
    step = [r for r in rows if r["method"] == "kernel.fusion.omp-barrier"]
    if len(step) != 1 or not verified(step[0]) or step[0]["technique"] != "fusion" or \
            step[0]["metric"] != "launch_overhead" or "1 GPU" not in step[0]["note"]:
        fail("one verified Eq. 6 row of the CPU-side step on 1 GPU", rows)
    hidden = [r for r in rows if r["method"] == "kernel.fusion" and r["status"] == "ok"]
    whole = [r for r in rows if r["method"] == "host.omp.gpu-barrier" and r["metric"] == "latency"]
    value = float(step[0]["value"])
    if not hidden or not whole or not float(hidden[0]["value"]) < value < 2 * float(
            whole[0]["value"]):
        fail(f"the step's overhead {value} ns: above the hidden launch overhead, below two whole "
             "steps of an empty kernel", rows)
    print("PASS kernel.fusion.omp-barrier", value, "ns; kernel.fusion", hidden[0]["value"],
          "ns; host.omp.gpu-barrier", whole[0]["value"], "ns")


def test_selfcheck(gpubarrier, gpus, tmp_path):
    out = str(tmp_path / "selfcheck.csv")
    p = subprocess.run([gpubarrier, "selfcheck", "--json", "--time-budget", "1", "--out", out],
                       capture_output=True, text=True, timeout=600)
    try:
        out_json = json.loads(p.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"no JSON (exit {p.returncode}):\n{p.stdout}\n{p.stderr}")
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    check_selfcheck_json(p, out_json)
    check_selfcheck_rows(rows, out_json)
    if not out_json["ok"]:
        pytest.fail(f"clock and differential techniques disagree: "
                 f"{json.dumps(out_json, indent=1)}")
    print("PASS selfcheck", [(r["repeat_difference"], round(r["differential_cycles"], 2),
                              r["agreement"]) for r in out_json["rows"]],
          "stops fitting at", out_json["stops_fitting_at"], f"; {len(rows)} CSV rows")


def check_selfcheck_json(p, out):
    if len(out["rows"]) != 5 or len(out["icache"]) != 5 or out["reference_cycles"] <= 0:
        pytest.fail(f"{out}")
    if p.returncode != (0 if out["ok"] else 1):
        pytest.fail(f"exit {p.returncode} does not match ok={out['ok']}\n{p.stderr}")
    for r in out["rows"]:
        # The loop kernel's figures carry their sample counts and standard errors.
        if r["differential"]["samples"] < 20 or not r["differential"]["se_cycles"] >= 0:
            pytest.fail(f"no samples or standard error: {r}")


def close(csv_value, figure):
    return abs(float(csv_value) - figure) <= 1e-5 * max(abs(figure), 1)  # %.6g in the CSV


def check_selfcheck_rows(rows, out):
    """The CSV holds the same figures and judgements as the JSON: per method, the base clock
    figure (repeat difference 0), then a clock and a differential row per repeat difference."""
    def pick(method, technique, difference):
        got = [r for r in rows if r["method"] == method and r["technique"] == technique
               and f"repeat_difference={difference} " in r["config"] + " "]
        if len(got) != 1:
            fail(f"one {method} {technique} row at {difference}", rows)
        r = got[0]
        if (r["status"] != "ok" or r["level"] != "kernel" or r["metric"] != "cycles_per_add"
                or r["unit"] != "cycles" or r["gpu_count"] != "1"):
            fail("selfcheck row fields", [r])
        return r

    if len(rows) != 22:
        fail(f"expected 22 selfcheck rows, got {len(rows)}", rows)
    base = pick("selfcheck.fadd.loop", "clock", 0)
    if not close(base["value"], out["loop_clock_lo"]["cycles"]):
        fail("loop base figure", [base])
    for j in out["rows"]:
        diff = j["repeat_difference"]
        clock = pick("selfcheck.fadd.loop", "clock", diff)
        pair = pick("selfcheck.fadd.loop", "differential", diff)
        if (not close(clock["value"], j["clock_cycles"])
                or not close(pair["value"], j["differential_cycles"])
                or int(pair["reps_hi"]) - int(pair["reps_lo"]) != diff
                or f"agreement {j['agreement']} " not in pair["note"]
                or f"deviation {100 * j['deviation']:+.1f}%" not in pair["note"]):
            fail(f"loop rows at {diff} against {j}", [clock, pair])
    if not close(pick("selfcheck.fadd.unrolled", "clock", 0)["value"], out["reference_cycles"]):
        fail("unrolled base figure", rows)
    for j in out["icache"]:
        clock = pick("selfcheck.fadd.unrolled", "clock", j["repeat_difference"])
        pair = pick("selfcheck.fadd.unrolled", "differential", j["repeat_difference"])
        fits = "fits the instruction cache" in clock["note"]
        if (not close(clock["value"], j["clock_cycles"]) or fits != j["fits_icache"]
                or not close(pair["value"], j["differential_cycles"])
                or "launch difference" not in pair["note"]):
            fail(f"unrolled rows at {j['repeat_difference']} against {j}", [clock, pair])


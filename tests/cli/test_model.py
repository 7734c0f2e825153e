#!/usr/bin/env python3
"""`gpubarrier model` (gpubarrier_tools/cli/model.py, gpubarrier_tools/analysis/model_eq.py): the study's Eqs. 1-5.

Cases:
  equations  switch_point solves Eq. 2 exactly: against a brute-force search over N on random
             inputs, and Eq. 4 / Eq. 5 in their scenarios; crossing() interpolates.
  study      the study's V100/P100 inputs (its Table 3) give its Table 4 switch points
             (70 B, 70 B, 9076 B, 32681 B) by Eq. 5, within the rounding of the printed inputs.
  from_csv   a CSV written here with every input: the predictions, the measured crossings and
             their errors, per GPU model.
  refusals   no computable prediction (exit 1, what it needs), a wrong unit (file:line), bad
             arguments.

Run by pytest: pytest tests/.../test_model.py [--gpubarrier PATH]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import pytest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gpubarrier_tools.data import gbcsv
from cli_common import executable, expect, synthetic_row, write_rows
from gpubarrier_tools.analysis.model_eq import Side, crossing, eq5, switch_point

EXE = executable()
# Table 3 prints its inputs to 3 significant figures (0.43 B/cycle is 0.425-0.435) and Table 4 its
# small switch points to 2 (70 B): 2% covers the rounding of both, and no more.
STUDY_TOLERANCE = 0.02


def model(*args):
    return subprocess.run([EXE, "model", *args], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, GPUBARRIER_TOOLS=os.path.join(ROOT, "gpubarrier_tools")))


@pytest.mark.unit
def test_equations():
    rng = random.Random(17)
    for _ in range(2000):
        t_b, t_m = rng.uniform(1, 100), rng.uniform(1, 100)
        basic = Side(t_b, rng.uniform(0.1, 50))
        more = Side(t_m, basic.throughput * rng.uniform(1.01, 40))
        t_sync = rng.uniform(0.5, 5000)
        sp = switch_point(basic, more, t_sync)
        # Brute force: the first N (0.01 B steps near the answer) where more is not slower.
        gain = lambda n: basic.time(n) - more.time(n, t_sync)  # noqa: E731
        if sp.n == 0.0:
            expect(gain(0.0) >= 0, f"more said faster from N=0: {basic} {more} {t_sync}")
            continue
        expect(sp.n is not None and sp.n > 0, f"a switch point: {basic} {more} {t_sync} {sp}")
        expect(abs(gain(sp.n)) < 1e-6 * max(1.0, basic.time(sp.n)),
               f"Eq. 2 holds with equality at N={sp.n}: {basic} {more} {t_sync}")
        expect(gain(sp.n * 0.999 - 1e-9) < 0 < gain(sp.n * 1.001 + 1e-9),
               f"basic wins below N={sp.n} and more above: {basic} {more} {t_sync}")
        # One latency T for both: the study's closed forms in their scenarios.
        same = Side(t_b, more.throughput)
        sp = switch_point(basic, same, t_sync)
        if sp.n <= same.concurrency():
            expect(sp.equation == "Eq. 4" and
                   abs(sp.n - (t_b + t_sync) * basic.throughput) < 1e-6 * sp.n,
                   f"Eq. 4 below C_more: {sp} {basic} {same} {t_sync}")
        else:
            expect(sp.equation == "Eq. 5" and
                   abs(sp.n - eq5(t_sync, basic.throughput, same.throughput)) < 1e-6 * sp.n,
                   f"Eq. 5 above C_more: {sp} {basic} {same} {t_sync}")
    never = switch_point(Side(10, 5), Side(10, 5), 100)
    expect(never.n is None and "never" in never.scenario, f"equal throughputs never switch: {never}")
    expect(crossing({64: 10, 128: 20, 256: 40}, {64: 30, 128: 30, 256: 30}).n == 192,
           "the curves cross halfway between 128 and 256")
    expect(crossing({64: 50}, {64: 30}).bound == "<=", "more already faster at the smallest size")
    expect(crossing({64: 10, 128: 20}, {64: 30, 128: 30}).bound == ">", "never within the sizes")
    print("PASS equations: 2000 random inputs against Eq. 2 by brute force")


def test_study():
    p = model("--study", "--format", "json")
    expect(p.returncode == 0, "model --study exits 0", p)
    preds = json.loads(p.stdout)
    got = {(x["prediction"], x["gpu_model"]): x for x in preds}
    expect(len(got) == 4, f"four switch points (2 pairs x V100, P100): {sorted(got)}", p)
    for x in preds:
        err = x["n_l"] / x["published"] - 1
        expect(abs(err) <= STUDY_TOLERANCE,
               f"{x['prediction']} {x['gpu_model']}: Eq. 5 gives {x['n_l']:.1f} B, the study "
               f"printed {x['published']} B ({100 * err:+.1f}%)", p)
    warp = got[("1 thread vs 1 warp", "V100")]
    # The study used Eq. 5 here, but its inputs put the crossing in Eq. 4's range (below C_more).
    expect(warp["equation"] == "Eq. 4" and abs(warp["n"] - (13.0 + 110.0) * 0.62) < 1e-9,
           f"1 thread vs 1 warp, V100: Eq. 2 solved is Eq. 4, 76.26 B: {warp}", p)
    block = got[("32 threads vs 1024 threads", "P100")]
    expect(block["equation"] == "Eq. 5" and abs(block["n"] - block["n_l"]) < 1e-6,
           f"32 vs 1024 threads: above C_more, Eq. 2 solved is Eq. 5: {block}", p)
    p = model("--study")
    expect(p.returncode == 0 and "| 1 thread vs 1 warp | V100 |" in p.stdout and
           "study's Table 4" in p.stdout, "the markdown table", p)
    print("PASS study")
    print(p.stdout)


def row(**kw):
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **kw)


def write(path, rows):
    write_rows(path, gbcsv.NAMES, rows)


def inputs(gpu, scale=1.0):
    """Every input of every prediction for one GPU model: the study's V100 figures for the
    in-block pairs (so the answers are known), except 1024 threads' bandwidth, halved to stay
    within an SM's shared-memory bandwidth (128 B/cycle: gpubarrier_tools/data/bounds.py), round numbers for
    the rest."""
    g = dict(gpu_model=gpu)
    out = []
    for tpb, bw in ((1, 0.62), (32, 19.6), (1024, 107.5)):
        cfg = f"threads_per_block={tpb}"
        out += [row(method="model.smem.stream", config=cfg, metric="bandwidth_cycles",
                    unit="B/cycle", value=str(bw * scale), **g),
                row(method="model.smem.stream", config=cfg, metric="latency_cycles",
                    unit="cycles", value="13", **g)]
    out += [row(method="gpu.warp.tile-shuffle", config="group_size=32", metric="latency_cycles",
                unit="cycles", value="22", **g),
            row(method="gpu.block.syncthreads", config="threads_per_block=1024",
                metric="latency_cycles", unit="cycles", value="84", **g)]
    for grid, bw, lat in ((0, 50.0, 600.0), (1, 4000.0, 600.0)):
        cfg = f"grid={grid}"
        out += [row(method="model.gmem.stream", config=cfg, metric="bandwidth", unit="B/ns",
                    value=str(bw), **g),
                row(method="model.gmem.stream", config=cfg, metric="latency", unit="ns",
                    value=str(lat), **g)]
    out += [row(method="gpu.grid.cg", config="blocks_per_sm=1 threads_per_block=128",
                metric="latency", unit="ns", value="1000", **g),
            row(method="gpu.grid.cg", config="blocks_per_sm=8 threads_per_block=128",
                metric="latency", unit="ns", value="2200", **g),
            row(method="multigpu.device.push", config="blocks_per_sm=1 threads_per_block=128",
                metric="latency", unit="ns", value="2500", gpu_count="2", **g),
            row(method="multigpu.floor.signal", config="ordering=3", metric="one_way_latency",
                unit="ns", value="700", gpu_count="2", **g)]
    # The reduction sweep: warp beats one thread between 64 and 128 B (interpolated: 96 B).
    for size, one, warp in ((32, 60, 130), (64, 110, 130), (128, 210, 190), (256, 410, 180)):
        for tpb, v in ((1, one), (32, warp)):
            out.append(row(method="reduction.block", config=f"threads_per_block={tpb} bytes={size}",
                           metric="latency", unit="ns", value=str(v), **g))
    return out


def test_from_csv():
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.csv"), os.path.join(d, "b.csv")
        write(a, inputs("GPU A"))
        write(b, inputs("GPU B", scale=1.1))
        p = model("--from", a, "--from", b, "--format", "json")
        expect(p.returncode == 0, "model --from exits 0", p)
        preds = {(x["prediction"], x["gpu_model"]): x for x in json.loads(p.stdout)}
        warp = preds[("1 thread vs 1 warp", "GPU A")]
        expect(abs(warp["t_sync"] - 5 * 22) < 1e-9 and abs(warp["n"] - (13 + 110) * 0.62) < 1e-6,
               f"5 x the tile-shuffle latency, Eq. 4: {warp}", p)
        expect(warp["measured"] == 96.0 and warp["measured_bound"] == "",
               f"the measured crossing interpolated at 96 B: {warp}", p)
        block = preds[("32 vs 1024 threads", "GPU A")]
        expect(abs(block["n"] - eq5(420, 19.6, 107.5)) < 1e-6 and block["measured"] is None,
               f"32 vs 1024 threads by Eq. 5, nothing measured: {block}", p)
        expect(abs(preds[("32 vs 1024 threads", "GPU B")]["n"] - eq5(420, 19.6 * 1.1, 107.5 * 1.1)) < 1e-6,
               "GPU B's rows only for GPU B", p)
        grid = preds[("1 block vs the grid", "GPU A")]
        expect(grid["t_sync"] == 1000 and "blocks_per_sm=1" in grid["sync_from"],
               f"the fastest grid.sync configuration: {grid}", p)
        gpus = preds[("1 GPU vs 2 GPUs, multigpu.device", "GPU A")]
        expect(gpus["t_sync"] == 2500 + 700 and gpus["thr_more"] == 2 * 4000,
               f"push + one-way signal, twice one GPU's bandwidth: {gpus}", p)
        p = model("--from", a, "--syncs", "3")
        expect(p.returncode == 0 and "66 (3 x gpu.warp.tile-shuffle)" in p.stdout and
               "| 1 thread vs 1 warp | GPU A |" in p.stdout and "+" in p.stdout,
               "--syncs 3 and the markdown table with the measured error", p)
    print("PASS from_csv")
    print(p.stdout)


def test_refusals():
    with tempfile.TemporaryDirectory() as d:
        empty = os.path.join(d, "none.csv")
        write(empty, [row(method="gpu.block.syncthreads", metric="latency_cycles", unit="cycles",
                          value="20", config="threads_per_block=32")])
        p = model("--from", empty)
        expect(p.returncode == 2 and "no prediction can be computed" in p.stderr and
               "model.smem.stream" in p.stderr and "model.gmem.stream" in p.stderr,
               "nothing computable: exit 2 naming the rows it needs", p)
        bad = os.path.join(d, "bad.csv")
        rows = inputs("GPU A")
        rows[1]["unit"] = "ns"  # model.smem.stream latency_cycles in ns
        write(bad, rows)
        p = model("--from", bad)
        expect(p.returncode == 2 and "bad.csv:3: model.smem.stream latency_cycles "
               "threads_per_block=1 has unit ns, expected cycles" in p.stderr,
               "a wrong unit names the file and line", p)
        for args, message in ((["--study", "--from", bad], "one of them"), ([], "one of them"),
                              (["--study", "--syncs", "0"], "--syncs 0: expected at least 1")):
            p = model(*args)
            expect(p.returncode == 2 and message in p.stderr, f"{args} refused: {message}", p)
    print("PASS refusals")

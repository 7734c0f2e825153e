"""The study's conclusions, one row each, beside what Hopper measured: the findings page.

    report.py findings [--newest DIR] [DIR_OR_CSV ...]
        markdown: one row per conclusion of the study (Zhang, Wahib, Zhang, Matsuoka) and GPU
        model. Input: exactly the folders and CSVs named; --newest DIR adds, for each machine
        kind folder of DIR (h100, h100x2, h200, ...), its newest one-run folder (a folder named
        by its date, YYYY-MM-DD, holding machine.txt) with the earlier run folders its
        machine.txt says it adds to (a line `adds to: YYYY-MM-DD`), or the whole kind folder
        where it has none; no argument: --newest on the repository's results folder.

Each row: the study's claim, the study's own sentence or table (quoted from its text) and its
V100/P100 figure (data/study_conclusions.json states them, in the page's order; ANSWERS here and
in findings_more name the function that answers each), the Hopper figures computed here from the
CSVs, the verdict per GPU model, the GPU(s) (UUID) that measured every figure of it, and the CSVs.
The rules (FINDINGS.md states them):

- Rows: every row that gbcsv reads as ok (so never one outside a physical bound, data/bounds.py)
  and that carries GPU UUIDs, and the Eq. 6 rows that measured zero (findings_rules.zero_row: a
  95% interval that includes zero and is narrower than the overhead it would resolve, "no
  overhead left"): a machine is its GPUs, and a row without UUIDs cannot say which GPU measured
  it, so it takes part in no verdict. Per GPU model the machines (analysis/answers.py `machines`)
  are tried newest first; on a machine, its runs newest first, then each set of GPUs its rows
  used. A verdict stands only when its figures come from one GPU (per GPU count, one set of
  GPUs, each inside the largest): never one side from each of two GPUs.
- Comparisons, the margin and the verdict: analysis/findings_rules.py. In short: a difference counts
  beyond max(2 (e_A + e_B), f x the smaller) plus the spread between GPUs of one machine that
  measured the figure, e the standard error of a mean or median of samples (else the stddev),
  f the larger run-to-run floor; the row says which set it. Clean figures settle a row; a figure
  that is excluded (times nothing, unresolved, outside a bound) is left out and named; where a
  converged warp-sync chain times nothing, its diverged variant answers, saying so. Magnitude
  words ("slightly", "large") are tested as worded. An extension of the study (a row that is no
  conclusion of it) is inconclusive at most. A reference that does not exist for the GPU gives
  "no reference".
- Eq. 6 figures (analysis/findings_eq6.py) carry the shorter kernel's length; a comparison takes
  them at one length, the study's setting (the shortest from 5 µs).
- The further conclusions of the study (section 7.2's predictions, Tables 2, 3 and 6, Eq. 8, the
  repeat counts, section 10, the workshop version's findings): analysis/findings_more.py.
"""

from __future__ import annotations

import collections
import os
import re
from collections.abc import Callable, Iterable, MutableMapping, Sequence
from typing import Any

from ..data import gbcsv, study_reference, tool_main
from ..data import machines as machines_mod
from ..data.tables import Table
from . import answers, findings_more
from . import findings_eq6 as eq6
from .findings_rules import (
    SLIGHTLY,
    Fig,
    Missing,
    NoReference,
    NotMeasured,
    NotTimed,
    Outcome,
    Scope,
    about,
    flat,
    floor_of,
    less,
    margin,
    slightly_less,
    verdict,
)

GPUS = [("H100", "H100"), ("H200", "H200")]


def us(f: Fig) -> str:
    return f"{f.value / 1000:.3g} µs"


def cyc(f: Fig) -> str:
    return f"{f.value:.3g}"


def gbs(f: Fig) -> str:
    return f"{f.value:.0f} GB/s"


# --- the claims -------------------------------------------------------------------------------


def gpu_counts(s: Scope, method: str, metric: str, **axes: Any) -> list:
    return sorted(int(k) for k in s.values(method, metric, "gpu_count", **axes))


def omp_vs_multi_device(s: Scope) -> Outcome:
    counts = [
        n
        for n in gpu_counts(s, "host.omp.gpu-barrier", "latency", host_wait=0)
        if n > 2
        and n in gpu_counts(s, "kernel.multi-device-launch", "latency", host_wait=0, impl=1)
    ]
    if not counts:
        raise Missing("host.omp.gpu-barrier and kernel.multi-device-launch impl=1 at > 2 GPUs")
    checks, figs, text = [], [], []
    for n in counts:
        omp = s.fig("host.omp.gpu-barrier", "latency", host_wait=0, gpu_count=n)
        mdl = s.fig("kernel.multi-device-launch", "latency", host_wait=0, impl=1, gpu_count=n)
        checks.append(less(omp, mdl, f"{n} GPUs"))
        figs += [omp, mdl]
        text.append(f"{n} GPUs: OpenMP {us(omp)}, multi-device launch {us(mdl)}")
    return Outcome("; ".join(text), checks, figs)


DIVERGED = "-diverged"  # the variant whose threads reach the sync on diverged paths: it is timed


def timed_values(s: Scope, method: str, metric: str, axis: str = "group_size") -> tuple:
    """({axis value: Fig}, the method used, what was left out): the figures of `method` that time
    something; where its converged chain times nothing (compiled to no sync instruction), those
    of its diverged variant (`method`-diverged), which answers the same question, saying so;
    NotTimed where neither is timed; ({}, ...) where neither was measured."""
    by = s.values(method, metric, axis)
    clean = {k: f for k, f in by.items() if not f.excluded}
    if clean and len(clean) == len(by):
        return clean, method, []
    why = next((f.excluded for f in by.values() if f.excluded), "")
    div = {k: f for k, f in s.values(method + DIVERGED, metric, axis).items() if not f.excluded}
    if div:
        return (
            div,
            method + DIVERGED,
            [
                f"{method}, the converged chain ({why}): the diverged "
                f"variant {method + DIVERGED} instead"
            ],
        )
    if by:
        raise NotTimed(
            f"the converged chain times nothing ({method}: {why}), and no diverged "
            f"variant ({method + DIVERGED}) was measured"
        )
    return {}, method, []


def tile_sync_flat(s: Scope) -> Outcome:
    by, method, left = timed_values(s, "gpu.warp.tile-sync", "latency_cycles")
    if len(by) < 2:
        raise Missing("gpu.warp.tile-sync latency_cycles over group_size")
    figs = [by[k] for k in sorted(by, key=int)]
    lo, hi = min(f.value for f in figs), max(f.value for f in figs)
    return Outcome(
        f"{method}: {lo:.3g}-{hi:.3g} cycles over group sizes {', '.join(sorted(by, key=int))}",
        [flat(figs, 0.10, "flat within 10%")],
        figs,
        left_out=left,
    )


def coalesced_whole_warp(s: Scope) -> Outcome:
    by, method, left = timed_values(s, "gpu.warp.coalesced-sync", "latency_cycles")
    if "32" not in by or len(by) < 2:
        raise Missing("gpu.warp.coalesced-sync latency_cycles at 32 and a partial group")
    whole = by["32"]
    part = min((f for k, f in by.items() if k != "32"), key=lambda f: f.value)
    return Outcome(
        f"{method}: 32: {cyc(whole)} cycles, partial groups from {cyc(part)}",
        [less(whole, part, "whole warp faster than the fastest partial group")],
        [whole, part],
        left_out=left,
    )


def block_sync_warps(s: Scope) -> Outcome:
    small = s.fig("gpu.block.syncthreads", "latency_cycles", threads_per_block=32, blocks_per_sm=1)
    big = s.fig("gpu.block.syncthreads", "latency_cycles", threads_per_block=1024, blocks_per_sm=1)
    return Outcome(
        f"32 threads {cyc(small)}, 1024 threads {cyc(big)} cycles",
        [less(small, big, "1 warp faster than 32 warps")],
        [small, big],
    )


def grid_blocks_over_threads(s: Scope) -> Outcome:
    wide = s.fig("gpu.grid.cg", "latency", blocks_per_sm=1, threads_per_block=1024)
    many = s.fig("gpu.grid.cg", "latency", blocks_per_sm=8, threads_per_block=128)
    return Outcome(
        f"32 warps/SM as 1 x 1024: {us(wide)}, as 8 x 128: {us(many)}",
        [less(wide, many, "more blocks/SM cost more than more threads/block")],
        [wide, many],
    )


def grid_vs_kernel_boundary(s: Scope) -> Outcome:
    launch = eq6.boundary(s)
    grid = s.fig("gpu.grid.cg", "latency", blocks_per_sm=1, threads_per_block=128)
    return Outcome(
        f"launch overhead (Eq. 6, {eq6.kernels(launch)}) {eq6.show(launch)}, "
        f"grid.sync 1 x 128 {us(grid)}{eq6.hidden_note(s)}",
        [less(launch, grid, "kernel boundary cheaper than grid.sync")],
        [launch, grid],
    )


# The study's Fig. 5 shapes of the multi-grid sync: its general case (1 x 1024) and its fastest
# (1 x 32); the first one a scope measured at two or more GPU counts is used.
MG_SHAPES = [
    {"blocks_per_sm": 1, "threads_per_block": 1024},
    {"blocks_per_sm": 1, "threads_per_block": 32},
]


def _mg_shape(s: Scope, at_least: int = 2) -> dict:
    for shape in MG_SHAPES:
        if (
            len([n for n in gpu_counts(s, "multigpu.cg.multi-grid", "latency", **shape) if n > 1])
            >= at_least
        ):
            return shape
    raise Missing("multigpu.cg.multi-grid latency at 1 x 1024 or 1 x 32, at enough GPU counts")


def _shape_text(shape: dict[str, Any]) -> str:
    return f"{shape['blocks_per_sm']} x {shape['threads_per_block']}"


def multi_grid_counts(s: Scope) -> Outcome:
    shape = _mg_shape(s)
    counts = [n for n in gpu_counts(s, "multigpu.cg.multi-grid", "latency", **shape) if n > 1]
    figs = [s.fig("multigpu.cg.multi-grid", "latency", gpu_count=n, **shape) for n in counts]
    return Outcome(
        f"{_shape_text(shape)}: " + ", ".join(f"{n} GPUs {us(f)}" for n, f in zip(counts, figs)),
        [flat(figs, 0.20, "about the same over GPU counts (20%)")],
        figs,
    )


# The CPU-side barrier's overhead as the study measured it (section 4.2.2: "the same method used
# for a single GPU", Eq. 6): steps of a kernel, a stream wait and an OpenMP barrier, the kernel's
# run cancelled. host.omp.gpu-barrier's figure holds its empty kernel's run as well.
CPU_STEP = ("kernel.fusion.omp-barrier", "launch_overhead")


def _cpu_counts(s: Scope) -> list[int]:
    return gpu_counts(s, *CPU_STEP, host_wait=0)


def _one_gpu_hint(s: Scope) -> str:
    """What one GPU measured of the CPU-side step, for a claim about 2 or more GPUs."""
    try:
        one = s.fig(*CPU_STEP, host_wait=0, gpu_count=1)
    except Missing:
        return ""
    return (
        f" (1 GPU only: {CPU_STEP[0]} {us(one)} ({eq6.kernels(one)}), the launch and "
        f"stream wait of a step; "
        f"the study compares GPU counts of 2 to 8)"
    )


def cpu_vs_multi_grid(s: Scope) -> Outcome:
    try:
        shape = _mg_shape(s, at_least=1)
    except Missing:
        shape = None
    counts = [
        n
        for n in _cpu_counts(s)
        if n > 1 and shape and n in gpu_counts(s, "multigpu.cg.multi-grid", "latency", **shape)
    ]
    if not counts:
        raise Missing(
            f"{CPU_STEP[0]} {CPU_STEP[1]} and multigpu.cg.multi-grid latency (1 x 1024 "
            f"or 1 x 32) at one GPU count > 1" + _one_gpu_hint(s)
        )
    checks, figs, text = [], [], []
    for n in counts:
        cpu = s.fig(*CPU_STEP, host_wait=0, gpu_count=n)
        mg = s.fig("multigpu.cg.multi-grid", "latency", gpu_count=n, **shape)  # type: ignore[arg-type]
        checks.append(less(cpu, mg, f"{n} GPUs: CPU-side below multi-grid"))
        d, m = mg.value - 3 * cpu.value, margin(mg, cpu)
        checks.append(
            (
                True if d < -m else False if d > m else None,
                f"{n} GPUs: multi-grid at most 3x the CPU-side overhead",
            )
        )
        figs += [cpu, mg]
        text.append(
            f"{n} GPUs: CPU-side step (Eq. 6, {eq6.kernels(cpu)}) {us(cpu)}, multi-grid "
            f"{_shape_text(shape)} {us(mg)}"  # type: ignore[arg-type]
        )
    return Outcome("; ".join(text), checks, figs)


def cpu_overhead_flat(s: Scope) -> Outcome:
    counts = [n for n in _cpu_counts(s) if n > 1]
    if len(counts) < 2:
        raise Missing(
            f"{CPU_STEP[0]} {CPU_STEP[1]} at two or more GPU counts > 1" + _one_gpu_hint(s)
        )
    figs = [s.fig(*CPU_STEP, host_wait=0, gpu_count=n) for n in counts]
    return Outcome(
        f"CPU-side step (Eq. 6, {eq6.kernels(figs[0])}): "
        + ", ".join(f"{n} GPUs {us(f)}" for n, f in zip(counts, figs)),
        [flat(figs, 0.25, "about the same over GPU counts (25%)")],
        figs,
    )


def _predictions(s: Scope, in_block: bool) -> list[dict[str, Any]]:
    """The model's predictions with a measured switch point: inside a block (in_block), or of one
    GPU against N GPUs (not one block against the grid: that is no GPU count)."""
    from . import model_predictions as model

    preds = [
        p
        for p in model.predictions(s.rows)
        if "missing" not in p
        and p.get("measured") is not None
        and not p.get("measured_bound")
        and (p["units"] == "B, cycles") == in_block
        and (in_block or p["prediction"].startswith("1 GPU vs"))
    ]
    if not preds:
        raise Missing(
            "the model's inputs and the reductions' switch points"
            + ("" if in_block else " of 1 GPU against N GPUs")
        )
    return preds


def model_predictions(s: Scope, in_block: bool) -> Outcome:
    """The model's predictions against the measured switch points; one GPU against N GPUs is an
    extension of the study (its Table 4 predicts in-block switches only): at most inconclusive."""
    preds = _predictions(s, in_block)
    checks, text, figs = [], [], []
    for p in preds:
        ratio = p["measured"] / p["n"]
        ok = 0.5 <= ratio <= 2.0
        checks.append((ok, f"{p['prediction']}: measured / predicted {ratio:.2f}"))
        text.append(f"{p['prediction']}: predicted {p['n']:.3g} B, measured {p['measured']:.3g} B")
    # the reductions the measured switch points come from
    methods = {
        "multigpu.device": "reduction.multi.device-barrier",
        "host.omp.gpu-barrier": "reduction.multi.omp",
        "host.nccl.allreduce": "reduction.multi.nccl",
        "host.mpi": "reduction.multi.mpi",
    }
    for p in preds:
        for key, method in methods.items():
            if key in p["prediction"]:
                near = [
                    r
                    for r in s.rows
                    if r["method"] == method
                    and r["metric"] == "latency"
                    and p["measured"] / 2
                    <= float(gbcsv.config_axes(r).get("bytes", 0))
                    <= p["measured"] * 2
                ]
                figs += [Fig(r) for r in near]
    sources = [r for r in s.rows if r["method"].startswith("model.")]
    figs += [Fig(r) for r in sources[:1]]
    left = [] if in_block else out_of_bounds(s, *methods.values())
    return Outcome("; ".join(text), checks, figs, extension=not in_block, left_out=left)


def warp_reduce_tile_shuffle(s: Scope) -> Outcome:
    names = {
        "0": "serial",
        "2": "tile sync",
        "3": "coalesced sync",
        "4": "tile shuffle",
        "5": "coalesced shuffle",
    }
    every = {
        k: f
        for k, f in s.values("gpu.warp.reduce", "latency_cycles", "variant").items()
        if k in names
    }
    by = {k: f for k, f in every.items() if not f.excluded}
    left = [f"{names[k]} ({f.excluded})" for k, f in sorted(every.items()) if f.excluded]
    if "4" not in by or len(by) < 2:
        raise Missing("gpu.warp.reduce latency_cycles, variant 4 and another")
    tile = by["4"]
    others = [f for k, f in by.items() if k != "4"]
    best_other = min(others, key=lambda f: f.value)
    fastest = min(by, key=lambda k: by[k].value)
    text = (
        ", ".join(f"{names[k]} {cyc(by[k])}" for k in sorted(by, key=int))
        + f" cycles (fastest: {names[fastest]})"
    )
    if left:
        text += "; not timed, left out: " + ", ".join(
            names[k] for k in sorted(every) if every[k].excluded
        )
    return Outcome(
        text, [less(tile, best_other, "tile shuffle fastest")], [tile] + others, left_out=left
    )


SIZES_BIG = 1 << 20
SLIGHTLY_WORD = f"slightly: at most {100 * SLIGHTLY:.0f}% apart"


def reduction_sizes(s: Scope, *keys: tuple[str, dict[str, Any]]) -> list:
    common = None
    for method, axes in keys:
        got = {int(k) for k in s.values(method, "latency", "bytes", **axes)}
        common = got if common is None else common & got
    return sorted(b for b in common or () if b >= SIZES_BIG)


STEP = re.compile(r"moves more at (\d+) B than at (\d+) B")


def out_of_bounds(s: Scope, *methods: str) -> list:
    """The pairs of consecutive cold sizes of `methods` whose extra bytes were read faster than
    the GPU's DRAM peak (data/bounds.py marks both rows): "reduction.x 16-32 MiB (above the DRAM
    peak between them)", each once; their rows take part in no figure."""
    pairs = {}
    for r in s.all_rows:
        m = STEP.search(r.get("note", "")) if r["method"] in methods else None
        if m and r["status"] == "unverified":
            hi, lo = int(m.group(1)), int(m.group(2))
            pairs[(r["method"], lo, hi)] = None
    return [
        f"{method} {lo >> 20}-{hi >> 20} MiB (the extra bytes between them read faster "
        f"than the DRAM peak)"
        for method, lo, hi in sorted(pairs)
    ]


def _cold(s: Scope, *methods: str) -> dict:
    """cache=0 where every method has cold figures, else the warm ones (rows before the axis):
    both sides of a comparison always in one cache state."""
    cold = all(s.values(m, "latency", "bytes", cache=0) for m in methods)
    return {"cache": 0} if cold else {}


def kernel_boundary_vs_grid_sync(s: Scope) -> Outcome:
    cache = _cold(s, "reduction.single.two-kernel", "reduction.single.grid-sync")
    two = ("reduction.single.two-kernel", cache)
    grid = ("reduction.single.grid-sync", dict(cache, grid=1))
    sizes = reduction_sizes(s, two, grid)
    if not sizes:
        raise Missing("reduction.single.two-kernel and grid-sync grid=1 at >= 1 MiB")
    checks, figs = [], []
    for b in sizes:
        a, g = (
            s.fig(two[0], "latency", bytes=b, **two[1]),
            s.fig(grid[0], "latency", bytes=b, **grid[1]),
        )
        checks.append(slightly_less(a, g, f"{b >> 20} MiB"))
        figs += [a, g]
    held = sum(1 for ok, _ in checks if ok)
    warm = "" if two[1] else " (warm: L2 not evicted)"
    return Outcome(
        f"kernel boundary faster at {held} of {len(sizes)} sizes, "
        f"{sizes[0] >> 20} MiB-{sizes[-1] >> 20} MiB{warm}",
        checks,
        figs,
        words=[SLIGHTLY_WORD],
        left_out=out_of_bounds(s, two[0], grid[0]),
    )


def cub_comparable(s: Scope) -> Outcome:
    cache = _cold(s, "reduction.single.two-kernel", "reduction.single.cub")
    two = ("reduction.single.two-kernel", cache)
    cub = ("reduction.single.cub", cache)
    sizes = reduction_sizes(s, two, cub)
    if not sizes:
        raise Missing("reduction.single.cub and two-kernel at >= 1 MiB")
    b = sizes[-1]
    a = s.fig(two[0], "bandwidth", bytes=b, **two[1])
    c = s.fig(cub[0], "bandwidth", bytes=b, **cub[1])
    return Outcome(
        f"at {b >> 20} MiB: CUB {gbs(c)}, kernel boundary {gbs(a)}",
        [about(c, a, 0.10, "CUB within 10% of the kernel boundary")],
        [a, c],
        left_out=out_of_bounds(s, two[0], cub[0]),
    )


def multi_reduction_vs_multi_grid(s: Scope) -> Outcome:
    counts = [
        n
        for n in gpu_counts(s, "reduction.multi.multi-grid", "latency")
        if n > 1 and n in gpu_counts(s, "reduction.multi.omp", "latency")
    ]
    if not counts:
        raise Missing("reduction.multi.multi-grid and reduction.multi.omp at one GPU count")
    checks, figs, text = [], [], []
    for n in counts:
        sizes = sorted(
            set(int(k) for k in s.values("reduction.multi.omp", "latency", "bytes", gpu_count=n))
            & set(
                int(k)
                for k in s.values("reduction.multi.multi-grid", "latency", "bytes", gpu_count=n)
            )
        )
        if not sizes:
            continue
        b = sizes[-1]
        cache = _shared_cache(
            s, ("reduction.multi.omp", "reduction.multi.multi-grid"), gpu_count=n, bytes=b
        )
        if cache is None:
            continue
        omp = s.fig("reduction.multi.omp", "latency", gpu_count=n, bytes=b, cache=cache)
        mg = s.fig("reduction.multi.multi-grid", "latency", gpu_count=n, bytes=b, cache=cache)
        checks.append(slightly_less(omp, mg, f"{n} GPUs at {b >> 20} MiB"))
        figs += [omp, mg]
        text.append(
            f"{n} GPUs, {b >> 20} MiB, {'cold' if cache == 0 else 'warm'} L2: kernel "
            f"boundary + OpenMP {us(omp)}, multi-grid {us(mg)}"
        )
    if not checks:
        raise Missing("a size both reductions measured with one cache state (cold or warm L2)")
    return Outcome(
        "; ".join(text),
        checks,
        figs,
        words=[SLIGHTLY_WORD],
        left_out=out_of_bounds(s, "reduction.multi.omp", "reduction.multi.multi-grid"),
    )


def _shared_cache(s: Scope, methods: Iterable[str], **axes: Any) -> int | None:
    """The cache state (0 cold, 1 warm) every method measured at `axes`, cold first; None."""
    for cache in (0, 1):
        try:
            for m in methods:
                s.fig(m, "latency", cache=cache, **axes)
        except Missing:
            continue
        return cache
    return None


WAIT_CHECK = "pitfall.warp.wait-check"
PARTIAL = "pitfall.grid.partial-sync"


def _pitfall_rows(s: Scope, method: str) -> list:
    rows = [
        r
        for r in s.all_rows
        if r["method"] == method and r["status"] in ("ok", "unverified", "timeout")
    ]
    if not rows:
        raise Missing(method)
    s.found += 1
    return rows


def warp_sync_waits(s: Scope) -> Outcome:
    rows = _pitfall_rows(s, WAIT_CHECK)
    control = [r for r in rows if gbcsv.config_axes(r).get("variant") == "0"]
    real = [r for r in rows if gbcsv.config_axes(r).get("variant") != "0"]
    if not control or not real:
        raise Missing(f"{WAIT_CHECK}: the syncs and the control (variant 0)")
    early = [r for r in real if r["status"] != "ok" or float(r["value"] or 0) > 0]
    caught = [r for r in control if r["status"] == "unverified" and float(r["value"] or 0) > 0]
    variants: list[str] = sorted({gbcsv.config_axes(r).get("variant") for r in real}, key=int)  # type: ignore[misc]
    text = (
        f"{len(real)} sync points (variants {', '.join(variants)}): "
        f"{len(real) - len(early)} with no thread leaving early; the control without a sync: "
        f"{len(caught)} of {len(control)} caught"
    )
    checks = [
        (not early, "every sync waits"),
        (True if caught else None, "the control shows the check can catch"),
    ]
    return Outcome(text, checks, [], rows)


REAL_GRID_SYNC = "grid-sync"  # pitfall.grid.partial-sync's barrier=: cg::this_grid().sync()


def _partial(rows: list) -> tuple:
    """(rows with part of the grid missing, rows of the whole grid)."""
    part = [r for r in rows if gbcsv.config_axes(r).get("missing", "0") != "0"]
    return part, [r for r in rows if r not in part]


def partial_grid_timeout(s: Scope) -> Outcome:
    """The study's section 8.2 with CUDA's own grid sync: cg::this_grid().sync() with a block
    that never reaches it, run in an isolated child process with a deadline (killed: `timeout`),
    beside the project's software barriers (their watchdog ends the wait: `timeout`). Without
    the real grid sync's rows the software barriers alone are no answer: not measured."""
    rows = _pitfall_rows(s, PARTIAL)
    real = [r for r in rows if gbcsv.config_names(r).get("barrier") == REAL_GRID_SYNC]
    soft = [r for r in rows if r not in real]
    soft_part, _ = _partial(soft)
    stuck_soft = sum(r["status"] == "timeout" for r in soft_part)
    soft_text = (
        f"the software barriers beside it: {stuck_soft}"
        f" of {len(soft_part)} points with part of the grid missing end as `timeout` "
        f"(the watchdog)"
    )
    part, whole = _partial(real)
    if not part:
        raise NotMeasured(
            f"cg::this_grid().sync() with part of the grid missing ({PARTIAL} "
            f"barrier={REAL_GRID_SYNC}, run in an isolated child process with a "
            f"deadline) was not run; {soft_text}"
        )
    stuck = [r for r in part if r["status"] == "timeout"]
    done = [r for r in whole if r["status"] == "ok"]
    text = (
        f"cg::this_grid().sync(), part of the grid missing: {len(stuck)} of {len(part)} "
        f"points end as `timeout` (the child killed at its deadline); whole grid: "
        f"{len(done)} of {len(whole)} ok; {soft_text}"
    )
    checks = [
        (len(stuck) == len(part), "a partial grid sync never completes"),
        (True if whole and len(done) == len(whole) else None, "the whole grid completes"),
    ]
    return Outcome(text, checks, [], real)


def null_kernel_order(s: Scope) -> Outcome:
    """Table 1's null kernels: <<<>>> < cooperative < cooperative multi-device (one GPU)."""
    shape = {"blocks_per_sm": 1, "threads_per_block": 128}
    trad = s.fig("kernel.launch.triple-chevron", "latency", **shape)
    coop = s.fig("kernel.launch.cooperative", "latency", **shape)
    mdl = s.fig("kernel.multi-device-launch", "latency", gpu_count=1, host_wait=0, impl=1)
    return Outcome(
        f"<<<>>> {us(trad)}, cooperative {us(coop)}, multi-device {us(mdl)} (launch + sync, 1 GPU)",
        [
            less(trad, coop, "<<<>>> below cooperative"),
            less(coop, mdl, "cooperative below multi-device"),
        ],
        [trad, coop, mdl],
    )


def warp_throughput_group(s: Scope) -> Outcome:
    tile, tname, tleft = timed_values(s, "gpu.warp.tile-sync", "throughput")
    coal, cname, cleft = timed_values(s, "gpu.warp.coalesced-sync", "throughput")
    if len(tile) < 2 or "32" not in coal or len(coal) < 2:
        raise Missing("gpu.warp.tile-sync and coalesced-sync throughput over group_size")
    tfigs = [tile[k] for k in sorted(tile, key=int)]
    part = max((f for k, f in coal.items() if k != "32"), key=lambda f: f.value)
    lo, hi = min(f.value for f in tfigs), max(f.value for f in tfigs)
    return Outcome(
        f"{tname} {lo:.3g}-{hi:.3g} over group sizes "
        f"{', '.join(sorted(tile, key=int))}; {cname} 32: {coal['32'].value:.3g}, "
        f"best partial group {part.value:.3g} ({tfigs[0].row['unit']})",
        [
            flat(tfigs, 0.10, "tile flat within 10%"),
            less(part, coal["32"], "coalesced highest at the whole warp"),
        ],
        tfigs + [part, coal["32"]],
        left_out=tleft + cleft,
    )


THREADS_PER_WARP = 32


def _scaled(f: Fig, factor: float) -> Fig:
    """The figure `f` times `factor` (its spread too), on the same row."""
    g = Fig(f.row)
    g.value, g.spread = f.value * factor, f.spread * factor
    return g


def guide_shuffle(s: Scope) -> Outcome:
    """The best tile-shuffle throughput (warp shuffles per cycle per SM, over group sizes and
    shapes) in results per clock (x 32) against the guide's 32 for compute capability 9.0."""
    by = s.values("gpu.warp.tile-shuffle", "throughput_cycles", "group_size")
    if not by:
        raise Missing("gpu.warp.tile-shuffle throughput_cycles")
    best = max(by.values(), key=lambda f: f.value)
    got = _scaled(best, THREADS_PER_WARP)
    guide = _scaled(best, 0)
    guide.value = study_reference.GUIDE_SHUFFLE_PER_CLOCK["9.0"]
    return Outcome(
        f"tile shuffle up to {best.value:.3g} warp shuffles a cycle per SM = "
        f"{got.value:.3g} results a clock; {study_reference.GUIDE_SHUFFLE_SOURCE}: "
        f"{guide.value:g} for compute capability 9.0",
        [about(got, guide, 0.10, "within 10% of the guide's figure")],
        [best],
    )


def guide_syncthreads(s: Scope) -> None:
    figures = "; ".join(
        f"{cc}: {n}" for cc, n in study_reference.GUIDE_SYNCTHREADS_PER_CLOCK.items()
    )
    measured = ""
    got = s.values("gpu.block.syncthreads", "throughput_cycles", "threads_per_block")
    if got:
        best = max(
            (
                Fig(r)
                for r in s.rows
                if r["method"] == "gpu.block.syncthreads" and r["metric"] == "throughput_cycles"
            ),
            key=lambda f: f.value,
        )
        measured = (
            f"; measured here: up to {best.value * THREADS_PER_WARP:.3g} thread syncs a "
            f"clock per SM ({best.value:.3g} warp syncs a cycle, "
            f"{gbcsv.config_axes(best.row).get('threads_per_block')} threads x "
            f"{gbcsv.config_axes(best.row).get('blocks_per_sm')} blocks per SM)"
        )
    raise NoReference(
        f"{study_reference.GUIDE_SYNCTHREADS_SOURCE} gives no __syncthreads "
        f"throughput for compute capability 9.0 (operations a clock per SM: {figures})" + measured
    )


MAX_WARPS_PER_SM = 64  # resident warps per SM of compute capability 9.0 (the programming guide)


def block_throughput_saturates(s: Scope) -> Outcome:
    pts = []
    for r in s.rows:
        if r["method"] == "gpu.block.syncthreads" and r["metric"] == "throughput":
            c = gbcsv.config_axes(r)
            if "blocks_per_sm" in c and "threads_per_block" in c:
                warps = int(c["blocks_per_sm"]) * int(c["threads_per_block"]) // 32
                pts.append((warps, Fig(r)))
    sat = [p for p in pts if p[0] >= MAX_WARPS_PER_SM]
    below = [p for p in pts if p[0] < MAX_WARPS_PER_SM]
    if not sat or not below:
        raise Missing(f"gpu.block.syncthreads throughput below and at {MAX_WARPS_PER_SM} warps/SM")
    # The rows count warp syncs already (a block sync of w warps is w of them): the study's
    # Fig. 6 axis as it is.
    best_sat = max(sat, key=lambda p: p[1].value)
    best_below = max(below, key=lambda p: p[1].value)
    return Outcome(
        f"warp syncs: best below {MAX_WARPS_PER_SM} warps/SM {best_below[1].value:.3g} "
        f"(at {best_below[0]} warps/SM), at or above {best_sat[1].value:.3g} "
        f"({best_sat[1].row['unit']})",
        [less(best_below[1], best_sat[1], "highest once the SM holds its maximum warps")],
        [best_below[1], best_sat[1]],
    )


GRID_ACCEPTABLE_NS = 2500  # the study's section 5.3: "at most 2.5 us with two blocks/SM"


def grid_two_blocks(s: Scope) -> Outcome:
    launch = eq6.boundary(s)
    two = s.values("gpu.grid.cg", "latency", "threads_per_block", blocks_per_sm=2)
    if not two:
        raise Missing("gpu.grid.cg latency at blocks_per_sm=2")
    worst = max(two.values(), key=lambda f: f.value)
    d, m = worst.value - launch.value, margin(worst, launch)
    ok = True if d < GRID_ACCEPTABLE_NS - m else False if d > GRID_ACCEPTABLE_NS + m else None
    return Outcome(
        f"grid.sync at 2 blocks/SM up to {us(worst)} "
        f"(threads/block {', '.join(sorted(two, key=int))}), launch overhead "
        f"(Eq. 6, {eq6.kernels(launch)}) {eq6.show(launch)}: {d / 1000:.3g} µs more"
        f"{eq6.hidden_note(s)}",
        [(ok, "at most 2.5 µs above the launch overhead")],
        [worst, launch],
    )


def multi_grid_heat_map(s: Scope) -> Outcome:
    pts = {}
    for r in s.rows:
        if (
            r["method"] == "multigpu.cg.multi-grid"
            and r["metric"] == "latency"
            and r["gpu_count"] == "2"
        ):
            c = gbcsv.config_axes(r)
            key = (int(c["blocks_per_sm"]), int(c["threads_per_block"]))
            if key not in pts or (r["timestamp"], r["_line"]) > (
                pts[key].row["timestamp"],
                pts[key].row["_line"],
            ):
                pts[key] = Fig(r)
    if (1, 32) not in pts or len(pts) < 3:
        raise Missing(
            "multigpu.cg.multi-grid latency on 2 GPUs over blocks/SM x threads/block, "
            "1 x 32 among them"
        )
    fast = pts[(1, 32)]
    inside = {k: f for k, f in pts.items() if k[0] <= 8 and k[0] * k[1] // 32 <= 32}
    outside = {k: f for k, f in pts.items() if k not in inside}
    worst_in = max(inside.values(), key=lambda f: f.value)
    d = worst_in.value - 2 * fast.value
    m = margin(worst_in, fast)
    checks = [
        (
            True if d < -m else False if d > m else None,
            "within 2x of 1 x 32 at <= 8 blocks and <= 32 warps per SM",
        )
    ]
    text = f"{len(pts)} shapes on 2 GPUs; 1 x 32 {us(fast)}; inside the region up to {us(worst_in)}"
    figs = [fast, worst_in]
    if outside:
        worst_out = max(outside.values(), key=lambda f: f.value)
        d = worst_out.value - 2 * fast.value
        checks.append(
            (
                True if d > margin(worst_out, fast) else None,
                "more than 2x outside the region (the cost depends on the shape)",
            )
        )
        text += f", outside up to {us(worst_out)}"
        figs.append(worst_out)
    else:
        checks.append((None, "no shape outside the region measured"))
    return Outcome(text, checks, figs)


def multi_grid_vs_multi_device(s: Scope) -> Outcome:
    shape = _mg_shape(s, at_least=1)
    counts = [
        n
        for n in gpu_counts(s, "multigpu.cg.multi-grid", "latency", **shape)
        if n > 1
        and n in gpu_counts(s, "kernel.multi-device-launch", "latency", host_wait=0, impl=1)
    ]
    if not counts:
        raise Missing(
            "multigpu.cg.multi-grid and kernel.multi-device-launch impl=1 at one GPU count > 1"
        )
    checks, figs, text = [], [], []
    for n in counts:
        mg = s.fig("multigpu.cg.multi-grid", "latency", gpu_count=n, **shape)
        mdl = s.fig("kernel.multi-device-launch", "latency", host_wait=0, impl=1, gpu_count=n)
        checks.append(less(mg, mdl, f"{n} GPUs"))
        figs += [mg, mdl]
        text.append(
            f"{n} GPUs: multi-grid {_shape_text(shape)} {us(mg)}, multi-device launch {us(mdl)}"
        )
    return Outcome("; ".join(text), checks, figs)


def switch_point_larger(s: Scope) -> Outcome:
    preds = _predictions(s, True)
    checks = [
        (
            p["measured"] > p["n"],
            f"{p['prediction']}: measured {p['measured']:.3g} B above predicted {p['n']:.3g} B",
        )
        for p in preds
    ]
    text = "; ".join(
        f"{p['prediction']}: measured / predicted {p['measured'] / p['n']:.2f}" for p in preds
    )
    sources = [r for r in s.rows if r["method"].startswith(("model.", "reduction.block"))]
    return Outcome(text, checks, [], sources[:1] or None)


def reduce_without_barrier(s: Scope) -> Outcome:
    rows = [
        r
        for r in s.all_rows
        if r["method"] == "gpu.warp.reduce"
        and gbcsv.config_axes(r).get("variant") == "1"
        and r["metric"] == "latency_cycles"
    ]
    if not rows:
        raise Missing("gpu.warp.reduce variant=1 (no sync)")
    wrong = [r for r in rows if r["status"] == "unverified"]
    return Outcome(
        f"no-sync variant: {len(wrong)} of {len(rows)} rows with a wrong sum (`unverified`)",
        [(len(wrong) == len(rows), "the sum is wrong")],
        [],
        rows,
    )


def eq7_against_clock(s: Scope) -> Outcome:
    rows = [
        r
        for r in s.rows
        if r["method"] == "selfcheck.fadd.loop" and r["metric"] == "cycles_per_add"
    ]
    pairs = {}
    for r in rows:
        pairs.setdefault(r["config"], {})[r["technique"]] = r
    pairs = {k: v for k, v in pairs.items() if "clock" in v and "differential" in v}
    if not pairs:
        raise Missing(
            "selfcheck.fadd.loop cycles_per_add by both techniques (a committed "
            "`gpubarrier selfcheck --out` CSV)"
        )
    checks, figs = [], []
    for cfg, t in sorted(pairs.items()):
        said = re.search(r"agreement (\S+)", t["differential"]["note"])
        agree = said.group(1) != "none" if said else None
        checks.append((agree, f"{cfg}: differential against clock"))
        figs += [Fig(t["clock"]), Fig(t["differential"])]
    devs = [figs[i + 1].value / figs[i].value - 1 for i in range(0, len(figs), 2)]
    return Outcome(
        f"{len(pairs)} repeat differences, differential / clock - 1 from "
        f"{100 * min(devs):+.1f}% to {100 * max(devs):+.1f}%",
        checks,
        figs,
    )


REPEAT_BASE = 512  # the study's basic repeat count (the workshop version, its section 5)
REPEAT_NAMES = {
    "1": "__syncwarp",
    "2": "tile sync",
    "3": "coalesced sync",
    "4": "tile shuffle",
    "5": "coalesced shuffle",
}


UNROLLED = "gpu.warp.repeat-count-unrolled"  # the chain fully unrolled: the code grows with it
# a variant's name to its code; looked up with a row's variant, None where it has none
REPEAT_CODES: dict[str | None, str] = {
    "syncwarp": "1",
    "syncwarp-mask": "1",
    "tile-sync": "2",
    "coalesced-sync": "3",
    "tile-shuffle": "4",
    "coalesced-shuffle": "5",
}


def _repeat_curves(s: Scope, method: str, base: int) -> dict[str, tuple[list[Fig], list[int]]]:
    """{variant code: ([Fig by repeats], [repeats])} of `method`'s latency_cycles at group size
    32 over chains of `base` operations or more, for variants measured at two or more."""
    by = collections.defaultdict(dict)
    for r in s.rows:
        if r["method"] != method or r["metric"] != "latency_cycles":
            continue
        c = gbcsv.config_axes(r)
        v = REPEAT_CODES.get(c.get("variant"), c.get("variant"))
        if (
            c.get("group_size", "32") != "32"
            or not str(c.get("repeats", "")).isdigit()
            or int(c["repeats"]) < base
            or v not in REPEAT_NAMES
        ):
            continue
        n = int(c["repeats"])
        if n not in by[v] or (r["timestamp"], r["_line"]) > (
            by[v][n].row["timestamp"],
            by[v][n].row["_line"],
        ):
            by[v][n] = Fig(r)
    s.found += bool(by)
    return {
        v: ([got[n] for n in sorted(got)], sorted(got)) for v, got in by.items() if len(got) >= 2
    }


def _loop_text(s: Scope) -> str:
    """The loop-of-32 chain's figures, for the row that cannot use them."""
    by = _repeat_curves(s, "gpu.warp.repeat-count", REPEAT_BASE)
    if not by:
        return ""
    return (
        "; the loop of 32 unrolled measured "
        + ", ".join(
            f"{REPEAT_NAMES[v]} {min(f.value for f in fs):.3g}-{max(f.value for f in fs):.3g}"
            for v, (fs, _) in sorted(by.items())
        )
        + " cycles"
    )


def warp_repeat_count(s: Scope) -> Outcome:
    """The study's section 9.4 blames an instruction-cache overflow, so the chain must grow with
    the repeat count: per variant of gpu.warp.repeat-count-unrolled (fully unrolled), a sync
    "jumps" when its figure rises above the one at the shortest chain by more than 10% and the
    margin; the tile shuffle stays flat. The loop of 32 unrolled (gpu.warp.repeat-count) keeps
    the code size fixed and answers nothing here."""
    by = _repeat_curves(s, UNROLLED, 1)
    syncs = [v for v in by if v in ("1", "2", "3")]
    if "4" not in by or not syncs:
        raise NotMeasured(
            f"a fully unrolled chain ({UNROLLED}: the tile shuffle and a sync at "
            f"two or more repeat counts) was not run; the loop of 32 unrolled keeps "
            f"the code size fixed, which removes the instruction-cache overflow "
            f"the study blames" + _loop_text(s)
        )
    checks, figs, text = [], [], []
    jumped, steady = [], []
    for v, (fs, reps) in sorted(by.items()):
        first, top = fs[0], max(fs, key=lambda f: f.value)
        rise = top.value - first.value
        if v in syncs:
            if rise > 0.10 * first.value and rise > margin(first, top):
                at = reps[
                    next(i for i, f in enumerate(fs) if f.value - first.value > 0.10 * first.value)
                ]
                jumped.append(f"{REPEAT_NAMES[v]} from {at} operations")
            elif rise <= 0.10 * first.value:
                steady.append(REPEAT_NAMES[v])
        figs += fs
        text.append(
            f"{REPEAT_NAMES[v]} {reps[0]}-{reps[-1]} operations: "
            f"{fs[0].value:.3g} -> {fs[-1].value:.3g}"
        )
    checks.append(
        (
            True if jumped else False if len(steady) == len(syncs) else None,
            "a warp sync's latency rises with the repeat count"
            + (
                f" ({', '.join(jumped)})"
                if jumped
                else f": none of {', '.join(steady)} rises by 10%"
            ),
        )
    )
    checks.append(flat(by["4"][0], 0.10, "the tile shuffle flat within 10%"))
    return Outcome(
        ", ".join(text) + " cycles (fully unrolled: the code grows with the chain)", checks, figs
    )


ABSENT = "2"  # the device barriers' fault=absent: the last GPU never arrives (core/faults.hpp)


def partial_multi_grid(s: Scope) -> Outcome:
    """The project's barrier across GPUs with its last GPU absent (pitfalls-multi-gpu.yaml): the
    others end on the watchdog (`timeout`), the deadlock of a partial multi-grid group without a
    hang; fault=none at the same GPU count is the control. CUDA's own multi-grid sync waits where
    no watchdog reaches (as the grid row's software barrier stands in for grid.sync)."""
    rows = [
        r
        for r in s.all_rows
        if r["method"].startswith("multigpu.device.")
        and r["status"] in ("ok", "unverified", "timeout")
        and r["gpu_count"].isdigit()
        and int(r["gpu_count"]) > 1
    ]
    part = [r for r in rows if gbcsv.config_axes(r).get("fault") == ABSENT]
    if not part:
        raise Missing(
            "multigpu.device.* with fault=absent (the last GPU never arrives) at 2 or "
            "more GPUs (configs/sweeps/pitfalls-multi-gpu.yaml); a multi-grid group of "
            "one GPU has no GPU to leave out"
        )
    counts = {r["gpu_count"] for r in part}
    whole = [
        r
        for r in rows
        if gbcsv.config_axes(r).get("fault", "0") == "0"
        and r["gpu_count"] in counts
        and r["method"] in {p["method"] for p in part}
    ]
    stuck = [r for r in part if r["status"] == "timeout"]
    done = [r for r in whole if r["status"] == "ok"]
    methods = ", ".join(sorted({r["method"] for r in part}))
    text = (
        f"{methods}, the last GPU absent: {len(stuck)} of {len(part)} points end as "
        f"`timeout` (the watchdog, no hang) at {', '.join(sorted(counts, key=int))} GPUs; "
        f"every GPU arriving: {len(done)} of {len(whole)} ok"
    )
    checks = [
        (len(stuck) == len(part), "a barrier that part of the GPUs never reach never completes"),
        (True if whole and len(done) == len(whole) else None, "the whole group completes"),
    ]
    return Outcome(text, checks, [], part + whole)


# The study's figures, written from study_reference's copies of its tables.
_L = {name: (overhead, null) for name, overhead, null in study_reference.STUDY_LAUNCH_TYPES}
_RED = study_reference.STUDY_REDUCTION
_WR = study_reference.STUDY_WARP_REDUCE
_SW = study_reference.STUDY_SWITCH_POINTS

# What answers each of the study's conclusions (data/study_conclusions.json states them), by its
# key: a function of a Scope returning its Outcome or raising Missing / NotMeasured with the reason.
ANSWERS = {
    "launch": eq6.launch_overhead,
    "null-kernel": null_kernel_order,
    "multi-device-overhead": eq6.multi_device_overhead,
    "fusion-length": eq6.settles,
    "fusion-over-length": eq6.over_length,
    "omp-vs-launch": omp_vs_multi_device,
    "cpu-flat": cpu_overhead_flat,
    "tile-sync": tile_sync_flat,
    "warp-throughput": warp_throughput_group,
    "coalesced-sync": coalesced_whole_warp,
    "guide-shuffle": guide_shuffle,
    "guide-syncthreads": guide_syncthreads,
    "block-warps": block_sync_warps,
    "block-saturation": block_throughput_saturates,
    "grid-blocks": grid_blocks_over_threads,
    "grid-vs-kernel": grid_vs_kernel_boundary,
    "grid-acceptable": grid_two_blocks,
    "multi-grid-count": multi_grid_counts,
    "multi-grid-shape": multi_grid_heat_map,
    "multi-grid-vs-launch": multi_grid_vs_multi_device,
    "cpu-vs-multi-grid": cpu_vs_multi_grid,
    "model-table4": lambda s: model_predictions(s, True),
    "switch-larger": switch_point_larger,
    "model-gpus": lambda s: model_predictions(s, False),
    "warp-reduce": warp_reduce_tile_shuffle,
    "no-sync-reduce": reduce_without_barrier,
    "reduction-boundary": kernel_boundary_vs_grid_sync,
    "cub": cub_comparable,
    "multi-reduction": multi_reduction_vs_multi_grid,
    "warp-waits": warp_sync_waits,
    "partial-grid": partial_grid_timeout,
    "partial-multi-grid": partial_multi_grid,
    "eq7": eq7_against_clock,
    "warp-repeats": warp_repeat_count,
}

# The study's figure of the conclusions whose figure is written from study_reference's copies of
# its tables (the file states the others' figures as text).
FIGURES = {
    "launch": (
        f"V100: {_L['traditional'][0]} / {_L['cooperative'][0]} ns (<<<>>> / cooperative; section "
        f"9.2: V100 only)"
    ),
    "null-kernel": (
        f"V100: {_L['traditional'][1]} / {_L['cooperative'][1]} / "
        f"{_L['cooperative multi-device'][1]} ns"
    ),
    "multi-device-overhead": (
        f"(Table 1) V100: {_L['cooperative multi-device'][0]} against {_L['traditional'][0]} ns"
    ),
    "grid-vs-kernel": (
        f"V100: grid.sync from 1.435 µs (the workshop version's Table 8) against "
        f"{_L['traditional'][0]} ns (Table 1)"
    ),
    "multi-grid-shape": (
        "V100, 2 GPUs (the workshop version's Table 9): "
        + "; ".join(
            f"{lo}-{hi} µs at {case}"
            for case, _, lo, hi in study_reference.STUDY_MULTI_GRID_2GPU["V100"]
        )
    ),
    "model-table4": (
        f"V100: {_SW[0][2]['V100'][1]:g} B (1 thread vs 1 warp), {_SW[1][2]['V100'][1]:g} B "
        f"(32 vs 1024 threads)"
    ),
    "warp-reduce": (
        f"V100 {_WR['V100'][4]} cycles (others {min(_WR['V100'][i] for i in (0, 2, 3, 5))}-"
        f"{max(_WR['V100'])}); P100 {_WR['P100'][4]}"
    ),
    "no-sync-reduce": (f"V100 {_WR['V100'][1]}, P100 {_WR['P100'][1]} cycles, wrong"),
    "reduction-boundary": (
        f"V100 {_RED['V100'][0]} vs {_RED['V100'][1]} GB/s; P100 {_RED['P100'][0]} vs "
        f"{_RED['P100'][1]} GB/s"
    ),
    "cub": (
        f"V100 {_RED['V100'][2]} vs {_RED['V100'][0]} GB/s; P100 "
        f"{_RED['P100'][2]} vs {_RED['P100'][0]} GB/s"
    ),
}


def _findings() -> list[tuple]:
    """Every conclusion of data/study_conclusions.json, in its order, as (key, section, claim,
    quote, the study's figure, answer), answered here or in findings_more: a conclusion answered
    by neither module, or by both, is a fault of the package (ValueError)."""
    conclusions = study_reference.study_conclusions()
    rows = study_reference.conclusion_rows(
        {**ANSWERS, **findings_more.ANSWERS}, {**FIGURES, **findings_more.FIGURES}, conclusions
    )
    unanswered = [c["key"] for c in conclusions if c["key"] not in {r[0] for r in rows}]
    both = sorted(set(ANSWERS) & set(findings_more.ANSWERS))
    if unanswered or both:
        raise ValueError(
            f"conclusions answered by no module: {unanswered}; by findings and "
            f"findings_more both: {both}"
        )
    return rows


FINDINGS = _findings()


def uuid_set(r: MutableMapping[str, Any]) -> frozenset:
    return frozenset(machines_mod.uuids_of(r))


def mark_gpu_ranges(mrows: list) -> None:
    """Sets `_gpus_range` (lowest, highest, GPUs) on each ok row of one machine whose figure
    (method, metric, configuration, GPU count) other GPUs of the machine measured as well: the
    newest figure of each set of GPUs. findings_rules.margin adds the spread between them."""
    newest, members = collections.defaultdict(dict), collections.defaultdict(list)
    for r in mrows:
        key = (r["method"], r["metric"], r["config"], r["gpu_count"])
        members[key].append(r)
        if r["status"] != "ok":
            continue
        got = newest[key].get(uuid_set(r))
        if got is None or (r["timestamp"], r["_line"]) > (got["timestamp"], got["_line"]):
            newest[key][uuid_set(r)] = r
    for key, by_gpus in newest.items():
        if len(by_gpus) < 2:
            continue
        values = [float(r["value"]) for r in by_gpus.values()]
        for r in members[key]:
            r["_gpus_range"] = (min(values), max(values), len(values))


def scopes(rows: list, gpu: str) -> list:
    """[(kind, rows)]: the scopes to try for one GPU model, of its rows with GPU UUIDs only: per
    machine (newest first), the machine's runs ("run", newest first), each set of GPUs its rows
    used ("gpus": the rows within that set, newest first), then the whole machine ("machine")."""
    mine = [r for r in rows if gpu in r["gpu_model"] and machines_mod.uuids_of(r)]
    out = []
    for _, mrows in sorted(
        answers.machines(mine), key=lambda m: max(r["timestamp"] for r in m[1]), reverse=True
    ):
        mark_gpu_ranges(mrows)
        runs = collections.OrderedDict()
        sets = collections.OrderedDict()
        for r in sorted(mrows, key=lambda r: r["timestamp"], reverse=True):
            runs.setdefault((r["_file"], r["run_id"]), []).append(r)
            sets.setdefault(uuid_set(r), None)
        out += [("run", rs) for rs in runs.values()]
        out += [("gpus", [r for r in mrows if uuid_set(r) <= gpus]) for gpus in sets]
        out.append(("machine", mrows))
    return out


def split_reason(out: Outcome) -> str | None:
    """None when every figure of `out` comes from one set of GPUs (per GPU count one set, each
    within the largest), else why not."""
    rows = [f.row for f in out.figs] + list(out.sources)
    by_count = collections.defaultdict(set)
    for r in rows:
        by_count[r.get("gpu_count", "")].add(uuid_set(r))
    sets = [s for ss in by_count.values() for s in ss]
    if (
        sets
        and all(len(ss) == 1 for ss in by_count.values())
        and all(s <= max(sets, key=len) for s in sets)
    ):
        return None
    where = collections.defaultdict(set)
    for r in rows:
        where[",".join(short(u) for u in sorted(uuid_set(r)))].add(r["method"])
    multi = any(len(s) > 1 for s in sets)
    return (
        f"not measured on one {'machine' if multi else 'GPU'}: the figures come from "
        + "; ".join(f"{g}: {', '.join(sorted(m))}" for g, m in sorted(where.items()))
    )


def short(uuid: str) -> str:
    return uuid[:12]


class NoReferenceText(str):
    """The why of a claim whose reference figure does not exist: its verdict is "no reference"."""


def evaluate(
    rows: list, fn: Callable, gpu: str, unplaced: Sequence[MutableMapping[str, Any]] = ()
) -> str | NoReferenceText:
    """The claim's Outcome from the first scope whose figures all come from one set of GPUs, or
    the text saying why there is none (naming the CSVs where only `unplaced` rows, those without
    GPU UUIDs, hold the figures)."""
    missing, closest, split = "", -1, ""
    for kind, rs in scopes(rows, gpu):
        scope = Scope(rs)
        try:
            out = fn(scope)
        except Missing as e:  # what a machine as a whole lacks, said of the machine that found
            # the most of the claim's figures (the newest of those)
            if kind == "machine" and scope.found > closest:
                missing = (
                    NoReferenceText(e)
                    if isinstance(e, NoReference)
                    else str(e)
                    if isinstance(e, NotTimed)
                    else f"no rows: {e}"
                )
                closest = scope.found
            continue
        reason = split_reason(out)
        if reason:
            split = split or reason
            continue
        return out
    if split:
        return split
    mine = [r for r in unplaced if gpu in r["gpu_model"]]
    try:
        out = fn(Scope(mine)) if mine else None
    except Missing:
        out = None
    if out is not None:
        files = sorted(
            {
                os.path.basename(os.path.dirname(r["_file"])) + "/" + os.path.basename(r["_file"])
                for r in [f.row for f in out.figs] + list(out.sources)
            }
        )
        return (
            "not measured on one machine: only rows without GPU UUIDs hold these figures ("
            + ", ".join(f"`{f}`" for f in files[:3])
            + (", ..." if len(files) > 3 else "")
            + ")"
        )
    return missing or "no rows"


def gpus_of(out: Outcome) -> str:
    uuids = sorted(
        {u for r in [f.row for f in out.figs] + list(out.sources) for u in machines_mod.uuids_of(r)}
    )
    return ", ".join(f"`{short(u)}`" for u in uuids)


def files_of(out: Outcome, base: str) -> str:
    files = sorted({os.path.relpath(r["_file"], base) for r in out.sources})
    return ", ".join(f"`{f}`" for f in files)


def study_under_rule() -> str:
    """How the study's own Table 6 figures (implicit against grid sync, no spread given) fare
    under the comparison rule, at the run-to-run floor of the reduction rows' technique."""

    def fig(v: float) -> Fig:
        return Fig(
            {
                "value": str(v),
                "stddev": "",
                "cv": "",
                "note": "",
                "method": "",
                "technique": "event",
                "status": "ok",
            }
        )

    out = []
    for gpu, (implicit, grid_sync, *_) in _RED.items():
        ok, _ = less(fig(grid_sync), fig(implicit), "")
        word = {True: "confirmed", False: "refuted", None: "inconclusive"}[ok]
        out.append(
            f"{gpu} {implicit} against {grid_sync} GB/s "
            f"({100 * (implicit / grid_sync - 1):.1f}% apart, no spread given): {word}"
        )
    from . import comparison as compare

    which = (
        "its own floor"
        if "event" in compare.default_floors()
        else "the floor pooled over every technique, `event` having no repeats of its own"
    )
    return (
        "The study's own Table 6 figures under this rule (the reduction rows' technique, "
        f"`event`: {which}, {100 * floor_of(fig(1)):.1f}%): " + "; ".join(out) + "."
    )


# The claims that need 2 or more GPUs of one machine: where none of a GPU model's runs holds their
# figures, the row says "not measured on one machine".
MULTI_GPU = {
    "omp-vs-launch",
    "cpu-flat",
    "multi-grid-count",
    "multi-grid-shape",
    "multi-grid-vs-launch",
    "cpu-vs-multi-grid",
    "model-gpus",
    "multi-reduction",
    "partial-multi-grid",
} | findings_more.MULTI_GPU


def multi_gpu_reason(got: str, label: str) -> str:
    """A multi-GPU claim's "no rows: ..." said as what it is: no run of several GPUs holds it."""
    rest = got[len("no rows") :].lstrip(": ")
    return f"not measured on one machine: no run of 2 or more {label}s holds " + (
        rest or "its figures"
    )


def runs_read(loaded: list, base: str) -> str:
    """ "Runs read: `h200/2026-12-05`: H200 `GPU-d12b27ed`; ...": each folder of the CSVs read
    (relative to `base`) and the GPUs (model and UUID) of its rows."""
    folders = collections.OrderedDict()
    for r in sorted(loaded, key=lambda r: r["_file"]):
        folder = os.path.relpath(os.path.dirname(r["_file"]), base)
        gpus = folders.setdefault(folder, collections.OrderedDict())
        label = next((lb for g, lb in GPUS if g in r["gpu_model"]), r["gpu_model"] or "no GPU")
        uuids = gpus.setdefault(label, set())
        uuids.update(machines_mod.uuids_of(r) or ["no UUIDs"])

    def named(uuids: set) -> str:
        known = sorted(u for u in uuids if u != "no UUIDs")
        text = (
            ", ".join(f"`{short(u)}`" for u in known) if len(known) <= 4 else f"{len(known)} GPUs"
        )
        return ", ".join(t for t in (text, "no UUIDs" if "no UUIDs" in uuids else "") if t)

    parts = [
        f"`{folder}`: " + "; ".join(f"{label} {named(uuids)}" for label, uuids in gpus.items())
        for folder, gpus in folders.items()
    ]
    return "Runs read: " + " | ".join(parts) + "."


def page(paths: list[str], base: str) -> list:
    """The verdicts: a summary line, the runs read, and the table of every conclusion on every
    GPU (the items, data/tables.py)."""
    csvs, _ = gbcsv.expand(paths)
    read = gbcsv.load(csvs, statuses={"ok", "timeout", "unverified", "skipped"})
    loaded = [r for r in read if r["status"] != "skipped"]
    # skipped rows take part only as what they say (a refused launch): findings_rules.Scope
    rows = [r for r in read if machines_mod.uuids_of(r)]
    unplaced = [r for r in loaded if not machines_mod.uuids_of(r)]
    lines = []
    counts = collections.Counter()
    for key, section, claim, quote, study, fn in FINDINGS:
        for i, (gpu, label) in enumerate(GPUS):
            got = evaluate(rows, fn, gpu, unplaced)
            if isinstance(got, Outcome):
                v, why = verdict(got)
                cells = [
                    f"{label} ({gpus_of(got)})",
                    got.figures,
                    f"**{v}**",
                    why,
                    files_of(got, base),
                ]
            else:
                v = "no reference" if isinstance(got, NoReferenceText) else "not measured"
                if key in MULTI_GPU and got.startswith("no rows"):
                    got = multi_gpu_reason(got, label)
                cells = [label, "-", f"**{v}**", got, "-"]
            counts[v] += 1
            head = [f"{claim} ({section})", f"\"{quote}\" {study}"] if i == 0 else ["", ""]
            lines.append(head + cells)
    summary = ", ".join(
        f"{counts[k]} {k}"
        for k in ("confirmed", "refuted", "inconclusive", "not measured", "no reference")
        if counts[k]
    )
    # Rows of a machine without GPU (no model) are no GPU's figures: they are not counted.
    of_gpus = [r for r in loaded if r.get("gpu_model")]
    left = sum(1 for r in unplaced if r.get("gpu_model"))
    return [
        f"{len(FINDINGS)} conclusions x {len(GPUS)} GPUs: {summary}. "
        f"{left} of {len(of_gpus)} rows of GPU machines without GPU UUIDs take part in no "
        f"verdict. " + study_under_rule(),
        "",
        runs_read(loaded, base),
        "",
        Table(
            [
                "finding (the study's section)",
                "the study (V100 / P100)",
                "GPU",
                "Hopper",
                "verdict",
                "why",
                "CSV",
            ],
            lines,
        ),
    ]


DATED = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# A line of a run's machine.txt naming the earlier run (folder) of the same kind that it adds to:
# a run that measured only what the earlier one lacked, read together with it.
ADDS_TO = re.compile(r"^adds to: (\d{4}-\d{2}-\d{2})\s*$", re.M)


def added_runs(kind_dir: str, run: str, runs: list[str]) -> list:
    """`run` and the runs it adds to (its machine.txt's `adds to: DATE`, followed on), newest
    first; a name that is no run folder of the kind, or one seen already, ends the chain."""
    chain = [run]
    while True:
        with open(
            os.path.join(kind_dir, chain[-1], "machine.txt"), encoding="utf-8", errors="replace"
        ) as f:
            m = ADDS_TO.search(f.read())
        if not m or m.group(1) not in runs or m.group(1) in chain:
            return chain
        chain.append(m.group(1))


def newest_runs(results: str) -> list:
    """Per machine kind folder of `results` (h100, h100x2, h200, ...): its newest one-run folder
    (named by its date, holding machine.txt) with the runs it adds to, or the whole kind folder
    where it has none."""
    out = []
    for kind in sorted(os.listdir(results)):
        d = os.path.join(results, kind)
        if not os.path.isdir(d):
            continue
        runs = sorted(
            x
            for x in os.listdir(d)
            if DATED.match(x) and os.path.isfile(os.path.join(d, x, "machine.txt"))
        )
        out += [os.path.join(d, r) for r in added_runs(d, runs[-1], runs)] if runs else [d]
    return out


def main(argv: Sequence[str]) -> list:
    results = os.path.join(tool_main.ROOT, "results")
    argv = list(argv) or ["--newest", results]
    paths, base = [], None
    while argv:
        a = argv.pop(0)
        if a == "--newest":
            if not argv or not os.path.isdir(argv[0]):
                got = f"'{argv[0]}' is not a folder" if argv else "no folder after it"
                raise gbcsv.CsvError(
                    f"findings: --newest: {got}; expected a folder of machine "
                    f"kind folders (h100, h200x2, ...)"
                )
            top = argv.pop(0)
            base = base or top
            paths += newest_runs(top)
        else:
            paths.append(a)
    if not paths:
        raise gbcsv.CsvError(
            "findings: --newest found no machine kind folder; expected "
            "folders such as h100/ or h200x2/ inside it"
        )
    if base is None:
        base = paths[0] if len(paths) == 1 and os.path.isdir(paths[0]) else os.getcwd()
    return page(paths, base)

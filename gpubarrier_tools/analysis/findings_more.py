"""The study's further conclusions on the findings page: the predictions of its section 7.2,
Table 3's and Table 2's assumptions, Eq. 8, the repeat counts of section 9.4 and the workshop
version, the multi-grid step from 1 to 2 GPUs, Table 6's fraction of the theoretical bandwidth,
the trends of section 10, and the workshop version's summary findings. Each claim is a function
of a Scope (findings_rules) returning an Outcome or raising Missing / NotMeasured with the
reason; ANSWERS names it by the key of its conclusion in data/study_conclusions.json.
"""

from __future__ import annotations

import collections
from typing import Any

from ..data import bounds, gbcsv, study_reference
from .findings_rules import Fig, Missing, NotMeasured, Outcome, Scope, flat, less, margin

KIB = 1024


def _by(s: Scope, method: str, metric: str, axis: str, **axes: Any) -> dict:
    """{int(axis value): Fig} of the scope's clean figures (excluded ones left out)."""
    return {
        int(k): f
        for k, f in s.values(method, metric, axis, **axes).items()
        if str(k).isdigit() and not f.excluded
    }


def no_benefit_1024(s: Scope) -> Outcome:
    """Section 7.2: at 1024 doubles (8 KiB) in shared memory, 1024 threads bring no benefit over
    32 threads: 1024 threads not faster than 32 beyond the margin."""
    nbytes = 1024 * 8
    t32 = s.fig("reduction.block", "latency", threads_per_block=32, bytes=nbytes)
    t1024 = s.fig("reduction.block", "latency", threads_per_block=1024, bytes=nbytes)
    ok, what = less(t1024, t32, "1024 threads faster than 32")
    return Outcome(
        f"{nbytes // KIB} KiB: 32 threads {t32.value:.4g} ns, 1024 threads {t1024.value:.4g} ns",
        [
            (
                None if ok is None else not ok,
                "no benefit from 1024 threads over 32 (1024 not faster beyond the margin)",
            )
        ],
        [t32, t1024],
    )


def table3_latency(s: Scope) -> Outcome:
    """Table 3 takes one shared-memory latency for every configuration (13.0 cycles on V100,
    1 thread to 1024 threads): the measured latency flat within 10% over the block sizes."""
    by = _by(s, "model.smem.stream", "latency_cycles", "threads_per_block")
    if len(by) < 2:
        raise Missing("model.smem.stream latency_cycles at two or more threads_per_block")
    figs = [by[k] for k in sorted(by)]
    return Outcome(
        ", ".join(f"{k} threads {by[k].value:.3g}" for k in sorted(by)) + " cycles",
        [flat(figs, 0.10, "one latency for every block size (within 10%)")],
        figs,
    )


def shuffle_group(s: Scope) -> Outcome:
    """Table 2's tile shuffle: one latency for every group size ("(*)")."""
    by = _by(s, "gpu.warp.tile-shuffle", "latency_cycles", "group_size")
    if len(by) < 2:
        raise Missing("gpu.warp.tile-shuffle latency_cycles over group_size")
    figs = [by[k] for k in sorted(by)]
    return Outcome(
        ", ".join(f"{k}: {by[k].value:.3g}" for k in sorted(by)) + " cycles by group size",
        [flat(figs, 0.10, "flat within 10%")],
        figs,
    )


def _selfcheck(s: Scope, method: str, technique: str) -> dict:
    """{repeat difference: Fig} of a selfcheck chain by one technique."""
    out = {}
    for r in s.rows:
        if (
            r["method"] == method
            and r["metric"] == "cycles_per_add"
            and r["technique"] == technique
        ):
            c = gbcsv.config_axes(r)
            if str(c.get("repeat_difference", "")).isdigit():
                out[int(c["repeat_difference"])] = (c, Fig(r))
    s.found += bool(out)
    return out


def eq8_sigma(s: Scope) -> Outcome:
    """Eq. 8: sigma = sqrt(s1^2 + s2^2) / (r1 - r2) shrinks as the repeat difference grows: the
    differential figures' sigma at the largest difference below that at the smallest."""
    by = {
        d: f for d, (_, f) in _selfcheck(s, "selfcheck.fadd.loop", "differential").items() if d > 0
    }
    if len(by) < 2:
        raise Missing(
            "selfcheck.fadd.loop cycles_per_add by the differential technique at two "
            "or more repeat differences (a committed `gpubarrier selfcheck --out` CSV)"
        )
    lo, hi = by[min(by)], by[max(by)]
    return Outcome(
        "sigma "
        + ", ".join(f"{by[d].spread:.3g} at {d}" for d in sorted(by))
        + " (cycles, by repeat difference)",
        [(hi.spread < lo.spread, "sigma shrinks as the repeat difference grows")],
        [by[d] for d in sorted(by)],
    )


WORKSHOP_RISE_REPEATS = 8192  # the workshop version, section 3.3: "larger than 8192"


def unrolled_rise(s: Scope) -> Outcome:
    """The workshop version's section 3.3: past about 8192 repeats of an unrolled chain the
    latency per instruction rises (instruction cache). The clock figures of selfcheck.fadd.unrolled
    by chain length (base adds + repeat difference): flat within 10% up to 8192, above by 10% and
    the margin past it."""
    got = _selfcheck(s, "selfcheck.fadd.unrolled", "clock")
    chain = {int(c.get("base_adds", 0)) + d: f for d, (c, f) in got.items()}
    upto = [n for n in sorted(chain) if n <= WORKSHOP_RISE_REPEATS]
    past = [n for n in sorted(chain) if n > WORKSHOP_RISE_REPEATS]
    if not upto or not past:
        raise Missing(
            "selfcheck.fadd.unrolled cycles_per_add (clock) at chains up to and past 8192 adds"
        )
    base = chain[upto[0]]
    rose = [
        n
        for n in past
        if chain[n].value - base.value > 0.10 * base.value
        and chain[n].value - base.value > margin(chain[n], base)
    ]
    text = ", ".join(f"{n} adds {chain[n].value:.3g}" for n in sorted(chain)) + " cycles"
    return Outcome(
        text,
        [
            flat([chain[n] for n in upto], 0.10, "flat up to 8192"),
            (bool(rose), "rises past 8192" + (f" (from {rose[0]} adds)" if rose else "")),
        ],
        [chain[n] for n in sorted(chain)],
    )


def block_grid_repeats(s: Scope) -> Outcome:
    """Section 9.4: the repeat count does not change block and grid sync. Grid: gpu.grid.cg at
    1 x 128 by its repeat pair (reps_lo, reps_hi), flat within 10%. Block sync's clock chain has
    one length: not measured, and named."""
    pairs = {}
    for r in s.rows:
        if (
            r["method"] == "gpu.grid.cg"
            and r["metric"] == "latency"
            and gbcsv.config_axes(r).get("blocks_per_sm") == "1"
            and gbcsv.config_axes(r).get("threads_per_block") == "128"
            and r.get("reps_lo", "").isdigit()
            and r.get("reps_hi", "").isdigit()
        ):
            key = (int(r["reps_lo"]), int(r["reps_hi"]))
            if key not in pairs or (r["timestamp"], r["_line"]) > (
                pairs[key].row["timestamp"],
                pairs[key].row["_line"],
            ):
                pairs[key] = Fig(r)
    s.found += bool(pairs)
    if len(pairs) < 2:
        raise Missing(
            "gpu.grid.cg latency at 1 x 128 at two or more repeat pairs (reps_lo, reps_hi)"
        )
    figs = [pairs[k] for k in sorted(pairs)]
    return Outcome(
        "grid.sync 1 x 128: "
        + ", ".join(
            f"{lo}/{hi} repeats {pairs[(lo, hi)].value:.4g} ns" for lo, hi in sorted(pairs)
        ),
        [flat(figs, 0.10, "grid sync flat over the repeat count (10%)")],
        figs,
        left_out=["block sync: its clock chain has one length (not measured)"],
    )


def block_linear(s: Scope) -> Outcome:
    """The workshop version's Table 5 and Fig. 6: block sync latency grows by about the same
    cycles per warp: a least-squares line over the warps of one block fits every point within
    10%."""
    by = _by(s, "gpu.block.syncthreads", "latency_cycles", "threads_per_block", blocks_per_sm=1)
    pts = [(k // 32, by[k]) for k in sorted(by) if k % 32 == 0]
    if len(pts) < 3:
        raise Missing(
            "gpu.block.syncthreads latency_cycles at 1 block/SM over three or more "
            "whole-warp block sizes"
        )
    n = len(pts)
    mx = sum(w for w, _ in pts) / n
    my = sum(f.value for _, f in pts) / n
    slope = sum((w - mx) * (f.value - my) for w, f in pts) / sum((w - mx) ** 2 for w, _ in pts)
    icpt = my - slope * mx
    worst = max(abs(f.value - (icpt + slope * w)) / f.value for w, f in pts)
    return Outcome(
        f"{icpt:.3g} + {slope:.3g} cycles per warp over {pts[0][0]}-{pts[-1][0]} "
        f"warps; the worst point {100 * worst:.1f}% off the line",
        [(worst <= 0.10, "linear in the warps within 10%")],
        [f for _, f in pts],
    )


def multi_grid_step(s: Scope) -> Outcome:
    """The workshop version's Fig. 11: a step from 1 GPU to 2 GPUs (the first crossing of the
    network): multi-grid at 2 GPUs above 1 GPU beyond the margin, at 1 x 32."""
    one = s.fig(
        "multigpu.cg.multi-grid", "latency", gpu_count=1, blocks_per_sm=1, threads_per_block=32
    )
    two = s.fig(
        "multigpu.cg.multi-grid", "latency", gpu_count=2, blocks_per_sm=1, threads_per_block=32
    )
    return Outcome(
        f"1 x 32: 1 GPU {one.value / 1000:.3g} µs, 2 GPUs {two.value / 1000:.3g} µs",
        [less(one, two, "2 GPUs above 1 GPU")],
        [one, two],
    )


STUDY_FRACTION = min(v[0] / v[4] for v in study_reference.STUDY_REDUCTION.values())


def peak_fraction(s: Scope) -> Outcome:
    """Table 6: the hand-written reduction (kernel boundary) reaches a large fraction of the
    theoretical bandwidth (V100 96%, P100 81%): at the largest cold size, at least the study's
    lower fraction of the GPU's DRAM peak (data/bounds.py). The CUDA sample is not measured."""
    sizes = {
        int(k): f
        for k, f in s.values("reduction.single.two-kernel", "bandwidth", "bytes", cache=0).items()
        if not f.excluded
    }
    if not sizes:
        raise Missing("reduction.single.two-kernel bandwidth cache=0")
    b = max(sizes)
    f = sizes[b]
    peak = bounds.dram_peak(f.row["gpu_model"])
    if not peak:
        raise Missing(f"a DRAM peak for {f.row['gpu_model']}")
    frac = f.value / peak
    ok = (
        True
        if frac - STUDY_FRACTION > margin(f, f) / peak
        else False
        if STUDY_FRACTION - frac > margin(f, f) / peak
        else None
    )
    return Outcome(
        f"{b >> 20} MiB cold: {f.value:.0f} GB/s of {peak:.0f} GB/s ({100 * frac:.0f}%)",
        [(ok, f"at least {100 * STUDY_FRACTION:.0f}% of the theoretical bandwidth")],
        [f],
        left_out=["the CUDA sample's reduction (not a method here)"],
    )


def cpu_multi_grid_gap(s: Scope) -> Outcome:
    """Section 10: the gap between the CPU-side barrier and multi-grid sync shrinks as the
    program grows: in the multi-GPU reduction at one GPU count and cache state, the multi-grid
    / OpenMP ratio at the largest size below that at the smallest."""
    counts = collections.defaultdict(dict)
    for m in ("reduction.multi.omp", "reduction.multi.multi-grid"):
        for r in s.rows:
            if r["method"] == m and r["metric"] == "latency":
                c = gbcsv.config_axes(r)
                counts[(r["gpu_count"], c.get("cache", "1"))].setdefault(m, {})[
                    int(c.get("bytes", 0))
                ] = Fig(r)
    for (n, cache), got in sorted(counts.items(), reverse=True):
        if len(got) < 2:
            continue
        sizes = sorted(set(got["reduction.multi.omp"]) & set(got["reduction.multi.multi-grid"]))
        if len(sizes) < 2:
            continue
        s.found += 1
        lo, hi = sizes[0], sizes[-1]
        r_lo = got["reduction.multi.multi-grid"][lo].value / got["reduction.multi.omp"][lo].value
        r_hi = got["reduction.multi.multi-grid"][hi].value / got["reduction.multi.omp"][hi].value
        figs = [got[m][b] for m in got for b in (lo, hi)]
        return Outcome(
            f"{n} GPUs, {'cold' if cache == '0' else 'warm'} L2: multi-grid / "
            f"OpenMP {r_lo:.2f} at {_size(lo)}, {r_hi:.2f} at {_size(hi)}",
            [(r_hi < r_lo, "the gap shrinks as the size grows")],
            figs,
        )
    raise Missing(
        "reduction.multi.omp and reduction.multi.multi-grid at two or more common "
        "sizes of one GPU count"
    )


def _size(b: int) -> str:
    return f"{b >> 20} MiB" if b >= 1 << 20 else f"{b >> 10} KiB" if b >= 1024 else f"{b} B"


def launch_amortised(s: Scope) -> None:
    raise NotMeasured(
        "no method runs a multi-device launch whose kernel holds a varying number "
        "of multi-grid barriers (the launch over barriers per kernel)"
    )


def cooperative_rejects(s: Scope) -> Outcome:
    """The workshop version's section 4.3: a cooperative launch of more blocks than fit
    co-resident is refused: kernel.launch.cooperative rows skipped with the launch's refusal."""
    refused = [
        r
        for r in s.skipped
        if r["method"] == "kernel.launch.cooperative"
        and "refused" in r["note"]
        and "TooLarge" in r["note"]
    ]
    ok = [r for r in s.rows if r["method"] == "kernel.launch.cooperative"]
    if not refused:
        raise Missing(
            "kernel.launch.cooperative skipped with the launch's refusal "
            "(cudaErrorCooperativeLaunchTooLarge) at an over-large grid"
        )
    shapes = sorted({gbcsv.config_axes(r).get("blocks_per_sm", "?") for r in refused}, key=str)
    return Outcome(
        f"refused at {', '.join(shapes)} blocks/SM of 1024 threads "
        f"(cudaErrorCooperativeLaunchTooLarge); {len(ok)} rows of fitting grids ok",
        [(True, "an over-large grid is refused")],
        [],
        refused + ok[:1],
    )


def threads_1024_degrade(s: Scope) -> Outcome:
    """The workshop version's section 4.4: 1024 threads always mean a large degradation: block
    sync at 1024 threads at least LARGE x the one at 512 threads (the next block size)."""
    t512 = s.fig("gpu.block.syncthreads", "latency_cycles", threads_per_block=512, blocks_per_sm=1)
    t1024 = s.fig(
        "gpu.block.syncthreads", "latency_cycles", threads_per_block=1024, blocks_per_sm=1
    )
    d = t1024.value - LARGE * t512.value
    m = margin(t1024, t512)
    return Outcome(
        f"block sync 512 threads {t512.value:.3g}, 1024 threads {t1024.value:.3g} "
        f"cycles ({t1024.value / t512.value:.2f}x)",
        [
            (
                True if d > m else False if -d > m else None,
                f"1024 threads at least {LARGE:g}x 512 threads",
            )
        ],
        [t512, t1024],
        words=[f"large: at least {LARGE:g}x the next smaller block"],
    )


LARGE = 1.5


def block_faster_than_warp(s: Scope) -> Outcome:
    """The workshop version's section 4.4: block sync (1 warp) faster than warp sync: the block
    of 32 threads against the timed warp syncs (the diverged variants where the converged chain
    times nothing)."""
    block = s.fig("gpu.block.syncthreads", "latency_cycles", threads_per_block=32, blocks_per_sm=1)
    warps, left = [], []
    for m in ("gpu.warp.syncwarp", "gpu.warp.tile-sync", "gpu.warp.coalesced-sync"):
        for name in (m, m + "-diverged"):
            got = s.values(name, "latency_cycles", "group_size").get("32")
            if got is not None and not got.excluded:
                warps.append((name, got))
                break
            if got is not None:
                left.append(f"{name} ({got.excluded})")
    if not warps and left:
        raise NotMeasured(
            "no warp sync at group size 32 is timed: "
            + "; ".join(left)
            + ", and no diverged variant was measured"
        )
    if not warps:
        raise Missing(
            "a timed warp sync at group size 32 (the diverged variants where the "
            "converged chain times nothing)"
        )
    fastest = min(warps, key=lambda w: w[1].value)
    return Outcome(
        f"block sync (32 threads) {block.value:.3g}, the fastest timed warp sync "
        f"{fastest[0]} {fastest[1].value:.3g} cycles",
        [less(block, fastest[1], "block sync faster than warp sync")],
        [block, fastest[1]],
        left_out=left,
    )


def settle_8_gpus(s: Scope) -> None:
    raise NotMeasured(
        "needs 8 GPUs of one machine (Eq. 6 over the kernel length with a launch "
        "across 8 GPUs); the machines lent here hold 1, 2 or 4"
    )


_V = {gpu: v for gpu, v in study_reference.STUDY_REDUCTION.items()}

# What answers each of these conclusions (data/study_conclusions.json states them), by its key.
ANSWERS = {
    "no-benefit-1024": no_benefit_1024,
    "table3-latency": table3_latency,
    "shuffle-group": shuffle_group,
    "eq8": eq8_sigma,
    "unrolled-8192": unrolled_rise,
    "block-grid-repeats": block_grid_repeats,
    "block-linear": block_linear,
    "multi-grid-step": multi_grid_step,
    "table6-peak": peak_fraction,
    "cpu-multi-grid-gap": cpu_multi_grid_gap,
    "launch-amortised": launch_amortised,
    "cooperative-rejects": cooperative_rejects,
    "threads-1024": threads_1024_degrade,
    "block-vs-warp": block_faster_than_warp,
    "settle-8-gpus": settle_8_gpus,
}

# The study's figure of those whose figure is written from study_reference's copies of its tables.
FIGURES = {
    "table6-peak": (
        "; ".join(
            f"{g} {v[0]} of {v[4]} GB/s theory ({100 * v[0] / v[4]:.0f}%), CUDA sample {v[3]}"
            for g, v in _V.items()
        )
    )
}

# These conclusions as findings.FINDINGS lists them, in the file's order.
ROWS = study_reference.conclusion_rows(ANSWERS, FIGURES, study_reference.study_conclusions())

# Those needing 2 or more GPUs of one machine (findings.MULTI_GPU).
MULTI_GPU = {"multi-grid-step", "cpu-multi-grid-gap", "launch-amortised", "settle-8-gpus"}

"""The study's conclusions, one row each, beside what Hopper measured: the findings page.

    report.py findings [DIR_OR_CSV ...]     markdown: one row per conclusion of the study's
                                            sections 4-8 and 10 (default: the results folder)

Each row: the study's claim and its V100/P100 figure (typed from the paper: its figures, not
ours), the Hopper figures (H100, H200) computed here from the CSVs, the verdict per GPU and the
CSVs the figures came from. The rules (results/FINDINGS.md states them):

- Rows: every row that gbcsv reads as ok (so never one outside a physical bound, tools/bounds.py),
  of ONE machine (tools/answers.py `machines`: one host, overlapping GPU UUID sets). Per GPU model
  the machines are tried newest first; on a machine, the newest run that holds every figure the
  claim needs, else the newest row of each figure on that machine.
- A comparison "A < B" holds when B - A exceeds the margin max(2 (s_A + s_B), 5% of the smaller),
  s a row's standard deviation (cv x value where it has none); it fails when A - B exceeds it;
  otherwise the difference is within the spread, except that two precise figures (2 (s_A + s_B)
  under 5%) within 5% of each other are the same, which fails a claimed difference. "A about B" holds when they differ by at most
  the claim's tolerance, fails when they differ by more and by more than the margin. "flat over
  an axis" holds when (max - min) / min is at most the tolerance, fails when above it and above
  the margin.
- Verdict: `confirmed` when every comparison holds; `refuted` when one fails (the row says
  where); `inconclusive` when a figure comes from a noisy row (results/SCHEMA.md "Noisy
  figures") or a difference is within the spread; `not measured` when a figure is missing.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import answers  # noqa: E402
import gbcsv  # noqa: E402
from reports import common  # noqa: E402

GPUS = [("H100", "H100"), ("H200", "H200")]


class Missing(Exception):
    """A figure the claim needs is not in the rows."""


class Fig:
    """One figure: its row, value and spread."""

    def __init__(self, row):
        self.row = row
        self.value = float(row["value"])
        try:
            s = float(row["stddev"])
        except ValueError:
            s = float("nan")
        if s != s:
            try:
                s = float(row["cv"]) * abs(self.value)
            except ValueError:
                s = 0.0
        self.spread = s if s == s else 0.0
        self.noisy = gbcsv.noisy_reason(row)


def _matches(r, method, metric, axes):
    """The row is of `method` and `metric` and has the `axes` (reports.common.matches), an axis
    the row lacks counting as its default (DEFAULTS)."""
    if r["method"] != method or r["metric"] != metric:
        return False
    cfg = gbcsv.config_axes(r)
    absent = {k for k in axes if k in DEFAULTS and cfg.get(k, r.get(k, "")) in ("", None)}
    return all(str(axes[k]) == DEFAULTS[k] for k in absent) and \
        common.matches(r, **{k: v for k, v in axes.items() if k not in absent})


# Axis values a row that lacks the axis had (rows written before the axis existed).
DEFAULTS = {"launch": "0", "cache": "1", "part": "0", "fault": "0", "host_wait": "0",
            "impl": "0", "variant": "0"}


class Scope:
    """The rows one verdict may use (one machine; preferably one run)."""

    def __init__(self, rows):
        self.all_rows = rows
        self.rows = [r for r in rows if r["status"] == "ok"]

    def fig(self, method, metric, **axes):
        hits = [r for r in self.rows if _matches(r, method, metric, axes)]
        if not hits:
            want = " ".join(f"{k}={v}" for k, v in axes.items())
            raise Missing(f"{method} {metric} {want}".strip())
        return Fig(max(hits, key=lambda r: (r["timestamp"], r["_line"])))

    def values(self, method, metric, axis, **axes):
        """{axis value: Fig} over every value of `axis` measured."""
        out = {}
        for r in self.rows:
            if _matches(r, method, metric, axes) and axis in gbcsv.config_axes(r):
                out.setdefault(gbcsv.config_axes(r)[axis], []).append(r)
        return {k: Fig(max(v, key=lambda r: (r["timestamp"], r["_line"])))
                for k, v in out.items()}


class Outcome:
    """The figures' text, the checks [(True | False | None, what)], the figures whose noise
    counts, and the rows the figures came from (default: those of `figs`)."""

    def __init__(self, figures, checks, figs, sources=None):
        self.figures, self.checks, self.figs = figures, checks, figs
        self.sources = sources if sources is not None else [f.row for f in figs]


def margin(a, b):
    return max(2 * (a.spread + b.spread), 0.05 * min(abs(a.value), abs(b.value)))


SAME = 0.05  # precise figures closer than this are the same


def precise(a, b):
    return 2 * (a.spread + b.spread) < SAME * min(abs(a.value), abs(b.value))


def less(a, b, what):
    """(result, text) of the claim a < b: result True / False / None (within the spread). Two
    precise figures within SAME of each other refute a claimed difference."""
    d = b.value - a.value
    m = margin(a, b)
    if abs(d) <= m and precise(a, b):
        return False, f"{what}: the same within {100 * SAME:.0f}%"
    return (True if d > m else False if -d > m else None), what


def about(a, b, tol, what):
    d = abs(a.value - b.value)
    rel = d / min(abs(a.value), abs(b.value))
    return (True if rel <= tol else False if d > margin(a, b) else None), what


def flat(figs, tol, what):
    lo, hi = min(figs, key=lambda f: f.value), max(figs, key=lambda f: f.value)
    rel = (hi.value - lo.value) / lo.value
    return (True if rel <= tol else False if hi.value - lo.value > margin(lo, hi) else None), what


def us(f):
    return f"{f.value / 1000:.3g} µs"


def cyc(f):
    return f"{f.value:.3g}"


def gbs(f):
    return f"{f.value:.0f} GB/s"


# --- the claims -------------------------------------------------------------------------------

def launch_overhead(s):
    trad = s.fig("kernel.fusion", "launch_overhead", launch=0)
    coop = s.fig("kernel.fusion", "launch_overhead", launch=1)
    return Outcome(f"<<<>>> {us(trad)}, cooperative {us(coop)}",
                   [about(trad, coop, 0.25, "cooperative about <<<>>> (25%)")], [trad, coop])


def gpu_counts(s, method, metric, **axes):
    return sorted(int(k) for k in s.values(method, metric, "gpu_count", **axes))


def omp_vs_multi_device(s):
    counts = [n for n in gpu_counts(s, "host.omp.gpu-barrier", "latency", host_wait=0)
              if n > 2 and n in gpu_counts(s, "kernel.multi-device-launch", "latency",
                                           host_wait=0, impl=1)]
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


def tile_sync_flat(s):
    by = s.values("gpu.warp.tile-sync", "latency_cycles", "group_size")
    if len(by) < 2:
        raise Missing("gpu.warp.tile-sync latency_cycles over group_size")
    figs = [by[k] for k in sorted(by, key=int)]
    lo, hi = min(f.value for f in figs), max(f.value for f in figs)
    return Outcome(f"{lo:.3g}-{hi:.3g} cycles over group sizes "
                   f"{', '.join(sorted(by, key=int))}",
                   [flat(figs, 0.10, "flat within 10%")], figs)


def coalesced_whole_warp(s):
    by = s.values("gpu.warp.coalesced-sync", "latency_cycles", "group_size")
    if "32" not in by or len(by) < 2:
        raise Missing("gpu.warp.coalesced-sync latency_cycles at 32 and a partial group")
    whole = by["32"]
    part = min((f for k, f in by.items() if k != "32"), key=lambda f: f.value)
    return Outcome(f"32: {cyc(whole)} cycles, partial groups from {cyc(part)}",
                   [less(whole, part, "whole warp faster than the fastest partial group")],
                   [whole, part])


def block_sync_warps(s):
    small = s.fig("gpu.block.syncthreads", "latency_cycles", threads_per_block=32,
                  blocks_per_sm=1)
    big = s.fig("gpu.block.syncthreads", "latency_cycles", threads_per_block=1024,
                blocks_per_sm=1)
    return Outcome(f"32 threads {cyc(small)}, 1024 threads {cyc(big)} cycles",
                   [less(small, big, "1 warp faster than 32 warps")], [small, big])


def grid_blocks_over_threads(s):
    wide = s.fig("gpu.grid.cg", "latency", blocks_per_sm=1, threads_per_block=1024)
    many = s.fig("gpu.grid.cg", "latency", blocks_per_sm=8, threads_per_block=128)
    return Outcome(f"32 warps/SM as 1 x 1024: {us(wide)}, as 8 x 128: {us(many)}",
                   [less(wide, many, "more blocks/SM cost more than more threads/block")],
                   [wide, many])


def grid_vs_kernel_boundary(s):
    launch = s.fig("kernel.fusion", "launch_overhead", launch=0)
    grid = s.fig("gpu.grid.cg", "latency", blocks_per_sm=1, threads_per_block=128)
    return Outcome(f"launch overhead (Eq. 6) {us(launch)}, grid.sync 1 x 128 {us(grid)}",
                   [less(launch, grid, "kernel boundary cheaper than grid.sync")],
                   [launch, grid])


# The study's Fig. 5 shapes of the multi-grid sync: its general case (1 x 1024) and its fastest
# (1 x 32); the first one a scope measured at two or more GPU counts is used.
MG_SHAPES = [{"blocks_per_sm": 1, "threads_per_block": 1024},
             {"blocks_per_sm": 1, "threads_per_block": 32}]


def _mg_shape(s, at_least=2):
    for shape in MG_SHAPES:
        if len([n for n in gpu_counts(s, "multigpu.cg.multi-grid", "latency", **shape)
                if n > 1]) >= at_least:
            return shape
    raise Missing("multigpu.cg.multi-grid latency at 1 x 1024 or 1 x 32, at enough GPU counts")


def _shape_text(shape):
    return f"{shape['blocks_per_sm']} x {shape['threads_per_block']}"


def multi_grid_counts(s):
    shape = _mg_shape(s)
    counts = [n for n in gpu_counts(s, "multigpu.cg.multi-grid", "latency", **shape) if n > 1]
    figs = [s.fig("multigpu.cg.multi-grid", "latency", gpu_count=n, **shape) for n in counts]
    return Outcome(f"{_shape_text(shape)}: " +
                   ", ".join(f"{n} GPUs {us(f)}" for n, f in zip(counts, figs)),
                   [flat(figs, 0.20, "about the same over GPU counts (20%)")], figs)


def cpu_vs_multi_grid(s):
    shape = _mg_shape(s, at_least=1)
    counts = [n for n in gpu_counts(s, "multigpu.cg.multi-grid", "latency", **shape)
              if n > 1 and n in gpu_counts(s, "host.omp.gpu-barrier", "latency", host_wait=0)]
    if not counts:
        raise Missing("multigpu.cg.multi-grid and host.omp.gpu-barrier at one GPU count")
    checks, figs, text = [], [], []
    for n in counts:
        omp = s.fig("host.omp.gpu-barrier", "latency", host_wait=0, gpu_count=n)
        mg = s.fig("multigpu.cg.multi-grid", "latency", gpu_count=n, **shape)
        checks.append(less(omp, mg, f"{n} GPUs"))
        figs += [omp, mg]
        text.append(f"{n} GPUs: OpenMP {us(omp)}, multi-grid {_shape_text(shape)} {us(mg)}")
    return Outcome("; ".join(text), checks, figs)


def model_predictions(s, in_block):
    import model
    preds = [p for p in model.predictions(s.rows) if "missing" not in p and
             p.get("measured") is not None and not p.get("measured_bound") and
             (p["units"] == "B, cycles") == in_block]
    if not preds:
        raise Missing("the model's inputs and the reductions' switch points")
    checks, text, figs = [], [], []
    for p in preds:
        ratio = p["measured"] / p["n"]
        ok = 0.5 <= ratio <= 2.0
        checks.append((ok, f"{p['prediction']}: measured / predicted {ratio:.2f}"))
        text.append(f"{p['prediction']}: predicted {p['n']:.3g} B, measured {p['measured']:.3g} B")
    # the reductions the measured switch points come from
    methods = {"multigpu.device": "reduction.multi.device-barrier",
               "host.omp.gpu-barrier": "reduction.multi.omp",
               "host.nccl.allreduce": "reduction.multi.nccl", "host.mpi": "reduction.multi.mpi"}
    for p in preds:
        for key, method in methods.items():
            if key in p["prediction"]:
                near = [r for r in s.rows if r["method"] == method and r["metric"] == "latency"
                        and p["measured"] / 2 <= float(gbcsv.config_axes(r).get("bytes", 0))
                        <= p["measured"] * 2]
                figs += [Fig(r) for r in near]
    sources = [r for r in s.rows if r["method"].startswith("model.")]
    figs += [Fig(r) for r in sources[:1]]
    return Outcome("; ".join(text), checks, figs)


def warp_reduce_tile_shuffle(s):
    names = {"0": "serial", "2": "tile sync", "3": "coalesced sync", "4": "tile shuffle",
             "5": "coalesced shuffle"}
    by = {k: f for k, f in s.values("gpu.warp.reduce", "latency_cycles", "variant").items()
          if k in names}
    if "4" not in by or len(by) < 2:
        raise Missing("gpu.warp.reduce latency_cycles, variant 4 and another")
    tile = by["4"]
    others = [f for k, f in by.items() if k != "4"]
    best_other = min(others, key=lambda f: f.value)
    fastest = min(by, key=lambda k: by[k].value)
    text = ", ".join(f"{names[k]} {cyc(by[k])}" for k in sorted(by, key=int)) + \
        f" cycles (fastest: {names[fastest]})"
    return Outcome(text, [less(tile, best_other, "tile shuffle fastest")], [tile] + others)


SIZES_BIG = 1 << 20


def reduction_sizes(s, *keys):
    common = None
    for method, axes in keys:
        got = {int(k) for k in s.values(method, "latency", "bytes", **axes)}
        common = got if common is None else common & got
    return sorted(b for b in common or () if b >= SIZES_BIG)


def _cold(s, method):
    """cache=0 where the rows have cold figures, else the warm ones (rows before the axis)."""
    return {"cache": 0} if s.values(method, "latency", "bytes", cache=0) else {}


def kernel_boundary_vs_grid_sync(s):
    two = ("reduction.single.two-kernel", _cold(s, "reduction.single.two-kernel"))
    grid = ("reduction.single.grid-sync", dict(_cold(s, "reduction.single.grid-sync"), grid=1))
    sizes = reduction_sizes(s, two, grid)
    if not sizes:
        raise Missing("reduction.single.two-kernel and grid-sync grid=1 at >= 1 MiB")
    checks, figs = [], []
    for b in sizes:
        a, g = s.fig(two[0], "latency", bytes=b, **two[1]), s.fig(grid[0], "latency", bytes=b,
                                                                   **grid[1])
        checks.append(less(a, g, f"{b >> 20} MiB"))
        figs += [a, g]
    held = sum(1 for ok, _ in checks if ok)
    warm = "" if two[1] else " (warm: L2 not evicted)"
    return Outcome(f"kernel boundary faster at {held} of {len(sizes)} sizes, "
                   f"{sizes[0] >> 20} MiB-{sizes[-1] >> 20} MiB{warm}", checks, figs)


def cub_comparable(s):
    two = ("reduction.single.two-kernel", _cold(s, "reduction.single.two-kernel"))
    cub = ("reduction.single.cub", _cold(s, "reduction.single.cub"))
    sizes = reduction_sizes(s, two, cub)
    if not sizes:
        raise Missing("reduction.single.cub and two-kernel at >= 1 MiB")
    b = sizes[-1]
    a = s.fig(two[0], "bandwidth", bytes=b, **two[1])
    c = s.fig(cub[0], "bandwidth", bytes=b, **cub[1])
    return Outcome(f"at {b >> 20} MiB: CUB {gbs(c)}, kernel boundary {gbs(a)}",
                   [about(c, a, 0.10, "CUB within 10% of the kernel boundary")], [a, c])


def multi_reduction_vs_multi_grid(s):
    counts = [n for n in gpu_counts(s, "reduction.multi.multi-grid", "latency")
              if n > 1 and n in gpu_counts(s, "reduction.multi.omp", "latency")]
    if not counts:
        raise Missing("reduction.multi.multi-grid and reduction.multi.omp at one GPU count")
    checks, figs, text = [], [], []
    for n in counts:
        sizes = sorted(set(int(k) for k in s.values("reduction.multi.omp", "latency", "bytes",
                                                     gpu_count=n)) &
                       set(int(k) for k in s.values("reduction.multi.multi-grid", "latency",
                                                    "bytes", gpu_count=n)))
        if not sizes:
            continue
        b = sizes[-1]
        omp = s.fig("reduction.multi.omp", "latency", gpu_count=n, bytes=b)
        mg = s.fig("reduction.multi.multi-grid", "latency", gpu_count=n, bytes=b)
        checks.append(less(omp, mg, f"{n} GPUs at {b >> 20} MiB"))
        figs += [omp, mg]
        text.append(f"{n} GPUs, {b >> 20} MiB: kernel boundary + OpenMP {us(omp)}, "
                    f"multi-grid {us(mg)}")
    if not checks:
        raise Missing("a size both reductions measured")
    return Outcome("; ".join(text), checks, figs)


WAIT_CHECK = "pitfall.warp.wait-check"
PARTIAL = "pitfall.grid.partial-sync"


def _pitfall_rows(s, method):
    rows = [r for r in s.all_rows if r["method"] == method and r["status"] in
            ("ok", "unverified", "timeout")]
    if not rows:
        raise Missing(method)
    return rows


def warp_sync_waits(s):
    rows = _pitfall_rows(s, WAIT_CHECK)
    control = [r for r in rows if gbcsv.config_axes(r).get("variant") == "0"]
    real = [r for r in rows if gbcsv.config_axes(r).get("variant") != "0"]
    if not control or not real:
        raise Missing(f"{WAIT_CHECK}: the syncs and the control (variant 0)")
    early = [r for r in real if r["status"] != "ok" or float(r["value"] or 0) > 0]
    caught = [r for r in control if r["status"] == "unverified" and float(r["value"] or 0) > 0]
    variants = sorted({gbcsv.config_axes(r).get("variant") for r in real}, key=int)
    text = (f"{len(real)} sync points (variants {', '.join(variants)}): "
            f"{len(real) - len(early)} with no thread leaving early; the control without a sync: "
            f"{len(caught)} of {len(control)} caught")
    checks = [(not early, "every sync waits"),
              (True if caught else None, "the control shows the check can catch")]
    return Outcome(text, checks, [], rows)


def partial_grid_timeout(s):
    rows = _pitfall_rows(s, PARTIAL)
    part = [r for r in rows if gbcsv.config_axes(r).get("missing", "0") != "0"]
    whole = [r for r in rows if gbcsv.config_axes(r).get("missing", "0") == "0"]
    if not part:
        raise Missing(f"{PARTIAL} with missing > 0")
    stuck = [r for r in part if r["status"] == "timeout"]
    done = [r for r in whole if r["status"] == "ok"]
    text = (f"part of the grid missing: {len(stuck)} of {len(part)} points end as `timeout` "
            f"(the watchdog, no hang); whole grid: {len(done)} of {len(whole)} ok")
    checks = [(len(stuck) == len(part), "a partial grid sync never completes"),
              (True if whole and len(done) == len(whole) else None, "the whole grid completes")]
    return Outcome(text, checks, [], rows)


# (key, the study's section, the claim, the study's figure, function)
FINDINGS = [
    ("launch", "4.1, Table 1", "A kernel launch costs about 1 µs of launch overhead (Eq. 6), "
     "about the same for a cooperative launch", "1.08 / 1.06 µs (<<<>>> / cooperative; GPU not "
     "named)", launch_overhead),
    ("omp-vs-launch", "4.2, Fig. 5", "CPU-side (OpenMP) barriers beat the multi-device launch "
     "as an implicit barrier above two GPUs", "V100 (DGX-1): OpenMP faster from 3 GPUs",
     omp_vs_multi_device),
    ("tile-sync", "5.1, Table 2", "Tile-group sync latency does not depend on the group size",
     "V100 14, P100 1 cycles at every size", tile_sync_flat),
    ("coalesced-sync", "5.1, Table 2", "A coalesced group of the whole warp syncs faster than a "
     "partial one", "V100 14 vs 108 cycles; P100 1 either way", coalesced_whole_warp),
    ("block-warps", "5.2", "Block sync costs more with more warps in the block",
     "V100 22 / 36 / 84 cycles (1 / 2 / 32 warps)", block_sync_warps),
    ("grid-blocks", "5.3, Fig. 7", "Grid sync latency depends on blocks per SM more than on "
     "threads per block", "V100 1.8 µs (1 block/SM) to 21 µs (16 blocks/SM)",
     grid_blocks_over_threads),
    ("grid-vs-kernel", "5.3", "A grid sync costs more than a kernel boundary's launch overhead "
     "(at most 2.5 µs more)", "V100: grid.sync 1.4-2.2 µs vs 1.08 µs", grid_vs_kernel_boundary),
    ("multi-grid-count", "6, Fig. 5", "Multi-grid sync latency is about the same from 2 to 5 "
     "GPUs (and again from 6 to 8) on a DGX-1", "V100: two plateaus, 2-5 and 6-8 GPUs",
     multi_grid_counts),
    ("cpu-vs-multi-grid", "6, 10", "CPU-side barriers beat the multi-grid sync (which is at "
     "most 3x slower)", "V100: multi-grid up to 3x the OpenMP barrier", cpu_vs_multi_grid),
    ("model-table4", "7.2, Table 4", "The model (Eqs. 2-5) predicts where fewer threads win "
     "inside a block (within one step of the sizes measured, a factor of 2)",
     "V100: 70 B (1 thread vs 1 warp), 9 KB (32 vs 1024 threads)",
     lambda s: model_predictions(s, True)),
    ("model-gpus", "7.2 (extended)", "The same model predicts where one GPU beats N GPUs "
     "(within a factor of 2)", "not in the study (it predicted in-block switches only)",
     lambda s: model_predictions(s, False)),
    ("warp-reduce", "7.3, Table 5", "A warp sums 32 doubles fastest with tile shuffles",
     "V100 164 cycles (others 237-1261); P100 212 (251-1423)", warp_reduce_tile_shuffle),
    ("reduction-boundary", "7.4, Fig. 15", "In a single-GPU reduction a kernel boundary always "
     "beats grid sync, slightly", "V100 865 vs 856 GB/s; P100 592 vs 591 GB/s",
     kernel_boundary_vs_grid_sync),
    ("cub", "7.4, Table 6", "CUB's reduction is comparable with the hand-written ones",
     "V100 849 vs 865 GB/s; P100 544 vs 592 GB/s", cub_comparable),
    ("multi-reduction", "7.5, Fig. 16", "In the multi-GPU reduction a kernel boundary is "
     "slightly faster than the multi-grid sync", "V100 (DGX-1): kernel boundary slightly "
     "faster at every GPU count", multi_reduction_vs_multi_grid),
    ("warp-waits", "8.1, Figs. 17-18", "Every warp sync makes every thread of the group wait "
     "(per-thread timers before and after the sync)", "V100: yes; P100: no", warp_sync_waits),
    ("partial-grid", "8.2", "A grid sync reached by only part of the grid deadlocks",
     "V100, P100: deadlock", partial_grid_timeout),
]


def verdict(out):
    noisy = sorted({f"{f.row['method']}: {f.noisy}" for f in out.figs if f.noisy})
    results = [ok for ok, _ in out.checks]
    failed = [what for ok, what in out.checks if ok is False]
    if noisy:
        return "inconclusive", "noisy: " + "; ".join(noisy[:2])
    if failed:
        return "refuted", "fails: " + ", ".join(failed[:4])
    if any(ok is None for ok in results):
        within = [what for ok, what in out.checks if ok is None]
        return "inconclusive", "within the spread: " + ", ".join(within[:4])
    return "confirmed", ""


def scopes(rows, gpu):
    """The scopes to try for one GPU model: per machine (newest first), the machine's runs
    (newest first), then the whole machine."""
    mine = [r for r in rows if gpu in r["gpu_model"]]
    out = []
    for _, mrows in sorted(answers.machines(mine), key=lambda m: max(r["timestamp"]
                                                                     for r in m[1]),
                           reverse=True):
        runs = collections.OrderedDict()
        for r in sorted(mrows, key=lambda r: r["timestamp"], reverse=True):
            runs.setdefault((r["_file"], r["run_id"]), []).append(r)
        out += [("run", rs) for rs in runs.values()] + [("machine", mrows)]
    return out


def evaluate(rows, fn, gpu):
    missing = ""
    for _, rs in scopes(rows, gpu):
        try:
            out = fn(Scope(rs))
        except Missing as e:
            missing = missing or str(e)
            continue
        return out
    return missing


def files_of(out, base):
    files = sorted({os.path.relpath(r["_file"], base) for r in out.sources})
    return ", ".join(f"`{f}`" for f in files)


def page(paths, base):
    csvs, _ = gbcsv.expand(paths)
    rows = gbcsv.load(csvs, statuses={"ok", "timeout", "unverified"})
    lines = ["| finding (the study's section) | the study (V100 / P100) | GPU | Hopper | verdict "
             "| why | CSV |", "|---|---|---|---|---|---|---|"]
    counts = collections.Counter()
    for key, section, claim, study, fn in FINDINGS:
        for i, (gpu, label) in enumerate(GPUS):
            got = evaluate(rows, fn, gpu)
            if isinstance(got, Outcome):
                v, why = verdict(got)
                cells = [got.figures, f"**{v}**", why, files_of(got, base)]
            else:
                v = "not measured"
                cells = ["-", f"**{v}**", f"no rows: {got}" if got else "no rows", "-"]
            counts[v] += 1
            head = [f"{claim} ({section})", study] if i == 0 else ["", ""]
            lines.append("| " + " | ".join(head + [label] + cells) + " |")
    summary = ", ".join(f"{counts[k]} {k}" for k in ("confirmed", "refuted", "inconclusive",
                                                      "not measured") if counts[k])
    return [f"{len(FINDINGS)} conclusions x {len(GPUS)} GPUs: {summary}.", ""] + lines


def main(argv):
    paths = argv or [os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                  "results")]
    base = paths[0] if len(paths) == 1 and os.path.isdir(paths[0]) else os.getcwd()
    print("\n".join(page(paths, base)))
    return 0

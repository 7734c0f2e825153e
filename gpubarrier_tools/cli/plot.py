#!/usr/bin/env python3
"""Plots gpubarrier CSVs (results/SCHEMA.md): one PNG per method plus a summary.

  cli/plot.py results/h200/*.csv --out plots/

- methods swept over blocks_per_sm x threads_per_block: a heat map of the latency (the study's
  Fig. 8 layout), one per GPU model;
- other methods: latency against their first swept axis, error bars = stddev, one line per GPU
  model / launcher / GPU count and per value of the other swept axes;
- summary.png: the best (lowest) latency of every method, log scale, to compare levels;
- scaling.png, when the rows hold several GPU counts: each multi-GPU method's latency against
  the GPU count at 1 block/SM x 128 threads and its default variant (ordering, blocking and
  host_wait 0), solid lines for threads mode, dashed for mpi.
- reduction-<GPU model>.png, when the rows hold `reduction.*` bandwidth rows
  (render/plot_reduction.py): GB/s against the array size per method, the copy ceiling, and the
  switch points cli/model.py predicts from the same rows as vertical lines.
- eq6-length.png, when the rows hold kernel.fusion launch overheads at two or more kernel
  lengths (render/plot_eq6.py): Eq. 6 against the shorter kernel's length per GPU and launch,
  95% intervals; the zeros of a launch hidden behind the running kernel drawn, wider intervals
  not.
- selfcheck.png, when the rows hold `gpubarrier selfcheck` figures: the loop kernel's deviation
  of the differential from the clock technique against the repeat difference, error bars = the
  combined standard error, the tolerance shaded, disagreements marked.
- when the inputs span more than one machine (GPU model, topology class, GPU count, or launch
  mode; render/plot_compare.py): compare-bars (per level, each method at one configuration every
  machine measured, one bar per machine, error bars ±1 stddev), compare-ratio (method x machine
  heat map of latency / the --baseline machine's), compare-scaling (latency against GPU count,
  one line per machine, per multi-GPU method).
Only rows with status ok and metric latency (unit ns) are plotted, plus the selfcheck rows.
Every plot is written in each --format (png,svg by default).

  cli/plot.py results/h100/single-gpu.csv results/h200/single-gpu.csv --out cmp/ \
      --only compare --format png --baseline H200
"""

from __future__ import annotations

import argparse
import collections
import io
import math
import os
import re
from collections import OrderedDict
from collections.abc import Iterable, MutableMapping, Sequence
from typing import Any

from ..data import output_files, tool_main

# Run as a program, a Python without matplotlib is one line naming it and the fix; imported
# (html_report.py), the ImportError is the importer's.
with tool_main.imports(__name__):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..analysis import findings_eq6, floor, model_predictions
    from ..data import gbcsv
    from ..render import plot_compare, plot_eq6, plot_reduction

# Reproducible files: no creation date in SVG/PNG metadata, fixed SVG ids.
plt.rcParams["svg.hashsalt"] = "gpubarrier"
FORMATS = ["png"]  # set by main() / make_plots(); every plot is written in each of these
# The files that were in --out before this run: one of them is replaced only with --force (the
# executable's rule for --out); set by make_plots().
EXISTED: set[str] = set()
FORCE = False
# The largest magnitude of a figure (value, value + stddev) a plot draws: no measured figure
# comes near it, and an axis near the float limit (1e308) cannot be scaled or ticked.
PLOT_LIMIT = 1e30


def save(fig: Any, out: str, stem: str) -> list:
    """Writes fig as out/stem.<fmt> for every format in FORMATS; returns the paths."""
    paths = []
    for fmt in FORMATS:
        path = os.path.join(out, f"{stem}.{fmt}")
        if os.path.basename(path) in EXISTED:
            try:
                tool_main.refuse_to_replace(path, "--out", FORCE)
            except tool_main.InputError:
                plt.close(fig)
                raise
        meta = {"Date": None} if fmt == "svg" else {}
        image = io.BytesIO()
        fig.savefig(image, format=fmt, dpi=110, metadata=meta, bbox_inches="tight", pad_inches=0.1)
        try:
            output_files.write(path, image.getvalue(), replace_link=FORCE)
        except tool_main.InputError:
            plt.close(fig)
            raise
        paths.append(path)
    plt.close(fig)
    return paths


def load_ok(paths: list[str], split_repeats: bool = True) -> list:
    """Every ok row of every file, each with `_group`: its machine's label (plot_compare)."""
    rows = gbcsv.load(paths, statuses={"ok"})
    for r in rows:
        value, spread = float(r["value"]), float(r["stddev"] or 0)
        if abs(value) + spread >= PLOT_LIMIT:
            col = "value" if abs(value) >= PLOT_LIMIT else "stddev"
            raise tool_main.InputError(
                f"{r['_file']}:{r['_line']}: column '{col}' is '{r[col]}': too large to plot "
                f"(value + stddev below {PLOT_LIMIT:g} expected; no measured figure comes near)"
            )
    plot_compare.assign_groups(rows, split_repeats)
    return rows


def latency_rows(ok_rows: list) -> list:
    return [r for r in ok_rows if r["metric"] == "latency" and r["unit"] == "ns"]


def load(paths: list[str]) -> list:
    """Ok latency rows (ns) of every file, each with `_group`."""
    return latency_rows(load_ok(paths))


def axes_of(rows: list) -> list:
    """Axis names whose value varies within these rows."""
    names = collections.OrderedDict()
    for r in rows:
        for item in r["config"].split():
            k, v = item.split("=")
            names.setdefault(k, set()).add(v)
    return [k for k, vs in names.items() if len(vs) > 1]


def config_value(r: MutableMapping[str, Any], axis: str) -> int | None:
    for item in r["config"].split():
        k, v = item.split("=")
        if k == axis:
            return int(v)
    return None


MANY_GROUPS = False  # set when the rows span several machines: series then name the machine


def series_key(r: MutableMapping[str, Any]) -> str:
    if MANY_GROUPS:
        return f'{r["_group"]} {r["launcher"]} x{r["gpu_count"]}'
    return f'{r["gpu_model"] or r["host"]} {r["launcher"]} x{r["gpu_count"]}'


def heatmap(method: str, rows: list, out: str, suffix: str = "") -> None:
    """One heat map per machine; single-GPU methods from GPU 0, multi-GPU rows (one per point)
    as they are. `suffix` tells several GPU counts of one method apart."""
    field = "_group" if MANY_GROUPS else "gpu_model"
    for model in sorted({r[field] for r in rows}):
        sub = [
            r
            for r in rows
            if r[field] == model and (r["gpu_ids"] in ("0", "") or int(r["gpu_count"] or 1) > 1)
        ]
        if not sub:
            continue
        bps = sorted({int(r["blocks_per_sm"]) for r in sub})
        tpb = sorted({int(r["threads_per_block"]) for r in sub})
        grid = [[float("nan")] * len(tpb) for _ in bps]
        for r in sub:
            grid[bps.index(int(r["blocks_per_sm"]))][tpb.index(int(r["threads_per_block"]))] = (
                float(r["value"]) / 1000
            )
        fig, ax = plt.subplots(figsize=(6, 4.5))
        im = ax.imshow(grid, origin="lower", cmap="viridis")
        ax.set_xticks(range(len(tpb)), tpb)
        ax.set_yticks(range(len(bps)), bps)
        ax.set_xlabel("threads per block")
        ax.set_ylabel("blocks per SM")
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                if v == v:
                    ax.text(j, i, f"{v:.2f}", ha="center", va="center", color="w", fontsize=7)
        fig.colorbar(im, label="latency (µs)")
        count = f", {sub[0]['gpu_count']} GPUs" if suffix else ""
        ax.set_title(f"{method} on {model}{count}", fontsize=10 if len(model) < 30 else 8)
        fig.tight_layout()
        save(fig, out, f"{method}-{plot_compare.safe(model)}-heatmap{suffix}")


def lines(method: str, rows: list, axis: str, others: list[str], out: str) -> None:
    """One line per machine and per value of the other varying axes."""
    fig, ax = plt.subplots(figsize=(6, 4))
    by = collections.defaultdict(list)
    for r in rows:
        if config_value(r, axis) is not None:
            rest = " ".join(f"{o}={config_value(r, o)}" for o in others)
            by[f"{series_key(r)} {rest}".strip()].append(r)
    for key, rs in sorted(by.items()):
        rs.sort(key=lambda r: config_value(r, axis))  # type: ignore[arg-type, return-value]
        ax.errorbar(
            [config_value(r, axis) for r in rs],
            [float(r["value"]) for r in rs],
            yerr=[float(r["stddev"] or 0) for r in rs],
            marker="o",
            capsize=3,
            label=key,
        )
    ax.set_xscale("log", base=2)
    ax.set_xlabel(axis)
    ax.set_ylabel("latency (ns)")
    ax.set_title(method + ", error bars: ±1 stddev")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, method)


def summary(rows: list, out: str) -> None:
    best = {}
    for r in rows:
        v = float(r["value"])
        if r["method"] not in best or v < best[r["method"]]:
            best[r["method"]] = v
    names = sorted(best, key=best.get)  # type: ignore[arg-type]
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(names) + 1.2))
    ax.barh(names, [best[n] for n in names])
    ax.set_xscale("log")
    ax.set_xlabel(
        "best latency over all configurations"
        + (" and inputs" if MANY_GROUPS else "")
        + " (ns, log scale)"
    )
    fig.tight_layout()
    save(fig, out, "summary")


def scaling(rows: list, out: str, ok_rows: Sequence[MutableMapping[str, Any]] = ()) -> bool:
    """Latency against GPU count, one line per method and launch mode, and the composed floor
    where the rows have its parts (ok_rows: every ok row); False if not applicable."""
    series = collections.defaultdict(dict)
    for r in rows:
        if r["level"] not in ("multi-gpu", "kernel") or r["gpu_count"] in ("", "0"):
            continue
        c = dict(item.split("=") for item in r["config"].split())
        if c.get("blocks_per_sm", "1") != "1" or c.get("threads_per_block", "128") != "128":
            continue
        if any(c.get(k, "0") != "0" for k in ("ordering", "blocking", "host_wait", "fault")):
            continue
        mode = "mpi" if r["launcher"] == "mpi" else "threads"
        if MANY_GROUPS:
            mode = f'{mode}, {r["_group"]}'
        series[(r["method"], mode)][int(r["gpu_count"])] = float(r["value"]) / 1000
    if len({n for pts in series.values() for n in pts}) < 2:
        return False
    fig, ax = plt.subplots(figsize=(11, 5.5))
    methods = sorted({m for m, _ in series})
    palette = plt.get_cmap("tab20")
    colors = {
        m: palette((2 * i) % 20 + (2 * i // 20) % 2) for i, m in enumerate(methods)
    }  # dark first
    for (method, mode), pts in sorted(series.items()):
        color = colors[method]
        xs = sorted(pts)
        ax.plot(
            xs,
            [pts[x] for x in xs],
            marker="o",
            color=color,
            linestyle="--" if mode.startswith("mpi") else "-",
            label=f"{method} ({mode})",
        )
    floors = floor.floor_by_count(ok_rows)  # type: ignore[arg-type]
    if floors:
        xs = sorted(floors)
        grids = floor.floor_terms(g for _, g in floors.values())
        ax.plot(
            xs,
            [floors[x][0] for x in xs],
            color="black",
            linestyle=":",
            linewidth=2,
            marker="s",
            label=f"composed floor: {grids} (same run)",
        )
    ax.set_xlabel("GPUs")
    ax.set_ylabel("latency per barrier (µs), 1 block/SM x 128 threads")
    ax.set_yscale("log")
    ax.set_xticks(sorted({n for pts in series.values() for n in pts}))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    save(fig, out, "scaling")
    return True


def load_selfcheck(paths_or_rows: Sequence[Any]) -> OrderedDict:
    """{(gpu_model or host, run_id, base_trips): {repeat_difference: {technique: row}}} of the
    loop kernel's figures (selfcheck.fadd.loop, metric cycles_per_add)."""
    runs = collections.OrderedDict()
    rows = paths_or_rows
    if rows and isinstance(rows[0], str):
        rows = gbcsv.load(rows, statuses={"ok"})
    for r in rows:
        if r["method"] != "selfcheck.fadd.loop" or r["metric"] != "cycles_per_add":
            continue
        c = gbcsv.config_axes(r)
        key = (r["gpu_model"] or r["host"], r["run_id"], c["base_trips"])
        runs.setdefault(key, {}).setdefault(int(c["repeat_difference"]), {})[r["technique"]] = r
    return runs


def selfcheck(runs: dict, out: str) -> None:
    """Deviation of the differential from the clock figure against the repeat difference."""

    def se(r: MutableMapping[str, Any]) -> float:
        return float(r["stddev"] or 0) / math.sqrt(max(int(r["samples"] or 1), 1))

    fig, ax = plt.subplots(figsize=(6, 4))
    tolerances = set()
    many = len(runs) > len({(m, t) for m, _, t in runs})
    for (model, run, trips), by_diff in runs.items():
        xs, ys, errs, bad = [], [], [], []
        for d, t in sorted(by_diff.items()):
            c, r = t.get("clock"), t.get("differential")
            if d == 0 or not c or not r:
                continue
            clock = float(c["value"])
            xs.append(d)
            ys.append(100 * (float(r["value"]) / clock - 1))
            errs.append(100 * math.hypot(se(r), se(c)) / clock)
            tol = re.search(r"tolerance (\d+)%", r["note"])
            if tol:
                tolerances.add(int(tol.group(1)))
            if "agreement none" in r["note"]:
                bad.append((xs[-1], ys[-1]))
        label = f"{model}, R_lo {trips} trips" + (f" ({run})" if many else "")
        ax.errorbar(xs, ys, yerr=errs, marker="o", capsize=3, label=label)
        if bad:
            ax.plot(*zip(*bad), "rx", markersize=10, mew=2)
    for tol in tolerances:  # type: ignore[assignment]
        ax.axhspan(-tol, tol, color="0.9", zorder=0)  # type: ignore[operator]
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ticks = sorted({d for by_diff in runs.values() for d in by_diff if d > 0})
    ax.set_xticks(ticks, [str(d) for d in ticks])
    ax.minorticks_off()
    ax.set_xlabel("repeat difference (adds); shaded: tolerance, x: disagrees")
    ax.set_ylabel("differential vs clock (%)")
    ax.set_title("selfcheck: FP32 add on the loop kernel")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, "selfcheck")


def make_plots(
    paths: list[str],
    out: str,
    formats: Iterable[str] = ("png", "svg"),
    baseline: str | None = None,
    only: str = "all",
    prefix: str = "",
    split_repeats: bool = True,
    compare: bool = True,
    force: bool = False,
) -> tuple[list[str], str]:
    """Every plot of these CSVs into out/; returns (paths written, message). A file already in
    out/ is replaced only with force (else InputError naming it and --force). Raises
    gbcsv.CsvError for an unreadable file, ValueError for no rows or an unknown baseline.
    only: all; compare (the comparison plots); overview (selfcheck, summary, scaling and the
    comparison, no per-method plot). split_repeats=False merges files of one machine that
    measured the same points (plot_compare.assign_groups). compare=False: no plot comparing
    machines (cli/html_report.py without --baseline)."""
    global MANY_GROUPS, FORCE
    FORMATS[:] = list(formats)
    ok = load_ok(paths, split_repeats)
    rows = latency_rows(ok)
    checks = load_selfcheck(ok)
    eq6_points = findings_eq6.length_points(paths)
    if not rows and not checks and not eq6_points:
        raise ValueError("no ok latency rows (nor selfcheck or Eq. 6 rows) in " + ", ".join(paths))
    groups = plot_compare.group_labels(rows)
    MANY_GROUPS = len(groups) > 1
    if MANY_GROUPS:
        plot_compare.resolve_baseline(groups, rows, baseline)  # an unknown one fails first
    if os.path.exists(out) and not os.path.isdir(out):
        raise tool_main.InputError(
            f"--out '{out}' is a file: plot writes its plots into a folder; choose a folder"
        )
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise tool_main.InputError(
            f"--out '{out}': cannot create the folder ({e.strerror or e})"
        ) from None
    before = set(os.listdir(out))
    EXISTED.clear()
    EXISTED.update(before)
    FORCE = force
    stamp = {f: os.path.getmtime(os.path.join(out, f)) for f in before}
    by_method = collections.defaultdict(list)
    for r in rows:
        by_method[r["method"]].append(r)
    if only in ("all", "overview"):
        if checks:
            selfcheck(checks, out)
        for method, rs in sorted(by_method.items()) if only == "all" else ():
            varying = axes_of(rs)
            if set(varying) == {"blocks_per_sm", "threads_per_block"}:
                heatmap(method, rs, out)
            elif set(varying) == {"blocks_per_sm", "threads_per_block", "gpu_count"}:
                # the multi-grid heat maps (the study's Figs. 8-9): one per GPU count
                for n in sorted({config_value(r, "gpu_count") for r in rs}):  # type: ignore[type-var]
                    heatmap(
                        method, [r for r in rs if config_value(r, "gpu_count") == n], out, f"-x{n}"
                    )
            elif varying:
                lines(method, rs, varying[0], varying[1:], out)
        if rows:
            summary(rows, out)
            scaling(rows, out, ok)
        plot_reduction.reduction(ok, out, save, model_predictions.predictions)
        plot_eq6.eq6_length(eq6_points, findings_eq6.SETTLED_NS, out, save)
    compared = []
    if MANY_GROUPS and compare:
        compared = plot_compare.compare_all(
            rows, groups, out, save, baseline=baseline, prefix=prefix
        )
    made = sorted(
        f
        for f in os.listdir(out)
        if f not in before or os.path.getmtime(os.path.join(out, f)) != stamp[f]
    )
    msg = (
        f"plot.py: {len(rows)} rows, {len(by_method)} methods, {len(groups)} machine"
        f"{'s' if len(groups) != 1 else ''}{', selfcheck' if checks else ''}"
        f"{', comparison vs ' + compared[0] if compared else ''} -> {out}/"
    )
    return [os.path.join(out, f) for f in made], msg


def main(argv: Sequence[str] | None = None) -> int:
    ap = tool_main.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    ap.add_argument("csv", nargs="+", help="gpubarrier CSV files")
    ap.add_argument("--out", default="plots", help="output folder (default: plots)")
    ap.add_argument(
        "--format",
        default="png,svg",
        help="comma-separated file formats of every plot (default: png,svg)",
    )
    ap.add_argument(
        "--baseline",
        default=None,
        help="machine label (or a unique part of it, or an input file) that the "
        "ratio heat map divides by (default: the first input's)",
    )
    ap.add_argument(
        "--only",
        choices=("all", "compare"),
        default="all",
        help="compare: only the plots comparing machines (default: all)",
    )
    ap.add_argument("--prefix", default="", help="prepended to every comparison plot's file name")
    ap.add_argument(
        "--force",
        action="store_true",
        help="replace plots already in --out (default: refused, naming the file)",
    )
    ap.add_argument(
        "--merge-repeats",
        action="store_true",
        help="files of one machine stay one machine even where they measured the "
        "same points (default: each such file is a machine of its own)",
    )
    args = ap.parse_args(argv)
    formats = [f.strip().lower() for f in args.format.split(",") if f.strip()]
    bad = [f for f in formats if f not in ("png", "svg", "pdf")]
    if bad or not formats:
        ap.error(f"--format {args.format}: expected a comma-separated list of png, svg, pdf")
    try:
        _, msg = make_plots(
            args.csv,
            args.out,
            formats,
            args.baseline,
            args.only,
            args.prefix,
            split_repeats=not args.merge_repeats,
            force=args.force,
        )
    except ValueError as e:  # no rows to plot, an unknown --baseline
        raise tool_main.InputError(str(e)) from e
    print(msg)
    return 0


if __name__ == "__main__":
    tool_main.run(main)

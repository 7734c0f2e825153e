"""Plots that compare machines (cli/plot.py draws them when its inputs span more than one).

A *machine* is what one input file measured on one (system, GPU model, host): its label is
"<system> · <GPU model> · <topology class> · <n> GPUs", the class and count of the most GPUs its
ok rows used (e.g. "NVIDIA H200 · nv18-clique2 · 2 GPUs"; the system is left out when it is the
default `local`). Rows run one rank per GPU (launcher mpi) form their own series when the inputs
hold more than one launch mode ("· mpi ranks" / "· threads"), and two files of the same machine
that measured the same points stay apart (their file names are appended).

- compare-bars: per level, each method's latency at one representative configuration, one bar per
  machine, error bars ±1 stddev of the samples;
- compare-ratio: method x machine heat map of latency / the baseline machine's latency;
- compare-scaling: each multi-GPU method's latency against the GPU count, one line per machine
  (methods that at least two machines measured at two or more GPU counts).

The representative configuration of a method is chosen once for all machines: for each axis, the
value every machine measured, preferring 1 block/SM, 128 threads per block, a full warp (32), a
cluster of 2, ordering/fault/host_wait/blocking/skip_block 0, and the largest common GPU count.
"""

from __future__ import annotations

import collections
import math
import os
import re
from collections.abc import Callable, Collection, Iterable, MutableMapping
from typing import Any

import matplotlib.pyplot as plt
from matplotlib import colors as mcolors
from matplotlib import patches as mpatches
from matplotlib import ticker

from ..data import gbcsv

PREFERRED = {
    "blocks_per_sm": "1",
    "threads_per_block": "128",
    "group_size": "32",
    "cluster_size": "2",
    "ordering": "0",
    "fault": "0",
    "host_wait": "0",
    "blocking": "0",
    "skip_block": "0",
}
AXIS_ORDER = ["gpu_count"] + list(PREFERRED)
# Distinct colours for machines, colour-blind friendly first (Okabe-Ito), then tab10.
PALETTE = [
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
] + [plt.get_cmap("tab10")(i) for i in range(10)]


def safe(text: str) -> str:
    """A file-name-safe form of a label."""
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", text).strip("_")


def _model(r: MutableMapping[str, Any]) -> str:
    return r["gpu_model"] or r["host"] or "no GPU"


def assign_groups(rows: list, split_repeats: bool = True) -> None:
    """Sets r["_group"] on every row: the label of its machine (module docstring); with
    split_repeats False, files of one machine stay together even where they measured the same
    points (the comparison then takes the row of lowest standard error)."""
    # The machine of each (file, system, model, host): the class of the most GPUs it used.
    most = {}
    for r in rows:
        k = (r["_file"], r["system"], _model(r), r["host"])
        n = int(r["gpu_count"]) if r["gpu_count"].isdigit() else 0
        if r["topology"] and r["topology"] != "none" and (k not in most or n > most[k][0]):
            most[k] = (n, r["topology"])
    base = {}
    for k in {(r["_file"], r["system"], _model(r), r["host"]) for r in rows}:
        _, system, model, _ = k
        n, topo = most.get(k, (0, "no GPU"))
        parts = [system] if system not in ("", "local") else []
        parts.append(model)
        parts.append(topo)
        if n:
            parts.append(f"{n} GPU" + ("s" if n != 1 else ""))
        base[k] = " · ".join(parts)
    modes = {("mpi" if r["launcher"] == "mpi" else "threads") for r in rows}
    labels = {}
    for r in rows:
        label = base[(r["_file"], r["system"], _model(r), r["host"])]
        if len(modes) > 1:
            label += " · mpi ranks" if r["launcher"] == "mpi" else " · threads"
        labels[id(r)] = label
    # Files of one label that measured the same point stay apart (repeated runs).
    points = collections.defaultdict(lambda: collections.defaultdict(set))
    for r in rows:
        points[labels[id(r)]][r["_file"]].add(
            (r["method"], r["config"], r["metric"], r["launcher"], r["gpu_count"])
        )
    split = set()
    for label, by_file in points.items() if split_repeats else ():
        files = list(by_file)
        for i, a in enumerate(files):
            if any(by_file[a] & by_file[b] for b in files[i + 1 :]):
                split.add(label)
    for r in rows:
        label = labels[id(r)]
        if label in split:
            label += f' · {os.path.basename(r["_file"])}'
        r["_group"] = label


def group_labels(rows: list) -> list:
    """Machine labels in the order of the inputs."""
    seen = collections.OrderedDict()
    for r in rows:
        seen.setdefault(r["_group"], None)
    return list(seen)


def axes(r: MutableMapping[str, Any]) -> dict:
    a = gbcsv.config_axes(r)
    if r["gpu_count"].isdigit() and int(r["gpu_count"]) > 0:
        a["gpu_count"] = r["gpu_count"]
    return a


def _num(v: Any) -> float:
    try:
        return float(v)
    except ValueError:
        return math.inf


def representative(by_group: dict[str, list], skip: Collection[str] = ()) -> tuple[dict, dict]:
    """{group: row} at one configuration common to all groups, and that configuration."""
    cand = {g: list(rs) for g, rs in by_group.items() if rs}
    names = set()
    for rs in cand.values():
        for r in rs:
            names |= set(axes(r))
    order = [a for a in AXIS_ORDER if a in names] + sorted(names - set(AXIS_ORDER))
    chosen = {}
    for axis in order:
        if axis in skip:
            continue
        sets = [{axes(r).get(axis) for r in rs} for rs in cand.values()]
        common = set.intersection(*sets) - {None} if sets else set()
        if not common:
            continue
        if axis == "gpu_count":
            v = max(common, key=_num)
        elif PREFERRED.get(axis) in common:
            v = PREFERRED[axis]
        else:
            v = min(common, key=_num)
        chosen[axis] = v
        cand = {g: [r for r in rs if axes(r).get(axis) == v] for g, rs in cand.items()}
    # Several rows left (other GPU subsets): the lowest standard error.
    pick = {}
    for g, rs in cand.items():
        if rs:
            pick[g] = min(
                rs,
                key=lambda r: (
                    _num(r["stddev"] or "inf") / math.sqrt(max(int(r["samples"] or 1), 1))
                ),
            )
    return pick, chosen


OFF_VARIANTS = ("ordering", "fault", "host_wait", "blocking", "skip_block")
DEFAULT_NOTE = "variants at their default (ordering, fault, host_wait, blocking, skip_block 0)"


def describe(cfg: dict[str, str], level: str = "") -> str:
    """A short text of a configuration: 1 block/SM x 128 threads, group 32, ...; the default
    variants (DEFAULT_NOTE) and one GPU at a single-GPU level are left out."""
    cfg = {
        k: v
        for k, v in cfg.items()
        if not (k in OFF_VARIANTS and v == "0")
        and not (k == "gpu_count" and v == "1" and level in ("warp", "block", "cluster", "grid"))
    }
    parts = []
    if "blocks_per_sm" in cfg and "threads_per_block" in cfg:
        parts.append(f'{cfg["blocks_per_sm"]} block/SM × {cfg["threads_per_block"]} threads')
    elif "threads_per_block" in cfg:
        parts.append(f'{cfg["threads_per_block"]} threads/block')
    elif "blocks_per_sm" in cfg:
        parts.append(f'{cfg["blocks_per_sm"]} block/SM')
    for k, v in cfg.items():
        if k in ("blocks_per_sm", "threads_per_block"):
            continue
        if k == "gpu_count":
            parts.append(f"{v} GPU" + ("s" if v != "1" else ""))
        elif k == "group_size":
            parts.append(f"a group of {v} threads")
        elif k == "cluster_size":
            parts.append(f"a cluster of {v} block" + ("s" if v != "1" else ""))
        else:
            parts.append(f"{k}={v}")
    return ", ".join(parts)


def plain_log(axis: Any) -> None:
    """Log-scale ticks written as plain numbers (0.5, 1, 2, 5, 10, ...), not 10^n."""
    axis.set_major_locator(ticker.LogLocator(base=10, subs=(1, 2, 5)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def fmt_ns(v: float) -> str:
    """A latency in ns as text with its unit: 0.714 ns, 58.4 ns, 1.49 µs, 13.2 µs."""
    return f"{v / 1000:.3g} µs" if v >= 1000 else f"{v:.3g} ns"


def legend_handles(groups: list[str], color: dict[str, Any]) -> list:
    return [mpatches.Patch(color=color[g], label=g) for g in groups]


def _unit(values_ns: Iterable[float]) -> tuple[float, str]:
    """(divisor, unit) that keeps the typical value readable."""
    vals = sorted(v for v in values_ns if v > 0)
    if vals and vals[len(vals) // 2] >= 2000:
        return 1000.0, "µs"
    return 1.0, "ns"


def _method_key(r: MutableMapping[str, Any]) -> str:
    return r["method"]


def comparison_table(rows: list, groups: list[str]) -> list:
    """[(level, method, config, {group: row})] at each method's representative configuration."""
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    level = {}
    for r in rows:
        by[_method_key(r)][r["_group"]].append(r)
        level[_method_key(r)] = r["level"]
    table = []
    for m in by:
        pick, cfg = representative(by[m])
        table.append((level[m], m, cfg, pick))
    table.sort(
        key=lambda t: (
            gbcsv.LEVELS.index(t[0]) if t[0] in gbcsv.LEVELS else len(gbcsv.LEVELS),
            t[1],
        )
    )
    return table


def _wrap_label(label: str, width: int = 34) -> str:
    """Breaks a machine label at ' · ' so that legends stay narrow."""
    out, line = [], ""
    for part in label.split(" · "):
        if line and len(line) + 3 + len(part) > width:
            out.append(line)
            line = part
        else:
            line = f"{line} · {part}" if line else part
    out.append(line)
    return "\n".join(out)


def _column_label(label: str) -> str:
    """(system ·) GPU model / topology class · GPUs / the rest, one line each."""
    parts = label.split(" · ")
    n = next((i for i, p in enumerate(parts) if re.fullmatch(r"\d+ GPUs?", p)), None)
    if n is None or n < 2:
        return _wrap_label(label, 22)
    lines = [
        " · ".join(parts[: n - 1]),
        " · ".join(parts[n - 1 : n + 1]),
        " · ".join(parts[n + 1 :]),
    ]
    return "\n".join(x for x in lines if x)


def bars(table: list, groups: list[str], out: str, save: Callable, prefix: str) -> list:
    """One facet per level: horizontal grouped bars, error bars ±1 stddev."""
    levels = [lv for lv in gbcsv.LEVELS if any(t[0] == lv for t in table)]
    levels += sorted({t[0] for t in table} - set(levels))
    if not levels:
        return []
    heights = [
        sum(1 for t in table if t[0] == lv) * (0.18 * len(groups) + 0.25) + 0.9 for lv in levels
    ]
    fig, axs = plt.subplots(
        len(levels),
        1,
        figsize=(9, sum(heights) + 1.4),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    color = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(groups)}
    bar_h = 0.8 / len(groups)
    for ax, lv in zip(axs[:, 0], levels):
        entries = [t for t in table if t[0] == lv]
        vals = [float(r["value"]) for t in entries for r in t[3].values()]
        div, unit = _unit(vals)
        for gi, g in enumerate(groups):
            ys, xs, errs = [], [], []
            for mi, (_, _m, _cfg, pick) in enumerate(entries):
                if g in pick:
                    r = pick[g]
                    ys.append(mi + (gi - (len(groups) - 1) / 2) * bar_h)
                    xs.append(float(r["value"]) / div)
                    errs.append(_num(r["stddev"] or "0") / div)
            errs = [0 if math.isinf(e) else e for e in errs]
            ax.barh(
                ys,
                xs,
                height=bar_h * 0.92,
                color=color[g],
                label=_wrap_label(g, 60),
                xerr=errs,
                error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "0.25"},
            )
        labels = []
        configs = {describe(t[2], lv) for t in entries}
        for _, m, cfg, _ in entries:
            labels.append(m if len(configs) == 1 else f"{m}\n{describe(cfg, lv)}")
        ax.set_yticks(range(len(entries)), labels, fontsize=8 if len(configs) == 1 else 7)
        ax.set_ylim(len(entries) - 0.5, -0.5)
        positive = [v / div for v in vals if v > 0]
        if positive and max(positive) / min(positive) > 30:
            ax.set_xscale("log")
            plain_log(ax.xaxis)
            scale = ", log scale"
        else:
            scale = ""
            ax.set_xlim(left=0)
        ax.grid(True, axis="x", which="major", alpha=0.3)
        ax.set_xlabel(f"latency ({unit}{scale}); error bars ±1 stddev of the samples", fontsize=8)
        title = f"{lv} level"
        if len(configs) == 1 and configs != {""}:
            title += f" at {configs.pop()}"
        ax.set_title(title, fontsize=10, loc="left", fontweight="bold")
    top = 0.35 + 0.2 * len(groups)
    fig.legend(
        handles=legend_handles(groups, color),
        fontsize=8,
        loc="upper left",
        bbox_to_anchor=(0.01, 1 - 0.05 / fig.get_figheight()),
        frameon=False,
        title="(system ·) GPU model · topology class · GPUs used (· launch mode)",
        title_fontsize=8,
        alignment="left",
    )
    fig.text(
        0.01,
        0.005,
        "Each method at one configuration measured by every machine; " + DEFAULT_NOTE + ".",
        fontsize=7,
        color="0.3",
    )
    fig.tight_layout(rect=(0, 0.015, 1, 1 - top / fig.get_figheight()))
    return save(fig, out, f"{prefix}compare-bars")


def ratio_heatmap(
    table: list, groups: list[str], baseline: str | None, out: str, save: Callable, prefix: str
) -> list:
    """Method x machine: latency / baseline latency, diverging colours centred at 1."""
    entries = [t for t in table if baseline in t[3] and len(t[3]) > 1]
    if not entries:
        return []
    grid = [
        [
            float(t[3][g]["value"]) / float(t[3][baseline]["value"])
            if g in t[3] and float(t[3][baseline]["value"]) > 0
            else math.nan
            for g in groups
        ]
        for t in entries
    ]
    finite = [v for row in grid for v in row if v == v and v > 0]
    # Colours saturate at 2x (or the largest ratio): small differences stay pale.
    span = max([max(v, 1 / v) for v in finite] + [2.0])
    norm = mcolors.LogNorm(vmin=1 / span, vmax=span)
    w = max(6.5, 2.0 + 1.9 * len(groups))
    fig, ax = plt.subplots(figsize=(w, 0.36 * len(entries) + 2.6))
    cmap = plt.get_cmap("RdBu_r").copy()
    cmap.set_bad("0.85")
    masked = [[v if v == v else math.nan for v in row] for row in grid]
    im = ax.imshow(masked, cmap=cmap, norm=norm, aspect="auto")
    for i, (_lv, _m, _cfg, pick) in enumerate(entries):
        for j, g in enumerate(groups):
            v = grid[i][j]
            if g == baseline:
                text = fmt_ns(float(pick[g]["value"]))
            elif v != v:
                text = "n/a"
            else:
                text = f"{v:.2f}×"
            dark = v == v and abs(math.log(v)) > 0.6 * math.log(span)
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=8,
                color="white" if dark else "black",
                fontweight="bold" if g == baseline else "normal",
            )
    ax.set_xticks(
        range(len(groups)),
        [_column_label(g) + ("\n(baseline)" if g == baseline else "") for g in groups],
        fontsize=8,
    )
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(entries)), [f"{m}  [{lv}]" for lv, m, _, _ in entries], fontsize=8)
    ax.tick_params(length=0)
    cb = fig.colorbar(im, ax=ax, shrink=0.8, pad=0.02)
    cb.set_label("latency ÷ baseline (log scale)\nred: slower, blue: faster", fontsize=8)
    ticks = [t for t in (0.1, 0.25, 0.5, 0.8, 0.9, 1, 1.1, 1.25, 2, 4, 10) if 1 / span <= t <= span]
    cb.set_ticks(ticks, labels=[f"{t:g}×" for t in ticks])
    cb.ax.tick_params(labelsize=8)
    cb.ax.minorticks_off()
    ax.set_xlabel(
        "bold: the baseline's latency; other cells: latency ÷ baseline (grey n/a: not "
        "measured there)\neach method at one configuration every machine measured "
        "(as in compare-bars)",
        fontsize=8,
    )
    fig.tight_layout()
    return save(fig, out, f"{prefix}compare-ratio")


def scaling(rows: list, groups: list[str], out: str, save: Callable, prefix: str) -> list:
    """Latency against GPU count per multi-GPU method, one line per machine (Figs. 5 and 11)."""
    multi = [
        r
        for r in rows
        if r["level"] in ("multi-gpu", "kernel", "multi-node")
        and r["gpu_count"].isdigit()
        and int(r["gpu_count"]) > 0
    ]
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in multi:
        by[r["method"]][r["_group"]].append(r)
    facets = []
    for m in sorted(by):
        # The representative configuration of every other axis, then every GPU count.
        pick_cfg = representative(by[m], skip=("gpu_count",))[1]
        series = {}
        for g, rs in by[m].items():
            pts = {}
            for r in rs:
                a = axes(r)
                if all(a.get(k) == v for k, v in pick_cfg.items()):
                    n = int(r["gpu_count"])
                    if n not in pts or _num(r["stddev"] or "inf") < _num(pts[n]["stddev"] or "inf"):
                        pts[n] = r
            if pts:
                series[g] = pts
        # A comparison: at least two machines measured this method at two or more GPU counts.
        if sum(len(p) > 1 for p in series.values()) >= 2:
            facets.append((m, pick_cfg, series))
    if not facets:
        return []
    ncol = min(3, len(facets))
    nrow = math.ceil(len(facets) / ncol)
    fig, axs = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.1 * nrow + 1.2), squeeze=False)
    color = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(groups)}
    allx = sorted({n for _, _, s in facets for p in s.values() for n in p})
    for k, (m, cfg, series) in enumerate(facets):
        ax = axs[k // ncol][k % ncol]
        vals = [float(r["value"]) for p in series.values() for r in p.values()]
        div, unit = _unit(vals)
        present = [g for g in groups if g in series]
        for gi, g in enumerate(present):
            # Machines side by side at each GPU count, so that equal figures stay visible.
            dodge = (gi - (len(present) - 1) / 2) * 0.07
            xs = sorted(series[g])
            ys = [float(series[g][x]["value"]) / div for x in xs]
            sd = [_num(series[g][x]["stddev"] or "0") / div for x in xs]
            sd = [0 if math.isinf(e) else e for e in sd]
            # The lower whisker stops at zero: a latency is never negative.
            ax.errorbar(
                [x + dodge for x in xs],
                ys,
                yerr=[[min(e, y) for e, y in zip(sd, ys)], sd],
                marker="o",
                markersize=4,
                capsize=2,
                color=color[g],
                linestyle="--" if "mpi ranks" in g else "-",
                label=g,
            )
        positive = [v / div for v in vals if v > 0]
        if positive and max(positive) / min(positive) > 30:
            ax.set_yscale("log")
            plain_log(ax.yaxis)
        else:
            # linear: from zero, so that slopes are not exaggerated
            ax.set_ylim(0, ax.get_ylim()[1] * 1.06)
        ax.set_xticks(allx)
        ax.set_xlim(allx[0] - 0.25, allx[-1] + 0.25)
        ax.grid(True, which="major", alpha=0.3)
        ax.set_title(m, fontsize=9)
        other = describe({k2: v for k2, v in cfg.items() if k2 != "gpu_count"})
        ax.set_xlabel("GPUs" + (f"   ({other})" if other else ""), fontsize=7)
        ax.set_ylabel(f"latency ({unit})", fontsize=8)
        ax.tick_params(labelsize=7)
    for k in range(len(facets), nrow * ncol):
        axs[k // ncol][k % ncol].axis("off")
    present = [g for g in groups if any(g in s for _, _, s in facets)]
    handles = [
        plt.Line2D(
            [], [], color=color[g], marker="o", linestyle="--" if "mpi ranks" in g else "-", label=g
        )
        for g in present
    ]
    height = fig.get_figheight()
    fig.suptitle(
        "Latency per barrier against GPU count, one line per machine (points side by side "
        "at each count); error bars ±1 stddev of the samples;\n" + DEFAULT_NOTE,
        fontsize=9,
        y=1 - 0.08 / height,
        va="top",
    )
    ncol = min(len(handles), 3)
    fig.legend(
        handles=handles,
        loc="upper center",
        ncol=ncol,
        fontsize=8,
        frameon=False,
        bbox_to_anchor=(0.5, 1 - 0.5 / height),
    )
    fig.tight_layout(rect=(0, 0, 1, 1 - (0.6 + 0.2 * math.ceil(len(handles) / ncol)) / height))
    return save(fig, out, f"{prefix}compare-scaling")


def resolve_baseline(groups: list[str], rows: list, baseline: str | None) -> str:
    if baseline is None:
        return groups[0]
    if baseline in groups:
        return baseline
    hits = [g for g in groups if baseline.lower() in g.lower()]
    if not hits:
        hits = sorted(
            {r["_group"] for r in rows if os.path.abspath(r["_file"]) == os.path.abspath(baseline)}
        )
    if len(hits) == 1:
        return hits[0]
    raise ValueError(
        f"--baseline {baseline!r} names {'several' if hits else 'none'} of the "
        f"machines: " + "; ".join(groups)
    )


def compare_all(
    rows: list,
    groups: list[str],
    out: str,
    save: Callable,
    baseline: str | None = None,
    prefix: str = "",
) -> list:
    """Draws the comparison plots; returns [baseline label, paths...]."""
    base = resolve_baseline(groups, rows, baseline)
    table = comparison_table(rows, groups)
    paths = bars(table, groups, out, save, prefix)
    paths += ratio_heatmap(table, groups, base, out, save, prefix)
    paths += scaling(rows, groups, out, save, prefix)
    return [base] + paths

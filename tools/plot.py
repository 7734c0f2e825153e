#!/usr/bin/env python3
"""Plots gpubarrier CSVs (results/SCHEMA.md): one PNG per method plus a summary.

  tools/plot.py results/h200/*.csv --out plots/

- methods swept over blocks_per_sm x threads_per_block: a heat map of the latency (the study's
  Fig. 8 layout), one per GPU model;
- other methods: latency against their first swept axis, error bars = stddev, one line per GPU
  model / launcher / GPU count and per value of the other swept axes;
- summary.png: the best (lowest) latency of every method, log scale, to compare levels;
- scaling.png, when the rows hold several GPU counts: each multi-GPU method's latency against
  the GPU count at 1 block/SM x 128 threads and its default variant (ordering, blocking and
  host_wait 0), solid lines for threads mode, dashed for mpi.
- selfcheck.png, when the rows hold `gpubarrier selfcheck` figures: the loop kernel's deviation
  of the differential from the clock technique against the repeat difference, error bars = the
  combined standard error, the tolerance shaded, disagreements marked.
Only rows with status ok and metric latency (unit ns) are plotted, plus the selfcheck rows.
"""
import argparse
import collections
import csv
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r.get("status") == "ok" and r.get("metric") == "latency" and r.get("unit") == "ns":
                    rows.append(r)
    return rows


def axes_of(rows):
    """Axis names whose value varies within these rows."""
    names = collections.OrderedDict()
    for r in rows:
        for item in r["config"].split():
            k, v = item.split("=")
            names.setdefault(k, set()).add(v)
    return [k for k, vs in names.items() if len(vs) > 1]


def config_value(r, axis):
    for item in r["config"].split():
        k, v = item.split("=")
        if k == axis:
            return int(v)
    return None


def series_key(r):
    return f'{r["gpu_model"] or r["host"]} {r["launcher"]} x{r["gpu_count"]}'


def heatmap(method, rows, out):
    for model in sorted({r["gpu_model"] for r in rows}):
        sub = [r for r in rows if r["gpu_model"] == model and r["gpu_ids"] in ("0", "")]
        bps = sorted({int(r["blocks_per_sm"]) for r in sub})
        tpb = sorted({int(r["threads_per_block"]) for r in sub})
        grid = [[float("nan")] * len(tpb) for _ in bps]
        for r in sub:
            grid[bps.index(int(r["blocks_per_sm"]))][tpb.index(int(r["threads_per_block"]))] = (
                float(r["value"]) / 1000)
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
        fig.colorbar(im, label="latency (us)")
        ax.set_title(f"{method} on {model}")
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"{method}-{model.replace(' ', '_')}-heatmap.png"), dpi=110)
        plt.close(fig)


def lines(method, rows, axis, others, out):
    """One line per machine and per value of the other varying axes."""
    fig, ax = plt.subplots(figsize=(6, 4))
    by = collections.defaultdict(list)
    for r in rows:
        if config_value(r, axis) is not None:
            rest = " ".join(f"{o}={config_value(r, o)}" for o in others)
            by[f"{series_key(r)} {rest}".strip()].append(r)
    for key, rs in sorted(by.items()):
        rs.sort(key=lambda r: config_value(r, axis))
        ax.errorbar([config_value(r, axis) for r in rs], [float(r["value"]) for r in rs],
                    yerr=[float(r["stddev"] or 0) for r in rs], marker="o", capsize=3, label=key)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(axis)
    ax.set_ylabel("latency (ns)")
    ax.set_title(method)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"{method}.png"), dpi=110)
    plt.close(fig)


def summary(rows, out):
    best = {}
    for r in rows:
        v = float(r["value"])
        if r["method"] not in best or v < best[r["method"]]:
            best[r["method"]] = v
    names = sorted(best, key=best.get)
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(names) + 1.2))
    ax.barh(names, [best[n] for n in names])
    ax.set_xscale("log")
    ax.set_xlabel("best latency over all configurations (ns, log scale)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "summary.png"), dpi=110)
    plt.close(fig)


def scaling(rows, out):
    """Latency against GPU count, one line per method and launch mode; False if not applicable."""
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
        series[(r["method"], mode)][int(r["gpu_count"])] = float(r["value"]) / 1000
    if len({n for pts in series.values() for n in pts}) < 2:
        return False
    fig, ax = plt.subplots(figsize=(11, 5.5))
    methods = sorted({m for m, _ in series})
    palette = plt.get_cmap("tab20")
    colors = {m: palette((2 * i) % 20 + (2 * i // 20) % 2) for i, m in enumerate(methods)}  # dark first
    for (method, mode), pts in sorted(series.items()):
        color = colors[method]
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], marker="o", color=color, linestyle="-" if mode == "threads" else "--",
                label=f"{method} ({mode})")
    ax.set_xlabel("GPUs")
    ax.set_ylabel("latency per barrier (us), 1 block/SM x 128 threads")
    ax.set_yscale("log")
    ax.set_xticks(sorted({n for pts in series.values() for n in pts}))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "scaling.png"), dpi=110)
    plt.close(fig)
    return True


def load_selfcheck(paths):
    """{(gpu_model or host, run_id, base_trips): {repeat_difference: {technique: row}}} of the
    loop kernel's figures (selfcheck.fadd.loop, metric cycles_per_add)."""
    runs = collections.OrderedDict()
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if (r.get("status") != "ok" or r.get("method") != "selfcheck.fadd.loop"
                        or r.get("metric") != "cycles_per_add"):
                    continue
                c = dict(item.split("=") for item in r["config"].split())
                key = (r["gpu_model"] or r["host"], r["run_id"], c["base_trips"])
                runs.setdefault(key, {}).setdefault(int(c["repeat_difference"]), {})[
                    r["technique"]] = r
    return runs


def selfcheck(runs, out):
    """Deviation of the differential from the clock figure against the repeat difference."""
    def se(r):
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
    for tol in tolerances:
        ax.axhspan(-tol, tol, color="0.9", zorder=0)
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
    fig.savefig(os.path.join(out, "selfcheck.png"), dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("csv", nargs="+", help="gpubarrier CSV files")
    ap.add_argument("--out", default="plots", help="output folder (default: plots)")
    args = ap.parse_args()
    rows = load(args.csv)
    checks = load_selfcheck(args.csv)
    if not rows and not checks:
        sys.exit("plot.py: no ok latency rows (nor selfcheck rows) in " + ", ".join(args.csv))
    os.makedirs(args.out, exist_ok=True)
    if checks:
        selfcheck(checks, args.out)
    by_method = collections.defaultdict(list)
    for r in rows:
        by_method[r["method"]].append(r)
    for method, rs in sorted(by_method.items()):
        varying = axes_of(rs)
        if set(varying) == {"blocks_per_sm", "threads_per_block"}:
            heatmap(method, rs, args.out)
        elif varying:
            lines(method, rs, varying[0], varying[1:], args.out)
    if rows:
        summary(rows, args.out)
        scaling(rows, args.out)
    print(f"plot.py: {len(rows)} rows, {len(by_method)} methods"
          f"{', selfcheck' if checks else ''} -> {args.out}/")


if __name__ == "__main__":
    main()

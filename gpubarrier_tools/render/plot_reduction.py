"""The reduction plot (the study's Fig. 15): GB/s against the array size per reduction
method, the read ceiling of the same rows (model.gmem.stream grid=1: the resident grid streaming
a read, as a reduction does) as a horizontal line, the copy (read + write, for reference, no
ceiling for a sum that only reads), and the switch points that cli/model.py predicts from the
same rows as vertical lines. cli/plot.py draws it when its
inputs hold `reduction.*` bandwidth rows: reduction-<GPU model>.png, one per GPU model.

Left panel (where the rows have it): reduction.block by threads_per_block with the in-block
predictions (1 thread vs 1 warp, 32 vs 1024 threads). Right panel: the device-wide reductions
(reduction.single.*, reduction.multi.*, one line per value of their other axes) and reduction.copy,
with the predictions for 1 block vs the grid and 1 GPU vs N GPUs. A point is the median over the
rows of one method, configuration and size (several GPUs of one machine, repeats).
"""

from __future__ import annotations

import collections
import statistics
from collections.abc import Callable
from typing import Any

import matplotlib.pyplot as plt

from ..data import gbcsv
from .plot_compare import safe

COPY = "reduction.copy"
READ = "model.gmem.stream"  # grid=1 bandwidth: the read ceiling
IN_BLOCK = "reduction.block"


def read_ceiling(rows: list) -> float | None:
    """The median model.gmem.stream grid=1 bandwidth (GB/s) of the rows, or None."""
    got = [
        float(r["value"])
        for r in rows
        if r["method"] == READ
        and r["metric"] == "bandwidth"
        and gbcsv.config_axes(r).get("grid") == "1"
    ]
    return statistics.median(got) if got else None


def curves(rows: list) -> dict:
    """{(method, other axes): {bytes: median GB/s}} of the reduction bandwidth rows."""
    points = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        axes = gbcsv.config_axes(r)
        if (
            not r["method"].startswith("reduction.")
            or r["metric"] != "bandwidth"
            or "bytes" not in axes
        ):
            continue
        rest = " ".join(f"{k}={v}" for k, v in sorted(axes.items()) if k != "bytes")
        if r["gpu_count"] not in ("", "1"):
            rest = f"{rest} gpu_count={r['gpu_count']}".strip()
        points[(r["method"], rest)][int(axes["bytes"])].append(float(r["value"]))
    return {k: {s: statistics.median(v) for s, v in pts.items()} for k, pts in points.items()}


def switch_lines(ax: Any, preds: list[dict[str, Any]]) -> None:
    colors = plt.get_cmap("Dark2")
    for i, p in enumerate(preds):
        ax.axvline(
            p["n"],
            color=colors(i % 8),
            linestyle=":",
            linewidth=1.2,
            label=f"predicted: {p['prediction']} ({p['n']:.3g} B)",
        )


def draw(
    ax: Any, series: dict, preds: list[dict[str, Any]], title: str, ceiling: float | None = None
) -> None:
    for (method, rest), pts in sorted(series.items(), key=lambda kv: kv[0][0] == COPY):
        xs = sorted(pts)
        label = f"{method.removeprefix('reduction.')} {rest}".strip()
        if method == COPY:
            ax.plot(
                xs,
                [pts[x] for x in xs],
                color="grey",
                linestyle="--",
                linewidth=1.2,
                label="copy (read + write, no read ceiling)",
            )
        else:
            ax.plot(xs, [pts[x] for x in xs], marker="o", markersize=3, label=label)
    if ceiling is not None:
        ax.axhline(
            ceiling,
            color="black",
            linestyle="-.",
            linewidth=1.5,
            label=f"read ceiling: {READ} grid=1 ({ceiling:.0f} GB/s)",
        )
    switch_lines(ax, preds)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("array size (bytes, doubles)")
    ax.set_ylabel("GB/s")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=6, loc="upper left")


def reduction(ok_rows: list, out: str, save: Callable, predictions: Callable) -> list:
    """Writes reduction-<GPU model>.* for every GPU model with reduction bandwidth rows, the
    switch points `predictions(rows)` gives (analysis/model_predictions.py predictions) drawn;
    returns the stems written."""
    stems = []
    for gpu in sorted({r["gpu_model"] for r in ok_rows if r["gpu_model"]}):
        mine = [r for r in ok_rows if r["gpu_model"] in (gpu, "")]
        series = curves(mine)
        if not series:
            continue
        preds = [p for p in predictions(mine) if p.get("n")]
        panels = [
            (
                f"{IN_BLOCK}: one block",
                {k: v for k, v in series.items() if k[0] == IN_BLOCK},
                [p for p in preds if p["units"] == "B, cycles"],
            ),
            (
                "device-wide reductions",
                {k: v for k, v in series.items() if k[0] != IN_BLOCK},
                [p for p in preds if p["units"] != "B, cycles"],
            ),
        ]
        panels = [p for p in panels if p[1]]
        fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 5), squeeze=False)
        ceiling = read_ceiling(mine)
        for ax, (title, sub, lines) in zip(axes[0], panels):
            draw(
                ax,
                sub,
                lines,
                f"{title} on {gpu}",
                ceiling if title == "device-wide reductions" else None,
            )
        fig.tight_layout()
        stem = f"reduction-{safe(gpu)}"
        save(fig, out, stem)
        stems.append(stem)
    return stems

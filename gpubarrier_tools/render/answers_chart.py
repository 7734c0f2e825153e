"""One machine's chart on the HTML page (cli/html_report.py): its multi-GPU device barriers'
latency against the GPU count, one line per method and the composed floor dashed, or, where the
rows span one GPU count, the answers table as bars (render/answers_bars.py). Drawn from what
analysis/answers.py computes (the answers, the chart's points, the floor line)."""

from __future__ import annotations

import io
from typing import Any

from . import answers_bars


def chart_png(chart: dict[str, Any], title: str = "") -> bytes | None:
    """PNG bytes of the machine's chart (analysis/answers.py chart): latency against GPU count
    (one line per method, the floor dashed) or the answers as bars; None where its kind is None.
    Needs matplotlib."""
    kind = chart["kind"]
    if kind == "bars":
        return answers_bars.png(chart["bars"], chart["bar_floors"], chart["floor_label"], title)
    if kind is None:
        return None
    lines, floor = chart["lines"], chart["floor"]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 5), dpi=90)
    cmap = plt.get_cmap("tab20")
    for i, (label, pts) in enumerate(sorted(lines.items())):
        xs = sorted(pts)
        ax.plot(
            xs,
            [pts[x] / 1000 for x in xs],
            marker="o",
            ms=4,
            lw=1.3,
            color=cmap(i % 20),
            ls="-" if "[mpi]" not in label else ":",
            label=label,
        )
    if floor:
        xs = sorted(floor)
        ax.plot(
            xs,
            [floor[x] / 1000 for x in xs],
            "k--",
            lw=2,
            marker="s",
            ms=5,
            label=chart["floor_label"],
        )
    counts = sorted({x for pts in lines.values() for x in pts} | set(floor))
    ax.set_xticks(counts)
    ax.set_yscale("log")
    from matplotlib.ticker import FuncFormatter

    plain = FuncFormatter(lambda v, _: f"{v:g}")
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.set_xlabel("GPUs")
    ax.set_ylabel("latency (µs), best verified configuration")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()

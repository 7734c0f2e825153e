"""The answers table of one machine as bars, for rows that a line against the GPU count cannot
show (one GPU count, a single-GPU or a host-only run): one bar per method and group (level and
GPU count, as the table has them), each the method's figure in the table, fastest first; the
composed floor of a multi-GPU device-side group as a dashed line across its bars; a method that
is not verified hatched, a noisy one with a dotted edge. render/answers_chart.py's chart_png draws
it."""

from __future__ import annotations

import io


def png(parts: list, floors: dict[int, float], floor_label: str, title: str = "") -> bytes:
    """PNG bytes of the bars of `parts` (analysis/answers.py bar_groups: [(group name, level,
    gpus, [(method label, ns, verified, noisy, the figure as text)])]); floors: {gpu count:
    composed floor ns} of the multi-GPU device-side group. Needs matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    n_bars = sum(len(bars) for *_, bars in parts)
    fig, ax = plt.subplots(figsize=(11, 0.28 * n_bars + 0.4 * len(parts) + 1.4), dpi=90)
    cmap = plt.get_cmap("tab10")
    y: float  # a bar's row: whole rows, then a gap of 0.6 after each group
    ticks: list[float]
    y, ticks, labels, handles, lowest, highest = 0, [], [], [], float("inf"), 0.0
    for i, (name, level, gpus, bars) in enumerate(parts):
        color = cmap(i % 10)
        top = y
        for label, v, ok, nz, text in bars:
            ax.barh(
                y,
                v,
                color=color if ok else "white",
                edgecolor=color,
                lw=1.2,
                hatch=None if ok else "///",
                ls=":" if nz else "-",
            )
            ax.text(v, y, " " + text, va="center", fontsize=7)
            ticks.append(y)
            labels.append(label)
            lowest, highest = min(lowest, v), max(highest, v)
            y += 1
        if level == "multi-gpu" and floors.get(gpus):
            ax.vlines(floors[gpus], top - 0.5, y - 0.5, colors="k", linestyles="--", lw=1.6)
        handles.append(Patch(color=color, label=name))
        y += 0.6
    if any(f for f in floors.values()) and any(p[1] == "multi-gpu" for p in parts):
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], color="k", ls="--", label=floor_label))
    if any(not ok for *_, bars in parts for _, _, ok, _, _ in bars):
        handles.append(
            Patch(
                facecolor="white",
                edgecolor="0.3",
                hatch="///",
                label="not verified (status ok, no barrier check ran)",
            )
        )
    if any(nz for *_, bars in parts for _, _, _, nz, _ in bars):
        handles.append(Patch(facecolor="white", edgecolor="0.3", ls=":", label="noisy"))
    ax.set_yticks(ticks, labels, fontsize=8)
    ax.invert_yaxis()
    if highest > 20 * lowest:
        from matplotlib.ticker import FuncFormatter

        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xlim(right=highest * (3 if highest > 20 * lowest else 1.15))
    ax.set_xlabel("latency (ns), each method's figure in the answers table")
    ax.set_title(title, fontsize=9)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.legend(
        handles=handles, fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False
    )
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()

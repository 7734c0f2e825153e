"""The Eq. 6 plot (the study's section 9.2): the launch overhead that Eq. 6 gives against the
length of the shorter of the two kernels it compares (min(fusion_i, fusion_j) x unit_ns), one
line per GPU (UUID) and launch, error bars the 95% interval. cli/plot.py draws it when its
inputs hold kernel.fusion launch_overhead rows at two or more lengths: eq6-length.png.

The points (analysis/findings_eq6.py length_points) are the ok rows and the zeros
(findings_rules.zero_row: an interval that includes zero
and is narrower than the overhead it would resolve, "no overhead left"); a wider interval is
unresolved and not drawn. Near zero the launch is hidden behind the running kernel.
"""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt

STEM = "eq6-length"


def eq6_length(pts: dict, settled_ns: float, out: str, save: Callable) -> bool:
    """Draws eq6-length into `out` with plot.py's `save` from `pts` (analysis/findings_eq6.py
    length_points), the study's settled length `settled_ns` dashed; False when there is nothing
    to draw."""
    if not pts:
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    for (model, uuid, launch), ps in sorted(pts.items()):
        xs = [p[0] for p in ps]
        ys = [p[1] for p in ps]
        err = [[p[1] - p[2] for p in ps], [p[3] - p[1] for p in ps]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"{model} {uuid} {launch}")
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.axvline(settled_ns / 1000, color="0.7", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("shorter kernel's length (µs); dashed: the study's 5 µs")
    ax.set_ylabel("launch overhead by Eq. 6 (ns)")
    ax.set_title("Eq. 6 against the kernel length (95% intervals)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, STEM)
    return True

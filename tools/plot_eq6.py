"""The Eq. 6 plot (the study's section 9.2): the launch overhead that Eq. 6 gives against the
length of the shorter of the two kernels it compares (min(fusion_i, fusion_j) x unit_ns), one
line per GPU (UUID) and launch, error bars the 95% interval. tools/plot.py draws it when its
inputs hold kernel.fusion launch_overhead rows at two or more lengths: eq6-length.png.

The points are the ok rows and the zeros (findings_rules.zero_row: an interval that includes zero
and is narrower than the overhead it would resolve, "no overhead left"); a wider interval is
unresolved and not drawn. Near zero the launch is hidden behind the running kernel.
"""
import collections

import matplotlib.pyplot as plt

from . import bounds
from . import findings_eq6
from . import findings_rules
from . import gbcsv

STEM = "eq6-length"


def points(paths):
    """{(GPU model, UUID, launch): [(length µs, value ns, lo, hi)]} of the Eq. 6 rows."""
    rows = gbcsv.load(paths, statuses={"ok", "unverified"})
    out = collections.defaultdict(dict)
    for r in rows:
        if r["method"] != "kernel.fusion" or r["metric"] != "launch_overhead":
            continue
        if r["status"] != "ok" and not findings_rules.zero_row(r):
            continue
        n = findings_eq6.length_ns(r)
        if n is None:
            continue
        value = float(r["value"])
        ci = bounds.interval95(value, float(r["stddev"] or "nan"), float(r["samples"] or 0))
        lo, hi = ci if ci else (value, value)
        launch = gbcsv.config_names(r).get("launch", "triple-chevron")
        key = (r["gpu_model"], (r.get("gpu_uuids") or "?")[:12], launch)
        out[key][n] = (n / 1000, value, lo, hi)
    return {k: [v[n] for n in sorted(v)] for k, v in out.items() if len(v) >= 2}


def eq6_length(paths, out, save):
    """Draws eq6-length into `out` with plot.py's `save`; False when there is nothing to draw."""
    pts = points(paths)
    if not pts:
        return False
    fig, ax = plt.subplots(figsize=(6, 4))
    for (model, uuid, launch), ps in sorted(pts.items()):
        xs = [p[0] for p in ps]
        ys = [p[1] for p in ps]
        err = [[p[1] - p[2] for p in ps], [p[3] - p[1] for p in ps]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3,
                    label=f"{model} {uuid} {launch}")
    ax.axhline(0, color="0.5", linewidth=0.8)
    ax.axvline(findings_eq6.SETTLED_NS / 1000, color="0.7", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("shorter kernel's length (µs); dashed: the study's 5 µs")
    ax.set_ylabel("launch overhead by Eq. 6 (ns)")
    ax.set_title("Eq. 6 against the kernel length (95% intervals)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, STEM)
    return True

"""report repeats and report series: repeated runs, before/after repeats of two builds and
labelled series (the A/B tables)."""

from __future__ import annotations

import glob
import statistics
from collections.abc import Sequence

from ...data.tables import Table
from .common import load, option


def run_values(paths: Sequence[str]) -> dict:
    out = {}
    for r in load(paths):
        key = (r["method"], r["config"].replace(" fault=0", ""), r["metric"])
        out.setdefault(key, []).append(float(r["value"]))
    return out


def repeats(argv: Sequence[str]) -> list[Table | str]:
    """Every run's value of two builds side by side, and the change of the means: the table
    (data/tables.py)."""
    if "--before" not in argv or "--after" not in argv:
        raise ValueError("repeats: --before B.csv ... --after A.csv ...")
    i, j = argv.index("--before"), argv.index("--after")
    b_paths = argv[i + 1 : j] if i < j else argv[i + 1 :]
    a_paths = argv[j + 1 :] if i < j else argv[j + 1 : i]
    before, after = run_values(b_paths), run_values(a_paths)
    rows = []
    for key in sorted(before.keys() & after.keys()):
        b, a = before[key], after[key]
        change = (statistics.mean(a) - statistics.mean(b)) / statistics.mean(b) * 100
        rows.append(
            [
                key[0],
                key[1],
                " / ".join(f"{x:.0f}" for x in b),
                " / ".join(f"{x:.0f}" for x in a),
                f"{change:+.1f}%",
            ]
        )
    return [
        Table(
            [
                "method",
                "config",
                f"before ({len(b_paths)} runs)",
                f"after ({len(a_paths)} runs)",
                "change",
            ],
            rows,
        )
    ]


def series(argv: list[str]) -> list[Table | str]:
    """The mean of every labelled series of runs, optionally relative to one of them: the table
    (data/tables.py)."""
    rel = option(argv, "--relative-to")
    series_ = []
    for s in argv:
        label, sep, files = s.partition("=")
        if not sep:
            raise ValueError(f"series: '{s}': expected LABEL=FILE.csv[,FILE.csv...]")
        paths = []
        for p in files.split(","):
            paths += sorted(glob.glob(p)) if "*" in p else [p]
        series_.append((label, paths))
    if not series_:
        raise ValueError("series: LABEL=FILE.csv[,FILE.csv...] ... [--relative-to LABEL]")
    means = {
        label: {k: statistics.mean(v) for k, v in run_values(files).items()}
        for label, files in series_
    }
    labels = [label for label, _ in series_]
    if rel and rel not in labels:
        raise ValueError(f"series: --relative-to {rel}: no such series ({labels})")
    keys = sorted(set.intersection(*(set(m) for m in means.values())))
    rows = []
    for key in keys:
        ref = means[rel][key] if rel else None
        cells = []
        for label in labels:
            v = means[label][key]
            cell = f"{v:.0f}"
            if ref is not None and label != rel:
                cell += f" ({(v - ref) / ref * 100:+.1f}%)"
            cells.append(cell)
        rows.append([key[0], key[1], *cells])
    return [Table(["method", "config", *labels], rows)]

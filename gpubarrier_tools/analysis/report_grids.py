"""Two tables of cli/report.py for sweeps over shapes and repeated rows:

heatmap CSV... --method M [--metric latency] [--scale 1e-3]
    one line per (GPU count, launcher, blocks/SM), one column per threads/block: the study's
    heat maps (the study's Figs. 8-9, the workshop version's Table 9). A cell is the median of the ok rows of
    that point (us by default), `n/f` where every row of the point is skipped (the shape does
    not fit), `-` where the CSVs have no row.
spans CSV... [--metric M] [--scale 1e-3] [COL=V ...]
    one line per (method, config, metric, GPU count, launcher): the median and the range of
    its ok rows, and how many (a point run on each GPU in turn, or in several runs). V may
    be a pattern (method=reduction.multi.*).
"""

from __future__ import annotations

import collections
import fnmatch
import statistics
from collections.abc import Callable, MutableMapping
from typing import Any

from ..data import gbcsv
from ..data.tables import Table

cfg = gbcsv.config_axes
SHAPE_AXES = ("blocks_per_sm", "threads_per_block")


def _fmt(v: float) -> str:
    return f"{v:.3g}" if abs(v) < 100 else f"{v:.0f}"


def _filters(argv: list[str]) -> dict:
    """COL=V arguments out of argv (the rest are CSV paths)."""
    want = {}
    for a in list(argv):
        if "=" in a and not a.endswith(".csv"):
            k, v = a.split("=", 1)
            want[k] = v
            argv.remove(a)
    return want


def _launcher(r: MutableMapping[str, Any]) -> str:
    return "mpi" if r["launcher"] == "mpi" else "threads"


def heatmap(argv: list[str], load: Callable) -> list[Table | str]:
    method = gbcsv.take_option(argv, "--method")
    metric = gbcsv.take_option(argv, "--metric", "latency")
    scale = gbcsv.number_option(argv, "--scale", "1e-3")
    if not method or not argv:
        raise ValueError("heatmap: CSV... --method METHOD [--metric M] [--scale S]")
    cells = collections.defaultdict(list)  # (gpus, launcher, per_sm, threads) -> values
    skipped = set()
    threads_seen, lines = set(), set()
    for r in load(argv, statuses=("ok", "skipped")):
        c = cfg(r)
        if r["method"] != method or not all(a in c for a in SHAPE_AXES):
            continue
        if r["status"] == "ok" and r["metric"] != metric:
            continue
        key = (
            int(r["gpu_count"] or 0),
            _launcher(r),
            int(c["blocks_per_sm"]),
            int(c["threads_per_block"]),
        )
        threads_seen.add(key[3])
        lines.add(key[:3])
        if r["status"] == "ok":
            cells[key].append(float(r["value"]) * scale)
        else:
            skipped.add(key)
    if not lines:
        raise ValueError(f"heatmap: no {method} rows with blocks_per_sm and threads_per_block")
    threads = sorted(threads_seen)
    out = []
    for line in sorted(lines):
        row = [str(line[0]), line[1], str(line[2])]
        for t in threads:
            key = line + (t,)
            row.append(
                _fmt(statistics.median(cells[key]))
                if cells.get(key)
                else "n/f"
                if key in skipped
                else "-"
            )
        out.append(row)
    return [Table(["GPUs", "launcher", "blocks/SM"] + [f"{t} threads" for t in threads], out)]


def spans(argv: list[str], load: Callable) -> list[Table | str]:
    metric = gbcsv.take_option(argv, "--metric")
    scale = gbcsv.number_option(argv, "--scale", "1e-3")
    want = _filters(argv)
    if not argv:
        raise ValueError("spans: CSV... [--metric M] [--scale S] [COL=V ...]")
    # Imported here, not with the module: every report.py command imports this one, and only
    # spans groups with pandas.
    import pandas as pd

    points = []
    for r in load(argv):
        if metric and r["metric"] != metric:
            continue
        c = cfg(r)
        if not all(
            fnmatch.fnmatchcase(str(r[k] if k in r and k not in c else c.get(k)), v)
            for k, v in want.items()
        ):
            continue
        config = " ".join(f"{k}={v}" for k, v in c.items() if k not in ("gpu_count", "fault"))
        points.append(
            (
                r["method"],
                config,
                r["metric"],
                r["gpu_count"],
                _launcher(r),
                float(r["value"]) * scale,
            )
        )
    keys = ["method", "config", "metric", "gpus", "launcher"]
    frame = pd.DataFrame(points, columns=keys + ["value"])
    out = []
    # One line per point, in the order of its key (groupby sorts by it).
    for (method, config, m, gpus, launcher), v in frame.groupby(keys, sort=True)["value"]:
        lo, hi = v.min(), v.max()
        out.append(
            [
                f"`{method}`",
                config or "-",
                m,
                gpus,
                launcher,
                _fmt(v.median()),
                _fmt(lo) if _fmt(lo) == _fmt(hi) else f"{_fmt(lo)}-{_fmt(hi)}",
                str(len(v)),
            ]
        )
    return [
        Table(["method", "config", "metric", "GPUs", "launcher", "median", "range", "rows"], out)
    ]

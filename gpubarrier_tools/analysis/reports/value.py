"""One figure at a time, for inline markers of the results pages (report value, ratio, pairs,
count, runs), and report rows: the ok rows as they are. Each returns its line or its table
(data/tables.py)."""

from __future__ import annotations

import collections
import os
import statistics
from typing import Any

from ...data import gbcsv
from .common import cfg, fmt, load, matches, need, option, table, vals


def parse_spec(args: list[str]) -> tuple:
    """CSV... METHOD METRIC [COL=V ...] -> (paths, method, metric, filters)."""
    paths = [a for a in args if a.endswith(".csv")]
    rest = [a for a in args if not a.endswith(".csv")]
    plain = [a for a in rest if "=" not in a]
    if not paths or len(plain) != 2:
        raise ValueError(f"expected CSV... METHOD METRIC [COL=V ...], got {args}")
    filters = dict(a.split("=", 1) for a in rest if "=" in a)
    return paths, plain[0], plain[1], filters


def select(args: list[str]) -> list:
    paths, method, metric, filters = parse_spec(args)
    rows = [
        r
        for r in load(paths)
        if r["method"] == method and r["metric"] == metric and matches(r, **filters)
    ]
    if not rows:
        raise ValueError(f"no ok row for {method} {metric} {filters} in {paths}")
    return rows


def number(v: float, f: str | None) -> str:
    return format(v, f) if f else fmt(v)


def value(argv: list[str]) -> list[str]:
    col = option(argv, "--col", "value")
    agg = option(argv, "--agg")
    scale = gbcsv.number_option(argv, "--scale", "1")
    f = gbcsv.format_option(argv)
    aggs = {None: min, "min": min, "max": max, "mean": statistics.mean, "range": None}
    if agg not in aggs:
        raise ValueError(f"--agg {agg}: expected one of min, max, range, mean")
    rows = select(argv)
    v = [float(r[col]) * scale for r in rows]
    if agg is None and len(v) > 1:
        raise ValueError(f"{len(v)} rows match; narrow with COL=V or give --agg")
    if agg == "range":
        lo, hi = number(min(v), f), number(max(v), f)
        return [lo if lo == hi else f"{lo}-{hi}"]
    return [number(aggs[agg](v), f)]  # type: ignore[misc]  # "range" returned above


def ratio(argv: list[str]) -> list:
    f = gbcsv.format_option(argv, ".2f")
    percent = "--percent" in argv
    argv = [a for a in argv if a != "--percent"]
    if "--over" not in argv:
        raise ValueError("ratio: SPEC --over SPEC")
    i = argv.index("--over")
    num, den = select(argv[:i]), select(argv[i + 1 :])
    if len(num) != 1 or len(den) != 1:
        raise ValueError(f"ratio: {len(num)} / {len(den)} rows match; each side needs exactly one")
    q = float(num[0]["value"]) / float(den[0]["value"])
    return [f"{(q - 1) * 100:+{f}}%" if percent else format(q, f)]


def pairs(argv: list[str]) -> list:
    """Join rows that differ only in the --a / --b selectors (e.g. launcher=threads vs
    launcher=mpi, or _file=A.csv vs _file=B.csv); differences are |a - b| / min(a, b)."""
    sel: dict[str, Any] = {}
    side: Any  # a selector's name, then the joined rows
    for side in ("--a", "--b"):
        text = option(argv, side)
        if not text:
            raise ValueError("pairs: --a COL=V and --b COL=V are required")
        sel[side] = tuple(text.split("=", 1))
    ignore = set((option(argv, "--ignore") or "").split(",")) - {""}
    over: Any = option(argv, "--over")  # the text, then the number
    over = None if over is None else gbcsv.finite_number("--over", over)
    f = gbcsv.format_option(argv, ".1f")
    mode = "range" if "--range" in argv else "table" if "--table" in argv else "count"
    argv = [a for a in argv if a not in ("--range", "--table")]
    paths = [a for a in argv if a.endswith(".csv")]
    filters = dict(a.split("=", 1) for a in argv if "=" in a and not a.endswith(".csv"))
    col_a, col_b = sel["--a"][0], sel["--b"][0]
    side = {}
    for r in load(paths):
        r = dict(r, _file=os.path.relpath(r["_file"]))
        if not matches(r, **filters):
            continue
        c = cfg(r)
        which = (
            "a"
            if matches(r, **dict([sel["--a"]]))
            else "b"
            if matches(r, **dict([sel["--b"]]))
            else None
        )
        if not which:
            continue
        axes = tuple(sorted((k, v) for k, v in c.items() if k not in ignore | {col_a, col_b}))
        key = (r["method"], r["metric"], r["gpu_count"], axes) + tuple(
            r[k] for k in ("launcher",) if k not in (col_a, col_b)
        )
        side.setdefault(key, {})[which] = float(r["value"])
    joined = sorted((k, v["a"], v["b"]) for k, v in side.items() if "a" in v and "b" in v)
    if not joined:
        raise ValueError("pairs: no pair joined")
    diffs = [(k, a, b, abs(a - b) / min(a, b) * 100) for k, a, b in joined]
    if mode == "range":
        lo, hi = min(d for *_, d in diffs), max(d for *_, d in diffs)
        return [f"{lo:{f}}-{hi:{f}}%"]
    if over is None:
        raise ValueError("pairs: --over P for a count or a table")
    beyond = [d for d in diffs if d[3] > over]
    if mode == "count":
        return [f"{len(beyond)} of {len(diffs)}"]
    out = []
    for (method, _metric, n, axes, *_), a, b, d in sorted(beyond, key=lambda x: -x[3]):
        out.append(
            [
                f"`{method}`",
                " ".join(f"{k}={v}" for k, v in axes if k != "fault"),
                n,
                f"{a:.0f}",
                f"{b:.0f}",
                f"{d:{f}}%",
            ]
        )
    return [
        table(
            [
                "method",
                "config",
                "GPUs",
                f"{sel['--a'][1]} (ns)",
                f"{sel['--b'][1]} (ns)",
                "difference",
            ],
            out,
        )
    ]


def count(argv: list[str]) -> list:
    show_span = "--span" in argv
    paths = [a for a in argv if a != "--span"]
    rows = load(paths, statuses=None)
    by = collections.Counter(r["status"] for r in rows)
    text = f"{len(rows)} rows: " + ", ".join(f"{n} {s}" for s, n in sorted(by.items()))
    if show_span:
        import datetime

        ts = sorted(
            datetime.datetime.strptime(r["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
            for r in rows
            if r["timestamp"]
        )
        text += (
            f"; timestamps span {(ts[-1] - ts[0]).total_seconds():.0f} s "
            f"({ts[0]:%H:%M:%S} to {ts[-1]:%H:%M:%S} UTC)"
        )
    return [text]


def runs(argv: list[str]) -> list[str]:
    """One line: every run's value (by run_id, in file order) and their CV."""
    scale = gbcsv.number_option(argv, "--scale", "1")
    f = gbcsv.format_option(argv, ".1f")
    unit = option(argv, "--unit", "")
    rows = select(argv)
    v = vals(rows, scale)
    cv = statistics.pstdev(v) / statistics.mean(v) * 100 if len(v) > 1 else 0.0
    return [", ".join(format(x, f) for x in v) + (f" {unit}" if unit else "") + f" (CV {cv:.2f}%)"]


def rows_table(argv: list[str]) -> list:
    method = option(argv, "--method")
    metric = option(argv, "--metric")
    scale = gbcsv.number_option(argv, "--scale", "1")
    f = gbcsv.format_option(argv, ".2f")
    out = []
    for r in load(argv):
        if (method and r["method"] != method) or (metric and r["metric"] != metric):
            continue
        out.append(
            [
                f"`{r['method']}`",
                r["config"].replace(" fault=0", ""),
                r["metric"],
                format(float(r["value"]) * scale, f),
                r["note"].split(";")[0],
            ]
        )
    need(
        out,
        "ok rows"
        + (f" of {method}" if method else "")
        + (f" with metric {metric}" if metric else ""),
        argv,
    )
    return [table(["method", "config", "metric", "value", "note"], out)]

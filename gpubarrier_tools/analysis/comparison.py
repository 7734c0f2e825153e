"""gpubarrier compare's comparison: CSVs joined key by key, side by side, with a noise-aware
verdict per figure, and the run-to-run floors it uses. cli/compare.py is the command line
(`gpubarrier compare`); its help says what joins, the verdict and the floor.

    compare(paths, ...)      the comparison, as data (its joined keys, the keys only in one side,
                             the counts)
    parts(res), report(res)  its tables and lines (data/tables.py)
    render_csv(res), to_json(res)   its CSV and JSON forms
    default_floors(), measure_floor(groups), floor_lines(groups)   the run-to-run floors
"""

from __future__ import annotations

import csv
import difflib
import fnmatch
import glob
import io
import json
import math
import operator
import os
import statistics
from collections.abc import Iterable, MutableMapping
from typing import Any

from ..data import gbcsv, machines, tool_main, user_files
from ..data.tables import Table

ROOT = tool_main.ROOT
BY_CHOICES = ("system", "gpu_model", "topology", "gpu_count", "launcher", "file")
ALPHA = 0.01
DEFAULT_K = 3.0
FLOOR_PERCENTILE = 95
LOWER_IS_FASTER = (
    "latency",
    "loop_latency",
    "latency_cycles",
    "launch_interval",
    "launch_overhead",
    "interval",
    "loop_interval",
)
HIGHER_IS_FASTER = ("throughput", "throughput_cycles")
RAW_COLUMNS = (
    "run_id",
    "method",
    "config",
    "gpu_ids",
    "launcher",
    "metric",
    "unit",
    "statistic",
    "sample",
    "value",
)

# Groups of committed repeat runs: each group is one build on one machine measured several times.
FLOOR_SETS = [
    ["results/h200/foundation-repeats.csv"],
    ["results/h200/repeats-grid-block.csv"],
    ["results/h100/grid-repeats.csv"],
    ["results/h200/foundation-sweep.csv", "results/h200/single-gpu.csv"],
    ["results/h200x2/architecture/ab-before-*.csv"],
    ["results/h200x2/architecture/ab-after-*.csv"],
    ["results/h200x2/architecture/layout-before-*.csv"],
    ["results/h200x2/architecture/layout-after-*.csv"],
    ["results/h200x2/architecture/layout-wordsfirst-*.csv"],
    [
        "results/h200x2/architecture/refactor-quick-before.csv",
        "results/h200x2/architecture/quick-reversed-before-second.csv",
    ],
    [
        "results/h200x2/architecture/refactor-quick-after.csv",
        "results/h200x2/architecture/quick-reversed-after-first.csv",
    ],
    ["results/h200/push-regression/fixed/base-r*.csv"],
    ["results/h200/push-regression/fixed/own-r*.csv"],
] + [
    [f"results/h200/push-regression/placement/{p}-r*.csv"]
    for p in ["base"] + [f"pad{n}" for n in (0, 256, 512, 768, 1024, 1280, 1536, 1792, 2048)]
]


class CompareError(tool_main.InputError):
    """Input that cannot be compared (exit 2): the message says what and where."""


# ----------------------------------------------------------------------------------------------
# keys, sides, aggregation


def _int(text: Any, default: int = 0) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


def config_key(row: MutableMapping[str, Any]) -> tuple:
    axes = gbcsv.config_axes(row)
    axes.pop("gpu_count", None)
    return tuple(sorted(axes.items()))


def config_text(row: MutableMapping[str, Any]) -> str:
    return " ".join(item for item in row["config"].split() if not item.startswith("gpu_count="))


def join_key(row: MutableMapping[str, Any], by: str | None) -> tuple:
    """(method, config axes, metric, gpu_count, ranks, nodes, launcher) less what `by` varies."""
    gpus, ranks = row["gpu_count"] or "0", row["ranks"] or "1"
    launcher = row["launcher"]
    if by == "gpu_count":
        gpus, ranks = "*", "*"
    if by == "launcher":
        launcher, ranks = "*", "*"
    return (
        row["method"],
        config_key(row),
        row["metric"],
        gpus,
        ranks,
        row["nodes"] or "1",
        launcher,
    )


def by_value(row: MutableMapping[str, Any], by: str) -> str:
    if by == "file":
        return ""
    if by == "gpu_count" and _int(row["gpu_count"]) == 0:
        return row["ranks"] or "1"  # a host-only MPI row: as many "GPUs" as ranks
    return row[by] or "-"


def _sort_value(v: str) -> tuple:
    return (0, float(v), v) if _is_number(v) else (1, 0.0, v)


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def default_by(per_file_rows: list) -> str:
    for col in ("system", "gpu_model"):
        values = [{r[col] for r in rows} for rows in per_file_rows]
        if all(len(v) == 1 for v in values):
            flat = [next(iter(v)) for v in values]
            if len(set(flat)) == len(flat) and all(flat):
                return col
    return "file"


def _short_names(paths: list[str]) -> list[str]:
    base = [os.path.basename(p) for p in paths]
    if len(set(base)) == len(base):
        return base
    rel = [os.path.relpath(p) for p in paths]
    return rel if len(set(rel)) == len(rel) else [f"{p} (#{i + 1})" for i, p in enumerate(rel)]


class Side:
    def __init__(self, file_index: int, path: str, value: str) -> None:
        self.file_index, self.path, self.value = file_index, path, value
        self.label = ""
        self.groups = {}  # join key -> rows


def make_sides(paths: list[str], per_file_rows: list, by: str) -> list:
    sides = []
    for i, (path, rows) in enumerate(zip(paths, per_file_rows)):
        values = sorted({by_value(r, by) for r in rows}, key=_sort_value) or [""]
        for v in values:
            side = Side(i, path, v)
            for r in rows:
                if by_value(r, by) == v:
                    side.groups.setdefault(join_key(r, by), []).append(r)
            sides.append(side)
    names = _short_names(paths)
    multi = {s.file_index for s in sides if sum(t.file_index == s.file_index for t in sides) > 1}
    values = [s.value for s in sides]
    for s in sides:
        if by == "file":
            s.label = names[s.file_index]
        elif values.count(s.value) == 1:
            s.label = (
                s.value if by != "gpu_count" else f"{s.value} GPU{'' if s.value == '1' else 's'}"
            )
        elif s.file_index in multi:
            s.label = f"{names[s.file_index]}:{s.value}"
        else:
            s.label = names[s.file_index]
    return sides


def row_se(row: MutableMapping[str, Any]) -> float | None:
    try:
        sd, n = float(row["stddev"]), float(row["samples"])
    except ValueError:
        return None
    return sd / math.sqrt(n) if n > 0 and math.isfinite(sd) else None


class Agg:
    """One side's figure for one key: the median of its rows, the count and a standard error."""

    def __init__(self, rows: list, raw: dict) -> None:
        self.rows = rows
        values = [float(r["value"]) for r in rows]
        self.value = statistics.median(values)
        self.count = len(rows)
        self.unit = rows[0]["unit"]
        self.statistics = sorted({gbcsv.statistic(r) for r in rows})
        self.statistic = "/".join(self.statistics)
        self.techniques = sorted({r["technique"] for r in rows})
        ses = [s for s in (row_se(r) for r in rows) if s is not None]
        within = statistics.median(ses) / math.sqrt(len(rows)) if ses else 0.0
        between = statistics.stdev(values) / math.sqrt(len(rows)) if len(values) > 1 else 0.0
        self.se = max(within, between)
        self.spread_from_runs = between > within
        self.gpu_id_sets = sorted({r["gpu_ids"] for r in rows})
        samples = []
        for r in rows:
            samples += raw.get(raw_key(r), [])
        self.samples = samples

    def text(self) -> str:
        v = fmt_num(self.value)
        return f"{v} (x{self.count})" if self.count > 1 else v


def fmt_num(v: float) -> str:
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e6 or a < 1e-3:
        return f"{v:.4g}"
    digits = max(0, 4 - int(math.floor(math.log10(a))))
    return f"{v:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:.0f}"


# ----------------------------------------------------------------------------------------------
# per-sample data


def raw_key(row: MutableMapping[str, Any]) -> tuple:
    return tuple(row[c] for c in ("run_id", "method", "config", "gpu_ids", "launcher", "metric"))


RAW_EXPECTED = "raw samples of `run --raw`"


def load_raw(paths: list[str]) -> dict:
    """{raw_key: [samples]} from --raw files (read within data/user_files.py's bounds); a file
    that cannot be read raises gbcsv.CsvError."""
    out, configs = {}, {}
    for path in paths:
        name, header = tool_main.shown(path), None
        for line, fields in user_files.csv_rows(path, RAW_EXPECTED, gbcsv.CsvError):
            if header is None:
                header = fields
                missing = [c for c in RAW_COLUMNS if c not in header]
                if missing:
                    raise gbcsv.CsvError(
                        f"{name}:1: column '{tool_main.shown(missing[0])}' is "
                        f"missing: a raw sample file has {','.join(RAW_COLUMNS)}"
                    )
                key_of = operator.itemgetter(*[header.index(c) for c in RAW_COLUMNS[:6]])
                at_value, at_method, at_config = (
                    header.index(c) for c in ("value", "method", "config")
                )
                continue
            if len(fields) != len(header):
                raise gbcsv.CsvError(f"{name}:{line}: {len(fields)} fields, expected {len(header)}")
            try:
                v = float(fields[at_value])
            except ValueError:
                v = None
            if v is None or not math.isfinite(v):
                raise gbcsv.CsvError(
                    f"{name}:{line}: column 'value' (column {at_value + 1}) is "
                    f"'{fields[at_value]}': expected a finite number"
                )
            written = (fields[at_method], fields[at_config])
            if written not in configs:
                configs[written] = gbcsv.config_codes(*written)
            fields[at_config] = configs[written]  # as rows read
            out.setdefault(key_of(fields), []).append(v)
        if header is None:
            raise gbcsv.CsvError(
                f"{name}:1: empty file: expected the header {','.join(RAW_COLUMNS)}"
            )
    return out


# ----------------------------------------------------------------------------------------------
# verdicts


def direction(metric: str) -> str | None:
    if metric in LOWER_IS_FASTER:
        return "lower"
    if metric in HIGHER_IS_FASTER or metric.startswith("throughput"):
        return "higher"
    return None


def floor_of(agg_a: Agg, agg_b: Agg, floor: float | None) -> float:
    if floor is not None:
        return floor
    techs = set(agg_a.techniques) | set(agg_b.techniques)
    floors = default_floors()
    return max(floors.get(t, floors["other"]) for t in techs)


def verdict(metric: str, a: Agg, b: Agg, k: float, floor: float | None) -> dict:
    """The comparison of side b with baseline a: a dict (see --format json)."""
    out: dict[str, Any] = {"ratio": b.value / a.value if a.value else None}
    if a.statistic != b.statistic:
        out.update(verdict=f"not comparable: {a.statistic} vs {b.statistic}", test="", kind="n/a")
        return out
    noisy = next((n for side in (a, b) for n in map(gbcsv.noisy_reason, side.rows) if n), "")
    if noisy:
        out.update(verdict=f"noisy, no verdict: {noisy}", test="", kind="noisy")
        return out
    fl = floor_of(a, b, floor)
    diff = b.value - a.value
    se = math.hypot(a.se, b.se)
    out.update(se=se, floor=fl, threshold=max(k * se, fl * abs(a.value)))
    if len(a.samples) >= 3 and len(b.samples) >= 3:
        from scipy.stats import mannwhitneyu  # only needed with --raw

        p = float(mannwhitneyu(a.samples, b.samples, alternative="two-sided").pvalue)
        out["p"] = p
        within_floor = abs(diff) < fl * abs(a.value)
        differ = p < ALPHA and not within_floor
        out["test"] = f"mwu p={p:.2g}" + (", within floor" if p < ALPHA and within_floor else "")
    else:
        differ = abs(diff) >= out["threshold"]
        out["test"] = "se+floor"
    if not differ or diff == 0:
        out.update(verdict="same", kind="same")
        return out
    big, small = max(a.value, b.value), min(a.value, b.value)
    if small <= 0:
        factor = "inf x"
    elif big / small < 1.1:  # "1.01x" would hide whether it is 0.6% or 1.4%
        pct = (big / small - 1) * 100
        factor = f"{pct:.1f}%" if pct >= 0.1 else f"{pct:.2g}%"
    else:
        factor = f"{big / small:.2f}x"
    d = direction(metric)
    if d is None:
        word = "higher" if diff > 0 else "lower"
    else:
        word = "slower" if (diff > 0) == (d == "lower") else "faster"
    out.update(verdict=f"{factor} {word}", kind=word if word in ("faster", "slower") else "differ")
    return out


# ----------------------------------------------------------------------------------------------
# the comparison


def check_units(per_file_rows: list, paths: list[str]) -> None:
    seen = {}
    for path, rows in zip(paths, per_file_rows):
        for r in rows:
            k = (r["method"], r["metric"])
            if k not in seen:
                seen[k] = (r["unit"], path, r["_line"])
            elif seen[k][0] != r["unit"]:
                unit0, path0, line0 = seen[k]
                raise CompareError(
                    f"{r['method']} {r['metric']}: unit '{unit0}' in {path0}:{line0} but "
                    f"'{r['unit']}' in {path}:{r['_line']}: figures in different units are not "
                    f"compared"
                )


def _matches(
    row: MutableMapping[str, Any],
    methods: list[str] | None,
    levels: list[str] | None,
    where: dict[str, str] | None = None,
) -> bool:
    if methods and not any(fnmatch.fnmatchcase(row["method"], g) for g in methods):
        return False
    if where:
        axes = gbcsv.config_axes(row)
        if any(name in axes and axes[name] != value for name, value in where.items()):
            return False
    return not levels or row["level"] in levels


def parse_where(text: str) -> dict:
    """`--where threads_per_block=128,blocks_per_sm=1` as a dict; rows without the axis pass."""
    where = {}
    for item in (text or "").split(","):
        name, sep, value = item.partition("=")
        if not item:
            continue
        if not sep or not name or not value:
            raise CompareError(f"--where {text}: expected AXIS=VALUE[,AXIS=VALUE...]")
        where[name] = value
    return where


def check_where(
    where: dict[str, str], axes: Iterable[str], paths: list[str], text: str | None = None
) -> None:
    """CompareError for a --where axis that no row of the inputs has (`axes`: those they have; a
    typo would otherwise keep every row): names the closest axes there are."""
    axes = sorted(axes)
    for name in where:
        if name in axes:
            continue
        near = difflib.get_close_matches(name, axes, 3, 0.6)
        spec = text or ",".join(f"{k}={v}" for k, v in where.items())
        hint = f"did you mean {' or '.join(near)}? " if near else ""
        raise CompareError(
            f"--where {spec}: no row of {', '.join(paths)} has the axis "
            f"'{name}' ({hint}their axes: {', '.join(axes) or 'none'})"
        )


def compare(
    paths: list[str],
    by: str | None = None,
    methods: str | list[str] | None = None,
    level: str | list[str] | None = None,
    raw: list[str] | None = None,
    k: float = DEFAULT_K,
    floor: float | None = None,
    where: str | dict[str, str] | None = None,
) -> dict[str, Any]:
    """The comparison as a dict (what --format json prints). Raises gbcsv.CsvError, CompareError."""
    if by is not None and by not in BY_CHOICES:
        raise CompareError(f"--by {by}: expected one of {', '.join(BY_CHOICES)}")
    globs = [g for g in (methods or "").split(",") if g] if isinstance(methods, str) else methods
    levels = [x for x in (level or "").split(",") if x] if isinstance(level, str) else level
    where_text = where if isinstance(where, str) else None
    where = parse_where(where) if isinstance(where, str) else where
    # One file's rows at a time: only the ok rows that match are kept.
    per_file, ignored, axes = [], 0, set()
    for p in paths:
        rows = gbcsv.load_file(p)
        if where:
            axes.update(a for r in rows for a in gbcsv.config_axes(r))
        ok = [r for r in rows if r["status"] == "ok" and _matches(r, globs, levels, where)]
        ignored += sum(1 for r in rows if r["status"] != "ok" and _matches(r, globs, levels, where))
        per_file.append(ok)
        del rows
    if where:
        check_where(where, axes, paths, where_text)
    check_units(per_file, paths)
    by_used = by or default_by(per_file)
    sides = make_sides(paths, per_file, by_used)
    if len(sides) < 2:
        raise CompareError(
            f"one side only ({', '.join(paths)}{' by ' + by_used if by_used != 'file' else ''}): "
            f"give a second file, or --by a column whose values differ within the file"
        )
    empty = [s.path for s in sides if not s.groups]
    if len(empty) == len(sides):
        what = (
            " matching"
            + (f" --methods {','.join(globs)}" if globs else "")
            + (f" --level {','.join(levels)}" if levels else "")
            if (globs or levels)
            else ""
        )
        raise CompareError(f"no ok rows{what} in {', '.join(paths)}")
    raw_samples = load_raw(raw or [])
    base = sides[0]
    keys = set()
    for s in sides:
        keys |= s.groups.keys()
    joined, only = [], {}
    kinds = ("same", "faster", "slower", "differ", "n/a", "noisy")
    counts = dict.fromkeys(("joined",) + kinds, 0)
    per_side = [dict.fromkeys(kinds, 0) for _ in sides[1:]]
    for key in sorted(
        keys,
        key=lambda k: (
            k[0],
            k[2],
            k[6],
            _sort_value(k[3]),
            k[4],
            k[5],
            [(a, _sort_value(v)) for a, v in k[1]],
        ),
    ):
        present = [s for s in sides if key in s.groups]
        first = present[0].groups[key][0]
        info = {
            "method": key[0],
            "config": config_text(first),
            "metric": key[2],
            "gpu_count": key[3],
            "ranks": key[4],
            "nodes": key[5],
            "launcher": key[6],
            "unit": first["unit"],
        }
        if key not in base.groups or len(present) < 2:
            label = ", ".join(s.label for s in present)
            only.setdefault(label, []).append(
                dict(info, values=[Agg(s.groups[key], raw_samples).text() for s in present])
            )
            continue
        aggs = [Agg(s.groups[key], raw_samples) if key in s.groups else None for s in sides]
        a = aggs[0]
        cmp_: list[dict | None] = []
        for i, b in enumerate(aggs[1:]):
            if b is None:
                cmp_.append(None)
                continue
            v = verdict(key[2], a, b, k, floor)  # type: ignore[arg-type]  # key in base.groups
            counts[v["kind"]] += 1
            per_side[i][v["kind"]] += 1
            cmp_.append(v)
        counts["joined"] += 1
        joined.append(dict(info, aggs=aggs, comparisons=cmp_))
    return {
        "by": by_used,
        "sides": sides,
        "joined": joined,
        "only": only,
        "counts": counts,
        "per_side": per_side,
        "k": k,
        "floor": floor,
        "ignored_not_ok": ignored,
        "raw": bool(raw),
    }


# ----------------------------------------------------------------------------------------------
# output


def _floor_text(floor: float | None) -> str:
    if floor is not None:
        return f"{floor * 100:g}% (--floor)"
    floors = default_floors()
    parts = ", ".join(f"{t} {v * 100:g}%" for t, v in floors.items() if t != "other")
    return f"{parts}, other {floors['other'] * 100:g}% (measured: --measure-floor)"


def _columns(res: dict[str, Any]) -> list:
    """The key columns worth showing: those that vary, less what --by varies."""
    rows = res["joined"] + [r for v in res["only"].values() for r in v]
    cols = ["method", "config", "metric"]
    for c, _show in (
        ("gpu_count", "gpus"),
        ("ranks", "ranks"),
        ("nodes", "nodes"),
        ("launcher", "launcher"),
    ):
        vals = {r[c] for r in rows}
        if len(vals - {"*"}) > 1:
            cols.append(c)
    return cols


HEAD = {"gpu_count": "gpus"}


def _table_rows(res: dict[str, Any]) -> tuple:
    sides = res["sides"]
    keycols = _columns(res)
    header = [HEAD.get(c, c) for c in keycols] + ["unit", sides[0].label]
    for s in sides[1:]:
        header += [
            s.label,
            f"/{sides[0].label}" if len(sides) > 2 else "ratio",
            "verdict" if len(sides) == 2 else f"verdict {s.label}",
            "test",
        ]
    body = []
    for r in res["joined"]:
        line = [r[c] for c in keycols] + [r["unit"], r["aggs"][0].text()]
        for agg, c in zip(r["aggs"][1:], r["comparisons"]):
            if agg is None:
                line += ["-", "", "", ""]
            else:
                ratio = f"{c['ratio']:.3f}" if c["ratio"] is not None else ""
                line += [agg.text(), ratio, c["verdict"], c["test"]]
        body.append(line)
    return keycols, header, body


def _summary_lines(res: dict[str, Any]) -> list:
    c = res["counts"]
    sides = res["sides"]
    n_only = {label: len(v) for label, v in res["only"].items()}
    parts = [f"{c['joined']} keys joined (in the baseline {sides[0].label} and another side)"]
    for s, pc in zip(sides[1:], res["per_side"]):
        line = (
            f"{s.label} against {sides[0].label}: {pc['same']} same, {pc['faster']} faster, "
            f"{pc['slower']} slower"
        )
        if pc["differ"]:
            line += f", {pc['differ']} differ (metric without a direction)"
        if pc["n/a"]:
            line += f", {pc['n/a']} not comparable (different statistics)"
        if pc["noisy"]:
            line += f", {pc['noisy']} noisy (no verdict)"
        parts.append(line)
    if n_only:
        parts.append(
            "only in one side: " + "; ".join(f"{label} {n}" for label, n in n_only.items())
        )
    else:
        parts.append("only in one side: none")
    if res["ignored_not_ok"]:
        parts.append(f"{res['ignored_not_ok']} rows not ok (skipped/failed/...) were not compared")
    parts.append(
        f"verdict: same when |B - A| < max({res['k']:g} x SE, floor x A); "
        f"floor {_floor_text(res['floor'])}"
        + ("; Mann-Whitney U (alpha 0.01) where --raw samples exist" if res["raw"] else "")
    )
    return parts


def side_gpus(side: Side) -> list:
    """The GPU UUIDs of a side's rows (machines.uuids_of), sorted; empty where none records them."""
    return sorted({u for rows in side.groups.values() for r in rows for u in machines.uuids_of(r)})


def _gpus_text(uuids: list[str]) -> str:
    if not uuids:
        return "GPUs not recorded"
    shown = ", ".join(u[:12] for u in uuids[:4])
    return f"on {shown}" + (f" and {len(uuids) - 4} more" if len(uuids) > 4 else "")


def gpus_differ(sides: list) -> bool:
    """Whether a side was measured on other GPUs than the baseline (both recorded): its verdicts
    then hold the difference between the GPUs as well as between the runs."""
    base = set(side_gpus(sides[0]))
    return bool(base) and any(set(g) and set(g) != base for g in map(side_gpus, sides[1:]))


def _sides_lines(res: dict[str, Any]) -> list:
    out = [f"sides by {res['by']}:"]
    for i, s in enumerate(res["sides"]):
        n = len(s.groups)
        what = f"{s.path}" + (f" [{res['by']}={s.value}]" if res["by"] != "file" else "")
        out.append(
            f"  {s.label}{' (baseline)' if i == 0 else ''}: {what}, {n} keys, "
            f"{_gpus_text(side_gpus(s))}"
        )
    if gpus_differ(res["sides"]):
        out.append(
            "  measured on different GPUs: a verdict holds the difference between the GPUs "
            "as well as between the runs"
        )
    return out


def _only_rows(res: dict[str, Any], keycols: list[str]) -> list:
    out = []
    for label, rows in res["only"].items():
        header = [HEAD.get(c, c) for c in keycols] + ["unit", "value"]
        body = [[r[c] for c in keycols] + [r["unit"], " / ".join(r["values"])] for r in rows]
        out.append((label, header, body))
    return out


def _floor_rows(res: dict[str, Any]) -> tuple | None:
    """Each side's multi-GPU barriers over their composed floor (analysis/floor.py: the cheapest
    verified grid barrier at the shape + the one-way signal, from the same run of that side),
    each ratio with the grid barrier it was built on: (header, body), or None where no side has
    a barrier with its floor's parts (e.g. --level multi-gpu leaves out the grid barriers)."""
    from . import floor

    per_side = []
    for s in res["sides"]:
        rows = [r for rs in s.groups.values() for r in rs]
        per_side.append(
            {
                (
                    i["method"],
                    i["gpu_count"],
                    i["shape"],
                    i["ordering"],
                ): f"{i['ratio']:.2f} ({i['grid_from']})"
                for i in floor.floors(rows)
                if "ratio" in i
            }
        )
    keys = sorted(set().union(*per_side), key=lambda k: (k[0], _sort_value(k[1]), k[2], k[3]))
    if not keys:
        return None
    header = ["method", "gpus", "blocks/SM x threads", "ordering"] + [
        f"{s.label}: latency / floor" for s in res["sides"]
    ]
    body = [list(k) + [d.get(k, "-") for d in per_side] for k in keys]
    return header, body


FLOOR_TITLE = (
    "at the floor (each multi-GPU barrier / the cheapest verified grid barrier, named, "
    "+ one-way signal of the same run; gpubarrier_tools/analysis/floor.py)"
)


def parts(res: dict) -> dict[str, Any]:
    """The comparison's parts, as data: {"sides_title": the line above the sides, "sides": one
    line per side, "table": the joined keys' Table or None where no key joined, "only":
    [(side label, Table of its keys in no other side)], "floor": the at-the-floor Table or None,
    "summary": its lines}."""
    keycols, header, body = _table_rows(res)
    sides = _sides_lines(res)
    floors = _floor_rows(res)
    return {
        "sides_title": sides[0],
        "sides": [x.strip() for x in sides[1:]],
        "table": Table(header, body) if body else None,
        "only": [(label, Table(h, b)) for label, h, b in _only_rows(res, keycols)],
        "floor": Table(*floors) if floors else None,
        "summary": _summary_lines(res),
    }


NO_JOINED_KEY = "(no key is in the baseline and another side)"


def report(res: dict[str, Any], markdown: bool = True) -> list:
    """The comparison's items (data/tables.py): the sides, the joined keys' table, the keys only
    in one side, the at-the-floor table and the summary, with Markdown's list marks and bold
    where `markdown`, as plain lines for a terminal otherwise."""
    p = parts(res)
    bold = (lambda s: f"**{s}**") if markdown else (lambda s: s)
    out = (
        [f"- {x}" for x in p["sides"]]
        if markdown
        else [p["sides_title"]] + [f"  {x}" for x in p["sides"]]
    )
    out += ["", p["table"] or NO_JOINED_KEY]
    for label, t in p["only"]:
        out += (
            ["", f"{bold('only in ' + label)} ({len(t.rows)} keys, no verdict):"]
            + ([""] if markdown else [])
            + [t]
        )
    if p["floor"]:
        out += ["", f"{bold(FLOOR_TITLE)}:"] + ([""] if markdown else []) + [p["floor"]]
    return out + [""] + [f"{'- ' if markdown else ''}{x}" for x in p["summary"]]


def render_csv(res: dict) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    keycols = ["method", "config", "metric", "gpu_count", "ranks", "nodes", "launcher", "unit"]
    w.writerow(
        keycols
        + ["side", "file", "statistic", "value", "count", "se", "ratio", "verdict", "test", "p"]
    )
    sides = res["sides"]
    for r in res["joined"]:
        for i, (s, agg) in enumerate(zip(sides, r["aggs"])):
            if agg is None:
                continue
            c = r["comparisons"][i - 1] if i else None
            w.writerow(
                [r[x] for x in keycols]
                + [
                    s.label,
                    s.path,
                    agg.statistic,
                    f"{agg.value:.6g}",
                    agg.count,
                    f"{agg.se:.3g}",
                    f"{c['ratio']:.6g}" if c and c["ratio"] is not None else ("1" if not i else ""),
                    c["verdict"] if c else "baseline",
                    c["test"] if c else "",
                    f"{c['p']:.3g}" if c and "p" in c else "",
                ]
            )
    for label, rows in res["only"].items():
        for r in rows:
            w.writerow(
                [r[x] for x in keycols]
                + [label, "", "", " / ".join(r["values"]), "", "", "", f"only in {label}", "", ""]
            )
    return buf.getvalue()


def to_json(res: dict) -> dict[str, Any]:
    def agg_json(s: Side, a: Agg | None) -> dict[str, Any] | None:
        if a is None:
            return None
        return {
            "side": s.label,
            "value": a.value,
            "count": a.count,
            "se": a.se,
            "statistic": a.statistic,
            "technique": "/".join(a.techniques),
            "gpu_ids": a.gpu_id_sets,
            "raw_samples": len(a.samples),
        }

    sides = res["sides"]
    return {
        "by": res["by"],
        "k": res["k"],
        "floor": res["floor"] if res["floor"] is not None else default_floors(),
        "sides": [
            {
                "label": s.label,
                "file": s.path,
                "by_value": s.value,
                "keys": len(s.groups),
                "gpu_uuids": side_gpus(s),
            }
            for s in sides
        ],
        "joined": [
            {
                **{
                    k: r[k]
                    for k in (
                        "method",
                        "config",
                        "metric",
                        "gpu_count",
                        "ranks",
                        "nodes",
                        "launcher",
                        "unit",
                    )
                },
                "values": [agg_json(s, a) for s, a in zip(sides, r["aggs"])],
                "comparisons": [
                    dict(c, side=s.label) if c else None
                    for s, c in zip(sides[1:], r["comparisons"])
                ],
            }
            for r in res["joined"]
        ],
        "only": [{"in": label, **row} for label, rows in res["only"].items() for row in rows],
        "summary": dict(
            res["counts"],
            per_side={s.label: pc for s, pc in zip(sides[1:], res["per_side"])},
            only={label: len(rows) for label, rows in res["only"].items()},
        ),
    }


# ----------------------------------------------------------------------------------------------
# the floor


def _expand(group: list[str]) -> list:
    files = []
    for part in group:
        for item in part.split(","):
            if not item:
                continue
            path = (
                item
                if os.path.isabs(item) or os.path.exists(item) or glob.glob(item)
                else os.path.join(ROOT, item)
            )
            hits = sorted(glob.glob(path))
            if not hits:
                raise CompareError(f"--measure-floor: no file matches {tool_main.shown(item)}")
            files += hits
    return files


def repeat_spreads(groups: list[list[str]]) -> list:
    """[(technique, relative range, key, runs)] for every key measured more than once in a group.

    Within a group a key is (method, config axes, metric, gpu_count, ranks, nodes, launcher,
    gpu_ids); its values are one per row (each row a separate run)."""
    out = []
    for files in groups:
        vals, tech = {}, {}
        for r in gbcsv.load(files, statuses={"ok"}):
            key = join_key(r, None) + (r["gpu_ids"],)
            vals.setdefault(key, []).append(float(r["value"]))
            tech[key] = r["technique"]
        for key, v in vals.items():
            med = statistics.median(v)
            if len(v) > 1 and med:
                out.append((tech[key], (max(v) - min(v)) / abs(med), key, len(v), files))
    return out


def percentile(values: Iterable[float], q: int) -> float:
    """The q-th percentile (q a whole number, 1 to 99), interpolated linearly between the sorted
    values (numpy's default; the standard library's inclusive quantiles); one value is its own."""
    values = list(values)
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def measure_floor(groups: list[list[str]] | None = None) -> tuple:
    """{technique: floor fraction, ..., "other": pooled} from groups of repeat files (FLOOR_SETS
    by default): the FLOOR_PERCENTILE-th percentile of the relative range, rounded up to 0.1%."""
    spreads = repeat_spreads([_expand(g) for g in (groups or FLOOR_SETS)])
    if not spreads:
        raise CompareError("--measure-floor: no key is repeated in the groups given")
    up = lambda x: math.ceil(round(x * 1000, 6)) / 1000
    by_tech = {}
    for t, s, *_ in spreads:
        by_tech.setdefault(t, []).append(s)
    floors = {t: up(percentile(v, FLOOR_PERCENTILE)) for t, v in sorted(by_tech.items())}
    floors["other"] = up(percentile([s for _, s, *_ in spreads], FLOOR_PERCENTILE))
    return floors, by_tech, spreads


_DEFAULT_FLOORS: dict[str, float] = {}
# The default floors, measured from the committed repeat runs (FLOOR_SETS) and kept beside this
# file so that an installed prefix, which has no results/, compares with the same floors.
FLOORS_FILE = os.path.join(tool_main.TOOLS_DIR, "data", "noise_floors.json")
FLOORS_COMMAND = (
    "gpubarrier compare --measure-floor --json > gpubarrier_tools/data/noise_floors.json"
)


def floors_document(groups: list[list[str]] | None = None) -> dict[str, str | dict]:
    """The content of FLOORS_FILE for `groups` (FLOOR_SETS by default): per technique its floor
    and the CSVs (relative to the checkout where inside it) whose repeated keys gave it."""
    floors, _, spreads = measure_floor(groups)
    shown = lambda f: os.path.relpath(f, ROOT) if f.startswith(ROOT + os.sep) else f
    csvs = {}
    for t, _, _, _, files in spreads:
        for name in (t, "other"):
            csvs.setdefault(name, set()).update(shown(f) for f in files)
    return {
        "about": f"run-to-run noise floor per technique: p{FLOOR_PERCENTILE} of the relative "
        "range (max - min) / median of every key repeated across runs, rounded up "
        "to 0.1%; 'other' pools every key",
        "command": FLOORS_COMMAND,
        "floors": {t: {"floor": v, "csvs": sorted(csvs[t])} for t, v in floors.items()},
    }


def default_floors() -> dict:
    """{technique: floor fraction, ..., "other": pooled}: FLOORS_FILE's floors, read once per
    process. A missing or broken file is one line naming it and the command that writes it."""
    if not _DEFAULT_FLOORS:
        try:
            with open(FLOORS_FILE, encoding="utf-8") as f:
                doc = json.load(f)
            floors = {str(t): float(e["floor"]) for t, e in doc["floors"].items()}
            if "other" not in floors:
                raise KeyError("other")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            why = e.strerror if isinstance(e, OSError) else f"{type(e).__name__}: {e}"
            raise CompareError(
                f"cannot read the noise floors {FLOORS_FILE} ({why}): give "
                f"--floor PCT, or restore the file from the checkout "
                f"(`{FLOORS_COMMAND}` writes it)"
            ) from None
        _DEFAULT_FLOORS.update(floors)
    return dict(_DEFAULT_FLOORS)


def floor_lines(groups: list[list[str]] | None) -> list:
    """The run-to-run floor measured from `groups` (measure_floor): per technique its keys, median,
    p95, largest and floor, the five widest spreads, and the floors as JSON: the lines."""
    out = []
    floors, by_tech, spreads = measure_floor(groups)
    files = sorted({f for *_, fs in spreads for f in fs})
    out.append(
        f"run-to-run relative range (max - min) / median of {len(spreads)} repeated keys in "
        f"{len(files)} files; floor = p{FLOOR_PERCENTILE}, rounded up to 0.1%:"
    )
    out.append(f"  {'technique':14} {'keys':>5} {'median':>8} {'p95':>8} {'max':>8}  floor")
    for t, v in sorted(by_tech.items()):
        out.append(
            f"  {t:14} {len(v):5} {statistics.median(v) * 100:7.2f}% "
            f"{percentile(v, 95) * 100:7.2f}% {max(v) * 100:7.2f}%  {floors[t] * 100:.1f}%"
        )
    allv = [s for _, s, *_ in spreads]
    out.append(
        f"  {'all (other)':14} {len(allv):5} {statistics.median(allv) * 100:7.2f}% "
        f"{percentile(allv, 95) * 100:7.2f}% {max(allv) * 100:7.2f}%  "
        f"{floors['other'] * 100:.1f}%"
    )
    worst = sorted(spreads, key=lambda x: -x[1])[:5]
    out.append("largest:")
    for _t, s, key, n, _ in worst:
        out.append(
            f"  {s * 100:6.2f}%  {key[0]} {' '.join(f'{a}={v}' for a, v in key[1])} {key[2]} "
            f"[{key[6]}, gpus {key[3]}, ids {key[7] or '-'}] over {n} runs"
        )
    out.append("floors: " + json.dumps({t: round(v, 4) for t, v in floors.items()}))
    return out

"""What every report of report.py shares: reading CSVs (folders expanded, each file read once),
selecting rows (COL=V filters on columns and config axes), formatting figures, tables
(data/tables.py), the host methods' headline row, and one table per machine."""

from __future__ import annotations

import fnmatch
import os
import sys
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any

from ...data import gbcsv, tool_main
from ...data import machines as machines_of
from ...data.tables import Table

_CACHE: dict[tuple, list] = {}  # (path, mtime, statuses): its rows
_NOTED: set[str] = set()  # skipped files already named on stderr


def csv_paths(paths: Sequence[str]) -> list:
    """The CSV files of `paths` (folders expanded to their gpubarrier CSVs; the other CSVs there
    named on stderr once). Raises CsvError when folders were given and no gpubarrier CSV is left."""
    csvs, skipped = gbcsv.expand(paths)
    if not csvs and (skipped or any(os.path.isdir(p) for p in paths)):
        raise gbcsv.no_csv_error(paths, skipped)  # one line: what the folders hold instead
    for path, _, why in skipped:
        if path not in _NOTED:
            _NOTED.add(path)
            print(f"{tool_main.prog()}: skipped {tool_main.shown(path)}: {why}", file=sys.stderr)
    return csvs


def need(found: object, what: str, paths: Sequence[str], reads: str = "") -> None:
    """InputError (exit 2) when a table found no row: names the inputs and the rows it reads."""
    if not found:
        names = ", ".join(paths) if paths else "(no CSV given)"
        raise tool_main.InputError(f"no {what} in {names}" + (f": {reads}" if reads else ""))


def load(paths: Sequence[str], statuses: tuple[str, ...] | None = ("ok",)) -> list:
    rows = []
    for p in csv_paths(paths):
        key = (os.path.abspath(p), os.path.getmtime(p), statuses)
        if key not in _CACHE:
            _CACHE[key] = gbcsv.load([p], statuses=set(statuses) if statuses else None)
        rows += _CACHE[key]
    return rows


cfg = gbcsv.config_axes


def matches(r: MutableMapping[str, Any], **want: Any) -> bool:
    """COL=V filters: V matches a CSV column or a config axis; a V with * is a pattern, A..B a
    numeric range; a value's name (ordering=release-acquire) matches the code the row's method
    gives it."""
    c = cfg(r)
    for k, v in want.items():
        have = r[k] if k in r and k not in c else c.get(k)
        v = str(v)
        if k in c:
            v = gbcsv.value_code(r["method"], k, v) or v
        if ".." in v and have not in (None, ""):
            lo, hi = v.split("..")
            if not float(lo) <= float(have) <= float(hi):
                return False
            continue
        if have != v and not ("*" in v and have is not None and fnmatch.fnmatchcase(have, v)):
            return False
    return True


def pick(rows: list, method: str, metric: str, gpu: str = "0", **axes: Any) -> list:
    return [
        r
        for r in rows
        if r["method"] == method
        and r["metric"] == metric
        and (gpu is None or r["gpu_ids"] in (gpu, ""))
        and matches(r, **axes)
    ]


def fmt(v: float, digits: int = 3) -> str:
    return f"{v:.{digits}g}" if abs(v) < 100 else f"{v:.0f}"


def vals(rows: list, scale: float = 1.0) -> list:
    return [float(r["value"]) * scale for r in rows]


def span(values: list, f: Callable = fmt) -> str:
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f(lo) if f(lo) == f(hi) else f"{f(lo)}-{f(hi)}"


def table(header: list, rows: list) -> Table:
    """The Table (data/tables.py) of a header and its rows."""
    return Table(header, rows)


# Host methods' headline figure: the reference tools' convention where the point has it.
HEADLINE_HOST = "loop_latency"
# Figures of calls issued back to back (NCCL's blocking=back-to-back; results/SCHEMA.md): shown
# beside barriers' figures, always named, the loop mean where the point has it.
INTERVAL, LOOP_INTERVAL = "interval", "loop_interval"
# What a table of host and multi-GPU figures shows.
TABLE_METRICS = ("latency", HEADLINE_HOST, INTERVAL, LOOP_INTERVAL)
_LOOP_OF = {"latency": HEADLINE_HOST, INTERVAL: LOOP_INTERVAL}


def point_of(r: MutableMapping[str, Any]) -> tuple:
    return (
        r["_file"],
        r["run_id"],
        r["method"],
        r["config"],
        r["gpu_ids"],
        r["launcher"],
        r["ranks"],
    )


def host_headline(rows: list) -> list:
    """Rows with a point's `latency` row dropped where the point has a `loop_latency` row
    (schema v3 host methods write both; results/SCHEMA.md), and its `interval` row where it has
    a `loop_interval` row; every other row as it is."""
    loops = {(point_of(r), r["metric"]) for r in rows if r["metric"] in _LOOP_OF.values()}
    return [
        r
        for r in rows
        if r["metric"] not in _LOOP_OF or (point_of(r), _LOOP_OF[r["metric"]]) not in loops
    ]


def headline_label(variant: str, r: MutableMapping[str, Any]) -> str:
    """The variant text, with the metric named when the row is a `loop_latency`, `interval` or
    `loop_interval` one."""
    m = r["metric"]
    if m not in (HEADLINE_HOST, INTERVAL, LOOP_INTERVAL):
        return variant
    return f"`{m}`" if variant == "-" else f"{variant}, `{m}`"


option = gbcsv.take_option


def by_machine(rows: list, build: Callable) -> list:
    """[(label, header, lines)] of build(rows of one machine) -> (header, lines) for every
    machine (data/machines.py) whose rows give lines, most rows first."""
    out = []
    for label, rs in machines_of.machines(rows):
        header, lines = build(rs)
        if lines:
            out.append((label, header, lines))
    return out


def machine_tables(found: list) -> list:
    """One table per machine of by_machine()'s list, each under a line naming its machine: the
    items (data/tables.py)."""
    out = []
    for i, (label, header, lines) in enumerate(found):
        out += ([""] if i else []) + [f"Machine: {label}", "", Table(header, lines)]
    return out

"""Reading gpubarrier CSVs of every schema version (results/SCHEMA.md), for the Python tools.

    from . import gbcsv
    rows = gbcsv.load(["a.csv", "b.csv"])            # every row: a Row, a mapping of every column
                                                     # of the latest version, as a dict would be
    rows = gbcsv.load(paths, statuses={"ok"})        # only ok rows
    gbcsv.config_axes(row)                           # {"ordering": "0", ...}: each method's codes
    gbcsv.config_names(row)                          # {"ordering": "release-acquire", ...}
    gbcsv.statistic(row)                             # what `value` is: median, eq7, eq6, ...

    csvs, skipped = gbcsv.expand(["results/h100x4"])  # a folder's gpubarrier CSVs, and the
                                                      # other CSVs there with what they are

A file that cannot be read raises CsvError naming the file, the line, the column and what was
expected; tools print it and exit 2 (data/tool_main.py). Files are read within the bounds of
data/user_files.py (size, line length, UTF-8, a BOM dropped), as a stream that keeps only the
rows of the statuses asked for. Columns a file's version lacks are
filled with "" so that every reader sees one layout. `_file` and `_line` are added to every row.
A categorical axis' value in `config` reads as the method's integer code whether the file wrote
its name (`ordering=release-acquire`) or, written before values had names, the code: old and
new files give the same configs (`_config_written` keeps the text as written).
A row outside a physical bound of its figure (data/bounds.py) is read as `unverified`, with the
bound at the start of its note; an unresolved one (an Eq. 6/7 interval that includes zero) as
`unverified` with a note part "unresolved: ...". figure_excluded(row) says why a row's figure
must not be a verdict's figure (None when it may be).
A figure of calls issued back to back (`host.nccl.allreduce blocking=back-to-back`) is an interval,
not a barrier's latency: files written before its metrics were named `interval` and
`loop_interval` (results/SCHEMA.md, "Metrics") called it `latency` and `loop_latency`, and such
rows read by the new names, so that no reader takes them for a barrier.
"""

from __future__ import annotations

import collections.abc
import contextlib
import glob
import math
import operator
import os
import re
from collections.abc import Iterable, Iterator, MutableMapping, Sequence
from typing import Any, overload

from . import bounds, timed_regions, tool_main, user_files

# The CSV schema as the executable states it: `gpubarrier --json schema`, committed beside this
# file (data/schema.json; test cli.schema keeps the two equal), so that the tools
# run without a built gpubarrier.
SCHEMA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")


def _schema_parts(
    schema: Any,
) -> tuple[
    list[tuple[str, int]],
    int,
    list[str],
    tuple[float, float, float],
    dict[str, dict[str, dict[str, str]]],
    dict[str, dict[str, str]],
]:
    columns = [(c["name"], int(c["since"])) for c in schema["columns"]]
    noisy = schema["noisy"]
    value_names = {
        method: {
            axis: {str(code): str(name) for code, name in names.items()}
            for axis, names in axes.items()
        }
        for method, axes in schema["value_names"].items()
    }
    glossary = {axis: dict(names) for axis, names in schema["glossary"].items()}
    return (
        columns,
        int(schema["schema_version"]),
        list(schema["statuses"]),
        (float(noisy["cv"]), float(noisy["budget_cv"]), float(noisy["mean_median_gap"])),
        value_names,
        glossary,
    )


_SCHEMA = tool_main.package_json(
    SCHEMA_FILE,
    "the CSV schema",
    _schema_parts,
    f", or write it with `gpubarrier --json schema > {SCHEMA_FILE}`",
)
# Columns in CSV order and the schema version that added each.
COLUMNS = _SCHEMA[0]
NAMES = [name for name, _ in COLUMNS]
LATEST = _SCHEMA[1]
NUMERIC = {
    "value",
    "mean",
    "stddev",
    "min",
    "max",
    "median",
    "p95",
    "p99",
    "cv",
    "samples",
    "sm_clock_mhz",
}
NUMERIC_IN_ORDER = [name for name in NAMES if name in NUMERIC]
STATUSES = set(_SCHEMA[2])
# Numeric columns that cannot be negative, and why.
NON_NEGATIVE = {"stddev": "a standard deviation", "samples": "a count of samples"}

# The names of categorical axis values: {method: {axis: {code: name}}} (the method's code for
# each name it has) and {axis: {name: meaning}} (one meaning per name on every method).
VALUE_NAMES = _SCHEMA[4]
GLOSSARY = _SCHEMA[5]
# The values of the level column, in the order the tools list them: core/method.hpp's Level.
LEVELS = ["warp", "block", "cluster", "grid", "kernel", "multi-gpu", "multi-node", "host"]
_CODES = {
    method: {axis: {name: code for code, name in names.items()} for axis, names in axes.items()}
    for method, axes in VALUE_NAMES.items()
}

# What `value` is for rows that do not say (schema v1 and v2), by technique (results/SCHEMA.md).
STATISTIC_BY_TECHNIQUE = {
    "clock": "median",
    "host-loop": "median",
    "differential": "eq7",
    "fusion": "eq6",
}


class CsvError(user_files.FileError):
    """A file gpubarrier's tools cannot read: the message names file, line and column (exit 2)."""


# CSVs of other kinds that sit beside gpubarrier's in results folders: (the columns that tell
# them, what they are and what reads them).
OTHER_KINDS = [
    (
        {"method", "config", "convention", "source", "round", "value_ns"},
        "reference-check",
        "a reference check of scripts/reference-check (`gpubarrier report reference FILE` "
        "tabulates it)",
    ),
    (
        {"tool", "method", "result"},
        "sanitize",
        "a sanitizer summary of scripts/gpu-sanitize (`gpubarrier report sanitize FILE` "
        "tabulates it)",
    ),
    (
        {"run_id", "method", "config", "metric", "sample", "value"},
        "raw",
        "raw samples of `run --raw` (`gpubarrier compare --raw` reads them)",
    ),
]


def kind_of_header(header: Sequence[str] | None) -> tuple[str, str] | None:
    """(kind, what it is) of a CSV that is not gpubarrier's, from its header; None for none of
    the known kinds."""
    names = set(header or [])
    for columns, kind, what in OTHER_KINDS:
        if columns <= names:
            return kind, what
    return None


def kind_of(path: str) -> tuple[str, str] | tuple:
    """("gpubarrier", "") for a gpubarrier CSV (its first column is schema_version), else
    (kind, why it is not one): "reference-check", "sanitize", "raw" or "other"."""
    try:
        with contextlib.closing(user_files.csv_rows(path, "a CSV", CsvError)) as records:
            header = next(records, (0, None))[1]
    except CsvError as e:  # too large, not text, not CSV: what is wrong, after file and line
        return "other", re.sub(r"^:(\d+:)? ", "", str(e).removeprefix(tool_main.shown(path)))
    if header and header[0] == "schema_version":
        return "gpubarrier", ""
    known = kind_of_header(header)
    if known:
        return known[0], f"not a gpubarrier CSV: {known[1]}"
    first = f"its first column is '{header[0]}'" if header else "it is empty"
    return "other", f"not a gpubarrier CSV: {first}, expected 'schema_version'"


def expand(paths: Iterable[str]) -> tuple[list, list]:
    """(gpubarrier CSVs, [(path, kind, why)] skipped) of files and folders: a folder is searched
    recursively for *.csv and only its gpubarrier CSVs are kept; a file named is kept as it is
    (load names what is wrong with it). A path that does not exist raises CsvError."""
    csvs, skipped = [], []
    for p in paths:
        if os.path.isdir(p):
            for f in sorted(glob.glob(os.path.join(p, "**", "*.csv"), recursive=True)):
                special = user_files.special_kind(f)
                kind, why = (
                    ("other", f"a {special}, not a regular file: not read")
                    if special
                    else kind_of(f)
                )
                if kind == "gpubarrier":
                    csvs.append(f)
                else:
                    skipped.append((f, kind, why))
        elif os.path.exists(p):
            csvs.append(p)
        else:
            raise CsvError(
                f"{p}: no such file or directory (expected a gpubarrier CSV or a folder of them)"
            )
    return list(dict.fromkeys(csvs)), skipped


def no_csv_error(paths: Sequence[str], skipped: list[tuple[str, str, str]]) -> CsvError:
    """The CsvError for folders that hold no gpubarrier CSV (what was there instead)."""
    found = (
        f": {len(skipped)} CSV{'s' if len(skipped) != 1 else ''} of other kinds "
        f"({', '.join(sorted({k for _, k, _ in skipped}))}; the first, "
        f"{tool_main.shown(skipped[0][0])}: {skipped[0][2]})"
        if skipped
        else ": no *.csv"
    )
    return CsvError(
        f"{', '.join(map(tool_main.shown, paths))}: no gpubarrier CSV (a CSV whose "
        f"first column is schema_version){found}"
    )


def columns_of(version: int) -> list:
    return [name for name, since in COLUMNS if since <= version]


EXPECTED = "a gpubarrier CSV"
# What load adds to every row beside the columns.
ADDED = ["_file", "_line", "_config_written"]
# A row keeps its text in one tuple: the columns whose text repeats from row to row first (one
# string shared by every row that has it), then the figures, each a row's own, then ADDED.
_OWN = [name for name in NUMERIC_IN_ORDER if name not in ("samples", "sm_clock_mhz")]
_SHARED = [name for name in NAMES if name not in _OWN]
_LAYOUT = _SHARED + _OWN + ADDED
_INDEX = {name: i for i, name in enumerate(_LAYOUT)}
_KEYS = NAMES + ADDED
_I_METHOD, _I_CONFIG, _I_WRITTEN = _INDEX["method"], _INDEX["config"], _INDEX["_config_written"]
_I_METRIC = _INDEX["metric"]
# Back-to-back figures (method, axis, code): their barrier-named metrics as older files wrote them,
# and the names they read by (src/core/back_to_back.hpp).
BACK_TO_BACK = {("host.nccl.allreduce", "blocking", "0")}
BACK_TO_BACK_METRICS = {"latency": "interval", "loop_latency": "loop_interval"}


def back_to_back(method: str, config: str) -> bool:
    """Whether a row of `method` at `config` (codes) times calls issued back to back."""
    axes = dict(_pairs(config))
    return any(method == m and axes.get(axis) == code for m, axis, code in BACK_TO_BACK)


class Row(collections.abc.MutableMapping):
    """One row as load reads it: a mapping of every column of the latest schema version (and
    ADDED, and whatever a tool sets) to its text, as a dict would be, in a fraction of a dict's
    memory: one tuple of the texts, the repeated ones shared between rows."""

    __slots__ = ("_values", "_more")
    _more: dict[str, Any] | None  # the keys a tool sets beyond the schema; None until one does

    def __init__(self, values: tuple) -> None:
        self._values, self._more = values, None

    def __getitem__(self, key: str) -> Any:
        i = _INDEX.get(key)
        if i is not None:
            return self._values[i]
        if self._more is not None and key in self._more:
            return self._more[key]
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        i = _INDEX.get(key)
        if i is not None:
            return self._values[i]
        return default if self._more is None else self._more.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in _INDEX or (self._more is not None and key in self._more)

    def __setitem__(self, key: str, value: Any) -> None:
        i = _INDEX.get(key)
        if i is not None:  # rare (bounds.apply marks a row): the tuple is copied
            self._values = self._values[:i] + (value,) + self._values[i + 1 :]
        elif self._more is None:
            self._more = {key: value}
        else:
            self._more[key] = value

    def __delitem__(self, key: str) -> None:
        if key in _INDEX:
            raise TypeError(f"column '{key}' cannot be removed from a row (set it to '' instead)")
        if self._more is None:
            raise KeyError(key)
        del self._more[key]

    def __iter__(self) -> Iterator:
        yield from _KEYS
        if self._more:
            yield from self._more

    def __len__(self) -> int:
        return len(_KEYS) + len(self._more or ())

    def copy(self) -> dict:
        return dict(self)

    def __repr__(self) -> str:
        return f"Row({dict(self)!r})"


def _check_header(path: str, header: list[str] | None) -> None:
    if not header:
        raise CsvError(
            f"{path}:1: empty file: expected a gpubarrier CSV header (schema_version,run_id,...)"
        )
    if header[0] != "schema_version":
        known = kind_of_header(header)
        what = f"this is {known[1]}, not a gpubarrier CSV" if known else "is this a gpubarrier CSV?"
        raise CsvError(f"{path}:1: column 1 is '{header[0]}': expected 'schema_version' ({what})")
    unknown = [h for h in header if h not in NAMES]
    if unknown:
        raise CsvError(
            f"{path}:1: column '{tool_main.shown(unknown[0])}' is not in any schema "
            f"version up to v{LATEST} (results/SCHEMA.md)"
        )


class _Layout:
    """Where a file's header puts each column: builds a row's texts in _LAYOUT order from the
    fields of one record (a column the file's version lacks reads as "")."""

    def __init__(self, header: list[str]) -> None:
        self.header = header
        at = {name: i for i, name in enumerate(header)}
        absent = len(header)  # the "" appended to every record's fields
        self.shared = operator.itemgetter(*[at.get(n, absent) for n in _SHARED])
        self.own = operator.itemgetter(*[at.get(n, absent) for n in _OWN])
        self.version, self.status, self.value = (
            at["schema_version"],
            at.get("status"),
            at.get("value"),
        )
        self.figures = [(n, at[n]) for n in NUMERIC_IN_ORDER if n in at]
        self.missing = {}  # schema version -> the first column it requires that the file lacks

    def missing_for(self, version: int) -> str | None:
        if version not in self.missing:
            self.missing[version] = next(
                (c for c in columns_of(version) if c not in self.header), None
            )
        return self.missing[version]


def _check_row(path: str, line: int, layout: _Layout, fields: list[str]) -> None:
    """The record's fields, checked: field count, schema version, status, figures."""
    if len(fields) != len(layout.header):
        raise CsvError(
            f"{path}:{line}: {len(fields)} fields, expected {len(layout.header)} "
            f"(the header's columns); a torn or hand-edited row?"
        )
    v = fields[layout.version]
    if not v.isdigit() or not 1 <= int(v) <= LATEST:
        raise CsvError(f"{path}:{line}: column 'schema_version' is '{v}': expected 1..{LATEST}")
    missing = layout.missing_for(int(v))
    if missing:
        raise CsvError(f"{path}:{line}: column '{missing}' is missing: schema v{v} requires it")
    status = fields[layout.status]  # type: ignore[index]
    if status not in STATUSES:
        raise CsvError(
            f"{path}:{line}: column 'status' is '{status}': expected one of "
            f"{', '.join(sorted(STATUSES))}"
        )
    for c, i in layout.figures:  # the first bad column as the file has them
        text = fields[i]
        if text == "" or (c != "value" and status != "ok"):
            continue
        try:
            number = float(text)
        except ValueError:
            raise CsvError(f"{path}:{line}: column '{c}' is '{text}': expected a number") from None
        if not math.isfinite(number):  # NaN, inf, 1e999: no measurement, no figure to rank
            raise CsvError(
                f"{path}:{line}: column '{c}' is '{text}': expected a finite number "
                f"(NaN and infinity are not figures)"
            )
        if number < 0 and c in NON_NEGATIVE:
            raise CsvError(
                f"{path}:{line}: column '{c}' is '{text}': expected a number >= 0 "
                f"({NON_NEGATIVE[c]})"
            )
    if status == "ok" and fields[layout.value] == "":  # type: ignore[index]
        raise CsvError(f"{path}:{line}: column 'value' is empty in an ok row: expected a number")


def load_file(path: str, statuses: set | None = None) -> list[Row]:
    """The rows (Row) of one gpubarrier CSV whose status, after the physical bounds
    (bounds.apply), is in `statuses` (None: every row). Read as a stream within
    user_files' bounds, keeping only the rows that can be asked for: memory is a small multiple
    of those rows' own text. Raises CsvError naming the file, the line and what was wrong.

    The tools read CSVs here, never with pandas.read_csv, which the tables that group rows use
    afterwards: a run killed while writing leaves a torn last row, which this reader names by its
    file and line (exit 2, "a torn or hand-edited row?") where read_csv would pad it with NaN or
    fail without a line; it also maps every schema version onto the latest's columns, applies the
    physical bounds and reads within user_files' bounds, row by row."""
    name = tool_main.shown(path)
    # An ok row may end up unverified (outside a bound): kept until the bounds are applied.
    keep = (
        None
        if statuses is None
        else set(statuses) | ({"ok"} if "unverified" in statuses else set())
    )
    shared, configs, b2b, rows, layout = {}, {}, {}, [], None
    intern = shared.setdefault
    for line, fields in user_files.csv_rows(path, EXPECTED, CsvError):
        if layout is None:
            _check_header(name, fields)
            layout = _Layout(fields)
            continue
        _check_row(name, line, layout, fields)
        if keep is not None and fields[layout.status] not in keep:
            continue
        fields.append("")
        texts = layout.shared(fields)
        values = [*map(intern, texts, texts), *layout.own(fields), path, line, None]
        # One config for one configuration: a named one (as written since values had names)
        # reads as the integer codes that older files have.
        written = values[_I_CONFIG]
        key = (values[_I_METHOD], written)
        if key not in configs:
            codes = config_codes(*key)
            configs[key] = intern(codes, codes)
            b2b[key] = back_to_back(key[0], codes)
        values[_I_WRITTEN], values[_I_CONFIG] = written, configs[key]
        if b2b[key] and values[_I_METRIC] in BACK_TO_BACK_METRICS:
            values[_I_METRIC] = BACK_TO_BACK_METRICS[values[_I_METRIC]]
        rows.append(Row(tuple(values)))
    if layout is None:
        _check_header(name, None)
    bounds.apply(rows)
    return rows if statuses is None else [r for r in rows if r["status"] in statuses]


def load(paths: Iterable[str], statuses: set | None = None) -> list:
    rows = []
    for p in paths:
        rows += load_file(p, statuses)
    return rows


def statistic(row: MutableMapping[str, Any]) -> str:
    """What the row's `value` is: its own `statistic` column (v3), else by technique."""
    return row.get("statistic") or STATISTIC_BY_TECHNIQUE.get(row["technique"], "")


# The noisy rule of the executable (results/SCHEMA.md, "Noisy figures"; its thresholds from
# data/schema.json), for rows written before v3, whose notes do not carry it.
NOISY_CV, NOISY_BUDGET_CV, NOISY_MEAN_MEDIAN_GAP = _SCHEMA[3]


def noisy_reason(row: MutableMapping[str, Any]) -> str:
    """Why an ok row's figure is noisy ("" when it is not): its note's `noisy:` part (v3), else
    the same rule applied to its cv, stop, mean and median."""
    note = row.get("note", "")
    if "noisy: " in note:
        return note.split("noisy: ", 1)[1].split(";")[0].strip()
    if row.get("schema_version", "").isdigit() and int(row["schema_version"]) >= 3:
        return ""  # from v3 on, the note says it

    def num(col: str) -> float:
        try:
            return float(row.get(col) or "nan")
        except ValueError:
            return float("nan")

    cv, mean, median = num("cv"), num("mean"), num("median")
    reasons = []
    if cv > NOISY_CV:
        reasons.append(f"cv {cv:.3g} > {NOISY_CV:.3g}")
    elif row.get("stop") == "budget" and cv > NOISY_BUDGET_CV:
        reasons.append(f"time budget spent at cv {cv:.3g} > {NOISY_BUDGET_CV:.3g}")
    stat = statistic(row)
    if (
        (stat.startswith("eq") or "mean" in stat)
        and median == median
        and mean == mean
        and abs(mean - median) > NOISY_MEAN_MEDIAN_GAP * abs(median)
    ):
        gap = 100 * abs(mean - median) / abs(median) if median else float("inf")
        reasons.append(f"mean and median differ by {gap:.3g}% > {100 * NOISY_MEAN_MEDIAN_GAP:.3g}%")
    return ", ".join(reasons)


# Note parts (the note split on "; ") that say a row's figure is no figure to judge by: an
# interval that includes zero (results/SCHEMA.md, "Unresolved figures") and a barrier the
# compiler removed from the timed region.
EXCLUDING_PARTS = (bounds.UNRESOLVED.strip(), "not timed:")


def figure_excluded(row: MutableMapping[str, Any]) -> str | None:
    """Why the row's figure must not be a verdict's figure (a table may still show it with the
    reason), or None when it may be one: its note's first part that starts with "unresolved:" or
    "not timed:" (for an unresolved row, what it does establish: "... below 24.4 ns"), else the
    same rule on the row's figures for a row not read through load (an eq6/eq7 interval that
    includes zero), else for a row that is not ok its status and the reason its note starts
    with ("unverified: outside physical bound: ..."). A clock figure written before the
    executable noted its timed region (its note has no "not timed:" part where the table of
    src/core/timed_regions.cpp says the region lacks the instruction on the row's GPU) is
    excluded with the executable's part and "(the table of the executable; the row predates
    its note)". A noisy row is not excluded here (noisy_reason says it is noisy)."""
    parts = [p.strip() for p in (row.get("note") or "").split("; ")]
    for part in parts:
        if part.startswith(EXCLUDING_PARTS):
            return part
    if row.get("technique") == "clock" and row.get("method") and "config" in row:
        absent = timed_regions.absent_note(
            row["method"], config_axes(row), row.get("gpu_model", "")
        )
        if absent:
            return absent + " (the table of the executable; the row predates its note)"
    status = row.get("status", "")
    if status == "ok":
        why = bounds.unresolved_reason(row)
        return bounds.UNRESOLVED + why if why else None
    return f"{status}: {parts[0]}" if parts[0] else status or "no status"


def one_cache(rows: list) -> list:
    """Per method, its cold rows (config cache=0: L2 evicted before every sample) where it has
    any, else its other rows (warm: cache=1, or rows written before the axis existed), so that
    no figure mixes cold and warm samples."""
    cold = {r["method"] for r in rows if config_axes(r).get("cache") == "0"}
    return [r for r in rows if r["method"] not in cold or config_axes(r).get("cache") == "0"]


def _pairs(config: str) -> list:
    return [item.split("=", 1) for item in config.split() if "=" in item]


def config_codes(method: str, config: str) -> str:
    """A config text with every named value of a categorical axis replaced by the method's code
    (data/schema.json's value_names): what gbcsv puts in a row's `config`, so that a file
    written with names and one written before them give the same configs and join. A name the
    method does not have is kept as it is."""
    codes = _CODES.get(method, {})
    out = []
    for item in config.split():
        k, eq, v = item.partition("=")
        out.append(f"{k}={codes.get(k, {}).get(v, v)}" if eq else item)
    return " ".join(out)


def config_axes(row: MutableMapping[str, Any]) -> dict:
    """The row's configuration as a dict of text (config is `name=value` pairs separated by
    spaces); a categorical axis' value is the method's code ("0"), whether the file wrote the
    name or the code (config_names gives names)."""
    return {k: v for k, v in _pairs(config_codes(row["method"], row["config"]))}


def config_names(row: MutableMapping[str, Any]) -> dict:
    """The row's configuration as a dict, a categorical axis' value by its name
    ("release-acquire"), which means the same on every method (GLOSSARY); a value without a
    name (a numeric axis, a code the method does not name) as its text."""
    names = VALUE_NAMES.get(row["method"], {})
    return {k: names.get(k, {}).get(v, v) for k, v in config_axes(row).items()}


def value_code(method: str, axis: str, name: str) -> str | None:
    """The code (text) that `method` reads for the value named `name` on `axis`, or None."""
    return _CODES.get(method, {}).get(axis, {}).get(name)


def value_name(method: str, axis: str, code: str) -> str | None:
    """The name of `code` (text) on `axis` of `method`, or None when it has none."""
    return VALUE_NAMES.get(method, {}).get(axis, {}).get(str(code))


@overload
def take_option(argv: list[str], name: str) -> str | None: ...
@overload
def take_option(argv: list[str], name: str, default: str) -> str: ...
@overload
def take_option(argv: list[str], name: str, default: str | None) -> str | None: ...
def take_option(argv: list[str], name: str, default: str | None = None) -> str | None:
    """`name VALUE` out of a report's argument list (removed from it), else `default`."""
    if name in argv:
        i = argv.index(name)
        if i + 1 >= len(argv):
            raise tool_main.InputError(f"{name}: expected a value after it")
        value = argv[i + 1]
        del argv[i : i + 2]
        return value
    return default


def finite_number(name: str, text: str) -> float:
    """The number `text` given to option `name`; InputError (exit 2) naming the option if it is
    no number, NaN or infinite (no figure a report prints can be scaled or compared by one)."""
    try:
        value = float(text)
    except ValueError:
        raise tool_main.InputError(f"{name} {text}: expected a number") from None
    if not math.isfinite(value):
        raise tool_main.InputError(f"{name} {text}: expected a finite number (not NaN or infinity)")
    return value


def number_option(argv: list[str], name: str, default: str) -> float:
    """A numeric `name VALUE` out of the argument list (take_option), finite (finite_number)."""
    return finite_number(name, take_option(argv, name, default))


@overload
def format_option(argv: list[str]) -> str | None: ...
@overload
def format_option(argv: list[str], default: str) -> str: ...
def format_option(argv: list[str], default: str | None = None) -> str | None:
    """`--fmt F` out of the argument list (take_option): a format of a number such as .2f;
    InputError naming --fmt when F formats no number."""
    f = take_option(argv, "--fmt", default)
    if f is not None:
        try:
            format(1.5, f)
        except ValueError as e:
            raise tool_main.InputError(
                f"--fmt '{f}': {e}: expected a format of a number such as .2f, .3g or ,.0f"
            ) from None
    return f

"""Reading gpubarrier CSVs of every schema version (results/SCHEMA.md), for the Python tools.

    import gbcsv
    rows = gbcsv.load(["a.csv", "b.csv"])            # every row, as dicts with every column of the latest version
    rows = gbcsv.load(paths, statuses={"ok"})        # only ok rows
    gbcsv.config_axes(row)                           # {"ordering": "0", ...}: each method's codes
    gbcsv.config_names(row)                          # {"ordering": "release-acquire", ...}
    gbcsv.statistic(row)                             # what `value` is: median, eq7, eq6, ...

    csvs, skipped = gbcsv.expand(["results/h100x4"])  # a folder's gpubarrier CSVs, and the
                                                      # other CSVs there with what they are

A file that cannot be read raises CsvError naming the file, the line, the column and what was
expected; tools print it and exit 2 (tools/tool_main.py). Columns a file's version lacks are
filled with "" so that every reader sees one layout. `_file` and `_line` are added to every row.
A categorical axis' value in `config` reads as the method's integer code whether the file wrote
its name (`ordering=release-acquire`) or, written before values had names, the code: old and
new files give the same configs (`_config_written` keeps the text as written).
A row outside a physical bound of its figure (tools/bounds.py) is read as `unverified`, with the
bound at the start of its note.
"""
import csv
import glob
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tool_main  # noqa: E402
import bounds  # noqa: E402

# The CSV schema as the executable states it: `gpubarrier --json schema`, committed beside this
# file (tools/schema.json; test cli.docs_schema_current keeps the two equal), so that the tools
# run without a built gpubarrier.
SCHEMA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")


def _read_schema(path):
    try:
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        columns = [(c["name"], int(c["since"])) for c in schema["columns"]]
        noisy = schema["noisy"]
        value_names = {method: {axis: {str(code): str(name) for code, name in names.items()}
                                for axis, names in axes.items()}
                       for method, axes in schema["value_names"].items()}
        glossary = {axis: dict(names) for axis, names in schema["glossary"].items()}
        return (columns, int(schema["schema_version"]), list(schema["statuses"]),
                (float(noisy["cv"]), float(noisy["budget_cv"]), float(noisy["mean_median_gap"])),
                value_names, glossary)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        why = e.strerror if isinstance(e, OSError) else f"{type(e).__name__}: {e}"
        tool_main.fail(tool_main.InputError(
            f"cannot read the CSV schema {path} ({why}): the tools folder is incomplete; restore "
            f"it from the checkout, or write it with `gpubarrier --json schema > {path}`"))


_SCHEMA = _read_schema(SCHEMA_FILE)
# Columns in CSV order and the schema version that added each.
COLUMNS = _SCHEMA[0]
NAMES = [name for name, _ in COLUMNS]
LATEST = _SCHEMA[1]
NUMERIC = {"value", "mean", "stddev", "min", "max", "median", "p95", "p99", "cv", "samples",
           "sm_clock_mhz"}
NUMERIC_IN_ORDER = [name for name in NAMES if name in NUMERIC]
STATUSES = set(_SCHEMA[2])
# Numeric columns that cannot be negative, and why.
NON_NEGATIVE = {"stddev": "a standard deviation", "samples": "a count of samples"}

# The names of categorical axis values: {method: {axis: {code: name}}} (the method's code for
# each name it has) and {axis: {name: meaning}} (one meaning per name on every method).
VALUE_NAMES = _SCHEMA[4]
GLOSSARY = _SCHEMA[5]
_CODES = {method: {axis: {name: code for code, name in names.items()}
                   for axis, names in axes.items()}
          for method, axes in VALUE_NAMES.items()}

# What `value` is for rows that do not say (schema v1 and v2), by technique (results/SCHEMA.md).
STATISTIC_BY_TECHNIQUE = {"clock": "median", "host-loop": "median", "differential": "eq7",
                          "fusion": "eq6"}


class CsvError(tool_main.InputError):
    """A file gpubarrier's tools cannot read: the message names file, line and column (exit 2)."""


# CSVs of other kinds that sit beside gpubarrier's in results folders: (the columns that tell
# them, what they are and what reads them).
OTHER_KINDS = [
    ({"method", "config", "convention", "source", "round", "value_ns"}, "reference-check",
     "a reference check of scripts/reference-check (`gpubarrier report reference FILE` "
     "tabulates it)"),
    ({"tool", "method", "result"}, "sanitize",
     "a sanitizer summary of scripts/gpu-sanitize (`gpubarrier report sanitize FILE` "
     "tabulates it)"),
    ({"run_id", "method", "config", "metric", "sample", "value"}, "raw",
     "raw samples of `run --raw` (`gpubarrier compare --raw` reads them)"),
]


def kind_of_header(header):
    """(kind, what it is) of a CSV that is not gpubarrier's, from its header; None for none of
    the known kinds."""
    names = {h.lstrip("\ufeff") for h in header or []}
    for columns, kind, what in OTHER_KINDS:
        if columns <= names:
            return kind, what
    return None


def kind_of(path):
    """("gpubarrier", "") for a gpubarrier CSV (its first column is schema_version), else
    (kind, why it is not one): "reference-check", "sanitize", "raw" or "other"."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            header = next(csv.reader(f), None)
    except OSError as e:
        return "other", f"cannot open: {e.strerror}"
    except (csv.Error, UnicodeDecodeError) as e:
        return "other", f"not a CSV of text ({type(e).__name__})"
    if header and header[0].lstrip("\ufeff") == "schema_version":
        return "gpubarrier", ""
    known = kind_of_header(header)
    if known:
        return known[0], f"not a gpubarrier CSV: {known[1]}"
    first = f"its first column is '{header[0]}'" if header else "it is empty"
    return "other", f"not a gpubarrier CSV: {first}, expected 'schema_version'"


def expand(paths):
    """(gpubarrier CSVs, [(path, kind, why)] skipped) of files and folders: a folder is searched
    recursively for *.csv and only its gpubarrier CSVs are kept; a file named is kept as it is
    (load names what is wrong with it). A path that does not exist raises CsvError."""
    csvs, skipped = [], []
    for p in paths:
        if os.path.isdir(p):
            for f in sorted(glob.glob(os.path.join(p, "**", "*.csv"), recursive=True)):
                kind, why = kind_of(f)
                if kind == "gpubarrier":
                    csvs.append(f)
                else:
                    skipped.append((f, kind, why))
        elif os.path.exists(p):
            csvs.append(p)
        else:
            raise CsvError(f"{p}: no such file or directory (expected a gpubarrier CSV or a "
                           f"folder of them)")
    seen = set()
    return [p for p in csvs if not (p in seen or seen.add(p))], skipped


def no_csv_error(paths, skipped):
    """The CsvError for folders that hold no gpubarrier CSV (what was there instead)."""
    found = f": {len(skipped)} CSV{'s' if len(skipped) != 1 else ''} of other kinds " \
        f"({', '.join(sorted({k for _, k, _ in skipped}))})" if skipped else ": no *.csv"
    return CsvError(f"{', '.join(paths)}: no gpubarrier CSV (a CSV whose first column is "
                    f"schema_version){found}")


def columns_of(version):
    return [name for name, since in COLUMNS if since <= version]


def _check_header(path, header):
    if not header:
        raise CsvError(f"{path}:1: empty file: expected a gpubarrier CSV header "
                       f"(schema_version,run_id,...)")
    if header[0].lstrip("\ufeff") != "schema_version":
        known = kind_of_header(header)
        what = f"this is {known[1]}, not a gpubarrier CSV" if known else \
            "is this a gpubarrier CSV?"
        raise CsvError(f"{path}:1: column 1 is '{header[0]}': expected 'schema_version' "
                       f"({what})")
    unknown = [h for h in header if h not in NAMES]
    if unknown:
        raise CsvError(f"{path}:1: column '{unknown[0]}' is not in any schema version up to "
                       f"v{LATEST} (results/SCHEMA.md)")


def _check_row(path, line, header, fields):
    if len(fields) != len(header):
        raise CsvError(f"{path}:{line}: {len(fields)} fields, expected {len(header)} (the header's "
                       f"columns); a torn or hand-edited row?")
    row = dict(zip(header, fields))
    v = row["schema_version"]
    if not v.isdigit() or not 1 <= int(v) <= LATEST:
        raise CsvError(f"{path}:{line}: column 'schema_version' is '{v}': expected 1..{LATEST}")
    missing = [c for c in columns_of(int(v)) if c not in row]
    if missing:
        raise CsvError(f"{path}:{line}: column '{missing[0]}' is missing: schema v{v} requires it")
    if row["status"] not in STATUSES:
        raise CsvError(f"{path}:{line}: column 'status' is '{row['status']}': expected one of "
                       f"{', '.join(sorted(STATUSES))}")
    for c in NUMERIC_IN_ORDER:  # the first bad column as the file has them
        text = row.get(c, "")
        if text == "" or (c != "value" and row["status"] != "ok"):
            continue
        try:
            number = float(text)
        except ValueError:
            raise CsvError(f"{path}:{line}: column '{c}' is '{text}': expected a number") from None
        if not math.isfinite(number):  # NaN, inf, 1e999: no measurement, no figure to rank
            raise CsvError(f"{path}:{line}: column '{c}' is '{text}': expected a finite number "
                           f"(NaN and infinity are not figures)")
        if number < 0 and c in NON_NEGATIVE:
            raise CsvError(f"{path}:{line}: column '{c}' is '{text}': expected a number >= 0 "
                           f"({NON_NEGATIVE[c]})")
    if row["status"] == "ok" and row["value"] == "":
        raise CsvError(f"{path}:{line}: column 'value' is empty in an ok row: expected a number")
    return row


def load_file(path, statuses=None):
    try:
        f = open(path, newline="", encoding="utf-8")
    except OSError as e:
        raise CsvError(f"{path}: cannot open: {e.strerror}") from None
    with f:
        reader = csv.reader(f)
        try:
            header = next(reader, None)
            _check_header(path, header)
            rows = []
            for fields in reader:
                if not fields:
                    continue
                row = _check_row(path, reader.line_num, header, fields)
                full = {name: row.get(name, "") for name in NAMES}
                full["_file"], full["_line"] = path, reader.line_num
                # One config for one configuration: a named one (as written since values had
                # names) reads as the integer codes that older files have.
                full["_config_written"] = full["config"]
                full["config"] = config_codes(full["method"], full["config"])
                rows.append(full)
            bounds.apply(rows)
            return [r for r in rows if statuses is None or r["status"] in statuses]
        except csv.Error as e:
            raise CsvError(f"{path}:{reader.line_num}: not valid CSV: {e}") from None
        except UnicodeDecodeError as e:
            raise CsvError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None


def load(paths, statuses=None):
    rows = []
    for p in paths:
        rows += load_file(p, statuses)
    return rows


def statistic(row):
    """What the row's `value` is: its own `statistic` column (v3), else by technique."""
    return row.get("statistic") or STATISTIC_BY_TECHNIQUE.get(row["technique"], "")


# The noisy rule of the executable (results/SCHEMA.md, "Noisy figures"; its thresholds from
# tools/schema.json), for rows written before v3, whose notes do not carry it.
NOISY_CV, NOISY_BUDGET_CV, NOISY_MEAN_MEDIAN_GAP = _SCHEMA[3]


def noisy_reason(row):
    """Why an ok row's figure is noisy ("" when it is not): its note's `noisy:` part (v3), else
    the same rule applied to its cv, stop, mean and median."""
    note = row.get("note", "")
    if "noisy: " in note:
        return note.split("noisy: ", 1)[1].split(";")[0].strip()
    if row.get("schema_version", "").isdigit() and int(row["schema_version"]) >= 3:
        return ""  # from v3 on, the note says it
    def num(col):
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
    if (stat.startswith("eq") or "mean" in stat) and median == median and mean == mean and \
            abs(mean - median) > NOISY_MEAN_MEDIAN_GAP * abs(median):
        gap = 100 * abs(mean - median) / abs(median) if median else float("inf")
        reasons.append(f"mean and median differ by {gap:.3g}% > {100 * NOISY_MEAN_MEDIAN_GAP:.3g}%")
    return ", ".join(reasons)


def one_cache(rows):
    """Per method, its cold rows (config cache=0: L2 evicted before every sample) where it has
    any, else its other rows (warm: cache=1, or rows written before the axis existed), so that
    no figure mixes cold and warm samples."""
    cold = {r["method"] for r in rows if config_axes(r).get("cache") == "0"}
    return [r for r in rows if r["method"] not in cold or config_axes(r).get("cache") == "0"]


def _pairs(config):
    return [item.split("=", 1) for item in config.split() if "=" in item]


def config_codes(method, config):
    """A config text with every named value of a categorical axis replaced by the method's code
    (tools/schema.json's value_names): what gbcsv puts in a row's `config`, so that a file
    written with names and one written before them give the same configs and join. A name the
    method does not have is kept as it is."""
    codes = _CODES.get(method, {})
    out = []
    for item in config.split():
        k, eq, v = item.partition("=")
        out.append(f"{k}={codes.get(k, {}).get(v, v)}" if eq else item)
    return " ".join(out)


def config_axes(row):
    """The row's configuration as a dict of text (config is `name=value` pairs separated by
    spaces); a categorical axis' value is the method's code ("0"), whether the file wrote the
    name or the code (config_names gives names)."""
    return {k: v for k, v in _pairs(config_codes(row["method"], row["config"]))}


def config_names(row):
    """The row's configuration as a dict, a categorical axis' value by its name
    ("release-acquire"), which means the same on every method (GLOSSARY); a value without a
    name (a numeric axis, a code the method does not name) as its text."""
    names = VALUE_NAMES.get(row["method"], {})
    return {k: names.get(k, {}).get(v, v) for k, v in config_axes(row).items()}


def value_code(method, axis, name):
    """The code (text) that `method` reads for the value named `name` on `axis`, or None."""
    return _CODES.get(method, {}).get(axis, {}).get(name)


def value_name(method, axis, code):
    """The name of `code` (text) on `axis` of `method`, or None when it has none."""
    return VALUE_NAMES.get(method, {}).get(axis, {}).get(str(code))


def take_option(argv, name, default=None):
    """`name VALUE` out of a report's argument list (removed from it), else `default`."""
    if name in argv:
        i = argv.index(name)
        if i + 1 >= len(argv):
            raise tool_main.InputError(f"{name}: expected a value after it")
        value = argv[i + 1]
        del argv[i:i + 2]
        return value
    return default


def number_option(argv, name, default):
    """A numeric `name VALUE` out of the argument list (take_option); InputError if VALUE is not
    a number."""
    text = take_option(argv, name, default)
    try:
        return float(text)
    except ValueError:
        raise tool_main.InputError(f"{name} {text}: expected a number") from None

#!/usr/bin/env python3
"""gpubarrier_tools/data/gbcsv.py, the CSV reader of every Python tool: files of schema v1, v2 and v3 read into
one layout, what `value` is inferred for rows that do not say, the noisy rule of SCHEMA.md for
rows written before v3 (the H100 kernel.fusion row it was made for), and errors that name the
file, the line and the column.

Run by pytest: pytest tests/cli/test_gbcsv.py
"""
import csv
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gpubarrier_tools.data import gbcsv
from gpubarrier_tools.analysis.reports import common


def expect(cond, what):
    assert cond, what


def write(d, name, header, rows):
    path = os.path.join(d, name)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(",".join(header) + "\r\n")
        for r in rows:
            f.write(",".join(r.get(c, "") for c in header) + "\r\n")
    return path


def error_of(path):
    try:
        gbcsv.load_file(path)
    except gbcsv.CsvError as e:
        return str(e)
    return ""


ok = {"method": "gpu.grid.cg", "config": "blocks_per_sm=1", "metric": "latency", "unit": "ns",
      "value": "1000", "mean": "1000", "median": "1000", "cv": "0.01", "stop": "converged",
      "status": "ok", "technique": "differential"}


def test_load(tmp_path):
    d = str(tmp_path)
    for version in (1, 2, 3):
        header = gbcsv.columns_of(version)
        path = write(d, f"v{version}.csv", header, [dict(ok, schema_version=str(version))])
        rows = gbcsv.load_file(path)
        expect(len(rows) == 1 and set(gbcsv.NAMES) <= set(rows[0]), f"v{version}: every column")
        expect(gbcsv.statistic(rows[0]) == "eq7", f"v{version}: differential value is eq7")
    v3 = write(d, "stat.csv", gbcsv.columns_of(3),
               [dict(ok, schema_version="3", statistic="loop-mean")])
    expect(gbcsv.statistic(gbcsv.load_file(v3)[0]) == "loop-mean", "v3: the row's own statistic")

    # The noisy rule, on a v2 row like the H100 fusion row (budget-stopped, p99 far out).
    noisy = dict(ok, schema_version="2", technique="fusion", value="1610", mean="1610",
                 median="1034", cv="1.96", stop="budget")
    reason = gbcsv.noisy_reason(noisy)
    expect("cv 1.96 > 0.25" in reason and "mean and median differ" in reason, f"noisy: {reason}")
    expect(gbcsv.noisy_reason(dict(ok, schema_version="2", cv="0.08", stop="budget")) != "",
           "budget-stopped at cv 0.08 is noisy")
    expect(gbcsv.noisy_reason(dict(ok, schema_version="2", cv="0.08")) == "",
           "converged at cv 0.08 is not noisy")
    expect(gbcsv.noisy_reason(dict(ok, schema_version="3", note="verified; noisy: cv 0.3 > 0.25"))
           == "cv 0.3 > 0.25", "v3: the note's own reason")
    expect(gbcsv.noisy_reason(dict(ok, schema_version="3", cv="0.9")) == "",
           "v3 rows carry the rule in their note; none there means not noisy")
    h100 = gbcsv.load([os.path.join(ROOT, "results", "h100", "single-gpu.csv")], {"ok"})
    flagged = [r["method"] for r in h100 if gbcsv.noisy_reason(r)]
    expect("kernel.fusion" in flagged, f"the committed H100 fusion row is noisy: {flagged}")

    # Named axis values: a committed CSV written with integer codes, and the same rows as the
    # executable writes them now (categorical values by name), read to the same configs; the
    # floor signal and the barriers share a name for one ordering, each with its own code.
    old_path = os.path.join(ROOT, "results", "h100x4", "floor.csv")
    old_rows = gbcsv.load_file(old_path)
    with open(old_path, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    head, col = table[0], table[0].index("config")
    renamed = 0
    for fields in table[1:]:
        method = fields[head.index("method")]
        items = []
        for item in fields[col].split():
            k, _, v = item.partition("=")
            name = gbcsv.value_name(method, k, v)
            renamed += name is not None
            items.append(f"{k}={name or v}")
        fields[col] = " ".join(items)
    named_path = os.path.join(d, "named.csv")
    with open(named_path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(table)
    named_rows = gbcsv.load_file(named_path)
    expect(renamed > 100, f"the committed floor CSV has categorical values: {renamed}")
    expect("ordering=release-acquire" in open(named_path, encoding="utf-8").read(),
           "the named file writes names")
    expect([r["config"] for r in named_rows] == [r["config"] for r in old_rows],
           "an old integer config and its named equivalent read as the same config")
    expect([gbcsv.config_axes(r) for r in named_rows] == [gbcsv.config_axes(r) for r in old_rows],
           "config_axes: the method's codes either way")
    expect([gbcsv.config_names(r) for r in named_rows] ==
           [gbcsv.config_names(r) for r in old_rows], "config_names: names either way")
    push = next(r for r in old_rows if r["method"] == "multigpu.device.push" and
                gbcsv.config_axes(r).get("ordering") == "0")
    signal = next(r for r in old_rows if r["method"] == "multigpu.floor.signal" and
                  gbcsv.config_axes(r).get("ordering") == "3")
    expect(gbcsv.config_names(push)["ordering"] == gbcsv.config_names(signal)["ordering"] ==
           "release-acquire", "push's 0 and the floor signal's 3 are one ordering by name")
    expect(gbcsv.config_names(push)["fault"] == "none" and
           gbcsv.config_names(push)["blocks_per_sm"] == gbcsv.config_axes(push)["blocks_per_sm"],
           "a numeric axis keeps its value")
    expect(all(n in gbcsv.GLOSSARY[a] for m in gbcsv.VALUE_NAMES.values()
               for a, names in m.items() for n in names.values()),
           "every method's names are in the glossary")
    expect(gbcsv.config_codes("multigpu.device.push", "ordering=nope fault=1") ==
           "ordering=nope fault=1", "a name a method does not have is kept as written")

    # Errors name the file, the line and the column.
    h = gbcsv.columns_of(2)
    cases = {
        "not a gpubarrier CSV": (["a", "b"], [], "column 1 is 'a'"),
        "unknown column": (h + ["colour"], [], "column 'colour'"),
        "bad version": (h, [dict(ok, schema_version="9")], ":2: column 'schema_version'"),
        "v2 row without node": (gbcsv.columns_of(1), [dict(ok, schema_version="2")],
                                ":2: column 'node' is missing"),
        "bad number": (h, [dict(ok, schema_version="2", value="fast")],
                       ":2: column 'value' is 'fast': expected a number"),
        "bad status": (h, [dict(ok, schema_version="2", status="great")], "column 'status'"),
    }
    for what, (header, rows, want) in cases.items():
        path = write(d, "bad.csv", header, rows)
        msg = error_of(path)
        expect(msg.startswith(path) and want in msg, f"{what}: '{msg}' should name {want}")
    torn = os.path.join(d, "torn.csv")
    with open(torn, "w", encoding="utf-8") as f:
        f.write(",".join(h) + "\n" + "2,run\n")
    expect(":2:" in error_of(torn) and "fields" in error_of(torn), "a torn row names its line")
    expect("cannot open" in error_of(os.path.join(d, "missing.csv")), "a missing file")


def test_filters_take_names():
    """The reports' COL=V filters (value markers, rows, findings) take a value's name as well as
    its code: ordering=release-acquire selects push's rows of ordering 0."""
    row = {"method": "multigpu.device.push", "config": "ordering=0 part=0", "metric": "latency"}
    expect(common.matches(row, ordering="release-acquire"), "a name matches its code")
    expect(common.matches(row, ordering="0"), "the code itself matches")
    expect(not common.matches(row, ordering="seq-cst-fence"), "another name does not match")
    expect(common.matches(dict(row, config="ordering=release-acquire"), ordering="release-acquire"),
           "a named config matches its name")

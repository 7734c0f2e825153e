#!/usr/bin/env python3
"""`gpubarrier schema`: the CSV schema as the executable states it, and gpubarrier_tools/data/schema.json, the
copy of it that the Python tools read (gpubarrier_tools/data/gbcsv.py). Plain python3 (stdlib only).

Run by pytest: pytest tests/cli/test_schema.py [--gpubarrier PATH]
  current  gpubarrier_tools/data/schema.json is byte for byte what `GPUBARRIER --json schema` prints
  command  `schema --json` and `--json schema` agree; the table names every column with its
           version, the noisy thresholds, the statuses and the named axis values; the JSON's
           value names are the glossary's; --help says what it is for
  readers  gbcsv's COLUMNS, NAMES, LATEST, STATUSES, NOISY_*, GLOSSARY and VALUE_NAMES are the
           file's; a tools folder
           without a readable schema.json is one line and exit 2, no traceback
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


from cli_common import expect, run_gpubarrier

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "gpubarrier_tools")
SCHEMA = os.path.join(TOOLS, "data", "schema.json")


def stated(exe):
    p = run_gpubarrier(exe, "--json", "schema", timeout=60)
    expect(p.returncode == 0, "gpubarrier --json schema failed", p)
    return p


def test_current(exe):
    p = stated(exe)
    with open(SCHEMA, encoding="utf-8") as f:
        committed = f.read()
    expect(committed == p.stdout,
           "gpubarrier_tools/data/schema.json differs from what `gpubarrier --json schema` prints (a column, a "
           "noisy threshold, a status or a value name changed in the executable); regenerate it "
           "with\n  scripts/regenerate-docs\nand commit it")


def test_command(exe):
    schema = json.loads(stated(exe).stdout)
    sub = run_gpubarrier(exe, "schema", "--json", timeout=60)
    expect(sub.returncode == 0 and json.loads(sub.stdout) == schema,
           "`schema --json` and `--json schema` print the same", sub)
    expect(list(schema) == ["schema_version", "columns", "noisy", "statuses", "glossary",
                            "value_names", "timed", "bounds"],
           f"the JSON's keys in order, got {list(schema)}")
    # Each method's timed instructions and its own bounds, as the method states them (the tools
    # apply them to rows written before the executable did).
    expect(schema["timed"]["gpu.warp.tile-sync"] == [{"instruction": "WARPSYNC", "sm90": "absent",
                                                      "axis": "", "value": 0}],
           f"gpu.warp.tile-sync's timed instruction: {schema['timed'].get('gpu.warp.tile-sync')}")
    expect([b["metric"] for b in schema["bounds"]["model.smem.stream"]] ==
           ["latency_cycles", "bandwidth_cycles"] and schema["bounds"]["every method"],
           f"the stated bounds: {schema['bounds']}")
    # Named values: one meaning per name; each method's codes named from the glossary, the
    # floor signal's release-acquire the device barriers' release-acquire under another code.
    glossary, names = schema["glossary"], schema["value_names"]
    expect(glossary["ordering"]["release-acquire"] and glossary["cache"]["cold"],
           "the glossary gives each name a meaning")
    expect(all(n in glossary[a] for m in names.values() for a, codes in m.items()
               for n in codes.values()), "every method's value names are in the glossary")
    expect(names["multigpu.floor.signal"]["ordering"]["3"] == "release-acquire" and
           names["multigpu.device.push"]["ordering"]["0"] == "release-acquire",
           f"ordering by name: {names.get('multigpu.floor.signal')}")
    expect(all(len(set(codes.values())) == len(codes) for m in names.values()
               for codes in m.values()), "a method's axis gives each name one code")
    columns = schema["columns"]
    expect(columns[0] == {"name": "schema_version", "since": 1} and
           all(set(c) == {"name", "since"} for c in columns), "columns: name and since each")
    since = [c["since"] for c in columns]
    expect(since == sorted(since) and since[-1] == schema["schema_version"],
           f"columns are only appended, the last of the current version: {since}")
    expect(schema["noisy"] == {"cv": 0.25, "budget_cv": 0.05, "mean_median_gap": 0.1},
           f"the noisy thresholds of results/SCHEMA.md, got {schema['noisy']}")
    expect(schema["statuses"] == ["ok", "skipped", "failed", "timeout", "unverified"],
           f"the statuses, got {schema['statuses']}")
    table = run_gpubarrier(exe, "schema", timeout=60)
    expect(table.returncode == 0, "gpubarrier schema failed", table)
    lines = table.stdout.split("\n")
    for c in columns:
        expect(f"{c['name']:<20} v{c['since']}" in lines, f"the table's line of {c['name']}",
               table)
    expect(f"CSV schema version {schema['schema_version']}" in table.stdout and
           "above 0.25" in table.stdout and "above 0.05" in table.stdout and
           "more than 10%" in table.stdout and
           "Statuses: ok, skipped, failed, timeout, unverified" in table.stdout,
           "the table's version, noisy rule and statuses", table)
    expect("Named axis values" in table.stdout and
           any(l.split()[:2] == ["ordering", "release-acquire"] for l in lines),
           "the table lists the named values with their meanings", table)
    helped = run_gpubarrier(exe, "schema", "--help", timeout=60)
    expect(helped.returncode == 0 and "Python tools read" in helped.stdout,
           "schema --help says what it is for", helped)
    top = run_gpubarrier(exe, "--help", timeout=60)
    expect("schema" in top.stdout, "gpubarrier --help lists schema", top)


def test_readers(exe):
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    from gpubarrier_tools.data import gbcsv  # noqa: PLC0415
    expect(gbcsv.COLUMNS == [(c["name"], c["since"]) for c in schema["columns"]],
           "gbcsv.COLUMNS is the file's")
    expect(gbcsv.NAMES == [c["name"] for c in schema["columns"]], "gbcsv.NAMES")
    expect(gbcsv.LATEST == schema["schema_version"], "gbcsv.LATEST")
    expect(gbcsv.STATUSES == set(schema["statuses"]), "gbcsv.STATUSES")
    noisy = schema["noisy"]
    expect((gbcsv.NOISY_CV, gbcsv.NOISY_BUDGET_CV, gbcsv.NOISY_MEAN_MEDIAN_GAP) ==
           (noisy["cv"], noisy["budget_cv"], noisy["mean_median_gap"]), "gbcsv.NOISY_*")
    expect(gbcsv.columns_of(1)[-1] == "note" and gbcsv.columns_of(gbcsv.LATEST) == gbcsv.NAMES,
           "gbcsv.columns_of by version")
    expect(gbcsv.GLOSSARY == schema["glossary"] and gbcsv.VALUE_NAMES == schema["value_names"],
           "gbcsv.GLOSSARY and VALUE_NAMES are the file's")
    # A tools folder whose schema.json is missing or broken: one line naming it and the fix.
    with tempfile.TemporaryDirectory(prefix="gb-schema-") as d:
        tools = os.path.join(d, "gpubarrier_tools")
        shutil.copytree(TOOLS, tools, ignore=shutil.ignore_patterns("__pycache__", "schema.json"))
        for content in (None, "{\"columns\": [}", "{\"columns\": []}"):
            path = os.path.join(tools, "data", "schema.json")
            if content is not None:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(content)
            p = subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.report", "count",
                                os.path.join(d, "x.csv")], capture_output=True, text=True,
                               timeout=60, cwd=d)
            expect(p.returncode == 2 and len(p.stderr.strip().split("\n")) == 1 and
                   path in p.stderr and "gpubarrier --json schema" in p.stderr and
                   "Traceback" not in p.stderr,
                   f"schema.json {'missing' if content is None else repr(content)}: one line, "
                   f"exit 2", p)

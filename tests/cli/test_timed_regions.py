#!/usr/bin/env python3
"""Rows written before the executable noted whether a clock figure's timed region holds its
instruction (each method states it, MethodInfo::timed) are judged by the instructions the
executable states (`gpubarrier --json schema`, "timed"; gpubarrier_tools/data/timed_regions.py reads them from
gpubarrier_tools/data/schema.json):

  old_row   a committed H100 gpu.warp.tile-sync latency row (h100/2026-11-28/study-tables.csv
            line 27, note "verified; SM clock 1979 MHz measured") is excluded with the reason
            the executable writes, "not timed: compiled to no WARPSYNC on sm_90 (...)"; a
            gpu.warp.tile-shuffle row of that file (SHFL, timed) is not excluded
  table     the tools' absent instructions are the executable's, every method that states a
            timed instruction is a clock-technique method of `list`, and every clock-technique
            method states one

Run by pytest: pytest tests/cli/test_timed_regions.py [--gpubarrier PATH]
"""
import json
import os
import sys


sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from gpubarrier_tools.data import gbcsv
from cli_common import committed_files, expect, run_gpubarrier

STUDY_1X = "results/h100/2026-11-28/study-tables.csv"


def test_old_row():
    expect(STUDY_1X in committed_files(ROOT, os.path.dirname(STUDY_1X)), f"{STUDY_1X} committed")
    rows = {r["_line"]: r for r in gbcsv.load([os.path.join(ROOT, STUDY_1X)])}
    row = rows[27]
    expect((row["method"], row["metric"], row["technique"]) ==
           ("gpu.warp.tile-sync", "latency", "clock"), f"line 27 is {row['method']} {row['metric']}")
    expect("timed:" not in row["note"], f"line 27 predates the note: {row['note']!r}")
    want = ("not timed: compiled to no WARPSYNC on sm_90 (the table of the executable; the row "
            "predates its note)")
    got = gbcsv.figure_excluded(row)
    expect(got == want, f"{STUDY_1X}:27: figure_excluded gives {got!r}, expected {want!r}")
    shuffle = [r for r in rows.values() if r["method"] == "gpu.warp.tile-shuffle" and
               r["metric"] == "latency" and r["status"] == "ok"]
    expect(shuffle, "an ok gpu.warp.tile-shuffle latency row")
    for r in shuffle:
        got = gbcsv.figure_excluded(r)
        expect(got is None, f"{STUDY_1X}:{r['_line']}: a timed SHFL row is excluded: {got!r}")
    print("PASS old_row")


def test_table(gpubarrier):
    from gpubarrier_tools.data import timed_regions
    schema = run_gpubarrier(gpubarrier, "--json", "schema")
    expect(schema.returncode == 0, "gpubarrier --json schema exits 0", schema)
    timed = json.loads(schema.stdout)["timed"]
    listed = run_gpubarrier(gpubarrier, "list", "--json")
    expect(listed.returncode == 0, "gpubarrier list --json exits 0", listed)
    clock = {m["name"] for m in json.loads(listed.stdout)
             if "clock technique" in m["description"]}
    expect(set(timed) == clock, f"methods that state a timed instruction {sorted(timed)} are "
           f"not the clock-technique methods {sorted(clock)}")
    absent = {(method, t["axis"], t["value"], t["instruction"])
              for method, rows in timed.items() for t in rows if t["sm90"] == "absent"}
    expect(absent, "some timed instruction is absent on sm_90 (the converged warp syncs)")
    read = set(timed_regions.ABSENT_ON_SM90)
    expect(read == absent, f"gpubarrier_tools/data/timed_regions.py reads {sorted(read)}, the executable states "
           f"{sorted(absent)}: regenerate gpubarrier_tools/data/schema.json (scripts/regenerate-docs)")
    print("PASS table", len(absent), "absent instructions")

#!/usr/bin/env python3
"""Rows written before the executable noted whether a clock figure's timed region holds its
instruction (src/core/timed_regions.cpp) are judged by the same table (gpubarrier_tools/data/timed_regions.py):

  old_row   a committed H100 gpu.warp.tile-sync latency row (h100/2026-11-28/study-tables.csv
            line 27, note "verified; SM clock 1979 MHz measured") is excluded with the reason
            the executable writes, "not timed: compiled to no WARPSYNC on sm_90 (...)"; a
            gpu.warp.tile-shuffle row of that file (SHFL, timed) is not excluded
  table     the Python table's absent rows are src/core/timed_regions.cpp's absent rows

Run by pytest: pytest tests/cli/test_timed_regions.py [--gpubarrier PATH]
"""
import os
import re
import sys


sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from gpubarrier_tools.data import gbcsv
from cli_common import committed_files, expect

STUDY_1X = "results/h100/2026-11-28/study-tables.csv"
CPP = "src/core/timed_regions.cpp"
ROW = re.compile(r'^\s*TimedRegion\{"([^"]+)", "([^"]*)", (\d+), "([A-Z0-9_.]+)", '
                 r'(timed|diverged|absent)\},$')


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


def test_table():
    from gpubarrier_tools.data import timed_regions
    lines = [line for line in open(os.path.join(ROOT, CPP)).read().splitlines()
             if line.strip().startswith("TimedRegion{")]
    expect(lines, f"{CPP}: TimedRegion rows")
    absent = set()
    for line in lines:
        m = ROW.match(line)
        expect(m, f"{CPP}: a row this test cannot read (one row a line): {line.strip()}")
        method, axis, value, instruction, where = m.groups()
        if where == "absent":
            absent.add((method, axis, int(value) if axis else 0, instruction))
    copy = {(m, a, v if a else 0, i) for m, a, v, i in timed_regions.ABSENT_ON_SM90}
    expect(copy == absent, f"gpubarrier_tools/data/timed_regions.py and {CPP} disagree: only in Python "
           f"{sorted(copy - absent)}, only in C++ {sorted(absent - copy)}")
    print("PASS table", len(absent), "absent rows")

#!/usr/bin/env python3
"""gpubarrier_tools/analysis/same_rows.py, the before/after check of refactors, fails on a changed status or a value
beyond its limit and passes on noise within it.

Run by pytest: pytest tests/cli/test_same_rows.py
"""
import csv
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = ["-m", "gpubarrier_tools.analysis.same_rows"]
COLUMNS = ["method", "config", "metric", "launcher", "gpu_count", "gpu_ids", "value", "stddev",
           "samples", "status"]


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for method, value, status in rows:
            w.writerow([method, "blocks_per_sm=1", "latency", "threads", "2", "0,1", value, "10",
                        "20", status])


def run(before, after):
    return subprocess.run([sys.executable, *TOOL, before, after], capture_output=True, text=True)


def test_same_rows(tmp_path):
    d = str(tmp_path)
    a, b, c, e = (os.path.join(d, n) for n in ("a.csv", "b.csv", "c.csv", "e.csv"))
    write(a, [("m.one", "1000", "ok"), ("m.two", "", "skipped")])
    write(b, [("m.one", "1030", "ok"), ("m.two", "", "skipped"), ("m.new", "5", "ok")])
    write(c, [("m.one", "1100", "ok"), ("m.two", "", "skipped")])
    write(e, [("m.one", "1000", "ok"), ("m.two", "", "timeout")])
    same = run(a, b)
    if same.returncode != 0 or "only after: m.new" not in same.stdout:
        pytest.fail(f"3% apart should agree and m.new be listed\n{same.stdout}{same.stderr}")
    if run(a, c).returncode != 1:
        pytest.fail("10% apart with a standard error of 2.2 should differ")
    status = run(a, e)
    if status.returncode != 1 or "status skipped -> timeout" not in status.stdout:
        pytest.fail(f"a changed status should differ\n{status.stdout}")
    with open(e, "w") as f:
        f.write("method,value\nx,1\n")
    bad = run(a, e)
    if bad.returncode == 0 or "no column config" not in bad.stderr:
        pytest.fail(f"a CSV without the key columns should be refused\n{bad.stderr}")

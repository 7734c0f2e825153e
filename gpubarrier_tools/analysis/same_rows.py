#!/usr/bin/env python3
"""Do two gpubarrier CSVs of the same sweep say the same thing? (before and after a refactor)

    analysis/same_rows.py BEFORE.csv AFTER.csv [--tolerance 0.05] [--se 3]

Rows are joined on (method, config, metric, launcher, gpu_count, gpu_ids), a config's named
values read as the method's codes (data/gbcsv.py), so that a file written before values had
names joins one written after. A pair agrees when
both statuses are equal and, for rows with figures, the values differ by at most
max(tolerance x before, se x the combined standard error), the standard error of each row being
stddev / sqrt(samples). Rows present on one side only are listed (a method added or removed);
they do not fail the check. Exit 0 when every joined pair agrees, 1 otherwise, 2 on bad input.
Reads schema v1 and later (only the columns above, value, stddev, samples, status).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import MutableMapping, Sequence
from typing import Any

from ..data import gbcsv, user_files
from ..data.tool_main import InputError, run, shown

KEY = ("method", "config", "metric", "launcher", "gpu_count", "gpu_ids")
NEEDED = KEY + ("value", "stddev", "samples", "status")


def load(path: str) -> dict:
    header, records = user_files.csv_dicts(path, "a gpubarrier CSV", InputError)
    missing = [c for c in NEEDED if c not in header]
    if missing:
        raise InputError(f"{shown(path)}: not a gpubarrier CSV: no column {missing[0]}")
    rows = {}
    for line, r in records:
        r["config"] = gbcsv.config_codes(r["method"], r["config"])
        key = tuple(r[c] for c in KEY)
        if key in rows:
            raise InputError(f"{shown(path)}:{line}: a second row for {key}: one sweep per file")
        rows[key] = r
    return rows


def standard_error(r: MutableMapping[str, Any]) -> float:
    n = float(r["samples"] or 0)
    return float(r["stddev"] or 0) / math.sqrt(n) if n > 0 else 0.0


def compare(before: dict, after: dict, tolerance: float, se_factor: float) -> tuple[list, int]:
    """(lines, number of disagreements) for the joined rows."""
    lines, bad = [], 0
    for key in sorted(before.keys() & after.keys()):
        b, a = before[key], after[key]
        label = f"{key[0]} {key[1]} {key[2]} [{key[3]}, {key[4]} GPUs]"
        if b["status"] != a["status"]:
            bad += 1
            lines.append(f"DIFFERS  {label}: status {b['status']} -> {a['status']}")
            continue
        if not b["value"] or not a["value"]:
            continue
        vb, va = float(b["value"]), float(a["value"])
        se = math.hypot(standard_error(b), standard_error(a))
        limit = max(tolerance * abs(vb), se_factor * se)
        ok = abs(va - vb) <= limit
        bad += not ok
        change = (va - vb) / vb * 100 if vb else float("inf")
        lines.append(
            f"{'same    ' if ok else 'DIFFERS '} {label}: {vb:.6g} -> {va:.6g} "
            f"({change:+.1f}%, limit {limit:.3g})"
        )
    for side, only in (
        ("before", before.keys() - after.keys()),
        ("after", after.keys() - before.keys()),
    ):
        for key in sorted(only):
            lines.append(f"only {side}: {' '.join(key)}")
    return lines, bad


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--tolerance", type=float, default=0.05, help="relative (default 0.05)")
    p.add_argument("--se", type=float, default=3.0, help="standard errors (default 3)")
    args = p.parse_args(argv)
    before, after = load(args.before), load(args.after)
    lines, bad = compare(before, after, args.tolerance, args.se)
    print("\n".join(lines))
    joined = len(before.keys() & after.keys())
    print(
        f"{joined} joined rows, {bad} differ "
        f"(statuses equal and values within max({args.tolerance:.0%}, {args.se:g} SE))"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    run(main)

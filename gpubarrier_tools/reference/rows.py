#!/usr/bin/env python3
"""CSV plumbing for scripts/reference-check (stdlib only).

  rows.py loop CSV METHOD [AXIS=V ...]   the ok loop row (`loop_latency`, or `loop_interval` of
                                         calls issued back to back) of METHOD whose config has
                                         every AXIS=V: prints value, steps (reps_hi), loops
                                         (samples), statistic and note, tab-separated; exit 1
                                         naming the row's status and note when there is none
  rows.py value FILE                     value_ns of a reference program's output (header + line)
  rows.py add OUT.csv METHOD CONFIG CONVENTION SOURCE ROUND VALUE STEPS LOOPS HOST NOTE
                                         appends one row to OUT.csv (header first when new)

OUT.csv's columns are COLUMNS; cli/report.py `reference` prints the comparison from it.
"""
import csv
import os
import sys

# The reference tools' loop mean: of a barrier, and of calls issued back to back (results/SCHEMA.md).
LOOP_METRICS = ("loop_latency", "loop_interval")
COLUMNS = ["method", "config", "convention", "source", "round", "value_ns", "steps", "loops",
           "host", "note"]


def loop(path, method, *filters):
    want = dict(f.split("=", 1) for f in filters)
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["method"] == method]
    for r in rows:
        axes = dict(item.split("=", 1) for item in r["config"].split() if "=" in item)
        if any(axes.get(k) != v for k, v in want.items()):
            continue
        if r["metric"] in LOOP_METRICS and r["status"] == "ok":
            note = r["note"].replace("\t", " ").replace("\n", " ")
            print("\t".join([r["value"], r["reps_hi"], r["samples"], r["statistic"], note]))
            return 0
    seen = "; ".join(f"{r['metric'] or '-'} {r['status']}: {r['note'][:200]}" for r in rows)
    print(f"rows.py: no ok loop row ({', '.join(LOOP_METRICS)}) of {method} {want} in {path} ({seen or 'no rows'})",
          file=sys.stderr)
    return 1


def value(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(line for line in f if "," in line)]
    if not rows or not rows[-1].get("value_ns"):
        print(f"rows.py: {path}: no value_ns line", file=sys.stderr)
        return 1
    print(rows[-1]["value_ns"])
    return 0


def add(path, *fields):
    if len(fields) != len(COLUMNS):
        print(f"rows.py add: {len(fields)} fields, expected {len(COLUMNS)} ({COLUMNS})",
              file=sys.stderr)
        return 2
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        if new:
            w.writerow(COLUMNS)
        w.writerow(fields)
    return 0


def main(argv):
    commands = {"loop": loop, "value": value, "add": add}
    if not argv or argv[0] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    return commands[argv[0]](*argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

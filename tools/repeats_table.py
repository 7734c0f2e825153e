#!/usr/bin/env python3
"""Markdown table of repeated runs of two builds: every ok row's value per run, side by side.

    tools/repeats_table.py --before B1.csv B2.csv ... --after A1.csv A2.csv ...

Rows are joined on (method, config without fault=0, metric); the change is of the means. Used for
the A/B repeats of results/README.md (a refactor's before/after check).
"""
import argparse
import csv
import statistics


def values(paths):
    out = {}
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["status"] == "ok" and r["value"]:
                    key = (r["method"], r["config"].replace(" fault=0", ""), r["metric"])
                    out.setdefault(key, []).append(float(r["value"]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", nargs="+", required=True)
    p.add_argument("--after", nargs="+", required=True)
    args = p.parse_args()
    before, after = values(args.before), values(args.after)
    print(f"| method | config | before ({len(args.before)} runs) | after ({len(args.after)} runs) "
          "| change |")
    print("|---|---|---|---|---|")
    for key in sorted(before.keys() & after.keys()):
        b, a = before[key], after[key]
        change = (statistics.mean(a) - statistics.mean(b)) / statistics.mean(b) * 100
        print(f"| {key[0]} | {key[1]} | {' / '.join(f'{x:.0f}' for x in b)} | "
              f"{' / '.join(f'{x:.0f}' for x in a)} | {change:+.1f}% |")


if __name__ == "__main__":
    main()

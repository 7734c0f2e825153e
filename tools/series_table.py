#!/usr/bin/env python3
"""Markdown table of several labelled series of repeated runs: the mean of every ok row per series.

    tools/series_table.py LABEL=FILE.csv[,FILE.csv...] [LABEL=...] [--relative-to LABEL]

One column per series, in the order given; rows joined on (method, config without fault=0,
metric). With --relative-to, each other column also shows its change against that series. Used
for the placement probe of results/README.md (one series per pad).
"""
import argparse
import statistics
import sys

from repeats_table import values


def parse_series(text):
    label, sep, files = text.partition("=")
    if not sep or not label or not files:
        sys.exit(f"series_table: '{text}': expected LABEL=FILE.csv[,FILE.csv...]")
    return label, files.split(",")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("series", nargs="+", help="LABEL=FILE.csv[,FILE.csv...]")
    p.add_argument("--relative-to", help="label of the series the others are compared with")
    args = p.parse_args()
    series = [parse_series(s) for s in args.series]
    labels = [label for label, _ in series]
    if args.relative_to and args.relative_to not in labels:
        sys.exit(f"series_table: --relative-to {args.relative_to}: no such series ({labels})")
    means = {label: {k: statistics.mean(v) for k, v in values(files).items()}
             for label, files in series}
    keys = sorted(set.intersection(*(set(m) for m in means.values())))
    print("| method | config | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for key in keys:
        ref = means[args.relative_to][key] if args.relative_to else None
        cells = []
        for label in labels:
            v = means[label][key]
            cell = f"{v:.0f}"
            if ref is not None and label != args.relative_to:
                cell += f" ({(v - ref) / ref * 100:+.1f}%)"
            cells.append(cell)
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

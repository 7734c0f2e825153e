#!/usr/bin/env python3
"""Compare gpubarrier CSVs side by side, with a noise-aware verdict per figure.

    gpubarrier compare A.csv B.csv [C.csv ...] [--by system|gpu_model|topology|gpu_count|launcher|file]
                       [--methods GLOBS] [--level LEVELS] [--format table|markdown|csv|json]
                       [--raw RAW.csv ...] [--k 3] [--floor PCT]
    gpubarrier compare --measure-floor [GROUP ...]

SIDES. Each input file is one side; the first side is the baseline that every other side is
compared with. `--by COLUMN` labels the sides by that column's value; a file holding several
values of it (e.g. `--by gpu_count` on a scaling sweep, `--by launcher` on a file with threads and
mpi rows) is split into one side per value, so one file can be compared with itself. Default
`--by`: `system` if every file has one system and the files' systems differ, else `gpu_model` by
the same rule, else `file`. A label that two sides share (two files of system `local`) falls back
to the file name.

WHAT JOINS. Only `ok` rows. Rows join on method, configuration (the axes of `config`, in any
order; `gpu_count` is a key column of its own), metric, gpu_count, ranks, nodes and launcher.
`--by gpu_count` takes gpu_count and ranks out of the key (a host-only MPI row, gpu_count 0,
counts its ranks as its GPUs); `--by launcher` takes launcher and ranks out. system, gpu_model, topology, host and gpu_ids are never part of the key, so
two machines join. Several rows of one key in one side (repeat runs, several run_ids, several GPU
sets) are aggregated by their median and shown with their count, `1012.1 (x5)`. A key that is not
in the baseline and at least one other side is listed under "only in ...", never dropped.

THE VERDICT for each side against the baseline A, for a value B:
  same        |B - A| < max(k x SE, floor x |A|)
  N.NNx slower / faster    otherwise; for latency-like metrics (latency, latency_cycles,
              launch_interval, launch_overhead) a larger value is slower, for throughput a larger
              value is faster; N.NN is the larger over the smaller value. Other metrics say
              higher/lower.
  not comparable: median vs eq7    the two `value`s are different statistics (gbcsv.statistic: the
              v3 `statistic` column, else by technique) and get no verdict.
  noisy, no verdict: <reason>    a row behind either side is noisy (results/SCHEMA.md "Noisy
              figures": its cv, an oversubscribed team, a loop far from its per-step figure).
SE combines both sides, sqrt(se_A^2 + se_B^2). A row's se is stddev / sqrt(samples), the
project's convention (core/selfcheck_analysis.hpp figure_of): for differential rows `stddev` is the
Eq. 8 sigma of one pair of runs, so this is the standard error of the Eq. 7 figure; for median rows
(clock, host-loop) it is the mean's standard error, which for the heavy-tailed host-loop samples
overstates the median's, i.e. errs towards `same`. An aggregated side takes the larger of
median(se) / sqrt(runs) and the spread between its runs, stdev(values) / sqrt(runs). The column
`test` says `se+floor`.
With per-sample data (`--raw FILE`, CSV header
`run_id,method,config,gpu_ids,launcher,metric,unit,statistic,sample,value`, matched to rows by
run_id, method, config, gpu_ids, launcher and metric) for both sides of a pair, the verdict is
scipy's two-sided Mann-Whitney U test at alpha 0.01 instead of k x SE: `same` when p >= 0.01 or the
difference is within the floor; the `test` column says `mwu p=...`.

AT THE FLOOR (a different floor: the hardware's). Where a side holds multi-GPU barriers with
a verified grid barrier (gpu.grid.*) at their shape and multigpu.floor.signal from the same run
(configs/sweeps/floor.yaml), the table and markdown/html outputs end with each barrier's latency
over its composed floor per side (analysis/floor.py: the cheapest grid barrier + the signal), the
grid barrier named in each cell, so two machines compare by how close each gets.

THE FLOOR is the run-to-run variation that no within-run statistic sees: for every key repeated
across separate runs of one build on one machine, the relative range (max - min) / median of its
values; the default floor of a technique is the 95th percentile of those ranges over the committed
repeat runs, rounded up to 0.1% (and, as "other", that of every repeated key pooled, for a
technique without repeats). compare reads them from data/noise_floors.json, installed beside it
(an installed prefix holds no repeat runs), which holds each technique's floor and the CSVs it
came from and is written from the committed runs by
    gpubarrier compare --measure-floor --json > data/noise_floors.json
(now: FLOORS_NOW). The repeat runs are
results/h200/foundation-repeats.csv, results/h200/repeats-grid-block.csv,
results/h100/grid-repeats.csv, results/h200x2/architecture/ab-{before,after}-*.csv,
layout-{before,after,wordsfirst}-*.csv, the two runs each of the quick suite before and after the
refactor (refactor-quick-*.csv with quick-reversed-*.csv), results/h200/foundation-sweep.csv with
results/h200/single-gpu.csv, and results/h200/push-regression/{fixed,placement}/*-r[123].csv.
Device-side figures (clock, differential) repeat to a few tenths of a percent on one GPU; host
timed loops (launches, MPI/OpenMP/NCCL barriers) move 5-20% between runs. The floor is per
technique (a pair of different techniques takes the larger); `--floor PCT` sets one floor for
all. Print them, with each technique's keys, median and p95:
    gpubarrier compare --measure-floor              # the committed repeat sets above
    gpubarrier compare --measure-floor 'a-*.csv' b.csv,c.csv   # each argument one group of repeats
A group is one file with several run_ids, or several files (comma-separated, globs allowed) of
the same build. Differences between two machines or two boards are real differences, not noise:
the floor covers repeats only.

EXAMPLES
    gpubarrier compare results/h100/single-gpu.csv results/h200/single-gpu.csv   # by gpu_model
    gpubarrier compare results/h200x2/multi-gpu.csv results/h200x4/multi-gpu-scaling.csv \\
        --methods 'multigpu.*' --format markdown
    gpubarrier compare results/h200x2/multi-gpu.csv results/h200x2/multi-gpu-mpi.csv --by launcher
    gpubarrier compare results/h200x4/multi-gpu-scaling.csv --by gpu_count --methods 'multigpu.device.push'
    gpubarrier compare before.csv after.csv --raw before-raw.csv after-raw.csv --format json

Exit status: 0 compared (whatever the verdicts), 2 bad input, in one line: a file that cannot be
read (the message names file, line and column), mismatched units, nothing to compare, bad options
(a --where axis no input has names the closest ones); 1 a bug (data/tool_main.py).
Python use: compare_text(paths, by=None, methods=None, level=None, fmt="markdown") -> str.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from .. import render

# The Python use of `compare` (compare_text, default_floors, measure_floor, percentile) as well.
from ..analysis.comparison import (  # noqa: F401 (read as compare.NAME)
    BY_CHOICES,
    DEFAULT_K,
    FLOORS_FILE,
    CompareError,
    _floor_text,
    compare,
    default_floors,
    floor_lines,
    floors_document,
    measure_floor,
    percentile,
    render_csv,
    report,
    to_json,
)
from ..data import tool_main


def render_as(res: dict, fmt: str) -> str:
    """The comparison `res` as `fmt` (table, markdown, csv, json, html): the text."""
    if fmt == "table":
        return render.text(report(res, markdown=False)) + "\n"
    if fmt == "markdown":
        return render.markdown(report(res, markdown=True)) + "\n"
    if fmt == "csv":
        return render_csv(res)
    if fmt == "json":
        return json.dumps(to_json(res), indent=1) + "\n"
    if fmt == "html":
        from . import html_report

        return html_report.comparison_html(res)
    raise CompareError(f"--format {fmt}: expected table, markdown, csv, json or html")


def compare_text(
    paths: list[str],
    by: str | None = None,
    methods: str | list[str] | None = None,
    level: str | list[str] | None = None,
    fmt: str = "markdown",
    raw: list[str] | None = None,
    k: float = DEFAULT_K,
    floor: float | None = None,
    where: str | dict[str, str] | None = None,
) -> str:
    """The comparison of `paths` rendered as `fmt` (table, markdown, csv, json, html).

    methods: comma-separated globs or a list; level: comma-separated levels or a list; floor: a
    fraction (0.01 = 1%) or None for the measured per-technique floors. Raises gbcsv.CsvError (a
    file that cannot be read) and CompareError (units differ, nothing to compare). where:
    `AXIS=VALUE,...` or a dict: only rows whose config has those values (or lacks the axis)."""
    return render_as(
        compare(paths, by=by, methods=methods, level=level, raw=raw, k=k, floor=floor, where=where),
        fmt,
    )


# ----------------------------------------------------------------------------------------------


def _help_floors() -> str:
    try:
        return f"{_floor_text(None)}, read from {FLOORS_FILE}"
    except CompareError as e:  # the tools folder lacks the file: say so, --help still works
        return f"not readable here: {e}"


def main(argv: Sequence[str] | None = None) -> int:
    doc = (
        __doc__.replace("FLOORS_NOW", _help_floors())
        if "-h" in (argv or sys.argv) or "--help" in (argv or sys.argv)
        else __doc__
    )
    p = tool_main.ArgumentParser(
        prog="gpubarrier compare",
        description=doc.split("\n\n", 1)[0],
        epilog=doc.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("csv", nargs="*", help="gpubarrier CSVs; the first is the baseline")
    p.add_argument(
        "--by",
        choices=BY_CHOICES,
        help="label (and split) sides by this column (default: system, else gpu_model, "
        "where it tells the files apart, else file)",
    )
    p.add_argument("--methods", help="comma-separated method globs, e.g. 'gpu.grid.*'")
    p.add_argument(
        "--level",
        help="comma-separated levels: warp,block,cluster,grid,kernel,multi-gpu,multi-node,host",
    )
    p.add_argument(
        "--where",
        metavar="AXIS=V,...",
        help="only configurations with these axis values (rows without the axis "
        "pass), e.g. blocks_per_sm=1,threads_per_block=128",
    )
    p.add_argument(
        "--format", default="table", choices=("table", "markdown", "csv", "json", "html")
    )
    p.add_argument(
        "--raw",
        nargs="+",
        metavar="RAW.csv",
        help="per-sample CSVs: decide by the "
        "Mann-Whitney U test where both sides have samples (give them after the CSVs)",
    )
    p.add_argument(
        "--k",
        type=float,
        default=DEFAULT_K,
        help=f"standard errors within which values are the same (default {DEFAULT_K:g})",
    )
    p.add_argument(
        "--floor",
        type=float,
        metavar="PCT",
        help="relative difference (percent) below which values are the same, for "
        "every technique (default: the measured floor of each technique)",
    )
    p.add_argument(
        "--measure-floor",
        nargs="*",
        metavar="GROUP",
        help="print the run-to-run floor measured from groups of repeat runs (default: "
        "the committed repeat CSVs) and exit",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="with --measure-floor: print the floors file's content (each technique's "
        "floor and its CSVs) instead of the table",
    )
    args = p.parse_args(argv)
    # Errors are raised: CsvError and CompareError are bad input (exit 2), a scipy that cannot
    # be imported for --raw is named with its fix (data/tool_main.py).
    if args.measure_floor is not None:
        groups = [[g] for g in args.measure_floor] or None
        if args.json:
            sys.stdout.write(json.dumps(floors_document(groups), indent=1) + "\n")
        else:
            print("\n".join(floor_lines(groups)))
        return 0
    if args.json:
        raise CompareError(
            "--json goes with --measure-floor (for compare's own JSON give --format json)"
        )
    if not args.csv:
        p.error("give at least one CSV (two, or --by a column that splits one)")
    if args.floor is not None and not 0 <= args.floor < 100:
        raise CompareError(f"--floor {args.floor:g}: expected a percentage in [0, 100)")
    if not 0 <= args.k < math.inf:  # NaN too
        raise CompareError(f"--k {args.k:g}: expected a number >= 0")
    sys.stdout.write(
        compare_text(
            args.csv,
            by=args.by,
            methods=args.methods,
            level=args.level,
            fmt=args.format,
            raw=args.raw,
            k=args.k,
            floor=None if args.floor is None else args.floor / 100,
            where=args.where,
        )
    )
    return 0


if __name__ == "__main__":
    tool_main.run(main)

#!/usr/bin/env python3
"""Markdown tables and figures for the results pages (results/*.md and
each folder's README.md), computed from gpubarrier CSVs (never typed in).

Tables:
  report.py DIR_OR_CSV...                   the answers (the same as `report.py answers`)
  report.py answers DIR_OR_CSV...           per machine, level and GPU count: the fastest
                                            verified barrier, its latency, its ratio to the
                                            same run's floor and each alternative's ratio to
                                            it (analysis/answers.py)
  report.py findings [--newest DIR] [DIR ...]  the study's conclusions beside H100's and H200's
                                            figures, a verdict each by the stated rule
                                            (analysis/findings.py)
  report.py study-tables [DIR]              the study's warp, block and multi-grid tables
                                            beside Hopper's (analysis/study_tables.py)
  report.py reference-summary [DIR]         every reference check under DIR: its ratio
  report.py folders [DIR]                   a results tree's folders: GPUs, machines, CSVs
  report.py single H200.csv[,more.csv] H100.csv[,...]   single-GPU suite, one column per GPU
                                                        (a case is read from the first file of
                                                        the column that has it) + the study's
  report.py foundation SWEEP.csv [--reference CSV]  foundation figures against a committed run
  report.py multi A.csv B.csv ...           multi-GPU barriers side by side (1 GPU, 2 GPUs)
  report.py scaling CSV [--methods M,..] [--shapes 1x128,4x256] [--orderings 0,1]
                                            (multi, scaling: one table per machine)
  report.py hostwait CSV...                 host-side barriers by host_wait (0, 1, 2)
  report.py reference CHECK.csv             gpubarrier's host figures against the reference
                                            tools' conventions (scripts/reference-check)
  report.py faults CSV...                   what the check caught under the fault test hooks
  report.py floor CSV...                    multi-GPU barriers over their composed floor
                                            (analysis/floor.py; configs/sweeps/floor.yaml)
  report.py push-phases CSV...              where push's time goes: its phases alone, its
                                            floor, orderings 1 and 2 (analysis/push_phases.py)
  report.py sanitize SUMMARY.csv            scripts/gpu-sanitize's summary per tool
  report.py selfcheck CSV...                clock vs differential technique (selfcheck CSVs)
  report.py selfcheck-log TXT...            the same from `gpubarrier selfcheck` text logs
  report.py repeats --before B*.csv --after A*.csv    every run's value of two builds
  report.py series LABEL=F.csv[,F.csv] ... [--relative-to LABEL]   means per series
  report.py runs CSV METHOD METRIC [COL=V ...]        one value per run (run_id), CV
  report.py rows CSV... [--method M] [--metric X] [--scale S] [--fmt F]
  report.py heatmap CSV... --method M [--metric X] [--scale S]   blocks/SM x threads per GPU
                                            count (analysis/report_grids.py; n/f: does not fit)
  report.py spans CSV... [--metric X] [--scale S] [COL=V ...]    median, range, count per point
  report.py legacy-study launch|multigrid CSV...   the study's Table 1 / its workshop version's Table 9 beside ours
  report.py multinode-model CSV... [--network F] [--gpus-per-node G] [--nodes 2,4,..] [--inputs]
                            [--combine]     barriers across 2-64 nodes on paper: measured on
                                            one node + published network figures (assumed;
                                            analysis/multinode_model.py, configs/network/); the
                                            inputs of one machine, or with --combine of
                                            several, each input's machine named

Figures (one line, for inline markers):
  report.py value CSV METHOD METRIC [COL=V ...] [--agg min|max|range|mean] [--scale S] [--fmt F]
  report.py ratio SPEC --over SPEC [--fmt F] [--percent]   SPEC: CSV METHOD METRIC [COL=V ...]
  report.py pairs CSV... --a COL=V --b COL=V [COL=V ...] [--ignore AXIS,..] [--over P]
                                            [--range] [--table]    pairs differing by > P%
  report.py count CSV... [--span]           rows by status (and the timestamps' span)
  report.py samerows BEFORE.csv AFTER.csv   'N of M' joined rows beyond analysis/same_rows.py's limit
  report.py compare A.csv B.csv [compare options]   gpubarrier compare's table (markdown)
  report.py model --study | --from CSV ...  gpubarrier model's table (the study's Eqs. 1-5)
  report.py reduction-tables CSV... [--table 3,5,6] [--sizes BYTES,..]   the study's Tables 3, 5
                                            and 6 measured, beside the study's V100/P100
                                            (analysis/reduction_tables.py)

Regenerating a results page (render/readme_blocks.py):
  report.py readme [results/README.md] [--check]   (also: report.py --check); --check also
                                            fails on a measured figure typed outside the
                                            generated parts (quoted ones: <!-- ref: SOURCE -->)
  report.py readme FILE --typed             that check alone
  report.py --html ...                      cli/html_report.py (another tool)

A machine is one host and its GPUs by UUID (data/machines.py). answers, multi, scaling,
multinode-model and reduction-tables name their machine and never set figures of two machines in
one line unless a column names each one's machine; single sets one column per GPU given.
Only ok rows give figures (gbcsv.load); COL=V matches a CSV column or a config axis. A CSV
argument may be a folder: its gpubarrier CSVs (recursively), the CSVs of other kinds there
(reference checks, sanitizer summaries, raw samples) skipped with a note on stderr. A table that
no input row feeds is an error (exit 2) naming the files and the rows it reads, never an empty
table.
Host methods of schema v3 write two rows per point: `loop_latency` (the reference tools'
convention) and `latency` (the per-step median). multi, hostwait and scaling show the
`loop_latency` row where a point has one and label it so; older files keep their `latency` rows.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType

if __name__ == "__main__" and not __package__:
    # Run as a file (python3 cli/report.py ...), outside the package: import the
    # package from the folder above this file's, by its location (the caller's sys.path,
    # environment and working directory stay as they are, and no second process starts), then run
    # this module as `python3 -m gpubarrier_tools.cli.report ...` does. Its relative imports below
    # need the package; the module's run ends the process (tool_main.run exits), so this copy
    # never reaches them.
    import importlib.util
    import runpy

    _package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    _name = os.path.basename(_package_dir)
    _spec = importlib.util.spec_from_file_location(
        _name, os.path.join(_package_dir, "__init__.py"), submodule_search_locations=[_package_dir]
    )
    assert _spec is not None and _spec.loader is not None  # a file's spec has its loader
    _package = importlib.util.module_from_spec(_spec)
    sys.modules[_name] = _package
    _spec.loader.exec_module(_package)
    runpy.run_module(f"{_name}.cli.report", run_name="__main__", alter_sys=True)
    sys.exit(0)

from .. import render
from ..analysis import answers as answers_of
from ..analysis import legacy_study, multinode_model, report_grids
from ..analysis.reports.checks import faults, sanitize
from ..analysis.reports.common import load
from ..analysis.reports.delegated import reduction_tables, samerows
from ..analysis.reports.floor_tables import floor, push_phases
from ..analysis.reports.foundation import foundation
from ..analysis.reports.multi import hostwait, multi
from ..analysis.reports.reference import reference
from ..analysis.reports.repeats import repeats, series
from ..analysis.reports.scaling import scaling
from ..analysis.reports.selfcheck import selfcheck, selfcheck_log
from ..analysis.reports.single import single
from ..analysis.reports.value import count, pairs, ratio, rows_table, runs, value
from ..data import gbcsv, tool_main


def rendered(report: Callable[[list[str]], list]) -> Callable[[list[str]], None]:
    """The mode of a report, which returns its tables and lines (data/tables.py): it prints them
    as Markdown (render/__init__.py). `.report` is the report itself."""

    def mode(argv: list[str]) -> None:
        render.print_markdown(report(argv))

    mode.report = report  # type: ignore[attr-defined]
    return mode


def compare_table(argv: Sequence[str]) -> int:
    """`gpubarrier compare ARGS` (cli/compare.py) as its Markdown table with its verdicts."""
    from . import compare

    return compare.main(list(argv) + ["--format", "markdown"])


def model_table(argv: Sequence[str]) -> int:
    """`gpubarrier model ARGS` (cli/model.py): the study's model, as its Markdown table."""
    from . import model

    return model.main(list(argv))


def _module(name: str) -> ModuleType:
    """A module of the analysis imported when its mode runs (findings and study-tables read
    much; the other modes need not)."""
    return importlib.import_module("..analysis." + name, __package__)


# Every mode but compare and model (the modes of other commands, which print their own
# renderings) is a report: it returns its items and the mode prints them.
REPORTS = {
    "single": single,
    "foundation": foundation,
    "multi": multi,
    "scaling": scaling,
    "hostwait": hostwait,
    "reference": reference,
    "selfcheck": selfcheck,
    "selfcheck-log": selfcheck_log,
    "repeats": repeats,
    "series": series,
    "value": value,
    "ratio": ratio,
    "pairs": pairs,
    "count": count,
    "runs": runs,
    "rows": rows_table,
    "samerows": samerows,
    "faults": faults,
    "floor": floor,
    "push-phases": push_phases,
    "reduction-tables": reduction_tables,
    "sanitize": sanitize,
    "answers": lambda argv: answers_of.main(argv, load),
    "heatmap": lambda argv: report_grids.heatmap(argv, load),
    "spans": lambda argv: report_grids.spans(argv, load),
    "legacy-study": lambda argv: legacy_study.main(argv, load),
    "multinode-model": lambda argv: multinode_model.main(argv, load),
    "findings": lambda argv: _module("findings").main(argv),
    "folders": lambda argv: _module("results_index").folders(argv),
    "study-tables": lambda argv: _module("study_tables").main(argv),
    "reference-summary": lambda argv: _module("reference_ratios").summary(argv),
}
MODES: dict[str, Callable[[list[str]], int | None]] = {
    name: rendered(report) for name, report in REPORTS.items()
}
MODES.update({"compare": compare_table, "model": model_table})


def dispatch(args: Iterable[str]) -> int | None:
    """Run one report.py command line (without the program name); used by readme_blocks."""
    args = list(args)
    if (
        args
        and args[0] not in MODES
        and all(os.path.exists(a) or os.sep in a or a.endswith(".csv") for a in args)
    ):
        # `report DIR_OR_CSVS`: the answer first; a folder that holds only reference checks
        # (the host figures beside the OSU/EPCC/nccl-tests conventions) shows those instead.
        csvs, skipped = gbcsv.expand(args)
        checks = [p for p, kind, _ in skipped if kind == "reference-check"]
        if not csvs and checks:
            for path in checks:
                print(f"## {path}\n")
                render.print_markdown(reference([path]))
                print()
            return 0
        args.insert(0, "answers")
    if not args or args[0] not in MODES:
        import difflib

        near = difflib.get_close_matches(args[0], MODES, 2) if args else []
        raise tool_main.InputError(
            (f"unknown table {args[0]!r}" if args else "no table named")
            + (f" (did you mean {' or '.join(near)}?)" if near else "")
            + f": one of {', '.join(MODES)}, or readme, or CSV... --html OUT.html "
            f"(report.py --help describes them)"
        )
    return MODES[args[0]](args[1:])


DEFAULT_README = os.path.join(tool_main.ROOT, "results", "README.md")


def main(argv: Sequence[str]) -> int:
    if "--html" in argv:
        try:
            from . import html_report
        except ImportError as e:
            print(
                f"report.py --html: gpubarrier_tools/cli/html_report.py is not available ({e})",
                file=sys.stderr,
            )
            return 2
        return html_report.main(argv)
    if argv[:1] in (["readme"], ["--check"]):
        # `report.py readme [FILE.md] [--check]`, also spelt `report.py --check [FILE.md]`;
        # FILE.md defaults to this tree's results/README.md, so it works from any folder.
        from ..render import readme_blocks

        rest = [a for a in argv if a != "readme"]
        if all(a == "--check" for a in rest):
            rest.append(DEFAULT_README)
        return readme_blocks.main(rest, dispatch)
    if argv[:1] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    if not argv:
        raise tool_main.InputError(
            f"give a table and its CSVs, or CSVs and folders for the answers (report DIR), or "
            f"CSV... --html PAGE.html; see `{tool_main.prog()} --help`"
        )
    try:
        return dispatch(argv) or 0
    except ValueError as e:  # the tables' own refusals: what is missing or malformed
        raise tool_main.InputError(str(e)) from e


if __name__ == "__main__":
    tool_main.run(main)

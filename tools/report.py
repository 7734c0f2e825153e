#!/usr/bin/env python3
"""Markdown tables and figures for the results pages (results/README.md, FINDINGS.md, journal.md,
each folder's README.md), computed from gpubarrier CSVs (never typed in).

Tables:
  report.py DIR_OR_CSV...                   the answers (the same as `report.py answers`)
  report.py answers DIR_OR_CSV...           per machine, level and GPU count: the fastest
                                            verified barrier, its latency, its ratio to the
                                            same run's floor and each alternative's ratio to
                                            it (tools/answers.py)
  report.py findings [DIR]                  the study's conclusions beside H100's and H200's
                                            figures, a verdict each by the stated rule
                                            (tools/findings.py)
  report.py study-tables [DIR]              the study's warp, block and multi-grid tables
                                            beside Hopper's (tools/study_tables.py)
  report.py reference-summary [DIR]         every reference check under DIR: its ratio
  report.py folders [DIR]                   a results tree's folders: GPUs, machines, CSVs
  report.py single H200.csv[,more.csv] H100.csv[,...]   single-GPU suite, one column per GPU
                                                        (a case is read from the first file of
                                                        the column that has it) + the study's
  report.py foundation SWEEP.csv            foundation figures against DESIGN.md section 7
  report.py multi A.csv B.csv ...           multi-GPU barriers side by side (1 GPU, 2 GPUs)
  report.py scaling CSV [--methods M,..] [--shapes 1x128,4x256] [--orderings 0,1]
                                            (multi, scaling: one table per machine)
  report.py hostwait CSV...                 host-side barriers by host_wait (0, 1, 2)
  report.py reference CHECK.csv             gpubarrier's host figures against the reference
                                            tools' conventions (scripts/reference-check)
  report.py faults CSV...                   what the check caught under the fault test hooks
  report.py floor CSV...                    multi-GPU barriers over their composed floor
                                            (tools/floor.py; configs/sweeps/floor.yaml)
  report.py push-phases CSV...              where push's time goes: its phases alone, its
                                            floor, orderings 1 and 2 (tools/push_phases.py)
  report.py sanitize SUMMARY.csv            scripts/gpu-sanitize's summary per tool
  report.py selfcheck CSV...                clock vs differential technique (selfcheck CSVs)
  report.py selfcheck-log TXT...            the same from `gpubarrier selfcheck` text logs
  report.py repeats --before B*.csv --after A*.csv    every run's value of two builds
  report.py series LABEL=F.csv[,F.csv] ... [--relative-to LABEL]   means per series
  report.py runs CSV METHOD METRIC [COL=V ...]        one value per run (run_id), CV
  report.py rows CSV... [--method M] [--metric X] [--scale S] [--fmt F]
  report.py heatmap CSV... --method M [--metric X] [--scale S]   blocks/SM x threads per GPU
                                            count (tools/report_grids.py; n/f: does not fit)
  report.py spans CSV... [--metric X] [--scale S] [COL=V ...]    median, range, count per point
  report.py legacy-study launch|multigrid CSV...   the study's Table 1 / its workshop version's Table 9 beside ours
  report.py multinode-model CSV... [--network F] [--gpus-per-node G] [--nodes 2,4,..] [--inputs]
                            [--combine]     barriers across 2-64 nodes on paper: measured on
                                            one node + published network figures (assumed;
                                            tools/multinode_model.py, configs/network/); the
                                            inputs of one machine, or with --combine of
                                            several, each input's machine named

Figures (one line, for inline markers):
  report.py value CSV METHOD METRIC [COL=V ...] [--agg min|max|range|mean] [--scale S] [--fmt F]
  report.py ratio SPEC --over SPEC [--fmt F] [--percent]   SPEC: CSV METHOD METRIC [COL=V ...]
  report.py pairs CSV... --a COL=V --b COL=V [COL=V ...] [--ignore AXIS,..] [--over P]
                                            [--range] [--table]    pairs differing by > P%
  report.py count CSV... [--span]           rows by status (and the timestamps' span)
  report.py samerows BEFORE.csv AFTER.csv   'N of M' joined rows beyond tools/same_rows.py's limit
  report.py compare A.csv B.csv [compare options]   gpubarrier compare's table (markdown)
  report.py model --study | --from CSV ...  gpubarrier model's table (the study's Eqs. 1-5)
  report.py reduction-tables CSV... [--table 3,5,6] [--sizes BYTES,..]   the study's Tables 3, 5
                                            and 6 measured, beside the study's V100/P100
                                            (tools/reduction_tables.py)

Regenerating a results page (tools/readme_blocks.py):
  report.py readme [results/README.md] [--check]   (also: report.py --check); --check also
                                            fails on a measured figure typed outside the
                                            generated parts (quoted ones: <!-- ref: SOURCE -->)
  report.py readme FILE --typed             that check alone
  report.py --html ...                      tools/html_report.py (another tool)

A machine is one host and its GPUs by UUID (tools/machines.py). answers, multi, scaling,
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
import collections
import fnmatch
import glob
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import answers as answers_of  # noqa: E402
import gbcsv  # noqa: E402
import legacy_study  # noqa: E402
import machines as machines_of  # noqa: E402
import multinode_model  # noqa: E402
import report_grids  # noqa: E402
import study_reference  # noqa: E402
import tool_main  # noqa: E402

_CACHE = {}
_NOTED = set()  # skipped files already named on stderr


def csv_paths(paths):
    """The CSV files of `paths` (folders expanded to their gpubarrier CSVs; the other CSVs there
    named on stderr once). Raises CsvError when folders were given and no gpubarrier CSV is left."""
    csvs, skipped = gbcsv.expand(paths)
    if not csvs and (skipped or any(os.path.isdir(p) for p in paths)):
        raise gbcsv.no_csv_error(paths, skipped)  # one line: what the folders hold instead
    for path, _, why in skipped:
        if path not in _NOTED:
            _NOTED.add(path)
            print(f"{tool_main.prog()}: skipped {path}: {why}", file=sys.stderr)
    return csvs


def need(found, what, paths, reads=""):
    """InputError (exit 2) when a table found no row: names the inputs and the rows it reads."""
    if not found:
        names = ", ".join(paths) if paths else "(no CSV given)"
        raise tool_main.InputError(f"no {what} in {names}" + (f": {reads}" if reads else ""))


def load(paths, statuses=("ok",)):
    rows = []
    for p in csv_paths(paths):
        key = (os.path.abspath(p), os.path.getmtime(p), statuses)
        if key not in _CACHE:
            _CACHE[key] = gbcsv.load([p], statuses=set(statuses) if statuses else None)
        rows += _CACHE[key]
    return rows


cfg = gbcsv.config_axes


def matches(r, **want):
    """COL=V filters: V matches a CSV column or a config axis; a V with * is a pattern, A..B a
    numeric range."""
    c = cfg(r)
    for k, v in want.items():
        have = r[k] if k in r and k not in c else c.get(k)
        v = str(v)
        if ".." in v and have not in (None, ""):
            lo, hi = v.split("..")
            if not float(lo) <= float(have) <= float(hi):
                return False
            continue
        if have != v and not ("*" in v and have is not None and fnmatch.fnmatchcase(have, v)):
            return False
    return True


def pick(rows, method, metric, gpu="0", **axes):
    return [r for r in rows if r["method"] == method and r["metric"] == metric
            and (gpu is None or r["gpu_ids"] in (gpu, "")) and matches(r, **axes)]


def fmt(v, digits=3):
    return f"{v:.{digits}g}" if abs(v) < 100 else f"{v:.0f}"


def vals(rows, scale=1.0):
    return [float(r["value"]) * scale for r in rows]


def span(values, f=fmt):
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f(lo) if f(lo) == f(hi) else f"{f(lo)}-{f(hi)}"


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


# Host methods' headline figure: the reference tools' convention where the point has it.
HEADLINE_HOST = "loop_latency"


def point_of(r):
    return (r["_file"], r["run_id"], r["method"], r["config"], r["gpu_ids"], r["launcher"],
            r["ranks"])


def host_headline(rows):
    """Rows with a point's `latency` row dropped where the point has a `loop_latency` row
    (schema v3 host methods write both; results/SCHEMA.md); every other row as it is."""
    loops = {point_of(r) for r in rows if r["metric"] == HEADLINE_HOST}
    return [r for r in rows if r["metric"] != "latency" or point_of(r) not in loops]


def headline_label(variant, r):
    """The variant text, with `loop_latency` named when the row is one."""
    if r["metric"] != HEADLINE_HOST:
        return variant
    return f"`{HEADLINE_HOST}`" if variant == "-" else f"{variant}, `{HEADLINE_HOST}`"


# ---------------------------------------------------------------------------------------------
# single: the single-GPU suite, one column per GPU, the study's V100/P100 figures beside them

def by_group(rows):
    """'1: 14.1, 2: 8.64, ..., 3-31: 393' over every measured group size; neighbours with the
    same printed figure share a range."""
    pts = sorted((int(cfg(r)["group_size"]), fmt(float(r["value"]))) for r in rows)
    runs = []
    for g, v in pts:
        if runs and runs[-1][2] == v:
            runs[-1][1] = g
        else:
            runs.append([g, g, v])
    return ", ".join((f"{a}" if a == b else f"{a}-{b}") + f": {v}" for a, b, v in runs) or "-"


SINGLE_GPU_LEVELS = ("warp", "block", "cluster", "grid", "kernel")


def single(argv):
    columns = [[p for p in a.split(",") if p] for a in argv]
    need(columns, "CSV", [], "single CSV[,CSV...] [CSV[,CSV...] ...]: one column per GPU")
    columns = [csv_paths(files) for files in columns]
    data = [[load([p]) for p in files] for files in columns]
    gpu_rows = lambda rows: [r for r in rows if r["level"] in SINGLE_GPU_LEVELS]  # noqa: E731
    need(any(gpu_rows(rows) for files in data for rows in files), "single-GPU rows",
         [p for files in columns for p in files],
         f"`report single` reads the levels {', '.join(SINGLE_GPU_LEVELS)} (configs/sweeps/"
         f"single-gpu.yaml measures them); host and multi-GPU rows are in `report multi`")
    labels = []
    for files, paths in zip(data, columns):
        models = {r["gpu_model"] for rows in files for r in gpu_rows(rows)
                  if r["gpu_model"].strip()}
        labels.append(" / ".join(sorted(m.replace("NVIDIA ", "").split()[0] for m in models))
                      or " / ".join(os.path.basename(p) for p in paths))

    def cell(fn):
        out = []
        for files in data:
            for rows in files:  # the first file of the column that has the case
                text = fn(rows)
                if text not in ("-", ""):
                    break
            out.append(text)
        return out

    ref = study_reference.STUDY
    lines = []

    def row(level, case, fn, key=None):
        v100, p100, src = ref.get(key, ("-", "-", "")) if key else ("-", "-", "")
        lines.append([level, case] + cell(fn) + [v100, p100, src or "-"])

    warp = [("gpu.warp.tile-sync", "tile sync"), ("gpu.warp.coalesced-sync", "coalesced sync"),
            ("gpu.warp.syncwarp", "`__syncwarp(mask)`"), ("gpu.warp.tile-shuffle", "tile shuffle"),
            ("gpu.warp.coalesced-shuffle", "coalesced shuffle")]
    for method, label in warp:
        row("warp", f"{label}, latency (cycles) by group size",
            lambda rows, m=method: by_group(pick(rows, m, "latency_cycles")),
            "warp." + method.split(".")[-1])

    def lat_list(method, metric, axis, points, scale=1.0, f=fmt, agg=min, **more):
        def fn(rows):
            out = []
            for p in points:
                v = vals(pick(rows, method, metric, **{axis: p}, **more), scale)
                out.append(f(agg(v)) if v else "-")
            return "-" if all(x == "-" for x in out) else " / ".join(out)
        return fn

    def best(method, metric, axis, points, **more):
        def fn(rows):
            out = []
            for p in points:
                v = vals(pick(rows, method, metric, **{axis: p}, **more))
                out.append(fmt(max(v)) if v else "-")
            return "-" if all(x == "-" for x in out) else " / ".join(out)
        return fn

    row("block", "`__syncthreads`, 32 / 256 / 1024 threads, latency (cycles)",
        lat_list("gpu.block.syncthreads", "latency_cycles", "threads_per_block",
                 ("32", "256", "1024")), "block.latency")
    row("block", "`__syncthreads` throughput, best blocks/SM, 32 / 64 / 1024 threads "
        "(warp-syncs/ns per SM)",
        best("gpu.block.syncthreads", "throughput", "threads_per_block", ("32", "64", "1024")),
        "block.throughput")
    sizes = ("1", "2", "4", "8", "16")
    for method, label in (("gpu.cluster.sync", "`cluster.sync`"),
                          ("gpu.cluster.arrive-wait", "split arrive/wait")):
        row("cluster", f"{label}, 128 threads, cluster 1 / 2 / 4 / 8 / 16, latency (cycles)",
            lat_list(method, "latency_cycles", "cluster_size", sizes, threads_per_block="128"))
    row("cluster", "`cluster.sync` throughput, 128 threads, best blocks/SM, cluster 1 / 2 / 4 / "
        "8 / 16 (cluster barriers/us, whole GPU)",
        best("gpu.cluster.sync", "throughput", "cluster_size", sizes, threads_per_block="128"))
    us = 1e-3
    f3 = "{:.3f}".format
    row("grid", "`grid.sync`, 1 block/SM, min-max over block sizes (us)",
        lambda rows: span(vals(pick(rows, "gpu.grid.cg", "latency", blocks_per_sm=1), us), f3),
        "grid.cg.1")
    row("grid", "`grid.sync`, 2 / 4 / 8 / 16 / 32 blocks/SM, min over block sizes (us)",
        lat_list("gpu.grid.cg", "latency", "blocks_per_sm", ("2", "4", "8", "16", "32"), us, f3),
        "grid.cg.min")
    for method, label in (("gpu.grid.cg-arrive-wait", "split arrive/wait"),
                          ("gpu.grid.atomic-sense", "atomic counter + sense reversal"),
                          ("gpu.grid.flag-epoch", "flag/epoch (master gathers)")):
        row("grid", f"{label}, 1 block/SM, min-max over block sizes (us)",
            lambda rows, m=method: span(vals(pick(rows, m, "latency", blocks_per_sm=1), us), f3))
    launches = ("kernel.launch.triple-chevron", "kernel.launch.cooperative", "kernel.launch.ex",
                "kernel.launch.graph")
    f2 = "{:.2f}".format

    def per_launch(metric):
        def fn(rows):
            out = [vals(pick(rows, m, metric, blocks_per_sm=1), us) for m in launches]
            return "-" if not any(out) else " / ".join(f2(v[0]) if v else "-" for v in out)
        return fn
    kinds = "`<<<>>>` / cooperative / `cudaLaunchKernelEx` / 1-kernel graph"
    row("kernel", f"empty kernel, launch + stream sync (null-kernel latency): {kinds} (us)",
        per_launch("latency"), "kernel.launch-sync")
    row("kernel", f"empty kernels back to back, per launch (launch interval): {kinds} (us)",
        per_launch("launch_interval"))
    row("kernel", "launch overhead by Eq. 6 (fusion: hidden behind running kernels), `<<<>>>` (us)",
        lambda rows: span(vals(pick(rows, "kernel.fusion", "launch_overhead"), us), f2),
        "kernel.fusion")
    table(["level", "case"] + labels + ["V100 (study)", "P100 (study)", "study source"], lines)
    print()
    print(study_reference.STUDY_FOOTNOTE)


def foundation(argv):
    rows = load(argv)
    out = []
    for label, method, metric, axes, scale, unit, refv in study_reference.DESIGN_REFERENCE:
        v = vals(pick(rows, method, metric, **axes), scale)
        if len(v) != 1:
            raise ValueError(f"foundation: {len(v)} rows for {method} {metric} {axes} on GPU 0")
        dev = (v[0] / refv - 1) * 100
        digits = 2 if unit == "cycles" else 3
        out.append([label, f"{v[0]:.{digits}f} {unit}", f"{refv:g} {unit}",
                    f"{'yes' if abs(dev) <= 15 else '**no**'} ({dev:+.1f}%)"])
    table(["figure (GPU 0)", "measured", "reference (DESIGN.md 7)", "within 15%"], out)


# ---------------------------------------------------------------------------------------------
# multi-GPU tables

ORDERING = {"0": "release/acquire", "1": "relaxed + fences"}


def shape_of(c):
    return f'{c["blocks_per_sm"]} x {c["threads_per_block"]}' if "blocks_per_sm" in c else "-"


def host_variant(r, c):
    if r["method"] == "host.nccl.allreduce":
        return "blocking (stream sync each step)" if c.get("blocking") == "1" else \
            "back-to-back in the stream"
    return "-"


# Axes that make different barriers of one method: NVSHMEM's call, the multi-device launch's
# implementation.
VARIANTS = {"variant": {"0": "barrier_all_block", "1": "sync_all_block",
                        "2": "barrier_all (one thread)"},
            "impl": {"0": "emulated", "1": "real"}}


def variant_suffix(c):
    return "".join(f", {VARIANTS[a].get(c[a], a + '=' + c[a])}" for a in VARIANTS if a in c)


def multi_key(r):
    c = cfg(r)
    if "blocks_per_sm" in c:
        return (r["method"], ORDERING.get(c.get("ordering"), c.get("ordering", "-")) +
                variant_suffix(c), shape_of(c))
    return (r["method"], host_variant(r, c) + variant_suffix(c), "-")


option = gbcsv.take_option


def by_machine(rows, build):
    """[(label, header, lines)] of build(rows of one machine) -> (header, lines) for every
    machine (tools/machines.py) whose rows give lines, most rows first."""
    out = []
    for label, rs in machines_of.machines(rows):
        header, lines = build(rs)
        if lines:
            out.append((label, header, lines))
    return out


def machine_tables(found):
    """One table per machine of by_machine()'s list, each under a line naming its machine."""
    for i, (label, header, lines) in enumerate(found):
        if i:
            print()
        print(f"Machine: {label}\n")
        table(header, lines)


MULTI_HEADER = ["method", "ordering / variant", "blocks/SM x threads", "1 GPU (threads)",
                "2 GPUs threads", "2 GPUs mpi"]


def multi(argv):
    """Latency (us) at 1 GPU (threads) and 2 GPUs (threads, mpi); device methods at the --shapes
    (default 1x128,4x256) and --orderings (default 0,1); host methods at host_wait=0. One table
    per machine (tools/machines.py): a line never holds figures of two machines."""
    shapes = option(argv, "--shapes", "1x128,4x256").replace("x", " x ").split(",")
    orderings = option(argv, "--orderings", "0,1").split(",")
    rows = host_headline(load(argv, statuses=("ok", "skipped")))
    cols = [("threads", "1"), ("threads", "2"), ("mpi", "2")]

    def build(rows):
        tab = collections.OrderedDict()
        for r in rows:
            c = cfg(r)
            if r["metric"] not in ("latency", HEADLINE_HOST, "") or \
                    c.get("host_wait", "0") != "0":
                continue
            if "blocks_per_sm" in c and (shape_of(c) not in shapes or
                                         c.get("ordering", "0") not in orderings):
                continue
            if r["level"] not in ("multi-gpu", "host", "kernel"):
                continue
            launcher = "mpi" if r["launcher"] == "mpi" else "threads"
            cell = "skipped" if r["status"] == "skipped" else f"{float(r['value']) / 1000:.2f}"
            n = r["gpu_count"] if r["gpu_count"] != "0" else "2"
            method, variant, shape = multi_key(r)
            tab.setdefault((method, headline_label(variant, r), shape), {})[(launcher, n)] = cell

        def order(item):
            (method, variant, shape), v = item
            two = [float(x) for x in (v.get(("threads", "2")), v.get(("mpi", "2")))
                   if x and x != "skipped"]
            return (not method.startswith("multigpu"), shape, min(two) if two else 1e9, method)
        return MULTI_HEADER, [[f"`{method}`", variant, shape] + [v.get(c, "-") for c in cols]
                              for (method, variant, shape), v in sorted(tab.items(), key=order)]
    found = by_machine(rows, build)
    need(found, "multi-GPU, host or kernel latency rows", argv,
         f"`report multi` reads latency rows of the levels multi-gpu, host and kernel at "
         f"host_wait=0, device methods at --shapes {','.join(s.replace(' ', '') for s in shapes)}"
         f" and --orderings {','.join(orderings)}")
    machine_tables(found)


def hostwait(argv):
    """Host-side barriers (us) by host_wait: 0 default, 1 spin, 2 blocking sync; ratio 2 / 0."""
    rows = host_headline(load(argv))
    tab = collections.OrderedDict()
    for r in rows:
        c = cfg(r)
        if "host_wait" not in c or r["metric"] not in ("latency", HEADLINE_HOST) or \
                c.get("blocking", "0") != "0":
            continue
        n = int(r["gpu_count"]) if r["gpu_count"] != "0" else int(r["ranks"] or 0)
        label = headline_label(f"`{r['method']}`", r)
        tab.setdefault((label, r["launcher"], n), {})[c["host_wait"]] = float(r["value"]) / 1000
    out = []
    for (method, launcher, n), v in sorted(tab.items()):
        if set(v) == {"0"}:
            continue
        ratio = f"{v['2'] / v['0']:.1f}x" if "2" in v and "0" in v else "-"
        out.append([method, launcher, str(n)] +
                   [f"{v[k]:.2f}" if k in v else "-" for k in ("0", "1", "2")] + [ratio])
    need(out, "host-side barrier rows at host_wait 1 or 2", argv,
         "`report hostwait` sets host_wait 0, 1 and 2 of a method side by side")
    table(["method", "launcher", "GPUs", "host_wait 0 (default)", "1 (spin)", "2 (blocking)",
           "2 vs 0"], out)


def scaling(argv):
    """One line per method variant and shape, one column per GPU count with 'threads / mpi'
    figures in us, and how the largest count compares with 2 GPUs (the better mode of each). One
    table per machine (tools/machines.py): threads and mpi figures of a cell are of one machine."""
    methods = option(argv, "--methods")
    shapes = option(argv, "--shapes", "1x128,4x256").replace("x", " x ").split(",")
    orderings = option(argv, "--orderings", "0,1").split(",")
    rows = host_headline(load(argv))
    found = by_machine(rows, lambda rs: scaling_cells(rs, methods, shapes, orderings))
    need(found, "multi-GPU latency rows", argv,
         "`report scaling` reads latency rows with a GPU count"
         + (f" of --methods {methods}" if methods else ""))
    machine_tables(found)


def scaling_cells(rows, methods, shapes, orderings):
    """scaling's (header, lines) from the rows of one machine (no lines without rows)."""
    tab = collections.OrderedDict()
    for r in rows:
        if r["metric"] not in ("latency", HEADLINE_HOST) or r["gpu_count"] in ("0", ""):
            continue
        if methods and r["method"] not in methods.split(","):
            continue
        c = cfg(r)
        if "blocks_per_sm" in c:
            if shape_of(c) not in shapes or c.get("ordering", "0") not in orderings:
                continue
        elif c.get("host_wait", "0") != "0":
            continue
        method = r["method"]
        if method in ("host.omp.gpu-barrier", "host.mpi.gpu-barrier"):
            method = "host.omp.gpu-barrier` / `host.mpi.gpu-barrier"
        mode = "mpi" if r["launcher"] == "mpi" else "threads"
        _, variant, shape = multi_key(r)
        key = (method, headline_label(variant, r), shape)
        tab.setdefault(key, {}).setdefault(int(r["gpu_count"]), {})[mode] = float(r["value"]) / 1000
    counts = sorted({n for v in tab.values() for n in v})
    top = counts[-1] if counts else 0

    def best(v, n):
        return min(v[n].values()) if v.get(n) else None

    def order(item):
        (method, variant, shape), v = item
        return (not method.startswith("multigpu"), shape, best(v, top) or 1e9, method)
    out = []
    for (method, variant, shape), v in sorted(tab.items(), key=order):
        cells = [" / ".join(f"{v[n][m]:.2f}" if m in v[n] else "-" for m in ("threads", "mpi"))
                 if n in v else "-" for n in counts]
        ratio = f"{best(v, top) / best(v, 2):.2f}x" if best(v, top) and best(v, 2) else "-"
        out.append([f"`{method}`", variant, shape] + cells + [ratio])
    return (["method", "ordering / variant", "blocks/SM x threads"] +
            [f"{n} GPU{'s' if n > 1 else ''}" for n in counts] + [f"{top} vs 2"], out)


# ---------------------------------------------------------------------------------------------
# reference: gpubarrier's host figures against the reference tools' conventions

def reference(argv):
    """The CSV of scripts/reference-check (tools/reference/rows.py COLUMNS): per method and
    config, every round's gpubarrier and reference figure (ns), the ratio of their means (and
    the range of the per-round ratios) and whether it is within 10% (tools/reference_ratios.py)."""
    import reference_ratios as rr  # noqa: PLC0415
    if len(argv) != 1:
        raise ValueError("reference: CHECK.csv (written by scripts/reference-check)")
    rows = rr.read(argv[0])
    out = []
    for method, config, convention, gb, ref, skipped in rr.ratios(rows):
        got = rr.ratio(gb, ref)
        if got is None:
            out.append([f"`{method}`", config, convention, "-", "-",
                        skipped or "no complete round", "-"])
            continue
        q, per, rounds = got
        ok = abs(q - 1) <= rr.TOLERANCE
        out.append([f"`{method}`", config, convention,
                    " / ".join(fmt(gb[k]) for k in rounds),
                    " / ".join(fmt(ref[k]) for k in rounds),
                    f"{q:.3f} ({min(per):.3f}-{max(per):.3f})",
                    f"yes ({(q - 1) * 100:+.1f}%)" if ok else f"**no** ({(q - 1) * 100:+.1f}%)"])
    table(["method", "config", "convention", "gpubarrier (ns), by round",
           "reference (ns), by round", "gpubarrier / reference (by round)",
           f"within {rr.TOLERANCE:.0%}"], out)
    hosts = sorted({r["host"] for r in rows if r["host"]})
    n = len({r["round"] for r in rows if r["round"]})
    print()
    print(f"{n} round{'s' if n != 1 else ''} on {', '.join(hosts) or '-'}, each gpubarrier's "
          "run first, then the reference program with the steps per loop and the number of loops "
          "of gpubarrier's row of that round.")


# ---------------------------------------------------------------------------------------------
# selfcheck

def selfcheck_pairs(rows, method):
    pairs = collections.OrderedDict()
    for r in rows:
        if r["method"] == method and r["metric"] == "cycles_per_add":
            pairs.setdefault((r["gpu_model"], r["run_id"], r["config"]), {})[r["technique"]] = r
    return pairs


def std_err(r):
    return float(r["stddev"] or 0) / math.sqrt(max(int(float(r["samples"] or 1)), 1))


def selfcheck(argv):
    """`gpubarrier selfcheck` CSV rows: the loop kernel by both techniques at every repeat
    difference, then the unrolled chains' instruction-cache scan."""
    rows = load(argv)
    need([r for r in rows if r["method"].startswith("selfcheck.")], "selfcheck.* rows", argv,
         "`report selfcheck` reads the CSVs of `gpubarrier selfcheck`")
    runs = {r["run_id"] for r in rows if r["method"].startswith("selfcheck.")}
    lead = "| GPU | run " if len(runs) > 1 else ""
    print(lead + "| R_lo (trips) | repeat difference | clock (cycles/add) | "
          "differential (cycles/add) | deviation | agreement |")
    print("|---" * (lead.count("|") + 6) + "|")
    words = {"tolerance": "within {tol}", "2se": "within 2 SE", "none": "**no**"}
    for (model, run, _), t in selfcheck_pairs(rows, "selfcheck.fadd.loop").items():
        c, d = t.get("clock"), t.get("differential")
        if not c or not d:
            continue
        clock, diff = float(c["value"]), float(d["value"])
        agreement = re.search(r"agreement (\S+)", d["note"])
        tol = re.search(r"tolerance (\d+%)", d["note"])
        said = words.get(agreement.group(1), agreement.group(1)) if agreement else "-"
        print((f"| {model} | {run} " if lead else "") +
              f"| {cfg(d)['base_trips']} | {cfg(d)['repeat_difference']} | {clock:.3f} | "
              f"{diff:.3f} ± {std_err(d):.3f} | {100 * (diff / clock - 1):+.1f}% | "
              f"{said.format(tol=tol.group(1) if tol else 'tolerance')} |")
    selfcheck_chains(rows, lead)


def selfcheck_chains(rows, lead):
    """The unrolled chains' instruction-cache scan: one line per run and chain length."""
    chains = [t for t in selfcheck_pairs(rows, "selfcheck.fadd.unrolled").values()
              if "clock" in t and "differential" in t]
    if not chains:
        return
    print()
    print(lead + "| adds | code | clock (cycles/add) | instruction cache | "
          "differential (cycles/add) | launch difference (cycles) |")
    print("|---" * (lead.count("|") + 6) + "|")
    for t in chains:
        c, d = t["clock"], t["differential"]
        model, run = c["gpu_model"], c["run_id"]
        code = re.search(r"(\d+ KiB) of code", c["note"])
        launch = re.search(r"launch difference ([-+]?\d+) cycles \(standard error (\d+)\)",
                           d["note"])
        adds = int(cfg(c)["base_adds"]) + int(cfg(c)["repeat_difference"])
        print((f"| {model} | {run} " if lead else "") +
              f"| {adds} | {code.group(1) if code else '-'} | {float(c['value']):.3f} | "
              f"{'overflows' if 'overflows' in c['note'] else 'fits'} | "
              f"{float(d['value']):.3f} ± {std_err(d):.3f} | "
              f"{launch.group(1) + ' ± ' + launch.group(2) if launch else '-'} |")


def parse_selfcheck_log(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    gpu = re.search(r"^GPU \d+: (.*?), SM clock", text, re.M)
    lo = re.search(r"R_lo = (\d+) adds \((\d+) trips\), clock ([\d.]+)", text)
    head = re.search(r"^ rep diff .*$", text, re.M)
    if not (gpu and lo and head):
        raise ValueError(f"{path}: not a `gpubarrier selfcheck` log")
    cols = head.group(0).split()
    dev_at = None
    points = []
    for line in text[head.end():].split("\n")[1:]:
        f = line.split()
        if not f or not f[0].isdigit():
            break
        dev_at = dev_at or len(f) - 2  # deviation is the next-to-last column
        points.append((int(f[0]), f[len(f) - 2], f[-1]))
    passed = "PASS:" in text
    return {"gpu": gpu.group(1), "trips": lo.group(2), "clock": lo.group(3),
            "order": "alternating" if "MHz" in cols else "hi, lo", "points": points,
            "passed": passed}


def selfcheck_log(argv):
    """One line per `gpubarrier selfcheck` log: the loop kernel's deviation of the differential
    figure from the clock figure at every repeat difference, and the run's verdict."""
    logs = [(p, parse_selfcheck_log(p)) for p in argv]
    diffs = sorted({d for _, lg in logs for d, _, _ in lg["points"]})
    out = []
    for p, lg in logs:
        dev = {d: (v if v.startswith("-") else "+" + v) + ("" if ok == "<5%" else " **no**")
               for d, v, ok in lg["points"]}
        out.append([f"`{p}`", lg["gpu"].replace("NVIDIA ", "").split()[0], lg["trips"], lg["clock"]] +
                   [dev.get(d, "-") for d in diffs] + ["pass" if lg["passed"] else "**fail**"])
    table(["log", "GPU (as logged)", "R_lo (trips)", "clock (cycles/add)"] +
          [f"deviation at {d}" for d in diffs] + ["selfcheck"], out)


# ---------------------------------------------------------------------------------------------
# repeated runs: before/after repeats of two builds, and labelled series (the A/B tables)

def run_values(paths):
    out = {}
    for r in load(paths):
        key = (r["method"], r["config"].replace(" fault=0", ""), r["metric"])
        out.setdefault(key, []).append(float(r["value"]))
    return out


def repeats(argv):
    """Every run's value of two builds side by side, and the change of the means."""
    if "--before" not in argv or "--after" not in argv:
        raise ValueError("repeats: --before B.csv ... --after A.csv ...")
    i, j = argv.index("--before"), argv.index("--after")
    b_paths = argv[i + 1:j] if i < j else argv[i + 1:]
    a_paths = argv[j + 1:] if i < j else argv[j + 1:i]
    before, after = run_values(b_paths), run_values(a_paths)
    print(f"| method | config | before ({len(b_paths)} runs) | after ({len(a_paths)} runs) "
          "| change |")
    print("|---|---|---|---|---|")
    for key in sorted(before.keys() & after.keys()):
        b, a = before[key], after[key]
        change = (statistics.mean(a) - statistics.mean(b)) / statistics.mean(b) * 100
        print(f"| {key[0]} | {key[1]} | {' / '.join(f'{x:.0f}' for x in b)} | "
              f"{' / '.join(f'{x:.0f}' for x in a)} | {change:+.1f}% |")


def series(argv):
    """The mean of every labelled series of runs, optionally relative to one of them."""
    rel = option(argv, "--relative-to")
    series_ = []
    for s in argv:
        label, sep, files = s.partition("=")
        if not sep:
            raise ValueError(f"series: '{s}': expected LABEL=FILE.csv[,FILE.csv...]")
        paths = []
        for p in files.split(","):
            paths += sorted(glob.glob(p)) if "*" in p else [p]
        series_.append((label, paths))
    means = {label: {k: statistics.mean(v) for k, v in run_values(files).items()}
             for label, files in series_}
    labels = [label for label, _ in series_]
    if rel and rel not in labels:
        raise ValueError(f"series: --relative-to {rel}: no such series ({labels})")
    keys = sorted(set.intersection(*(set(m) for m in means.values())))
    print("| method | config | " + " | ".join(labels) + " |")
    print("|---|---|" + "---|" * len(labels))
    for key in keys:
        ref = means[rel][key] if rel else None
        cells = []
        for label in labels:
            v = means[label][key]
            cell = f"{v:.0f}"
            if ref is not None and label != rel:
                cell += f" ({(v - ref) / ref * 100:+.1f}%)"
            cells.append(cell)
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")


# ---------------------------------------------------------------------------------------------
# one figure at a time

def parse_spec(args):
    """CSV... METHOD METRIC [COL=V ...] -> (paths, method, metric, filters)."""
    paths = [a for a in args if a.endswith(".csv")]
    rest = [a for a in args if not a.endswith(".csv")]
    plain = [a for a in rest if "=" not in a]
    if not paths or len(plain) != 2:
        raise ValueError(f"expected CSV... METHOD METRIC [COL=V ...], got {args}")
    filters = dict(a.split("=", 1) for a in rest if "=" in a)
    return paths, plain[0], plain[1], filters


def select(args):
    paths, method, metric, filters = parse_spec(args)
    rows = [r for r in load(paths) if r["method"] == method and r["metric"] == metric
            and matches(r, **filters)]
    if not rows:
        raise ValueError(f"no ok row for {method} {metric} {filters} in {paths}")
    return rows


def number(v, f):
    return format(v, f) if f else fmt(v)


def value(argv):
    col = option(argv, "--col", "value")
    agg = option(argv, "--agg")
    scale = gbcsv.number_option(argv, "--scale", "1")
    f = option(argv, "--fmt")
    aggs = {None: min, "min": min, "max": max, "mean": statistics.mean, "range": None}
    if agg not in aggs:
        raise ValueError(f"--agg {agg}: expected one of min, max, range, mean")
    rows = select(argv)
    v = [float(r[col]) * scale for r in rows]
    if agg is None and len(v) > 1:
        raise ValueError(f"{len(v)} rows match; narrow with COL=V or give --agg")
    if agg == "range":
        lo, hi = number(min(v), f), number(max(v), f)
        print(lo if lo == hi else f"{lo}-{hi}")
    else:
        fn = aggs[agg]
        print(number(fn(v), f))


def ratio(argv):
    f = option(argv, "--fmt", ".2f")
    percent = "--percent" in argv
    argv = [a for a in argv if a != "--percent"]
    if "--over" not in argv:
        raise ValueError("ratio: SPEC --over SPEC")
    i = argv.index("--over")
    num, den = select(argv[:i]), select(argv[i + 1:])
    if len(num) != 1 or len(den) != 1:
        raise ValueError(f"ratio: {len(num)} / {len(den)} rows match; each side needs exactly one")
    q = float(num[0]["value"]) / float(den[0]["value"])
    print(f"{(q - 1) * 100:+{f}}%" if percent else format(q, f))


def pairs(argv):
    """Join rows that differ only in the --a / --b selectors (e.g. launcher=threads vs
    launcher=mpi, or _file=A.csv vs _file=B.csv); differences are |a - b| / min(a, b)."""
    sel = {}
    for side in ("--a", "--b"):
        text = option(argv, side)
        if not text:
            raise ValueError("pairs: --a COL=V and --b COL=V are required")
        sel[side] = tuple(text.split("=", 1))
    ignore = set((option(argv, "--ignore") or "").split(",")) - {""}
    over = option(argv, "--over")
    f = option(argv, "--fmt", ".1f")
    mode = "range" if "--range" in argv else "table" if "--table" in argv else "count"
    argv = [a for a in argv if a not in ("--range", "--table")]
    paths = [a for a in argv if a.endswith(".csv")]
    filters = dict(a.split("=", 1) for a in argv if "=" in a and not a.endswith(".csv"))
    col_a, col_b = sel["--a"][0], sel["--b"][0]
    side = {}
    for r in load(paths):
        r = dict(r, _file=os.path.relpath(r["_file"]))
        if not matches(r, **filters):
            continue
        c = cfg(r)
        which = "a" if matches(r, **dict([sel["--a"]])) else \
            "b" if matches(r, **dict([sel["--b"]])) else None
        if not which:
            continue
        axes = tuple(sorted((k, v) for k, v in c.items() if k not in ignore | {col_a, col_b}))
        key = (r["method"], r["metric"], r["gpu_count"], axes) + \
            tuple(r[k] for k in ("launcher",) if k not in (col_a, col_b))
        side.setdefault(key, {})[which] = float(r["value"])
    joined = sorted((k, v["a"], v["b"]) for k, v in side.items() if "a" in v and "b" in v)
    if not joined:
        raise ValueError("pairs: no pair joined")
    diffs = [(k, a, b, abs(a - b) / min(a, b) * 100) for k, a, b in joined]
    if mode == "range":
        lo, hi = min(d for *_, d in diffs), max(d for *_, d in diffs)
        print(f"{lo:{f}}-{hi:{f}}%")
        return
    if over is None:
        raise ValueError("pairs: --over P for a count or a table")
    beyond = [d for d in diffs if d[3] > float(over)]
    if mode == "count":
        print(f"{len(beyond)} of {len(diffs)}")
        return
    out = []
    for (method, metric, n, axes, *_), a, b, d in sorted(beyond, key=lambda x: -x[3]):
        out.append([f"`{method}`", " ".join(f"{k}={v}" for k, v in axes if k != "fault"), n, f"{a:.0f}",
                    f"{b:.0f}", f"{d:{f}}%"])
    table(["method", "config", "GPUs", f"{sel['--a'][1]} (ns)", f"{sel['--b'][1]} (ns)",
           "difference"], out)


def count(argv):
    show_span = "--span" in argv
    paths = [a for a in argv if a != "--span"]
    rows = load(paths, statuses=None)
    by = collections.Counter(r["status"] for r in rows)
    text = f"{len(rows)} rows: " + ", ".join(f"{n} {s}" for s, n in sorted(by.items()))
    if show_span:
        import datetime
        ts = sorted(datetime.datetime.strptime(r["timestamp"], "%Y-%m-%dT%H:%M:%SZ")
                    for r in rows if r["timestamp"])
        text += (f"; timestamps span {(ts[-1] - ts[0]).total_seconds():.0f} s "
                 f"({ts[0]:%H:%M:%S} to {ts[-1]:%H:%M:%S} UTC)")
    print(text)


def runs(argv):
    """One line: every run's value (by run_id, in file order) and their CV."""
    scale = gbcsv.number_option(argv, "--scale", "1")
    f = option(argv, "--fmt", ".1f")
    unit = option(argv, "--unit", "")
    rows = select(argv)
    v = vals(rows, scale)
    cv = statistics.pstdev(v) / statistics.mean(v) * 100 if len(v) > 1 else 0.0
    print(", ".join(format(x, f) for x in v) + (f" {unit}" if unit else "") + f" (CV {cv:.2f}%)")


def rows_table(argv):
    method = option(argv, "--method")
    metric = option(argv, "--metric")
    scale = gbcsv.number_option(argv, "--scale", "1")
    f = option(argv, "--fmt", ".2f")
    out = []
    for r in load(argv):
        if (method and r["method"] != method) or (metric and r["metric"] != metric):
            continue
        out.append([f"`{r['method']}`", r["config"].replace(" fault=0", ""), r["metric"],
                    format(float(r["value"]) * scale, f), r["note"].split(";")[0]])
    need(out, "ok rows" + (f" of {method}" if method else "") +
         (f" with metric {metric}" if metric else ""), argv)
    table(["method", "config", "metric", "value", "note"], out)


def samerows(argv):
    import same_rows
    if len(argv) != 2:
        raise ValueError("samerows: BEFORE.csv AFTER.csv")
    before, after = same_rows.load(argv[0]), same_rows.load(argv[1])
    _, bad = same_rows.compare(before, after, 0.05, 3.0)
    print(f"{bad} of {len(before.keys() & after.keys())}")


def compare_table(argv):
    """`gpubarrier compare ARGS` (tools/compare.py) as a markdown table with its verdicts."""
    import compare
    return compare.main(list(argv) + ["--format", "markdown"])


def model_table(argv):
    """`gpubarrier model ARGS` (tools/model.py): the study's model, as its markdown table."""
    import model
    return model.main(list(argv))


def reduction_tables(argv):
    """The study's Tables 3, 5, 6 (the reduction case study) from the CSVs, beside the study's."""
    import reduction_tables as tables
    which = option(argv, "--table", "3,5,6").split(",")
    sizes = option(argv, "--sizes")
    print("\n".join(tables.report(argv, which, sizes and [int(s) for s in sizes.split(",")])))


def push_phases(argv):
    """Where push's time goes: its phases alone (part axis), its floor, orderings 1 and 2
    (tools/push_phases.py; configs/sweeps/push-phases.yaml)."""
    import push_phases as phases_of
    cells = phases_of.phases_table(load(argv))
    need(cells, "push phase rows", argv,
         "`report push-phases` reads what configs/sweeps/push-phases.yaml measures")
    table(phases_of.HEADER, cells)


def floor(argv):
    """Each multi-GPU barrier beside its composed floor measured in the same run (tools/floor.py:
    gpu.grid.cg at the shape + the one-way signal at the barrier's ordering), as a ratio."""
    import floor as floor_of
    cells, missing = floor_of.floor_table(floor_of.floors(load(argv)))
    need(cells or missing, "multi-GPU barrier rows", argv,
         "`report floor` reads what configs/sweeps/floor.yaml measures")
    table(floor_of.FLOOR_HEADER, [[f"`{c[0]}`"] + c[1:] for c in cells])
    if missing:
        print("\nNo floor (its parts are not in the same run): " + "; ".join(missing) + ".")


def faults(argv):
    """What the device barriers' check caught under the `fault` test hooks (configs/sweeps/
    check-faults.yaml): per method and shape, stale stamps and payload words per 10^6
    crossings, and the row's status."""
    caught = {}
    for r in load(argv, statuses=("ok", "unverified")):
        if not r["metric"].startswith("check_stale_"):
            continue
        key = (r["method"], r["gpu_count"], cfg(r).get("fault", ""),
               f'{cfg(r).get("blocks_per_sm")}x{cfg(r).get("threads_per_block")}')
        caught.setdefault(key, {"status": r["status"]})[r["metric"]] = float(r["value"])
    need(caught, "check_stale_* rows", argv,
         "`report faults` reads what configs/sweeps/check-faults.yaml measures")
    table(["method", "GPUs", "fault", "blocks/SM x threads", "stale stamps / 10^6 crossings",
           "stale payload words / 10^6 crossings", "status"],
          [[f"`{m}`", g, f, shape, f'{v.get("check_stale_stamps", 0):.3g}',
            f'{v.get("check_stale_payload", 0):.3g}', v["status"]]
           for (m, g, f, shape), v in sorted(caught.items())])


def sanitize(argv):
    """scripts/gpu-sanitize's summary CSV: per tool, methods clean, with errors, incomplete,
    skipped (the methods named for all but clean)."""
    import csv
    by_tool = {}
    with open(argv[0], newline="") as f:
        for r in csv.DictReader(f):
            by_tool.setdefault(r["tool"], {}).setdefault(r["result"], []).append(r["method"])
    names = lambda ms: ", ".join(f"`{m}`" for m in sorted(ms)) or "-"  # noqa: E731
    table(["tool", "clean", "errors", "incomplete (killed at the time limit)", "skipped"],
          [[t, str(len(v.get("clean", []))), names(v.get("errors", [])),
            names(v.get("incomplete", [])), names(v.get("skipped", []))]
           for t, v in sorted(by_tool.items())])


MODES = {"single": single, "foundation": foundation, "multi": multi, "scaling": scaling,
         "hostwait": hostwait, "reference": reference, "selfcheck": selfcheck,
         "selfcheck-log": selfcheck_log, "repeats": repeats, "series": series, "value": value,
         "ratio": ratio, "pairs": pairs, "count": count, "runs": runs, "rows": rows_table,
         "samerows": samerows, "compare": compare_table, "model": model_table, "faults": faults,
         "floor": floor, "push-phases": push_phases, "reduction-tables": reduction_tables,
         "sanitize": sanitize,
         "answers": lambda argv: answers_of.main(argv, load),
         "heatmap": lambda argv: report_grids.heatmap(argv, load, table),
         "spans": lambda argv: report_grids.spans(argv, load, table),
         "legacy-study": lambda argv: legacy_study.main(argv, load, table),
         "multinode-model": lambda argv: multinode_model.main(argv, load, table),
         "findings": lambda argv: __import__("findings").main(argv),
         "folders": lambda argv: __import__("results_index").folders(argv),
         "study-tables": lambda argv: __import__("study_tables").main(argv),
         "reference-summary": lambda argv: __import__("reference_ratios").summary(argv)}


def dispatch(args):
    """Run one report.py command line (without the program name); used by readme_blocks."""
    args = list(args)
    if args and args[0] not in MODES and all(os.path.exists(a) or os.sep in a or
                                             a.endswith(".csv") for a in args):
        # `report DIR_OR_CSVS`: the answer first; a folder that holds only reference checks
        # (the host figures beside the OSU/EPCC/nccl-tests conventions) shows those instead.
        csvs, skipped = gbcsv.expand(args)
        checks = [p for p, kind, _ in skipped if kind == "reference-check"]
        if not csvs and checks:
            for path in checks:
                print(f"## {path}\n")
                reference([path])
                print()
            return 0
        args.insert(0, "answers")
    if not args or args[0] not in MODES:
        import difflib  # noqa: PLC0415
        near = difflib.get_close_matches(args[0], MODES, 2) if args else []
        raise tool_main.InputError(
            (f"unknown table {args[0]!r}" if args else "no table named") +
            (f" (did you mean {' or '.join(near)}?)" if near else "") +
            f": one of {', '.join(MODES)}, or readme, or CSV... --html OUT.html "
            f"(report.py --help describes them)")
    return MODES[args[0]](args[1:])


DEFAULT_README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              "results", "README.md")


def main(argv):
    if "--html" in argv:
        try:
            import html_report
        except ImportError as e:
            print(f"report.py --html: tools/html_report.py is not available ({e})", file=sys.stderr)
            return 2
        return html_report.main(argv)
    if argv[:1] in (["readme"], ["--check"]):
        # `report.py readme [FILE.md] [--check]`, also spelt `report.py --check [FILE.md]`;
        # FILE.md defaults to this tree's results/README.md, so it works from any folder.
        import readme_blocks
        rest = [a for a in argv if a != "readme"]
        if all(a == "--check" for a in rest):
            rest.append(DEFAULT_README)
        return readme_blocks.main(rest, dispatch)
    if argv[:1] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        return dispatch(argv) or 0
    except ValueError as e:  # the tables' own refusals: what is missing or malformed
        raise tool_main.InputError(str(e)) from e


if __name__ == "__main__":
    tool_main.run(main)

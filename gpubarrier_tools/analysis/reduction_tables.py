"""The study's Tables 3, 5 and 6 (the reduction case study) from measured rows, beside the
study's V100/P100 figures (data/study_reference.py); `cli/report.py reduction-tables` prints
them.

  Table 3  model.smem.stream (threads_per_block 1, 32, 1024): bandwidth (B/cycle), latency
           (cycles), concurrency C = T x Thr (Eq. 1); model.gmem.stream (grid 0: one block,
           grid 1: the resident grid) in GB/s and ns, which the study does not give.
  Table 5  gpu.warp.reduce by variant: cycles to sum 32 doubles, with each variant's status
           (the no-sync variant's sum is wrong: `unverified`).
  Table 6  reduction.single.{two-kernel,grid-sync (grid=1),cub} in GB/s at a few sizes, beside
           the read ceiling: model.gmem.stream grid=1 bandwidth of the same run (the resident
           grid streaming a read, as a reduction does), and reduction.copy (read + write) of the
           same run for reference.
  Fig. 16  reduction.multi.* in GB/s by launcher and GPU count at a few sizes (--table 16).

Rows are grouped by machine (data/machines.py: one host and its GPUs by UUID), never pooled
across machines: one column (Tables 3, 5) or one line per size (Table 6, Fig. 16) per machine,
each table naming its machine(s). A cell is the median over the matching rows of one machine
(several of its GPUs, repeats); where their printed figures differ, the range follows in
brackets. Each function returns the items of its tables (data/tables.py: lines and tables).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Collection, Iterable, MutableMapping
from typing import Any

from ..data import bounds, gbcsv
from ..data import machines as machines_of
from ..data import study_reference as study
from ..data.tables import Table

STUDY_GPUS = ("V100", "P100")
WARP_VARIANTS = (
    "serial",
    "no sync",
    "tile sync",
    "coalesced sync",
    "tile shuffle",
    "coalesced shuffle",
)
# (label, method, axes) of Table 6's measured columns, in the study's column order.
REDUCTIONS = [
    ("two kernels (study: implicit)", "reduction.single.two-kernel", {}),
    ("grid sync", "reduction.single.grid-sync", {"grid": "1"}),
    ("CUB", "reduction.single.cub", {}),
]
COPY = "reduction.copy"
READ = "model.gmem.stream"  # grid=1: the read ceiling of Table 6
MIB = 1 << 20


def load(paths: Iterable[str]) -> list:
    """ok and unverified rows (Table 5 shows the wrong variant too)."""
    return gbcsv.load(paths, statuses={"ok", "unverified"})


def models_of(rows: list) -> list:
    return sorted({r["gpu_model"] for r in rows if r["gpu_model"]})


def machines_with(rows: list, methods: tuple) -> tuple:
    """machines(rows)' groups that hold rows of `methods`, with their short names."""
    groups = [
        (label, rs)
        for label, rs in machines_of.machines(rows)
        if any(r["method"] in methods for r in rs)
    ]
    return groups, machines_of.short_names(groups)


def select(
    rows: list, method: str, metric: str, statuses: Collection[str] = ("ok",), **axes: Any
) -> list:
    """The rows (of one machine) of method and metric whose config has `axes`."""
    return [
        r
        for r in rows
        if r["method"] == method
        and r["metric"] == metric
        and r["status"] in statuses
        and all(gbcsv.config_axes(r).get(k) == str(v) for k, v in axes.items())
    ]


def number(v: float | None, digits: int = 3) -> str:
    if v is None:
        return "-"
    return f"{v:.0f}" if abs(v) >= 10**digits else f"{v:.{digits}g}"


def median(rows: list) -> float | None:
    return statistics.median(float(r["value"]) for r in rows) if rows else None


def cell(rows: list, f: Callable = number) -> str:
    """The median of the rows' values, the range in brackets where it shows."""
    if not rows:
        return "-"
    values = [float(r["value"]) for r in rows]
    lo, hi = f(min(values)), f(max(values))
    mid = f(statistics.median(values))
    return mid if lo == hi else f"{mid} ({lo}-{hi})"


def table(header: list, body: list) -> list[Table | str]:
    """The items of one table (data/tables.py), to add to a list of lines."""
    return [Table(header, body)]


def sources(rows: list, methods: Collection[str]) -> str:
    """The files and GPUs the rows of `methods` come from, for a caption."""
    rows = [r for r in rows if r["method"] in methods]
    files = sorted({os.path.relpath(r["_file"]) for r in rows})
    gpus = sorted({r["gpu_ids"] for r in rows if r["gpu_ids"]}, key=lambda g: (len(g), g))
    text = ", ".join(f"`{f}`" for f in files)
    return text + (
        f" (rows of GPUs {', '.join(gpus)}: median, range in brackets)" if len(gpus) > 1 else ""
    )


def table3(rows: list) -> list[Table | str]:
    groups, names = machines_with(rows, ("model.smem.stream", "model.gmem.stream"))
    metrics = [
        ("bandwidth (B/cycle)", "bandwidth_cycles", 0),
        ("latency (cycles)", "latency_cycles", 1),
    ]
    header = ["configuration"]
    for label, _, _ in metrics + [("concurrency C = T x Thr (B)", None, None)]:
        header += [f"{names[m]} {label}" for m, _ in groups] + [
            f"{g} {label.split(' (')[0]}" for g in STUDY_GPUS
        ]
    body = []
    for label, tpb, keys in (
        ("1 thread", 1, ("1 thread",)),
        ("1 warp = 32 threads", 32, ("1 warp", "32 threads")),
        ("1024 threads", 1024, ("1024 threads",)),
    ):
        line, sides = [label], {}
        for _, metric, i in metrics:
            for m, rs in groups:
                got = select(rs, "model.smem.stream", metric, threads_per_block=tpb)
                sides.setdefault(m, []).append(median(got))
                line.append(cell(got))
            line += [number(study.STUDY_MODEL[g][keys[0]][i]) for g in STUDY_GPUS]
        for m, _ in groups:
            thr, t = sides[m]
            line.append(number(thr * t) if thr is not None and t is not None else "-")
        line += [str(study.STUDY_CONCURRENCY[g][keys[0]]) for g in STUDY_GPUS]
        body.append(line)
    out: list[Table | str] = [
        "**Table 3, shared memory** (`model.smem.stream`; the study's Table 3, its "
        "\"1 warp\" and \"32 thrd.\" rows are one measurement here)",
        "",
    ]
    out += table(header, body)
    out += [
        "",
        "**Table 3, global memory** (`model.gmem.stream`; the study gives no global-memory inputs)",
        "",
    ]
    header = ["configuration"] + [
        f"{names[m]} {what}"
        for m, _ in groups
        for what in (
            "bandwidth (GB/s)",
            "latency (ns)",
            "latency (cycles)",
            "concurrency C = T x Thr (B)",
        )
    ]
    body = []
    for label, grid in (("one block of 1024 threads", 0), ("the resident grid", 1)):
        line = [label]
        for _, rs in groups:
            bw = select(rs, "model.gmem.stream", "bandwidth", grid=grid)
            ns = select(rs, "model.gmem.stream", "latency", grid=grid)
            cycles = select(rs, "model.gmem.stream", "latency_cycles", grid=grid)
            c = median(bw) * median(ns) if bw and ns else None  # type: ignore[operator]
            line += [cell(bw), cell(ns), cell(cycles), number(c)]
        body.append(line)
    out += table(header, body)
    return out + [
        "",
        f"From {sources(rows, ('model.smem.stream', 'model.gmem.stream'))}. "
        f"{machines_of.legend(groups)}",
    ]


def status_text(rows: list) -> str:
    """ok, or unverified with the worst relative error its note gives."""
    statuses = sorted({r["status"] for r in rows})
    if statuses != ["unverified"]:
        return "/".join(statuses) or "-"
    errors = {
        n.split("worst relative error ", 1)[1].split()[0]
        for n in (r["note"] for r in rows)
        if "worst relative error " in n
    }
    return "unverified: the sum is wrong" + (
        f" (relative error {'/'.join(sorted(errors))})" if errors else ""
    )


def table5(rows: list) -> list[Table | str]:
    groups, names = machines_with(rows, ("gpu.warp.reduce",))
    header = (
        ["variant"]
        + [f"{names[m]} (cycles)" for m, _ in groups]
        + [f"{names[m]} status" for m, _ in groups]
        + [f"{g} (cycles)" for g in STUDY_GPUS]
    )
    body = []
    both = ("ok", "unverified")
    for v, label in enumerate(WARP_VARIANTS):
        got = [select(rs, "gpu.warp.reduce", "latency_cycles", both, variant=v) for _, rs in groups]
        star = " *" if v == 1 else ""
        body.append(
            [f"{v}: {label}{star}"]
            + [cell(g) for g in got]
            + [status_text(g) for g in got]
            + [f"{study.STUDY_WARP_REDUCE[g][v]}{star}" for g in STUDY_GPUS]
        )
    return (
        [
            "**Table 5** (`gpu.warp.reduce`; the study's Table 5, latency in cycles to sum "
            "32 doubles)",
            "",
        ]
        + table(header, body)
        + [
            "",
            f"\\* without synchronisation the sum is wrong (the study: \"incorrect\"; here the "
            f"check against the exact sum fails). From {sources(rows, ('gpu.warp.reduce',))}. "
            f"{machines_of.legend(groups)}",
        ]
    )


def bytes_text(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", MIB), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def sizes_of(rows: list, method: str, **axes: Any) -> set:
    return {int(gbcsv.config_axes(r)["bytes"]) for r in select(rows, method, "bandwidth", **axes)}


def cache_of(r: MutableMapping[str, Any]) -> str:
    """The row's cache axis ("0" cold L2, "1" warm; "" for rows without it)."""
    return gbcsv.config_axes(r).get("cache", "")


CACHE_TEXT = {"0": " (cold L2)", "1": " (warm L2)"}


def read_ceiling(rows: list, runs: set, cache: str) -> tuple[list, str] | tuple:
    """(rows, mark) of the read ceiling (model.gmem.stream grid=1 bandwidth) of one machine's
    rows against reductions of `runs` at `cache`: the first that has rows of the same run and
    cache (mark ""), the same run ("‡": another cache), the machine's other runs and the same
    cache ("†"), the machine's other runs ("†‡"); ([], "") without any."""
    every = select(rows, READ, "bandwidth", grid=1)
    for mark, keep in (
        ("", lambda r: r["run_id"] in runs and cache_of(r) == cache),
        ("‡", lambda r: r["run_id"] in runs),
        ("†", lambda r: cache_of(r) == cache),
        ("†‡", lambda r: True),
    ):
        got = [r for r in every if keep(r)]
        if got:
            return got, mark
    return [], ""


def table6(rows: list, sizes: Collection[int] | None = None) -> list[Table | str]:
    """sizes: the array sizes (bytes) to show; default every size >= 1 MiB that every column
    measured. One line per machine, size and cache axis (where the rows have one)."""
    gbs = lambda v: "-" if v is None else f"{v:.1f}"
    header = (
        ["machine", "array"]
        + [label for label, _, _ in REDUCTIONS]
        + [
            "CUDA sample",
            "stream read (`model.gmem.stream` grid=1)",
            "copy (read + write)",
            "theory (DRAM peak)",
            "best / theory",
        ]
    )
    body, groups, marks, above = [], [], set(), False
    for label, rs in machines_of.machines(rows):
        common = set.intersection(*(sizes_of(rs, meth, **ax) for _, meth, ax in REDUCTIONS))
        shown = sorted(common & set(sizes)) if sizes else sorted(s for s in common if s >= MIB)
        if shown:
            groups.append((label, rs))
        for size in shown:
            at = [select(rs, meth, "bandwidth", bytes=size, **ax) for _, meth, ax in REDUCTIONS]
            for cache in sorted({cache_of(r) for g in at for r in g}):
                got = [[r for r in g if cache_of(r) == cache] for g in at]
                copy = [
                    r for r in select(rs, COPY, "bandwidth", bytes=size) if cache_of(r) == cache
                ]
                read, mark = read_ceiling(rs, {r["run_id"] for g in got for r in g}, cache)
                best: float = max(median(g) for g in got if g)  # type: ignore[type-var, assignment]
                above = above or bool(read) and best > median(read)  # type: ignore[operator]
                marks |= set(mark)
                mark = f" {mark}" if mark else ""
                peak = bounds.dram_peak(rs[0]["gpu_model"])
                body.append(
                    [label, bytes_text(size) + CACHE_TEXT.get(cache, "")]
                    + [cell(g, gbs) for g in got]
                    + [
                        "-",
                        cell(read, gbs) + mark,
                        cell(copy, gbs),
                        f"{peak:.0f}" if peak else "-",
                        f"{100 * best / peak:.0f}%" if peak else "-",
                    ]
                )
    names = machines_of.short_names(groups)
    for line in body:
        line[0] = names[line[0]]
    for g in STUDY_GPUS:
        figures = study.STUDY_REDUCTION[g]
        body.append(
            [f"{g} (study)", "not stated"]
            + [f"{v:.2f}" for v in figures[:4]]
            + ["-", "-", f"{figures[4]:.2f}", f"{100 * max(figures[:4]) / figures[4]:.0f}%"]
        )
    notes = {
        "†": "† the read of another run of the same machine (the reductions' run has none). ",
        "‡": "‡ the read at another cache axis than the reductions' (none at theirs). ",
    }
    return (
        [
            "**Table 6** (GB/s: bytes of the array / the reduction's time, launches included; "
            "the study's Table 6)",
            "",
        ]
        + table(header, body)
        + [
            "",
            "The ceiling is the GPU's theoretical DRAM bandwidth (the vendor's data sheet, "
            "gpubarrier_tools/data/bounds.py), as the study's `theory`; a warm array that fits in L2 is read from L2 "
            "and may go above it. Beside it, measured in the same run: `model.gmem.stream` grid=1, "
            "the study's Fig. 10 loop over 256 MiB on the resident grid (bytes read / time; "
            + ("the reductions read faster than this loop, so it is no ceiling; " if above else "")
            + "the model's input, not a ceiling), and `reduction.copy` of the same size "
            "(bytes read + written / time, as CUDA's bandwidthTest). "
            + "".join(notes[m] for m in ("†", "‡") if m in marks)
            + f"`grid sync` is `reduction.single.grid-sync grid=1`. From "
            f"{sources(rows, [COPY, READ] + [meth for _, meth, _ in REDUCTIONS])}. "
            + (machines_of.legend(groups) if groups else ""),
        ]
    )


def fig16(rows: list, sizes: Collection[int] | None = None) -> list[Table | str]:
    """The study's Fig. 16 as a table: GB/s of every multi-GPU reduction (reduction.multi.*, NCCL's
    variant 0; cold rows where a method has them, gbcsv.one_cache) by launcher and GPU count, at the sizes given (default: 4 MiB, 64 MiB and the
    largest measured); one line per machine, size, method and launcher."""
    ok = gbcsv.one_cache(
        [
            r
            for r in rows
            if r["status"] == "ok"
            and r["method"].startswith("reduction.multi.")
            and r["metric"] == "bandwidth"
            and gbcsv.config_axes(r).get("variant", "0") == "0"
        ]
    )
    if not ok:
        return ["**Fig. 16**: no `reduction.multi.*` bandwidth rows."]
    axes = lambda r: gbcsv.config_axes(r)
    counts = sorted({int(r["gpu_count"]) for r in ok})
    measured = sorted({int(axes(r)["bytes"]) for r in ok})
    shown = (
        sorted(set(sizes) & set(measured))
        if sizes
        else sorted({s for s in (4 * MIB, 64 * MIB, measured[-1]) if s in measured})
    )
    groups = machines_of.machines(ok)
    names = machines_of.short_names(groups)
    body = []
    for label, rs in groups:
        keys = sorted({(r["method"], r["launcher"]) for r in rs})
        for size in shown:
            for method, launcher in keys:
                got = [
                    [
                        r
                        for r in rs
                        if r["method"] == method
                        and r["launcher"] == launcher
                        and int(r["gpu_count"]) == n
                        and int(axes(r)["bytes"]) == size
                    ]
                    for n in counts
                ]
                if any(got):
                    body.append(
                        [names[label], bytes_text(size), f"`{method}`", launcher]
                        + [cell(g, lambda v: f"{v:.1f}") if g else "-" for g in got]
                    )
    return (
        [
            "**Fig. 16** (GB/s of the whole array by GPU count; `reduction.multi.nccl` is its "
            "allreduce, variant 0)",
            "",
        ]
        + table(
            ["machine", "array", "method", "launcher"]
            + [f"{n} GPU{'s' if n > 1 else ''}" for n in counts],
            body,
        )
        + [
            "",
            f"From {sources(ok, sorted({r['method'] for r in ok}))}. {machines_of.legend(groups)}",
        ]
    )


TABLES: dict[str, Callable[..., list[Table | str]]] = {
    "3": table3,
    "5": table5,
    "6": table6,
    "16": fig16,
}


def report(
    paths: list[str], tables: Iterable[str] = ("3", "5", "6"), sizes: list[int] | None = None
) -> list[Table | str]:
    """The items (data/tables.py) of the chosen tables from the CSVs at `paths`."""
    rows = load(paths)
    if not models_of(rows):
        raise ValueError(f"no GPU rows in {', '.join(paths)}")
    out: list[Table | str] = []
    for t in tables:
        if t not in TABLES:
            raise ValueError(f"--table {t}: one of {', '.join(TABLES)}")
        out += ([""] if out else []) + (
            TABLES[t](rows, sizes) if t in ("6", "16") else TABLES[t](rows)
        )
    return out

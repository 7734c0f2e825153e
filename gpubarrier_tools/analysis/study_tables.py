"""The study's warp and block tables with their Hopper counterparts: `report.py study-tables DIR`.

- Warp synchronization (the study's Table 2; its workshop version's Tables 4 and 7): per kind of
  sync, the latency (cycles, one warp, over the group sizes measured) and the highest throughput
  over the configurations measured (warp syncs or shuffles per cycle per SM), as the study
  recorded "only the highest result".
- Block synchronization per block size (the workshop version's Table 5): `__syncthreads` latency
  (cycles, one block) and the highest throughput over blocks per SM, in block syncs per µs per SM.
- The multi-grid sync by GPU count at the workshop version's three shapes (its Fig. 11).

Per GPU model, the rows of one machine: the one with the most rows of the table's methods; the
study's V100/P100 figures beside them (data/study_reference.py). A figure that is no figure
(gbcsv.figure_excluded: a chain compiled to no sync instruction, an unresolved interval) is left
out of the cell, and a cell with no other figure says why instead. CSVs are named by their path
from the folder read (the machine kind folder included).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterable, MutableMapping, Sequence
from typing import Any

from ..data import gbcsv
from ..data.tables import Table
from . import findings

# (label, method, group sizes: "all" | "partial" | "32", the study's V100 / P100 latency, the
# study's V100 / P100 throughput (sync/cycle))
WARP_KINDS = [
    ("Tile (every size)", "gpu.warp.tile-sync", "all", "14 / 1", "0.812 / 1.774"),
    ("Shuffle (tile, every size)", "gpu.warp.tile-shuffle", "all", "22 / 31", "0.928 / 0.642"),
    ("Coalesced (1-31)", "gpu.warp.coalesced-sync", "partial", "108 / 1", "0.167 / 1.791"),
    ("Coalesced (32)", "gpu.warp.coalesced-sync", "32", "14 / 1", "1.306 / 1.821"),
    (
        "Shuffle (coalesced, every size)",
        "gpu.warp.coalesced-shuffle",
        "all",
        "77 / 50",
        "0.121 / 0.166",
    ),
    ("`__syncwarp` (every size)", "gpu.warp.syncwarp", "all", "-", "-"),
    # the converged chains above compile to no sync instruction on sm_90; these reach the sync
    # from diverged paths, so the sync is there to time (not the study's setting: no figure)
    ("Tile, diverged (every size)", "gpu.warp.tile-sync-diverged", "all", "-", "-"),
    ("Coalesced, diverged (1-31)", "gpu.warp.coalesced-sync-diverged", "partial", "-", "-"),
    ("Coalesced, diverged (32)", "gpu.warp.coalesced-sync-diverged", "32", "-", "-"),
    ("`__syncwarp`, diverged (every size)", "gpu.warp.syncwarp-diverged", "all", "-", "-"),
]
BLOCK_STUDY = {
    32: ("22 / 220", "219 / 87.3"),
    64: ("24 / 220", "201 / 51.7"),
    128: ("28 / 224", "143 / 27.7"),
    256: ("36 / 235", "81.2 / 13.7"),
    512: ("52 / 317", "40.8 / 6.60"),
    1024: ("84 / 428", "19.5 / 3.13"),
}


def _group_ok(r: MutableMapping[str, Any], which: str) -> bool:
    g = gbcsv.config_axes(r).get("group_size", "")
    return which == "all" or (which == "32" and g == "32") or (which == "partial" and g != "32")


def _span(values: list[float], fmt: str = "{:.3g}") -> str:
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return (
        fmt.format(lo) if abs(hi - lo) <= 0.005 * abs(lo) else f"{fmt.format(lo)}-{fmt.format(hi)}"
    )


BASE = ["."]  # the folder the CSVs are named from (main sets it)


def _files(rows: Iterable[MutableMapping[str, Any]]) -> str:
    """The rows' CSVs as their paths from the folder read, joined; "-" for none."""
    names = sorted({os.path.relpath(r["_file"], BASE[0]) for r in rows})
    return ", ".join(f"`{f}`" for f in names) or "-"


def _cell(rows: list, value: Callable[[list], Any], fmt: Callable[[Any], str]) -> str | None:
    """The figures of the rows that are figures (`value` of them: a list -> text by `fmt`); where
    every row is excluded, "not timed: ..." (the reason); "-" for no rows."""
    clean = [r for r in rows if not gbcsv.figure_excluded(r)]
    if clean:
        return fmt(value(clean))
    if rows:
        return gbcsv.figure_excluded(rows[0])
    return "-"


def _scope_with(rows: list, gpu: str, methods: Collection[str]) -> list:
    """The rows of the machine with the most rows of `methods` (the newest of equals)."""
    best, most = [], 0
    for kind, rs in findings.scopes(rows, gpu):
        n = sum(1 for r in rs if r["method"] in methods)
        if kind == "machine" and n > most:
            best, most = rs, n
    return best


def _newest(rows: list) -> list:
    """One row per configuration: the newest."""
    out = {}
    for r in sorted(rows, key=lambda r: (r["timestamp"], r["_line"])):
        out[(r["method"], r["metric"], r["config"])] = r
    return list(out.values())


def warp_table(rows: list) -> Table:
    methods = {m for _, m, _, _, _ in WARP_KINDS}
    lines = []
    for _i, (gpu, label) in enumerate(findings.GPUS):
        mine = _newest(_scope_with(rows, gpu, methods))
        for label_k, method, which, lat_s, thr_s in WARP_KINDS:
            lat = [
                r
                for r in mine
                if r["method"] == method and r["metric"] == "latency_cycles" and _group_ok(r, which)
            ]
            thr = [
                r
                for r in mine
                if r["method"] == method
                and r["metric"] == "throughput_cycles"
                and _group_ok(r, which)
            ]
            values = lambda rs: [float(r["value"]) for r in rs]
            lines.append(
                [
                    label_k,
                    lat_s,
                    thr_s,
                    label,
                    _cell(lat, values, _span),
                    _cell(thr, values, lambda v: "%.3g" % max(v)),
                    _files(r for r in mine if r["method"] == method),
                ]
            )
    return Table(
        [
            "sync (group size)",
            "V100 / P100 latency (cycles, the study)",
            "V100 / P100 throughput (sync/cycle, the study)",
            "GPU",
            "latency (cycles)",
            "highest throughput (per cycle per SM)",
            "CSV",
        ],
        lines,
    )


def block_table(rows: list) -> Table:
    method = "gpu.block.syncthreads"
    lines = []
    for gpu, label in findings.GPUS:
        mine = _newest(_scope_with(rows, gpu, {method}))
        for t, (lat_s, thr_s) in BLOCK_STUDY.items():
            sel = [
                r
                for r in mine
                if r["method"] == method and gbcsv.config_axes(r).get("threads_per_block") == str(t)
            ]
            lat = [
                float(r["value"])
                for r in sel
                if r["metric"] == "latency_cycles"
                and gbcsv.config_axes(r).get("blocks_per_sm", "1") == "1"
            ]
            # throughput: warp syncs per ns per SM -> block syncs per µs per SM
            thr = [
                float(r["value"]) * 1000 / max(1, t // 32)
                for r in sel
                if r["metric"] == "throughput" and r["unit"].startswith("warp-syncs/ns")
            ]
            lines.append(
                [
                    str(t),
                    lat_s,
                    thr_s,
                    label,
                    _span(lat),
                    "%.3g" % max(thr) if thr else "-",
                    _files(sel),
                ]
            )
    return Table(
        [
            "threads per block",
            "V100 / P100 latency (cycles, the study)",
            "V100 / P100 block syncs per µs (the study; per SM or GPU not said)",
            "GPU",
            "latency (cycles, 1 block)",
            "highest block syncs per µs per SM (over blocks/SM)",
            "CSV",
        ],
        lines,
    )


# The workshop version's multi-grid figure across the GPUs of a DGX-1: its three shapes.
MG_SHAPES = [
    ("1 x 32 (the fastest)", 1, 32),
    ("4 x 256 (recommended)", 4, 256),
    ("32 x 64 (the slowest)", 32, 64),
]


def multi_grid_table(rows: list) -> Table:
    method = "multigpu.cg.multi-grid"
    lines = []
    for gpu, label in findings.GPUS:
        mine = _newest(_scope_with(rows, gpu, {method}))
        for name, b, t in MG_SHAPES:
            sel = [
                r
                for r in mine
                if r["method"] == method
                and r["metric"] == "latency"
                and gbcsv.config_axes(r).get("blocks_per_sm") == str(b)
                and gbcsv.config_axes(r).get("threads_per_block") == str(t)
            ]
            if not sel:
                continue
            by = {int(r["gpu_count"]): float(r["value"]) / 1000 for r in sel}
            lines.append(
                [label, name]
                + [f"{by[n]:.3g}" if n in by else "-" for n in range(1, 5)]
                + [_files(sel)]
            )
    if not lines:
        lines.append(["-", "not measured", "-", "-", "-", "-", "-"])
    return Table(
        ["GPU", "blocks/SM x threads"]
        + [f"{n} GPU{'s' if n > 1 else ''} (µs)" for n in range(1, 5)]
        + ["CSV"],
        lines,
    )


def main(argv: Sequence[str]) -> list:
    paths = argv or ["."]
    BASE[0] = paths[0] if len(paths) == 1 and os.path.isdir(paths[0]) else os.getcwd()
    csvs, _ = gbcsv.expand(paths)
    rows = gbcsv.load(csvs, statuses={"ok"})
    return [
        "**Warp synchronization** (the study's Table 2)",
        "",
        warp_table(rows),
        "",
        "**Block synchronization by block size** (the workshop version's Table 5)",
        "",
        block_table(rows),
        "",
        "**The multi-grid sync by GPU count at the workshop version's three shapes** (its "
        "Fig. 11 on a DGX-1 had two plateaus, 2-5 and 6-8 GPUs; the real "
        "`this_multi_grid().sync()` by the legacy helper)",
        "",
        multi_grid_table(rows),
    ]

"""report single: the single-GPU suite (warp, block, cluster, grid, kernel boundary), one column
per GPU, the study's V100/P100 figures beside them (data/study_reference.py)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from ...data import study_reference
from .common import cfg, csv_paths, fmt, load, need, pick, span, table, vals


def by_group(rows: list) -> str:
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


def single(argv: Sequence[str]) -> list:
    columns = [[p for p in a.split(",") if p] for a in argv]
    need(columns, "CSV", [], "single CSV[,CSV...] [CSV[,CSV...] ...]: one column per GPU")
    columns = [csv_paths(files) for files in columns]
    data = [[load([p]) for p in files] for files in columns]
    gpu_rows = lambda rows: [r for r in rows if r["level"] in SINGLE_GPU_LEVELS]
    need(
        any(gpu_rows(rows) for files in data for rows in files),
        "single-GPU rows",
        [p for files in columns for p in files],
        f"`report single` reads the levels {', '.join(SINGLE_GPU_LEVELS)} (configs/sweeps/"
        f"single-gpu.yaml measures them); host and multi-GPU rows are in `report multi`",
    )
    labels = []
    for files, paths in zip(data, columns):
        models = {
            r["gpu_model"] for rows in files for r in gpu_rows(rows) if r["gpu_model"].strip()
        }
        labels.append(
            " / ".join(sorted(m.replace("NVIDIA ", "").split()[0] for m in models))
            or " / ".join(os.path.basename(p) for p in paths)
        )

    def cell(fn: Callable) -> list:
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

    def row(level: str, case: str, fn: Callable, key: str | None = None) -> None:
        v100, p100, src = ref.get(key, ("-", "-", "")) if key else ("-", "-", "")
        lines.append([level, case] + cell(fn) + [v100, p100, src or "-"])

    warp = [
        ("gpu.warp.tile-sync", "tile sync"),
        ("gpu.warp.coalesced-sync", "coalesced sync"),
        ("gpu.warp.syncwarp", "`__syncwarp(mask)`"),
        ("gpu.warp.tile-shuffle", "tile shuffle"),
        ("gpu.warp.coalesced-shuffle", "coalesced shuffle"),
    ]
    for method, label in warp:
        row(
            "warp",
            f"{label}, latency (cycles) by group size",
            lambda rows, m=method: by_group(pick(rows, m, "latency_cycles")),
            "warp." + method.split(".")[-1],
        )

    def lat_list(
        method: str,
        metric: str,
        axis: str,
        points: tuple,
        scale: float = 1.0,
        f: Callable = fmt,
        agg: Callable = min,
        **more: Any,
    ) -> Callable[[list], str]:
        def fn(rows: list) -> str:
            out = []
            for p in points:
                v = vals(pick(rows, method, metric, **{axis: p}, **more), scale)
                out.append(f(agg(v)) if v else "-")
            return "-" if all(x == "-" for x in out) else " / ".join(out)

        return fn

    def best(
        method: str, metric: str, axis: str, points: tuple, **more: Any
    ) -> Callable[[list], str]:
        def fn(rows: list) -> str:
            out = []
            for p in points:
                v = vals(pick(rows, method, metric, **{axis: p}, **more))
                out.append(fmt(max(v)) if v else "-")
            return "-" if all(x == "-" for x in out) else " / ".join(out)

        return fn

    row(
        "block",
        "`__syncthreads`, 32 / 256 / 1024 threads, latency (cycles)",
        lat_list(
            "gpu.block.syncthreads", "latency_cycles", "threads_per_block", ("32", "256", "1024")
        ),
        "block.latency",
    )
    row(
        "block",
        "`__syncthreads` throughput, best blocks/SM, 32 / 64 / 1024 threads (warp-syncs/ns per SM)",
        best("gpu.block.syncthreads", "throughput", "threads_per_block", ("32", "64", "1024")),
        "block.throughput",
    )
    sizes = ("1", "2", "4", "8", "16")
    for method, label in (
        ("gpu.cluster.sync", "`cluster.sync`"),
        ("gpu.cluster.arrive-wait", "split arrive/wait"),
    ):
        row(
            "cluster",
            f"{label}, 128 threads, cluster 1 / 2 / 4 / 8 / 16, latency (cycles)",
            lat_list(method, "latency_cycles", "cluster_size", sizes, threads_per_block="128"),
        )
    row(
        "cluster",
        "`cluster.sync` throughput, 128 threads, best blocks/SM, cluster 1 / 2 / 4 / "
        "8 / 16 (cluster barriers/us, whole GPU)",
        best("gpu.cluster.sync", "throughput", "cluster_size", sizes, threads_per_block="128"),
    )
    us = 1e-3
    f3 = "{:.3f}".format
    row(
        "grid",
        "`grid.sync`, 1 block/SM, min-max over block sizes (us)",
        lambda rows: span(vals(pick(rows, "gpu.grid.cg", "latency", blocks_per_sm=1), us), f3),
        "grid.cg.1",
    )
    row(
        "grid",
        "`grid.sync`, 2 / 4 / 8 / 16 / 32 blocks/SM, min over block sizes (us)",
        lat_list("gpu.grid.cg", "latency", "blocks_per_sm", ("2", "4", "8", "16", "32"), us, f3),
        "grid.cg.min",
    )
    for method, label in (
        ("gpu.grid.cg-arrive-wait", "split arrive/wait"),
        ("gpu.grid.atomic-sense", "atomic counter + sense reversal"),
        ("gpu.grid.flag-epoch", "flag/epoch (master gathers)"),
    ):
        row(
            "grid",
            f"{label}, 1 block/SM, min-max over block sizes (us)",
            lambda rows, m=method: span(vals(pick(rows, m, "latency", blocks_per_sm=1), us), f3),
        )
    launches = (
        "kernel.launch.triple-chevron",
        "kernel.launch.cooperative",
        "kernel.launch.ex",
        "kernel.launch.graph",
    )
    f2 = "{:.2f}".format

    def per_launch(metric: str) -> Callable[[list], str]:
        def fn(rows: list) -> str:
            out = [vals(pick(rows, m, metric, blocks_per_sm=1), us) for m in launches]
            return "-" if not any(out) else " / ".join(f2(v[0]) if v else "-" for v in out)

        return fn

    kinds = "`<<<>>>` / cooperative / `cudaLaunchKernelEx` / 1-kernel graph"
    row(
        "kernel",
        f"empty kernel, launch + stream sync (null-kernel latency): {kinds} (us)",
        per_launch("latency"),
        "kernel.launch-sync",
    )
    row(
        "kernel",
        f"empty kernels back to back, per launch (launch interval): {kinds} (us)",
        per_launch("launch_interval"),
    )
    row(
        "kernel",
        "launch overhead by Eq. 6 (fusion: hidden behind running kernels), `<<<>>>` (us)",
        lambda rows: span(vals(pick(rows, "kernel.fusion", "launch_overhead"), us), f2),
        "kernel.fusion",
    )
    return [
        table(["level", "case"] + labels + ["V100 (study)", "P100 (study)", "study source"], lines),
        "",
        study_reference.STUDY_FOOTNOTE,
    ]

"""The study's model (the study's section 7.1, Eqs. 1-5; analysis/model_eq.py) applied to measured
rows: its predictions and their table, beside the measured switch points. cli/model.py is the
command line (`gpubarrier model`); its help names the inputs, the predictions and the columns.

    predictions(rows, syncs)   one prediction per GPU model and pair of configurations
    study_predictions()        the same from the study's own V100/P100 inputs
    report(preds, study)       their table and the line under it (data/tables.py)
"""

from __future__ import annotations

import statistics
from typing import Any

from ..data import gbcsv
from ..data.study_reference import STUDY_MODEL, STUDY_SWITCH_POINTS
from ..data.tables import Table
from .model_eq import Crossing, Side, crossing, eq5, switch_point

SMEM, GMEM = "model.smem.stream", "model.gmem.stream"
# A multi-GPU barrier, the reduction that uses it, and the reduction's rows that do (NCCL's
# variant 0 is the allreduce that host.nccl.allreduce measures; 1 is ncclReduce).
MULTI_REDUCTIONS = [
    ("multigpu.device.", "reduction.multi.device-barrier", {}),
    ("host.omp.gpu-barrier", "reduction.multi.omp", {}),
    ("host.mpi.gpu-barrier", "reduction.multi.mpi", {}),
    ("host.nccl.allreduce", "reduction.multi.nccl", {"variant": 0}),
]


class Missing(Exception):
    """Rows a prediction needs that the CSVs do not have."""


class Rows:
    """The ok rows of one GPU model (host-only rows, gpu_model empty, belong to every model)."""

    def __init__(self, rows: list) -> None:
        self.rows = rows

    def select(self, method: str, metric: str, **axes: Any) -> list:
        out = []
        for r in self.rows:
            if r["method"] != method and not (
                method.endswith(".") and r["method"].startswith(method)
            ):
                continue
            if r["metric"] != metric:
                continue
            have = gbcsv.config_axes(r)
            if all(have.get(k, r.get(k)) == str(v) for k, v in axes.items()):
                out.append(r)
        return out

    def figure(self, method: str, metric: str, unit: str, **axes: Any) -> float:
        """The median value of the matching rows, in `unit`; Missing when there are none."""
        rows = self.select(method, metric, **axes)
        what = f"{method} {metric} " + " ".join(f"{k}={v}" for k, v in axes.items())
        if not rows:
            raise Missing(what.strip())
        units = {r["unit"] for r in rows}
        if units != {unit}:
            raise gbcsv.CsvError(
                f"{rows[0]['_file']}:{rows[0]['_line']}: {what.strip()} has "
                f"unit {'/'.join(sorted(units))}, expected {unit}"
            )
        return statistics.median(float(r["value"]) for r in rows)

    def fastest(self, method: str, metric: str, **axes: Any) -> tuple:
        """The fastest configuration's figure (median over its repeats) and its config."""
        rows = self.select(method, metric, **axes)
        if not rows:
            raise Missing(f"{method}* {metric} " + " ".join(f"{k}={v}" for k, v in axes.items()))
        by_config = {}
        for r in rows:
            by_config.setdefault((r["method"], r["config"]), []).append(float(r["value"]))
        (name, config), values = min(by_config.items(), key=lambda kv: statistics.median(kv[1]))
        return statistics.median(values), f"{name} {config}".strip()

    def curve(self, method: str, **axes: Any) -> dict:
        """latency (ns) by the axis `bytes`, for the measured switch point: the cold rows
        (cache=0, L2 evicted before every sample) where there are any, else the warm ones (rows
        written before the axis existed were warm); never the two mixed."""
        points = {}
        for r in gbcsv.one_cache(self.select(method, "latency", **axes)):
            size = gbcsv.config_axes(r).get("bytes")
            if size is not None:
                points.setdefault(int(size), []).append(float(r["value"]))
        return {s: statistics.median(v) for s, v in points.items()}


def stream_side(
    rows: Rows, method: str, bandwidth: str, latency: str, units: tuple, **axes: Any
) -> Side:
    return Side(
        rows.figure(method, latency, units[1], **axes),
        rows.figure(method, bandwidth, units[0], **axes),
    )


def measured(rows: Rows, method: str, basic_axes: dict, more_axes: dict) -> Crossing | None:
    basic, more = rows.curve(method, **basic_axes), rows.curve(method, **more_axes)
    return crossing(basic, more) if basic and more else None


def prediction(
    label: str,
    basic_name: str,
    more_name: str,
    basic: Side,
    more: Side,
    t_sync: float,
    sync_from: str,
    units: str,
    found: Crossing | None,
) -> dict[str, Any]:
    sp = switch_point(basic, more, t_sync)
    return {
        "prediction": label,
        "basic": basic_name,
        "more": more_name,
        "units": units,
        "T": basic.latency,
        "thr_basic": basic.throughput,
        "thr_more": more.throughput,
        "c_basic": basic.concurrency(),
        "c_more": more.concurrency(),
        "t_sync": t_sync,
        "sync_from": sync_from,
        "n": sp.n,
        "scenario": sp.scenario,
        "equation": sp.equation,
        "n_l": eq5(t_sync, basic.throughput, more.throughput)
        if more.throughput > basic.throughput
        else None,
        "measured": None if found is None else found.n,
        "measured_bound": None if found is None else found.bound,
    }


def in_block(rows: Rows, syncs: int) -> list:
    """1 thread vs 1 warp, 32 vs 1024 threads: shared memory, cycles."""
    out = []
    units = ("B/cycle", "cycles")
    for label, (b, m), sync in [
        (
            "1 thread vs 1 warp",
            (1, 32),
            ("gpu.warp.tile-shuffle", "latency_cycles", {"group_size": 32}),
        ),
        (
            "32 vs 1024 threads",
            (32, 1024),
            ("gpu.block.syncthreads", "latency_cycles", {"threads_per_block": 1024}),
        ),
    ]:
        try:
            basic = stream_side(
                rows, SMEM, "bandwidth_cycles", "latency_cycles", units, threads_per_block=b
            )
            more = stream_side(
                rows, SMEM, "bandwidth_cycles", "latency_cycles", units, threads_per_block=m
            )
            one = rows.figure(sync[0], sync[1], "cycles", **sync[2])
        except Missing as e:
            out.append({"prediction": label, "missing": str(e)})
            continue
        found = measured(
            rows, "reduction.block", {"threads_per_block": b}, {"threads_per_block": m}
        )
        out.append(
            prediction(
                label,
                f"{b} thread(s)",
                f"{m} threads",
                basic,
                more,
                syncs * one,
                f"{syncs} x {sync[0]}",
                "B, cycles",
                found,
            )
        )
    return out


def across_grid_and_gpus(rows: Rows) -> list:
    """1 block vs the grid, 1 GPU vs N GPUs: global memory, ns."""
    out = []
    units = ("B/ns", "ns")
    try:
        block = stream_side(rows, GMEM, "bandwidth", "latency", units, grid=0)
        grid = stream_side(rows, GMEM, "bandwidth", "latency", units, grid=1)
        sync, config = rows.fastest("gpu.grid.cg", "latency")
        found = measured(rows, "reduction.single.grid-sync", {"grid": 0}, {"grid": 1})
        out.append(
            prediction(
                "1 block vs the grid", "1 block", "grid", block, grid, sync, config, "B, ns", found
            )
        )
    except Missing as e:
        out.append({"prediction": "1 block vs the grid", "missing": str(e)})
        return out
    counts = sorted(
        {
            int(r["gpu_count"])
            for r in rows.rows
            if r["gpu_count"].isdigit() and int(r["gpu_count"]) > 1
        }
    )
    for prefix, reduction, which in MULTI_REDUCTIONS:
        for n in counts:
            label = f"1 GPU vs {n} GPUs, {prefix.rstrip('.')}"
            metric = "loop_latency" if prefix.startswith("host.") else "latency"
            try:
                barrier, config = rows.fastest(prefix, metric, gpu_count=n)
                signal, _ = rows.fastest("multigpu.floor.signal", "one_way_latency")
            except Missing as e:
                if "floor.signal" in str(e) or rows.select(prefix, metric, gpu_count=n):
                    out.append({"prediction": label, "missing": str(e)})
                continue
            more = Side(grid.latency, grid.throughput * n)
            found = measured(rows, reduction, {"gpu_count": 1, **which}, {"gpu_count": n, **which})
            out.append(
                prediction(
                    label,
                    "1 GPU",
                    f"{n} GPUs",
                    grid,
                    more,
                    barrier + signal,
                    f"{config} + one-way signal",
                    "B, ns",
                    found,
                )
            )
    return out


def study_predictions() -> list:
    out = []
    for basic, more, per_gpu in STUDY_SWITCH_POINTS:
        for gpu, (t_sync, published) in per_gpu.items():
            b, m = (Side(STUDY_MODEL[gpu][k][1], STUDY_MODEL[gpu][k][0]) for k in (basic, more))
            p = prediction(
                f"{basic} vs {more}",
                basic,
                more,
                b,
                m,
                t_sync,
                "the study's Table 4",
                "B, cycles",
                None,
            )
            p.update(gpu_model=gpu, published=published)
            out.append(p)
    return out


def predictions(rows: list, syncs: int = 5) -> list:
    """Every prediction (in_block, across_grid_and_gpus) for each GPU model of the ok rows."""
    preds = []
    for model in sorted({r["gpu_model"] for r in rows if r["gpu_model"]}) or [""]:
        mine = Rows([r for r in rows if r["gpu_model"] in (model, "")])
        for p in in_block(mine, syncs) + across_grid_and_gpus(mine):
            preds.append(dict(p, gpu_model=model or "-"))
    return preds


def number(v: float | None) -> str:
    if v is None:
        return "-"
    return f"{v:.0f}" if abs(v) >= 1000 else f"{v:.4g}"


def report(preds: list[dict[str, Any]], study: bool) -> list[Table | str]:
    """The predictions' table and the line under it naming the units (data/tables.py)."""
    head = [
        "prediction",
        "GPU",
        "T",
        "Thr basic",
        "Thr more",
        "C basic",
        "C more",
        "T_sync",
        "N (Eq. 2)",
        "scenario",
        "N_l (Eq. 5)",
        "study's Table 4" if study else "measured",
        "error",
    ]
    lines = []
    for p in preds:
        if "missing" in p:  # the cells after it left empty
            lines.append([p["prediction"], p["gpu_model"], f"not computed: needs `{p['missing']}`"])
            continue
        if study:
            other, err = p["published"], p["n_l"] / p["published"] - 1
        else:
            other = p["measured"]
            err = (
                other / p["n"] - 1
                if other is not None and p["n"] and not p["measured_bound"]
                else None
            )
        shown = (
            "-"
            if other is None
            else f"{p['measured_bound'] or ''}{number(other)}"
            if not study
            else number(other)
        )
        lines.append(
            [
                p["prediction"],
                p["gpu_model"],
                number(p["T"]),
                number(p["thr_basic"]),
                number(p["thr_more"]),
                number(p["c_basic"]),
                number(p["c_more"]),
                f"{number(p['t_sync'])} ({p['sync_from']})",
                number(p["n"]),
                p["scenario"],
                number(p["n_l"]),
                shown,
                "-" if err is None else f"{100 * err:+.1f}%",
            ]
        )
    units = (
        "sizes in bytes; T and T_sync in cycles, Thr in B/cycle for the in-block rows, "
        "ns and B/ns (GB/s) for the grid and multi-GPU rows"
    )
    note = (
        "error: N_l (Eq. 5) against the study's printed switch point"
        if study
        else "error: measured / N (Eq. 2) - 1; <= and > mark a crossing outside the sizes measured"
    )
    return [Table(head, lines), "", f"{units}; {note}."]

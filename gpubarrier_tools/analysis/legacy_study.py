"""The legacy helper's figures beside the study's, for cli/report.py:

    legacy-study launch CSV...     the study's Table 1: launch overhead (Eq. 6) and null-kernel total
                                   latency per launch type: traditional (<<<>>>), cooperative
                                   and cooperative multi-device (the helper), at each GPU count
    legacy-study multigrid CSV...  the workshop version's Table 9: the multi-grid sync on 2 GPUs, min and max
                                   over the same regions of the heat map as the study's V100 and
                                   P100 rows (warps/SM = blocks/SM x threads/block / 32)

Our figures are medians of the ok rows of a point (one row per GPU for single-GPU methods).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from ..data import gbcsv
from ..data.study_reference import STUDY_LAUNCH_TYPES, STUDY_MULTI_GRID_2GPU
from ..data.tables import Table

cfg = gbcsv.config_axes


def _us(v: float | None) -> str:
    return "-" if v is None else f"{v / 1000:.3g}"


def _median(rows: list, method: str, metric: str, **axes: Any) -> float | None:
    vals = [
        float(r["value"])
        for r in rows
        if r["method"] == method
        and r["metric"] == metric
        and all(cfg(r).get(k, r.get(k)) == str(v) for k, v in axes.items())
    ]
    return statistics.median(vals) if vals else None


def _counts(rows: list, method: str) -> list[int]:
    return sorted({int(r["gpu_count"]) for r in rows if r["method"] == method})


def launch(rows: list) -> list[Table | str]:
    """The study's Table 1 beside ours, in us."""
    fused = [r for r in rows if r["method"] == "kernel.fusion" and r["metric"] == "launch_overhead"]
    ours = [
        (
            "traditional (`<<<>>>`)",
            1,
            statistics.median(
                [float(r["value"]) for r in fused if cfg(r).get("launch", "0") == "0"]
            )
            if any(cfg(r).get("launch", "0") == "0" for r in fused)
            else None,
            _median(rows, "kernel.launch.triple-chevron", "latency", blocks_per_sm=1),
        )
    ]
    ours.append(
        (
            "cooperative",
            1,
            _median(rows, "kernel.fusion", "launch_overhead", launch=1),
            _median(rows, "kernel.launch.cooperative", "latency", blocks_per_sm=1),
        )
    )
    for n in sorted(
        set(_counts(rows, "kernel.fusion.multi-device"))
        | set(_counts(rows, "kernel.multi-device-launch"))
    ):
        ours.append(
            (
                "cooperative multi-device (helper)",
                n,
                _median(rows, "kernel.fusion.multi-device", "launch_overhead", gpu_count=n),
                _median(
                    rows, "kernel.multi-device-launch", "latency", gpu_count=n, impl=1, host_wait=0
                ),
            )
        )
    study = {name: (o, t) for name, o, t in STUDY_LAUNCH_TYPES}
    out = []
    for label, n, overhead, total in ours:
        key = label.split(" (")[0]
        s_o, s_t = study[key]
        out.append([label, str(n), _us(overhead), _us(s_o), _us(total), _us(s_t)])
    return [
        Table(
            [
                "launch type",
                "GPUs",
                "launch overhead (Eq. 6)",
                "study",
                "null kernel launch + wait",
                "study",
            ],
            out,
        )
    ]


def multigrid(rows: list) -> list[Table | str]:
    """The workshop version's Table 9 beside our multi-grid rows at 2 GPUs, in us."""
    mine = []
    for r in rows:
        c = cfg(r)
        if (
            r["method"] != "multigpu.cg.multi-grid"
            or r["metric"] != "latency"
            or r["gpu_count"] != "2"
        ):
            continue
        b, t = int(c["blocks_per_sm"]), int(c["threads_per_block"])
        mine.append((b, b * t / 32, float(r["value"])))
    if not mine:
        raise ValueError("legacy-study multigrid: no multigpu.cg.multi-grid latency rows at 2 GPUs")
    out = []
    for gpu, cases in STUDY_MULTI_GRID_2GPU.items():
        for case, inside, lo, hi in cases:
            v = [x for b, w, x in mine if inside(b, w)]
            ours = (
                f"{min(v) / 1000:.3g}-{max(v) / 1000:.3g} ({len(v)} shapes)"
                if v
                else "no shape measured fits"
            )
            out.append([gpu, case, f"{lo:g}-{hi:g}", ours])
    return [
        Table(
            [
                "study's GPU",
                "region of the heat map (the workshop version's Table 9)",
                "study (us)",
                "ours, 2 GPUs (us)",
            ],
            out,
        )
    ]


def main(argv: Sequence[str], load: Callable) -> list:
    if len(argv) < 2 or argv[0] not in ("launch", "multigrid"):
        raise ValueError("legacy-study: launch|multigrid CSV...")
    rows = load(argv[1:])
    return (launch if argv[0] == "launch" else multigrid)(rows)

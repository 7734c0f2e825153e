"""report faults and report sanitize: what the device barriers' check caught under the fault test
hooks, and scripts/gpu-sanitize's summary per tool."""

from __future__ import annotations

from collections.abc import Sequence

from ...data import tool_main, user_files
from ...data.tables import Table
from .common import cfg, load, need


def faults(argv: Sequence[str]) -> list[Table | str]:
    """What the device barriers' check caught under the `fault` test hooks (configs/sweeps/
    check-faults.yaml): per method and shape, stale stamps and payload words per 10^6
    crossings, and the row's status: the table (data/tables.py)."""
    caught = {}
    for r in load(argv, statuses=("ok", "unverified")):
        if not r["metric"].startswith("check_stale_"):
            continue
        key = (
            r["method"],
            r["gpu_count"],
            cfg(r).get("fault", ""),
            f'{cfg(r).get("blocks_per_sm")}x{cfg(r).get("threads_per_block")}',
        )
        caught.setdefault(key, {"status": r["status"]})[r["metric"]] = float(r["value"])
    need(
        caught,
        "check_stale_* rows",
        argv,
        "`report faults` reads what configs/sweeps/check-faults.yaml measures",
    )
    return [
        Table(
            [
                "method",
                "GPUs",
                "fault",
                "blocks/SM x threads",
                "stale stamps / 10^6 crossings",
                "stale payload words / 10^6 crossings",
                "status",
            ],
            [
                [
                    f"`{m}`",
                    g,
                    f,
                    shape,
                    f'{v.get("check_stale_stamps", 0):.3g}',
                    f'{v.get("check_stale_payload", 0):.3g}',
                    v["status"],
                ]
                for (m, g, f, shape), v in sorted(caught.items())
            ],
        )
    ]


def sanitize(argv: Sequence[str]) -> list[Table | str]:
    """scripts/gpu-sanitize's summary CSV: per tool, methods clean, with errors, incomplete,
    skipped (the methods named for all but clean): the table (data/tables.py)."""
    if len(argv) != 1:
        raise ValueError("sanitize: SUMMARY.csv (written by scripts/gpu-sanitize)")
    header, records = user_files.csv_dicts(argv[0], "a summary of scripts/gpu-sanitize")
    missing = [c for c in ("tool", "result", "method") if c not in header]
    if missing:
        raise ValueError(
            f"sanitize: {tool_main.shown(argv[0])}:1: no column '{missing[0]}': "
            f"expected a summary of scripts/gpu-sanitize (tool,method,result)"
        )
    by_tool = {}
    for _, r in records:
        by_tool.setdefault(r["tool"], {}).setdefault(r["result"], []).append(r["method"])
    names = lambda ms: ", ".join(f"`{m}`" for m in sorted(ms)) or "-"
    return [
        Table(
            ["tool", "clean", "errors", "incomplete (killed at the time limit)", "skipped"],
            [
                [
                    t,
                    str(len(v.get("clean", []))),
                    names(v.get("errors", [])),
                    names(v.get("incomplete", [])),
                    names(v.get("skipped", [])),
                ]
                for t, v in sorted(by_tool.items())
            ],
        )
    ]

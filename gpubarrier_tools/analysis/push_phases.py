"""Where push's time goes, from one run of configs/sweeps/push-phases.yaml.

multigpu.device.push's `part` axis times one phase of the barrier alone (kernels/multigpu/
push.cuh): 0 the whole barrier, 1 the gather alone (every block waits for its GPU's
arrival count), 2 the gather and the sends (the completing block still signals every peer, nobody
waits for a peer), 3 the exchange alone (block 0 of each GPU signals every peer and waits for
every peer). Per GPU count and shape, beside the composed floor of the same run (analysis/floor.py),
push with count_poll=1 (the count polled relaxed, then one acquire fence: whole and gather alone)
and push at orderings 1 (relaxed + seq_cst fences) and 2 (relaxed + acq_rel fences):

    overlap = gather + exchange - whole   (how much of the two phases run at once)
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from ..data import gbcsv
from . import floor

PUSH = "multigpu.device.push"
HEADER = [
    "GPUs",
    "blocks/SM x threads",
    "floor (us)",
    "push (us)",
    "push / floor",
    "gather alone",
    "gather + sends",
    "exchange alone",
    "overlap",
    "push, count_poll=1",
    "its gather alone",
    "ordering 1 (us)",
    "ordering 2 (us)",
    "2 / 1",
]


def _key(r: MutableMapping[str, Any]) -> tuple:
    c = gbcsv.config_axes(r)
    return (
        r["_file"],
        r["run_id"],
        int(r["gpu_count"] or 0),
        f'{c.get("blocks_per_sm", "?")}x{c.get("threads_per_block", "?")}',
    )


def phases(rows: list) -> dict:
    """{(file, run, GPUs, shape): {"part0".."part3", "ordering1", "ordering2", "floor"}} in ns,
    from push's ok latency rows and the floors of the same run."""
    out = {}
    for r in rows:
        if r["method"] != PUSH or r["metric"] != "latency" or r["status"] != "ok":
            continue
        c = gbcsv.config_axes(r)
        if c.get("fault", "0") != "0":
            continue
        cell = out.setdefault(_key(r), {})
        if c.get("count_poll", "0") == "1":  # relaxed polls of the count, one acquire fence
            if c.get("ordering", "0") == "0":
                cell["fenced_part" + c.get("part", "0")] = float(r["value"])
        elif c.get("ordering", "0") == "0":
            cell["part" + c.get("part", "0")] = float(r["value"])
        elif c.get("part", "0") == "0":
            cell["ordering" + c["ordering"]] = float(r["value"])
    for item in floor.floors(rows):
        if item["method"] == PUSH and item["ordering"] == "0" and "floor" in item:
            key = (item["file"], item["run_id"], int(item["gpu_count"] or 0), item["shape"])
            if key in out:
                out[key]["floor"] = item["floor"]
    return out


def phases_table(rows: list) -> list:
    """Text cells under HEADER, one row per GPU count and shape that has the whole barrier."""
    us = lambda v: "-" if v is None else f"{v / 1000:.2f}"
    cells = []
    for (_, _, gpus, shape), p in sorted(phases(rows).items(), key=lambda kv: kv[0][2:]):
        whole = p.get("part0")
        if whole is None:
            continue
        g, e = p.get("part1"), p.get("part3")
        f, o1, o2 = p.get("floor"), p.get("ordering1"), p.get("ordering2")
        cells.append(
            [
                str(gpus),
                shape,
                us(f),
                us(whole),
                f"{whole / f:.2f}" if f else "-",
                us(g),
                us(p.get("part2")),
                us(e),
                us(g + e - whole) if g is not None and e is not None else "-",
                us(p.get("fenced_part0")),
                us(p.get("fenced_part1")),
                us(o1),
                us(o2),
                f"{o2 / o1:.3f}" if o1 and o2 else "-",
            ]
        )
    return cells

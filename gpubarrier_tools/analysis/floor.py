"""The composed floor of a multi-GPU barrier ("The floor, defined"), from one run's rows.

A device barrier that orders memory must at least wait for every block of its GPU (a grid
barrier) and send one signal over NVLink with the ordering it uses. Its composed floor at a shape
(blocks/SM x threads/block) is therefore, measured in the same run (same file and run_id):

    floor = the cheapest verified grid barrier's latency at that shape
            + multigpu.floor.signal one_way_latency at the barrier's ordering

A grid barrier is a row of level grid whose method starts with gpu.grid. (grid.sync, the
monotone counter gpu.grid.count-epoch, ...); it counts when its status is ok and its note starts
with "verified" (a "not verified: ..." note does not). A noisy row counts like any other, as
the signal's rows do: the floor takes no figure out for its spread. Over several GPUs a grid
barrier's figure is its slowest GPU among the barrier's GPUs (a barrier waits for its slowest
GPU), taken among the methods measured on the most of those GPUs; the cheapest such method is
the floor's first term and grid_from names it. No verified grid barrier at the shape: no floor.

The barrier's `ordering` and the signal's are matched by name (data/schema.json's glossary:
a name means one ordering on every method): release-acquire, seq-cst-fence and acq-rel-fence,
whatever code each method gives it; an ordering the signal does not have (NVSHMEM's `library`)
has no floor. The signal is the cheapest correct one: where the run
measured it several ways (its `word`, `poll` and `place` axes), the lowest of them per pair
counts, and signal_from names it; rows timed by the GPU's own clock (timing=globaltimer) are a
second technique, shown beside the floor, never part of it. With several GPUs the slowest pair
among the barrier's GPUs counts; with one GPU nothing crosses NVLink and the floor is the grid
barrier alone. configs/sweeps/floor.yaml measures all three in one run.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from typing import Any

from ..data import gbcsv

GRID_PREFIX, SIGNAL = "gpu.grid.", "multigpu.floor.signal"
GRID_WANTED = f"a verified grid barrier ({GRID_PREFIX}*)"
SIGNAL_NAMES = {"2": "volatile + fence", "3": "release/acquire", "4": "relaxed + acq_rel fence"}


def signal_ordering(r: MutableMapping[str, Any]) -> str | None:
    """The floor signal's ordering code (text) of the same name as barrier row r's ordering, or
    None when the signal has no ordering of that name (or r has no ordering)."""
    name = gbcsv.config_names(r).get("ordering")
    return gbcsv.value_code(SIGNAL, "ordering", name) if name is not None else None


def is_grid_barrier(r: MutableMapping[str, Any]) -> bool:
    """A verified latency row of a grid barrier: the rows the floor's first term comes from."""
    return (
        r["level"] == "grid"
        and r["method"].startswith(GRID_PREFIX)
        and r["metric"] == "latency"
        and r["status"] == "ok"
        and r["note"].startswith("verified")
    )


def cheapest_grid(rows: list, shape: tuple, gpus: set) -> tuple[float, str] | None:
    """(latency, method) of the cheapest verified grid barrier among `rows` at `shape` on `gpus`
    (a set of GPU ids; empty: every row), or None. A method's latency is its slowest row (GPU);
    only the methods measured on the most of `gpus` compete, so that one timed on fewer GPUs
    never wins by missing the slow one."""
    per = {}
    for r in rows:
        if is_grid_barrier(r) and _shape(r) == shape and (not gpus or r["gpu_ids"] in gpus):
            on, slowest = per.get(r["method"], (set(), 0.0))
            per[r["method"]] = (on | {r["gpu_ids"]}, max(slowest, float(r["value"])))
    if not per:
        return None
    most = max(len(on) for on, _ in per.values())
    return min((v, m) for m, (on, v) in per.items() if len(on) == most)


def floor_terms(grids: Iterable[str], signal: bool = True) -> str:
    """The floor's parts in words: "gpu.grid.count-epoch + one-way signal" (several grid
    barriers joined by " / "; without the signal for one GPU)."""
    names = " / ".join(sorted(set(grids))) or "grid barrier"
    return names + (" + one-way signal" if signal else "")


def one_launch_per_barrier(r: MutableMapping[str, Any]) -> bool:
    """A device barrier's row of launch=graph: one block per GPU and one launch per barrier from
    a CUDA graph, another shape than its persistent whole-GPU rows."""
    return gbcsv.config_axes(r).get("launch", "0") == "1"


def is_barrier(r: MutableMapping[str, Any]) -> bool:
    """A multi-GPU barrier's latency row of the whole-GPU shape that the floor is made for; push's
    part=1..3 rows time one phase, not a barrier, and rows of one block per GPU and one launch
    per barrier (the device barriers' launch=1, PyTorch's barrier: no blocks_per_sm) are not
    bounded by a grid barrier of the whole GPU."""
    axes = gbcsv.config_axes(r)
    return (
        r["method"].startswith("multigpu.")
        and r["method"] != SIGNAL
        and r["metric"] == "latency"
        and axes.get("part", "0") == "0"
        and not one_launch_per_barrier(r)
        and "blocks_per_sm" in axes
    )


def _shape(r: MutableMapping[str, Any]) -> tuple:
    c = gbcsv.config_axes(r)
    return c.get("blocks_per_sm"), c.get("threads_per_block")


# The axes every floor row shows in its own columns; any other axis not at 0 (push's count_poll,
# NVSHMEM's variant) is named after the method, so that variants of one method stay apart.
SHOWN_AXES = {"gpu_count", "blocks_per_sm", "threads_per_block", "ordering", "fault", "part"}


def _label(r: MutableMapping[str, Any], axes: dict[str, str]) -> str:
    extra = [f"{k}={v}" for k, v in sorted(axes.items()) if k not in SHOWN_AXES and v != "0"]
    return " ".join([r["method"], *extra])


def floors(rows: list) -> list[dict[str, Any]]:
    """One dict per ok barrier row that has its floor's parts in its run: method, gpu_count,
    shape, ordering, latency, grid, grid_from (the grid barrier's method), signal (None for one
    GPU), floor, ratio; and one per barrier row without them, with `missing` saying which part."""
    runs = {}
    for r in rows:
        runs.setdefault((r["_file"], r["run_id"]), []).append(r)
    out = []
    for run in runs.values():
        for b in (r for r in run if is_barrier(r)):
            gpus = set(b["gpu_ids"].split(",")) if b["gpu_ids"] else set()
            axes = gbcsv.config_axes(b)
            item = {
                "method": _label(b, axes),
                "gpu_count": b["gpu_count"],
                "shape": "x".join(s or "?" for s in _shape(b)),
                "ordering": axes.get("ordering", ""),
                "latency": float(b["value"]),
                "run_id": b["run_id"],
                "file": b["_file"],
                "config": b["config"],
            }
            grid = cheapest_grid(run, _shape(b), gpus)
            signal = None
            if len(gpus) > 1:
                want = item["signal_ordering"] = signal_ordering(b)
                pairs = cheapest_signals(run, want, gpus)
                if want is None:
                    named = gbcsv.config_names(b).get("ordering", "")
                    item["missing"] = f"no floor for ordering {named!r}"
                elif not pairs:
                    item["missing"] = f"{SIGNAL} ordering={want} between GPUs {b['gpu_ids']}"
                else:
                    signal, item["signal_from"] = max(pairs.values())
            if grid is None:
                item["missing"] = f"{GRID_WANTED} at {item['shape']} in run {b['run_id']}"
            if "missing" not in item:
                item.update(
                    grid=grid[0],  # type: ignore[index]  # "missing" is set where grid is None
                    grid_from=grid[1],  # type: ignore[index]
                    signal=signal,
                    floor=grid[0] + (signal or 0.0),  # type: ignore[index]
                )
                item["ratio"] = item["latency"] / item["floor"]
            out.append(item)
    return out


def signal_variant(r: MutableMapping[str, Any]) -> str:
    """How a signal row was measured beyond its ordering: "word=32 poll=1", plus " place=K" where
    the flags were not on the first line (rows from before those axes were word=64 poll=0)."""
    axes = gbcsv.config_axes(r)
    place = axes.get("place", "0")
    return f"word={axes.get('word', '64')} poll={axes.get('poll', '0')}" + (
        f" place={place}" if place != "0" else ""
    )


def cheapest_signals(run: list, ordering: str | None, gpus: set) -> dict:
    """{pair of GPU ids: (the lowest one-way latency of `ordering` among the run's ways of
    measuring it, the way)} for the pairs within `gpus`."""
    best, ways = {}, set()
    for r in run:
        if (
            r["method"] == SIGNAL
            and r["metric"] == "one_way_latency"
            and gbcsv.config_axes(r).get("ordering") == ordering
            and gbcsv.config_axes(r).get("timing", "0") == "0"
            and set(r["gpu_ids"].split(",")) <= gpus
        ):
            pair, value = r["gpu_ids"], (float(r["value"]), signal_variant(r))
            best[pair] = min(best.get(pair, value), value)
            ways.add(value[1])
    return {
        pair: (v, f"{way} (the lowest of {len(ways)} ways)" if len(ways) > 1 else way)
        for pair, (v, way) in best.items()
    }


def signal_sources(items: list) -> list:
    """One line per signal ordering: which way of measuring it gave the floors."""
    seen = {}
    for i in items:
        if i.get("signal_from"):
            seen.setdefault(i["signal_ordering"], set()).add(i["signal_from"])
    return [
        f"signal ordering={o} ({SIGNAL_NAMES.get(o, o)}): {'; '.join(sorted(v))}"
        for o, v in sorted(seen.items())
    ]


def floor_by_count(rows: list) -> dict:
    """The composed floor at 1 block/SM x 128 threads and ordering 0 by GPU count, as (us, the
    grid barrier it was built on), the lowest where several runs have one: the floor line of
    cli/plot.py's scaling plot."""
    by_count = {}
    for item in floors(rows):
        if "floor" in item and item["shape"] == "1x128" and item["ordering"] == "0":
            n = int(item["gpu_count"])
            by_count[n] = min(
                by_count.get(n, (float("inf"), "")), (item["floor"] / 1000, item["grid_from"])
            )
    return by_count


FLOOR_HEADER = [
    "method",
    "GPUs",
    "blocks/SM x threads",
    "ordering",
    "latency (us)",
    "grid barrier",
    "grid barrier (us)",
    "signal (us)",
    "floor (us)",
    "latency / floor",
]


def floor_table(items: list) -> tuple:
    """(rows of text cells under FLOOR_HEADER, the missing parts named once each) of floors()'s
    items, by GPU count, shape, ordering and ratio."""
    us = lambda v: "-" if v is None else f"{v / 1000:.3g}"
    done = sorted(
        (i for i in items if "missing" not in i),
        key=lambda i: (int(i["gpu_count"] or 0), i["shape"], i["ordering"], i["ratio"]),
    )
    cells = [
        [
            i["method"],
            i["gpu_count"],
            i["shape"],
            i["ordering"],
            us(i["latency"]),
            i["grid_from"],
            us(i["grid"]),
            us(i["signal"]),
            us(i["floor"]),
            f"{i['ratio']:.2f}",
        ]
        for i in done
    ]
    return cells, sorted({i["missing"] for i in items if "missing" in i})

"""report scaling: multi-GPU barriers by GPU count, one table per machine."""

from __future__ import annotations

import collections

from .common import (
    TABLE_METRICS,
    by_machine,
    cfg,
    headline_label,
    host_headline,
    load,
    machine_tables,
    need,
    option,
)
from .multi import multi_key, shape_of


def scaling(argv: list[str]) -> list:
    """One line per method variant and shape, one column per GPU count with 'threads / mpi'
    figures in us, and how the largest count compares with 2 GPUs (the better mode of each). One
    table per machine (data/machines.py): threads and mpi figures of a cell are of one machine."""
    methods = option(argv, "--methods")
    shapes = option(argv, "--shapes", "1x128,4x256").replace("x", " x ").split(",")
    orderings = option(argv, "--orderings", "0,1").split(",")
    rows = host_headline(load(argv))
    found = by_machine(rows, lambda rs: scaling_cells(rs, methods, shapes, orderings))
    need(
        found,
        "multi-GPU latency rows",
        argv,
        "`report scaling` reads latency rows with a GPU count"
        + (f" of --methods {methods}" if methods else ""),
    )
    return machine_tables(found)


def scaling_cells(
    rows: list, methods: str | None, shapes: list, orderings: list
) -> tuple[list[str], list]:
    """scaling's (header, lines) from the rows of one machine (no lines without rows)."""
    tab = collections.OrderedDict()
    for r in rows:
        if r["metric"] not in TABLE_METRICS or r["gpu_count"] in ("0", ""):
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

    def best(v: dict, n: int) -> float | None:
        return min(v[n].values()) if v.get(n) else None

    def order(item: tuple) -> tuple:
        (method, variant, shape), v = item
        return (not method.startswith("multigpu"), shape, best(v, top) or 1e9, method)

    out = []
    for (method, variant, shape), v in sorted(tab.items(), key=order):
        cells = [
            " / ".join(f"{v[n][m]:.2f}" if m in v[n] else "-" for m in ("threads", "mpi"))
            if n in v
            else "-"
            for n in counts
        ]
        ratio = f"{best(v, top) / best(v, 2):.2f}x" if best(v, top) and best(v, 2) else "-"  # type: ignore[operator]
        out.append([f"`{method}`", variant, shape] + cells + [ratio])
    return (
        ["method", "ordering / variant", "blocks/SM x threads"]
        + [f"{n} GPU{'s' if n > 1 else ''}" for n in counts]
        + [f"{top} vs 2"],
        out,
    )

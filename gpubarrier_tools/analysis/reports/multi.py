"""report multi and report hostwait: multi-GPU and host-side barriers side by side (1 GPU, 2 GPUs
by launcher), and host-side barriers by host_wait; the row keys scaling shares."""

from __future__ import annotations

import collections
from collections.abc import MutableMapping, Sequence
from typing import Any

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
    table,
)

ORDERING = {"0": "release/acquire", "1": "relaxed + fences"}


def shape_of(c: dict) -> str:
    return f'{c["blocks_per_sm"]} x {c["threads_per_block"]}' if "blocks_per_sm" in c else "-"


def host_variant(r: MutableMapping[str, Any], c: dict) -> str:
    if r["method"] == "host.nccl.allreduce":
        return (
            "blocking (stream sync each step)"
            if c.get("blocking") == "1"
            else "back-to-back in the stream"
        )
    return "-"


# Axes that make different barriers of one method: NVSHMEM's call, the multi-device launch's
# implementation.
VARIANTS = {
    "variant": {"0": "barrier_all_block", "1": "sync_all_block", "2": "barrier_all (one thread)"},
    "impl": {"0": "emulated", "1": "real"},
}


def variant_suffix(c: dict) -> str:
    return "".join(f", {VARIANTS[a].get(c[a], a + '=' + c[a])}" for a in VARIANTS if a in c)


def multi_key(r: MutableMapping[str, Any]) -> tuple[str, str, str]:
    c = cfg(r)
    if "blocks_per_sm" in c:
        return (
            r["method"],
            ORDERING.get(c.get("ordering"), c.get("ordering", "-"))  # type: ignore[arg-type, operator]
            + variant_suffix(c),
            shape_of(c),
        )
    return (r["method"], host_variant(r, c) + variant_suffix(c), "-")


def fold_skipped(tab: MutableMapping[tuple[str, str, str], dict[tuple[str, str], str]]) -> None:
    """A skipped point has no metric to name: its cells join the line of the same method, variant
    and shape whose label names one (`variant, `loop_latency``), where there is exactly one."""
    for key in [k for k, v in tab.items() if set(v.values()) == {"skipped"}]:
        method, variant, shape = key
        named = [
            k
            for k in tab
            if k[0] == method
            and k[2] == shape
            and k[1].startswith(("`" if variant == "-" else variant + ", `"))
        ]
        if len(named) == 1:
            for col, cell in tab.pop(key).items():
                tab[named[0]].setdefault(col, cell)


MULTI_HEADER = [
    "method",
    "ordering / variant",
    "blocks/SM x threads",
    "1 GPU (threads)",
    "2 GPUs threads",
    "2 GPUs mpi",
]


def multi(argv: list[str]) -> list:
    """Latency (us) at 1 GPU (threads) and 2 GPUs (threads, mpi); device methods at the --shapes
    (default 1x128,4x256) and --orderings (default 0,1); host methods at host_wait=0. One table
    per machine (data/machines.py): a line never holds figures of two machines."""
    shapes = option(argv, "--shapes", "1x128,4x256").replace("x", " x ").split(",")
    orderings = option(argv, "--orderings", "0,1").split(",")
    rows = host_headline(load(argv, statuses=("ok", "skipped")))
    cols = [("threads", "1"), ("threads", "2"), ("mpi", "2")]

    def build(rows: list) -> tuple:
        tab = collections.OrderedDict()
        for r in rows:
            c = cfg(r)
            if r["metric"] not in TABLE_METRICS + ("",) or c.get("host_wait", "0") != "0":
                continue
            if "blocks_per_sm" in c and (
                shape_of(c) not in shapes or c.get("ordering", "0") not in orderings
            ):
                continue
            if r["level"] not in ("multi-gpu", "host", "kernel"):
                continue
            launcher = "mpi" if r["launcher"] == "mpi" else "threads"
            cell = "skipped" if r["status"] == "skipped" else f"{float(r['value']) / 1000:.2f}"
            n = r["gpu_count"] if r["gpu_count"] != "0" else "2"
            method, variant, shape = multi_key(r)
            tab.setdefault((method, headline_label(variant, r), shape), {})[(launcher, n)] = cell
        fold_skipped(tab)

        def order(item: tuple) -> tuple:
            (method, variant, shape), v = item
            two = [
                float(x)
                for x in (v.get(("threads", "2")), v.get(("mpi", "2")))
                if x and x != "skipped"
            ]
            return (not method.startswith("multigpu"), shape, min(two) if two else 1e9, method)

        return MULTI_HEADER, [
            [f"`{method}`", variant, shape] + [v.get(c, "-") for c in cols]
            for (method, variant, shape), v in sorted(tab.items(), key=order)
        ]

    found = by_machine(rows, build)
    need(
        found,
        "multi-GPU, host or kernel latency rows",
        argv,
        f"`report multi` reads latency rows of the levels multi-gpu, host and kernel at "
        f"host_wait=0, device methods at --shapes {','.join(s.replace(' ', '') for s in shapes)}"
        f" and --orderings {','.join(orderings)}",
    )
    return machine_tables(found)


def hostwait(argv: Sequence[str]) -> list:
    """Host-side barriers (us) by host_wait: 0 default, 1 spin, 2 blocking sync; ratio 2 / 0."""
    rows = host_headline(load(argv))
    tab = collections.OrderedDict()
    for r in rows:
        c = cfg(r)
        if (
            "host_wait" not in c
            or r["metric"] not in TABLE_METRICS
            or c.get("blocking", "0") != "0"
        ):
            continue
        n = int(r["gpu_count"]) if r["gpu_count"] != "0" else int(r["ranks"] or 0)
        label = headline_label(f"`{r['method']}`", r)
        tab.setdefault((label, r["launcher"], n), {})[c["host_wait"]] = float(r["value"]) / 1000
    out = []
    for (method, launcher, n), v in sorted(tab.items()):
        if set(v) == {"0"}:
            continue
        ratio = f"{v['2'] / v['0']:.1f}x" if "2" in v and "0" in v else "-"
        out.append(
            [method, launcher, str(n)]
            + [f"{v[k]:.2f}" if k in v else "-" for k in ("0", "1", "2")]
            + [ratio]
        )
    need(
        out,
        "host-side barrier rows at host_wait 1 or 2",
        argv,
        "`report hostwait` sets host_wait 0, 1 and 2 of a method side by side",
    )
    return [
        table(
            [
                "method",
                "launcher",
                "GPUs",
                "host_wait 0 (default)",
                "1 (spin)",
                "2 (blocking)",
                "2 vs 0",
            ],
            out,
        )
    ]

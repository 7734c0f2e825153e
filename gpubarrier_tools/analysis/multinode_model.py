#!/usr/bin/env python3
"""The on-paper model of barriers across 2-64 DGX-class nodes: each barrier's
node-local part measured on one node, plus a network part from published InfiniBand NDR figures
(assumed, each named in the network file). It predicts; it never measured a network.

    report.py multinode-model CSV... [--network configs/network/ndr-published.csv]
                              [--gpus-per-node 4] [--nodes 2,4,8,16,32,64] [--shape 1x128]
                              [--two-nodes TWO.csv] [--combine] [--inputs]

ONE MACHINE: the measured inputs come from the rows of one machine (data/machines.py: one host
and its GPUs by UUID). A machine with every input gets its own tables, each under a line naming
it. Where no machine has them all, --combine takes each input from the machine that has it (the
one with the most inputs first); the inputs table then says which machine each came from, as it
does for --two-nodes' round, which is always another machine's.

MEASURED (ok rows of the CSVs on one node, nodes=1; several rows of one figure give their
median; figures in us):
  local(g)     multinode.hierarchical at g GPUs (ranks=g, ordering=0, network=0, fault=0, the
               shape): the node's gather, the leader GPU -> host proxy -> GPU round trip and the
               release; on one node the leaders' MPI_Barrier has one rank and costs nothing
  host(g)      host.mpi.gpu-barrier host_wait=0 at g ranks, loop_latency: a kernel per step and
               MPI_Barrier among the node's g ranks
  nccl(g)      host.nccl.allreduce blocking=0 at g GPUs, loop_interval (back to back, on the GPU;
               files that named it loop_latency read so too)
  device(g)    optional: multinode.hierarchical network=1 at g GPUs (the same selection): the
               node's gather and release around a leader GPU that signals with NVSHMEM; on one
               node it has no other leader to signal. Where the CSVs have it, a column predicts
               network=1 too
  mpi_round    host.mpi.barrier at 2 ranks, loop_latency: MPI's software cost of one round
               (on one node; it includes a shared-memory hop, so it counts a little twice)
  net_round    with --two-nodes: host.mpi.barrier at 2 ranks on 2 nodes (nodes=2), loop_latency,
               from a real 2-node run (`gpubarrier jobs --nodes 2`): one round across the network,
               measured; it replaces mpi_round + endpoint + 1 switch hop below
  A g that no CSV has, and that is twice the largest measured (8 from 2 and 4), is extrapolated:
  each doubling of the GPUs adds what the last one added. The inputs table says so.

ASSUMED (the network file, CSV: name,low,high,unit,source; every row names its source):
  endpoint        adapter + PCIe + wire, host to host, us
  switch_hop      one switch's port-to-port latency, us
  nodes_per_leaf  nodes one leaf switch serves; beyond it a crossing takes 3 switch hops
  nccl_net_hop    NCCL's own latency of one network step of its tree (its tuning model), us

THE MODEL, for N nodes of g GPUs (low and high take the network file's low and high values):
  rounds(N)  = ceil(log2 N)              a dissemination barrier among the N node leaders
  hops(N)    = 1 if N <= nodes_per_leaf else 3
  round(N)   = mpi_round + endpoint + hops(N) x switch_hop
             (with --two-nodes: net_round + (hops(N) - 1) x switch_hop)
  leaders(N) = rounds(N) x round(N)      MPI_Barrier among the node leaders
  multinode.hierarchical    local(g) + leaders(N)
  ... network=1             device(g) + rounds(N) x (endpoint + hops(N) x switch_hop): the
                            leader GPUs' dissemination over NVSHMEM, one signal per round, no MPI
                            and no host (IBGDA; the endpoint figure, measured host to host, is
                            assumed for a GPU's signal too, also with --two-nodes)
  host.mpi.gpu-barrier      host(g) + leaders(N)  (its MPI_Barrier over all N x g ranks: the
                            node's part as measured, log2 N rounds across nodes, as recursive
                            doubling over ranks placed node by node gives; a dissemination
                            barrier would cross the network in all ceil(log2(N x g)) rounds)
  host.nccl.allreduce       nccl(g) + 2 x floor(log2 N) x nccl_net_hop   (NCCL's tree term)
A missing measured input names the rows it needs and the tool exits 2, as a bad network file
does (its line and what was expected).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..data import gbcsv, tool_main, user_files
from ..data import machines as machines_of
from ..data.tables import Table

NETWORK_NAMES = ("endpoint", "switch_hop", "nodes_per_leaf", "nccl_net_hop")
DEFAULT_NETWORK = os.path.join(tool_main.ROOT, "configs", "network", "ndr-published.csv")


class NetworkFileError(Exception):
    pass


def load_network(path: str) -> dict:
    """{name: (low, high, unit, source)} from the network file; NetworkFileError names the line."""
    want = ["name", "low", "high", "unit", "source"]
    header, records = user_files.csv_dicts(
        path, f"the network file ({','.join(want)})", NetworkFileError
    )
    if header != want:
        raise NetworkFileError(
            f"{tool_main.shown(path)}:1: expected the header {','.join(want)}, "
            f"found {','.join(header)}"
        )
    out = {}
    for line, r in records:
        where = f"{tool_main.shown(path)}:{line}"
        if r["name"] not in NETWORK_NAMES:
            raise NetworkFileError(
                f"{where}: unknown name '{r['name']}', expected one of {', '.join(NETWORK_NAMES)}"
            )
        if r["name"] in out:
            raise NetworkFileError(f"{where}: '{r['name']}' given twice")
        try:
            lo, hi = float(r["low"]), float(r["high"])
        except (TypeError, ValueError):
            raise NetworkFileError(
                f"{where}: low and high must be numbers, found '{r['low']}', '{r['high']}'"
            ) from None
        if not 0 <= lo <= hi or not math.isfinite(hi):
            raise NetworkFileError(f"{where}: expected 0 <= low <= high, found {lo}, {hi}")
        if not (r["source"] or "").strip():
            raise NetworkFileError(
                f"{where}: '{r['name']}' names no source; every assumed "
                "figure names where it comes from"
            )
        out[r["name"]] = (lo, hi, r["unit"], r["source"].strip())
    missing = [n for n in NETWORK_NAMES if n not in out]
    if missing:
        raise NetworkFileError(f"{path}: missing {', '.join(missing)}")
    return out


def _median_of(
    rows: list, method: str, metric: str, want_axes: dict[str, Any], **cols: Any
) -> tuple | None:
    hits = [
        r
        for r in rows
        if r["method"] == method
        and r["metric"] == metric
        and r["nodes"] in ("1", "")
        and all(r[k] == str(v) for k, v in cols.items())
        and all(gbcsv.config_axes(r).get(k) == str(v) for k, v in want_axes.items())
    ]
    if not hits:
        return None
    files = sorted({r["_file"] for r in hits})
    return statistics.median(float(r["value"]) for r in hits) / 1000.0, files, None


def measured(rows: list, g: int, shape: str) -> tuple[dict, list]:
    """The measured node-local inputs at g GPUs per node and what is missing: {name: (us, CSVs,
    None or the two GPU counts it was extrapolated from)}."""
    b, t = shape.split("x")
    specs: dict[str, tuple[str, str, dict[str, Any], Callable[[int], dict[str, int]]]] = {
        "local": (
            "multinode.hierarchical",
            "latency",
            dict(blocks_per_sm=b, threads_per_block=t, ordering=0, network=0, fault=0),
            lambda n: dict(ranks=n),
        ),
        "host": (
            "host.mpi.gpu-barrier",
            "loop_latency",
            dict(host_wait=0),
            lambda n: dict(ranks=n),
        ),
        "nccl": (
            "host.nccl.allreduce",
            "loop_interval",
            dict(blocking=0, host_wait=0),
            lambda n: dict(gpu_count=n),
        ),
    }
    specs["device"] = (
        "multinode.hierarchical",
        "latency",
        dict(specs["local"][2], network=1),
        specs["local"][3],
    )
    out, missing = {}, []
    for name, (method, metric, axes, cols) in specs.items():
        got = _median_of(rows, method, metric, axes, **cols(g))
        if got is None and g % 2 == 0 and g >= 4:
            a = _median_of(rows, method, metric, axes, **cols(g // 2))
            z = _median_of(rows, method, metric, axes, **cols(g // 4))
            if a and z:
                got = (2 * a[0] - z[0], sorted(set(a[1] + z[1])), (g // 4, g // 2))
        if got is not None:
            out[name] = got
        elif name != "device":  # optional
            missing.append(
                f"{name}: {method} {metric} at {g} GPUs on one node "
                f"({' '.join(f'{k}={v}' for k, v in axes.items())})"
            )
    got = _median_of(rows, "host.mpi.barrier", "loop_latency", {}, ranks=2)
    if got is None:
        missing.append("mpi_round: host.mpi.barrier loop_latency at 2 ranks on one node")
    else:
        out["mpi_round"] = got
    return out, missing


def two_node_round(rows: list) -> tuple | None:
    """One MPI_Barrier round across the network, measured: host.mpi.barrier at 2 ranks on 2
    nodes, loop_latency (us, CSVs, None); None without such rows."""
    hits = [
        r
        for r in rows
        if r["method"] == "host.mpi.barrier"
        and r["metric"] == "loop_latency"
        and r["nodes"] == "2"
        and r["ranks"] == "2"
    ]
    if not hits:
        return None
    return (
        statistics.median(float(r["value"]) for r in hits) / 1000.0,
        sorted({r["_file"] for r in hits}),
        None,
    )


def rounds(n: int) -> int:
    return math.ceil(math.log2(n)) if n > 1 else 0


def predict(m: dict, net: dict, n: int, which: int) -> dict:
    """The predictions (us) at n nodes; which: 0 the network file's low, 1 its high."""
    hops = 1 if n <= net["nodes_per_leaf"][which] else 3
    if "net_round" in m:  # measured across 2 real nodes: it holds one switch hop
        one_round = m["net_round"][0] + (hops - 1) * net["switch_hop"][which]
    else:
        one_round = m["mpi_round"][0] + net["endpoint"][which] + hops * net["switch_hop"][which]
    leaders = rounds(n) * one_round
    nccl_steps = 2 * int(math.floor(math.log2(n))) if n > 1 else 0
    out = {
        "hops": hops,
        "leaders": leaders,
        "hierarchical": m["local"][0] + leaders,
        "host": m["host"][0] + leaders,
        "nccl": m["nccl"][0] + nccl_steps * net["nccl_net_hop"][which],
    }
    if "device" in m:
        signal = net["endpoint"][which] + hops * net["switch_hop"][which]
        out["device"] = m["device"][0] + rounds(n) * signal
    return out


def _band(lo: float, hi: float, f: str = ".1f") -> str:
    a, b = format(lo, f), format(hi, f)
    return a if a == b else f"{a}-{b}"


def inputs_table(m: dict, net: dict, where: dict[str, str] | None = None) -> tuple:
    """Rows: input, value, measured in / assumed from; with `where` ({input: machine label}) naming
    more than one machine, a machine column too (assumed figures: "-")."""
    names = {
        "local": "local(g): `multinode.hierarchical` on one node",
        "device": "device(g): `multinode.hierarchical` network=1 on one node",
        "host": "host(g): `host.mpi.gpu-barrier` host_wait=0 on one node",
        "nccl": "nccl(g): `host.nccl.allreduce` blocking=0 on one node",
        "mpi_round": "mpi_round: `host.mpi.barrier`, 2 ranks",
        "net_round": "net_round: `host.mpi.barrier`, 2 ranks on 2 nodes",
    }
    mixed = where is not None and len(set(where.values())) > 1
    rows = []
    for k, (v, files, extrapolated) in m.items():
        where_text = ", ".join(f"`{f}`" for f in files)
        rows.append(
            [
                names[k],
                f"{v:.2f} us",
                f"measured: {where_text}"
                if not extrapolated
                else f"extrapolated (assumed: each doubling of the GPUs adds what the last one "
                f"added) from {extrapolated[0]} and {extrapolated[1]} GPUs measured in "
                f"{where_text}",
            ]
            + ([where[k]] if mixed else [])  # type: ignore[index]  # mixed: where is given
        )
    # net_round holds the endpoint, except for network=1's signals
    unused = {"endpoint"} if "net_round" in m and "device" not in m else set()
    rows += [
        [name, f"{_band(lo, hi, 'g')} {unit}", "assumed: " + src] + (["-"] if mixed else [])
        for name, (lo, hi, unit, src) in net.items()
        if name not in unused
    ]
    return ["input", "value", "measured in / assumed from"] + (["machine"] if mixed else []), rows


def predictions_table(m: dict, net: dict, nodes: list) -> tuple[list, list]:
    header = [
        "nodes",
        "rounds",
        "switch hops",
        "leaders' MPI_Barrier",
        "`multinode.hierarchical`",
        "`host.mpi.gpu-barrier`",
        "`host.nccl.allreduce` (b2b)",
    ]
    keys = ["leaders", "hierarchical", "host", "nccl"]
    if "device" in m:
        header.insert(5, "`multinode.hierarchical` network=1")
        keys.insert(2, "device")
    rows = []
    for n in nodes:
        lo, hi = predict(m, net, n, 0), predict(m, net, n, 1)
        hops = str(lo["hops"]) if lo["hops"] == hi["hops"] else f'{lo["hops"]}-{hi["hops"]}'
        rows.append([str(n), str(rounds(n)), hops] + [_band(lo[k], hi[k]) for k in keys])
    return header, rows


def positive_ints(text: str) -> list:
    """argparse type: "2,4,8" -> [2, 4, 8], every one >= 1."""
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"takes positive integers, found {text!r}")
    return values


def positive_int(text: str) -> int:
    """argparse type: one integer >= 1."""
    values = positive_ints(text)
    if len(values) != 1:
        raise argparse.ArgumentTypeError(f"takes one positive integer, found {text!r}")
    return values[0]


def machine_line(where: dict) -> str:
    """The line above a table naming the machine of its inputs, or each input's machine."""
    labels = list(dict.fromkeys(where.values()))
    if len(labels) == 1:
        return f"Machine: {labels[0]}."
    return (
        "Inputs of several machines: "
        + "; ".join(
            f"{', '.join(k for k, v in where.items() if v == label)} from {label}"
            for label in labels
        )
        + "."
    )


class MixedMachines(Exception):
    """The inputs lie on several machines, none has them all, and --combine was not given."""


def choose(rows: list, g: int, shape: str, combine: bool, skip: tuple = ()) -> tuple:
    """([(m, where)], missing): the measured inputs of each machine that has them all (`skip`:
    inputs that are not needed) with {input: machine label}, or with `combine` where none has,
    one set taking each input from the machine that has it (the one with the most inputs first);
    missing: what no machine has (lines). MixedMachines where no machine has all and `combine`
    is off."""
    per = []
    for label, rs in machines_of.machines(rows):
        m, missing = measured(rs, g, shape)
        per.append(
            (
                label,
                {k: v for k, v in m.items() if k not in skip},
                [x for x in missing if x.split(":")[0] not in skip],
            )
        )
    whole = [(m, dict.fromkeys(m, label)) for label, m, missing in per if not missing]
    if whole:
        return whole, []
    if len(per) <= 1:
        return [], per[0][2] if per else [
            x for x in measured([], g, shape)[1] if x.split(":")[0] not in skip
        ]
    if not combine:
        raise MixedMachines(
            "no one machine has every measured input ("
            + "; ".join(
                f"{label} lacks {', '.join(x.split(':')[0] for x in missing)}"
                for label, _, missing in per
            )
            + "); --combine takes each input from the machine "
            "that has it, and the inputs table names each one's machine"
        )
    m, where = {}, {}
    for label, got, _ in sorted(per, key=lambda p: -len(p[1])):
        for k, v in got.items():
            if k not in m:
                m[k], where[k] = v, label
    missing = [x for x in per[0][2] if x.split(":")[0] not in m]
    order = ("local", "host", "nccl", "device", "mpi_round")  # measured()'s order
    m = {k: m[k] for k in order if k in m}
    return ([(m, where)], []) if not missing else ([], missing)


def main(argv: Sequence[str], load: Callable) -> list:
    """report.py multinode-model: argv without the subcommand; load is report.py's. Returns a
    table per machine under a line naming it (data/tables.py)."""
    parser = tool_main.ArgumentParser(
        prog=f"{tool_main.prog()} multinode-model",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("csvs", nargs="+", help="CSVs measured on one node")
    parser.add_argument("--network", default=DEFAULT_NETWORK)
    parser.add_argument("--gpus-per-node", type=positive_int, default=4)
    parser.add_argument("--nodes", type=positive_ints, default=[2, 4, 8, 16, 32, 64])
    parser.add_argument("--shape", default="1x128")
    parser.add_argument("--two-nodes", default="")
    parser.add_argument(
        "--combine",
        action="store_true",
        help="take each input from the machine that has it where no one machine "
        "has them all (the inputs table names each one's machine)",
    )
    parser.add_argument("--inputs", action="store_true")
    args = parser.parse_args(argv)
    try:
        net = load_network(args.network)
    except NetworkFileError as e:
        print(f"multinode-model: {e}", file=sys.stderr)
        sys.exit(2)
    # net_round (--two-nodes) holds MPI's software round too: mpi_round is not needed then
    skip = ("mpi_round",) if args.two_nodes else ()
    try:
        chosen, missing = choose(
            load(args.csvs), args.gpus_per_node, args.shape, args.combine, skip
        )
    except MixedMachines as e:
        print(f"multinode-model: {e}", file=sys.stderr)
        sys.exit(2)
    if args.two_nodes:
        two_rows = load([args.two_nodes])
        got = two_node_round(two_rows)
        if got is None:
            missing.append(
                f"net_round: host.mpi.barrier loop_latency at 2 ranks on 2 nodes "
                f"(nodes=2) in {args.two_nodes}"
            )
        else:
            hit = next(
                r
                for r in two_rows
                if r["method"] == "host.mpi.barrier"
                and r["nodes"] == "2"
                and r["metric"] == "loop_latency"
            )
            label = machines_of.index(two_rows)[id(hit)]
            for m, where in chosen:
                m["net_round"], where["net_round"] = got, label
    if missing:
        print("multinode-model: no measured input for: " + "; ".join(missing), file=sys.stderr)
        sys.exit(2)  # the CSVs lack rows the model reads: bad input
    out = []
    for i, (m, where) in enumerate(chosen):
        cells = (
            inputs_table(m, net, where) if args.inputs else predictions_table(m, net, args.nodes)
        )
        out += ([""] if i else []) + [machine_line(where), "", Table(*cells)]
    return out

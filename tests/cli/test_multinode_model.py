#!/usr/bin/env python3
"""`gpubarrier report multinode-model` (gpubarrier_tools/analysis/multinode_model.py): barriers across
nodes on paper, from one node's measured rows plus a network file of assumed figures.

Run by pytest: pytest tests/cli/test_multinode_model.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from gpubarrier_tools.data import gbcsv
from cli_common import executable, expect, run_gpubarrier, synthetic_row, write_rows

EXE = executable()
HIER = "blocks_per_sm=1 threads_per_block=128 ordering=0 network=0 fault=0"


def row(method, metric, value, config="", **kw):
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(
        dict(method=method, metric=metric, value=value, config=config, unit="ns", nodes=1), **kw))


def node_rows(g, local, host, nccl):
    return [row("multinode.hierarchical", "latency", local, f"gpu_count={g} {HIER}", ranks=g,
                gpu_count=g),
            row("multinode.hierarchical", "latency", 99000, f"gpu_count={g} {HIER}", ranks=g,
                gpu_count=g, nodes=2),  # simulated nodes: never an input
            row("host.mpi.gpu-barrier", "loop_latency", host, "host_wait=0", ranks=g,
                gpu_count=g),
            row("host.nccl.allreduce", "loop_latency", nccl,
                f"gpu_count={g} blocking=0 host_wait=0", ranks=1, gpu_count=g)]


NETWORK = """name,low,high,unit,source
endpoint,1.0,2.0,us,test figure A
switch_hop,0.5,0.5,us,test figure B
nodes_per_leaf,32,32,nodes,test figure C
nccl_net_hop,5.0,5.0,us,test figure D
"""


def run(*args):
    return run_gpubarrier(EXE, "report", "multinode-model", *args)


def cells(p, nodes):
    """The prediction row for `nodes` as a list of cells."""
    for line in p.stdout.splitlines():
        c = [x.strip() for x in line.strip("|").split("|")]
        if c and c[0] == str(nodes):
            return c
    expect(False, f"a row for {nodes} nodes", p)


def test_multinode_model(tmp_path):
    d = str(tmp_path)
    csv_path, net = os.path.join(d, "node.csv"), os.path.join(d, "net.csv")
    base = (node_rows(2, 12000, 11000, 8000) + node_rows(4, 15000, 11500, 9000) +
            [row("host.mpi.barrier", "loop_latency", 500, ranks=2, gpu_count=0),
             row("host.mpi.barrier", "loop_latency", 900, ranks=4, gpu_count=0)])
    write_rows(csv_path, gbcsv.NAMES, base)
    with open(net, "w") as f:
        f.write(NETWORK)

    # 4 GPUs per node, measured. One round = 0.5 (MPI) + endpoint 1-2 + 1 hop x 0.5 = 2.0-3.0 us.
    p = run(csv_path, "--network", net, "--nodes", "2,33")
    expect(p.returncode == 0, "the model runs on one node's rows", p)
    expect(cells(p, 2) == ["2", "1", "1", "2.0-3.0", "17.0-18.0", "13.5-14.5", "19.0"],
           "2 nodes: 1 round over 1 switch; hierarchical 15 + round, host 11.5 + round, NCCL "
           "9 + 2 x 5", p)
    # 33 nodes: 6 rounds over 3 hops (past one leaf): 6 x (0.5 + 1..2 + 1.5) = 18-24 us; NCCL's
    # tree: 2 x floor(log2 33) = 10 network steps.
    expect(cells(p, 33) == ["33", "6", "3", "18.0-24.0", "33.0-39.0", "29.5-35.5", "59.0"],
           "33 nodes: 6 rounds over 3 switch hops, NCCL 10 network steps", p)

    # 8 GPUs per node: extrapolated from 2 and 4 (each doubling adds what the last added).
    p = run(csv_path, "--network", net, "--nodes", "2", "--gpus-per-node", "8", "--inputs")
    expect(p.returncode == 0, "8 GPUs per node extrapolates", p)
    expect("| 18.00 us | extrapolated" in p.stdout and "| 12.00 us | extrapolated" in p.stdout
           and "| 10.00 us | extrapolated" in p.stdout,
           "local 15 + (15 - 12), host 11.5 + 0.5, nccl 9 + 1, each said extrapolated", p)
    expect("assumed: test figure B" in p.stdout and "| 0.50 us | measured:" in p.stdout,
           "every input says measured (its CSV) or assumed (its source)", p)
    p = run(csv_path, "--network", net, "--inputs")
    expect("| local(g): `multinode.hierarchical` on one node | 15.00 us | measured:" in p.stdout,
           "rows of simulated nodes (nodes=2, 99 us) are no one-node input", p)

    # A real 2-node round replaces MPI's round + endpoint + 1 hop: 3.0 us across one switch,
    # 3.0 + 2 x 0.5 past the leaf (33 nodes: 6 rounds).
    two = os.path.join(d, "two.csv")
    write_rows(two, gbcsv.NAMES, [row("host.mpi.barrier", "loop_latency", 3000, ranks=2, nodes=2),
                                  row("host.mpi.barrier", "loop_latency", 400, ranks=2)])
    p = run(csv_path, "--network", net, "--nodes", "2,33", "--two-nodes", two)
    expect(p.returncode == 0 and cells(p, 2)[3] == "3.0" and cells(p, 33)[3] == "24.0",
           "--two-nodes: the measured round, plus 2 hops past one leaf", p)
    p = run(csv_path, "--network", net, "--two-nodes", two, "--inputs")
    expect("| 3.00 us | measured: " in p.stdout and "| endpoint |" not in p.stdout and
           "| mpi_round:" not in p.stdout, "the measured round replaces endpoint and mpi_round", p)
    p = run(csv_path, "--network", net, "--two-nodes", csv_path)
    expect(p.returncode == 2 and "net_round: host.mpi.barrier loop_latency at 2 ranks on 2 nodes"
           in p.stderr, "a --two-nodes CSV without a 2-node row is named", p)

    # A missing measured input: named, exit 2. 16 GPUs per node is not extrapolated from 4 alone.
    p = run(csv_path, "--network", net, "--gpus-per-node", "16")
    expect(p.returncode == 2 and "multinode.hierarchical latency at 16 GPUs" in p.stderr,
           "a missing input names the rows it needs", p)

    # Bad network files: the line and what was expected, exit 2.
    for text, want in [
            (NETWORK.replace("switch_hop", "switch_hops"), ":3: unknown name 'switch_hops'"),
            (NETWORK.replace("test figure D", ""), ":5: 'nccl_net_hop' names no source"),
            (NETWORK.replace("0.5,0.5", "0.5,fast"), ":3: low and high must be numbers"),
            (NETWORK.replace("1.0,2.0", "2.0,1.0"), ":2: expected 0 <= low <= high"),
            (NETWORK.replace("name,low", "what,low"), ":1: expected the header"),
            ("\n".join(NETWORK.splitlines()[:-1]) + "\n", "missing nccl_net_hop")]:
        with open(net, "w") as f:
            f.write(text)
        p = run(csv_path, "--network", net)
        expect(p.returncode == 2 and want in p.stderr, f"network file refused: {want}", p)
    p = run(csv_path, "--network", os.path.join(d, "absent.csv"))
    expect(p.returncode == 2 and "absent.csv: cannot open" in p.stderr,
           "an absent network file is named", p)
    p = run("--help")
    expect(p.returncode == 0 and "THE MODEL" in p.stdout and "ASSUMED" in p.stdout,
           "--help teaches the model, its inputs and its equations", p)
    # network=1 where the CSVs have it: one NVSHMEM signal per round, endpoint + hops x switch:
    # 2 nodes, 1 round: 6 + 1.0..2.0 + 0.5 = 7.5-8.5 us; 33 nodes, 6 rounds over 3 hops: 6 + 6 x
    # (1..2 + 1.5) = 21.0-27.0 us; 8 GPUs extrapolated from 2 and 4 (5, 6: 7).
    with_device = os.path.join(d, "device.csv")
    write_rows(with_device, gbcsv.NAMES, base + [
        row("multinode.hierarchical", "latency", v, f"gpu_count={g} {HIER}".replace(
            "network=0", "network=1"), ranks=g, gpu_count=g) for g, v in ((2, 5000), (4, 6000))])
    with open(net, "w") as f:
        f.write(NETWORK)
    p = run(with_device, "--network", net, "--nodes", "2,33")
    expect(p.returncode == 0 and "network=1" in p.stdout and cells(p, 2)[5] == "7.5-8.5" and
           cells(p, 33)[5] == "21.0-27.0" and cells(p, 2)[4] == "17.0-18.0",
           "a network=1 column beside network=0's, which stays as it was", p)
    p = run(with_device, "--network", net, "--gpus-per-node", "8", "--inputs")
    expect("| device(g): `multinode.hierarchical` network=1 on one node | 7.00 us | extrapolated"
           in p.stdout, "network=1's input extrapolates like the others", p)
    p = run(csv_path, "--network", net, "--nodes", "2")
    expect("network=1" not in p.stdout, "no network=1 column without its rows", p)
    p = run(csv_path, "--gpus-per-node", "zero")
    expect(p.returncode != 0 and "positive integers" in p.stderr, "a bad count is refused", p)

    # The committed network file loads, and every row names its source.
    p = run(csv_path, "--network", os.path.join(ROOT, "configs", "network", "ndr-published.csv"),
            "--inputs")
    expect(p.returncode == 0 and p.stdout.count("assumed: ") == 4,
           "configs/network/ndr-published.csv: four assumed figures, each with its source", p)

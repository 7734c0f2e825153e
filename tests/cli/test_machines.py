#!/usr/bin/env python3
"""Tables compare rows of one machine (gpubarrier_tools/data/machines.py: one host and its GPUs by UUID): from
CSVs the test writes, with two machines of one host name (two VMs, other GPU UUIDs),
`report scaling`, `report multi`, `report multinode-model` and `report reduction-tables --table
6` never set figures of two machines in one line, name each table's machine, and Table 6 sets
the reductions against the GPU's DRAM peak, beside the stream read of the same run (model.gmem.stream grid=1), the copy
beside it.

Run by pytest: pytest tests/cli/test_machines.py
"""
import os

from gpubarrier_tools.data import gbcsv
from gpubarrier_tools.data import machines
from cli_common import executable, expect, run_gpubarrier, synthetic_row, write_rows

EXE = executable()
GPU = "NVIDIA H100 80GB HBM3"
# Two VMs of one host name: machine one (run r1, r3), machine two (run r2, r4).
ONE = "GPU-11111111-0000,GPU-11111111-0001"
TWO = "GPU-22222222-0000,GPU-22222222-0001"
HIER = "blocks_per_sm=1 threads_per_block=128 ordering=0 network=0 fault=0"
NETWORK = """name,low,high,unit,source
endpoint,1.0,1.0,us,test figure A
switch_hop,0.5,0.5,us,test figure B
nodes_per_leaf,32,32,nodes,test figure C
nccl_net_hop,5.0,5.0,us,test figure D
"""


def row(uuids, run, **kw):
    """A row on GPUs `uuids` (all of them where gpu_count > 1, else the first), or a host-only
    row (no GPU model, no UUIDs) where uuids is None."""
    n = int(kw.get("gpu_count", 1))
    gpu = dict(gpu_model=GPU, gpu_uuids=",".join(uuids.split(",")[:n]),
               gpu_ids=",".join(str(i) for i in range(n))) if uuids else \
        dict(gpu_model="", gpu_uuids="", gpu_ids="", gpu_count=0)
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(
        dict(run_id=run, unit="ns", metric="latency", note="verified"), **gpu, **kw))


def barrier(uuids, run, n, launcher, value):
    return row(uuids, run, method="multigpu.device.push", level="multi-gpu", gpu_count=n,
               launcher=launcher, ranks=n if launcher == "mpi" else 1,
               config=f"gpu_count={n} blocks_per_sm=1 threads_per_block=128 ordering=0",
               value=value)


def report(*args):
    return run_gpubarrier(EXE, "report", *args)


def sections(p):
    """{machine label: the lines under it} of a report that prints 'Machine: LABEL' sections."""
    out, label = {}, None
    for line in p.stdout.splitlines():
        if line.startswith("Machine: "):
            label = line[len("Machine: "):].rstrip(".")
            out[label] = []
        elif label is not None:
            out[label].append(line)
    return out


def label_with(labels, uuid_prefix, p):
    found = [lb for lb in labels if uuid_prefix in lb]
    expect(len(found) == 1, f"one machine label names {uuid_prefix}: {labels}", p)
    return found[0]


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_rule():
    """machines.py's rule on rows of one host name."""
    a, b = ONE.split(","), TWO.split(",")
    rows = [row(ONE, "r1", gpu_count=2, method="x"), row(TWO, "r2", gpu_count=2, method="x"),
            row(None, "r1", method="host.mpi.barrier"),   # its run's machine: one
            row(None, "r9", method="host.omp.barrier"),   # its run has no GPU, 2 machines: apart
            # one run timing two GPUs one at a time: one machine (the run), not two
            row(a[0].replace("11111111", "33333333"), "r5", method="y"),
            row(a[1].replace("11111111", "33333333"), "r5", method="y")]
    got = machines.machines(rows)
    expect(len(got) == 4, f"four groups: {[lb for lb, _ in got]}")
    by = {lb: [r["method"] for r in rs] for lb, rs in got}
    one = label_with(by, "GPU-11111111", None)
    expect(by[one] == ["x", "host.mpi.barrier"], f"the host-only row joins its run's machine: {by}")
    apart = [lb for lb in by if "host-only rows" in lb]
    expect(len(apart) == 1 and by[apart[0]] == ["host.omp.barrier"],
           f"a host-only row of a host with two machines and no GPU run stays apart: {by}")
    three = label_with(by, "GPU-33333333", None)
    expect(by[three] == ["y", "y"] and "2 GPUs" in three, f"one run is one machine: {by}")
    expect(b[0][:12] in label_with(by, "GPU-22222222", None), "labels name the UUIDs")
    # One machine on the host: its host-only rows of other runs join it.
    got = machines.machines([row(ONE, "r1", method="x"), row(None, "r7", method="h")])
    expect(len(got) == 1 and len(got[0][1]) == 2, "the host's one machine takes its host rows")


def test_scaling_multi(tmp_path):
    d = str(tmp_path)
    """scaling and multi: machine one measured threads, machine two mpi; never one line."""
    path = os.path.join(d, "multi.csv")
    write_rows(path, gbcsv.NAMES, [
        barrier(ONE, "r1", 1, "threads", 1100), barrier(ONE, "r1", 2, "threads", 3100),
        barrier(TWO, "r2", 2, "mpi", 5200), barrier(TWO, "r2", 1, "mpi", 1700)])
    p = report("scaling", path)
    expect(p.returncode == 0, "scaling exits 0", p)
    got = sections(p)
    expect(len(got) == 2, "scaling: one table per machine", p)
    one, two = label_with(got, "GPU-11111111", p), label_with(got, "GPU-22222222", p)
    push = lambda lb: [cells(x) for x in got[lb] if "`multigpu.device.push`" in x]  # noqa: E731
    expect(push(one) == [["`multigpu.device.push`", "release/acquire", "1 x 128", "1.10 / -",
                          "3.10 / -", "1.00x"]], "scaling: machine one's threads figures alone", p)
    expect(push(two) == [["`multigpu.device.push`", "release/acquire", "1 x 128", "- / 1.70",
                          "- / 5.20", "1.00x"]], "scaling: machine two's mpi figures alone", p)
    for line in p.stdout.splitlines():
        expect(not ("3.10" in line and "5.20" in line), "scaling: no line of two machines", p)

    p = report("multi", path)
    expect(p.returncode == 0, "multi exits 0", p)
    got = sections(p)
    expect(len(got) == 2, "multi: one table per machine", p)
    one, two = label_with(got, "GPU-11111111", p), label_with(got, "GPU-22222222", p)
    expect([cells(x)[3:] for x in got[one] if "`multigpu.device.push`" in x] ==
           [["1.10", "3.10", "-"]], "multi: machine one's threads figures alone", p)
    expect([cells(x)[3:] for x in got[two] if "`multigpu.device.push`" in x] ==
           [["-", "-", "5.20"]], "multi: machine two's mpi figure alone", p)


def node_rows(uuids, run, local=None, host=None, nccl=None, mpi_round=None):
    """The model's one-node inputs at 4 GPUs (those given) on one machine."""
    out = []
    if local is not None:
        out.append(row(uuids, run, method="multinode.hierarchical", gpu_count=4, ranks=4,
                       level="multi-node", launcher="mpi", config=f"gpu_count=4 {HIER}",
                       value=local))
    if host is not None:
        out.append(row(uuids, run, method="host.mpi.gpu-barrier", gpu_count=4, ranks=4,
                       metric="loop_latency", launcher="mpi", config="host_wait=0", value=host))
    if nccl is not None:
        out.append(row(uuids, run, method="host.nccl.allreduce", gpu_count=4,
                       metric="loop_latency", config="gpu_count=4 blocking=0 host_wait=0",
                       value=nccl))
    if mpi_round is not None:  # host-only: it joins its run's machine
        out.append(row(None, run, method="host.mpi.barrier", ranks=2, metric="loop_latency",
                       launcher="mpi", level="host", value=mpi_round))
    return out


def test_multinode(tmp_path):
    d = str(tmp_path)
    four = ONE + ",GPU-11111111-0002,GPU-11111111-0003"
    other = TWO + ",GPU-22222222-0002,GPU-22222222-0003"
    net = os.path.join(d, "net.csv")
    with open(net, "w") as f:
        f.write(NETWORK)
    # Machine one lacks NCCL's figure, machine two has only it.
    split = os.path.join(d, "split.csv")
    write_rows(split, gbcsv.NAMES, node_rows(four, "r1", local=15000, host=11000, mpi_round=500)
               + node_rows(other, "r2", nccl=9000))
    p = report("multinode-model", split, "--network", net, "--nodes", "2")
    expect(p.returncode == 2 and "no one machine has every measured input" in p.stderr and
           "--combine" in p.stderr and "lacks nccl" in p.stderr,
           "inputs on two machines, none complete: refused, naming what each lacks", p)
    p = report("multinode-model", split, "--network", net, "--nodes", "2", "--combine",
               "--inputs")
    expect(p.returncode == 0, "--combine takes each input from the machine that has it", p)
    lines = [cells(x) for x in p.stdout.splitlines() if x.startswith("|")]
    expect(lines and lines[0][-1] == "machine", "a machine column when inputs are combined", p)
    by = {c[0].split(":")[0]: c for c in lines}
    expect("GPU-11111111" in by["local(g)"][-1] and "GPU-11111111" in by["host(g)"][-1] and
           "GPU-11111111" in by["mpi_round"][-1] and "GPU-22222222" in by["nccl(g)"][-1],
           "each input names the machine it came from", p)
    expect(p.stdout.startswith("Inputs of several machines: "), "the table names both", p)
    p = report("multinode-model", split, "--network", net, "--nodes", "2", "--combine")
    expect(p.returncode == 0 and "GPU-22222222" in p.stdout.splitlines()[0] and
           "nccl from" in p.stdout.splitlines()[0],
           "the predictions say which machine each input came from", p)

    # Both machines complete: one table each, each from its own inputs only. 2 nodes: one
    # round = 0.5 (or 0.9) + 1.0 + 0.5.
    both = os.path.join(d, "both.csv")
    write_rows(both, gbcsv.NAMES,
               node_rows(four, "r1", local=15000, host=11000, nccl=9000, mpi_round=500) +
               node_rows(other, "r2", local=30000, host=21000, nccl=8000, mpi_round=900))
    p = report("multinode-model", both, "--network", net, "--nodes", "2")
    expect(p.returncode == 0, "two complete machines: exit 0", p)
    got = sections(p)
    expect(len(got) == 2, "one prediction table per machine", p)
    for prefix, want in (("GPU-11111111", ["2", "1", "1", "2.0", "17.0", "13.0", "19.0"]),
                         ("GPU-22222222", ["2", "1", "1", "2.4", "32.4", "23.4", "18.0"])):
        rows = [cells(x) for x in got[label_with(got, prefix, p)] if x.startswith("| 2 |")]
        expect(rows == [want], f"{prefix}: predictions from its own inputs {want}", p)
    p = report("multinode-model", both, "--network", net, "--inputs")
    expect(all(cells(x)[-1] != "machine" for x in p.stdout.splitlines() if x.startswith("|")),
           "one machine's inputs: no machine column (the line above names it)", p)


def reduction(uuid, run, method, size, gbs, config=""):
    return row(uuid, run, method=method, config=f"{config} bytes={size}".strip(),
               metric="bandwidth", unit="GB/s", value=gbs, level="grid", technique="event",
               note="verified")


def stream(uuid, run, gbs):
    return row(uuid, run, method="model.gmem.stream", config="grid=1", metric="bandwidth",
               unit="B/ns", value=gbs, level="grid", technique="event",
               note="not verified: a memory micro-benchmark: no barrier to check")


def reductions(uuid, run, size, two, grid, cub, copy):
    return [reduction(uuid, run, "reduction.single.two-kernel", size, two),
            reduction(uuid, run, "reduction.single.grid-sync", size, grid, "grid=1"),
            reduction(uuid, run, "reduction.single.cub", size, cub),
            reduction(uuid, run, "reduction.copy", size, copy)]


def test_table6(tmp_path):
    d = str(tmp_path)
    mib = 1 << 20
    path = os.path.join(d, "reduction.csv")
    one, two = ONE.split(",")[0], TWO.split(",")[0]
    write_rows(path, gbcsv.NAMES,
               # machine one: its run r1 streams at 2000; another run (r3) at 1000: not used
               reductions(one, "r1", mib, 100, 96, 80, 300) + [stream(one, "r1", 2000),
                                                                stream(one, "r3", 1000)] +
               # machine two: its reductions' run (r2) has no stream; another run (r4) has
               reductions(two, "r2", mib, 200, 190, 150, 400) + [stream(two, "r4", 2500)])
    p = report("reduction-tables", path, "--table", "6")
    expect(p.returncode == 0, "Table 6 exits 0", p)
    legend = [x for x in p.stdout.split(". ") if x.startswith("Machines: ")]
    expect(len(legend) == 1, "Table 6 names its machines", p)
    names = dict(reversed(part.split(" = ", 1)) for part in
                 legend[0][len("Machines: "):].rstrip(".").split("; "))
    name_one = names[label_with(names, "GPU-11111111", p)]
    name_two = names[label_with(names, "GPU-22222222", p)]
    lines = {cells(x)[0]: cells(x) for x in p.stdout.splitlines() if x.startswith("| H100")}
    expect(set(lines) == {name_one, name_two}, "one line per machine", p)
    expect(lines[name_one][1:] == ["1 MiB", "100.0", "96.0", "80.0", "-", "2000.0", "300.0",
                                   "3352", "3%"],
           "machine one: the stream read of the same run (2000), not the other run's (1000); "
           "best over the H100's DRAM peak (3352 GB/s)", p)
    expect(lines[name_two][1:] == ["1 MiB", "200.0", "190.0", "150.0", "-", "2500.0 †", "400.0",
                                   "3352", "6%"],
           "machine two: its own figures only; the read of its other run, marked", p)
    expect("stream read (`model.gmem.stream` grid=1)" in p.stdout and
           "copy (read + write)" in p.stdout and "theory (DRAM peak)" in p.stdout and
           "† the read of another run" in p.stdout,
           "the header names the stream read, the copy and the DRAM peak; † is explained", p)

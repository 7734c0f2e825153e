#!/usr/bin/env python3
"""`gpubarrier report floor` (gpubarrier_tools/analysis/floor.py): each multi-GPU barrier over its composed floor,
the cheapest verified grid barrier at its shape + the one-way signal at its ordering, from the
same run only; the table, compare, the HTML page and the plot name the grid barrier.

Run by pytest: pytest tests/cli/test_floor.py
"""
import os

from gpubarrier_tools.data import gbcsv
from cli_common import expect, run_gpubarrier, synthetic_row, write_rows


def row(**kw):
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict({"unit": "ns", "metric": "latency"},
                                                          **kw))


def grid(method, gpu, b, t, value, **kw):
    """A grid barrier's verified latency row of one GPU (what the floor's first term is made of)."""
    return row(**dict({"method": method, "level": "grid", "gpu_ids": gpu, "config": shape(b, t),
                       "value": value, "note": "verified"}, **kw))


def shape(b, t, **more):
    return " ".join([f"blocks_per_sm={b} threads_per_block={t}"] +
                    [f"{k}={v}" for k, v in more.items()])


def barrier(ordering, value, gpus="0,1", b=1, t=128, run="r1"):
    return row(method="multigpu.device.push", gpu_count=len(gpus.split(",")), gpu_ids=gpus,
               config=shape(b, t, ordering=ordering, fault=0), value=value, run_id=run)


def test_floor(tmp_path, gpubarrier):
    d = str(tmp_path)
    path = os.path.join(d, "floor.csv")
    write_rows(path, gbcsv.NAMES, [
        # run r1: grid.cg on both GPUs (the slower counts), the signal per ordering
        grid("gpu.grid.cg", "0", 1, 128, 980), grid("gpu.grid.cg", "1", 1, 128, 990),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2, config="ordering=3",
            metric="one_way_latency", value=1260),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2, config="ordering=2",
            metric="one_way_latency", value=1070),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2, config="ordering=4",
            metric="one_way_latency", value=700),
        # ordering 3 measured two more ways: the cheaper correct one is the floor's signal
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2,
            config="ordering=3 word=32 poll=1", metric="one_way_latency", value=1300),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2,
            config="ordering=3 word=32 poll=0", metric="one_way_latency", value=1400),
        # another line of the GPUs' memory; the GPU's own clock is another technique, not a way
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2,
            config="ordering=3 word=64 poll=0 place=5", metric="one_way_latency", value=1290),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2,
            config="ordering=3 timing=1", metric="one_way_latency", value=900),
        barrier(0, 2480), barrier(1, 3300), barrier(2, 2000), barrier(0, 1100, gpus="0"),
        barrier(0, 2830, b=4, t=256),  # no grid.cg at 4x256 in r1
        # run r2: a barrier whose grid barrier was measured only in r1 gets no floor
        barrier(0, 2500, run="r2"),
    ])
    p = run_gpubarrier(gpubarrier, "report", "floor", path)
    expect(p.returncode == 0, "report floor exits 0", p)
    lines = p.stdout.splitlines()
    cg = "`gpu.grid.cg`"
    want = [f"| `multigpu.device.push` | 1 | 1x128 | 0 | 1.1 | {cg} | 0.98 | - | 0.98 | 1.12 |",
            f"| `multigpu.device.push` | 2 | 1x128 | 0 | 2.48 | {cg} | 0.99 | 1.26 | 2.25 | 1.10 |",
            f"| `multigpu.device.push` | 2 | 1x128 | 1 | 3.3 | {cg} | 0.99 | 1.07 | 2.06 | 1.60 |",
            # ordering 2 (acq_rel fences) over the acq_rel-fenced signal (ordering 4)
            f"| `multigpu.device.push` | 2 | 1x128 | 2 | 2 | {cg} | 0.99 | 0.7 | 1.69 | 1.18 |"]
    for w in want:
        expect(w in lines, f"the row {w}", p)
    expect("signal ordering=3 (release/acquire): word=64 poll=0 (the lowest of 4 ways)"
           in p.stdout, "the report names the way that gave the floor's signal", p)
    expect(sum(line.startswith("| `multigpu") for line in lines) == 4,
           "no floor for a barrier whose parts are in another run or missing", p)
    expect("a verified grid barrier (gpu.grid.*) at 4x256 in run r1" in p.stdout and
           "a verified grid barrier (gpu.grid.*) at 1x128 in run r2" in p.stdout,
           "what is missing is named", p)
    # The scaling plot draws the composed floor by GPU count (gpubarrier_tools/cli/plot.py, floor_by_count),
    # named by its grid barrier.
    from gpubarrier_tools.analysis import floor
    by_count = floor.floor_by_count(gbcsv.load([path], statuses={"ok"}))
    expect(by_count == {1: (0.98, "gpu.grid.cg"), 2: (2.25, "gpu.grid.cg")},
           f"the plot's floor by GPU count: {by_count}")
    # compare shows each side's ratios (compare shows each barrier at its floor).
    other = os.path.join(d, "floor-b.csv")
    write_rows(other, gbcsv.NAMES, [
        grid("gpu.grid.cg", "0", 1, 128, 1000, system="b"),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2, config="ordering=3",
            metric="one_way_latency", value=1000, system="b"),
        dict(barrier(0, 2400), system="b")])
    p = run_gpubarrier(gpubarrier, "compare", path, other, "--by", "file", "--format", "markdown")
    expect(p.returncode == 0, "compare exits 0", p)
    expect("at the floor" in p.stdout and
           "| multigpu.device.push | 2 | 1x128 | 0 | 1.10 (gpu.grid.cg) | 1.20 (gpu.grid.cg) |"
           in p.stdout,
           "compare has each side's latency / floor", p)
    # The shared page shows the same ratios (reports show each barrier at its floor).
    page = os.path.join(d, "page.html")
    p = run_gpubarrier(gpubarrier, "report", path, "--html", page)
    expect(p.returncode == 0, "report --html exits 0", p)
    html = open(page, encoding="utf-8").read()
    expect("Multi-GPU barriers at their floor" in html and
           "<td>multigpu.device.push</td><td>2</td><td>1x128</td><td>0</td><td>2.48</td>"
           "<td>gpu.grid.cg</td><td>0.99</td><td>1.26</td><td>2.25</td><td>1.10</td>" in html,
           "the HTML page has the floor table", p)
    # Where push's time goes (report push-phases, gpubarrier_tools/analysis/push_phases.py): its parts beside its
    # floor; a part row is a phase, never a barrier of the floor table.
    phases = os.path.join(d, "phases.csv")

    def part(k, value, ordering=0):
        return row(method="multigpu.device.push", gpu_count=2, gpu_ids="0,1", value=value,
                   config=shape(1, 128, ordering=ordering, fault=0, part=k))
    write_rows(phases, gbcsv.NAMES, [
        grid("gpu.grid.cg", "0", 1, 128, 1100),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2, config="ordering=3",
            metric="one_way_latency", value=2250),
        part(0, 3620), part(1, 1340), part(2, 3050), part(3, 2670),
        part(0, 5960, ordering=1), part(0, 6020, ordering=2),
        row(method="multigpu.device.push", gpu_count=2, gpu_ids="0,1", value=3400,
            config=shape(1, 128, ordering=0, fault=0, part=0, count_poll=1))])
    p = run_gpubarrier(gpubarrier, "report", "push-phases", phases)
    expect(p.returncode == 0 and
           "| 2 | 1x128 | 3.35 | 3.62 | 1.08 | 1.34 | 3.05 | 2.67 | 0.39 | 3.40 | - | 5.96 | 6.02 "
           "| 1.010 |"
           in p.stdout, "push-phases: floor, whole, each part, the overlap, orderings 1 and 2",
           p)
    p = run_gpubarrier(gpubarrier, "report", "floor", phases)
    expect(p.returncode == 0 and
           sum(line.startswith("| `multigpu") for line in p.stdout.splitlines()) == 2 and
           "| `multigpu.device.push count_poll=1` | 2 | 1x128 | 0 | 3.4 |" in p.stdout,
           "the floor table has the whole barriers only (ordering 0: the others have no "
           "signal in this run), no part row, and names a variant's axis", p)
    # The floor's first term is the cheapest verified grid barrier of the run at the shape, its
    # slowest GPU counting, and the table names it: gpu.grid.count-epoch where it is cheaper than
    # grid.sync on every GPU (1x128), gpu.grid.cg where count-epoch's slower GPU is slower than
    # grid.sync's (4x128); a faster grid barrier that is not verified (an ok row noted "not
    # verified: ...", an unverified row) never makes a floor.
    cheap = os.path.join(d, "grid-barriers.csv")
    write_rows(cheap, gbcsv.NAMES, [
        grid("gpu.grid.cg", "0", 1, 128, 980), grid("gpu.grid.cg", "1", 1, 128, 990),
        grid("gpu.grid.count-epoch", "0", 1, 128, 870),
        grid("gpu.grid.count-epoch", "1", 1, 128, 880),
        grid("gpu.grid.cg", "0", 4, 128, 1200), grid("gpu.grid.cg", "1", 4, 128, 1210),
        grid("gpu.grid.count-epoch", "0", 4, 128, 1100),
        grid("gpu.grid.count-epoch", "1", 4, 128, 1300),
        grid("gpu.grid.atomic-sense", "0", 1, 128, 500, note="not verified: stale stamps"),
        grid("gpu.grid.atomic-sense", "1", 1, 128, 500, note="not verified: stale stamps"),
        grid("gpu.grid.flag-epoch", "0", 4, 128, 400, status="unverified"),
        grid("gpu.grid.flag-epoch", "1", 4, 128, 400, status="unverified"),
        row(method="multigpu.floor.signal", gpu_ids="0,1", gpu_count=2, config="ordering=3",
            metric="one_way_latency", value=1000),
        barrier(0, 2000), barrier(0, 3000, b=4), barrier(0, 1000, gpus="0")])
    # An unverified grid barrier alone at a shape: no floor there, as without any grid barrier.
    alone = os.path.join(d, "unverified-only.csv")
    write_rows(alone, gbcsv.NAMES, [
        grid("gpu.grid.count-epoch", "0", 1, 128, 500, note="not verified: stale stamps"),
        barrier(0, 1000, gpus="0")])
    p = run_gpubarrier(gpubarrier, "report", "floor", cheap, alone)
    expect(p.returncode == 0, "report floor exits 0", p)
    lines = p.stdout.splitlines()
    ce = "`gpu.grid.count-epoch`"
    want = [f"| `multigpu.device.push` | 1 | 1x128 | 0 | 1 | {ce} | 0.87 | - | 0.87 | 1.15 |",
            f"| `multigpu.device.push` | 2 | 1x128 | 0 | 2 | {ce} | 0.88 | 1 | 1.88 | 1.06 |",
            f"| `multigpu.device.push` | 2 | 4x128 | 0 | 3 | {cg} | 1.21 | 1 | 2.21 | 1.36 |"]
    for w in want:
        expect(w in lines, f"the row {w}", p)
    expect(sum(line.startswith("| `multigpu") for line in lines) == 3 and
           "a verified grid barrier (gpu.grid.*) at 1x128 in run r1" in p.stdout,
           "no floor from an unverified grid barrier", p)
    by_count = floor.floor_by_count(gbcsv.load([cheap], statuses={"ok"}))
    expect(by_count == {1: (0.87, "gpu.grid.count-epoch"), 2: (1.88, "gpu.grid.count-epoch")},
           f"the plot's floor names its grid barrier: {by_count}")
    p = run_gpubarrier(gpubarrier, "compare", path, cheap, "--by", "file", "--format", "markdown")
    expect(p.returncode == 0 and
           "| multigpu.device.push | 2 | 1x128 | 0 | 1.10 (gpu.grid.cg) | "
           "1.06 (gpu.grid.count-epoch) |" in p.stdout,
           "compare names each side's grid barrier", p)
    p = run_gpubarrier(gpubarrier, "report", cheap, "--html", os.path.join(d, "cheap.html"))
    html = open(os.path.join(d, "cheap.html"), encoding="utf-8").read()
    expect(p.returncode == 0 and
           "<td>multigpu.device.push</td><td>2</td><td>4x128</td><td>0</td><td>3</td>"
           "<td>gpu.grid.cg</td><td>1.21</td>" in html and
           "<td>multigpu.device.push</td><td>2</td><td>1x128</td><td>0</td><td>2</td>"
           "<td>gpu.grid.count-epoch</td><td>0.88</td>" in html,
           "the HTML page's floor table names the grid barrier", p)

#!/usr/bin/env python3
"""`gpubarrier report heatmap` and `report spans` (gpubarrier_tools/analysis/report_grids.py), and the variant axes
that keep NVSHMEM's calls and the multi-device launch's implementations apart in `report scaling`.

Run by pytest: pytest tests/cli/test_report_grids.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from gpubarrier_tools.data import gbcsv
from cli_common import executable, expect, run_gpubarrier, synthetic_row, write_rows

EXE = executable()


def row(**kw):
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict({"unit": "ns", "metric": "latency"},
                                                          **kw))


def grid(gpus, b, t, value=None, status="ok"):
    return row(method="multigpu.cg.multi-grid", gpu_count=gpus, launcher="threads",
               config=f"gpu_count={gpus} blocks_per_sm={b} threads_per_block={t}",
               value="" if value is None else value, status=status)


def report(*args):
    p = run_gpubarrier(EXE, "report", *args)
    expect(p.returncode == 0, f"report {args[0]} exits 0", p)
    return p, p.stdout.splitlines()


def test_report_grids(tmp_path):
    d = str(tmp_path)
    maps = os.path.join(d, "maps.csv")
    write_rows(maps, gbcsv.NAMES, [
        grid(2, 1, 128, 5900), grid(2, 1, 128, 6100), grid(2, 1, 1024, 7000),
        grid(2, 2, 128, 6500), grid(2, 2, 1024, status="skipped"),
        row(method="gpu.grid.cg", config="blocks_per_sm=1 threads_per_block=128", value=1000)])
    p, lines = report("heatmap", maps, "--method", "multigpu.cg.multi-grid")
    expect("| GPUs | launcher | blocks/SM | 128 threads | 1024 threads |" in lines,
           "one column per threads/block", p)
    expect("| 2 | threads | 1 | 6 | 7 |" in lines, "a cell is the median of its rows, in us", p)
    expect("| 2 | threads | 2 | 6.5 | n/f |" in lines, "a shape that does not fit says n/f", p)
    expect(not any("gpu.grid.cg" in line for line in lines), "other methods stay out", p)
    p = run_gpubarrier(EXE, "report", "heatmap", maps, "--method", "multigpu.none")
    expect(p.returncode != 0 and "no multigpu.none rows" in p.stderr,
           "a method without rows is an error that names it", p)

    runs = os.path.join(d, "runs.csv")
    write_rows(runs, gbcsv.NAMES, [
        row(method="kernel.launch.graph", gpu_ids=str(g), config="blocks_per_sm=1", value=v)
        for g, v in enumerate((6300, 6400, 7800))] + [
        row(method="kernel.launch.graph", config="blocks_per_sm=1", metric="launch_interval",
            value=1090)])
    p, lines = report("spans", runs, "--metric", "latency")
    expect("| `kernel.launch.graph` | blocks_per_sm=1 | latency | 1 | threads | 6.4 | 6.3-7.8 | 3 |"
           in lines, "median, range and count over the rows of one point", p)
    expect(not any("launch_interval" in line for line in lines), "--metric selects", p)

    scaling = os.path.join(d, "scaling.csv")
    write_rows(scaling, gbcsv.NAMES, [
        row(method="multigpu.nvshmem.barrier", gpu_count=2, launcher="mpi", ranks="2",
            config=f"gpu_count=2 blocks_per_sm=1 threads_per_block=128 ordering=0 variant={v}",
            value=val) for v, val in ((0, 6400), (1, 4800))])
    p, lines = report("scaling", scaling, "--orderings", "0")
    expect(any("sync_all_block" in line and "4.80" in line for line in lines) and
           any("barrier_all_block" in line and "6.40" in line for line in lines),
           "each NVSHMEM call is a line of its own", p)

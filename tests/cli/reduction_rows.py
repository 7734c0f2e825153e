"""Synthetic rows of the reduction sweep (configs/sweeps/reduction.yaml) that the reduction tests
share: the model's inputs, gpu.warp.reduce (variant 1 unverified, as its sum is wrong), and the
single-GPU reductions with the copy ceiling, measured on two GPUs of one machine."""

from gpubarrier_tools.data import gbcsv
from cli_common import synthetic_row, write_rows

GPU = "NVIDIA H100 80GB HBM3"
SIZES = (65536, 1 << 20, 16 << 20)
WARP_CYCLES = (380, 200, 210, 205, 400, 214)
# GB/s by size: (two-kernel, grid-sync grid=1, cub, copy); grid=0 (one block) stays at 20.
BANDWIDTH = {65536: (6, 7, 5, 30), 1 << 20: (100, 96, 80, 300), 16 << 20: (1400, 1300, 1200, 2500)}


def row(gpu_ids, method, config, metric, unit, value, **kw):
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, gpu_model=GPU, gpu_ids=gpu_ids,
                         method=method, config=config, metric=metric, unit=unit, value=value,
                         **kw)


def reduction(g, method, config, size, gbs):
    """A reduction's two rows at one size: bandwidth (GB/s) and the latency it implies (ns)."""
    config = f"{config} bytes={size}".strip()
    return [row(g, method, config, "bandwidth", "GB/s", gbs),
            row(g, method, config, "latency", "ns", size / gbs)]


def rows():
    out = []
    for g, extra in (("0", 0.0), ("1", 2.0)):  # GPU 1's latencies 2 cycles longer
        for tpb, bw, lat in ((1, 0.5, 20), (32, 16, 20), (1024, 128, 40)):
            cfg = f"threads_per_block={tpb}"
            out += [row(g, "model.smem.stream", cfg, "bandwidth_cycles", "B/cycle", bw),
                    row(g, "model.smem.stream", cfg, "latency_cycles", "cycles", lat + extra)]
        for grid, bw in ((0, 20), (1, 2000)):
            cfg = f"grid={grid}"
            out += [row(g, "model.gmem.stream", cfg, "bandwidth", "B/ns", bw),
                    row(g, "model.gmem.stream", cfg, "latency", "ns", 400),
                    row(g, "model.gmem.stream", cfg, "latency_cycles", "cycles", 800)]
        out.append(row(g, "gpu.grid.cg", "blocks_per_sm=1 threads_per_block=1024", "latency",
                       "ns", 1000, technique="differential"))
        for v, cycles in enumerate(WARP_CYCLES):
            status = dict(status="unverified", note="barrier check failed: the sum of 32 doubles "
                          "is wrong: worst relative error 0.52 > 1e-10; worst relative error 0.52 "
                          "over 43 runs") if v == 1 else {}
            out.append(row(g, "gpu.warp.reduce", f"variant={v}", "latency_cycles", "cycles",
                           cycles, **status))
        for size, (two, grid, cub, copy) in BANDWIDTH.items():
            out += reduction(g, "reduction.single.two-kernel", "", size, two)
            out += reduction(g, "reduction.single.grid-sync", "grid=1", size, grid)
            out += reduction(g, "reduction.single.grid-sync", "grid=0", size, 20)
            out += reduction(g, "reduction.single.cub", "", size, cub)
            out += reduction(g, "reduction.copy", "", size, copy)
    return out


def write(path, selected=None):
    """The rows (those `selected` keeps) as a gpubarrier CSV at path."""
    write_rows(path, gbcsv.NAMES, [r for r in rows() if selected is None or selected(r)])

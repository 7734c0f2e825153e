#!/usr/bin/env python3
"""When do fewer threads, warps, blocks or GPUs win? The study's model (the study's section 7.1,
Eqs. 1-5; analysis/model_eq.py) applied to measured rows, beside the measured switch points.

    gpubarrier model --study                          the study's V100/P100 inputs (its Table 3),
                                                      its Table 4 recomputed
    gpubarrier model --from A.csv [--from B.csv ...] [--syncs 5] [--format markdown|json]

PREDICTIONS. For each GPU model in the CSVs (the gpu_model column):
  1 thread vs 1 warp       shared memory; T_sync = SYNCS x gpu.warp.tile-shuffle (group_size=32)
  32 vs 1024 threads       shared memory; T_sync = SYNCS x gpu.block.syncthreads (1024 threads)
  1 block vs the grid      global memory; T_sync = one gpu.grid.cg (its fastest configuration)
  1 GPU vs N GPUs          global memory, N GPUs streaming their own shares (Thr x N); T_sync =
                           one barrier (each multi-GPU barrier in the CSVs, its fastest shape, at
                           gpu_count N) + one one-way NVLink signal (multigpu.floor.signal), the
                           partial result's trip. NVLink bandwidth does not enter: no data
                           crosses it but the partial results (the study's Fig. 13 set-up).
SYNCS (--syncs, default 5) is the study's "5 times synchronization" of a warp's tree reduction.

INPUTS (ok rows; several rows of one figure give their median):
  model.smem.stream  threads_per_block=1|32|1024   bandwidth_cycles (B/cycle), latency_cycles
                     (cycles): the study's Fig. 10 loop over shared memory (its Table 3)
  model.gmem.stream  grid=0 (one block) | grid=1 (every SM)   bandwidth (B/ns), latency (ns)
MEASURED switch points come from the reduction sweep (metric latency, axis bytes): where the two
configurations' latency curves cross, linearly interpolated (analysis/model_eq.py crossing):
  reduction.block threads_per_block 1 vs 32, and 32 vs 1024;
  reduction.single.grid-sync grid 0 vs 1;
  reduction.multi.device-barrier (multigpu.device.*), reduction.multi.omp (host.omp.gpu-barrier),
  reduction.multi.mpi (host.mpi.gpu-barrier), reduction.multi.nccl (host.nccl.allreduce):
  gpu_count 1 vs N.
A prediction whose inputs are missing says which rows it needs; with none computable the tool
exits 2 (bad input).

COLUMNS. N (Eq. 2) solves Eq. 2 exactly (Eq. 4 or 5 where it lies in their range: `scenario`).
N_l (Eq. 5) is Eq. 5 applied whatever the scenario, as the study's Table 4 does: for 1 thread vs
1 warp the study's own inputs put the crossing below C_more, in Eq. 4's range, where Eq. 5 gives
70 B and Eq. 2 76 B (V100). `error` is measured / N (Eq. 2) - 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from .. import render
from ..analysis.model_predictions import (  # noqa: F401 (GMEM, SMEM, MULTI_REDUCTIONS: the model's inputs)
    GMEM,
    MULTI_REDUCTIONS,
    SMEM,
    predictions,
    report,
    study_predictions,
)
from ..data import gbcsv, tool_main


def main(argv: Sequence[str]) -> int:
    ap = tool_main.ArgumentParser(
        prog="gpubarrier model",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "--from",
        dest="sources",
        action="append",
        default=[],
        metavar="CSV",
        help="gpubarrier CSV with the model's inputs (repeatable)",
    )
    ap.add_argument(
        "--study",
        action="store_true",
        help="the study's own V100/P100 inputs (the study's Tables 3 and 4)",
    )
    ap.add_argument(
        "--syncs",
        type=int,
        default=5,
        help="barriers in one in-block tree reduction (the study's 5)",
    )
    ap.add_argument("--format", choices=["markdown", "json"], default="markdown")
    args = ap.parse_args(argv)
    if args.study == bool(args.sources):
        ap.error("give --study or --from CSV (one of them)")
    if args.syncs < 1:
        ap.error(f"--syncs {args.syncs}: expected at least 1")
    if args.study:
        preds = study_predictions()
    else:
        preds = predictions(gbcsv.load(args.sources, statuses={"ok"}), args.syncs)
        if all("missing" in p for p in preds):
            needs = sorted({p["missing"] for p in preds})
            print(
                "gpubarrier model: no prediction can be computed from "
                f"{', '.join(map(tool_main.shown, args.sources))}; it needs rows of: "
                + "; ".join(needs),
                file=sys.stderr,
            )
            return 2  # the input lacks what the model reads: bad input
    if args.format == "json":
        print(json.dumps(preds, indent=1))
    else:
        render.print_markdown(report(preds, args.study))
    return 0


if __name__ == "__main__":
    tool_main.run(main)

#!/usr/bin/env python3
"""What the answers table compares is barriers (gpubarrier_tools/analysis/answers.py): a figure from the first
member's arrival to the last member's release. Two kinds of committed row are not that:

- `host.nccl.allreduce blocking=back-to-back`: a loop of allreduces enqueued back to back, timed to
  the completion of the last; the calls overlap, and one GPU's in-place allreduce enqueues nothing
  (NCCL), so at one GPU the figure is the call's host cost (159-169 ns, less than one kernel
  launch). The tools read such rows of every file as metric `interval` (differential) and
  `loop_interval` (loop mean), never as `latency` / `loop_latency`, so that they answer nothing;
- a multi-GPU method on one GPU: a barrier of one member, no comparison between GPUs. Its answer
  is labelled "(the gather alone)" in the GPUs cell.

Checked on committed rows: results/h200x4/multi-gpu-scaling.csv (NCCL back-to-back at 1 GPU,
line 520), results/h100x4/legacy-host.csv (lines 4 and 5).

Run by pytest: pytest tests/cli/test_answers_gather.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from gpubarrier_tools.data import gbcsv
from gpubarrier_tools.analysis import answers
from cli_common import committed_files, expect

SCALING = "results/h200x4/multi-gpu-scaling.csv"
LEGACY = "results/h100x4/legacy-host.csv"
MULTI = ("multi-gpu", "multi-gpu-host", "multi-node")


def load(path):
    expect(path in committed_files(ROOT, path), f"{path} is committed")
    return gbcsv.load([os.path.join(ROOT, path)])


def at_line(rows, line):
    hit = [r for r in rows if r["_line"] == line]
    expect(len(hit) == 1, f"one row at line {line}")
    return hit[0]


def back_to_back(r):
    return r["method"] == "host.nccl.allreduce" and gbcsv.config_axes(r).get("blocking") == "0"


def test_metric_names():
    r = at_line(load(SCALING), 520)
    expect(back_to_back(r) and r["gpu_count"] == "1" and r["technique"] == "differential",
           f"{SCALING}:520 is NCCL back-to-back at 1 GPU (differential)")
    expect(r["metric"] == "interval", f"{SCALING}:520 reads as metric interval, got {r['metric']}")
    legacy = load(LEGACY)
    loop, diff = at_line(legacy, 4), at_line(legacy, 5)
    expect(back_to_back(loop) and back_to_back(diff), f"{LEGACY}:4-5 are NCCL back-to-back")
    expect(loop["metric"] == "loop_interval" and diff["metric"] == "interval",
           f"{LEGACY}:4-5 read as loop_interval and interval, got {loop['metric']}, "
           f"{diff['metric']}")
    blocking = at_line(legacy, 2)
    expect(blocking["metric"] == "loop_latency", f"{LEGACY}:2 (sync each step) keeps loop_latency")


def test_answers():
    for path in (SCALING, LEGACY):
        for label, rs in answers.machines(load(path)):
            found = answers.answers(rs)
            for a in found:
                expect(not back_to_back(a["row"]), f"{path} ({label}): {a['level']} at "
                       f"{a['gpus']} GPUs answers with NCCL back-to-back ({a['value']:.4g} ns)")
                alts = [lb for lb, *_ in a["alternatives"]]
                expect(all(val >= 1000 for lb, val, *_ in a["alternatives"]
                           if lb.startswith("host.nccl.allreduce")),
                       f"{path}: no NCCL back-to-back figure among the alternatives {alts}")
            cells = {(a["level"], a["gpus"]): answers.cells(a) for a in found}
            for (level, gpus), cell in cells.items():
                if level in MULTI and gpus == 1:
                    expect(cell[1] == "1 (the gather alone)",
                           f"{path}: the 1-GPU {level} answer is labelled the gather alone, got "
                           f"{cell[1]!r}")
                elif level in MULTI:
                    expect(cell[1] == str(gpus), f"{path}: {gpus} GPUs unlabelled")
            expect(("multi-gpu-host", 1) in cells, f"{path}: a 1-GPU host-side answer remains")

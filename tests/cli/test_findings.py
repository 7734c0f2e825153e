#!/usr/bin/env python3
"""`gpubarrier report findings DIR` (tools/findings.py): one row per conclusion of the study and
GPU, with a verdict by the stated rule: `confirmed` when the comparison holds beyond the rows'
spread, `refuted` when the opposite holds beyond it, `inconclusive` when a figure comes from a
noisy row, `not measured` when a figure is missing; the figures of one verdict always come from one machine (same host and GPU
UUIDs), never one figure from each of two machines.

Run by pytest: pytest tests/cli/test_findings.py
"""
import os

from tools import gbcsv
from cli_common import expect, run_gpubarrier, synthetic_row, write_rows


def row(model, uuid, host, **kw):
    base = {"gpu_model": model, "gpu_uuids": uuid, "gpu_ids": "0", "host": host,
            "note": "verified", "unit": "ns", "metric": "latency", "stddev": "1", "cv": "0.001"}
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def block(model, uuid, host, small, big, run="r1", **kw):
    return [row(model, uuid, host, method="gpu.block.syncthreads", metric="latency_cycles",
                unit="cycles", config=f"blocks_per_sm=1 threads_per_block={t}", value=v,
                run_id=run, **kw)
            for t, v in ((32, small), (1024, big))]


def grid(model, uuid, host, wide, many, run="g1", **kw):
    return [row(model, uuid, host, method="gpu.grid.cg", config=f"blocks_per_sm={b} "
                f"threads_per_block={t}", value=v, run_id=run, **kw)
            for b, t, v in ((1, 1024, wide), (8, 128, many))]


H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
rows = (
    # H100: block sync confirmed (14 < 76 cycles, precise)
    block(H100, "GPU-a", "vm", 14.2, 76.1)
    # H100: grid sync noisy -> inconclusive
    + grid(H100, "GPU-a", "vm", 1000, 2300, cv="0.9", stddev="1500",
           note="verified; noisy: cv 0.9 > 0.25")
    # H200: 32 threads slower than 1024, beyond the spread -> refuted
    + block(H200, "GPU-b", "box", 14.3, 14.0, stddev="0.01")
    # H200: grid sync, one figure on each of two machines: never combined -> not measured
    + [row(H200, "GPU-b", "box", method="gpu.grid.cg", run_id="x1",
           config="blocks_per_sm=1 threads_per_block=1024", value=1000),
       row(H200, "GPU-c", "other", method="gpu.grid.cg", run_id="x2",
           config="blocks_per_sm=8 threads_per_block=128", value=2200)]
)

# the pitfalls: every sync waits and the control is caught; a partial grid sync ends as timeout
rows += [row(H100, "GPU-a", "vm", method="pitfall.warp.wait-check", metric="check_left_early",
             unit="per 1e6 trials", config=f"variant={v} group_size=32", value=val, status=st,
             run_id="p1")
         for v, val, st in ((2, 0, "ok"), (4, 0, "ok"), (0, 250000, "unverified"))]
rows += [row(H100, "GPU-a", "vm", method="pitfall.grid.partial-sync", run_id="p2",
             metric="check_never_arrived", unit="blocks", config=f"barrier=0 missing={m}",
             value=val, status=st)
         for m, val, st in ((0, 0, "ok"), (1, "", "timeout"), (2, "", "timeout"))]
# CUDA's own grid sync beside them: the whole grid completes, the partial one is killed at its
# deadline (the parent's row for a lost point: no metric, no value)
rows += [row(H100, "GPU-a", "vm", method="pitfall.grid.partial-sync", run_id="p2",
             metric=metric, unit="blocks" if metric else "", value=val, status=st,
             config=f"barrier=grid-sync missing={m} blocks_per_sm=1 threads_per_block=128")
         for m, metric, val, st in (("none", "check_never_arrived", 0, "ok"),
                                    ("last-block", "", "", "timeout"))]
# on H200 a sync lets a thread leave early: refuted
rows += [row(H200, "GPU-b", "box", method="pitfall.warp.wait-check", metric="check_left_early",
             unit="per 1e6 trials", config=f"variant={v} group_size=32", value=val, status=st,
             run_id="p3")
         for v, val, st in ((2, 10, "unverified"), (0, 250000, "unverified"))]


def test_findings(tmp_path, gpubarrier):
    d = str(tmp_path)
    write_rows(os.path.join(d, "a.csv"), gbcsv.NAMES, rows)
    rep = run_gpubarrier(gpubarrier, "report", "findings", d)
    expect(rep.returncode == 0, "report findings exits 0", rep)
    lines = rep.stdout.split("\n")

    def verdict(claim, gpu):
        at = next((i for i, ln in enumerate(lines) if claim in ln), None)
        expect(at is not None, f"a row for {claim!r}", rep)
        for ln in lines[at:at + 2]:
            cells = [c.strip() for c in ln.split("|")]
            if cells[3] == gpu or cells[3].startswith(gpu + " ("):
                return cells[5].strip("*"), cells[6]
        expect(False, f"no {gpu} row for {claim!r}", rep)

    block_claim = "Block sync costs more with more warps"
    grid_claim = "Grid sync latency depends on blocks per SM"
    v, why = verdict(block_claim, "H100")
    expect(v == "confirmed", f"H100 block sync: {v} ({why}), expected confirmed", rep)
    v, why = verdict(grid_claim, "H100")
    expect(v == "inconclusive" and why.startswith("noisy:"),
           f"H100 grid sync from a noisy row: {v} ({why}), expected inconclusive", rep)
    v, why = verdict(block_claim, "H200")
    expect(v == "refuted" and why.startswith("fails:"),
           f"H200 block sync 14.3 vs 14.0: {v} ({why}), expected refuted", rep)
    v, why = verdict(grid_claim, "H200")
    expect(v == "not measured", f"H200 grid sync across two machines: {v} ({why}), expected "
           f"not measured (figures of two machines are never combined)", rep)
    expect("inconclusive" in lines[0] or "conclusions" in lines[0], "a summary line first", rep)

    v, why = verdict("Every warp sync makes every thread of the group wait", "H100")
    expect(v == "confirmed", f"H100 warp pitfall: {v} ({why}), expected confirmed", rep)
    v, why = verdict("Every warp sync makes every thread of the group wait", "H200")
    expect(v == "refuted", f"H200 warp pitfall with a sync that let a thread go: {v} ({why})",
           rep)
    v, why = verdict("A grid sync reached by only part of the grid deadlocks", "H100")
    expect(v == "confirmed", f"H100 partial grid sync: {v} ({why}), expected confirmed", rep)

    # the study's tables: one machine per GPU, the one with the most rows of the table
    tables = run_gpubarrier(gpubarrier, "report", "study-tables", d)
    expect(tables.returncode == 0, "report study-tables exits 0", tables)
    h200_32 = [ln for ln in tables.stdout.split("\n") if ln.startswith("| 32 |") and "H200" in ln]
    expect(len(h200_32) == 1 and "| 14.3 |" in h200_32[0],
           "the H200 block row at 32 threads comes from the machine with the block rows", tables)

    bad = run_gpubarrier(gpubarrier, "report", "findings", os.path.join(d, "none"))
    expect(bad.returncode == 2 and bad.stderr.count("\n") <= 2 and "Traceback" not in bad.stderr,
           "a folder that does not exist: exit 2, one line", bad)

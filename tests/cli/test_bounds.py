#!/usr/bin/env python3
"""Physical bounds (gpubarrier_tools/data/bounds.py): a row whose figure no hardware can produce is read as
`unverified`, with the bound at the start of its note, by every tool (gbcsv.load), so that no
table, model or answer uses it: a time at or below zero, a dependent shared-memory load under one
cycle, a DRAM-read reduction above the GPU's DRAM peak, a barrier across GPUs faster than the same
run's one-way signal. Rows inside the bounds, and warm arrays that fit in L2, stay ok. When the
executable states its methods' bounds (`gpubarrier --json schema`, "bounds"), the tools read
them from there (gpubarrier_tools/data/schema.json) for old rows.

Run by pytest: pytest tests/cli/test_bounds.py
"""
import json
import os

from gpubarrier_tools.data import bounds
from gpubarrier_tools.data import gbcsv
from cli_common import expect, run_gpubarrier, synthetic_row, write_rows

H100 = "NVIDIA H100 80GB HBM3"


def row(key, **kw):
    base = {"gpu_model": H100, "gpu_uuids": "GPU-a", "gpu_ids": "0", "note": "verified",
            "unit": "ns", "metric": "latency", "config": f"key={key}"}
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def red(key, method, gbs, nbytes, cache=None, gpus=1):
    cfg = f"key={key} bytes={nbytes}" + (f" cache={cache}" if cache is not None else "")
    return row(key, method=method, metric="bandwidth", unit="GB/s", value=gbs, config=cfg,
               gpu_count=gpus, technique="event")


UUIDS2 = "GPU-a,GPU-b"
rows = [
    # (expected status, row)
    ("unverified", row("smem", method="model.smem.stream", metric="latency_cycles",
                       unit="cycles", value=0.085)),
    ("ok", row("smem-ok", method="model.smem.stream", metric="latency_cycles", unit="cycles",
               value=29.3)),
    ("unverified", row("neg", method="kernel.fusion", metric="launch_overhead", value=-29.5)),
    ("unverified", row("zero", method="gpu.grid.cg", value=0)),
    ("ok", row("pos", method="gpu.grid.cg", value=1010)),
    # cold, or larger than any L2: bounded by the DRAM peak (3352 GB/s on this H100)
    ("unverified", red("cold", "reduction.single.two-kernel", 7700, 32 << 20, cache=0)),
    ("ok", red("cold-ok", "reduction.single.two-kernel", 2900, 32 << 20, cache=0)),
    ("unverified", red("big", "reduction.single.cub", 3600, 1 << 30)),
    # warm and L2-resident: read from L2, faster than DRAM is physical
    ("ok", red("warm", "reduction.single.two-kernel", 7700, 32 << 20, cache=1)),
    ("ok", red("old-warm", "reduction.single.two-kernel", 7700, 32 << 20)),
    # over two GPUs: twice the peak
    ("ok", red("multi", "reduction.multi.nccl", 6000, 1 << 30, gpus=2)),
    ("unverified", red("multi-hi", "reduction.multi.nccl", 7000, 1 << 30, gpus=2)),
    # a barrier across GPUs below the same run's one-way signal between its GPUs
    ("ok", row("sig", method="multigpu.floor.signal", metric="one_way_latency", value=1450,
               gpu_count=2, gpu_ids="0,1", gpu_uuids=UUIDS2, note="not verified: a signal")),
    ("unverified", row("fast", method="multigpu.nvshmem.barrier", value=900, gpu_count=2,
                       gpu_ids="0,1", gpu_uuids=UUIDS2)),
    ("ok", row("slow", method="multigpu.device.push", value=2600, gpu_count=2, gpu_ids="0,1",
               gpu_uuids=UUIDS2)),
    # a phase of a barrier (part != 0) is not a barrier
    ("ok", row("part", method="multigpu.device.push", value=300, gpu_count=2, gpu_ids="0,1",
               gpu_uuids=UUIDS2, config="key=part part=2")),
    # another run has no signal: nothing to compare with
    ("ok", row("other-run", method="multigpu.nvshmem.barrier", value=950, gpu_count=2,
               gpu_ids="0,1", gpu_uuids=UUIDS2, run_id="r2")),
]


def test_rows_outside_bounds(tmp_path, gpubarrier):
    d = str(tmp_path)
    path = os.path.join(d, "b.csv")
    write_rows(path, gbcsv.NAMES, [r for _, r in rows])
    got = {gbcsv.config_axes(r)["key"]: r for r in gbcsv.load([path])}
    for want, r in rows:
        key = gbcsv.config_axes(r)["key"]
        g = got[key]
        expect(g["status"] == want, f"{key}: status {g['status']}, expected {want} ({g['note']})")
        if want == "unverified":
            expect(g["note"].startswith("outside physical bound: "),
                   f"{key}: note does not name the bound: {g['note']}")
            expect(g["note"].endswith("verified"), f"{key}: the original note is kept: {g['note']}")
    only_ok = {gbcsv.config_axes(r)["key"] for r in gbcsv.load([path], statuses={"ok"})}
    expect(only_ok == {gbcsv.config_axes(r)["key"] for w, r in rows if w == "ok"},
           f"ok rows read: {sorted(only_ok)}")
    # the answers table (every tool reads through gbcsv) never shows a row outside a bound
    rep = run_gpubarrier(gpubarrier, "report", "answers", path)
    expect(rep.returncode == 0, "report answers exits 0", rep)
    expect("900 ns" not in rep.stdout and "950 ns" in rep.stdout,
           "a barrier faster than its run's signal is not an answer; one of a run without a "
           "signal is", rep)


def test_stated_bounds_agree(gpubarrier):
    # The tools apply the bounds the executable states (its schema, read from gpubarrier_tools/data/schema.json,
    # for rows written before it applied them), and each method's bounds in `list --json` are its
    # own, then every method's.
    schema = run_gpubarrier(gpubarrier, "--json", "schema")
    expect(schema.returncode == 0, "gpubarrier --json schema exits 0", schema)
    stated = json.loads(schema.stdout)["bounds"]
    every = stated["every method"]
    expect(bounds.TIME_METRICS == tuple(b["metric"] for b in every) and
           all(b["min"] == 0 and b["max"] is None and b["min_exclusive"] and
               b["why"] == bounds.POSITIVE_WHY for b in every),
           f"gpubarrier_tools/data/bounds.py's time metrics {bounds.TIME_METRICS} are not the executable's {every}")
    own = {(m, b["metric"]): (b["min"], b["max"], b["why"])
           for m, rows in stated.items() if m != "every method" for b in rows}
    expect(own and bounds.STATIC == own,
           f"gpubarrier_tools/data/bounds.py has {bounds.STATIC}, the executable states {own}: regenerate "
           f"gpubarrier_tools/data/schema.json (scripts/regenerate-docs)")
    lst = run_gpubarrier(gpubarrier, "--json", "list")
    expect(lst.returncode == 0, "gpubarrier --json list exits 0", lst)
    for m in json.loads(lst.stdout):
        want = stated.get(m["name"], []) + every
        expect([(b["metric"], b["min"], b["max"]) for b in m["bounds"]] ==
               [(b["metric"], b["min"], b["max"]) for b in want],
               f"{m['name']}: list --json states {m['bounds']}, the schema {want}")

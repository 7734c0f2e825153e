#!/usr/bin/env python3
"""What a findings verdict may rest on (tools/findings.py), case by case:

  one_gpu       both sides of a single-GPU verdict come from one GPU (by UUID): a launch overhead
                of one GPU against a grid sync of another GPU of the same machine is no verdict,
                the same figures of one GPU are, and the row names that GPU;
  no_uuids      rows without GPU UUIDs (schema v1/v2) take part in no verdict;
  study_rule    the comparison rule does not refute the study's own figures: its V100 reduction
                bandwidths (Table 6: 865.40 implicit against 855.59 grid sync, no spread given)
                are a difference within the run-to-run floor, not "the same";
  typed_refs    `report foundation` reads its reference figures from a committed CSV: a sweep
                that is that CSV deviates by +0.0% in every row; compare's default noise floors
                are what --measure-floor computes from the committed repeat runs;
  newest        --newest DIR reads, per machine kind folder, only its newest one-run folder (named
                by its date, holding machine.txt); a folder named is read exactly;
  rows          the page has a row (a verdict or "not measured: why") for each conclusion of the
                study that FINDINGS lists, and quotes the study for each.

Run by pytest: pytest tests/cli/test_findings_verdicts.py [--gpubarrier PATH]
"""
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from tools import gbcsv
from cli_common import executable, expect, run_gpubarrier, synthetic_row, write_rows

EXE = executable()
H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
GRID_CLAIM = "A grid sync costs more than a kernel boundary"
BLOCK_CLAIM = "Block sync costs more with more warps"


def row(model, uuid, run, **kw):
    base = {"gpu_model": model, "gpu_uuids": uuid, "gpu_ids": "0", "host": "vm", "run_id": run,
            "note": "verified", "unit": "ns", "metric": "latency", "stddev": "1", "cv": "0.001"}
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def launch(model, uuid, run, value):
    return row(model, uuid, run, method="kernel.fusion", metric="launch_overhead",
               technique="fusion", config="launch=0", value=value)


def grid(model, uuid, run, value):
    return row(model, uuid, run, method="gpu.grid.cg", technique="differential",
               config="blocks_per_sm=1 threads_per_block=128", value=value)


def page(rows):
    with tempfile.TemporaryDirectory() as d:
        write_rows(os.path.join(d, "a.csv"), gbcsv.NAMES, rows)
        rep = run_gpubarrier(EXE, "report", "findings", d)
    expect(rep.returncode == 0, "report findings exits 0", rep)
    return rep


def verdict(rep, claim, gpu):
    lines = rep.stdout.split("\n")
    at = next((i for i, ln in enumerate(lines) if claim in ln), None)
    expect(at is not None, f"a row for {claim!r}", rep)
    for ln in lines[at:at + 2]:
        cells = [c.strip() for c in ln.split("|")]
        if cells[3].startswith(gpu):
            return cells[3], cells[5].strip("*"), cells[6]
    expect(False, f"no {gpu} row for {claim!r}", rep)


def test_one_gpu():
    rows = [launch(H100, "GPU-aaaa1111", "r1", 1390),
            grid(H100, "GPU-bbbb2222", "r2", 1050),
            # one 2-GPU row makes the two GPUs one machine
            row(H100, "GPU-aaaa1111,GPU-bbbb2222", "r3", method="multigpu.device.push",
                gpu_count=2, gpu_ids="0,1", config="blocks_per_sm=1 threads_per_block=128",
                technique="differential", value=3000),
            launch(H200, "GPU-cccc3333", "r4", 1000), grid(H200, "GPU-cccc3333", "r4", 3000)]
    rep = page(rows)
    gpu, v, why = verdict(rep, GRID_CLAIM, "H100")
    expect(v == "not measured" and "one GPU" in why,
           f"H100 launch overhead of one GPU against grid.sync of another: {v} ({why}), "
           f"expected not measured (no figure pair of one GPU)", rep)
    gpu, v, why = verdict(rep, GRID_CLAIM, "H200")
    expect(v == "confirmed" and "GPU-cccc3333" in gpu,
           f"H200 both sides on GPU-cccc3333: {v} ({why}) in column {gpu!r}, expected "
           f"confirmed and the GPU named", rep)


def test_no_uuids():
    rows = [dict(row(H100, "", "r1", method="gpu.block.syncthreads", metric="latency_cycles",
                     unit="cycles", config=f"blocks_per_sm=1 threads_per_block={t}", value=v),
                 schema_version="2") for t, v in ((32, 14.2), (1024, 76.1))]
    rep = page(rows)
    _, v, why = verdict(rep, BLOCK_CLAIM, "H100")
    expect(v == "not measured" and why.startswith("not measured on one machine: only rows "
                                                  "without GPU UUIDs"),
           f"block sync from rows without GPU UUIDs: {v} ({why}), expected not measured, "
           f"saying that only rows without UUIDs hold the figures", rep)
    expect("without GPU UUIDs" in rep.stdout, "the page says rows without UUIDs were left out",
           rep)


def test_study_rule():
    from tools import findings
    from tools import study_reference
    implicit, grid_sync = study_reference.STUDY_REDUCTION["V100"][:2]

    def fig(value):
        return findings.Fig({"value": str(value), "stddev": "", "cv": "", "note": "",
                             "technique": "host-loop", "status": "ok", "method": "m"})
    ok, what = findings.less(fig(grid_sync), fig(implicit), "grid sync below the boundary")
    expect(ok is not False, f"the study's V100 Table 6 figures ({implicit} against {grid_sync}) "
           f"refuted by the rule: {what}")
    rep = page([launch(H200, "GPU-cccc3333", "r4", 1000)])
    expect("865.4" in rep.stdout and "855.59" in rep.stdout,
           "the page says how the study's own Table 6 figures fare under the rule", rep)


def test_typed_refs():
    from tools import study_reference
    for entry in study_reference.DESIGN_REFERENCE:
        expect(isinstance(entry[-1], str) and not isinstance(entry[-2], str),
               f"DESIGN_REFERENCE entry {entry[0]!r} holds a typed-in figure after its unit")
    ref = study_reference.design_reference_csv()
    expect(os.path.isfile(ref), f"the foundation reference {ref} is a committed CSV")
    rep = subprocess.run([sys.executable, "-m", "tools.report", "foundation",
                          ref], capture_output=True, text=True, timeout=120)
    rows = [ln for ln in rep.stdout.split("\n") if ln.startswith("| `")]
    expect(rep.returncode == 0 and rows and all("(+0.0%)" in ln for ln in rows),
           "the reference run against itself: +0.0% in every row", rep)
    code = ("import json; from tools import compare; "
            "print(json.dumps([compare.default_floors(), compare.measure_floor()[0]]))")
    got = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    expect(got.returncode == 0, "compare.default_floors() exists", got)
    floors, measured = json.loads(got.stdout)
    expect(floors == measured, f"default floors {floors} != measured {measured}")
    with open(os.path.join(ROOT, "tools", "compare.py"), encoding="utf-8") as f:
        expect("0.167" not in f.read(), "compare.py holds no typed-in floor")


def test_newest():
    with tempfile.TemporaryDirectory() as d:
        for sub, value in (("2026-01-01", 3000), ("2026-02-01", 900), ("", 5000)):
            folder = os.path.join(d, "h200", sub)
            os.makedirs(folder, exist_ok=True)
            if sub:
                with open(os.path.join(folder, "machine.txt"), "w") as f:
                    f.write("commit abc\n")
            write_rows(os.path.join(folder, "a.csv"), gbcsv.NAMES,
                       [launch(H200, "GPU-cccc3333", "r" + sub, 1000),
                        grid(H200, "GPU-cccc3333", "r" + sub, value)])
        rep = run_gpubarrier(EXE, "report", "findings", "--newest", d)
        expect(rep.returncode == 0, "report findings --newest exits 0", rep)
        _, v, why = verdict(rep, GRID_CLAIM, "H200")
        expect(v == "refuted" and "h200/2026-02-01/a.csv" in rep.stdout and
               "2026-01-01" not in rep.stdout and "`h200/a.csv`" not in rep.stdout,
               f"--newest reads only the newest dated run folder: {v} ({why})", rep)
        rep = run_gpubarrier(EXE, "report", "findings", os.path.join(d, "h200", "2026-01-01"))
        _, v, why = verdict(rep, GRID_CLAIM, "H200")
        expect(v == "confirmed", f"a run folder named: exactly its rows ({v}, {why})", rep)


def test_rows():
    rep = page([launch(H200, "GPU-cccc3333", "r4", 1000)])
    for claim in ("null kernel", "multi-device launch's overhead", "CPU-side barrier's overhead "
                  "stays flat", "kernel execution", "tile and coalesced", "programming guide",
                  "maximum number of active warps", "up to 2 blocks/SM", "8 blocks",
                  "beats the multi-device launch", "real switch point", "without a barrier",
                  "Eq. 7", "repeat count", "multi-grid group", "CPU-side barrier's overhead by "
                  "Eq. 6"):
        hit = [ln for ln in rep.stdout.split("\n")
               if ln.startswith("| ") and claim in ln.split("|")[1]]
        expect(hit, f"a row for the study's conclusion {claim!r}", rep)
        expect('"' in hit[0], f"the row for {claim!r} quotes the study", rep)

#!/usr/bin/env python3
"""What a findings verdict may rest on (gpubarrier_tools/analysis/findings.py), case by case:

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
                study that FINDINGS lists, and quotes the study for each;
  zero          an Eq. 6 figure whose 95% interval includes zero but is narrower than the figure
                it would resolve is a measurement ("no overhead left, within +-X ns"), a wider
                one stays unresolved; the overhead over the shorter kernel's length has a row,
                the "settles from 5 µs" row is refuted by a fall to zero, and every row with an
                Eq. 6 figure names the kernel length it used;
  not_timed     a converged warp-sync chain that compiles to no WARPSYNC gives "not measured",
                never "noisy"; the diverged variants answer instead where measured, saying so;
  clean         clean figures settle a row although another figure is excluded, naming it;
                noisy figures take part with their error, and a check they decide stands;
  gpu_spread    where the GPUs of one machine measured a figure apart by more than the margin,
                a verdict from one of them is inconclusive and names the spread;
  extension     a row that is no conclusion of the study is inconclusive at most;
  magnitude     "slightly" is tested, not only the direction, and the row names the word;
  margin_basis  the margin uses standard errors where the figure is a mean of samples, the
                run-to-run floor where larger, and each row says which;
  no_reference  __syncthreads against the guide, which gives no cc 9.0 figure: "no reference";
  steps         a pair of consecutive cold reduction sizes whose extra bytes were read faster than
                the DRAM peak (gpubarrier_tools/data/bounds.py) is left out of the reduction rows, and named;
  eq6_plot      the plots (and so the HTML page) hold Eq. 6 against the kernel length per GPU,
                the narrow zeros drawn;
  tables        the study-tables block flags a figure that times nothing instead of printing it,
                and names each CSV by a path that exists from the folder read;
  new_run       one run of the shape the verdict sweep writes (Eq. 6 over 1-200 µs kernels with
                the short ones skipped, CUDA's grid sync killed at its deadline, the unrolled
                repeat-count chain, grid sync at three repeat pairs, refused cooperative
                launches, the selfcheck chains) gives each of those rows a verdict;
  real_sync     the partial-grid row needs CUDA's own grid sync (killed at its deadline), the
                repeat-count row a fully unrolled chain: without them "not measured".

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
from gpubarrier_tools.data import gbcsv
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


def row_cells(rep, claim, gpu):
    """The cells of the claim's row for `gpu` in `report findings`' output."""
    lines = rep.stdout.split("\n")
    at = next((i for i, ln in enumerate(lines) if claim in ln), None)
    expect(at is not None, f"a row for {claim!r}", rep)
    for ln in lines[at:at + 2]:
        cells = [c.strip() for c in ln.split("|")]
        if cells[3].startswith(gpu):
            return cells
    expect(False, f"no {gpu} row for {claim!r}", rep)


def verdict(rep, claim, gpu):
    cells = row_cells(rep, claim, gpu)
    return cells[3], cells[5].strip("*"), cells[6]


def hopper(rep, claim, gpu):
    """The Hopper figures cell of the claim's row for `gpu`."""
    return row_cells(rep, claim, gpu)[4]


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
    from gpubarrier_tools.analysis import findings
    from gpubarrier_tools.data import study_reference
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
    from gpubarrier_tools.data import study_reference
    for entry in study_reference.DESIGN_REFERENCE:
        expect(isinstance(entry[-1], str) and not isinstance(entry[-2], str),
               f"DESIGN_REFERENCE entry {entry[0]!r} holds a typed-in figure after its unit")
    ref = study_reference.design_reference_csv()
    expect(os.path.isfile(ref), f"the foundation reference {ref} is a committed CSV")
    rep = subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.report", "foundation",
                          ref], capture_output=True, text=True, timeout=120)
    rows = [ln for ln in rep.stdout.split("\n") if ln.startswith("| `")]
    expect(rep.returncode == 0 and rows and all("(+0.0%)" in ln for ln in rows),
           "the reference run against itself: +0.0% in every row", rep)
    code = ("import json; from gpubarrier_tools.cli import compare; "
            "print(json.dumps([compare.default_floors(), compare.measure_floor()[0]]))")
    got = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    expect(got.returncode == 0, "compare.default_floors() exists", got)
    floors, measured = json.loads(got.stdout)
    expect(floors == measured, f"default floors {floors} != measured {measured}")
    with open(os.path.join(ROOT, "gpubarrier_tools", "cli", "compare.py"), encoding="utf-8") as f:
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


def test_more_rows():
    """Every further conclusion (the predictions of section 7.2, Tables 2, 3 and 6, Eq. 8, the
    repeat counts, the multi-grid step, section 10, the workshop version's findings, 250 µs on
    8 GPUs) has a row on each GPU with a verdict or "not measured" and the reason."""
    from gpubarrier_tools.analysis import findings_more
    rep = page([launch(H200, "GPU-cccc3333", "r4", 1000)])
    for key, section, claim, quote, _, _ in findings_more.ROWS:
        lines = rep.stdout.split("\n")
        at = next((i for i, ln in enumerate(lines) if ln.startswith("| " + claim)), None)
        expect(at is not None, f"a row for {claim!r}", rep)
        for ln in lines[at:at + 2]:
            cells = [c.strip() for c in ln.split("|")]
            expect(cells[5].strip("*") in ("confirmed", "refuted", "inconclusive",
                                           "not measured", "no reference") and cells[6],
                   f"{claim!r}: a verdict and its reason ({cells[5]}, {cells[6]!r})", rep)
    _, v, why = verdict(rep, "about 250 µs on 8 GPUs", "H200")
    expect(v == "not measured" and "8 GPUs" in why, f"250 µs on 8 GPUs: {v} ({why})", rep)


def fusion(model, uuid, run, unit_ns, value, stddev, samples, launch="0",
           method="kernel.fusion", **kw):
    config = (f"blocks_per_sm=1 threads_per_block=128 fusion_i=100 fusion_j=10 "
              f"unit_ns={unit_ns}" + (f" launch={launch}" if launch is not None else ""))
    return row(model, uuid, run, method=method, metric="launch_overhead", technique="fusion",
               config=config, value=value, stddev=stddev, samples=samples,
               cv=abs(stddev / value) if value else "", **kw)


SETTLE_CLAIM = "Eq. 6 needs a kernel execution of about 5 µs"
LENGTH_CLAIM = "Eq. 6's overhead over the shorter kernel's length"


def test_zero():
    u = "GPU-cccc3333"
    rows = [fusion(H200, u, "r1", 500, 1178.5, 47.4, 20),
            fusion(H200, u, "r1", 1000, 1034.6, 54.8, 30),
            fusion(H200, u, "r1", 2000, -4.5, 90.3, 724),    # -11..2 ns: zero, narrow
            fusion(H200, u, "r1", 5000, 2.6, 122.1, 184),    # -15..20 ns
            fusion(H200, u, "r1", 20000, -18.6, 137.5, 46),  # -59..22 ns
            fusion(H200, u, "r1", 1000, 1024.6, 45.3, 20, launch="1"),
            grid(H200, u, "r1", 974),
            dict(grid(H200, u, "r1", 1050), config="blocks_per_sm=2 threads_per_block=128"),
            # H100: one length only, and an interval wider than the overhead it would resolve
            fusion(H100, "GPU-aaaa1111", "r2", 1000, 1031.4, 18.2, 10),
            fusion(H100, "GPU-aaaa1111", "r2", 20000, 40, 3000, 5)]
    rep = page(rows)
    _, v, why = verdict(rep, SETTLE_CLAIM, "H200")
    expect(v == "refuted" and "zero" in why,
           f"H200 Eq. 6 falls from 1.18 µs to zero past 10 µs kernels: {v} ({why}), expected "
           f"refuted (it falls to zero instead of settling)", rep)
    text = hopper(rep, LENGTH_CLAIM, "H200")
    expect(text and "no overhead left, within ±11 ns" in text and "200 µs" in text,
           "a row of the overhead over the kernel length, the narrow zeros as measurements", rep)
    expect("hidden" in text, "the length row says what the figure means (a launch hidden "
           "behind the running kernel)", rep)
    _, v, why = verdict(rep, LENGTH_CLAIM, "H100")
    expect(v == "not measured", f"H100: one resolved length and an interval of ±3 µs: {v} "
           f"({why}), expected not measured (the wide interval stays unresolved)", rep)
    for claim in ("A kernel launch costs about 1 µs", GRID_CLAIM,
                  "Grid sync is acceptable at up to 2 blocks/SM"):
        expect("µs kernels" in hopper(rep, claim, "H200"),
               f"the row {claim!r} names the kernel length of its Eq. 6 figure", rep)


def warp(model, uuid, method, group, value, metric="latency_cycles", note="verified", **kw):
    return row(model, uuid, "r1", method=method, metric=metric, unit="cycles",
               technique="clock", config=f"group_size={group}", value=value, note=note,
               stddev=0.01, samples=20, **kw)


NOT_TIMED = "verified; not timed: compiled to no WARPSYNC on sm_90"
TILE_CLAIM = "Tile-group sync latency does not depend on the group size"


def test_not_timed():
    rows = [warp(H100, "GPU-aaaa1111", "gpu.warp.tile-sync", g, v, note=NOT_TIMED)
            for g, v in ((1, 14.1), (2, 8.6), (32, 1.12))]
    rows += [warp(H200, "GPU-cccc3333", "gpu.warp.tile-sync", g, v, note=NOT_TIMED)
             for g, v in ((1, 14.1), (2, 8.6), (32, 1.12))]
    rows += [warp(H200, "GPU-cccc3333", "gpu.warp.tile-sync-diverged", g, v)
             for g, v in ((2, 2377), (4, 1353), (32, 396))]
    rep = page(rows)
    _, v, why = verdict(rep, TILE_CLAIM, "H100")
    expect(v == "not measured" and "no WARPSYNC" in why and "noisy" not in why,
           f"H100 tile sync that times nothing: {v} ({why}), expected not measured, not noisy",
           rep)
    _, v, why = verdict(rep, TILE_CLAIM, "H200")
    expect(v == "refuted" and "diverged" in why,
           f"H200 with the diverged variant (2377 -> 396 cycles): {v} ({why}), expected refuted "
           f"from the diverged variant, saying so", rep)


def test_clean():
    names = {"serial": 378, "tile-sync": 213, "coalesced-sync": 205, "tile-shuffle": 391,
             "coalesced-shuffle": 214}
    rows = [row(H200, "GPU-cccc3333", "r1", method="gpu.warp.reduce", metric="latency_cycles",
                unit="cycles", technique="clock", config=f"variant={k}", value=v, stddev=0.5,
                samples=20, note=NOT_TIMED if k.endswith("-sync") else "verified")
            for k, v in names.items()]
    rep = page(rows)
    _, v, why = verdict(rep, "A warp sums 32 doubles fastest", "H200")
    expect(v == "refuted" and "left out" in why and "tile sync" in why,
           f"tile shuffle 391 against coalesced shuffle 214 (timed), the not-timed syncs left "
           f"out: {v} ({why}), expected refuted, naming what was left out", rep)


def test_gpu_spread():
    gpus = ["GPU-aaaa1111", "GPU-bbbb2222", "GPU-dddd4444", "GPU-eeee5555"]
    rows = [fusion(H100, u, "r1", 1000, v, 40, 20)
            for u, v in zip(gpus, (1594, 1633, 1032, 1392))]
    rows += [grid(H100, gpus[0], "r2", 1050),
             row(H100, ",".join(gpus), "r3", method="multigpu.device.push", gpu_count=4,
                 gpu_ids="0,1,2,3", config="blocks_per_sm=1 threads_per_block=128",
                 technique="differential", value=3000)]
    rep = page(rows)
    _, v, why = verdict(rep, GRID_CLAIM, "H100")
    expect(v == "inconclusive" and "GPUs" in why,
           f"Eq. 6 of 1032-1633 ns over the machine's 4 GPUs against grid.sync 1050 ns: {v} "
           f"({why}), expected inconclusive, naming the spread between the GPUs", rep)


def test_extension():
    rep = run_gpubarrier(EXE, "report", "findings", os.path.join(ROOT, "results", "h100x2",
                                                                 "2026-11-28"))
    expect(rep.returncode == 0, "report findings on the committed 2 x H100 run exits 0", rep)
    _, v, why = verdict(rep, "predicts where one GPU beats N GPUs", "H100")
    expect(v in ("inconclusive", "not measured") and "extension" in why,
           f"the 1 vs N GPUs model row: {v} ({why}), expected inconclusive at most, marked as "
           f"an extension", rep)


def test_magnitude():
    u = "GPU-aaaa1111,GPU-bbbb2222"
    rows = [row(H100, u, "r1", method=m, gpu_count=2, gpu_ids="0,1", technique="event",
                config=f"gpu_count=2 bytes={256 << 20} cache=1", value=v, stddev=1,
                samples=20)
            for m, v in (("reduction.multi.omp", 72500), ("reduction.multi.multi-grid",
                                                           124700))]
    rep = page(rows)
    _, v, why = verdict(rep, "kernel boundary is slightly faster than the multi-grid", "H100")
    expect(v == "refuted" and '"slightly' in why,
           f"72.5 against 124.7 µs (72% apart): {v} ({why}), expected refuted as worded, naming "
           f"the word tested", rep)


def test_margin_basis():
    u = "GPU-cccc3333"
    # stddevs of 30 cycles over 400 samples: standard errors of 1.5; 2 cycles apart is beyond
    # 2 x (1.5 + 1.5)? no: within; 10 cycles apart is beyond, though within 2 x the stddevs
    rows = [row(H200, u, "r1", method="gpu.block.syncthreads", metric="latency_cycles",
                unit="cycles", technique="clock",
                config=f"blocks_per_sm=1 threads_per_block={t}", value=v, stddev=30,
                samples=400) for t, v in ((32, 70), (1024, 80))]
    rep = page(rows)
    _, v, why = verdict(rep, BLOCK_CLAIM, "H200")
    expect(v == "confirmed" and "standard error" in why,
           f"70 against 80 cycles, standard errors 1.9: {v} ({why}), expected confirmed by "
           f"the standard errors, saying so", rep)


def test_no_reference():
    rows = [row(H200, "GPU-cccc3333", "r1", method="gpu.block.syncthreads",
                metric="throughput_cycles", unit="warp-syncs/cycle/SM", technique="clock",
                config="blocks_per_sm=2 threads_per_block=512", value=0.5)]
    rep = page(rows)
    _, v, why = verdict(rep, "__syncthreads throughput is close", "H200")
    expect(v == "no reference" and "9.0" in why,
           f"the guide gives no cc 9.0 figure: {v} ({why}), expected no reference", rep)


def test_real_sync():
    u = "GPU-cccc3333"

    def partial(barrier, missing, status, metric="check_never_arrived", value=0):
        return row(H200, u, "p1", method="pitfall.grid.partial-sync", metric=metric,
                   unit="blocks" if metric else "", technique="check" if metric else "",
                   value=value, status=status,
                   config=f"barrier={barrier} missing={missing} blocks_per_sm=1 "
                          f"threads_per_block=128")

    def repeats(method, variant, n, value):
        return row(H200, u, "p2", method=method, metric="latency_cycles", unit="cycles",
                   technique="clock", value=value, stddev=0.1, samples=20,
                   config=f"variant={variant} group_size=32 repeats={n}")
    soft = [partial("atomic-sense", "none", "ok"),
            partial("atomic-sense", "last-block", "timeout", value=1)]
    loop = [repeats("gpu.warp.repeat-count", v, n, 402 if v == "syncwarp" else 26)
            for v in ("syncwarp", "tile-shuffle") for n in (512, 4096, 65536)]
    rep = page(soft + loop)
    _, v, why = verdict(rep, "A grid sync reached by only part of the grid", "H200")
    expect(v == "not measured" and "this_grid().sync()" in why,
           f"software barriers alone: {v} ({why}), expected not measured", rep)
    _, v, why = verdict(rep, "latency can jump with the repeat count", "H200")
    expect(v == "not measured" and "unrolled" in why,
           f"a loop of 32 unrolled only: {v} ({why}), expected not measured", rep)
    real = [partial("grid-sync", "none", "ok"), partial("grid-sync", "last-block", "timeout",
                                                        metric="", value="")]
    unrolled = [repeats("gpu.warp.repeat-count-unrolled", "syncwarp-mask", n, v)
                for n, v in ((64, 400), (512, 402), (1024, 610))]
    unrolled += [repeats("gpu.warp.repeat-count-unrolled", "tile-shuffle", n, 26)
                 for n in (2048, 16384)]
    rep = page(soft + loop + real + unrolled)
    _, v, why = verdict(rep, "A grid sync reached by only part of the grid", "H200")
    expect(v == "confirmed", f"grid.sync killed at its deadline: {v} ({why})", rep)
    _, v, why = verdict(rep, "latency can jump with the repeat count", "H200")
    expect(v == "confirmed", f"the unrolled sync rises 402 -> 610 cycles: {v} ({why})", rep)


def test_tables():
    with tempfile.TemporaryDirectory() as d:
        folder = os.path.join(d, "h200", "2026-01-01")
        os.makedirs(folder)
        write_rows(os.path.join(folder, "a.csv"), gbcsv.NAMES,
                   [warp(H200, "GPU-cccc3333", "gpu.warp.tile-sync", g, v, note=NOT_TIMED)
                    for g, v in ((1, 14.1), (32, 1.12))] +
                   [warp(H200, "GPU-cccc3333", "gpu.warp.tile-shuffle", g, v)
                    for g, v in ((1, 37.1), (32, 26.0))])
        rep = run_gpubarrier(EXE, "report", "study-tables", d)
        expect(rep.returncode == 0, "report study-tables exits 0", rep)
        tile = next((ln for ln in rep.stdout.split("\n")
                     if ln.startswith("| Tile (every size)") and "H200" in ln), "")
        expect("not timed" in tile and "14.1" not in tile and "1.12" not in tile,
               f"the not-timed tile sync is flagged, its figures left out: {tile!r}", rep)
        rows = [ln.split("|") for ln in rep.stdout.split("\n") if ln.startswith("| ")]
        cited = {c.strip("`") for cells in rows for c in cells[-2].strip().split(", ")
                 if c.startswith("`")}
        expect(cited and all(os.path.isfile(os.path.join(d, c)) for c in cited),
               f"every CSV cited is a path from the folder read: {sorted(cited)}", rep)


def test_eq6_plot():
    u = "GPU-cccc3333"
    rows = [fusion(H200, u, "r1", 500, 1178.5, 47.4, 20),
            fusion(H200, u, "r1", 2000, -4.5, 90.3, 724)]
    with tempfile.TemporaryDirectory() as d:
        write_rows(os.path.join(d, "a.csv"), gbcsv.NAMES, rows)
        out = os.path.join(d, "plots")
        rep = run_gpubarrier(EXE, "plot", os.path.join(d, "a.csv"), "--out", out,
                             "--format", "png")
        expect(rep.returncode == 0 and os.path.isfile(os.path.join(out, "eq6-length.png")),
               "plot draws eq6-length.png from two kernel lengths, one of them a zero", rep)
        from gpubarrier_tools.cli import html_report
        expect("eq6-length" in html_report.CAPTIONS, "the HTML page captions the Eq. 6 plot")


def test_steps():
    u = "GPU-cccc3333"

    def red(method, mib, ns, extra=""):
        return row(H200, u, "r1", method=method, technique="event", value=ns, stddev=1,
                   samples=20, config=f"bytes={mib << 20} cache=0{extra}")
    rows = [red("reduction.single.two-kernel", m, t) for m, t in ((16, 10000), (32, 11000),
                                                                  (64, 25000))]
    rows += [red("reduction.single.grid-sync", m, t, " grid=1")
             for m, t in ((16, 10100), (32, 20500), (64, 34000))]
    rep = page(rows)
    _, v, why = verdict(rep, "kernel boundary always beats grid sync", "H200")
    expect("16-32 MiB" in why and "DRAM peak" in why,
           f"two-kernel 16 -> 32 MiB in 1 µs (16.8 TB/s, above the 4.8 TB/s peak): the pair is "
           f"named as left out ({v}: {why})", rep)


def test_new_run():
    u = "GPU-cccc3333"

    def r(**kw):
        return row(H200, u, "v1", **kw)
    rows = []
    for launch_ in ("triple-chevron", "cooperative"):
        for unit in (100, 200, 300):
            rows.append(dict(fusion(H200, u, "v1", unit, 0, 0, 0, launch=launch_),
                             status="skipped", value="", mean="", median="", stddev="",
                             samples="", cv="",
                             note=f"kernels of min(fusion_i, fusion_j) x unit_ns = {10 * unit}"
                                  f" ns are shorter than the 5000 ns Eq. 6 needs"))
        for unit, v, sd, n in ((500, 1178.5, 47.4, 20), (1000, 1034.6, 54.8, 30),
                               (2000, -4.5, 90.3, 724), (20000, -18.6, 137.5, 46)):
            rows.append(fusion(H200, u, "v1", unit, v, sd, n, launch=launch_))
    part = "pitfall.grid.partial-sync"
    for barrier, missing, status in (("atomic-sense", "none", "ok"),
                                     ("atomic-sense", "last-block", "timeout"),
                                     ("grid-sync", "none", "ok"),
                                     ("grid-sync", "last-block", "timeout")):
        lost = barrier == "grid-sync" and status == "timeout"
        rows.append(r(method=part, metric="" if lost else "check_never_arrived",
                      unit="" if lost else "blocks", technique="" if lost else "check",
                      value="" if lost else (1 if status == "timeout" else 0), status=status,
                      config=f"barrier={barrier} missing={missing} blocks_per_sm=1 "
                             f"threads_per_block=128"))
    for variant, counts, values in (("syncwarp-mask", (64, 256, 1024), (400, 405, 640)),
                                    ("tile-shuffle", (2048, 8192, 16384), (26, 26.1, 26.0))):
        rows += [r(method="gpu.warp.repeat-count-unrolled", metric="latency_cycles",
                   unit="cycles", technique="clock", value=v, stddev=0.2, samples=20,
                   config=f"variant={variant} group_size=32 repeats={n}")
                 for n, v in zip(counts, values)]
    rows += [dict(grid(H200, u, "v1", v), reps_lo=lo, reps_hi=hi, samples=20)
             for (lo, hi), v in (((128, 1408), 980), ((512, 5632), 975), ((2048, 22528), 978))]
    rows += [r(method="kernel.launch.cooperative", status="skipped", value="", metric="",
               config=f"blocks_per_sm={b} threads_per_block=1024",
               note=f"cooperative launch: at most 2 blocks/SM of 1024 threads are co-resident; "
                    f"cudaLaunchCooperativeKernel refused a grid of {132 * b} blocks: "
                    f"cudaErrorCooperativeLaunchTooLarge (too many blocks in cooperative launch)")
             for b in (16, 64)]
    rows += [r(method="selfcheck.fadd.loop", metric="cycles_per_add", unit="cycles",
               technique=t, value=v, stddev=sd, samples=20,
               config=f"repeat_difference={d} base_trips=20",
               note="deviation +0.1%; agreement tolerance" if t == "differential" else "")
             for d, sd in ((2048, 1.7), (51200, 0.06)) for t, v in (("clock", 4.04),
                                                                     ("differential", 4.05))]
    rep = page(rows)
    for claim, want in ((SETTLE_CLAIM, "refuted"), (LENGTH_CLAIM, "inconclusive"),
                        ("A grid sync reached by only part of the grid", "confirmed"),
                        ("latency can jump with the repeat count", "confirmed"),
                        ("Block and grid sync do not depend on the repeat count", "confirmed"),
                        ("A cooperative launch rejects", "confirmed"),
                        ("sigma shrinks", "confirmed")):
        _, v, why = verdict(rep, claim, "H200")
        expect(v == want, f"{claim!r} from the new run: {v} ({why}), expected {want}", rep)

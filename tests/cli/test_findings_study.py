#!/usr/bin/env python3
"""The findings rows of the study's conclusions that need their own method or reference
(gpubarrier_tools/analysis/findings.py), each from synthetic rows:

  cpu_overhead   the CPU-side barrier's overhead is the study's quantity, Eq. 6 over the barrier
                 step (kernel.fusion.omp-barrier), set against the multi-grid sync at each GPU
                 count and over GPU counts; with rows of one GPU only the rows say "not measured
                 on one machine" and give the one-GPU figure;
  repeats        a warp sync's latency over the repeat count of a fully unrolled chain
                 (gpu.warp.repeat-count-unrolled, whose code grows with it): a sync that rises
                 beyond its spread confirms the study's instability, the tile shuffle stays flat;
  guide          the programming guide's throughput: the shuffle against its 32 results per clock
                 per SM (the guide's table, quoted with its source); __syncthreads "no reference",
                 since the guide gives no figure for compute capability 9.0;
  partial_multi  a multi-GPU barrier whose last GPU never arrives ends as `timeout` rows (the
                 deadlock of a partial multi-grid group, without a hang), its control ok;
  block_units    block-sync throughput rows are warp syncs per ns already (not to be multiplied by
                 the warps of a block): a best figure below the maximum warps per SM refutes the
                 saturation claim;
  runs_read      the page names the run folders it read and the GPUs (UUIDs) of each;
  closest        a claim no machine holds says what is missing on the machine that found the most
                 of its figures, not on a newer machine that measured something else;
  adds_to        --newest reads a kind's newest run folder with the earlier ones its machine.txt
                 says it adds to (`adds to: DATE`), and no other: a run that measured only what
                 the earlier one lacked keeps the earlier one's figures on the page.

Run by pytest: pytest tests/cli/test_findings_study.py [--gpubarrier PATH]
"""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from gpubarrier_tools.data import gbcsv
from cli_common import executable, expect, run_gpubarrier, synthetic_row, write_rows

EXE = executable()
H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
ONE, TWO, FOUR = "GPU-a1", "GPU-a1,GPU-a2", "GPU-a1,GPU-a2,GPU-a3,GPU-a4"


def row(model, uuids, **kw):
    n = len(uuids.split(","))
    base = {"gpu_model": model, "gpu_uuids": uuids, "gpu_ids": ",".join(map(str, range(n))),
            "gpu_count": n, "host": "vm", "run_id": "r1", "note": "verified", "unit": "ns",
            "metric": "latency", "stddev": "1", "cv": "0.001"}
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def cpu_step(model, uuids, value):
    n = len(uuids.split(","))
    return row(model, uuids, method="kernel.fusion.omp-barrier", metric="launch_overhead",
               technique="fusion", config=f"gpu_count={n} host_wait=0 unit_ns=1000",
               value=value, stddev="20")


def multi_grid(model, uuids, value):
    n = len(uuids.split(","))
    return row(model, uuids, method="multigpu.cg.multi-grid", technique="differential",
               config=f"gpu_count={n} blocks_per_sm=1 threads_per_block=1024", value=value)


def page(rows, kinds=None):
    """The findings page of `rows` (one CSV), or of {kind folder: rows} with --newest."""
    with tempfile.TemporaryDirectory() as d:
        if kinds is None:
            write_rows(os.path.join(d, "a.csv"), gbcsv.NAMES, rows)
            rep = run_gpubarrier(EXE, "report", "findings", d)
        else:
            for kind, kind_rows in kinds.items():
                folder = os.path.join(d, kind)
                os.makedirs(folder)
                with open(os.path.join(folder, "machine.txt"), "w") as f:
                    f.write("commit abc\n")
                write_rows(os.path.join(folder, "a.csv"), gbcsv.NAMES, kind_rows)
            rep = run_gpubarrier(EXE, "report", "findings", "--newest", d)
    expect(rep.returncode == 0, "report findings exits 0", rep)
    return rep


def verdict(rep, claim, gpu):
    """(GPU cell, verdict, why) of the claim's row for `gpu`."""
    lines = rep.stdout.split("\n")
    at = next((i for i, ln in enumerate(lines) if ln.startswith("| ") and claim in ln), None)
    expect(at is not None, f"a row for {claim!r}", rep)
    for ln in lines[at:at + 2]:
        cells = [c.strip() for c in ln.split("|")]
        if cells[3].startswith(gpu):
            return cells[3], cells[4], cells[5].strip("*"), cells[6]
    expect(False, f"no {gpu} row for {claim!r}", rep)


CPU_VS_MG = "CPU-side barriers beat the multi-grid sync"
CPU_FLAT = "The CPU-side barrier's overhead stays flat"
REPEATS = "A warp sync's latency can jump with the repeat count"
GUIDE_SHFL = "Shuffle throughput is close to the programming guide's"
GUIDE_BAR = "__syncthreads throughput is close to the programming guide's"
PARTIAL_MG = "A multi-grid sync reached by only part of the multi-grid group deadlocks"
SATURATION = "Block sync throughput per warp is highest once the warps per SM reach"


def test_cpu_overhead():
    rows = [cpu_step(H100, u, v) for u, v in ((ONE, 7000), (TWO, 9000), (FOUR, 9500))]
    rows += [multi_grid(H100, TWO, 20000), multi_grid(H100, FOUR, 24000)]
    rows += [cpu_step(H200, "GPU-b1", 6800), multi_grid(H200, "GPU-b1", 1400)]
    rep = page(rows)
    _, figures, v, why = verdict(rep, CPU_VS_MG, "H100")
    expect(v == "confirmed" and "9 µs" in figures and "Eq. 6" in figures,
           f"H100: the CPU-side step's Eq. 6 overhead against the multi-grid sync at 2 and 4 "
           f"GPUs: {v} ({figures}; {why}), expected confirmed", rep)
    _, figures, v, why = verdict(rep, CPU_FLAT, "H100")
    expect(v == "confirmed", f"H100: 9 and 9.5 µs over 2 and 4 GPUs: {v} ({why})", rep)
    for claim in (CPU_VS_MG, CPU_FLAT):
        _, _, v, why = verdict(rep, claim, "H200")
        expect(v == "not measured" and why.startswith("not measured on one machine") and
               "6.8 µs" in why and "kernel.fusion.omp-barrier" in why,
               f"H200 with one GPU only: {v} ({why}), expected not measured on one machine, "
               f"naming the method and the one-GPU figure", rep)


def test_repeats():
    def rep_row(variant, repeats, value):
        return row(H200, "GPU-b1", method="gpu.warp.repeat-count-unrolled",
                   metric="latency_cycles",
                   unit="cycles", config=f"variant={variant} group_size=32 repeats={repeats}",
                   value=value, stddev="0.5")
    rows = [rep_row(4, r, v) for r, v in ((512, 26.1), (4096, 26.0), (32768, 26.2))]
    rows += [rep_row(2, r, v) for r, v in ((512, 400), (4096, 401), (32768, 900))]
    rows += [rep_row(1, r, v) for r, v in ((512, 402), (4096, 403), (32768, 404))]
    # H100: every sync flat, the shuffle flat: the instability is not seen
    rows += [dict(r, gpu_model=H100, gpu_uuids="GPU-a1")
             for r in rows if "variant=2" not in r["config"]]
    rep = page(rows)
    _, figures, v, why = verdict(rep, REPEATS, "H200")
    expect(v == "confirmed" and "512" in figures,
           f"H200 tile sync 400 -> 900 cycles beyond 512 operations, the shuffle flat: {v} "
           f"({figures}; {why}), expected confirmed", rep)
    _, figures, v, why = verdict(rep, REPEATS, "H100")
    expect(v == "refuted", f"H100 every sync flat from 512 operations: {v} ({why})", rep)


def test_guide():
    def shuffle(k, per_cycle):
        return row(H200, "GPU-b1", method="gpu.warp.tile-shuffle", metric="throughput_cycles",
                   unit="warp-shuffles/cycle/SM", config=f"group_size={k}", value=per_cycle,
                   stddev="0.001")

    def block(threads, per_sm, per_cycle):
        return row(H200, "GPU-b1", method="gpu.block.syncthreads", metric="throughput_cycles",
                   unit="warp-syncs/cycle/SM", value=per_cycle, stddev="0.001",
                   config=f"threads_per_block={threads} blocks_per_sm={per_sm}")
    rows = [shuffle(k, v) for k, v in ((1, 0.37), (32, 0.99))] + [block(1024, 2, 0.4773)]
    rows += [shuffle(32, 0.6) | {"gpu_model": H100, "gpu_uuids": "GPU-a1"}]
    rep = page(rows)
    _, figures, v, why = verdict(rep, GUIDE_SHFL, "H200")
    expect(v == "confirmed" and "31.7" in figures,
           f"H200 tile shuffle 0.99 warp shuffles a cycle (31.7 results) against the guide's 32: "
           f"{v} ({figures}; {why})", rep)
    _, figures, v, why = verdict(rep, GUIDE_SHFL, "H100")
    expect(v == "refuted", f"H100 0.6 x 32 = 19.2 against 32: {v} ({why})", rep)
    _, figures, v, why = verdict(rep, GUIDE_BAR, "H200")
    expect(v == "no reference" and "compute capability 9.0" in why and "16" in why and
           "15.3" in why, f"__syncthreads: the guide has no 9.0 figure, the measured one is "
           f"given: {v} ({why})", rep)
    expect("Programming Guide" in rep.stdout and "Best Practices Guide" in rep.stdout,
           "the guide's figures are quoted with their source", rep)


def test_partial_multi():
    def push(uuids, fault, status, value):
        n = len(uuids.split(","))
        return row(H100, uuids, method="multigpu.device.push", technique="differential",
                   config=f"gpu_count={n} fault={fault} ordering=0 blocks_per_sm=1 "
                   f"threads_per_block=128", status=status, value=value)
    rows = [push(TWO, 0, "ok", 3000), push(TWO, 2, "timeout", ""), push(FOUR, 2, "timeout", "")]
    rows += [row(H200, "GPU-b1", method="gpu.grid.cg", technique="differential",
                 config="blocks_per_sm=1 threads_per_block=128", value=970)]
    rep = page(rows)
    _, figures, v, why = verdict(rep, PARTIAL_MG, "H100")
    expect(v == "confirmed" and "2 of 2" in figures,
           f"H100 the last GPU absent at 2 and 4 GPUs: timeout rows: {v} ({figures}; {why})", rep)
    _, _, v, why = verdict(rep, PARTIAL_MG, "H200")
    expect(v == "not measured" and why.startswith("not measured on one machine"),
           f"H200 one GPU: {v} ({why})", rep)


def test_block_units():
    def block(threads, per_sm, per_ns):
        return row(H200, "GPU-b1", method="gpu.block.syncthreads", metric="throughput",
                   unit="warp-syncs/ns/SM", value=per_ns, stddev="0.0005",
                   config=f"threads_per_block={threads} blocks_per_sm={per_sm}")
    rep = page([block(32, 16, 0.99), block(1024, 2, 0.945)])
    _, figures, v, why = verdict(rep, SATURATION, "H200")
    expect(v == "refuted" and "0.99" in figures and "0.945" in figures,
           f"warp syncs per ns: 0.99 at 16 warps/SM above 0.945 at 64: {v} ({figures}; {why}), "
           f"expected refuted, the rows' own figures", rep)


def test_runs_read():
    rep = page(None, kinds={"h200/2026-12-05": [cpu_step(H200, "GPU-b1d2", 6800)],
                            "h100x2": [cpu_step(H100, TWO, 9000)]})
    line = next((ln for ln in rep.stdout.split("\n") if ln.startswith("Runs read")), "")
    expect("`h200/2026-12-05`: H200 `GPU-b1d2`" in line and
           "`h100x2`: H100 `GPU-a1`, `GPU-a2`" in line,
           f"the page names each run folder and its GPUs: {line!r}", rep)


def test_closest():
    newer = dict(cpu_step(H200, "GPU-new", 6800), timestamp="2026-12-05T00:00:00Z", run_id="r2")
    older = row(H200, "GPU-old", method="kernel.fusion", metric="launch_overhead",
                technique="fusion", config="launch=0", value=1000)
    rep = page([newer, older])
    _, _, v, why = verdict(rep, "A grid sync costs more than a kernel boundary", "H200")
    expect(v == "not measured" and "gpu.grid.cg" in why,
           f"the older machine has the launch overhead, only grid.sync is missing: {why}", rep)


def test_adds_to():
    with tempfile.TemporaryDirectory() as d:
        runs = {"2026-01-01": ("", [cpu_step(H200, "GPU-b1", 9999)]),
                "2026-02-01": ("", [row(H200, "GPU-b1", method="gpu.grid.cg",
                                        technique="differential", value=v,
                                        config=f"blocks_per_sm={b} threads_per_block={t}")
                                    for b, t, v in ((1, 1024, 1000), (8, 128, 2200))]),
                "2026-03-01": ("adds to: 2026-02-01\n", [cpu_step(H200, "GPU-b1", 6800)])}
        for run, (extra, rows) in runs.items():
            folder = os.path.join(d, "h200", run)
            os.makedirs(folder)
            with open(os.path.join(folder, "machine.txt"), "w") as f:
                f.write("commit abc\n" + extra)
            write_rows(os.path.join(folder, "a.csv"), gbcsv.NAMES, rows)
        rep = run_gpubarrier(EXE, "report", "findings", "--newest", d)
    expect(rep.returncode == 0, "report findings --newest exits 0", rep)
    line = next((ln for ln in rep.stdout.split("\n") if ln.startswith("Runs read")), "")
    expect("2026-03-01" in line and "2026-02-01" in line and "2026-01-01" not in line,
           f"the newest run and the one it adds to, not the older one: {line!r}", rep)
    _, _, v, why = verdict(rep, CPU_VS_MG, "H200")
    expect("6.8 µs" in why and "10 µs" not in why, f"the newest run's figure: {why}", rep)
    expect("h200/2026-02-01/a.csv" in rep.stdout, "the earlier run's rows are read", rep)

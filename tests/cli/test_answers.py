#!/usr/bin/env python3
"""`gpubarrier report DIR_OR_CSVS` (no table named) and `report answers` (gpubarrier_tools/analysis/answers.py, issue
28): per machine, level and GPU count the fastest verified barrier, its latency, its ratio to the
same run's composed floor, and each alternative's ratio to it.

Run by pytest: pytest tests/cli/test_answers.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from gpubarrier_tools.data import gbcsv
from cli_common import executable, expect, run_gpubarrier, synthetic_row, write_rows

EXE = executable()
A = "GPU-aaaaaaaa-0000,GPU-aaaaaaaa-0001"
B = "GPU-bbbbbbbb-0000"


def row(**kw):
    base = {"unit": "ns", "metric": "latency", "note": "verified", "gpu_model": "NVIDIA H200",
            "gpu_uuids": A.split(",")[0], "gpu_ids": "0"}
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def cfg(b=1, t=128, **more):
    return " ".join([f"blocks_per_sm={b} threads_per_block={t}"] +
                    [f"{k}={v}" for k, v in more.items()])


def mg(method, value, ordering=0, **kw):
    return row(method=method, level="multi-gpu", gpu_count=2, gpu_ids="0,1", gpu_uuids=A,
               launcher="threads", config=cfg(ordering=ordering, fault=0), value=value, **kw)


OMP_WHY = ("no check that the OpenMP barrier held every thread until the last arrived "
           "(host-only, nothing stamps the threads' arrival)")


def omp(value, group_size=2, metric="loop_latency", note=None, **kw):
    """A host.omp.barrier row as `gpubarrier run` writes it on a machine without GPU: ok, but
    not verified (the OpenMP barrier has no check)."""
    return row(method="host.omp.barrier", level="host", launcher="single", metric=metric,
               value=value, config=f"group_size={group_size}", technique="host-loop",
               gpu_model="", gpu_uuids="", gpu_ids="", gpu_count="0",
               note=f"not verified: {OMP_WHY}; per-thread loop means min 200 ns, max 201 ns"
               if note is None else note, **kw)


def report_of(d, name, rs):
    path = os.path.join(d, name)
    write_rows(path, gbcsv.NAMES, rs)
    return run_gpubarrier(EXE, "report", path)


def check_any_csv(d):
    """Host-only, unverified-only, all-skipped, all-failed and header-only CSVs each report with
    exit 0: an answers table where ok rows exist (unverified ones marked, verified ones first),
    else a line saying that nothing was measured and why."""
    # The quick start's CSV: host.omp.barrier alone, ok but not verified.
    p = report_of(d, "omp.csv", [omp(201), omp(190, metric="latency"), omp(250, group_size=4)])
    expect(p.returncode == 0, "a host-only run whose rows are not verified reports (exit 0)", p)
    lines = p.stdout.splitlines()
    expect("| level | GPUs | fastest (verified first) | latency | latency / floor | "
           "alternatives (latency / fastest) |" in lines,
           "a table with an unverified answer says its column is not all verified", p)
    expect("| host (CPU only) | none | `host.omp.barrier` on 2 threads (not verified) | 201 ns | - | "
           "none measured |" in lines, "the OpenMP barrier's loop figure, marked not verified", p)
    expect(f"Not verified (status ok, no barrier check ran): `host.omp.barrier`: {OMP_WHY}."
           in lines, "the legend names why the row is not verified", p)
    # Verified first: a faster unverified method is an alternative, marked, never the answer;
    # exact status words ("not verified: ..." contains "verified").
    p = report_of(d, "mixed.csv", [
        omp(201),
        row(method="host.sense.barrier", level="host", launcher="single", metric="latency",
            value=300, config="group_size=2", gpu_model="", gpu_uuids="", gpu_ids="",
            gpu_count="0", note="verified"),
        omp(150, group_size=4, note=f"not verified: {OMP_WHY}; noisy: cv 0.4 > 0.25")])
    lines = p.stdout.splitlines()
    expect(p.returncode == 0 and "| host (CPU only) | none | `host.sense.barrier` on 2 threads | 300 ns | "
           "- | `host.omp.barrier` on 2 threads 0.67× (not verified) |" in lines,
           "the verified method answers; the faster unverified one is a marked alternative "
           "(its row that is not noisy)", p)
    expect("| level | GPUs | fastest verified | latency | latency / floor | "
           "alternatives (latency / fastest) |" in lines,
           "every answer verified: the header says so", p)
    p = report_of(d, "noisy.csv", [omp(150, note=f"not verified: {OMP_WHY}; noisy: cv 0.4 > 0.25")])
    expect(p.returncode == 0 and "| host (CPU only) | none | `host.omp.barrier` on 2 threads (not verified, "
           "noisy) | 150 ns | - | none measured |" in p.stdout.splitlines(),
           "an answer from a noisy row says so", p)
    # A single-GPU run whose rows are all ok but not verified (no peer access, say).
    p = report_of(d, "gpu.csv", [row(method="gpu.grid.cg", level="grid", config=cfg(),
                                     value=1000, note="not verified: the check could not run")])
    expect(p.returncode == 0 and "| grid | 1 | `gpu.grid.cg` (not verified) | 1 µs | - | "
           "none measured |" in p.stdout.splitlines(), "a single-GPU unverified answer", p)
    # A GPU-only run on a machine without GPU: every row skipped. Nothing measured, and why.
    why = "no CUDA device is visible (cudaGetDeviceCount: no CUDA-capable device is detected)"
    skipped = [row(method=m, level="grid", config=cfg(), value="", status="skipped", note=why,
                   gpu_model="", gpu_uuids="", gpu_ids="", gpu_count="1")
               for m in ("gpu.grid.cg", "gpu.grid.atomic-sense")]
    p = report_of(d, "skipped.csv", skipped)
    expect(p.returncode == 0 and "Traceback" not in p.stderr,
           "an all-skipped CSV reports (exit 0)", p)
    expect(f"Nothing measured: 2 rows skipped (2 × {why})." in p.stdout.splitlines(),
           "an all-skipped CSV says nothing was measured and why", p)
    # Failed and unverified (the barrier check failed) rows answer nothing, and say why.
    p = report_of(d, "bad.csv", [
        row(method="gpu.grid.cg", level="grid", config=cfg(), value=900, status="unverified",
            note="barrier check failed: 3 stale stamps"),
        row(method="gpu.grid.atomic-sense", level="grid", config=cfg(), value="",
            status="failed", note="cudaErrorLaunchFailure")])
    expect(p.returncode == 0 and "Nothing measured: 1 row failed (1 × cudaErrorLaunchFailure); "
           "1 row unverified (1 × barrier check failed: 3 stale stamps)." in p.stdout.splitlines(),
           "failed and unverified rows: nothing measured, and why", p)
    # Ok rows that time no barrier (a reduction): no answer, said so.
    p = report_of(d, "reduction.csv", [row(method="reduction.grid.cg", level="grid",
                                           config=cfg(), value=5000, metric="bandwidth",
                                           unit="GB/s")])
    expect(p.returncode == 0 and "No barrier latency to answer with: 1 row ok, none a barrier's "
           "latency (`reduction.grid.cg`)." in p.stdout.splitlines(), "ok rows of no barrier", p)
    # The header alone (a run stopped before its first point).
    p = report_of(d, "empty.csv", [])
    expect(p.returncode == 0 and "No rows in" in p.stdout and "nothing was measured" in p.stdout,
           "a CSV of its header alone", p)


def test_answers_name_their_team(tmp_path):
    # A host-only answer is a figure of some number of threads or ranks: the table says which,
    # for the answer and each alternative (the same CSV may hold 16 threads at 61.6 µs).
    d = str(tmp_path)
    mpi = row(method="host.mpi.barrier", level="host", launcher="mpi", metric="loop_latency",
              value=900, config="", technique="host-loop", gpu_model="", gpu_uuids="",
              gpu_ids="", gpu_count="0", ranks="4", nodes="2",
              note="not verified: MPI_Barrier has no check")
    p = report_of(d, "team.csv", [
        omp(294), omp(61600, group_size=16, note=f"not verified: {OMP_WHY}; noisy: threads had "
                                                 "9% of a CPU each"), mpi])
    lines = p.stdout.splitlines()
    expect(p.returncode == 0 and "| host (CPU only) | none | `host.omp.barrier` on 2 threads (not "
           "verified) | 294 ns | - | `host.mpi.barrier [mpi]` on 4 ranks on 2 nodes 3.06× (not "
           "verified) |" in lines, "the answer and its alternative name threads, ranks, nodes", p)
    # GPU-level answers: their GPUs column is their team; nodes where there are several.
    p = report_of(d, "nodes.csv", [
        mg("multigpu.device.push", 2500, nodes="1"),
        row(method="multinode.hierarchical", level="multi-node", gpu_count=2, gpu_ids="0,1",
            gpu_uuids=A, launcher="mpi", ranks="2", nodes="2", config=cfg(network=0),
            value=9000)])
    lines = p.stdout.splitlines()
    expect(any(l.startswith("| multi-GPU device-side | 2 | `multigpu.device.push` | ")
               for l in lines), "a one-node GPU answer: no team words", p)
    expect(any(l.startswith("| multi-node | 2 | `multinode.hierarchical [mpi]` on 2 nodes | ")
               for l in lines), "a run on several nodes says how many", p)


rows = [
    # machine A (two GPUs, UUIDs overlap: one machine)
    row(method="gpu.warp.syncwarp", level="warp", config=cfg(), value=2.5),
    row(method="gpu.warp.tile-sync", level="warp", config=cfg(), value=2.0,
        note="verified; noisy: cv 0.4 > 0.25"),
    row(method="gpu.block.syncthreads", level="block", config=cfg(), value=9.0),
    # a faster row that is not verified does not answer where a verified one exists
    row(method="gpu.block.cg-sync", level="block", config=cfg(), value=1.0,
        note="not verified: stale stamps"),
    row(method="gpu.block.cg-sync", level="block", config=cfg(), value=4.0, status="unverified",
        note="verified"),
    # cycles without an SM clock stay apart, with one: in ns
    row(method="gpu.cluster.sync", level="cluster", config=cfg(), value=500, unit="cycles",
        metric="latency_cycles"),
    row(method="gpu.grid.cg", level="grid", config=cfg(), value=1000),
    row(method="gpu.grid.cg", level="grid", config=cfg(), value=1010, gpu_ids="1",
        gpu_uuids=A.split(",")[1]),
    # the floor's grid barrier: the cheapest verified one, its slower GPU counting (905); a
    # faster one that is not verified never counts
    row(method="gpu.grid.count-epoch", level="grid", config=cfg(), value=900),
    row(method="gpu.grid.count-epoch", level="grid", config=cfg(), value=905, gpu_ids="1",
        gpu_uuids=A.split(",")[1]),
    row(method="gpu.grid.atomic-sense", level="grid", config=cfg(), value=500,
        note="not verified: stale stamps"),
    row(method="multigpu.floor.signal", level="multi-gpu", gpu_count=2, gpu_ids="0,1",
        gpu_uuids=A, config="ordering=3", metric="one_way_latency", value=1000, note="ok"),
    mg("multigpu.device.push", 2500),
    mg("multigpu.device.central", 5000),
    # one block per GPU, one launch per barrier (launch=1): answered apart, labelled [graph]
    mg("multigpu.device.central", 7500) | {"config": cfg(ordering=0, fault=0, launch=1)},
    mg("multigpu.device.push", 100) | {"config": cfg(ordering=0, fault=1)},  # a fault hook
    row(method="host.nccl.allreduce", level="multi-gpu", gpu_count=2, gpu_ids="0,1",
        gpu_uuids=A, launcher="threads", config="", value=9000),
    # machine B: another GPU of the same host name (another run): its own section
    row(method="gpu.grid.cg", level="grid", config=cfg(), value=700, gpu_uuids=B, run_id="r2"),
]
def test_answers(tmp_path):
    d = str(tmp_path)
    path = os.path.join(d, "rows.csv")
    write_rows(path, gbcsv.NAMES, rows)
    for args in (["report", d], ["report", path], ["report", "answers", path]):
        p = run_gpubarrier(EXE, *args)
        expect(p.returncode == 0, f"gpubarrier {' '.join(args)} exits 0", p)
        out = p.stdout
        lines = out.splitlines()
        expect(lines and lines[0].startswith("### h · NVIDIA H200 · 2 GPUs"),
               "the answers come first, under the machine's heading", p)
        expect(sum(line.startswith("### ") for line in lines) == 2,
               "two machines: GPU UUIDs that never overlap", p)
        expect("| level | GPUs | fastest verified | latency | latency / floor | alternatives "
               "(latency / fastest) |" in lines, "the answers header", p)
        want = [
            "| warp | 1 | `gpu.warp.tile-sync` (noisy) | 2 ns | - | `gpu.warp.syncwarp` 1.25× |",
            # faster but ok and not verified: an alternative, marked; the status `unverified`
            # row (its check failed) is none
            "| block | 1 | `gpu.block.syncthreads` | 9 ns | - | `gpu.block.cg-sync` 0.11× "
            "(not verified) |",
            "| cluster | 1 | `gpu.cluster.sync` | 500 cycles | - | none measured |",
            # floor: the slower count-epoch (905) + the release/acquire signal (1000), named
            "| multi-GPU device-side | 2 | `multigpu.device.push` | 2.5 µs | "
            "1.31 (`gpu.grid.count-epoch` + signal) | "
            "`multigpu.device.central` 2.00×, `multigpu.device.central [graph]` 3.00× |",
            "| multi-GPU host-side | 2 | `host.nccl.allreduce` | 9 µs | - | none measured |",
            "| grid | 1 | `gpu.grid.cg` | 700 ns | - | none measured |",
        ]
        for w in want:
            expect(w in lines, f"the row {w}", p)
    # A report of any CSV gpubarrier wrote exits 0 and says what it found.
    check_any_csv(d)
    # Not a table name and not a path: the usual refusal, naming answers among the tables.
    p = run_gpubarrier(EXE, "report", "answer")
    expect(p.returncode == 2 and "answers" in p.stderr, "a misspelt table is refused", p)
    p = run_gpubarrier(EXE, "report", os.path.join(d, "missing"))
    expect(p.returncode == 2 and "no such file or directory" in p.stderr,
           "a missing folder is named", p)
    # A committed folder: its answers name the multi-GPU barriers with a floor ratio.
    p = run_gpubarrier(EXE, "report", os.path.join(ROOT, "results", "h100x4"))
    expect(p.returncode == 0 and "| multi-GPU device-side | 4 | `multigpu.device.push` |"
           in p.stdout, "results/h100x4's answers", p)

#!/usr/bin/env python3
"""MPI: the real OpenMPI mpirun drives gpubarrier; rank 0 writes the CSV.

Usage: test_mpi.py GPUBARRIER CASE
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

EXE, CASE = sys.argv[1], sys.argv[2]


def case_barrier_two_ranks():
    mpirun = shutil.which("mpirun")
    if not mpirun:
        sys.exit("FAIL: mpirun not found (scripts/setup installs openmpi-bin)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_rmaps_base_oversubscribe="1")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "mpi.csv")
        p = subprocess.run([mpirun, "-np", "2", "--oversubscribe", EXE, "run", "--methods",
                            "host.mpi.barrier", "--out", out, "--samples", "20", "--time-budget", "1"],
                           capture_output=True, text=True, env=env, timeout=300)
        if p.returncode != 0:
            sys.exit(f"FAIL: mpirun exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        if len(rows) != 2:
            sys.exit(f"FAIL: expected two rows (rank 0 writes loop_latency and latency), got {len(rows)}")
        for r in rows:
            checks = [r["method"] == "host.mpi.barrier", r["status"] == "ok", r["ranks"] == "2",
                      r["launcher"] == "mpi", float(r["value"]) > 0, int(r["samples"]) >= 20,
                      r["technique"] == "host-loop", r["mpi"].startswith("Open MPI"),
                      # MPI_Barrier has no wait check: the row says so and stays ok
                      r["note"].startswith("not verified: ")]
            if not all(checks):
                sys.exit(f"FAIL: row {r}")
        loop, step = rows
        # The headline first: osu_barrier's convention (each rank's loop mean, averaged over ranks)
        if (loop["metric"], loop["unit"], loop["statistic"]) != ("loop_latency", "ns",
                                                                 "loop-mean-avg-ranks"):
            sys.exit(f"FAIL: first row is not the loop_latency headline: {loop}")
        if int(loop["reps_hi"]) < 20 or "per-rank loop means min" not in loop["note"]:
            sys.exit(f"FAIL: loop row without steps per loop or per-rank min/max: {loop}")
        if (step["metric"], step["statistic"]) != ("latency", "median"):
            sys.exit(f"FAIL: second row is not the per-step median: {step}")
        # A loop of barriers costs what its steps cost: the typical loop (median over loops) within
        # a sane factor of the per-step median; the mean over loops too, unless preemption pulled
        # it and the row says it is noisy.
        per_step, loop_median = float(step["median"]), float(loop["median"])
        if not 0.2 * per_step <= loop_median <= 5 * per_step:
            sys.exit(f"FAIL: loop median {loop_median} ns vs per-step median {per_step} ns")
        if float(loop["value"]) > 20 * per_step and "noisy:" not in loop["note"]:
            sys.exit(f"FAIL: loop mean {loop['value']} ns >> per-step {per_step} ns, not noisy")
        print(f"PASS: MPI_Barrier 2 ranks loop mean {float(loop['value']):.0f} ns "
              f"(median loop {loop_median:.0f}), per-step median {per_step:.0f} ns")


globals()["case_" + CASE]()

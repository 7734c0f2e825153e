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
        if len(rows) != 1:
            sys.exit(f"FAIL: expected one row (rank 0 writes), got {len(rows)}")
        r = rows[0]
        checks = [r["method"] == "host.mpi.barrier", r["status"] == "ok", r["ranks"] == "2",
                  r["launcher"] == "mpi", float(r["value"]) > 0, int(r["samples"]) >= 20,
                  r["technique"] == "host-loop", r["mpi"].startswith("Open MPI")]
        if not all(checks):
            sys.exit(f"FAIL: row {r}")
        print(f"PASS: MPI_Barrier 2 ranks median {float(r['value']):.0f} ns")


globals()["case_" + CASE]()

"""Helpers shared by the test scripts that drive the real executable on a GPU machine
(tests/gpu/*.py, tests/mpi/test_mpi_gpu.py): GPU count, one run into a temporary CSV, the
failure report, NCCL's refusals."""
import csv
import os
import subprocess
import sys
import tempfile

NCCL_LSA = "multigpu.nccl.lsa"


def gpu_count():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    except FileNotFoundError:
        return 0
    if p.returncode != 0:
        return 0
    return sum(1 for line in p.stdout.splitlines() if line.startswith("GPU "))


def has_gpu():
    return gpu_count() > 0


def rows_of(cmd, env=None, timeout=900):
    """Runs `cmd` (a gpubarrier run or sweep command line, possibly under mpirun) with --out into
    a temporary CSV and returns its rows; a non-zero exit fails the test with the output."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "rows.csv")
        p = subprocess.run([*cmd, "--out", out], capture_output=True, text=True, env=env,
                           timeout=timeout)
        if p.returncode != 0:
            sys.exit(f"FAIL: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        with open(out, newline="") as f:
            return list(csv.DictReader(f))


def fail(why, rows):
    sys.exit("FAIL: " + why + "\n" + "\n".join(str(r) for r in rows))


def without_nccl_refusals(rows):
    """NCCL may refuse device communicators here (e.g. no symmetric memory support, or one GPU
    alone): then multigpu.nccl.lsa must say so in skipped rows, which are shown and set aside."""
    refused = [r for r in rows if r["method"] == NCCL_LSA and r["status"] == "skipped"
               and ("ncclDevCommCreate" in r["note"] or "LSA team" in r["note"])]
    for r in refused:
        print("NOTE:", NCCL_LSA, r["config"], "skipped:", r["note"])
    return [r for r in rows if r not in refused]

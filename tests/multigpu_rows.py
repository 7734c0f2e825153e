"""Helpers shared by the multi-GPU test scripts (tests/gpu/test_multigpu.py for threads mode,
tests/mpi/test_mpi_gpu.py for mpi mode): GPU count, failure report, NCCL's refusals."""
import subprocess
import sys

NCCL_LSA = "multigpu.nccl.lsa"


def gpu_count():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    except FileNotFoundError:
        return 0
    if p.returncode != 0:
        return 0
    return sum(1 for line in p.stdout.splitlines() if line.startswith("GPU "))


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

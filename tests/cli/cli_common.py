"""What the CLI tests share: running gpubarrier as a plain process (never as an MPI rank), failing
with the command's output, reading a CSV."""
import csv
import os
import subprocess
import sys

# Variables that make gpubarrier believe it is a rank of an mpirun/srun launch.
LAUNCH_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID")


def clean_env(extra=None, drop=()):
    env = dict(os.environ, **(extra or {}))
    for var in LAUNCH_VARS + tuple(drop):
        env.pop(var, None)
    return env


def run_gpubarrier(exe, *args, env=None, drop=(), timeout=300, cwd=None):
    return subprocess.run([exe, *args], capture_output=True, text=True,
                          env=clean_env(env, drop), timeout=timeout, cwd=cwd)


def expect(cond, what, proc=None, tail=None):
    """Fails the test with `what` and, given a finished process, its output (stdout's last `tail`
    characters when set)."""
    if not cond:
        out = proc.stdout[-tail:] if proc and tail else proc.stdout if proc else ""
        detail = f"\nstdout:\n{out}\nstderr:\n{proc.stderr}" if proc else ""
        sys.exit(f"FAIL: {what}{detail}")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))

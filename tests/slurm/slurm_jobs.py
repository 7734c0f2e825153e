"""Helpers of the `slurm` tests: reach the local cluster of scripts/slurm-local, submit a batch
job and wait for it by polling `scontrol show job` (the test cluster keeps no accounting, so
there is no sacct)."""
import os
import re
import subprocess
import tempfile
import time

import pytest

FINISHED = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
            "PREEMPTED", "BOOT_FAIL", "DEADLINE"}


def require_cluster():
    """Skips the test, with the reason, when the cluster of the ctest fixture `slurm` is not up
    (tests/slurm/conftest.py asks before every test here)."""
    conf = os.environ.get("SLURM_CONF", "")
    if not os.path.isfile(conf):
        pytest.skip(f"no local Slurm ({conf or 'SLURM_CONF unset'}); slurm.start did not start it")
    p = subprocess.run(["scontrol", "ping"], capture_output=True, text=True)
    if p.returncode != 0 or "UP" not in p.stdout:
        pytest.skip(f"slurmctld does not answer: {p.stdout}{p.stderr}")


def submit(args, env=None):
    """sbatch --parsable ARGS; returns the job id."""
    p = subprocess.run(["sbatch", "--parsable", *args], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        pytest.fail(f"sbatch {' '.join(args)}: {p.stderr}")
    return p.stdout.strip().split(";")[0]


def wait(job, timeout):
    """Polls the job until it has finished; returns its final state. Cancels it and fails the
    test on timeout, so that no job outlives the test."""
    deadline = time.monotonic() + timeout
    state = "UNKNOWN"
    while time.monotonic() < deadline:
        p = subprocess.run(["scontrol", "show", "job", job], capture_output=True, text=True)
        match = re.search(r"JobState=(\S+)", p.stdout)
        state = match.group(1) if match else state
        if state in FINISHED:
            return state
        time.sleep(0.5)
    subprocess.run(["scancel", job])
    pytest.fail(f"job {job} still {state} after {timeout} s (cancelled)")


def run_job(args, timeout=120, env=None):
    """Submits, waits, and returns (final state, the job's output)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "job.out")
        state = wait(submit([f"--output={out}", *args], env=env), timeout)
        if not os.path.exists(out):
            return state, ""
        with open(out) as f:
            return state, f.read()

#!/usr/bin/env python3
"""A generated job near its time limit requeues itself and resumes (scripts/slurm-local cluster).

The job's first step has written its point and the second step has started measuring (its CSV
exists: srun has launched its ranks) when the test sends the batch shell the signal Slurm would
send before the time limit (`scancel -b --signal=USR1`, as --signal=B:USR1@... does). The trap
requeues the job (Restarts=1), which kills the second step mid-point; the steps resume their
CSVs, and the merged CSV holds every point exactly once, from both runs. (A signal at the very
moment srun launches a step made the local cluster's PMIx fail that step on restart once under
load; the test waits past that window, and a failure lists the results folder.)

Run by pytest: pytest tests/slurm/test_jobs_requeue.py (on the cluster of the ctest fixture slurm)
"""
import csv
import os
import re
import subprocess
import time

import pytest

from cli_common import executable
from slurm import slurm_jobs

HERE = os.path.dirname(os.path.abspath(__file__))
EXE = executable()
JOBS = []  # the test's job ids, shown with a failure
T0 = time.monotonic()


def fail(what, out=None):
    text = f"after {time.monotonic() - T0:.0f} s\n"
    for job in JOBS:
        p = subprocess.run(["scontrol", "show", "job", job], capture_output=True, text=True)
        text += f"----- scontrol show job {job}\n{p.stdout}{p.stderr}"
    results = os.path.join(out, "results") if out else ""
    if results and os.path.isdir(results):
        for name in sorted(os.listdir(results)):
            with open(os.path.join(results, name), errors="replace") as f:
                text += f"----- results/{name}\n{f.read()[-2000:]}\n"
    if out and os.path.isdir(os.path.join(out, "logs")):
        for name in sorted(os.listdir(os.path.join(out, "logs"))):
            with open(os.path.join(out, "logs", name)) as f:
                text += f"----- {name}\n{f.read()[-8000:]}\n"
    pytest.fail(f"{what}\n{text}")


def data_rows(path):
    if not os.path.exists(path):
        return 0
    with open(path, newline="") as f:
        return max(0, sum(1 for _ in f) - 1)


def steps_of(job):
    """The job's steps that Slurm still knows (a killed attempt's, while they are torn down)."""
    p = subprocess.run(["squeue", "-h", "-s", "-j", job], capture_output=True, text=True)
    return p.stdout.strip()


def job_field(job, field):
    p = subprocess.run(["scontrol", "show", "job", job], capture_output=True, text=True)
    m = re.search(field + r"=(\S+)", p.stdout)
    return m.group(1) if m else ""


def test_requeue(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "jobs")
    p = subprocess.run([EXE, "jobs", "--system", "local-slurm", "--sweep",
                        os.path.join(HERE, "jobs-requeue.yaml"), "--out", out,
                        "--gpu-counts", "2,3", "--time", "00:10:00"],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail("jobs: " + p.stdout + p.stderr)
    p = subprocess.run(["bash", os.path.join(out, "submit.sh")], capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        fail("submit.sh: " + p.stdout + p.stderr)
    with open(os.path.join(out, "job-ids.txt")) as f:
        job, merge = f.read().split()
    JOBS.extend([job, merge])
    try:
        # The first step (one point of 3 s) has finished, later ones have not.
        first = os.path.join(out, "results", "n1-single.csv")
        deadline = time.monotonic() + 120
        while data_rows(first) < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        if data_rows(first) < 1 or job_field(job, "JobState") != "RUNNING":
            fail(f"job {job} never got through its first step", out)
        second = os.path.join(out, "results", "n1-mpi-r2.csv")
        while not os.path.exists(second) and time.monotonic() < deadline:
            time.sleep(0.2)
        if not os.path.exists(second) or job_field(job, "JobState") != "RUNNING":
            fail(f"job {job} never started its second step", out)
        subprocess.run(["scancel", "-b", "--signal=USR1", job], check=True)
        signalled = time.monotonic()
        deadline = signalled + 60
        while job_field(job, "Restarts") != "1" and time.monotonic() < deadline:
            time.sleep(0.2)
        # The killed attempt's steps take up to srun's 7 s kill wait to go; a restart forced
        # before that failed at once on this cluster (JobState=FAILED, RunTime 0). Then the
        # test need not wait for Slurm's requeue delay (slurm-local: cred_expire=10).
        while (steps_of(job) or time.monotonic() < signalled + 8) and \
                time.monotonic() < deadline:
            time.sleep(0.2)
        subprocess.run(["scontrol", "update", f"JobId={job}", "StartTime=now"],
                       capture_output=True)
        for j in (job, merge):
            state = slurm_jobs.wait(j, 300)
            if state != "COMPLETED":
                fail(f"job {j} ended {state}", out)
    finally:
        subprocess.run(["scancel", job, merge], capture_output=True)
    restarts = job_field(job, "Restarts")
    if restarts != "1":
        fail(f"job {job}: Restarts={restarts}, expected 1 (requeued once)", out)
    log = ""
    for name in os.listdir(os.path.join(out, "logs")):
        with open(os.path.join(out, "logs", name)) as f:
            log += f.read()
    if "requeueing job " + job not in log or "restart 1" not in log:
        fail("the log shows no requeue and restart", out)
    with open(os.path.join(out, "merged.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    points = sorted((r["method"], r["config"], r["ranks"], r["nodes"], r["metric"])
                    for r in rows)
    # Each host point writes loop_latency (the headline) and latency rows.
    expected = sorted(p + (m,) for p in [("host.omp.barrier", "group_size=2", "1", "1"),
                                         ("host.mpi.barrier", "", "2", "1"),
                                         ("host.mpi.barrier", "", "3", "1")]
                      for m in ("loop_latency", "latency"))
    if points != expected:
        fail(f"points {points}, expected each of {expected} exactly once", out)
    runs = {r["run_id"] for r in rows}
    if len(runs) < 2:
        fail(f"every row from one run ({runs}): the requeued job measured everything again",
             out)
    if any(r["status"] != "ok" for r in rows):
        fail(f"rows not ok: {rows}", out)

#!/usr/bin/env python3
"""`gpubarrier jobs` on the real two-node Slurm of scripts/slurm-local (CPU-only methods).

end_to_end  jobs for local-slurm on 1 and 2 nodes and GPU counts 1,2,3 (3 ranks overcommit the
            2 CPUs of a CI node): submit.sh submits them and the merge job, and merged.csv holds
            every point once, in the schema this gpubarrier writes, with the 2-node rows on two
            node names
test_only   `sbatch --test-only` accepts every script generated for local-slurm, for every
            shipped sweep that has something to run there and every layout
lost_point  a rank that dies inside a point of a 2-node step: the job script writes the point's
            timeout row (`gpubarrier lost-point`) and goes on

Run by pytest: pytest tests/slurm/test_jobs_submit.py (on the cluster of the ctest fixture slurm)
"""
import csv
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
import pytest

from cli_common import executable
from slurm import slurm_jobs

EXE = executable()
ROOT = os.path.dirname(os.path.dirname(HERE))
SWEEP = os.path.join(HERE, "jobs-sweep.yaml")


def fail(what, detail=""):
    pytest.fail(f"{what}\n{detail}")


def generate(out, *args):
    p = subprocess.run([EXE, "jobs", "--system", "local-slurm", "--out", out, *args],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    return p


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def own_header(folder):
    """The columns this gpubarrier writes, from a run of its own."""
    path = os.path.join(folder, "own.csv")
    p = subprocess.run([EXE, "run", "--methods", "host.omp.barrier", "--axis", "group_size=2",
                        "--samples", "5", "--time-budget", "0.1", "--out", path],
                       capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail("a local run for the schema", p.stderr)
    with open(path, newline="") as f:
        return next(csv.reader(f))


def logs(out):
    text = ""
    folder = os.path.join(out, "logs")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        with open(os.path.join(folder, name)) as f:
            text += f"----- {name}\n{f.read()[-3000:]}\n"
    return text


def submit(out):
    """Runs submit.sh; returns the job ids (the merge job last)."""
    p = subprocess.run(["bash", os.path.join(out, "submit.sh")], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        fail("submit.sh", p.stdout + p.stderr)
    with open(os.path.join(out, "job-ids.txt")) as f:
        return f.read().split()


def test_end_to_end(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "jobs")
    p = generate(out, "--sweep", SWEEP, "--nodes", "1,2", "--gpu-counts", "1,2,3")
    if p.returncode != 0:
        fail("jobs", p.stdout + p.stderr)
    ids = submit(out)
    try:
        states = [slurm_jobs.wait(job, 300) for job in ids]
    finally:
        subprocess.run(["scancel", *ids], capture_output=True)
    if states != ["COMPLETED"] * len(ids):
        fail(f"jobs ended {states}", logs(out))
    merged = os.path.join(out, "merged.csv")
    if not os.path.exists(merged):
        fail("no merged.csv", logs(out))
    with open(merged, newline="") as f:
        header = next(csv.reader(f))
    if header != own_header(d):
        fail("merged.csv has another schema than this gpubarrier writes", str(header))
    rows = read_csv(merged)
    # One process on one node; MPI ranks per GPU count (1 rank alone is no barrier), on one
    # node and across both.
    expected = {("host.omp.barrier", "1", "1"), ("host.mpi.barrier", "2", "1"),
                ("host.mpi.barrier", "3", "1"), ("host.mpi.barrier", "2", "2"),
                ("host.mpi.barrier", "4", "2"), ("host.mpi.barrier", "6", "2")}
    # Each host point writes loop_latency (the headline) and latency rows.
    expected = {p + (m,) for p in expected for m in ("loop_latency", "latency")}
    got = [(r["method"], r["ranks"], r["nodes"], r["metric"]) for r in rows]
    if sorted(got) != sorted(expected):
        fail(f"points {sorted(got)}, expected each of {sorted(expected)} once", logs(out))
    for r in rows:
        if r["status"] != "ok" or float(r["value"]) <= 0 or r["schema_version"] != rows[0][
                "schema_version"] or r["system"] != "local-slurm" or not r["slurm_job_id"]:
            fail(f"row {r}")
        names = set(r["node"].split(","))
        if r["nodes"] == "2" and names != {"gb-node1", "gb-node2"}:
            fail(f"a 2-node row ran on {r['node']}")
        if r["nodes"] == "1" and len(names) != 1:
            fail(f"a 1-node row ran on {r['node']}")


def test_lost_point(tmp_path):
    """A rank that dies inside a point of a 2-node step (rank 3, on gb-node2, test hook): srun
    ends the step's every rank, the job script writes the point's row with `gpubarrier
    lost-point` (timeout, the step and its status in the note) and goes on; the other step of the
    job measures as usual, and the merge has every point once (a dead node is a row,
    not a gap or a hang)."""
    d = str(tmp_path)
    out = os.path.join(d, "jobs")
    p = generate(out, "--sweep", SWEEP, "--nodes", "2", "--gpu-counts", "1,2")
    if p.returncode != 0:
        fail("jobs", p.stdout + p.stderr)
    env = dict(os.environ, GPUBARRIER_TEST_CRASH="host.mpi.barrier@3")
    p = subprocess.run(["bash", os.path.join(out, "submit.sh")], capture_output=True,
                       text=True, timeout=120, env=env)
    if p.returncode != 0:
        fail("submit.sh", p.stdout + p.stderr)
    with open(os.path.join(out, "job-ids.txt")) as f:
        ids = f.read().split()
    try:
        states = [slurm_jobs.wait(job, 300) for job in ids]
    finally:
        subprocess.run(["scancel", *ids], capture_output=True)
    # The measuring job reports the lost point (FAILED); the merge job still runs.
    if states != ["FAILED", "COMPLETED"]:
        fail(f"jobs ended {states}, expected FAILED (a point was lost) and COMPLETED", logs(out))
    text = logs(out)
    if "lost-point: host.mpi.barrier" not in text or "recorded as timeout" not in text:
        fail("the job log shows no lost-point record", text)
    rows = read_csv(os.path.join(out, "merged.csv"))
    got = sorted((r["ranks"], r["nodes"], r["metric"], r["status"]) for r in rows)
    want = [("2", "2", "latency", "ok"), ("2", "2", "loop_latency", "ok"),
            ("4", "2", "", "timeout")]
    if got != want:
        fail(f"rows {got}, expected {want}", text)
    lost = next(r for r in rows if r["status"] == "timeout")
    if not lost["note"].startswith("lost: ") or "step n2-mpi-r2 of job" not in lost["note"]:
        fail(f"the lost row's note: {lost['note']}")
    if os.path.exists(os.path.join(out, "results", "n2-mpi-r2.csv.inflight")):
        fail("the in-flight mark outlived lost-point")


def test_test_only():
    layouts = [["--nodes", "1,2", "--gpu-counts", "1,2,3"], ["--one-job-per-point", "--gpu-counts", "2"],
               ["--subsets", "best,worst", "--gpu-counts", "1,4"]]
    sweeps = [SWEEP] + sorted(os.path.join(ROOT, "configs", "sweeps", f)
                              for f in os.listdir(os.path.join(ROOT, "configs", "sweeps")))
    tried = 0
    with tempfile.TemporaryDirectory() as d:
        for i, sweep in enumerate(sweeps):
            for j, layout in enumerate(layouts):
                out = os.path.join(d, f"{i}-{j}")
                p = generate(out, "--sweep", sweep, *layout)
                if p.returncode == 2 and "nothing of" in p.stderr:
                    continue  # a GPU-only sweep on fake GPUs: refused, as test_jobs.py checks
                if p.returncode != 0:
                    fail(f"jobs --sweep {sweep} {layout}", p.stdout + p.stderr)
                for script in sorted(f for f in os.listdir(out) if f.endswith(".sbatch")):
                    t = subprocess.run(["sbatch", "--test-only", os.path.join(out, script)],
                                       capture_output=True, text=True, timeout=60)
                    if t.returncode != 0 or "to start at" not in t.stderr:
                        fail(f"sbatch --test-only {script} ({sweep} {layout})",
                             t.stdout + t.stderr)
                    tried += 1
    if tried < 10:
        fail(f"only {tried} scripts tried")

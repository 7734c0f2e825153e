#!/usr/bin/env python3
"""Batch jobs across both nodes of the local cluster (scripts/slurm-local).

node_names   one task runs on each node (told apart by SLURMD_NODENAME, since both "nodes" are
             one host) and each sees the 2 fake gres GPUs it asked for
mpi_barrier  an srun --mpi=pmix step of the real gpubarrier measures host.mpi.barrier over one
             rank per node, and rank 0 writes an ok row for 2 ranks on 2 nodes

Run by pytest: pytest tests/slurm/test_two_nodes.py (on the cluster of the ctest fixture slurm)
"""
import csv
import os
import shlex
import tempfile

import pytest

from cli_common import executable
from slurm import slurm_jobs

EXE = executable()


def test_node_names():
    state, out = slurm_jobs.run_job(
        ["-N2", "--ntasks-per-node=1", "--gres=gpu:2",
         "--wrap", "srun --mpi=pmix bash -c 'echo $SLURMD_NODENAME gpus=$CUDA_VISIBLE_DEVICES'"])
    lines = sorted(line for line in out.splitlines() if line)
    if state != "COMPLETED" or lines != ["gb-node1 gpus=0,1", "gb-node2 gpus=0,1"]:
        pytest.fail(f"job {state}, output:\n{out}")


def test_mpi_barrier():
    if not os.access(EXE, os.X_OK):
        pytest.fail(f"{EXE} is not built")
    # Open MPI's shared-memory transport collides across the two "nodes" of one host.
    env = dict(os.environ, OMPI_MCA_btl="self,tcp", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", NCCL_NVLS_ENABLE="0")
    with tempfile.TemporaryDirectory() as d:
        csv_path = os.path.join(d, "two-nodes.csv")
        step = (f"srun --mpi=pmix {shlex.quote(EXE)} run --methods host.mpi.barrier "
                f"--samples 20 --time-budget 1 --out {shlex.quote(csv_path)}")
        state, out = slurm_jobs.run_job(["-N2", "--ntasks-per-node=1", "--wrap", step],
                                        timeout=300, env=env)
        if state != "COMPLETED" or not os.path.exists(csv_path):
            pytest.fail(f"job {state}, output:\n{out}")
        with open(csv_path, newline="") as f:
            rows = list(csv.DictReader(f))
    # One point: its headline loop_latency row (the reference tools' convention), then the
    # per-step latency row.
    ok = [r for r in rows if r["method"] == "host.mpi.barrier" and r["status"] == "ok"]
    if [r["metric"] for r in ok] != ["loop_latency", "latency"] or any(
            r["ranks"] != "2" or r["nodes"] != "2" or float(r["value"]) <= 0 for r in ok):
        pytest.fail(f"expected one ok point over 2 ranks on 2 nodes, got {rows}\n{out}")

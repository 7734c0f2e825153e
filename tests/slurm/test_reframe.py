#!/usr/bin/env python3
"""gpubarrier's ReFrame checks (reframe/) run by ReFrame on the two-node cluster of
scripts/slurm-local, end to end: sbatch, srun, squeue, the CSV and the references.

host_checks  `reframe --system local-slurm:cpu -r`: HostOmpBarrier (one process with the
             partition's CPUs) and HostMpiBarrier (one rank on each node, srun --mpi=pmix) pass;
             each reports its method's latency, equal to the lowest ok latency row of the CSV it
             kept, within the references of reframe/references/local-slurm.json (its lower bound
             only, where that row is noisy); the MPI CSV says 2 ranks on 2 nodes of one Slurm job. Then a site's own system, added as
             reframe/README.md says (a config file of its own after reframe/config.py): its GPU
             partition's jobs ask Slurm for the GPUs and run the quick and floor sweeps
             (--dry-run: the scripts are written, not submitted).

Run by pytest: pytest tests/slurm/test_reframe.py (on the cluster of the ctest fixture slurm)
"""
import csv
import json
import os
import shutil
import tempfile

import pytest

from cli_common import executable
from reframe_runner import CONFIG, SUITE, cases, require_reframe, run_reframe

EXE = executable()

# A site's system as reframe/README.md describes one, on the local cluster's partition.
SITE = """
site_configuration = {
    'systems': [{
        'name': 'gb-site', 'descr': 'a site system', 'hostnames': [],
        'modules_system': 'nomod',
        'partitions': [{
            'name': 'gpu', 'scheduler': 'squeue', 'launcher': 'srun',
            'access': ['--partition=gpubarrier'], 'environs': ['builtin'],
            'features': ['gpu'], 'extras': {'gpus_per_node': 8},
            'resources': [{'name': '_rfm_gpu', 'options': ['--gres=gpu:{num_gpus_per_node}']}],
            'processor': {'num_cpus': 2},
        }],
    }],
}
"""


def fail(what, p=None):
    pytest.fail(f"{what}" + (f"\nstdout:\n{p.stdout[-6000:]}\nstderr:\n{p.stderr[-3000:]}"
                                if p else ""))


def lowest_latency(path, method):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    ok = [r for r in rows if r["method"] == method and r["metric"] == "latency" and
          r["status"] == "ok"]
    return (min(float(r["value"]) for r in ok) if ok else None), rows


def test_host_checks():
    require_reframe()
    if not os.access(EXE, os.X_OK):
        fail(f"{EXE} is not built")
    with tempfile.TemporaryDirectory(prefix="gb-reframe-slurm-") as work:
        p, report = run_reframe(work, ["--system", "local-slurm:cpu", "-S", f"gpubarrier={EXE}",
                                       "-r"], timeout=540)
        got = cases(report)
        if p.returncode != 0 or sorted(got) != ["HostMpiBarrier", "HostOmpBarrier"] or any(
                c["result"] != "pass" for c in got.values()):
            fail("reframe --system local-slurm:cpu: HostOmpBarrier and HostMpiBarrier pass", p)
        for test, method, csv_name in (("HostOmpBarrier", "host.omp.barrier", "host-omp.csv"),
                                       ("HostMpiBarrier", "host.mpi.barrier", "host-mpi.csv")):
            c = got[test]
            kept = os.path.join(c["outputdir"], csv_name)
            if not os.path.isfile(kept):
                fail(f"{test} keeps its CSV in {kept}", p)
            want, rows = lowest_latency(kept, method)
            key = f"local-slurm:cpu:{method}"
            value = c["perfvalues"].get(key)
            reference = _reference(method)
            if noisy_lowest(rows, method):
                reference[2] = None  # a noisy figure is held to the lower bound only
            # [value, reference, lower, upper, unit, result]
            if want is None or not value or abs(value[0] - want) > 1e-6 * want or \
                    value[1:5] != [*reference, "ns"] or value[5] != "pass":
                fail(f"{test} reports {method} = the CSV's lowest ok latency {want} ns, against "
                     f"local-slurm's reference: {value}", p)
            if not all(r["slurm_job_id"] for r in rows):
                fail(f"{test}'s rows come from a Slurm job: {rows}", p)
            if method == "host.mpi.barrier" and not all(
                    r["ranks"] == "2" and r["nodes"] == "2" for r in rows):
                fail(f"host.mpi.barrier ran over 2 ranks on 2 nodes: {rows}", p)
        script = open(os.path.join(got["HostMpiBarrier"]["outputdir"], "rfm_job.sh")).read()
        if "#SBATCH --ntasks=2" not in script or "#SBATCH --ntasks-per-node=1" not in script \
                or "srun" not in script:
            fail(f"HostMpiBarrier's job asks for 2 tasks, one a node, and srun starts them:\n"
                 f"{script}", p)
        site_system(work)


def noisy_lowest(rows, method):
    """Whether the method's lowest ok latency row is noisy (its note says why)."""
    ok = [r for r in rows if r["method"] == method and r["metric"] == "latency" and
          r["status"] == "ok"]
    return bool(ok) and "noisy: " in min(ok, key=lambda r: float(r["value"]))["note"]


def _reference(method):
    with open(os.path.join(SUITE, "references", "local-slurm.json")) as f:
        return json.load(f)["cpu"][method][:3]


def site_system(work):
    """A site's system, added as reframe/README.md says: the GPU checks' job scripts there."""
    site = os.path.join(work, "site.py")
    with open(site, "w") as f:
        f.write(SITE)
    p, report = run_reframe(work, ["-C", CONFIG, "-C", site, "--system", "gb-site",
                                   "-S", f"gpubarrier={EXE}", "--dry-run"])
    got = cases(report)
    if p.returncode != 0 or sorted(got) != ["FloorSweep", "HostOmpBarrier", "QuickSuite"]:
        fail("a site's GPU partition gets HostOmpBarrier, QuickSuite and FloorSweep (and no MPI "
             "check without the mpi feature)", p)
    for test, sweep in (("QuickSuite", "quick"), ("FloorSweep", "floor")):
        stage = os.path.join(work, "rfm", "stage", "gb-site", "gpu", "builtin", test)
        script = open(os.path.join(stage, "rfm_job.sh")).read()
        for line in ("#SBATCH --gres=gpu:8", "#SBATCH --partition=gpubarrier",
                     "#SBATCH --cpus-per-task=2",
                     f"srun --cpus-per-task=2 {EXE} sweep {sweep} --out {sweep}.csv"):
            if line not in script:
                fail(f"{test}'s job script has `{line}`:\n{script}", p)
    shutil.rmtree(os.path.join(work, "rfm"), ignore_errors=True)


"""The tests on the local two-node Slurm (ctest label slurm): each needs the cluster that the ctest
fixture `slurm` starts (scripts/slurm-local start), and is skipped, saying why, without it; every
test of a run skipped is exit 77, skipped for ctest too (tests/conftest.py)."""
import pytest

from slurm import slurm_jobs


@pytest.fixture(autouse=True)
def cluster():
    slurm_jobs.require_cluster()

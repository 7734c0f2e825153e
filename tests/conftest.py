"""What the Python tests share under pytest (pyproject.toml configures it; ctest runs it on each
test file, tests/CMakeLists.txt):

  gpubarrier   fixture (also `exe`): the executable under test, `--gpubarrier PATH` (ctest passes the one it
               built), else build/gpubarrier of this checkout; a test that needs it fails when
               there is none. Also in GPUBARRIER_EXE, which cli_common.executable() reads for
               the modules' own helpers
  gpus         fixture: the number of GPUs visible (nvidia-smi -L), once per run; a test that
               takes it is skipped ("no GPU visible") when there is none. A test that needs more
               skips itself with its own reason (pytest.skip)
  PYTHONPATH   the source root first, so that a tool a test starts as `python3 -m gpubarrier_tools.cli.NAME`
               is this checkout's, whatever the working directory
  exit 77      when every test of the run was skipped (a GPU test on a machine without GPU),
               pytest exits 77, which ctest reports as skipped (SKIP_RETURN_CODE)
"""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SKIPPED = 77


def pytest_addoption(parser):
    parser.addoption("--gpubarrier", default=os.path.join(ROOT, "build", "gpubarrier"),
                     help="the gpubarrier executable under test (default: build/gpubarrier)")


def pytest_configure(config):
    os.environ["GPUBARRIER_EXE"] = os.path.abspath(config.getoption("--gpubarrier"))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])


@pytest.fixture(scope="session")
def gpubarrier(request):
    path = os.environ["GPUBARRIER_EXE"]
    if not os.access(path, os.X_OK):
        pytest.fail(f"no gpubarrier executable at {path} (build it: scripts/setup; or give "
                    f"--gpubarrier PATH)")
    return path


@pytest.fixture(scope="session")
def exe(gpubarrier):
    """The same executable, under the name of the modules whose own helpers say `gpubarrier`."""
    return gpubarrier


@pytest.fixture(scope="session")
def gpu_count():
    """The GPUs nvidia-smi lists (0 without nvidia-smi)."""
    from gpu_rows import gpu_count as count
    return count()


@pytest.fixture
def gpus(gpu_count):
    """The GPUs visible, for a test that needs one or more: skipped when there is none."""
    if gpu_count == 0:
        pytest.skip("no GPU visible")
    return gpu_count


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    stats = reporter.stats if reporter else {}
    if exitstatus == 0 and stats.get("skipped") and not stats.get("passed"):
        session.exitstatus = SKIPPED

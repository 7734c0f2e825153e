#!/usr/bin/env python3
"""The public barrier headers as users get them: `cmake --install` of the barriers component into
a temporary prefix, then examples/ (copied out of the tree) configured with
find_package(gpubarrier CONFIG) and built against that prefix with the source tree and the build
folder out of reach (an empty tmpfs over each, in a mount namespace of the command's own, as
tests/cli/test_install.py does). test_examples_run (marked gpu) then runs the built examples on
the GPU; they must match their launch-per-iteration references bit for bit.

Run by pytest (`pytest tests/library/test_package.py`; ctest: library.package with -m "not gpu",
gpu.library_examples with -m gpu). The build folder is that of the executable under test
(--gpubarrier); the CUDA compiler GB_TEST_CUDA_COMPILER, which ctest sets to the build's. Skipped:
no mount namespace (needs root or CAP_SYS_ADMIN); the runs also without a GPU or with too few
GPUs (the example's own line says which).
"""
import os
import shutil
import subprocess

import pytest

SKIP = 77
SOURCE = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HIDING = 'for d in $GB_HIDE; do mount -t tmpfs gb-hidden "$d" || exit 97; done; exec "$@"'
# What each run test runs: the GPUs it needs, then (example, arguments); small grids, so that
# it takes seconds.
RUNS = {
    "one_gpu": (1, [("jacobi_grid", ["64", "300"]), ("jacobi_grid", ["1024", "200"]),
                    ("jacobi_multigpu", ["1", "256", "200"])]),
    "two_gpus": (2, [("jacobi_multigpu", ["2", "1024", "200"])]),
}


def fail(what, proc=None):
    detail = ""
    if proc is not None:
        detail = (f"\nexit status {proc.returncode}\n--- stdout ---\n{proc.stdout}\n"
                  f"--- stderr ---\n{proc.stderr}")
    pytest.fail(f"FAILED: {what}{detail}")


@pytest.fixture(scope="module")
def examples(gpubarrier, tmp_path_factory):
    """The examples' build folder, built against the installed prefix alone."""
    build = os.path.realpath(os.path.dirname(gpubarrier))
    hide = [SOURCE] + ([build] if not (build + os.sep).startswith(SOURCE + os.sep) else [])
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace to hide the source tree ({probe.stderr.strip()})")

    work = str(tmp_path_factory.mktemp("gb-library-"))
    prefix = os.path.join(work, "prefix")
    p = subprocess.run(["cmake", "--install", build, "--prefix", prefix, "--component",
                        "barriers"], capture_output=True, text=True)
    if p.returncode != 0:
        fail("cmake --install --component barriers", p)
    for want in ["include/gpubarrier/grid_barrier.cuh", "include/gpubarrier/device_barrier.cuh",
                 "lib/cmake/gpubarrier/gpubarrierConfig.cmake",
                 "lib/cmake/gpubarrier/gpubarrierConfigVersion.cmake",
                 "lib/cmake/gpubarrier/gpubarrierTargets.cmake"]:
        if not os.path.isfile(os.path.join(prefix, want)):
            fail(f"the install holds {want}")
    if os.path.exists(os.path.join(prefix, "bin")):
        fail("the barriers component installs no executable")
    copied = os.path.join(work, "examples")
    shutil.copytree(os.path.join(SOURCE, "examples"), copied)

    env = dict(os.environ, GB_HIDE=" ".join(hide))
    env.pop("CMAKE_PREFIX_PATH", None)

    def hidden(cmd):
        return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                               HIDING, "sh", *cmd], capture_output=True, text=True, cwd=work,
                              env=env, timeout=900)

    out = os.path.join(work, "build")
    configure = ["cmake", "-S", copied, "-B", out, "-G", "Ninja",
                 f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"]
    cuda_compiler = os.environ.get("GB_TEST_CUDA_COMPILER", "")
    if cuda_compiler:
        configure.append(f"-DCMAKE_CUDA_COMPILER={cuda_compiler}")
    p = hidden(configure)
    if p.returncode != 0:
        fail("the examples configure against the installed prefix alone", p)
    p = hidden(["cmake", "--build", out])
    if p.returncode != 0:
        fail("the examples build against the installed prefix alone", p)
    print(f"ok: examples built against {prefix} with {', '.join(hide)} out of reach")
    return out


def test_package(examples):
    assert os.path.isdir(examples)


@pytest.mark.gpu
@pytest.mark.parametrize("run", sorted(RUNS))
def test_examples_run(gpu_count, run, request):
    needs = RUNS[run][0]
    if gpu_count < needs:
        pytest.skip(f"needs {needs} GPU(s), nvidia-smi -L lists {gpu_count}")
    out = request.getfixturevalue("examples")
    skipped = []
    for exe, argv in RUNS[run][1]:
        p = subprocess.run([os.path.join(out, exe), *argv], capture_output=True, text=True,
                           timeout=300)
        print(p.stdout + p.stderr, end="")
        if p.returncode == SKIP:
            skipped.append(f"{exe} {' '.join(argv)}: {(p.stdout + p.stderr).strip()}")
        elif p.returncode != 0:
            fail(f"{exe} {' '.join(argv)}", p)
    if skipped:
        pytest.skip("; ".join(skipped))

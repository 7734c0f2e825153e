#!/usr/bin/env python3
"""The public barrier headers as users get them: `cmake --install` of the barriers component into
a temporary prefix, then examples/ (copied out of the tree) configured with
find_package(gpubarrier CONFIG) and built against that prefix with the source tree and the build
folder out of reach (an empty tmpfs over each, in a mount namespace of the command's own, as
tests/cli/test_install.py does). With --run, the built examples then run on the GPU and must
match their launch-per-iteration references bit for bit.

Usage: test_package.py --build-dir B [--cuda-compiler NVCC] [--run one_gpu|two_gpus]
Exit 0 pass, 1 fail, 77 skip: no mount namespace (needs root or CAP_SYS_ADMIN); with --run, no
GPU or too few GPUs (the example's own line says which).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
SOURCE = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HIDING = 'for d in $GB_HIDE; do mount -t tmpfs gb-hidden "$d" || exit 97; done; exec "$@"'
# What each --run case runs: the GPUs it needs, then (example, arguments); small grids, so that
# it takes seconds.
RUNS = {
    "one_gpu": (1, [("jacobi_grid", ["64", "300"]), ("jacobi_grid", ["1024", "200"]),
                    ("jacobi_multigpu", ["1", "256", "200"])]),
    "two_gpus": (2, [("jacobi_multigpu", ["2", "1024", "200"])]),
}


def fail(what, proc=None):
    print(f"FAILED: {what}")
    if proc is not None:
        print(f"exit status {proc.returncode}\n--- stdout ---\n{proc.stdout}\n"
              f"--- stderr ---\n{proc.stderr}")
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--cuda-compiler", default="")
    ap.add_argument("--run", choices=sorted(RUNS))
    args = ap.parse_args()
    build = os.path.realpath(args.build_dir)
    if args.run:
        probe = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True) \
            if shutil.which("nvidia-smi") else None
        found = probe.stdout.count("GPU ") if probe is not None and probe.returncode == 0 else 0
        needs = RUNS[args.run][0]
        if found < needs:
            print(f"SKIP: needs {needs} GPU(s), nvidia-smi -L lists {found}")
            return SKIP
    hide = [SOURCE] + ([build] if not (build + os.sep).startswith(SOURCE + os.sep) else [])
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"SKIP: no mount namespace to hide the source tree ({probe.stderr.strip()})")
        return SKIP

    with tempfile.TemporaryDirectory(prefix="gb-library-") as work:
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
        examples = os.path.join(work, "examples")
        shutil.copytree(os.path.join(SOURCE, "examples"), examples)

        env = dict(os.environ, GB_HIDE=" ".join(hide))
        env.pop("CMAKE_PREFIX_PATH", None)

        def hidden(cmd):
            return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                                   HIDING, "sh", *cmd], capture_output=True, text=True, cwd=work,
                                  env=env, timeout=900)

        out = os.path.join(work, "build")
        configure = ["cmake", "-S", examples, "-B", out, "-G", "Ninja",
                     f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"]
        if args.cuda_compiler:
            configure.append(f"-DCMAKE_CUDA_COMPILER={args.cuda_compiler}")
        p = hidden(configure)
        if p.returncode != 0:
            fail("the examples configure against the installed prefix alone", p)
        p = hidden(["cmake", "--build", out])
        if p.returncode != 0:
            fail("the examples build against the installed prefix alone", p)
        print(f"ok: examples built against {prefix} with {', '.join(hide)} out of reach")
        if not args.run:
            return 0
        status = 0
        for exe, argv in RUNS[args.run][1]:
            p = subprocess.run([os.path.join(out, exe), *argv], capture_output=True, text=True,
                               timeout=300)
            print(p.stdout + p.stderr, end="")
            if p.returncode == SKIP:
                status = SKIP
            elif p.returncode != 0:
                fail(f"{exe} {' '.join(argv)}", p)
        return status


if __name__ == "__main__":
    sys.exit(main())

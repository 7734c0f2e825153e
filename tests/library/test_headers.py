#!/usr/bin/env python3
"""Every public header (include/gpubarrier/*.cuh) compiles on its own: a translation unit that
includes only it, compiled by nvcc as C++17 against include/ alone (no project folder on the
include path). MPI's adapter gets MPI's include folder.

Usage: test_headers.py --nvcc NVCC [--mpi-include DIR ...]
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys
import tempfile

SOURCE = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--mpi-include", action="append", default=[])
    args = ap.parse_args()
    include = os.path.join(SOURCE, "include")
    headers = sorted(glob.glob(os.path.join(include, "gpubarrier", "**", "*.cuh"), recursive=True))
    if not headers:
        print(f"FAILED: no headers under {include}/gpubarrier")
        return 1
    with tempfile.TemporaryDirectory(prefix="gb-headers-") as work:
        def compile_alone(index_header):
            index, h = index_header
            name = os.path.relpath(h, include)
            tu = os.path.join(work, f"tu{index}.cu")
            with open(tu, "w", encoding="utf-8") as f:
                f.write(f'#include "{name}"\n')
            cmd = [args.nvcc, "-std=c++17", "-arch=sm_90", "-Werror=all-warnings", "-I", include,
                   "-c", tu, "-o", os.path.join(work, f"tu{index}.o")]
            for d in args.mpi_include:
                cmd += ["-I", d]
            return name, subprocess.run(cmd, capture_output=True, text=True)

        # Two at a time: CI has two cores.
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(compile_alone, enumerate(headers)))
    failed = 0
    for name, p in results:
        print(f"{'ok' if p.returncode == 0 else 'FAILED'}: {name}")
        if p.returncode != 0:
            print(p.stdout + p.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The legacy methods (issue 15) as the CLI shows them without a GPU or without the helper:
skipped rows that say why and which build option provides the helper; and the helper itself,
when this build made one (`legacy.helper_runs`). Usage: test_legacy_cli.py GPUBARRIER CASE."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from cli_common import expect, read_csv, run_gpubarrier

EXE = sys.argv[1]
METHODS = ["multigpu.cg.multi-grid", "kernel.fusion.multi-device"]


def case_helper_absent():
    # A copy of gpubarrier in a folder of its own: whatever this build put next to the original,
    # nothing is next to the copy.
    with tempfile.TemporaryDirectory() as d:
        exe = shutil.copy(EXE, os.path.join(d, "gpubarrier"))
        out = os.path.join(d, "l.csv")
        p = run_gpubarrier(exe, "run", "--methods", ",".join(METHODS), "--out", out,
                           drop=("GPUBARRIER_LEGACY_HELPER",))
        expect(p.returncode == 0, "an absent helper is not an error", p)
        rows = read_csv(out)
        expect(sorted(r["method"] for r in rows) == sorted(METHODS), f"one row per method: {rows}")
        for r in rows:
            expect(r["status"] == "skipped", f"skipped: {r}")
            for words in (f"gpubarrier-legacy is not next to gpubarrier ({d}/)",
                          "CUDA 13 removed", "GPUBARRIER_LEGACY=1 scripts/setup",
                          "-DGPUBARRIER_LEGACY_CUDA="):
                expect(words in r["note"], f"the reason names {words!r}: {r['note']}")


def case_helper_not_executable():
    with tempfile.TemporaryDirectory() as d:
        bogus = os.path.join(d, "not-a-helper")
        open(bogus, "w").close()
        out = os.path.join(d, "l.csv")
        p = run_gpubarrier(EXE, "run", "--methods", METHODS[0], "--out", out,
                           env={"GPUBARRIER_LEGACY_HELPER": bogus})
        expect(p.returncode == 0, "exit 0", p)
        r = read_csv(out)[0]
        expect(r["status"] == "skipped" and
               f"GPUBARRIER_LEGACY_HELPER={bogus} is not an executable file" in r["note"],
               f"the variable is named: {r}")


def case_listed():
    p = run_gpubarrier(EXE, "--json", "list")
    expect(p.returncode == 0, "list works", p)
    methods = {m["name"]: m for m in json.loads(p.stdout)}
    for name in METHODS:
        expect(name in methods, f"{name} is listed")
    axes = methods["multigpu.cg.multi-grid"]["axes"]
    expect(axes.get("blocks_per_sm") == [1] and axes.get("threads_per_block") == [128],
           f"multi-grid axes: {axes}")


def case_multi_device_launch_impl():
    # impl 0 (emulated) first, so that rows of earlier CSVs, which had no impl, mean impl=0.
    p = run_gpubarrier(EXE, "--json", "list")
    expect(p.returncode == 0, "list works", p)
    method = next(m for m in json.loads(p.stdout) if m["name"] == "kernel.multi-device-launch")
    expect(method["axes"].get("impl") == [0, 1], f"impl axis 0, 1: {method['axes']}")


def case_helper_runs():
    helper = os.path.join(os.path.dirname(EXE), "gpubarrier-legacy")
    expect(os.access(helper, os.X_OK),
           f"{helper} was not built: cmake --build <build> --target gpubarrier-legacy")
    p = subprocess.run([helper, "--help"], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0 and "check <n> | sync <reps>" in p.stdout, "--help", p)
    p = subprocess.run([helper, "--version"], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0 and "protocol 1, built with CUDA 1" in p.stdout, "--version", p)
    # Malformed requests are refused on one line, before any GPU is touched.
    p = subprocess.run([helper, "--threads", "64"], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 1 and p.stdout.startswith("error --gpus is required"), "no --gpus", p)
    ldd = subprocess.run(["ldd", helper], capture_output=True, text=True)
    expect("libcudart" not in ldd.stdout, f"static cudart (carried to GPU machines as it is):\n"
           f"{ldd.stdout}")


if __name__ == "__main__":
    globals()["case_" + sys.argv[2]]()

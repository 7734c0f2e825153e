#!/usr/bin/env python3
"""tools/plot.py turns a real measured CSV into PNGs (heat map, line plot, summary).

Usage: test_plot.py GPUBARRIER (unused) — runs with an interpreter that has matplotlib.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSV = os.path.join(ROOT, "results", "h200", "foundation-sweep.csv")


def python_with_matplotlib():
    # Debian's python3-matplotlib serves /usr/bin/python3; a pyenv python may lack it.
    for exe in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(exe) and subprocess.run([exe, "-c", "import matplotlib"],
                                                  capture_output=True).returncode == 0:
            return exe
    sys.exit("FAIL: no python3 with matplotlib (scripts/setup installs python3-matplotlib)")


with tempfile.TemporaryDirectory() as d:
    p = subprocess.run([python_with_matplotlib(), os.path.join(ROOT, "tools", "plot.py"), CSV,
                        "--out", d], capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"FAIL: plot.py exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    made = sorted(os.listdir(d))
    want = {"summary.png", "gpu.block.syncthreads.png", "gpu.grid.cg-NVIDIA_H200-heatmap.png"}
    if not want <= set(made):
        sys.exit(f"FAIL: expected {sorted(want)}, got {made}")
    for f in made:
        with open(os.path.join(d, f), "rb") as png:
            if png.read(8) != b"\x89PNG\r\n\x1a\n":
                sys.exit(f"FAIL: {f} is not a PNG")
    if "scaling.png" in made:
        sys.exit("FAIL: a single-GPU CSV must not give scaling.png")
    scaling_csv = os.path.join(ROOT, "results", "h200x4", "multi-gpu-scaling.csv")
    p = subprocess.run([python_with_matplotlib(), os.path.join(ROOT, "tools", "plot.py"),
                        scaling_csv, "--out", os.path.join(d, "x4")], capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0 or "scaling.png" not in os.listdir(os.path.join(d, "x4")):
        sys.exit(f"FAIL: a multi-GPU CSV must give scaling.png\n{p.stdout}\n{p.stderr}")
    p = subprocess.run([python_with_matplotlib(), os.path.join(ROOT, "tools", "plot.py"),
                        os.devnull, "--out", d], capture_output=True, text=True)
    if p.returncode == 0 or "no ok latency rows" not in p.stderr:
        sys.exit(f"FAIL: empty input must fail clearly: {p.stderr}")
print("PASS plot", made)

#!/usr/bin/env python3
"""tools/plot.py turns a real measured CSV into PNGs and SVGs (heat map, line plot, summary).

Usage: test_plot.py GPUBARRIER (unused) — runs with an interpreter that has matplotlib.
"""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from tool_python import python_with_matplotlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSV = os.path.join(ROOT, "results", "h200", "foundation-sweep.csv")
PLOT = ["-m", "tools.plot"]


def plot(*args):
    return subprocess.run([python_with_matplotlib(), *PLOT, *args], capture_output=True,
                          text=True, timeout=300)


def check_files(d, made):
    for f in made:
        path = os.path.join(d, f)
        if f.endswith(".png"):
            with open(path, "rb") as png:
                if png.read(8) != b"\x89PNG\r\n\x1a\n":
                    sys.exit(f"FAIL: {f} is not a PNG")
        elif f.endswith(".svg"):
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError as e:
                sys.exit(f"FAIL: {f} is not valid XML: {e}")
            if not root.tag.endswith("svg"):
                sys.exit(f"FAIL: {f} is not an SVG (root {root.tag})")
        else:
            sys.exit(f"FAIL: unexpected file {f}")
    stems = {f.rsplit(".", 1)[0] for f in made}
    for s in stems:
        if not {s + ".png", s + ".svg"} <= set(made):
            sys.exit(f"FAIL: {s} must come as PNG and SVG by default, got {sorted(made)}")


COMPARE = {"compare-bars", "compare-ratio"}

with tempfile.TemporaryDirectory() as d:
    p = plot(CSV, "--out", d)
    if p.returncode != 0:
        sys.exit(f"FAIL: plot.py exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    made = sorted(os.listdir(d))
    want = {"summary.png", "gpu.block.syncthreads.png", "gpu.grid.cg-NVIDIA_H200-heatmap.png",
            "summary.svg"}
    if not want <= set(made):
        sys.exit(f"FAIL: expected {sorted(want)}, got {made}")
    check_files(d, made)
    if "scaling.png" in made:
        sys.exit("FAIL: a single-GPU CSV must not give scaling.png")
    if any(f.startswith("compare-") for f in made):
        sys.exit(f"FAIL: one machine must not give comparison plots: {made}")

    x4 = os.path.join(d, "x4")
    scaling_csv = os.path.join(ROOT, "results", "h200x4", "multi-gpu-scaling.csv")
    p = plot(scaling_csv, "--out", x4, "--format", "png")
    if p.returncode != 0 or "scaling.png" not in os.listdir(x4):
        sys.exit(f"FAIL: a multi-GPU CSV must give scaling.png\n{p.stdout}\n{p.stderr}")
    if any(f.endswith(".svg") for f in os.listdir(x4)):
        sys.exit("FAIL: --format png must not write SVG")

    # The multi-grid sync swept over GPU count x blocks/SM x threads: one heat map per count.
    grids = os.path.join(d, "grids")
    p = plot(os.path.join(ROOT, "results", "h100x4", "legacy.csv"), "--out", grids, "--format", "png")
    want = {f"multigpu.cg.multi-grid-NVIDIA_H100_80GB_HBM3-heatmap-x{n}.png" for n in (1, 2, 3, 4)}
    if p.returncode != 0 or not want <= set(os.listdir(grids)):
        sys.exit(f"FAIL: one multi-grid heat map per GPU count {sorted(want)}, got "
                 f"{sorted(os.listdir(grids))}\n{p.stdout}\n{p.stderr}")

    # Two machines (H100 and H200): the comparison plots, baseline by a part of its label.
    two = os.path.join(d, "two")
    p = plot(os.path.join(ROOT, "results", "h100", "single-gpu.csv"),
             os.path.join(ROOT, "results", "h200", "single-gpu.csv"), "--out", two,
             "--baseline", "H200")
    if p.returncode != 0:
        sys.exit(f"FAIL: two machines: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    made2 = sorted(os.listdir(two))
    check_files(two, made2)
    for stem in COMPARE:
        if not {stem + ".png", stem + ".svg"} <= set(made2):
            sys.exit(f"FAIL: two machines must give {stem}.png/.svg, got {made2}")
    if "comparison vs NVIDIA H200" not in p.stdout:
        sys.exit(f"FAIL: --baseline H200 not used: {p.stdout}")
    svg = open(os.path.join(two, "compare-ratio.svg"), encoding="utf-8").read()
    for text in ("NVIDIA H100 80GB HBM3", "(baseline)", "latency ÷ baseline"):
        if text not in svg:
            sys.exit(f"FAIL: compare-ratio.svg lacks {text!r}")

    # 2 and 4 GPUs of one model, --only compare with a prefix: the scaling comparison too.
    mg = os.path.join(d, "mg")
    p = plot(os.path.join(ROOT, "results", "h200x2", "multi-gpu.csv"), scaling_csv,
             "--only", "compare", "--prefix", "x2x4-", "--out", mg)
    made3 = sorted(os.listdir(mg)) if os.path.isdir(mg) else []
    want3 = {f"x2x4-{s}.{e}" for s in COMPARE | {"compare-scaling"} for e in ("png", "svg")}
    if p.returncode != 0 or set(made3) != want3:
        sys.exit(f"FAIL: --only compare: expected {sorted(want3)}, got {made3}\n{p.stderr}")
    check_files(mg, made3)

    p = plot(CSV, CSV.replace("foundation-sweep", "single-gpu"), "--out", os.path.join(d, "b"),
             "--baseline", "no such machine")
    if p.returncode == 0 or "--baseline" not in p.stderr:
        sys.exit(f"FAIL: an unknown --baseline must fail naming it: {p.stderr}")
    p = plot(CSV, "--out", d, "--format", "gif")
    if p.returncode == 0 or "--format" not in p.stderr:
        sys.exit(f"FAIL: --format gif must be refused: {p.stderr}")

    p = plot(os.devnull, "--out", d)
    if p.returncode == 0 or "empty file" not in p.stderr:
        sys.exit(f"FAIL: empty input must fail clearly: {p.stderr}")
print("PASS plot", made, made2, made3)

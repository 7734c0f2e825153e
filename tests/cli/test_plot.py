#!/usr/bin/env python3
"""gpubarrier_tools/cli/plot.py turns a real measured CSV into PNGs and SVGs (heat map, line plot, summary).

Run by pytest (pytest tests/cli/test_plot.py); plot.py runs with an interpreter that has matplotlib.
"""
import os
import subprocess
import xml.etree.ElementTree as ET

import pytest

from tool_python import python_with_matplotlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSV = os.path.join(ROOT, "results", "h200", "foundation-sweep.csv")
PLOT = ["-m", "gpubarrier_tools.cli.plot"]


def plot(*args):
    return subprocess.run([python_with_matplotlib(), *PLOT, *args], capture_output=True,
                          text=True, timeout=300)


def check_files(d, made):
    for f in made:
        path = os.path.join(d, f)
        if f.endswith(".png"):
            with open(path, "rb") as png:
                if png.read(8) != b"\x89PNG\r\n\x1a\n":
                    pytest.fail(f"{f} is not a PNG")
        elif f.endswith(".svg"):
            try:
                root = ET.parse(path).getroot()
            except ET.ParseError as e:
                pytest.fail(f"{f} is not valid XML: {e}")
            if not root.tag.endswith("svg"):
                pytest.fail(f"{f} is not an SVG (root {root.tag})")
        else:
            pytest.fail(f"unexpected file {f}")
    stems = {f.rsplit(".", 1)[0] for f in made}
    for s in stems:
        if not {s + ".png", s + ".svg"} <= set(made):
            pytest.fail(f"{s} must come as PNG and SVG by default, got {sorted(made)}")


COMPARE = {"compare-bars", "compare-ratio"}
SCALING_CSV = os.path.join(ROOT, "results", "h200x4", "multi-gpu-scaling.csv")


def test_one_machine(tmp_path):
    d = str(tmp_path)
    p = plot(CSV, "--out", d)
    if p.returncode != 0:
        pytest.fail(f"plot.py exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    made = sorted(os.listdir(d))
    want = {"summary.png", "gpu.block.syncthreads.png", "gpu.grid.cg-NVIDIA_H200-heatmap.png",
            "summary.svg"}
    if not want <= set(made):
        pytest.fail(f"expected {sorted(want)}, got {made}")
    check_files(d, made)
    if "scaling.png" in made:
        pytest.fail("a single-GPU CSV must not give scaling.png")
    if any(f.startswith("compare-") for f in made):
        pytest.fail(f"one machine must not give comparison plots: {made}")


def test_scaling(tmp_path):
    x4 = str(tmp_path / "x4")
    p = plot(SCALING_CSV, "--out", x4, "--format", "png")
    if p.returncode != 0 or "scaling.png" not in os.listdir(x4):
        pytest.fail(f"a multi-GPU CSV must give scaling.png\n{p.stdout}\n{p.stderr}")
    if any(f.endswith(".svg") for f in os.listdir(x4)):
        pytest.fail("--format png must not write SVG")


def test_multi_grid_heat_maps(tmp_path):
    """The multi-grid sync swept over GPU count x blocks/SM x threads: one heat map per count."""
    grids = str(tmp_path / "grids")
    p = plot(os.path.join(ROOT, "results", "h100x4", "legacy.csv"), "--out", grids, "--format", "png")
    want = {f"multigpu.cg.multi-grid-NVIDIA_H100_80GB_HBM3-heatmap-x{n}.png" for n in (1, 2, 3, 4)}
    if p.returncode != 0 or not want <= set(os.listdir(grids)):
        pytest.fail(f"one multi-grid heat map per GPU count {sorted(want)}, got "
                    f"{sorted(os.listdir(grids))}\n{p.stdout}\n{p.stderr}")


def test_two_machines(tmp_path):
    """Two machines (H100 and H200): the comparison plots, baseline by a part of its label."""
    two = str(tmp_path / "two")
    p = plot(os.path.join(ROOT, "results", "h100", "single-gpu.csv"),
             os.path.join(ROOT, "results", "h200", "single-gpu.csv"), "--out", two,
             "--baseline", "H200")
    if p.returncode != 0:
        pytest.fail(f"two machines: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    made2 = sorted(os.listdir(two))
    check_files(two, made2)
    for stem in COMPARE:
        if not {stem + ".png", stem + ".svg"} <= set(made2):
            pytest.fail(f"two machines must give {stem}.png/.svg, got {made2}")
    if "comparison vs NVIDIA H200" not in p.stdout:
        pytest.fail(f"--baseline H200 not used: {p.stdout}")
    svg = open(os.path.join(two, "compare-ratio.svg"), encoding="utf-8").read()
    for text in ("NVIDIA H100 80GB HBM3", "(baseline)", "latency ÷ baseline"):
        if text not in svg:
            pytest.fail(f"compare-ratio.svg lacks {text!r}")


def test_only_compare(tmp_path):
    """2 and 4 GPUs of one model, --only compare with a prefix: the scaling comparison too."""
    mg = str(tmp_path / "mg")
    p = plot(os.path.join(ROOT, "results", "h200x2", "multi-gpu.csv"), SCALING_CSV,
             "--only", "compare", "--prefix", "x2x4-", "--out", mg)
    made3 = sorted(os.listdir(mg)) if os.path.isdir(mg) else []
    want3 = {f"x2x4-{s}.{e}" for s in COMPARE | {"compare-scaling"} for e in ("png", "svg")}
    if p.returncode != 0 or set(made3) != want3:
        pytest.fail(f"--only compare: expected {sorted(want3)}, got {made3}\n{p.stderr}")
    check_files(mg, made3)


def test_refusals(tmp_path):
    d = str(tmp_path)
    p = plot(CSV, CSV.replace("foundation-sweep", "single-gpu"), "--out", os.path.join(d, "b"),
             "--baseline", "no such machine")
    if p.returncode == 0 or "--baseline" not in p.stderr:
        pytest.fail(f"an unknown --baseline must fail naming it: {p.stderr}")
    p = plot(CSV, "--out", d, "--format", "gif")
    if p.returncode == 0 or "--format" not in p.stderr:
        pytest.fail(f"--format gif must be refused: {p.stderr}")

    p = plot(os.devnull, "--out", d)
    if p.returncode == 0 or "empty file" not in p.stderr:
        pytest.fail(f"empty input must fail clearly: {p.stderr}")

#!/usr/bin/env python3
"""`gpubarrier plot` (gpubarrier_tools/cli/plot.py, gpubarrier_tools/render/plot_reduction.py) draws the reduction plot from a CSV
the test writes: GB/s against size per method, the read ceiling (model.gmem.stream grid=1),
the copy beside it, and the switch point that
gpubarrier_tools/cli/model.py predicts from the same rows (1 block vs the grid) as a vertical line; none
without reduction rows.

Run by pytest: pytest tests/cli/test_plot_reduction.py
"""
import os
import xml.etree.ElementTree as ET

import reduction_rows
from cli_common import expect, run_gpubarrier
from tool_python import python_with_matplotlib

STEM = "reduction-NVIDIA_H100_80GB_HBM3"
ENV = {"GPUBARRIER_PYTHON": python_with_matplotlib()}


def test_plot_reduction(tmp_path, gpubarrier):
    d = str(tmp_path)
    csv = os.path.join(d, "reduction.csv")
    reduction_rows.write(csv)
    out = os.path.join(d, "plots")
    p = run_gpubarrier(gpubarrier, "plot", csv, "--out", out, env=ENV)
    expect(p.returncode == 0, "gpubarrier plot exits 0", p)
    made = set(os.listdir(out))
    expect({STEM + ".png", STEM + ".svg"} <= made, f"{STEM}.png and .svg in {sorted(made)}", p)
    with open(os.path.join(out, STEM + ".png"), "rb") as f:
        expect(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{STEM}.png is a PNG")
    svg = os.path.join(out, STEM + ".svg")
    expect(ET.parse(svg).getroot().tag.endswith("svg"), f"{STEM}.svg is an SVG")
    with open(svg) as f:
        text = f.read()  # matplotlib keeps every text as an XML comment beside its glyphs
    for want in ("predicted: 1 block vs the grid (2.8e+04 B)",
                 "read ceiling: model.gmem.stream grid=1 (2000 GB/s)",
                 "copy (read + write, no read ceiling)", "single.grid-sync grid=0", "single.cub"):
        expect(want in text, f"the plot shows '{want}'")

    lat = os.path.join(d, "latency-only.csv")
    reduction_rows.write(lat, lambda r: not r["method"].startswith("reduction."))
    out = os.path.join(d, "none")
    p = run_gpubarrier(gpubarrier, "plot", lat, "--out", out, env=ENV)
    expect(p.returncode == 0, "gpubarrier plot exits 0 without reduction rows", p)
    expect(not any(f.startswith("reduction-") for f in os.listdir(out)),
           f"no reduction plot without reduction rows: {sorted(os.listdir(out))}", p)

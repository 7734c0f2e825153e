#!/usr/bin/env python3
"""The grid barriers that users could pick instead of the library's, the designs that may replace
it, the floor and the background axis, as the executable states them without a GPU; and
docs/library.md's answer table (gpubarrier_tools/cli/library_doc.py) from a small run folder: the targets, the
fastest other barrier, the floor and a noisy row.

Run by pytest (`pytest tests/cli/test_grid_library.py`; ctest: cli.grid_library).
"""
import csv
import json
import os
import re
import subprocess
import sys

import pytest

from cli_common import expect, run_gpubarrier

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
NEW = ["gpu.grid.cuda-barrier", "gpu.grid.cuda-barrier-threads", "gpu.grid.flag-count",
       "gpu.grid.flag-count-backoff", "gpu.grid.tree-count-4", "gpu.grid.tree-count-8",
       "gpu.grid.count-release", "gpu.grid.count-pause-32", "gpu.grid.count-pause-128",
       "gpu.grid.count-release-pause-32"]


def methods(exe):
    p = run_gpubarrier(exe, "list", "--json")
    expect(p.returncode == 0, "list --json", p)
    return {m["name"]: m for m in json.loads(p.stdout)}


def test_every_grid_barrier_has_the_background_axis(gpubarrier):
    listed = methods(gpubarrier)
    for name in NEW + ["gpu.floor.grid"]:
        expect(name in listed, f"{name} is registered")
    for name, m in listed.items():
        if name.startswith("gpu.grid."):
            expect("background" in m["axes"], f"{name} has the axis background: {m['axes']}")
    p = run_gpubarrier(gpubarrier, "config", "check", os.path.join(ROOT, "configs", "sweeps",
                                                                   "library.yaml"))
    expect(p.returncode == 0 and "ok:" in p.stdout, "library.yaml checks", p)


def test_without_a_gpu_each_is_a_skipped_row(gpubarrier, tmp_path):
    if os.path.exists("/dev/nvidia0"):
        pytest.skip("a GPU is visible: the GPU tests measure these")
    out = tmp_path / "grid.csv"
    p = run_gpubarrier(gpubarrier, "run", "--methods", ",".join(NEW + ["gpu.floor.grid"]),
                       "--axis", "blocks_per_sm=1", "--out", str(out))
    expect(p.returncode == 0, "run exits 0 with skipped rows", p)
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    expect({r["method"] for r in rows} == set(NEW + ["gpu.floor.grid"]),
           f"one row set per method: {[r['method'] for r in rows]}")
    for r in rows:
        expect(r["status"] == "skipped" and "GPU" in r["note"], f"skipped, saying why: {r}")


def grid_row(method, b, t, value, stddev=1.0, extra="", note="verified", cv=0.001):
    config = f"blocks_per_sm={b} threads_per_block={t}{extra}"
    return {"schema_version": "5", "method": method, "blocks_per_sm": str(b),
            "threads_per_block": str(t), "config": config, "metric": "latency", "unit": "ns",
            "value": str(value), "mean": str(value), "median": str(value), "stddev": str(stddev),
            "cv": str(cv), "stop": "converged", "status": "ok", "note": note,
            "cluster_size": ""}


def write_run(folder, rows):
    os.makedirs(folder)
    with open(os.path.join(folder, "library-grid.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(folder, "library-machine.txt"), "w") as f:
        f.write("index, name, uuid, driver_version\n0, NVIDIA H100, GPU-0123abcd-0000, 580\n")
    with open(os.path.join(folder, "library-stencil.csv"), "w") as f:
        f.write("n,iterations,repeat,blocks,threads,persistent_ms,launches_ms,graph_ms,"
                "grid_sync_ms,cuda_barrier_ms,result\n")
        for repeat in (1, 2, 3):
            f.write(f"64,1000,{repeat},16,256,1.0,5.0,3.0,1.2,1.1,identical\n")


def written_doc(results, tmp_path):
    """docs/library.md's generated parts, as library_doc writes them from `results` into an empty
    document of their markers."""
    doc = tmp_path / "library.md"
    doc.write_text("".join(f"<!-- library:{n} -->\n<!-- /library:{n} -->\n"
                           for n in ("answer", "grid", "floor", "load", "stencil")))
    p = subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.library_doc", "--results",
                        str(results), "--doc", str(doc), "--write"], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    expect(p.returncode == 0, "library_doc --write", p)
    return doc.read_text()


def test_answer_table_tests_both_targets(tmp_path):
    results = tmp_path / "results"
    rows = [grid_row("gpu.grid.cg", 1, 128, 1000), grid_row("gpu.grid.count-epoch", 1, 128, 800),
            grid_row("gpu.grid.cuda-barrier", 1, 128, 900),
            # 2 x 128: 0.84 x grid.sync, but 0.96 x cuda::barrier: one target missed
            grid_row("gpu.grid.cg", 2, 128, 1000), grid_row("gpu.grid.count-epoch", 2, 128, 840),
            grid_row("gpu.grid.cuda-barrier", 2, 128, 875),
            # 4 x 128: both met, but grid.sync's row is noisy
            grid_row("gpu.grid.cg", 4, 128, 2000, cv=0.5, note="verified; noisy: cv 0.5 > 0.05"),
            grid_row("gpu.grid.count-epoch", 4, 128, 1000),
            grid_row("gpu.floor.grid", 1, 128, 300, extra=" floor=acquire-rtt",
                     note="not verified: a floor synchronises nothing"),
            grid_row("gpu.floor.grid", 1, 128, 100, extra=" floor=arrivals",
                     note="not verified: a floor synchronises nothing")]
    write_run(str(results / "h100" / "2026-12-07"), rows)
    text = written_doc(results, tmp_path)
    line = {m.group(1): m.group(0) for m in re.finditer(r"^\| (\d x \d+) \|.*$", text, re.M)}
    expect("| 0.800 | 0.889 (`cuda-barrier`) | 2.00 | yes |" in line["1 x 128"],
           f"1 x 128 meets both targets, 2.00 x its floor of 400 ns: {line['1 x 128']}")
    expect(line["2 x 128"].endswith("| no |") and "0.960 (`cuda-barrier`)" in line["2 x 128"],
           f"2 x 128 misses the second target: {line['2 x 128']}")
    expect(line["4 x 128"].endswith("| yes (from a noisy row) |"),
           f"4 x 128 says its verdict rests on a noisy row: {line['4 x 128']}")
    expect("Targets met at 2 of 3 shapes." in text, text)
    expect("| 64 | 16 x 256 | 1.00 | 1.20 | 1.10 | 3.00 | 5.00 | persistent, the library's "
           "barrier | 1.10x (persistent, cuda::barrier) |" in text, text)


def test_load_section_says_why_every_point_beside_the_copy_was_skipped(tmp_path):
    results = tmp_path / "results"
    rows = [grid_row("gpu.grid.cg", 1, 128, 1000), grid_row("gpu.grid.count-epoch", 1, 128, 800)]
    for bg in ("copy", "copy-other-domain"):
        skipped = grid_row("gpu.grid.cg", 1, 128, "", extra=f" background={bg}",
                           note="verified; background: the copy kernel ended first")
        skipped.update(status="skipped", metric="", value="")
        rows.append(skipped)
    write_run(str(results / "h100" / "2026-12-07"), rows)
    text = written_doc(results, tmp_path).split("<!-- library:load -->")[1]
    expect("every point beside a copy kernel (2) is `skipped`, saying: \"verified; background: "
           "the copy kernel ended first\"." in text and "predates" not in text,
           f"the load section names the skipped points and their reason: {text}")

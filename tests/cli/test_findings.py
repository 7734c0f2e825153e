#!/usr/bin/env python3
"""`gpubarrier report findings DIR` (gpubarrier_tools/analysis/findings.py): one row per conclusion of the study and
GPU, with a verdict by the stated rule: `confirmed` when the comparison holds beyond the rows'
spread, `refuted` when the opposite holds beyond it, `inconclusive` when a figure comes from a
noisy row, `not measured` when a figure is missing; the figures of one verdict always come from one machine (same host and GPU
UUIDs), never one figure from each of two machines. The study's conclusions are data, read from
gpubarrier_tools/data/study_conclusions.json: a copy's changed quote is what the page prints, an unreadable file
is named (exit 2), and the committed results/FINDINGS.md quotes every conclusion of the file
exactly, in its order.

Run by pytest: pytest tests/cli/test_findings.py
"""
import os
import shutil
import subprocess
import sys

import pytest

from gpubarrier_tools.data import gbcsv
from cli_common import expect, run_gpubarrier, synthetic_row, write_rows


def row(model, uuid, host, **kw):
    base = {"gpu_model": model, "gpu_uuids": uuid, "gpu_ids": "0", "host": host,
            "note": "verified", "unit": "ns", "metric": "latency", "stddev": "1", "cv": "0.001"}
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def block(model, uuid, host, small, big, run="r1", **kw):
    return [row(model, uuid, host, method="gpu.block.syncthreads", metric="latency_cycles",
                unit="cycles", config=f"blocks_per_sm=1 threads_per_block={t}", value=v,
                run_id=run, **kw)
            for t, v in ((32, small), (1024, big))]


def grid(model, uuid, host, wide, many, run="g1", **kw):
    return [row(model, uuid, host, method="gpu.grid.cg", config=f"blocks_per_sm={b} "
                f"threads_per_block={t}", value=v, run_id=run, **kw)
            for b, t, v in ((1, 1024, wide), (8, 128, many))]


H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
rows = (
    # H100: block sync confirmed (14 < 76 cycles, precise)
    block(H100, "GPU-a", "vm", 14.2, 76.1)
    # H100: grid sync noisy -> inconclusive
    + grid(H100, "GPU-a", "vm", 1000, 2300, cv="0.9", stddev="1500",
           note="verified; noisy: cv 0.9 > 0.25")
    # H200: 32 threads slower than 1024, beyond the spread -> refuted
    + block(H200, "GPU-b", "box", 14.3, 14.0, stddev="0.01")
    # H200: grid sync, one figure on each of two machines: never combined -> not measured
    + [row(H200, "GPU-b", "box", method="gpu.grid.cg", run_id="x1",
           config="blocks_per_sm=1 threads_per_block=1024", value=1000),
       row(H200, "GPU-c", "other", method="gpu.grid.cg", run_id="x2",
           config="blocks_per_sm=8 threads_per_block=128", value=2200)]
)

# the pitfalls: every sync waits and the control is caught; a partial grid sync ends as timeout
rows += [row(H100, "GPU-a", "vm", method="pitfall.warp.wait-check", metric="check_left_early",
             unit="per 1e6 trials", config=f"variant={v} group_size=32", value=val, status=st,
             run_id="p1")
         for v, val, st in ((2, 0, "ok"), (4, 0, "ok"), (0, 250000, "unverified"))]
rows += [row(H100, "GPU-a", "vm", method="pitfall.grid.partial-sync", run_id="p2",
             metric="check_never_arrived", unit="blocks", config=f"barrier=0 missing={m}",
             value=val, status=st)
         for m, val, st in ((0, 0, "ok"), (1, "", "timeout"), (2, "", "timeout"))]
# CUDA's own grid sync beside them: the whole grid completes, the partial one is killed at its
# deadline (the parent's row for a lost point: no metric, no value)
rows += [row(H100, "GPU-a", "vm", method="pitfall.grid.partial-sync", run_id="p2",
             metric=metric, unit="blocks" if metric else "", value=val, status=st,
             config=f"barrier=grid-sync missing={m} blocks_per_sm=1 threads_per_block=128")
         for m, metric, val, st in (("none", "check_never_arrived", 0, "ok"),
                                    ("last-block", "", "", "timeout"))]
# on H200 a sync lets a thread leave early: refuted
rows += [row(H200, "GPU-b", "box", method="pitfall.warp.wait-check", metric="check_left_early",
             unit="per 1e6 trials", config=f"variant={v} group_size=32", value=val, status=st,
             run_id="p3")
         for v, val, st in ((2, 10, "unverified"), (0, 250000, "unverified"))]


def test_findings(tmp_path, gpubarrier):
    d = str(tmp_path)
    write_rows(os.path.join(d, "a.csv"), gbcsv.NAMES, rows)
    rep = run_gpubarrier(gpubarrier, "report", "findings", d)
    expect(rep.returncode == 0, "report findings exits 0", rep)
    lines = rep.stdout.split("\n")

    def verdict(claim, gpu):
        at = next((i for i, ln in enumerate(lines) if claim in ln), None)
        expect(at is not None, f"a row for {claim!r}", rep)
        for ln in lines[at:at + 2]:
            cells = [c.strip() for c in ln.split("|")]
            if cells[3] == gpu or cells[3].startswith(gpu + " ("):
                return cells[5].strip("*"), cells[6]
        expect(False, f"no {gpu} row for {claim!r}", rep)

    block_claim = "Block sync costs more with more warps"
    grid_claim = "Grid sync latency depends on blocks per SM"
    v, why = verdict(block_claim, "H100")
    expect(v == "confirmed", f"H100 block sync: {v} ({why}), expected confirmed", rep)
    v, why = verdict(grid_claim, "H100")
    expect(v == "inconclusive" and why.startswith("noisy:"),
           f"H100 grid sync from a noisy row: {v} ({why}), expected inconclusive", rep)
    v, why = verdict(block_claim, "H200")
    expect(v == "refuted" and why.startswith("fails:"),
           f"H200 block sync 14.3 vs 14.0: {v} ({why}), expected refuted", rep)
    v, why = verdict(grid_claim, "H200")
    expect(v == "not measured", f"H200 grid sync across two machines: {v} ({why}), expected "
           f"not measured (figures of two machines are never combined)", rep)
    expect("inconclusive" in lines[0] or "conclusions" in lines[0], "a summary line first", rep)

    v, why = verdict("Every warp sync makes every thread of the group wait", "H100")
    expect(v == "confirmed", f"H100 warp pitfall: {v} ({why}), expected confirmed", rep)
    v, why = verdict("Every warp sync makes every thread of the group wait", "H200")
    expect(v == "refuted", f"H200 warp pitfall with a sync that let a thread go: {v} ({why})",
           rep)
    v, why = verdict("A grid sync reached by only part of the grid deadlocks", "H100")
    expect(v == "confirmed", f"H100 partial grid sync: {v} ({why}), expected confirmed", rep)

    # the study's tables: one machine per GPU, the one with the most rows of the table
    tables = run_gpubarrier(gpubarrier, "report", "study-tables", d)
    expect(tables.returncode == 0, "report study-tables exits 0", tables)
    h200_32 = [ln for ln in tables.stdout.split("\n") if ln.startswith("| 32 |") and "H200" in ln]
    expect(len(h200_32) == 1 and "| 14.3 |" in h200_32[0],
           "the H200 block row at 32 threads comes from the machine with the block rows", tables)

    bad = run_gpubarrier(gpubarrier, "report", "findings", os.path.join(d, "none"))
    expect(bad.returncode == 2 and bad.stderr.count("\n") <= 2 and "Traceback" not in bad.stderr,
           "a folder that does not exist: exit 2, one line", bad)


# --- the study's conclusions: data the page reads (gpubarrier_tools/data/study_conclusions.json) ----------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONCLUSIONS = os.path.join(ROOT, "gpubarrier_tools", "data", "study_conclusions.json")


def package_copy(tmp_path, edit):
    """A copy of the tools package under tmp_path/copy/gpubarrier_tools whose study_conclusions.json is
    edit(its text); the folder above it (what `python3 -m gpubarrier_tools.cli.report` runs in)."""
    top = tmp_path / "copy"
    shutil.copytree(os.path.join(ROOT, "gpubarrier_tools"), str(top / "gpubarrier_tools"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    path = top / "gpubarrier_tools" / "data" / "study_conclusions.json"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return str(top)


def findings_of(top, folder):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.report", "findings", folder], cwd=top,
                          env=env, capture_output=True, text=True, timeout=300)


def test_conclusions_come_from_the_file(tmp_path):
    """The page's claims, sections, quotes and the study's figures are the file's: a quote and a
    figure changed in a copy of the package are what the copy's page prints, in place of the
    committed ones."""
    d = str(tmp_path)
    write_rows(os.path.join(d, "a.csv"), gbcsv.NAMES, rows)
    quote = "For tile group synchronization the size of the group does not influence"
    figure = "V100 14, P100 1 cycles (Tile(*))"

    def edit(text):
        assert text.count(quote) == 1 and text.count(figure) == 1
        return text.replace(quote, "A changed quote").replace(figure, "a changed figure")
    rep = findings_of(package_copy(tmp_path, edit), d)
    tile = [ln for ln in rep.stdout.split("\n")
            if ln.startswith("| Tile-group sync latency does not depend on the group size")]
    expect(rep.returncode == 0 and len(tile) == 1 and
           "\"A changed quote neither latency nor throughput.\" a changed figure" in tile[0] and
           quote not in rep.stdout and figure not in rep.stdout,
           "the page quotes the copy's study_conclusions.json", rep)


def test_unreadable_conclusions_named(tmp_path):
    """A conclusions file that is not JSON, or lacks a field, ends the page with exit 2 and one
    line naming the file."""
    d = str(tmp_path)
    write_rows(os.path.join(d, "a.csv"), gbcsv.NAMES, rows)
    for name, edit in (("not JSON", lambda text: text[:-10]),
                       ("a field missing", lambda text: text.replace('"quote":', '"quoted":', 1))):
        rep = findings_of(package_copy(tmp_path / name.replace(" ", "-"), edit), d)
        lines = rep.stderr.strip().split("\n")
        expect(rep.returncode == 2 and len(lines) == 1 and "study_conclusions.json" in lines[0]
               and "Traceback" not in rep.stderr,
               f"{name}: exit 2, one line naming the file", rep)


def test_quotes_on_the_committed_page():
    """Every conclusion of the file is a row of results/FINDINGS.md, in the file's order, with
    its claim, section, quote and the study's figure exactly as the file (or, for a figure drawn
    from the study's tables, study_reference) gives them; the page has no other conclusion. The
    page itself is regenerated byte for byte by cli.results_readme."""
    from gpubarrier_tools.analysis import findings
    from gpubarrier_tools.data import study_reference
    conclusions = study_reference.study_conclusions()
    expect([c["key"] for c in conclusions] == [r[0] for r in findings.FINDINGS],
           "findings.FINDINGS lists the file's conclusions in its order")
    expect([c["quote"] for c in conclusions] == [r[3] for r in findings.FINDINGS],
           "each row quotes the file's sentence as it stands")
    with open(os.path.join(ROOT, "results", "FINDINGS.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    at = lines.index("| finding (the study's section) | the study (V100 / P100) | GPU | Hopper | "
                     "verdict | why | CSV |")
    table = lines[at + 2:]
    table = table[:next((i for i, ln in enumerate(table) if not ln.startswith("| ")),
                        len(table))]
    # a conclusion's first row names it; its row for the next GPU leaves the two cells empty
    heads = [ln.split(" | ")[:2] for ln in table if not ln.startswith("|  |  |")]
    want = [[f"| {claim} ({section})", f"\"{quote}\" {figure}"]
            for _, section, claim, quote, figure, _ in findings.FINDINGS]
    expect(heads == want, f"results/FINDINGS.md's conclusions are the file's, quoted exactly "
           f"({len(want)} in the file, {len(heads)} on the page)")


def test_conclusion_rows_one_figure_each():
    """conclusion_rows: a conclusion's figure comes from the file or from the code's FIGURES,
    exactly one of them; a key that no conclusion has is refused."""
    from gpubarrier_tools.data import study_reference
    file = [{"key": "a", "section": "1", "claim": "c", "quote": "q", "figure": "f"},
            {"key": "b", "section": "2", "claim": "d", "quote": "r"}]
    answer = object()
    got = study_reference.conclusion_rows({"a": answer, "b": answer}, {"b": "g"}, file)
    expect(got == [("a", "1", "c", "q", "f", answer), ("b", "2", "d", "r", "g", answer)],
           f"rows in the file's order, each figure from its one place: {got}")
    for answers, figures, why in (({"a": answer}, {"a": "g"}, "twice"),
                                  ({"b": answer}, {}, "nowhere"),
                                  ({"z": answer}, {}, "no such conclusion")):
        with pytest.raises(ValueError, match=why):
            study_reference.conclusion_rows(answers, figures, file)

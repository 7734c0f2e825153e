#!/usr/bin/env python3
"""The measured tables of docs/library.md, from the committed CSVs of each GPU model: per machine
kind folder of results/ (h100, h200, ...), its newest run folder that holds library-grid.csv
(scripts/library-measure):
  answer   per shape, the barrier to use (the fastest verified one of the run), the library's
           grid barrier (GridBarrier: gpu.grid.count-epoch) as a multiple of grid.sync, of the
           fastest barrier a user could pick instead and of the floor, and whether it meets its
           targets;
  grid     every grid barrier of the run per shape (library-grid.csv, configs/sweeps/library.yaml);
  floor    the floor's parts (gpu.floor.grid) and the floor per shape;
  load     the barriers beside a copy kernel, in the barrier's memory synchronization domain and
           in another one;
  stencil  the Jacobi stencil (examples/jacobi_grid.cu) run every way per grid side, from
           library-stencil.csv.
Each table replaces the lines between `<!-- library:NAME -->` and `<!-- /library:NAME -->`.

  python3 -m gpubarrier_tools.cli.library_doc [--results DIR] [--doc FILE] --write | --check
--check: exit 1 naming the table that is not what the CSVs give (CI: library.doc_current).
Python 3 standard library only; the tables are gpubarrier_tools/data/tables.py Tables, rendered as Markdown by
gpubarrier_tools/render/__init__.py.
"""
from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import sys

from .. import render
from ..data import gbcsv, output_files
from ..data.tables import Table

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
RESULTS = "results"
DOC = "docs/library.md"
# The library's grid barrier's targets at every shape: at most this many times grid.sync's time,
# and at most this many times the fastest barrier a user could pick instead.
GRID_SYNC_TARGET, OTHER_TARGET = 0.85, 0.95

LIBRARY = "gpu.grid.count-epoch"  # include/gpubarrier/grid_barrier.cuh's GridBarrier
CG = "gpu.grid.cg"
# What a CUDA user could pick instead of the library's barrier.
OTHERS = [CG, "gpu.grid.cg-arrive-wait", "gpu.grid.cuda-barrier", "gpu.grid.cuda-barrier-threads"]
# The designs that may replace GridBarrier's where they are faster, and the cluster-first barrier.
DESIGNS = ["gpu.grid.count-release", "gpu.grid.count-pause-32", "gpu.grid.count-pause-128",
           "gpu.grid.count-release-pause-32", "gpu.grid.flag-count", "gpu.grid.flag-count-backoff",
           "gpu.grid.tree-count-4", "gpu.grid.tree-count-8"]
CLUSTER = "gpu.grid.cluster-count-epoch"
FLOOR = "gpu.floor.grid"
BACKGROUNDS = ["none", "copy", "copy-other-domain"]


def read(path: str) -> list[dict[str, str]]:
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"library_doc.py: {path}: cannot read ({e.strerror}); expected a committed CSV")


def runs(results: str) -> list[str]:
    """Per machine kind folder, its newest run folder holding library-grid.csv, by kind."""
    found = []
    for kind in sorted(os.listdir(results)):
        folder = os.path.join(results, kind)
        if not os.path.isdir(folder):
            continue
        dated = sorted(d for d in os.listdir(folder)
                       if re.fullmatch(r"\d{4}-\d{2}-\d{2}", d)
                       and os.path.isfile(os.path.join(folder, d, "library-grid.csv")))
        if dated:
            found.append(os.path.join(folder, dated[-1]))
    return found


def gpu_of(results: str) -> str:
    """'NVIDIA H200 (GPU-...)' from the folder's library-machine.txt."""
    with open(os.path.join(results, "library-machine.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\d+, ([^,]+), (GPU-[0-9a-f-]+),", line)
            if m:
                return f"{m.group(1)} ({m.group(2)})"
    return "unknown GPU"


class Figures:
    """The latency rows of one library-grid.csv, by (method, blocks/SM, threads, background,
    cluster size or floor part)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.rows = {}
        self.skipped_under_load = {}  # (method, blocks/SM, threads, background): the row's note
        for r in read(path):
            axes = gbcsv.config_names(r)
            if r["status"] == "skipped" and axes.get("background", "none") != "none":
                self.skipped_under_load[(r["method"], int(r["blocks_per_sm"] or 0),
                                         int(r["threads_per_block"] or 0),
                                         axes["background"])] = r["note"]
            if r["metric"] != "latency":
                continue
            key = (r["method"], int(r["blocks_per_sm"] or 0), int(r["threads_per_block"] or 0),
                   axes.get("background", "none"), axes.get("cluster_size") or axes.get("floor", ""))
            self.rows[key] = r

    def get(self, method: str, b: int, t: int, background: str = "none",
            extra: str = "") -> tuple[float, float, str] | None:
        """(value, stddev, mark) of an ok row, mark '' or ' (noisy)' or ' (not verified)'; None
        when the run has no ok row of it."""
        r = self.rows.get((method, b, t, background, extra))
        if r is None or r["status"] != "ok":
            return None
        mark = ""
        if r["note"].startswith("not verified") and method != FLOOR:
            mark = " (not verified)"
        elif gbcsv.noisy_reason(r):
            mark = " (noisy)"
        return float(r["value"]), float(r["stddev"] or 0), mark

    def verified(self, method: str, b: int, t: int, background: str = "none") -> bool:
        r = self.rows.get((method, b, t, background, ""))
        return r is not None and r["status"] == "ok" and r["note"].startswith("verified")

    def shapes(self) -> list[tuple[int, int]]:
        return sorted({(b, t) for (m, b, t, bg, x) in self.rows if m == CG and bg == "none"},
                      key=lambda s: (s[1] == 1024, s[1], s[0]))

    def floor(self, b: int) -> float | None:
        """The floor under a grid barrier of b blocks/SM: all blocks' arrivals on one word and one
        acquire-load round trip; None without both figures."""
        arrivals = self.get(FLOOR, b, 128, extra="arrivals")
        load = self.get(FLOOR, 1, 128, extra="acquire-rtt")
        return arrivals[0] + load[0] if arrivals and load else None


def ns(v: tuple[float, float, str] | None) -> str:
    return f"{v[0]:.0f} ± {v[1]:.0f}{v[2]}" if v else "-"


def short(method: str) -> str:
    return method.replace("gpu.grid.", "")


def caption(fig: Figures, results: str, what: str) -> str:
    rel = os.path.relpath(fig.path, ROOT)
    return (f"{what} on one {gpu_of(results)}, `{rel}` (differential technique, ns per barrier "
            "± the standard deviation of the samples):")


def not_measured(fig: Figures, what: str) -> str:
    return (f"`{os.path.relpath(fig.path, ROOT)}` holds no figure of {what}: its run predates "
            "that part of configs/sweeps/library.yaml.")


def answer_table(results: str) -> list[Table | str]:
    fig = Figures(os.path.join(results, "library-grid.csv"))
    lines, met = [], []
    for b, t in fig.shapes():
        every = {m: fig.get(m, b, t) for m in OTHERS + DESIGNS + [LIBRARY]}
        ok = {m: v for m, v in every.items() if v and fig.verified(m, b, t)}
        if not ok:
            continue
        best = min(ok, key=lambda m: ok[m][0])
        lib, cg = ok.get(LIBRARY), ok.get(CG)
        others = {m: ok[m] for m in OTHERS if m in ok}
        other = min(others, key=lambda m: others[m][0]) if others else None
        floor = fig.floor(b)
        cells = [f"{b} x {t}", f"`{short(best)}`, {ns(ok[best])}", ns(lib)]
        if lib and cg and other:
            r_cg, r_other = lib[0] / cg[0], lib[0] / others[other][0]
            good = r_cg <= GRID_SYNC_TARGET and r_other <= OTHER_TARGET
            met.append(good)
            noisy = any(v[2] for v in (lib, cg, others[other]))
            cells += [f"{r_cg:.3f}", f"{r_other:.3f} (`{short(other)}`)",
                      f"{lib[0] / floor:.2f}" if floor else "-",
                      ("yes" if good else "no") + (" (from a noisy row)" if noisy else "")]
        else:
            cells += ["-", "-", "-", "not measured"]
        lines.append(cells)
    out: list[Table | str] = [caption(fig, results, "Measured"), "",
           Table(["blocks/SM x threads", "fastest verified barrier",
                  f"the library's (`{LIBRARY}`)", "x grid.sync", "x the fastest other",
                  "x the floor", f"at most {GRID_SYNC_TARGET} x grid.sync and {OTHER_TARGET} x "
                  "the fastest other?"], lines, align_right=[2, 3, 5])]
    out += ["", f"Targets met at {sum(met)} of {len(lines)} shapes."]
    return out


def grid_table(results: str) -> list[Table | str]:
    fig = Figures(os.path.join(results, "library-grid.csv"))
    shapes = fig.shapes()
    lines = []
    for m in [LIBRARY] + DESIGNS + OTHERS:
        cells = [ns(fig.get(m, b, t)) for b, t in shapes]
        if any(c != "-" for c in cells):
            lines.append([f"`{short(m)}`"] + cells)
    sizes = sorted({int(x) for (m, b, t, bg, x) in fig.rows if m == CLUSTER and x})
    for c in sizes:
        cells = [ns(fig.get(CLUSTER, b, t, extra=str(c))) for b, t in shapes]
        if any(x != "-" for x in cells):
            lines.append([f"`{short(CLUSTER)}`, clusters of {c}"] + cells)
    return [caption(fig, results, "Every grid barrier of one run"), "",
            Table(["barrier"] + [f"{b} x {t}" for b, t in shapes], lines,
                  align_right=list(range(1, len(shapes) + 1)))]


def floor_table(results: str) -> list[Table | str]:
    fig = Figures(os.path.join(results, "library-grid.csv"))
    parts = [("atomic-rtt", 1, "one thread's dependent L2 atomic round trip"),
             ("acquire-rtt", 1, "one thread's dependent acquire-load round trip")]
    per_sm = sorted({b for (m, b, t, bg, x) in fig.rows if m == FLOOR and x == "arrivals"})
    lines = [[what, ns(fig.get(FLOOR, b, 128, extra=part))] for part, b, what in parts]
    lines += [[f"{b} block(s)/SM: every block's arrival on one word, no wait",
               ns(fig.get(FLOOR, b, 128, extra="arrivals"))] for b in per_sm]
    lines += [[f"the floor at {b} block(s)/SM: those arrivals + one acquire-load round trip",
               f"{fig.floor(b):.0f}" if fig.floor(b) else "-"] for b in per_sm]
    if all(cells[1] == "-" for cells in lines):
        return [not_measured(fig, f"the floor (`{FLOOR}`)")]
    return [caption(fig, results, "The floor (`gpu.floor.grid`)"), "",
            Table(["figure", "ns"], lines, align_right=[1])]


def load_table(results: str) -> list[Table | str]:
    fig = Figures(os.path.join(results, "library-grid.csv"))
    keys = sorted({(m, b, t) for (m, b, t, bg, x) in fig.rows if bg != "none"},
                  key=lambda k: (k[1], k[2], k[0] != LIBRARY, k[0]))
    lines = []
    for m, b, t in keys:
        v = [fig.get(m, b, t, bg) for bg in BACKGROUNDS]
        lines.append([f"`{short(m)}`", f"{b} x {t}"] + [ns(x) for x in v] +
                     [f"{v[2][0] / v[1][0]:.3f}" if v[1] and v[2] else "-"])
    if not lines and fig.skipped_under_load:
        notes = sorted(set(fig.skipped_under_load.values()))
        return [f"`{os.path.relpath(fig.path, ROOT)}`: every point beside a copy kernel "
                f"({len(fig.skipped_under_load)}) is `skipped`, saying: " +
                "; ".join(f"\"{n}\"" for n in notes) + "."]
    if not lines:
        return [not_measured(fig, "a barrier beside a copy kernel (axis `background`)")]
    return [caption(fig, results, "Beside a copy kernel"), "",
            Table(["barrier", "blocks/SM x threads", "alone", "beside a copy, one domain",
                   "beside a copy, the barrier in the remote domain", "remote / one domain"],
                  lines, align_right=[2, 3, 4, 5])]


WAYS = [("persistent_ms", "persistent, the library's barrier"),
        ("grid_sync_ms", "persistent, grid.sync"),
        ("cuda_barrier_ms", "persistent, cuda::barrier"),
        ("graph_ms", "one CUDA graph of launches"),
        ("launches_ms", "one launch per iteration")]


def stencil_table(results: str) -> list[Table | str]:
    path = os.path.join(results, "library-stencil.csv")
    rows = read(path)
    ways = [(col, what) for col, what in WAYS if rows and col in rows[0]]
    sides = sorted({int(r["n"]) for r in rows})
    rel = os.path.relpath(path, ROOT)
    iterations = rows[0]["iterations"] if rows else "?"
    out: list[Table | str] = [
        f"`examples/jacobi_grid` on one {gpu_of(results)}, `{rel}`: {iterations} iterations, "
        "the median of 3 runs, microseconds per iteration; every way's result identical bit "
        "for bit to one launch per iteration in every run:", ""]
    lines = []
    for n in sides:
        mine = [r for r in rows if int(r["n"]) == n]
        if any(r["result"] != "identical" for r in mine):
            sys.exit(f"library_doc.py: {path}: n={n} has a run whose result differs")
        per_it = {col: statistics.median(float(r[col]) * 1000.0 / int(r["iterations"])
                                         for r in mine) for col, _ in ways}
        order = sorted(per_it, key=per_it.get)  # type: ignore[arg-type]
        name = dict(ways)
        lines.append([str(n), f"{mine[0]['blocks']} x {mine[0]['threads']}"] +
                     [f"{per_it[col]:.2f}" for col, _ in ways] +
                     [name[order[0]], f"{per_it[order[1]] / per_it[order[0]]:.2f}x "
                      f"({name[order[1]]})"])
    out.append(Table(["n x n", "persistent blocks x threads"] + [w for _, w in ways] +
                     ["fastest", "ahead of the next by"], lines,
                     align_right=[0] + list(range(2, 2 + len(ways)))))
    return out


TABLES = {"answer": answer_table, "grid": grid_table, "floor": floor_table, "load": load_table,
          "stencil": stencil_table}


def all_tables(results_root: str) -> dict[str, list[Table | str]]:
    """{name: items}: each table for every GPU model's newest run, one after the other."""
    folders = runs(results_root)
    tables = {}
    for name, make in TABLES.items():
        items = []
        for folder in folders:
            items += ([""] if items else []) + make(folder)
        tables[name] = items or ["No run holds library-grid.csv yet."]
    return tables


def replace_tables(doc_text: str, tables: dict[str, list[Table | str]]) -> str:
    """The document with each {name: items} rendered as Markdown between its markers."""
    for name, items in tables.items():
        pattern = re.compile(rf"(<!-- library:{name} -->\n).*?(<!-- /library:{name} -->)", re.S)
        if not pattern.search(doc_text):
            sys.exit(f"library_doc.py: {DOC}: no <!-- library:{name} --> ... "
                     f"<!-- /library:{name} --> markers")
        text = render.markdown(items)
        doc_text = pattern.sub(lambda m: m.group(1) + text + "\n" + m.group(2), doc_text)
    return doc_text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, RESULTS),
                    help="the results folder whose machine kind folders are read")
    ap.add_argument("--doc", default=os.path.join(ROOT, DOC))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = ap.parse_args()
    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    new = replace_tables(text, all_tables(args.results))
    if args.check:
        if new != text:
            print(f"{args.doc}: its measured tables are not what {args.results}'s CSVs give; "
                  "run python3 -m tools.library_doc --write")
            return 1
        print(f"ok: {args.doc} is current")
        return 0
    if new != text:
        output_files.write(args.doc, new)
    return 0


if __name__ == "__main__":
    sys.exit(main())

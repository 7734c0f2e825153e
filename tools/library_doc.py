#!/usr/bin/env python3
"""The measured tables of docs/library.md, from the committed CSVs of one GPU machine:
  grid     the public grid barriers (gpu.grid.count-epoch, and gpu.grid.cluster-count-epoch per
           cluster size) against grid.sync (gpu.grid.cg) per shape, from library-grid.csv
           (configs/sweeps/library.yaml);
  stencil  the persistent Jacobi stencil (examples/jacobi_grid.cu) against one launch per
           iteration per grid side, from library-stencil.csv (scripts/library-measure).
Each table replaces the lines between `<!-- library:NAME -->` and `<!-- /library:NAME -->`.

  python3 -m tools.library_doc [--results DIR] [--doc FILE] --write | --check
--check: exit 1 naming the table that is not what the CSVs give (CI: library.doc_current).
Python 3 standard library only; the tables are tools/tables.py Tables, rendered as Markdown by
tools/render.py.
"""
import argparse
import csv
import os
import re
import statistics
import sys


from . import output_files, render
from .tables import Table

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
RESULTS = "results/h200/2026-12-05"
DOC = "docs/library.md"
TARGET = 0.92  # the ratio the grid barrier must stay at or under at every shape


def read(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"library_doc.py: {path}: cannot read ({e.strerror}); expected a committed CSV")


def gpu_of(results):
    """'NVIDIA H200 (GPU-...)' from the folder's library-machine.txt."""
    with open(os.path.join(results, "library-machine.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\d+, ([^,]+), (GPU-[0-9a-f-]+),", line)
            if m:
                return f"{m.group(1)} ({m.group(2)})"
    return "unknown GPU"


CG, FLAT, CLUSTER = "gpu.grid.cg", "gpu.grid.count-epoch", "gpu.grid.cluster-count-epoch"


def grid_table(results):
    path = os.path.join(results, "library-grid.csv")
    rows = [r for r in read(path) if r["status"] == "ok" and r["metric"] == "latency"]
    value = {(r["method"], int(r["blocks_per_sm"]), int(r["threads_per_block"]),
              int(r["cluster_size"] or 0) if r["method"] == CLUSTER else 0):
             (float(r["value"]), float(r["stddev"] or 0)) for r in rows
             if r["method"] in (CG, FLAT, CLUSTER)}
    shapes = sorted({(b, t) for (m, b, t, _) in value if m == CG})
    sizes = sorted({c for (m, _, _, c) in value if m == CLUSTER})
    rel = os.path.relpath(path, ROOT)
    out = [f"Measured on one {gpu_of(results)}, `{rel}` (differential technique, ns per barrier, "
           "± the standard deviation of the samples; ratio: to grid.sync's time):", ""]
    lines, met = [], []
    for b, t in shapes:
        cg, lib = value.get((CG, b, t, 0)), value.get((FLAT, b, t, 0))
        if not cg or not lib:
            continue
        ratio = lib[0] / cg[0]
        met.append(ratio <= TARGET)
        clustered = [(value[(CLUSTER, b, t, c)], c) for c in sizes if (CLUSTER, b, t, c) in value]
        best = [f"{min(clustered)[0][0]:.0f} ± {min(clustered)[0][1]:.0f} (clusters of "
                f"{min(clustered)[1]})", f"{min(clustered)[0][0] / cg[0]:.3f}"] if clustered \
            else ["-", "-"]
        lines.append([f"{b} x {t}", f"{cg[0]:.0f} ± {cg[1]:.0f}", f"{lib[0]:.0f} ± {lib[1]:.0f}",
                      f"{ratio:.3f}", "yes" if ratio <= TARGET else "no"] + best)
    out += [Table(["blocks/SM x threads", "grid.sync (`gpu.grid.cg`)",
                   "grid barrier (`gpu.grid.count-epoch`)", "ratio", "at most 0.92?",
                   "cluster-first grid barrier (`gpu.grid.cluster-count-epoch`), its fastest "
                   "cluster size", "ratio"], lines, align_right=[1, 2, 3, 5, 6]),
            "", f"The grid barrier at most {TARGET} times grid.sync's time at every shape: "
            f"{'yes' if met and all(met) else 'no'} ({sum(met)} of {len(met)} shapes)."]
    if sizes:
        out += ["", "The cluster-first grid barrier per cluster size (ns; ratio to grid.sync; "
                "`-`: not run, the grid is no multiple of the size or its clusters are not all "
                "co-resident):", ""]
        lines = []
        for b, t in shapes:
            cg = value.get((CG, b, t, 0))
            cells = []
            for c in sizes:
                v = value.get((CLUSTER, b, t, c))
                cells.append(f"{v[0]:.0f} ({v[0] / cg[0]:.3f})" if v and cg else "-")
            lines.append([f"{b} x {t}"] + cells)
        out.append(Table(["blocks/SM x threads"] + [f"clusters of {c}" for c in sizes], lines,
                         align_right=list(range(1, len(sizes) + 1))))
    push = [r for r in rows if r["method"] == "multigpu.device.push"]
    for r in push:
        out += ["", f"The device barrier (`multigpu.device.push`) on {r['gpu_count']} GPU at "
                f"{r['blocks_per_sm']} x {r['threads_per_block']}: {float(r['value']):.0f} ns "
                "(its own GPU's count alone: no peer to signal)."]
    return out


def stencil_table(results):
    path = os.path.join(results, "library-stencil.csv")
    rows = read(path)
    sides = sorted({int(r["n"]) for r in rows})
    rel = os.path.relpath(path, ROOT)
    iterations = rows[0]["iterations"] if rows else "?"
    out = [f"`examples/jacobi_grid` on one {gpu_of(results)}, `{rel}`: {iterations} iterations, "
           "the median of 3 runs, microseconds per iteration; both results identical bit for bit "
           "in every run:", ""]
    lines, wins = [], []
    for n in sides:
        mine = [r for r in rows if int(r["n"]) == n]
        if any(r["result"] != "identical" for r in mine):
            sys.exit(f"library_doc.py: {path}: n={n} has a run whose result differs")
        per_it = lambda col: statistics.median(  # noqa: E731
            float(r[col]) * 1000.0 / int(r["iterations"]) for r in mine)
        p, l = per_it("persistent_ms"), per_it("launches_ms")
        faster = "persistent" if p < l else "launches"
        wins.append((n, faster))
        lines.append([str(n), f"{mine[0]['blocks']} x {mine[0]['threads']}", f"{p:.2f}",
                      f"{l:.2f}", faster, f"{max(p, l) / min(p, l):.2f}x"])
    out.append(Table(["n x n", "persistent blocks x threads", "persistent (grid barrier)",
                      "one launch per iteration", "faster", "by"], lines,
                     align_right=[0, 2, 3, 5]))
    launches = [n for n, f in wins if f == "launches"]
    if not launches:
        out += ["", f"Crossover: none from n = {sides[0]} to {sides[-1]}; the persistent kernel is "
                "faster at every grid side measured."]
    else:
        out += ["", "One launch per iteration is faster at n = "
                + ", ".join(str(n) for n in launches) + "; the persistent kernel at the others."]
    return out


def replace_tables(doc_text, tables):
    """The document with each {name: items} rendered as Markdown between its markers."""
    for name, items in tables.items():
        pattern = re.compile(rf"(<!-- library:{name} -->\n).*?(<!-- /library:{name} -->)", re.S)
        if not pattern.search(doc_text):
            sys.exit(f"library_doc.py: {DOC}: no <!-- library:{name} --> ... "
                     f"<!-- /library:{name} --> markers")
        text = render.markdown(items)
        doc_text = pattern.sub(lambda m: m.group(1) + text + "\n" + m.group(2), doc_text)
    return doc_text


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=os.path.join(ROOT, RESULTS))
    ap.add_argument("--doc", default=os.path.join(ROOT, DOC))
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")
    args = ap.parse_args()
    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    new = replace_tables(text, {"grid": grid_table(args.results),
                        "stencil": stencil_table(args.results)})
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

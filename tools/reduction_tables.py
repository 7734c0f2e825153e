"""The study's Tables 3, 5 and 6 (the reduction case study) from measured rows, beside the
study's V100/P100 figures (tools/study_reference.py); `tools/report.py reduction-tables` prints
them.

  Table 3  model.smem.stream (threads_per_block 1, 32, 1024): bandwidth (B/cycle), latency
           (cycles), concurrency C = T x Thr (Eq. 1); model.gmem.stream (grid 0: one block,
           grid 1: the resident grid) in GB/s and ns, which the study does not give.
  Table 5  gpu.warp.reduce by variant: cycles to sum 32 doubles, with each variant's status
           (the no-sync variant's sum is wrong: `unverified`).
  Table 6  reduction.single.{two-kernel,grid-sync (grid=1),cub} in GB/s at a few sizes, beside
           reduction.copy measured in the same run (the ceiling).
  Fig. 16  reduction.multi.* in GB/s by launcher and GPU count at a few sizes (--table 16).

One column per GPU model of the rows. A cell is the median over the matching rows (several GPUs
of one machine, repeats); where their printed figures differ, the range follows in brackets.
Each function returns markdown lines.
"""
import os
import statistics

import gbcsv
import study_reference as study

STUDY_GPUS = ("V100", "P100")
WARP_VARIANTS = ("serial", "no sync", "tile sync", "coalesced sync", "tile shuffle",
                 "coalesced shuffle")
# (label, method, axes) of Table 6's measured columns, in the study's column order.
REDUCTIONS = [("two kernels (study: implicit)", "reduction.single.two-kernel", {}),
              ("grid sync", "reduction.single.grid-sync", {"grid": "1"}),
              ("CUB", "reduction.single.cub", {})]
COPY = "reduction.copy"
MIB = 1 << 20


def load(paths):
    """ok and unverified rows (Table 5 shows the wrong variant too)."""
    return gbcsv.load(paths, statuses={"ok", "unverified"})


def short_model(model):
    return model.replace("NVIDIA ", "").split()[0] if model else "-"


def models_of(rows):
    return sorted({r["gpu_model"] for r in rows if r["gpu_model"]})


def select(rows, model, method, metric, statuses=("ok",), **axes):
    return [r for r in rows if r["gpu_model"] == model and r["method"] == method
            and r["metric"] == metric and r["status"] in statuses
            and all(gbcsv.config_axes(r).get(k) == str(v) for k, v in axes.items())]


def number(v, digits=3):
    if v is None:
        return "-"
    return f"{v:.0f}" if abs(v) >= 10 ** digits else f"{v:.{digits}g}"


def median(rows):
    return statistics.median(float(r["value"]) for r in rows) if rows else None


def cell(rows, f=number):
    """The median of the rows' values, the range in brackets where it shows."""
    if not rows:
        return "-"
    values = [float(r["value"]) for r in rows]
    lo, hi = f(min(values)), f(max(values))
    mid = f(statistics.median(values))
    return mid if lo == hi else f"{mid} ({lo}-{hi})"


def table(header, body):
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + \
        ["| " + " | ".join(r) + " |" for r in body]


def sources(rows, methods):
    """The files and GPUs the rows of `methods` come from, for a caption."""
    rows = [r for r in rows if r["method"] in methods]
    files = sorted({os.path.relpath(r["_file"]) for r in rows})
    gpus = sorted({r["gpu_ids"] for r in rows if r["gpu_ids"]}, key=lambda g: (len(g), g))
    text = ", ".join(f"`{f}`" for f in files)
    return text + (f" (rows of GPUs {', '.join(gpus)}: median, range in brackets)"
                   if len(gpus) > 1 else "")


def table3(rows):
    models = models_of(rows)
    metrics = [("bandwidth (B/cycle)", "bandwidth_cycles", 0), ("latency (cycles)",
                                                                 "latency_cycles", 1)]
    header = ["configuration"]
    for label, _, _ in metrics + [("concurrency C = T x Thr (B)", None, None)]:
        header += [f"{short_model(m)} {label}" for m in models] + \
            [f"{g} {label.split(' (')[0]}" for g in STUDY_GPUS]
    body = []
    for label, tpb, keys in (("1 thread", 1, ("1 thread",)),
                             ("1 warp = 32 threads", 32, ("1 warp", "32 threads")),
                             ("1024 threads", 1024, ("1024 threads",))):
        line, sides = [label], {}
        for _, metric, i in metrics:
            for m in models:
                got = select(rows, m, "model.smem.stream", metric, threads_per_block=tpb)
                sides.setdefault(m, []).append(median(got))
                line.append(cell(got))
            line += [number(study.STUDY_MODEL[g][keys[0]][i]) for g in STUDY_GPUS]
        for m in models:
            thr, t = sides[m]
            line.append(number(thr * t) if thr is not None and t is not None else "-")
        line += [str(study.STUDY_CONCURRENCY[g][keys[0]]) for g in STUDY_GPUS]
        body.append(line)
    out = ["**Table 3, shared memory** (`model.smem.stream`; the study's Table 3, its "
           "\"1 warp\" and \"32 thrd.\" rows are one measurement here)", ""]
    out += table(header, body)
    out += ["", "**Table 3, global memory** (`model.gmem.stream`; the study gives no "
            "global-memory inputs)", ""]
    header = ["configuration"] + [f"{short_model(m)} {what}" for m in models for what in
                                  ("bandwidth (GB/s)", "latency (ns)", "latency (cycles)",
                                   "concurrency C = T x Thr (B)")]
    body = []
    for label, grid in (("one block of 1024 threads", 0), ("the resident grid", 1)):
        line = [label]
        for m in models:
            bw = select(rows, m, "model.gmem.stream", "bandwidth", grid=grid)
            ns = select(rows, m, "model.gmem.stream", "latency", grid=grid)
            cycles = select(rows, m, "model.gmem.stream", "latency_cycles", grid=grid)
            c = median(bw) * median(ns) if bw and ns else None
            line += [cell(bw), cell(ns), cell(cycles), number(c)]
        body.append(line)
    out += table(header, body)
    return out + ["", f"From {sources(rows, ('model.smem.stream', 'model.gmem.stream'))}."]


def status_text(rows):
    """ok, or unverified with the worst relative error its note gives."""
    statuses = sorted({r["status"] for r in rows})
    if statuses != ["unverified"]:
        return "/".join(statuses) or "-"
    errors = {n.split("worst relative error ", 1)[1].split()[0] for n in
              (r["note"] for r in rows) if "worst relative error " in n}
    return "unverified: the sum is wrong" + (f" (relative error {'/'.join(sorted(errors))})"
                                            if errors else "")


def table5(rows):
    models = models_of(rows)
    header = ["variant"] + [f"{short_model(m)} (cycles)" for m in models] + \
        [f"{short_model(m)} status" for m in models] + [f"{g} (cycles)" for g in STUDY_GPUS]
    body = []
    both = ("ok", "unverified")
    for v, label in enumerate(WARP_VARIANTS):
        got = [select(rows, m, "gpu.warp.reduce", "latency_cycles", both, variant=v)
               for m in models]
        star = " *" if v == 1 else ""
        body.append([f"{v}: {label}{star}"] + [cell(g) for g in got] +
                    [status_text(g) for g in got] +
                    [f"{study.STUDY_WARP_REDUCE[g][v]}{star}" for g in STUDY_GPUS])
    return ["**Table 5** (`gpu.warp.reduce`; the study's Table 5, latency in cycles to sum "
            "32 doubles)", ""] + table(header, body) + \
        ["", f"\\* without synchronisation the sum is wrong (the study: \"incorrect\"; here the "
         f"check against the exact sum fails). From {sources(rows, ('gpu.warp.reduce',))}."]


def bytes_text(n):
    for unit, size in (("GiB", 1 << 30), ("MiB", MIB), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n} B"


def sizes_of(rows, model, method, **axes):
    return {int(gbcsv.config_axes(r)["bytes"]) for r in select(rows, model, method, "bandwidth",
                                                               **axes)}


def table6(rows, sizes=None):
    """sizes: the array sizes (bytes) to show; default every size >= 1 MiB that every column
    measured."""
    gbs = lambda v: "-" if v is None else f"{v:.1f}"  # noqa: E731
    header = ["GPU", "array"] + [label for label, _, _ in REDUCTIONS] + \
        ["CUDA sample", "copy (measured ceiling)", "theory (study)", "best / ceiling"]
    body = []
    for m in models_of(rows):
        common = set.intersection(sizes_of(rows, m, COPY), *(sizes_of(rows, m, meth, **ax)
                                                              for _, meth, ax in REDUCTIONS))
        shown = sorted(common & set(sizes)) if sizes else sorted(s for s in common if s >= MIB)
        for size in shown:
            got = [select(rows, m, meth, "bandwidth", bytes=size, **ax)
                   for _, meth, ax in REDUCTIONS]
            copy = select(rows, m, COPY, "bandwidth", bytes=size)
            best = max(median(g) for g in got)
            body.append([short_model(m), bytes_text(size)] + [cell(g, gbs) for g in got] +
                        ["-", cell(copy, gbs), "-", f"{100 * best / median(copy):.0f}%"])
    for g in STUDY_GPUS:
        figures = study.STUDY_REDUCTION[g]
        body.append([f"{g} (study)", "not stated"] + [f"{v:.2f}" for v in figures[:4]] +
                    ["-", f"{figures[4]:.2f}", f"{100 * max(figures[:4]) / figures[4]:.0f}%"])
    return ["**Table 6** (GB/s: bytes of the array / the reduction's time, launches included; "
            "the study's Table 6)", ""] + table(header, body) + \
        ["", "The ceiling is `reduction.copy` of the same size in the same run (bytes read + "
         "written / time, as CUDA's bandwidthTest); the study's is the GPU's theoretical peak. "
         f"`grid sync` is `reduction.single.grid-sync grid=1`. From "
         f"{sources(rows, [COPY] + [meth for _, meth, _ in REDUCTIONS])}."]


def fig16(rows, sizes=None):
    """The study's Fig. 16 as a table: GB/s of every multi-GPU reduction (reduction.multi.*, NCCL's
    variant 0) by launcher and GPU count, at the sizes given (default: 4 MiB, 64 MiB and the
    largest measured)."""
    ok = [r for r in rows if r["status"] == "ok" and r["method"].startswith("reduction.multi.")
          and r["metric"] == "bandwidth" and gbcsv.config_axes(r).get("variant", "0") == "0"]
    if not ok:
        return ["**Fig. 16**: no `reduction.multi.*` bandwidth rows."]
    axes = lambda r: gbcsv.config_axes(r)  # noqa: E731
    counts = sorted({int(r["gpu_count"]) for r in ok})
    measured = sorted({int(axes(r)["bytes"]) for r in ok})
    shown = sorted(set(sizes) & set(measured)) if sizes else \
        sorted({s for s in (4 * MIB, 64 * MIB, measured[-1]) if s in measured})
    body = []
    for m in models_of(ok):
        keys = sorted({(r["method"], r["launcher"]) for r in ok if r["gpu_model"] == m})
        for size in shown:
            for method, launcher in keys:
                got = [[r for r in ok if r["gpu_model"] == m and r["method"] == method and
                        r["launcher"] == launcher and int(r["gpu_count"]) == n and
                        int(axes(r)["bytes"]) == size] for n in counts]
                if any(got):
                    body.append([short_model(m), bytes_text(size), f"`{method}`", launcher] +
                                [cell(g, lambda v: f"{v:.1f}") if g else "-" for g in got])
    return ["**Fig. 16** (GB/s of the whole array by GPU count; `reduction.multi.nccl` is its "
            "allreduce, variant 0)", ""] + \
        table(["GPU", "array", "method", "launcher"] +
              [f"{n} GPU{'s' if n > 1 else ''}" for n in counts], body) + \
        ["", f"From {sources(ok, sorted({r['method'] for r in ok}))}."]


TABLES = {"3": table3, "5": table5, "6": table6, "16": fig16}


def report(paths, tables=("3", "5", "6"), sizes=None):
    """Markdown lines of the chosen tables from the CSVs at `paths`."""
    rows = load(paths)
    if not models_of(rows):
        raise ValueError(f"no GPU rows in {', '.join(paths)}")
    out = []
    for t in tables:
        if t not in TABLES:
            raise ValueError(f"--table {t}: one of {', '.join(TABLES)}")
        out += ([""] if out else []) + (TABLES[t](rows, sizes) if t in ("6", "16")
                                         else TABLES[t](rows))
    return out

#!/usr/bin/env python3
"""Markdown tables for results/README.md, computed from gpubarrier CSVs (never typed in).

  tools/report.py single results/h200/single-gpu.csv      # seed 002 Tables 4-8 layout
  tools/report.py multi results/h200x2/*.csv              # side-by-side multi-GPU barriers
  tools/report.py scaling results/h200x4/multi-gpu-scaling.csv   # each method over GPU counts
  tools/report.py selfcheck results/local/*-selfcheck.csv   # clock vs differential technique

Only rows with status ok are used; figures are the CSV `value` column.
"""
import collections
import csv
import math
import re
import sys


def load(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            rows += [r for r in csv.DictReader(f) if r["status"] == "ok"]
    return rows


def cfg(r):
    return dict(item.split("=") for item in r["config"].split())


def pick(rows, method, metric, gpu="0", **axes):
    out = []
    for r in rows:
        if r["method"] != method or r["metric"] != metric:
            continue
        if gpu is not None and r["gpu_ids"] not in (gpu, ""):
            continue
        c = cfg(r)
        if all(c.get(k) == str(v) for k, v in axes.items()):
            out.append(r)
    return out


def fmt(v, digits=3):
    return f"{v:.{digits}g}" if v < 100 else f"{v:.0f}"


def span(rows):
    vals = [float(r["value"]) for r in rows]
    if not vals:
        return "-"
    lo, hi = min(vals), max(vals)
    return fmt(lo) if abs(hi - lo) <= 0.02 * max(abs(lo), 1e-9) else f"{fmt(lo)}-{fmt(hi)}"


def single(rows):
    print("| level | case | metric | this GPU |")
    print("|---|---|---|---|")
    warp = [("gpu.warp.tile-sync", "tile sync"), ("gpu.warp.coalesced-sync", "coalesced sync"),
            ("gpu.warp.syncwarp", "__syncwarp(mask)"), ("gpu.warp.tile-shuffle", "tile shuffle"),
            ("gpu.warp.coalesced-shuffle", "coalesced shuffle")]
    for method, label in warp:
        for g in ("1", "32"):
            lat = pick(rows, method, "latency_cycles", group_size=g)
            thr = pick(rows, method, "throughput_cycles", group_size=g)
            print(f"| warp | {label}, group {g} | latency (cycles) | {span(lat)} |")
            if thr:
                print(f"| warp | {label}, group {g} | throughput ({thr[0]['unit']}) | {span(thr)} |")
    for t in ("32", "256", "1024"):
        lat = pick(rows, "gpu.block.syncthreads", "latency_cycles", threads_per_block=t)
        print(f"| block | __syncthreads, {t} threads | latency (cycles) | {span(lat)} |")
    for t in ("32", "64", "128", "1024"):
        thr = pick(rows, "gpu.block.syncthreads", "throughput", threads_per_block=t)
        best = max(thr, key=lambda r: float(r["value"]), default=None)
        if best:
            print(f"| block | __syncthreads, {t} threads, best blocks/SM | throughput "
                  f"({best['unit']}) | {fmt(float(best['value']))} (at {cfg(best)['blocks_per_sm']}/SM) |")
    for method in ("gpu.cluster.sync", "gpu.cluster.arrive-wait"):
        for cs in ("1", "2", "8", "16"):
            lat = pick(rows, method, "latency_cycles", cluster_size=cs, threads_per_block=128)
            if lat:
                print(f"| cluster | {method[12:]}, cluster {cs} x 128 threads | latency (cycles) | {span(lat)} |")
            thr = pick(rows, method, "throughput", cluster_size=cs, threads_per_block=128)
            best = max(thr, key=lambda r: float(r["value"]), default=None)
            if best:
                clusters = best["note"].split("active_clusters=")[1].split()[0]
                print(f"| cluster | {method[12:]}, cluster {cs} x 128 threads, best blocks/SM | throughput "
                      f"({best['unit']}, whole GPU) | {fmt(float(best['value']))} "
                      f"(at {cfg(best)['blocks_per_sm']}/SM, {clusters} clusters) |")
    for method in ("gpu.grid.cg", "gpu.grid.cg-arrive-wait", "gpu.grid.atomic-sense",
                   "gpu.grid.flag-epoch"):
        for b in ("1", "2", "4", "8", "16", "32"):
            lat = pick(rows, method, "latency", blocks_per_sm=b)
            if lat:
                vals = [float(r["value"]) / 1000 for r in lat]
                print(f"| grid | {method[9:]}, {b} blocks/SM (min-max over block sizes) | latency (us) | "
                      f"{min(vals):.3f}-{max(vals):.3f} |")
    for method in ("kernel.launch.triple-chevron", "kernel.launch.cooperative", "kernel.launch.ex",
                   "kernel.launch.graph"):
        for metric, label in (("latency", "launch + sync"), ("launch_interval", "back-to-back launch")):
            v = pick(rows, method, metric, blocks_per_sm=1)
            if v:
                print(f"| kernel | {method[14:]}: {label} | (us) | "
                      f"{span([dict(r, value=float(r['value']) / 1000) for r in v])} |")
    fus = pick(rows, "kernel.fusion", "launch_overhead")
    if fus:
        print(f"| kernel | fusion (Eq. 6): launch overhead hidden behind running kernels | (us) | "
              f"{span([dict(r, value=float(r['value']) / 1000) for r in fus])} |")


def multi(rows):
    table = collections.OrderedDict()
    for r in rows:
        if r["metric"] != "latency" or r["level"] not in ("multi-gpu", "kernel", "host"):
            continue
        c = cfg(r)
        shape = (f'{c["blocks_per_sm"]}x{c["threads_per_block"]}' if "blocks_per_sm" in c else "-")
        extra = " ".join(f"{k}={v}" for k, v in c.items()
                         if k in ("ordering", "blocking", "host_wait") and v != "0" or k == "ordering")
        key = (r["method"], extra, shape)
        table.setdefault(key, {})[(r["launcher"], r["gpu_count"])] = float(r["value"]) / 1000
    cols = sorted({k for v in table.values() for k in v}, key=lambda x: (x[0], int(x[1])))
    print("| method | variant | blocks/SM x threads | " +
          " | ".join(f"{l} x{n} (us)" for l, n in cols) + " |")
    print("|---|---|---|" + "---|" * len(cols))
    for (method, extra, shape), vals in sorted(table.items()):
        cells = " | ".join(f"{vals[c]:.2f}" if c in vals else "" for c in cols)
        print(f"| {method} | {extra} | {shape} | {cells} |")


def scaling(rows):
    """One line per method variant at 1x128 and 4x256 (host methods: their own shape), one column
    per GPU count with 'threads / mpi' figures in us, and how the largest count compares with 2."""
    table = collections.OrderedDict()
    for r in rows:
        if r["metric"] != "latency" or r["level"] not in ("multi-gpu", "kernel") or r["gpu_count"] == "0":
            continue
        c = cfg(r)
        shape = f'{c["blocks_per_sm"]}x{c["threads_per_block"]}' if "blocks_per_sm" in c else "-"
        if shape not in ("-", "1x128", "4x256"):
            continue
        extra = " ".join(f"{k}={v}" for k, v in c.items() if k in ("ordering", "blocking", "host_wait"))
        mode = "mpi" if r["launcher"] == "mpi" else "threads"
        cell = table.setdefault((r["method"], extra, shape), {}).setdefault(int(r["gpu_count"]), {})
        cell[mode] = float(r["value"]) / 1000
    counts = sorted({n for v in table.values() for n in v})
    top = counts[-1] if counts else 0
    print("| method | variant | blocks/SM x threads | " +
          " | ".join(f"{n} GPU{'s' if n > 1 else ''} (us)" for n in counts) + f" | {top} vs 2 GPUs |")
    print("|---|---|---|" + "---|" * (len(counts) + 1))
    for (method, extra, shape), vals in sorted(table.items()):
        cells = []
        for n in counts:
            v = vals.get(n, {})
            cells.append(" / ".join(f"{v[m]:.2f}" if m in v else "-" for m in ("threads", "mpi")) if v else "")
        def best(n):
            v = vals.get(n, {})
            return min(v.values()) if v else None
        ratio = f"{best(top) / best(2):.2f}x" if best(top) and best(2) else ""
        print(f"| {method} | {extra} | {shape} | {' | '.join(cells)} | {ratio} |")


def selfcheck_pairs(rows, method):
    """{(gpu_model, run_id, config): {technique: row}} of one selfcheck method's figures."""
    pairs = collections.OrderedDict()
    for r in rows:
        if r["method"] == method and r["metric"] == "cycles_per_add":
            pairs.setdefault((r["gpu_model"], r["run_id"], r["config"]), {})[r["technique"]] = r
    return pairs


def std_err(r):
    return float(r["stddev"] or 0) / math.sqrt(max(int(r["samples"] or 1), 1))


def selfcheck(rows):
    """`gpubarrier selfcheck` rows: the loop kernel by both techniques at every repeat difference
    (agreement as the run judged it, from the note), then the unrolled chains' instruction-cache
    scan. One line per run and repeat difference."""
    runs = {r["run_id"] for r in rows if r["method"].startswith("selfcheck.")}
    lead = "| GPU | run " if len(runs) > 1 else ""
    print(lead + "| R_lo (trips) | repeat difference | clock (cycles/add) | "
          "differential (cycles/add) | deviation | agreement |")
    print("|---" * (lead.count("|") + 6) + "|")
    words = {"tolerance": "within {tol}", "2se": "within 2 SE", "none": "**no**"}
    for (model, run, _), t in selfcheck_pairs(rows, "selfcheck.fadd.loop").items():
        c, d = t.get("clock"), t.get("differential")
        if not c or not d:
            continue  # R_lo alone (repeat difference 0) has no differential figure
        clock, diff = float(c["value"]), float(d["value"])
        agreement = re.search(r"agreement (\S+)", d["note"])
        tol = re.search(r"tolerance (\d+%)", d["note"])
        said = words.get(agreement.group(1), agreement.group(1)) if agreement else "-"
        cells = (f"| {model} | {run} " if lead else "") + (
            f"| {cfg(d)['base_trips']} | {cfg(d)['repeat_difference']} | {clock:.3f} | "
            f"{diff:.3f} ± {std_err(d):.3f} | {100 * (diff / clock - 1):+.1f}% | "
            f"{said.format(tol=tol.group(1) if tol else 'tolerance')} |")
        print(cells)
    chains = [t for t in selfcheck_pairs(rows, "selfcheck.fadd.unrolled").values()
              if "clock" in t and "differential" in t]
    if not chains:
        return
    print()
    print(lead + "| adds | code | clock (cycles/add) | instruction cache | "
          "differential (cycles/add) | launch difference (cycles) |")
    print("|---" * (lead.count("|") + 6) + "|")
    for t in chains:
        c, d = t["clock"], t["differential"]
        model, run = c["gpu_model"], c["run_id"]
        code = re.search(r"(\d+ KiB) of code", c["note"])
        launch = re.search(r"launch difference ([-+]?\d+) cycles \(standard error (\d+)\)",
                           d["note"])
        adds = int(cfg(c)["base_adds"]) + int(cfg(c)["repeat_difference"])
        print((f"| {model} | {run} " if lead else "") +
              f"| {adds} | {code.group(1) if code else '-'} | {float(c['value']):.3f} | "
              f"{'overflows' if 'overflows' in c['note'] else 'fits'} | "
              f"{float(d['value']):.3f} ± {std_err(d):.3f} | "
              f"{launch.group(1) + ' ± ' + launch.group(2) if launch else '-'} |")


if __name__ == "__main__":
    modes = {"single": single, "multi": multi, "scaling": scaling, "selfcheck": selfcheck}
    if len(sys.argv) < 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    modes[sys.argv[1]](load(sys.argv[2:]))

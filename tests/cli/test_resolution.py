#!/usr/bin/env python3
"""Figures below resolution and above the memory's limit are no verdict's figures
(results/SCHEMA.md, "Unresolved figures" and "Physical bounds"), read from committed rows:

  unresolved   Eq. 6 rows whose 95% interval includes zero (h100x2/launch-types.csv lines 2, 3,
               6; h100/2026-11-28/launch-types.csv line 3) read as unverified with a note part
               "unresolved: 95% interval LO..HI ns includes zero, below HI ns";
               gbcsv.figure_excluded returns it, and None for a resolved row (1031 ns)
  excluded     figure_excluded on synthetic rows: a "not timed:" part of an ok row, an
               "unresolved:" part after "verified", an ok eq7 row not read through load, a row
               outside a bound; the t quantile against the tables
  clock_twin   the ns twins of sub-cycle shared-memory loads (h100x2/reduction.csv) are outside
               the one-cycle bound like their cycle rows
  increments   cold reductions whose bytes between 16 and 32 MiB were read faster than the H100's
               DRAM peak (h100/2026-11-28/reduction.csv: CUB, the copy) are not ok; the pair 64 ->
               256 MiB, within the peak, stays ok

Run by pytest: pytest tests/cli/test_resolution.py [--gpubarrier PATH]
"""
import os
import sys
import tempfile


sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
from gpubarrier_tools.data import bounds
from gpubarrier_tools.data import gbcsv
from cli_common import committed_files, expect, synthetic_row, write_rows

LAUNCH_2X = "results/h100x2/launch-types.csv"
LAUNCH_1X = "results/h100/2026-11-28/launch-types.csv"
REDUCTION_2X = "results/h100x2/reduction.csv"
REDUCTION_1X = "results/h100/2026-11-28/reduction.csv"


def lines_of(path):
    """{line: row} of a committed CSV, read through gbcsv."""
    expect(path in committed_files(ROOT, os.path.dirname(path)), f"{path} is committed")
    return {r["_line"]: r for r in gbcsv.load([os.path.join(ROOT, path)])}


def test_unresolved():
    for path, line in [(LAUNCH_2X, 2), (LAUNCH_2X, 3), (LAUNCH_2X, 6), (LAUNCH_1X, 3)]:
        r = lines_of(path)[line]
        why = gbcsv.figure_excluded(r)
        expect(r["status"] == "unverified", f"{path}:{line}: status {r['status']}, expected "
                                            f"unverified ({r['note']})")
        expect(why is not None and why.startswith("unresolved: 95% interval ") and
               " ns includes zero, below " in why and why.endswith(" ns"),
               f"{path}:{line}: figure_excluded gives {why!r}")
        hi = float(why.rsplit("below ", 1)[1].split()[0])
        expect(0 < hi < 200, f"{path}:{line}: the bound it establishes, {hi} ns")
        parts = r["note"].split("; ")
        expect(sum(p.startswith("unresolved: ") for p in parts) == 1,
               f"{path}:{line}: one unresolved part of its own: {r['note']}")
    resolved = lines_of(LAUNCH_1X)[2]  # 1031 ns +- 18 over 10 pairs
    expect(resolved["status"] == "ok" and gbcsv.figure_excluded(resolved) is None,
           f"a resolved Eq. 6 row stays usable: {resolved['status']} {resolved['note']}")
    ok_keys = {(r["_line"]) for r in gbcsv.load([os.path.join(ROOT, LAUNCH_2X)], statuses={"ok"})}
    expect(not ok_keys & {2, 3, 4, 5, 6, 7}, f"no unresolved row is read as ok: {ok_keys}")


def row(**kw):
    base = {"gpu_model": "NVIDIA H200", "gpu_uuids": "GPU-a", "gpu_ids": "0", "unit": "ns",
            "metric": "latency", "method": "gpu.grid.cg", "config": "blocks_per_sm=1"}
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def test_excluded():
    not_timed = row(note="verified; not timed: ptxas removed the sync from the timed region")
    expect(gbcsv.figure_excluded(not_timed) ==
           "not timed: ptxas removed the sync from the timed region",
           f"a not-timed part: {gbcsv.figure_excluded(not_timed)!r}")
    written = row(status="unverified", statistic="eq6", technique="fusion",
                  note="verified; 100 launches; unresolved: 95% interval -5..7 ns includes zero, "
                       "below 7 ns; noisy: cv 3 > 0.25")
    expect(gbcsv.figure_excluded(written) ==
           "unresolved: 95% interval -5..7 ns includes zero, below 7 ns",
           f"the part as the executable writes it: {gbcsv.figure_excluded(written)!r}")
    # Not read through load: the rule itself (value 10 +- 2.262 x 20 / sqrt(10) = +- 14.3).
    raw = row(statistic="eq7", technique="differential", value=10, stddev=20, samples=10)
    expect(gbcsv.figure_excluded(raw) ==
           "unresolved: 95% interval -4.31..24.3 ns includes zero, below 24.3 ns",
           f"an ok eq7 row not read through load: {gbcsv.figure_excluded(raw)!r}")
    sharp = row(statistic="eq7", technique="differential", value=1000, stddev=20, samples=10)
    expect(gbcsv.figure_excluded(sharp) is None, "a resolved eq7 row is usable")
    median = row(value=10, stddev=20, samples=10)  # a median: no interval rule
    expect(gbcsv.figure_excluded(median) is None, "a median row is not judged by the interval")
    bound = row(status="unverified", note="outside physical bound: latency 0 at or below 0 (a "
                                          "time is above zero); verified")
    expect(gbcsv.figure_excluded(bound) ==
           "unverified: outside physical bound: latency 0 at or below 0 (a time is above zero)",
           f"a row outside a bound: {gbcsv.figure_excluded(bound)!r}")
    for df, t in [(1, 12.706), (2, 4.303), (3, 3.182), (9, 2.262), (29, 2.045), (1000, 1.962)]:
        expect(abs(bounds.t975(df) - t) < 2e-3, f"t(0.975, {df}) = {bounds.t975(df)}, table {t}")
    # Through load: an unresolved row written by an older build gets the part and is not ok.
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.csv")
        write_rows(path, gbcsv.NAMES, [dict(raw, note="verified"), dict(sharp, config="x=1")])
        got = gbcsv.load([path])
        expect([r["status"] for r in got] == ["unverified", "ok"],
               f"statuses {[r['status'] for r in got]}")
        expect(got[0]["note"] == "verified; unresolved: 95% interval -4.31..24.3 ns includes "
                                 "zero, below 24.3 ns", f"note {got[0]['note']!r}")


def test_clock_twin():
    rows = lines_of(REDUCTION_2X)
    twins = [r for r in rows.values() if r["method"] == "model.smem.stream" and
             r["metric"] == "latency"]
    expect(len(twins) >= 3, f"the ns rows of model.smem.stream: {len(twins)}")
    for r in twins:
        cycles = float(r["value"]) * float(r["sm_clock_mhz"]) / 1000
        if cycles < 1:
            expect(r["status"] == "unverified" and r["note"].startswith(
                "outside physical bound: latency ") and " cycles at " in r["note"],
                f"line {r['_line']}: {cycles:.3g} cycles read as {r['status']}: {r['note']}")
            expect(gbcsv.figure_excluded(r).startswith("unverified: outside physical bound"),
                   f"line {r['_line']}: figure_excluded {gbcsv.figure_excluded(r)!r}")


def test_increments():
    rows = lines_of(REDUCTION_1X)

    def cold(method, nbytes, metric):
        return [r for r in rows.values() if r["method"] == method and r["metric"] == metric and
                gbcsv.config_axes(r).get("cache") == "0" and
                gbcsv.config_axes(r).get("bytes") == str(nbytes)]

    for method in ("reduction.single.cub", "reduction.copy"):
        for nbytes in (16 << 20, 32 << 20):
            for metric in ("latency", "bandwidth"):
                (r,) = cold(method, nbytes, metric)
                expect(r["status"] == "unverified" and "above the GPU's DRAM peak 3352 GB/s" in
                       r["note"] and r["note"].startswith("outside physical bound: the "),
                       f"{method} {nbytes} {metric}: {r['status']} {r['note']}")
    for method in ("reduction.single.cub", "reduction.copy"):
        for nbytes in (64 << 20, 256 << 20):
            (r,) = cold(method, nbytes, "bandwidth")
            expect(r["status"] == "ok", f"{method} {nbytes}: within the peak, {r['note']}")
    expect(all(src for _, _, src in bounds.DRAM_PEAKS), "every DRAM peak names its source")

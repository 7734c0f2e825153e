#!/usr/bin/env python3
"""gpubarrier's ReFrame checks (reframe/) run by ReFrame on this machine (system local-gpu, no
scheduler) with a stand-in for gpubarrier that writes a given CSV, so that the GPU checks' CSV
reading is tested without a GPU:

replay    QuickSuite and FloorSweep on committed GPU results pass; ReFrame reports each method's
          latency (its lowest ok latency row) and each barrier's latency over its floor
          (gpubarrier_tools/analysis/floor.py), and the CSV stays in the output folder
bad rows  a CSV with one failed, timeout or unverified row fails the check in its sanity phase,
          with the row named
site references  a site's own references folder (-S references=DIR) holds the floor ratio to
          a bound: within it the check passes, beyond it the check fails in its performance phase
shipped references  every references/<system>.json that names its _command is what
          reframe/lib/make_references.py writes from the committed runs named there (bounds
          derived, never typed; none written by hand);
          local-gpu's hold the replayed figures, and a regression beyond their bound (the
          committed runs with gpu.grid.cg or a floor ratio slower by the file's factor and a
          little) fails the check in its performance phase, naming the variable

Run by pytest: pytest tests/cli/test_reframe_checks.py (the stand-in runs, not gpubarrier)
"""
import csv
import glob
import json
import os
import subprocess
import sys

import pytest

from cli_common import expect, synthetic_row, write_rows
from reframe_runner import ROOT, cases, require_reframe, run_reframe, stand_in

from gpubarrier_tools.analysis import floor
from gpubarrier_tools.data import gbcsv

# The suite imports what it reads with from its own files' locations (reframe/lib/gbresults.py):
# it runs without the tests' PYTHONPATH.
WITHOUT_PYTHONPATH = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
# Committed GPU results the stand-in replays (an H200 quick run, an H100 x4 floor run).
QUICK = os.path.join(ROOT, "results", "h200", "v3", "quick.csv")
FLOOR = os.path.join(ROOT, "results", "h100x4", "floor.csv")


def lowest_latency(path, method):
    with open(path, newline="") as f:
        return min(float(r["value"]) for r in csv.DictReader(f)
                   if r["method"] == method and r["metric"] == "latency" and r["status"] == "ok")


def with_bad_row(src, dst, status):
    """src with its first ok row turned `status`; that row's method."""
    with open(src, newline="") as f:
        reader = csv.DictReader(f)
        rows, fields = list(reader), reader.fieldnames
    bad = next(r for r in rows if r["status"] == "ok")
    bad["status"], bad["note"] = status, f"stand-in {status} row"
    with open(dst, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    return bad["method"]


def test_replay(reframe_work):
    work = reframe_work
    exe = stand_in(work, {"quick.csv": QUICK, "floor.csv": FLOOR})
    p, report = run_reframe(work, ["--system", "local-gpu:gpu", "-n", "QuickSuite",
                                   "-n", "FloorSweep", "-S", f"gpubarrier={exe}", "-r"],
                            env=WITHOUT_PYTHONPATH)
    got = cases(report)
    expect(p.returncode == 0 and sorted(got) == ["FloorSweep", "QuickSuite"] and
           all(c["result"] == "pass" for c in got.values()),
           "QuickSuite and FloorSweep pass on committed GPU results", p)
    quick = got["QuickSuite"]["perfvalues"]
    want = lowest_latency(QUICK, "gpu.grid.cg")
    key = "local-gpu:gpu:gpu.grid.cg"
    expect(key in quick and abs(quick[key][0] - want) < 1e-6 * want and quick[key][4] == "ns",
           f"QuickSuite reports gpu.grid.cg's lowest latency, {want} ns: {quick.get(key)}", p)
    ratios = {}
    for item in floor.floors(gbcsv.load_file(FLOOR, {"ok"})):
        if "ratio" in item:
            ratios[item["method"]] = min(ratios.get(item["method"], item["ratio"]), item["ratio"])
    floors = {k.split(":", 2)[2]: v for k, v in got["FloorSweep"]["perfvalues"].items()
              if k.endswith("/floor")}
    expect(ratios and sorted(floors) == sorted(m.replace(" ", ",") + "/floor" for m in ratios) and
           all(abs(floors[m.replace(" ", ",") + "/floor"][0] - r) < 1e-9 for m, r in
               ratios.items()),
           f"FloorSweep reports every barrier's lowest latency / floor: {ratios} vs {floors}", p)
    kept = os.path.join(got["FloorSweep"]["outputdir"], "floor.csv")
    expect(os.path.isfile(kept), f"the CSV stays in the output folder ({kept})", p)


def test_bad_rows(reframe_work):
    work = reframe_work
    by_out, bad = {}, {}
    for name, status, src in (("host-omp.csv", "failed", QUICK), ("quick.csv", "timeout", QUICK),
                              ("floor.csv", "unverified", FLOOR)):
        by_out[name] = os.path.join(work, f"bad-{name}")
        bad[name] = (status, with_bad_row(src, by_out[name], status))
    exe = stand_in(work, by_out)
    p, report = run_reframe(work, ["--system", "local-gpu:gpu", "-n", "HostOmpBarrier",
                                   "-n", "QuickSuite", "-n", "FloorSweep",
                                   "-S", f"gpubarrier={exe}", "-r"])
    got = cases(report)
    expect(p.returncode != 0 and sorted(got) == ["FloorSweep", "HostOmpBarrier", "QuickSuite"],
           "ReFrame fails the run", p)
    for test, name in (("HostOmpBarrier", "host-omp.csv"), ("QuickSuite", "quick.csv"),
                       ("FloorSweep", "floor.csv")):
        status, method = bad[name]
        c = got[test]
        expect(c["result"] == "fail" and c["fail_phase"] == "sanity" and
               f"{status}: stand-in {status} row" in (c["fail_reason"] or "") and
               method in c["fail_reason"],
               f"{test} fails its sanity on a {status} row of {method}: {c['fail_phase']}: "
               f"{c['fail_reason']}", p)


def test_local_host_checks_one_at_a_time(reframe_work):
    """On `local` (no scheduler) the host checks' members outnumber the machine's cores (the
    OpenMP check takes a thread per CPU): ReFrame runs them one at a time, and each says so."""
    work = reframe_work
    by_out = {}
    for name, method in (("host-omp.csv", "host.omp.barrier"), ("host-mpi.csv", "host.mpi.barrier")):
        by_out[name] = os.path.join(work, f"synthetic-{name}")
        write_rows(by_out[name], gbcsv.NAMES, [synthetic_row(
            gbcsv.NAMES, gbcsv.LATEST, method=method, level="host", status="ok", value="400",
            unit="ns", metric="latency", note="not verified: no check")])
    spans = os.path.join(work, "spans.txt")
    exe = stand_in(work, by_out, spans)
    p, report = run_reframe(work, ["--system", "local", "-n", "HostOmpBarrier",
                                   "-n", "HostMpiBarrier", "-S", f"gpubarrier={exe}", "-r"])
    got = cases(report)
    expect(p.returncode == 0 and sorted(got) == ["HostMpiBarrier", "HostOmpBarrier"],
           "both host checks pass", p)
    ran = {}
    with open(spans) as f:
        for line in f:
            out, start, end = line.split()
            lo, hi = ran.get(out, (float(start), float(end)))
            ran[out] = (min(lo, float(start)), max(hi, float(end)))
    (a0, a1), (b0, b1) = ran["host-omp.csv"], ran["host-mpi.csv"]
    expect(a1 <= b0 or b1 <= a0, f"the host checks ran one at a time: {ran}", p)
    for check in ("HostOmpBarrier", "HostMpiBarrier"):
        expect(f"{check}: " in p.stdout and "run one at a time (max_jobs 1), this one alone"
               in p.stdout, f"{check} says it ran alone, and why", p)


def test_site_references(reframe_work):
    work = reframe_work
    """A site's references folder (-S references=DIR): FloorSweep passes where its figures are
    within them and fails in its performance phase where one is not."""
    exe = stand_in(work, {"floor.csv": FLOOR})
    refs = os.path.join(work, "refs")
    os.makedirs(refs, exist_ok=True)
    grid = lowest_latency(FLOOR, "gpu.grid.cg")
    for upper, result in ((0.5, "pass"), (0.001, "fail")):
        # push over its floor is 1.03 in this run: below 1.5, above 1.001.
        with open(os.path.join(refs, "local-gpu.json"), "w") as f:
            json.dump({"gpu": {"multigpu.device.push/floor": [1.0, None, upper, "x"],
                               "gpu.grid.cg": [grid, -0.01, 0.01, "ns"]}}, f)
        p, report = run_reframe(work, ["--system", "local-gpu:gpu", "-n", "FloorSweep",
                                       "-S", f"gpubarrier={exe}", "-S", f"references={refs}",
                                       "-r"])
        c = cases(report).get("FloorSweep", {})
        push = c.get("perfvalues", {}).get("local-gpu:gpu:multigpu.device.push/floor")
        expect(c.get("result") == result and push and push[1:5] == [1.0, None, upper, "x"] and
               (result == "pass" or c["fail_phase"] == "performance"),
               f"FloorSweep {result}s with push/floor {push} against the site's upper bound "
               f"{upper}: {c.get('fail_phase')}: {c.get('fail_reason')}", p)


REFERENCES = os.path.join(ROOT, "reframe", "references")
MAKE_REFERENCES = os.path.join(ROOT, "reframe", "lib", "make_references.py")


def test_shipped_files():
    """Each shipped references file is what its own _command writes from committed runs."""
    files = sorted(glob.glob(os.path.join(REFERENCES, "*.json")))
    expect(files, f"references in {REFERENCES}")
    tracked = set(subprocess.run(["git", "-C", ROOT, "ls-files", "results"], capture_output=True,
                                 text=True).stdout.split())
    generated = []
    for path in files:
        with open(path) as f:
            command = json.load(f).get("_command")
        expect(command is not None, f"{path}: written by make_references.py (its _command)")
        generated.append(os.path.basename(path))
        csvs = [a for a in command if a.endswith(".csv")]
        expect(csvs and all(c in tracked for c in csvs),
               f"{path}: written from committed runs (results/...csv): {command}")
        # as a site runs it: nothing on PYTHONPATH (the file finds what it imports itself)
        p = subprocess.run([sys.executable, MAKE_REFERENCES, "--check", path], cwd=ROOT,
                           capture_output=True, text=True, timeout=120, env=WITHOUT_PYTHONPATH)
        expect(p.returncode == 0, f"{path} is what make_references.py writes from its runs", p)
    expect({"local-gpu.json", "local-slurm.json"} <= set(generated),
           f"local-gpu.json and local-slurm.json are generated: {generated}")


def scaled(src, dst, pick, factor):
    """src with the value (and statistics) of every row `pick` accepts multiplied by factor."""
    with open(src, newline="") as f:
        reader = csv.DictReader(f)
        rows, fields = list(reader), reader.fieldnames
    for r in rows:
        if pick(r):
            for c in ("value", "mean", "min", "max", "p95", "p99"):
                if r.get(c):
                    r[c] = repr(float(r[c]) * factor)
    with open(dst, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def test_regression(reframe_work):
    work = reframe_work
    """The shipped local-gpu references fail a run slower than their bound: gpu.grid.cg in the
    quick sweep, a barrier's latency (hence its floor ratio) in the floor sweep."""
    with open(os.path.join(REFERENCES, "local-gpu.json")) as f:
        shipped = json.load(f)["gpu"]
    grid = shipped["gpu.grid.cg"]
    push = shipped["multigpu.device.push/floor"]
    # beyond the upper bound of the slowest committed run: (1 + upper) x value over the lowest
    # committed figure, and 10% more
    slow_grid = (1 + grid[2]) * grid[0] / lowest_latency(QUICK, "gpu.grid.cg") * 1.1
    ratios = {}
    for item in floor.floors(gbcsv.load_file(FLOOR, {"ok"})):
        if "ratio" in item and item["method"] == "multigpu.device.push":
            ratios[item["method"]] = min(ratios.get(item["method"], item["ratio"]), item["ratio"])
    slow_push = (1 + push[2]) * push[0] / ratios["multigpu.device.push"] * 1.1
    quick, floor_csv = os.path.join(work, "slow-quick.csv"), os.path.join(work, "slow-floor.csv")
    scaled(QUICK, quick, lambda r: r["method"] == "gpu.grid.cg" and r["metric"] == "latency",
           slow_grid)
    scaled(FLOOR, floor_csv, lambda r: r["method"] == "multigpu.device.push" and
           r["metric"] == "latency", slow_push)
    exe = stand_in(work, {"quick.csv": quick, "floor.csv": floor_csv})
    p, report = run_reframe(work, ["--system", "local-gpu:gpu", "-n", "QuickSuite",
                                   "-n", "FloorSweep", "-S", f"gpubarrier={exe}", "-r"],
                            env=WITHOUT_PYTHONPATH)
    got = cases(report)
    expect(p.returncode != 0 and sorted(got) == ["FloorSweep", "QuickSuite"], "ReFrame fails "
           "the run", p)
    for test, variable in (("QuickSuite", "gpu.grid.cg"),
                           ("FloorSweep", "multigpu.device.push/floor")):
        c = got[test]
        expect(c["result"] == "fail" and c["fail_phase"] == "performance" and
               variable in (c["fail_reason"] or ""),
               f"{test} fails its performance phase on {variable} beyond the shipped bound: "
               f"{c['fail_phase']}: {c['fail_reason']}", p)


@pytest.fixture
def reframe_work(tmp_path):
    """A folder for one ReFrame run; skips (or fails, GPUBARRIER_REQUIRE_REFRAME=1) without
    ReFrame."""
    require_reframe()
    for path in (QUICK, FLOOR):
        expect(os.path.isfile(path), f"the committed results {path} exist")
    return str(tmp_path)

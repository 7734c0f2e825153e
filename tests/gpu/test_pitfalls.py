#!/usr/bin/env python3
"""The study's synchronisation pitfalls (section 8) on a real GPU; skipped when none is visible.

  warp_wait_check    pitfall.warp.wait-check: every sync and shuffle variant ok with 0 trials
                     where a thread left before another arrived, the negative control (variant 0,
                     no sync) unverified with such trials at every group size; tiles of sizes
                     that are no power of two skipped.
  grid_partial_sync  pitfall.grid.partial-sync: part of the grid skipping the barrier ends as a
                     timeout row saying so, within seconds per row (the watchdog), never a hang;
                     every block arriving is ok, also right after a timeout.
  grid_sync_partial  the same with cg::this_grid().sync(): outside an isolated child a skipped
                     row (it would never return); in a sweep's isolated child the control is ok,
                     one block absent is a timeout row once the child is killed at point_timeout
                     (quoting how many blocks reached the sync), never a hang, and the control
                     right after, in a fresh child, is ok again (the killed child freed the GPU).
  sweep              configs/sweeps/pitfalls.yaml as shipped: the same outcomes for every row.

Run by pytest (`pytest tests/gpu/test_pitfalls.py`; ctest: gpu.pitfalls).
"""
import os
import re
import time

from gpu_rows import codes, fail, rows_of
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WARP, GRID = "pitfall.warp.wait-check", "pitfall.grid.partial-sync"
TILES = ("2", "4")  # variants whose groups are tiles: powers of two only


def axes(r):
    """The row's config, every value as text and a named one as its code."""
    return {k: str(v) for k, v in codes(r).items()}


def check_warp_row(r):
    """One pitfall.warp.wait-check row against what the study saw on GPUs with a program counter
    per thread (Volta and later): every sync waits, the control does not."""
    a = axes(r)
    k = int(a["group_size"])
    if a["variant"] in TILES and k & (k - 1):
        if r["status"] != "skipped" or "tiles have" not in r["note"]:
            fail("a tile of a size that is no power of two must be skipped", [r])
        return "skipped"
    if (r["metric"], r["unit"], r["technique"], r["statistic"]) != \
            ("check_left_early", "per 1e6 trials", "check", "count") or int(r["reps_hi"]) <= 0:
        fail("a wait-check row is a check count per 10^6 trials, the trials in reps_hi", [r])
    trials = r["reps_hi"]
    if a["variant"] == "0":
        m = re.match(r"control \(no sync\): in (\d+) of (\d+) trials a thread left before "
                     r"another arrived", r["note"])
        if r["status"] != "unverified" or not m or int(m[1]) <= 0 or m[2] != trials or \
                float(r["value"]) <= 0 or \
                abs(float(r["value"]) - int(m[1]) * 1e6 / int(trials)) > 1e-3 * float(r["value"]):
            fail("the control without a sync must be unverified with trials that left early", [r])
        return "caught"
    want = f"verified: every thread left after the last arrived in {trials} trials"
    if r["status"] != "ok" or float(r["value"]) != 0 or not r["note"].startswith(want):
        fail("a sync or shuffle must make every thread wait in every trial", [r])
    return "verified"


def test_warp_wait_check(gpubarrier, gpus):
    rows = rows_of([gpubarrier, "run", "--gpus", "0", "--methods", WARP,
                    "--axis", "variant=0:5", "--axis", "group_size=2,3,8,17,32"], timeout=600)
    if len(rows) != 30:
        fail(f"expected 30 rows (6 variants x 5 sizes), got {len(rows)}", rows)
    seen = {}
    for r in rows:
        seen.setdefault(check_warp_row(r), []).append(r["config"])
    if len(seen.get("caught", [])) != 5 or len(seen.get("skipped", [])) != 4 or \
            len(seen.get("verified", [])) != 21:
        fail(f"5 caught controls, 4 skipped tiles and 21 verified syncs expected: {seen}", rows)
    print("PASS", {k: len(v) for k, v in seen.items()}, "; control:",
          next(r["note"][:140] for r in rows if axes(r)["variant"] == "0"))


def check_grid_row(r):
    """One pitfall.grid.partial-sync row: missing 0 ok, 1 and 2 timeout with the blocks that
    never arrived counted and named."""
    a = axes(r)
    if (r["metric"], r["unit"], r["technique"], r["statistic"]) != \
            ("check_never_arrived", "blocks", "check", "count"):
        fail("a partial-sync row counts the blocks that never arrived", [r])
    m = re.search(r"(\d+) of (\d+) blocks reached the barrier", r["note"])
    if not m:
        fail("the note must say how many blocks reached the barrier", [r])
    arrived, blocks = int(m[1]), int(m[2])
    absent = {"0": 0, "1": 1, "2": blocks - blocks // 2}[a["missing"]]
    if float(r["value"]) != absent or blocks - arrived != absent:
        fail(f"expected {absent} of {blocks} blocks never to arrive", [r])
    if a["missing"] == "0":
        if r["status"] != "ok" or not r["note"].startswith("verified: ") or \
                "crossed all" not in r["note"]:
            fail("the whole grid at the barrier (the control) must be ok", [r])
        return "ok"
    if r["status"] != "timeout" or not r["note"].startswith("part of the grid never arrived") or \
            "watchdog" not in r["note"]:
        fail("part of the grid at the barrier must be a timeout row that says so", [r])
    return "timeout"


def run_grid(exe, *args):
    """Runs and returns (rows, seconds); a hang fails the test at the bound, not ctest's."""
    start = time.monotonic()
    rows = rows_of([exe, *args], timeout=240)
    return rows, time.monotonic() - start


def test_grid_partial_sync(gpubarrier, gpus):
    # barrier varies slowest: flag-epoch's control runs right after atomic-sense's timeouts,
    # which shows that the GPU is not left wedged by a barrier the watchdog ended.
    rows, took = run_grid(gpubarrier, "run", "--gpus", "0", "--methods", GRID, "--watchdog", "1",
                          "--axis", "barrier=0,1", "--axis", "missing=0,1,2")
    if len(rows) != 6:
        fail(f"expected 6 rows (2 barriers x 3), got {len(rows)}", rows)
    outcomes = [check_grid_row(r) for r in rows]
    if outcomes != ["ok", "timeout", "timeout"] * 2:
        fail(f"outcomes in order: {outcomes}", rows)
    # Four watchdogs of 1 s each, the rest takes well under a second per point.
    if took > 120:
        fail(f"the timeouts took {took:.0f} s; the watchdog should end each in about 1 s", rows)
    print(f"PASS {outcomes} in {took:.1f} s;", rows[1]["note"][:160])


def test_sweep(gpubarrier, gpus):
    rows, took = run_grid(gpubarrier, "sweep",
                          os.path.join(ROOT, "configs", "sweeps", "pitfalls.yaml"), "--gpus", "0")
    warp = [check_warp_row(r) for r in rows if r["method"] == WARP]
    grid = [check_grid_row(r) for r in rows if r["method"] == GRID]
    if len(warp) != 42 or warp.count("caught") != 8 or len(grid) != 12 or \
            grid.count("timeout") != 8 or len(rows) != len(warp) + len(grid):
        fail(f"unexpected rows: warp {warp}, grid {grid}", rows)
    print(f"PASS sweep in {took:.1f} s: warp {len(warp)} rows ({warp.count('caught')} controls "
          f"caught), grid {len(grid)} rows ({grid.count('timeout')} timeouts)")



GRID_SYNC_TIMEOUT = 10  # point_timeout: the partial grid.sync's child is killed after it
GRID_SYNC_SWEEP = f"""name: partial-grid-sync
samples: 5
time_budget: 0.2
point_timeout: {GRID_SYNC_TIMEOUT}
runs:
  - methods: {GRID}
    axes: {{barrier: [2], missing: [0, 1], blocks_per_sm: [1], threads_per_block: [128]}}
  - methods: {GRID}
    axes: {{barrier: [2], missing: [0], blocks_per_sm: [1], threads_per_block: [256]}}
"""


def test_grid_sync_partial(gpubarrier, gpus, tmp_path):
    # Without isolation the point is refused, at once.
    rows, took = run_grid(gpubarrier, "run", "--gpus", "0", "--methods", GRID,
                          "--axis", "barrier=2", "--axis", "missing=1")
    if len(rows) != 1 or rows[0]["status"] != "skipped" or \
            "isolated child" not in rows[0]["note"] or took > 60:
        fail(f"grid.sync with a block absent must be skipped outside an isolated child, at once "
             f"({took:.0f} s)", rows)
    sweep = tmp_path / "partial-grid-sync.yaml"
    sweep.write_text(GRID_SYNC_SWEEP)
    rows, took = run_grid(gpubarrier, "sweep", str(sweep), "--gpus", "0")
    if [(axes(r)["missing"], axes(r)["threads_per_block"], r["status"]) for r in rows] != \
            [("0", "128", "ok"), ("1", "128", "timeout"), ("0", "256", "ok")]:
        fail("control ok, one block absent a timeout row, the control after it ok", rows)
    for r in (rows[0], rows[2]):
        check_grid_row(r)
    hang = rows[1]
    m = re.search(r"grid\.sync with 1 of (\d+) blocks skipping it: (\d+) reached it, 0 crossed",
                  hang["note"])
    if f"--point-timeout {GRID_SYNC_TIMEOUT} s" not in hang["note"] or not m or \
            int(m[2]) != int(m[1]) - 1:
        fail("the timeout row names the limit and quotes the blocks that reached grid.sync",
             [hang])
    # The hang costs one point_timeout; the rest takes seconds.
    if took > GRID_SYNC_TIMEOUT + 90:
        fail(f"the sweep took {took:.0f} s", rows)
    print(f"PASS in {took:.1f} s;", hang["note"][:200])

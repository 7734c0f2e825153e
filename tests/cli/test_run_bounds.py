#!/usr/bin/env python3
"""Counts a run takes from the user that no machine can honour, and names it never chose.

Cases:
  budget_over_samples  `--samples 1000000000 --time-budget 0.5` for one host.omp.barrier point:
                       the budget ends it (stop `budget`, fewer samples than asked), in about the
                       budget, not the hours the samples would take (a hang-catching bound only)
  team_limits          host.omp.barrier teams of 1000 and 65536 threads under a 4 GB address-space
                       limit (room for some 400 stacks): skipped rows naming the limit, exit 0, and
                       a team of 2 still measured (never libgomp's abort, never a crash)
  team_cpus            host.omp.barrier with its default group sizes on 2 CPUs: 2 measured, 4, 8
                       and 16 skipped rows saying why and how to ask; --axis group_size=4 asks,
                       and is measured (its rows noisy)
  default_names        runs without --out while the default name of this second (and the next
                       minutes) is taken: each writes a CSV of its own, none touches the others'
  empty_values         `--max-retries ''`, `--samples ''`, `--rse-target ''`: exit 2, one line
                       naming the flag and what it expects (never taken as 0)
  merge_binary         `merge` of a binary file (bytes that are no text): one line, a short escaped
                       excerpt of it (\\x89PNG\\x80...)
  bom_resume           --resume of a CSV saved with a byte-order mark: the message says so

Run by pytest: pytest tests/cli/test_run_bounds.py [--gpubarrier PATH]
"""
import datetime
import os
import resource
import socket
import subprocess

import pytest

from bounded_run import run_bounded
from cli_common import clean_env, executable, expect, one_line, read_csv, run_gpubarrier

EXE = executable()
POINT = ["--methods", "host.omp.barrier", "--axis", "group_size=2"]


def gpubarrier(*args, cwd=None):
    return run_gpubarrier(EXE, *args, cwd=cwd)


def test_budget_over_samples(tmp_path):
    out = os.path.join(str(tmp_path), "b.csv")
    # Far beyond the budget, far below what 10^9 samples take (hours); only a hang ends here.
    p = run_bounded([EXE, "run", *POINT, "--samples", "1000000000", "--time-budget", "0.5",
                     "--out", out], env=clean_env(), timeout=240)
    expect(p.returncode == 0, "the run ends", p)
    rows = [r for r in read_csv(out) if r["status"] == "ok"]
    expect(len(rows) == 2, f"both rows measured: {rows}", p)
    for r in rows:
        expect(r["stop"] == "budget" and 2 <= int(r["samples"]) < 10 ** 9,
               f"{r['metric']}: ended by the budget (stop {r['stop']}, {r['samples']} samples)")


# The plain build only (tests/CMakeLists.txt): AddressSanitizer reserves terabytes of address
# space for its shadow memory, so no sanitized process starts under an address-space limit.
@pytest.mark.plain
def test_team_limits(tmp_path):
    out = os.path.join(str(tmp_path), "t.csv")

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    p = subprocess.run([EXE, "run", "--methods", "host.omp.barrier", "--axis",
                        "group_size=2,1000,65536", "--samples", "2", "--time-budget", "0.05",
                        "--out", out], capture_output=True, text=True, env=clean_env(),
                       timeout=300, preexec_fn=limit)
    expect(p.returncode == 0, "the run ends well", p)
    by = {}
    for r in read_csv(out):
        by.setdefault(r["config"], []).append(r)
    for size in ("1000", "65536"):
        rows = by.get(f"group_size={size}", [])
        expect(len(rows) == 1 and rows[0]["status"] == "skipped" and "can start" in
               rows[0]["note"] and "ulimit -v" in rows[0]["note"],
               f"group_size={size}: one skipped row naming the limit: {rows}", p)
    expect([r["status"] for r in by.get("group_size=2", [])] == ["ok", "ok"],
           "a team of 2 measured under the same limit", p)


def test_team_cpus(tmp_path):
    mine = sorted(os.sched_getaffinity(0))
    if len(mine) < 2:
        pytest.skip("needs 2 CPUs")
    out = os.path.join(str(tmp_path), "c.csv")

    def two_cpus():
        os.sched_setaffinity(0, mine[:2])

    def run(*extra):
        return subprocess.run([EXE, "run", "--methods", "host.omp.barrier", "--samples", "2",
                               "--time-budget", "0.05", "--out", out, "--force", *extra],
                              capture_output=True, text=True, env=clean_env(), timeout=300,
                              preexec_fn=two_cpus)

    p = run()
    expect(p.returncode == 0, "the run ends well", p)
    by = {}
    for r in read_csv(out):
        by.setdefault(r["config"], []).append(r)
    expect([r["status"] for r in by.get("group_size=2", [])] == ["ok", "ok"],
           "a team of 2 measured on 2 CPUs", p)
    for size in ("4", "8", "16"):
        rows = by.get(f"group_size={size}", [])
        expect(len(rows) == 1 and rows[0]["status"] == "skipped" and "2 CPUs" in rows[0]["note"]
               and f"--axis group_size={size}" in rows[0]["note"],
               f"group_size={size}: skipped, saying why and how to ask: {rows}", p)
    p = run("--axis", "group_size=4")
    rows = read_csv(out)
    expect(p.returncode == 0 and [r["status"] for r in rows] == ["ok", "ok"] and
           all("oversubscribed" in r["note"] for r in rows),
           f"asked for, a team of 4 is measured, its rows noisy: {rows}", p)


def test_default_names(tmp_path):
    d = str(tmp_path)
    local = os.path.join(d, "results", "local")
    os.makedirs(local)
    host = socket.gethostname()
    now = datetime.datetime.now(datetime.timezone.utc)
    theirs = {}
    for s in range(-5, 600):  # every name of the next ten minutes: taken
        stamp = (now + datetime.timedelta(seconds=s)).strftime("%Y%m%dT%H%M%SZ")
        path = os.path.join(local, f"{host}-{stamp}.csv")
        theirs[path] = f"mine {s}\n"
        with open(path, "w") as f:
            f.write(theirs[path])
    for n in range(3):
        p = gpubarrier("run", *POINT, "--samples", "2", "--time-budget", "0.05", cwd=d)
        expect(p.returncode == 0, f"run {n + 1} without --out", p)
    made = sorted(set(os.listdir(local)) - {os.path.basename(t) for t in theirs})
    csvs = [m for m in made if m.endswith(".csv")]
    expect(len(csvs) == 3, f"three CSVs of their own: {made}")
    for c in csvs:
        expect(len(read_csv(os.path.join(local, c))) == 2, f"{c} holds its run's rows")
    expect(all(open(t).read() == text for t, text in theirs.items()), "the taken names untouched")


def test_empty_values(tmp_path):
    out = os.path.join(str(tmp_path), "e.csv")
    for flag in ("--max-retries", "--samples", "--rse-target", "--time-budget"):
        p = gpubarrier("run", *POINT, "--out", out, flag, "")
        one_line(p, 2, flag, "empty", prefix="gpubarrier: error:")
        expect(not os.path.exists(out), f"{flag}: nothing ran")


def test_merge_binary(tmp_path):
    d = str(tmp_path)
    binary = os.path.join(d, "blob.csv")
    with open(binary, "wb") as f:
        f.write(b"\x89PNG" + bytes(range(128, 256)) * 8 + b"\n")  # a PNG signature, no text
    p = gpubarrier("merge", binary, "--out", os.path.join(d, "m.csv"))
    line = one_line(p, 2, "blob.csv", "\\x89PNG\\x80", prefix="gpubarrier: error:")
    expect(len(line) < 400 and line.isprintable() and line.isascii(),
           f"a short escaped excerpt ({len(line)} characters)", p)


def test_bom_resume(tmp_path):
    out = os.path.join(str(tmp_path), "bom.csv")
    p = gpubarrier("run", *POINT, "--samples", "2", "--time-budget", "0.05", "--out", out)
    expect(p.returncode == 0, "a run", p)
    with open(out, "rb") as f:
        text = f.read()
    with open(out, "wb") as f:
        f.write(b"\xef\xbb\xbf" + text)
    p = gpubarrier("run", *POINT, "--out", out, "--resume")
    one_line(p, 2, out, "byte-order mark", prefix="gpubarrier: error:", absent=("\ufeff",))

#!/usr/bin/env python3
"""`run`/`sweep --raw FILE` and the v3 provenance columns, on host-only methods (no GPU needed):
one raw line per sample behind every figure, consistent with the row it belongs to.

Run by pytest: pytest tests/cli/test_raw.py
"""
import csv
import os
import statistics

from cli_common import executable, expect, run_gpubarrier

EXE = executable()
QUICK = ["--samples", "5", "--time-budget", "0.2"]
RAW_HEADER = ["run_id", "method", "config", "gpu_ids", "launcher", "metric", "unit", "statistic",
              "sample", "value"]


def gpubarrier(*args):
    return run_gpubarrier(EXE, *args, drop=("GPUBARRIER_RAW",))


def read(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def check_raw(rows_path, raw_path, what):
    """Every ok row has exactly `samples` raw lines whose median is the row's median."""
    with open(rows_path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    table = read(raw_path)
    expect(table[0] == RAW_HEADER, f"{what}: raw header {table[0]}")
    lines = [dict(zip(RAW_HEADER, t)) for t in table[1:]]
    expect(rows, f"{what}: some ok rows")
    for r in rows:
        key = (r["run_id"], r["method"], r["config"], r["gpu_ids"], r["launcher"], r["metric"])
        mine = [x for x in lines if (x["run_id"], x["method"], x["config"], x["gpu_ids"],
                                     x["launcher"], x["metric"]) == key]
        expect(len(mine) == int(r["samples"]), f"{what}: {len(mine)} raw lines for {key}, "
                                                f"row says {r['samples']} samples")
        expect([int(x["sample"]) for x in mine] == list(range(len(mine))), f"{what}: numbered")
        expect(all(x["unit"] == r["unit"] and x["statistic"] == r["statistic"] for x in mine),
               f"{what}: unit and statistic of the row")
        median = statistics.median(float(x["value"]) for x in mine)
        expect(abs(median - float(r["median"])) <= 1e-4 * abs(float(r["median"])) + 1e-9,
               f"{what}: raw median {median} vs row median {r['median']}")
    return rows, lines


def test_raw(tmp_path):
    d = str(tmp_path)
    # run: figures, provenance, raw samples.
    out, raw = os.path.join(d, "r.csv"), os.path.join(d, "sub", "raw.csv")
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2", "--out", out,
                   "--raw", raw, *QUICK)
    expect(p.returncode == 0, "run --raw exits 0", p)
    rows, _ = check_raw(out, raw, "run")
    r = rows[0]
    version = gpubarrier("--version").stdout.splitlines()[0]  # "gpubarrier 0.1.0 (git sha)"
    expect(version == f"gpubarrier {r['gpubarrier_version']} (git {r['git_sha']})",
           f"gpubarrier_version and git_sha are what --version prints: {version} / {r}")
    expect([x["statistic"] for x in rows] == ["loop-mean-max-threads", "median"] and
           all(x["technique"] == "host-loop" for x in rows), f"statistics: {rows}")
    expect(r["gpu_model"] == "" and r["gpu_uuids"] == "" and r["sm_clock_mhz"] == "",
           f"a host-only row names no GPU and no SM clock: {r}")

    # The same through isolated children: samples cross the pipe.
    out2, raw2 = os.path.join(d, "iso.csv"), os.path.join(d, "iso-raw.csv")
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2", "--out", out2,
                   "--raw", raw2, "--isolate", "point", *QUICK)
    expect(p.returncode == 0, "run --raw --isolate point exits 0", p)
    check_raw(out2, raw2, "isolated run")

    # sweep: one raw file for every entry; skipped rows have no samples.
    sweep = os.path.join(d, "s.yaml")
    with open(sweep, "w") as f:
        f.write("samples: 5\ntime_budget: 0.2\nruns:\n  - methods: host.omp.barrier\n"
                "    axes: {group_size: [2]}\n  - methods: host.mpi.barrier\n")
    out3, raw3 = os.path.join(d, "s.csv"), os.path.join(d, "s-raw.csv")
    p = gpubarrier("sweep", sweep, "--out", out3, "--raw", raw3)
    expect(p.returncode == 0, "sweep --raw exits 0", p)
    _, lines = check_raw(out3, raw3, "sweep")
    expect({x["method"] for x in lines} == {"host.omp.barrier"},
           "no raw lines for the skipped host.mpi.barrier row")

    # A raw file that cannot be written is refused before anything runs.
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", "none", "--raw",
                   "/proc/nope/raw.csv")
    expect(p.returncode == 2 and "/proc/nope/raw.csv" in p.stderr and "--raw" in p.stderr,
           "unwritable --raw names the path and the flag", p)

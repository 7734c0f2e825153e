#!/usr/bin/env python3
"""CLI behaviour of the real gpubarrier executable: output files, errors, exit codes.

Usage: test_cli.py GPUBARRIER CASE
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

EXE = sys.argv[1]
CASE = sys.argv[2]
# Keep runs short: these tests check behaviour, not figures.
QUICK = ["--samples", "5", "--time-budget", "0.2"]


def gpubarrier(*args, env=None):
    full_env = dict(os.environ, **(env or {}))
    for var in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID"):
        full_env.pop(var, None)
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=full_env, timeout=300)


def expect(cond, what, proc=None):
    if not cond:
        detail = f"\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}" if proc else ""
        sys.exit(f"FAIL: {what}{detail}")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def has_gpu():
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    except FileNotFoundError:
        return False


def case_list_shows_methods():
    p = gpubarrier("list")
    expect(p.returncode == 0, "list exits 0", p)
    for name in ("host.omp.barrier", "host.mpi.barrier", "gpu.block.syncthreads", "gpu.grid.cg"):
        expect(name in p.stdout, f"list shows {name}", p)
    p = gpubarrier("list", "--json")
    methods = {m["name"]: m for m in json.loads(p.stdout)}
    expect(methods["gpu.grid.cg"]["axes"]["blocks_per_sm"] == [1, 2, 4, 8, 16, 32], "grid axes", p)
    expect(methods["host.mpi.barrier"]["usable"] is False, "mpi method not usable outside mpirun", p)


def case_run_writes_csv():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "sub", "r.csv")
        p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2", "--out", out, *QUICK)
        expect(p.returncode == 0, "run exits 0", p)
        rows = read_csv(out)
        expect(len(rows) == 1, "one row for one configuration", p)
        r = rows[0]
        expect(r["schema_version"] == "1", "schema version")
        expect(r["method"] == "host.omp.barrier" and r["status"] == "ok", f"row ok: {r}")
        expect(r["metric"] == "latency" and r["unit"] == "ns" and r["technique"] == "host-loop", "metric")
        expect(float(r["value"]) > 0 and int(r["samples"]) >= 5, "a positive figure from >=5 samples")
        expect(r["stop"] in ("converged", "budget"), "stop reason recorded")
        expect(r["group_size"] == "2" and r["config"] == "group_size=2", "axis columns")
        expect("host.omp.barrier" in p.stdout, "console table printed", p)
        with open(out, newline="") as f:
            expect(f.readline().startswith("schema_version,run_id,timestamp,"), "header first")


def case_json_output():
    p = gpubarrier("--json", "run", "--methods", "host.omp.barrier", "--axis", "group_size=2",
                   "--out", "none", *QUICK)
    expect(p.returncode == 0, "exit 0", p)
    rows = json.loads(p.stdout)
    expect(rows[0]["method"] == "host.omp.barrier" and isinstance(rows[0]["value"], float), "json row", p)


def case_unknown_method():
    p = gpubarrier("run", "--methods", "gpu.grid.gc", "--out", "none")
    expect(p.returncode == 2, "exit code 2", p)
    expect("no method matches 'gpu.grid.gc'" in p.stderr and "gpu.grid.cg" in p.stderr,
           "names the glob and close names", p)


def case_malformed_axis():
    p = gpubarrier("run", "--methods", "gpu.grid.cg", "--axis", "blocks_per_sm=1:x", "--out", "none")
    expect(p.returncode == 2 and "malformed --axis 'blocks_per_sm=1:x'" in p.stderr, "axis error", p)
    expect("expected name=v1,v2" in p.stderr, "says what is expected", p)


def case_unknown_axis():
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "warps=1", "--out", "none")
    expect(p.returncode == 2 and "no selected method has this axis" in p.stderr, "unknown axis", p)
    expect("group_size" in p.stderr, "lists the axes", p)


def case_unwritable_out():
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", "/proc/nope/x.csv", *QUICK)
    expect(p.returncode == 2 and "cannot write output file '/proc/nope/x.csv'" in p.stderr, "out error", p)
    expect("host.omp.barrier" not in p.stdout, "fails before measuring", p)


def case_bad_gpu():
    p = gpubarrier("run", "--methods", "gpu.grid.cg", "--gpus", "99", "--out", "none")
    expect(p.returncode == 2 and "--gpus names GPU 99" in p.stderr, "bad gpu", p)


def case_mpi_outside_mpirun():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.csv")
        p = gpubarrier("run", "--methods", "host.mpi.barrier", "--out", out)
        expect(p.returncode == 0, "a skipped method is not an error", p)
        r = read_csv(out)[0]
        expect(r["status"] == "skipped" and "mpirun -np 2" in r["note"], f"skipped with how-to: {r}")


def case_gpu_methods_without_gpu():
    if has_gpu():
        sys.exit(77)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "g.csv")
        p = gpubarrier("run", "--methods", "gpu.*", "--out", out)
        expect(p.returncode == 0, "no GPU is not a failure", p)
        rows = read_csv(out)
        expect({r["method"] for r in rows} >= {"gpu.block.syncthreads", "gpu.grid.cg"}, "rows per method")
        for r in rows:
            expect(r["status"] == "skipped" and "no CUDA GPU visible" in r["note"], f"reason: {r}")


def case_sweep_file():
    with tempfile.TemporaryDirectory() as d:
        sweep = os.path.join(d, "s.yaml")
        with open(sweep, "w") as f:
            f.write("samples: 5\ntime_budget: 0.2\nruns:\n  - methods: host.omp.barrier\n"
                    "    axes: {group_size: [2]}\n  - methods: host.mpi.barrier\n")
        out = os.path.join(d, "s.csv")
        p = gpubarrier("sweep", sweep, "--out", out)
        expect(p.returncode == 0, "sweep exits 0", p)
        rows = read_csv(out)
        expect([r["method"] for r in rows] == ["host.omp.barrier", "host.mpi.barrier"], "both entries", p)
        expect(len({r["run_id"] for r in rows}) == 1, "one run id for the whole sweep")
        with open(sweep, "w") as f:
            f.write("runs:\n  - methods: host.omp.barrier\n    axes: {group_size: [two]}\n")
        p = gpubarrier("sweep", sweep, "--out", "none")
        expect(p.returncode == 2 and "s.yaml:3:" in p.stderr, "bad sweep names file and line", p)


def case_version():
    p = gpubarrier("--version")
    expect(p.returncode == 0 and "gpubarrier 0." in p.stdout and "CUDA runtime" in p.stdout, "version", p)
    expect("NCCL" in p.stdout and "MPI" in p.stdout and "git" in p.stdout, "versions", p)


def case_help():
    p = gpubarrier("run", "--help")
    expect(p.returncode == 0 and "--axis" in p.stdout and "Examples" in p.stdout, "run --help teaches", p)
    p = gpubarrier()
    expect(p.returncode != 0 and "list" in p.stdout + p.stderr, "no subcommand shows usage", p)


globals()["case_" + CASE]()
print(f"PASS {CASE}")

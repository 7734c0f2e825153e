#!/usr/bin/env python3
"""--resume of the real executable: a sweep killed with SIGKILL at random moments, several times,
then resumed to the end, has the same points as an uninterrupted run, none twice, none missing;
what a kill leaves behind is repaired and reported; other files are refused by name.

Run by pytest: pytest tests/cli/test_resume.py [-m mpi | -m gpu]
"""
import collections
import csv
import json
import os
import random
import signal
import subprocess
import time

import pytest

from cli_common import clean_env, executable, expect, read_csv, run_gpubarrier

EXE = executable()
# A CPU-only sweep: host.omp.barrier at several group sizes (those beyond this machine's CPUs
# are skipped rows), GPU and MPI methods that are skipped rows without a GPU or mpirun. A tiny
# rse target makes every measured point run to its time budget, so kills land inside points too.
SWEEP = """name: resume-test
samples: 5
time_budget: 0.25
rse_target: 0.000001
runs:
  - methods: host.omp.barrier
    axes: {group_size: [2, 3, 4, 6, 8]}
  - methods: [gpu.warp.tile-sync, gpu.block.*]
    axes: {threads_per_block: [32, 64], group_size: [32]}
  - methods: [kernel.launch.*, host.mpi.barrier]
"""
# Killed attempts per round before one is left to finish, and how long that one may take.
KILLS_PER_ROUND = 6
FINISH_S = 120
KEY = ("method", "config", "gpu_ids", "launcher", "ranks", "nodes")
FIGURE = KEY + ("technique", "metric")


def gpubarrier(*args, env=None, timeout=300):
    return run_gpubarrier(EXE, *args, env=env, timeout=timeout)


read_rows = read_csv


def figures(rows):
    return collections.Counter(tuple(r[c] for c in FIGURE) for r in rows)


def processes_with(token):
    """Pids of processes whose environment holds `token` (children that outlived a kill)."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                if token.encode() in f.read():
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


def wait_gone(token, seconds=5):
    deadline = time.time() + seconds
    while processes_with(token) and time.time() < deadline:
        time.sleep(0.05)
    return processes_with(token)


def test_kill_and_resume(tmp_path):
    rng = random.Random(20261123)
    d = str(tmp_path)
    sweep = os.path.join(d, "s.yaml")
    with open(sweep, "w") as f:
        f.write(SWEEP)
    ref = os.path.join(d, "ref.csv")
    t0 = time.time()
    p = gpubarrier("sweep", sweep, "--out", ref)
    duration = time.time() - t0
    expect(p.returncode == 0, "uninterrupted sweep exits 0", p)
    want = figures(read_rows(ref))
    expect(want and max(want.values()) == 1, f"reference has each figure once: {want}")

    out = os.path.join(d, "killed.csv")
    token = f"GB_RESUME_TEST_{os.getpid()}"
    kills, repairs, rounds = 0, 0, 0
    # Rounds of: a fresh CSV, up to KILLS_PER_ROUND attempts each killed (SIGKILL) after a
    # random share of the run, then one attempt left to finish (however slow this machine
    # is: a loaded CI machine may never finish inside a random share), then the comparison
    # with the uninterrupted run. Rounds go on until enough kills have landed.
    while kills < 8 and rounds < 40:
        rounds += 1
        for path in (out, out + ".done"):
            if os.path.exists(path):
                os.remove(path)
        for attempt in range(KILLS_PER_ROUND + 1):
            isolate = rng.choice(["method", "point", "none"])
            last = attempt == KILLS_PER_ROUND
            delay = FINISH_S if last else rng.uniform(0.0, duration)
            proc = subprocess.Popen([EXE, "sweep", sweep, "--out", out, "--resume",
                                     "--isolate", isolate], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True,
                                    env=clean_env({"GB_TEST_TOKEN": token}))
            try:
                proc.wait(timeout=delay)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)  # only the sweep: its children must follow
                kills += 0 if last else 1
            err = proc.communicate()[1]
            expect(proc.returncode in (0, -signal.SIGKILL),
                   f"resume attempt {attempt} ({isolate}) failed ({proc.returncode}): {err}")
            repairs += err.count("dropped")
            left = wait_gone(token)
            expect(not left, f"isolated children outlived the killed sweep: pids {left}")
            if proc.returncode == 0:
                break
        expect(proc.returncode == 0,
               f"round {rounds}: the unkilled attempt did not finish in {FINISH_S} s")
        got = figures(read_rows(out))
        twice = [k for k, n in got.items() if n > 1]
        expect(not twice, f"round {rounds}: rows present twice: {twice}")
        expect(set(got) == set(want), f"round {rounds}: missing {set(want) - set(got)}, "
                                      f"extra {set(got) - set(want)}")
        with open(out + ".done", newline="") as f:
            done = [tuple(r[c] for c in KEY) for r in csv.DictReader(f)]
        expect(len(done) == len(set(done)), "each point finished once in the completion log")
        for isolate in ("none", "point"):  # a finished sweep resumed runs nothing again
            p = gpubarrier("sweep", sweep, "--out", out, "--resume", "--isolate", isolate)
            expect(p.returncode == 0 and figures(read_rows(out)) == got,
                   f"resuming a finished sweep (--isolate {isolate}) added rows", p)
    expect(kills >= 8, f"only {kills} kills landed in {rounds} rounds")
    print(f"{kills} kills in {rounds} rounds, {repairs} repairs reported, "
          f"{len(want)} figures as uninterrupted each time")


def test_torn_and_unfinished(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "r.csv")
    args = ["run", "--methods", "host.omp.barrier,gpu.block.*", "--axis", "group_size=2,3",
            "--out", out, "--samples", "5", "--time-budget", "0.1"]
    p = gpubarrier(*args)
    expect(p.returncode == 0, "first run", p)
    want = figures(read_rows(out))
    # The last two points' rows (host.omp.barrier: loop_latency and latency when it runs)
    unfinished = sum(r["method"] == "host.omp.barrier" for r in read_rows(out))
    with open(out + ".done", "rb") as f:
        lines = f.read().split(b"\r\n")
    # As if killed after the last point's rows but before its completion line, and then
    # in the middle of writing another row.
    with open(out + ".done", "wb") as f:
        f.write(b"\r\n".join(lines[:-3]) + b"\r\n")
    with open(out, "ab") as f:
        f.write(b"2,20261123T000000Z-vm-1,2026-11-23T00:00:00Z,vm,loc")
    p = gpubarrier(*args, "--resume")
    expect(p.returncode == 0, "resume exits 0", p)
    expect("dropped a torn last row" in p.stderr, "the torn row is reported", p)
    expect(f"dropped {unfinished} row(s) without a completion line "
           "(host.omp.barrier group_size=2, "
           "host.omp.barrier group_size=3)" in p.stderr,
           "the rows of points without a completion line are reported", p)
    rows = read_rows(out)
    expect(figures(rows) == want, f"same figures once each: {figures(rows)}", p)
    expect(all(r["schema_version"] == "5" for r in rows), "every row complete")


def test_refusals(tmp_path):
    d = str(tmp_path)
    v1 = os.path.join(d, "v1.csv")
    header = ("schema_version,run_id,timestamp,host,system,gpu_model,gpu_count,gpu_ids,"
              "topology,driver,cuda_runtime,nccl,mpi,method,level,launcher,ranks,nodes,"
              "blocks_per_sm,threads_per_block,group_size,cluster_size,config,technique,"
              "reps_lo,reps_hi,samples,metric,unit,value,mean,stddev,min,max,median,p95,"
              "p99,cv,stop,status,note")
    with open(v1, "w") as f:
        f.write(header + "\r\n")
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", v1, "--resume")
    expect(p.returncode == 2, "a v1 file is refused with exit 2", p)
    expect(v1 in p.stderr and "schema v1" in p.stderr and "'node'" in p.stderr,
           "the refusal names the file, the version and the column", p)
    other = os.path.join(d, "other.csv")
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2",
                   "--out", other, "--samples", "5", "--time-budget", "0.1")
    expect(p.returncode == 0, "a run", p)
    with open(other) as f:
        text = f.read()
    with open(other, "w") as f:
        f.write(text.replace(",unit,", ",units,", 1))
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", other, "--resume")
    expect(p.returncode == 2 and "is 'units', expected 'unit'" in p.stderr,
           "another header is refused naming the column", p)
    os.remove(other + ".done")
    with open(other, "w") as f:
        f.write(text)
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", other, "--resume")
    expect(p.returncode == 2 and "no completion log" in p.stderr,
           "rows without a completion log are refused", p)
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", "none", "--resume")
    expect(p.returncode == 2 and "--resume needs an output file" in p.stderr, "--out none", p)


def test_rows_against_log(tmp_path):
    """--resume checks every kept row against the completion line that counts it: a CSV whose
    rows were sorted, or a CSV beside another run's log, is refused naming the first mismatch,
    and neither file is changed."""
    d = str(tmp_path)
    run = ["run", "--methods", "host.omp.barrier", "--axis", "group_size=1,2",
           "--samples", "3", "--time-budget", "0.05"]
    out, other = os.path.join(d, "a.csv"), os.path.join(d, "b.csv")
    for path in (out, other):
        p = gpubarrier(*run, "--out", path)
        expect(p.returncode == 0, "a run of two points", p)
    with open(out) as f:
        header, *rows = f.read().splitlines(keepends=True)
    config = next(csv.reader([header])).index("config")
    with open(out, "w") as f:
        f.write(header + "".join(sorted(
            rows, key=lambda r: next(csv.reader([r]))[config], reverse=True)))
    before = {p: open(p).read() for p in (out, out + ".done")}
    p = gpubarrier(*run, "--out", out, "--resume")
    expect(p.returncode == 2 and f"{out}:2: the row (host.omp.barrier group_size=2" in p.stderr
           and "line 2 counts there (host.omp.barrier group_size=1" in p.stderr,
           "sorted rows: refused at the first row out of place", p)
    expect({p: open(p).read() for p in before} == before, "nothing repaired or run")
    with open(out, "w") as f:
        f.write(header + "".join(rows))
    with open(other + ".done") as f:
        foreign = f.read()
    with open(out + ".done", "w") as f:
        f.write(foreign)
    p = gpubarrier(*run, "--out", out, "--resume")
    expect(p.returncode == 2 and f"{out}:2:" in p.stderr and "the log is another run's"
           in p.stderr, "another run's log: refused (its run_id differs)", p)
    # A line that counts more rows than the CSV holds (the last line's count is right):
    # refused, never read past the rows.
    head, first, *rest = before[out + ".done"].splitlines(keepends=True)
    with open(out + ".done", "w") as f:
        f.write(head + "999" + first[first.index(","):] + "".join(rest))
    p = gpubarrier(*run, "--out", out, "--resume")
    expect(p.returncode == 2 and "more than the CSV holds" in p.stderr
           and "the completion log was edited" in p.stderr, "a count past the rows", p)
    with open(out + ".done", "w") as f:
        f.write(before[out + ".done"])
    p = gpubarrier(*run, "--out", out, "--resume")
    expect(p.returncode == 0, "the files as written resume", p)


def test_retry_failed(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "r.csv")
    crash = {"GPUBARRIER_TEST_CRASH": "host.omp.barrier group_size=3"}
    args = ["run", "--methods", "host.omp.barrier", "--axis", "group_size=2,3", "--out", out,
            "--samples", "5", "--time-budget", "0.1", "--isolate", "point"]

    def attempts():
        return [r["status"] for r in read_rows(out) if r["config"] == "group_size=3"]

    p = gpubarrier(*args, env=crash)
    expect(p.returncode == 0 and attempts() == ["failed"], "a crash is a failed row", p)
    p = gpubarrier(*args, "--resume", env=crash)
    expect(attempts() == ["failed"], "failed points count as done without --retry-failed", p)
    p = gpubarrier(*args, "--resume", "--retry-failed", "--max-retries", "1", env=crash)
    expect(attempts() == ["failed", "failed"], "--retry-failed runs it again", p)
    p = gpubarrier(*args, "--resume", env=dict(crash, GPUBARRIER_RETRY_FAILED="1",
                                               GPUBARRIER_MAX_RETRIES="1"))
    expect(attempts() == ["failed", "failed"], "no more than --max-retries retries", p)
    p = gpubarrier(*args, "--resume", "--retry-failed", "--max-retries", "2")
    # The third attempt's rows: one skipped row where 3 threads need more CPUs than the
    # machine has, two measured rows where it has them.
    expect(p.returncode == 0 and attempts()[:2] == ["failed", "failed"] and
           len(attempts()) >= 3 and "failed" not in attempts()[2:],
           f"a third attempt without the crash succeeds: {attempts()}", p)
    expect(sum(r["config"] == "group_size=2" for r in read_rows(out)) == 2,
           "the ok point never ran again", p)


@pytest.mark.gpu
def test_integer_configs(tmp_path):
    """A CSV and completion log written before axis values had names (variant=1 for
    variant=no-sync) resume as the same points: nothing is measured twice after an upgrade.
    Needs a GPU (a method with named values that runs its points); skipped without one."""
    d = str(tmp_path)
    out = os.path.join(d, "r.csv")
    args = ["run", "--methods", "pitfall.warp.wait-check", "--axis", "variant=no-sync,tile-sync",
            "--axis", "group_size=32", "--out", out, "--samples", "3", "--time-budget", "0.1"]
    p = gpubarrier(*args)
    rows = read_rows(out)
    if p.returncode == 0 and len(rows) == 1 and rows[0]["config"] == "":
        pytest.skip(f"the method is not usable here: {rows[0]['note']}")
    # Each name's integer code, as the method gives it (not typed here: a typed code that
    # belongs to another name would resume another point).
    listing = json.loads(gpubarrier("--json", "list").stdout)
    method = next(m for m in listing if m["name"] == "pitfall.warp.wait-check")
    code = {v["name"]: v["code"] for v in method["value_names"]["variant"]}
    names = {f"variant={n}": f"variant={code[n]}" for n in ("no-sync", "tile-sync")}
    expect(p.returncode == 0 and rows and
           {r["config"].split()[0] for r in rows} == set(names),
           "two points, their configs named", p)
    before = len(rows)
    # The files as an older gpubarrier wrote them: integer codes in the CSV and the log.
    for path in (out, out + ".done"):
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
        for name, code in names.items():
            text = text.replace(name, code)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    p = gpubarrier(*args, "--resume")
    rows = read_rows(out)
    expect(p.returncode == 0 and len(rows) == before,
           f"the old points count as done: {[r['config'] for r in rows]}", p)


def test_env_and_lock(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "r.csv")
    hang = {"GPUBARRIER_TEST_HANG": "host.omp.barrier*"}
    first = subprocess.Popen([EXE, "run", "--methods", "host.omp.barrier", "--axis",
                              "group_size=2", "--out", out, "--isolate", "point",
                              "--point-timeout", "60"], env=clean_env(hang),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)
        p = gpubarrier("run", "--methods", "host.omp.barrier", "--out", out,
                       env={"GPUBARRIER_RESUME": "1"})
        expect(p.returncode == 2 and "another gpubarrier is writing" in p.stderr,
               "a second writer of the same CSV is refused", p)
    finally:
        first.kill()
        first.wait()


@pytest.mark.mpi
def test_mpi_resume(tmp_path):
    if subprocess.run(["which", "mpirun"], capture_output=True).returncode != 0:
        pytest.skip("no mpirun")
    env = clean_env({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                     "OMPI_MCA_btl": "self,vader,tcp", "SLURMD_NODENAME": "fake-node"})
    d = str(tmp_path)
    out = os.path.join(d, "m.csv")
    run = ["mpirun", "-np", "2", "--oversubscribe", EXE, "run", "--methods",
           "host.mpi.barrier,host.omp.barrier", "--axis", "group_size=2", "--out", out,
           "--samples", "5", "--time-budget", "0.1", "--resume", "--isolate", "method"]
    p = subprocess.run(run, capture_output=True, text=True, env=env, timeout=300)
    expect(p.returncode == 0, "mpirun -np 2 run --resume", p)
    expect("--isolate method does not apply under mpirun" in p.stderr, "isolation note", p)
    rows = read_rows(out)
    mpi = [r for r in rows if r["method"] == "host.mpi.barrier"]
    expect(len(mpi) == 2 and all(r["node"] == "fake-node,fake-node" for r in mpi),
           f"the mpi row names both ranks' nodes: {mpi}", p)
    p = subprocess.run(run, capture_output=True, text=True, env=env, timeout=300)
    expect(p.returncode == 0 and len(read_rows(out)) == len(rows),
           "every rank skips the finished points (no new rows, no hang)", p)

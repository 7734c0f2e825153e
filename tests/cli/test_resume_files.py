#!/usr/bin/env python3
"""What `--resume` (and the commands beside a run's files) do with files that are not as the run
left them: a --raw file of another kind or run, a raw file a kill tore, a point whose rows were
edited, a CSV too large to read, a live run's CSV given to `merge --force`, a damaged in-flight
mark given to `lost-point`.

Cases:
  raw_not_this_runs   --resume --raw naming a CSV of results, a notes file, another run's raw
                      file: exit 2 naming it; every file byte for byte as it was
  raw_torn_and_orphans  a kill inside a point leaves the raw file's last line torn and samples of
                      the point that runs again: --resume drops both (said on stderr); the raw
                      file then parses, and holds each finished point's samples once
  metrics_checked     a point whose latency row was deleted and whose loop_latency row was
                      copied in its place: --resume exit 2 naming the row; nothing changed
  size_first          --resume of a sparse CSV over 256 MiB: exit 2 naming the bound, refused
                      before it is read (the peak resident set stays far below the file)
  merge_live          `merge --force --out live.csv` while a run writes live.csv: exit 2 naming
                      the run's lock; live.csv and its log as the run has them
  lost_point_mark     `lost-point` beside a damaged .inflight mark: exit 2, one line naming the
                      file and what to do

Run by pytest: pytest tests/cli/test_resume_files.py [--gpubarrier PATH]
"""
import csv
import os
import subprocess
import sys
import time

from cli_common import clean_env, executable, expect, one_line, run_gpubarrier

EXE = executable()
RUN = ["run", "--methods", "host.omp.barrier", "--axis", "group_size=1,2", "--samples", "3",
       "--time-budget", "0.05"]
RAW_HEADER = "run_id,method,config,gpu_ids,launcher,metric,unit,statistic,sample,value"


def gpubarrier(*args, env=None):
    return run_gpubarrier(EXE, *args, env=env)


def contents(*paths):
    return {p: open(p, "rb").read() for p in paths}


def raw_lines(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def first_run(d, name="r"):
    out, raw = os.path.join(d, f"{name}.csv"), os.path.join(d, f"{name}.raw")
    p = gpubarrier(*RUN, "--out", out, "--raw", raw)
    expect(p.returncode == 0, "a first run with --raw", p)
    return out, raw


def test_raw_not_this_runs(tmp_path):
    d = str(tmp_path)
    out, raw = first_run(d)
    other_out, other_raw = first_run(d, "other")
    notes = os.path.join(d, "notes.txt")
    with open(notes, "w") as f:
        f.write("my notes\n")
    for given, words in ((other_out, ("not a raw sample file",)), (notes, ("my notes",)),
                         (other_raw, ("a sample of run",))):
        before = contents(out, out + ".done", given)
        p = gpubarrier(*RUN, "--out", out, "--raw", given, "--resume")
        one_line(p, 2, given, "--resume", *words, prefix="gpubarrier: error:")
        expect(contents(*before) == before, f"{given}: every file as it was", p)


def test_raw_torn_and_orphans(tmp_path):
    d = str(tmp_path)
    out, raw = first_run(d)
    with open(out + ".done", "rb") as f:
        log = f.read().split(b"\r\n")
    # As if killed after the last point's rows and samples but before its completion line,
    # in the middle of writing one more sample.
    with open(out + ".done", "wb") as f:
        f.write(b"\r\n".join(log[:-2]) + b"\r\n")
    with open(raw, "ab") as f:
        f.write(b"20261123T000000Z-vm-1,host.omp.barr")
    dropped_point = "group_size=2"
    first_id = raw_lines(raw)[1][0]
    p = gpubarrier(*RUN, "--out", out, "--raw", raw, "--resume")
    expect(p.returncode == 0, "--resume exits 0", p)
    expect("dropped a torn last line" in p.stderr and "sample(s) of points without a completion"
           in p.stderr, "both repairs said on stderr", p)
    lines = raw_lines(raw)
    expect(",".join(lines[0]) == RAW_HEADER, "the header once, first")
    expect(all(len(line) == 10 for line in lines), "every line of the raw file has 10 fields")
    expect(not any(line[0] == first_id and line[2] == dropped_point for line in lines[1:]),
           "no sample of the point that ran again is left from the killed run")
    keys = [tuple(line[:9]) for line in lines[1:]]
    expect(len(keys) == len(set(keys)), "no sample twice")
    expect(any(line[0] != first_id and line[2] == dropped_point for line in lines[1:]),
           "the point that ran again has its samples")


def test_metrics_checked(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "m.csv")
    p = gpubarrier(*RUN, "--out", out)
    expect(p.returncode == 0, "a run of two points", p)
    with open(out, newline="") as f:
        header, *rows = f.read().splitlines(keepends=True)
    metric = next(csv.reader([header])).index("metric")
    measured = [i for i, r in enumerate(rows) if "group_size=2" in r]
    kinds = {next(csv.reader([rows[i]]))[metric]: i for i in measured}
    expect(set(kinds) == {"loop_latency", "latency"}, f"the measured point's rows: {kinds}")
    rows[kinds["latency"]] = rows[kinds["loop_latency"]]
    second = max(kinds.values()) + 2  # its line: the header is line 1
    with open(out, "w", newline="") as f:
        f.write(header + "".join(rows))
    before = contents(out, out + ".done")
    p = gpubarrier(*RUN, "--out", out, "--resume")
    one_line(p, 2, f"{out}:{second}:", "a second loop_latency row", prefix="gpubarrier: error:")
    expect(contents(*before) == before, "nothing repaired or run", p)


def test_size_first(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "big.csv")
    p = gpubarrier(*RUN, "--out", out)
    expect(p.returncode == 0, "a run", p)
    os.truncate(out, 300 << 20)  # sparse: no block of it is written
    probe = ("import resource, subprocess, sys\n"
             "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "sys.stderr.write(p.stderr)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
             "sys.exit(p.returncode)\n")
    p = subprocess.run([sys.executable, "-c", probe, EXE, *RUN, "--out", out, "--resume"],
                       capture_output=True, text=True, env=clean_env(), timeout=300)
    one_line(p, 2, out, "256 MiB", prefix="gpubarrier: error:")
    peak_mib = int(p.stdout.strip()) / 1024
    expect(peak_mib < 200, f"refused before it is read (peak {peak_mib:.0f} MiB, the file 300)")


def test_merge_live(tmp_path):
    d = str(tmp_path)
    other = os.path.join(d, "other.csv")
    p = gpubarrier(*RUN, "--out", other)
    expect(p.returncode == 0, "a CSV to merge", p)
    live = os.path.join(d, "live.csv")
    run = subprocess.Popen([EXE, *RUN, "--out", live, "--isolate", "point", "--point-timeout",
                            "120"], env=clean_env({"GPUBARRIER_TEST_HANG": "host.omp.barrier*"}),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # The run has taken its lock once its log has its header; it opens the CSV just after
        # (the log first: outputs.cpp), so both are waited for.
        for _ in range(600):
            if (os.path.exists(live + ".done") and os.path.getsize(live + ".done") > 0
                    and os.path.exists(live)):
                break
            time.sleep(0.1)
        before = contents(live, live + ".done")
        p = gpubarrier("merge", other, "--out", live, "--force")
        one_line(p, 2, live, "run is writing", "--force", prefix="gpubarrier: error:")
        expect(contents(*before) == before, "the run's files as it has them", p)
    finally:
        run.kill()
        run.wait()


def test_lost_point_mark(tmp_path):
    d = str(tmp_path)
    out = os.path.join(d, "l.csv")
    p = gpubarrier(*RUN, "--out", out)
    expect(p.returncode == 0, "a run", p)
    with open(out + ".inflight", "w") as f:
        f.write("{not json\n")
    p = gpubarrier("lost-point", "--out", out)
    one_line(p, 2, out + ".inflight", "damaged", "remove it", prefix="gpubarrier: error:",
             absent=("json.exception",))

#!/usr/bin/env python3
"""`gpubarrier merge` of the real executable: joins v1, v2, v3 and v5 files (older rows gain the
newer columns, empty), drops exact duplicates, writes atomically, prints its summary (one line per
distinct figure, with launcher, ranks, nodes and GPUs, and how many rows print the same); refuses
what it cannot reconcile with file, line and column.

Run by pytest: pytest tests/cli/test_merge.py
"""
import csv
import io
import os

from cli_common import executable, expect, run_gpubarrier

EXE = executable()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
V1 = os.path.join(ROOT, "results", "h200x2", "multi-gpu-mpi.csv")  # a committed v1 file


def gpubarrier(*args, env=None):
    return run_gpubarrier(EXE, *args, env=env)


def without_column(text, name):
    table = list(csv.reader(io.StringIO(text, newline="")))
    at = table[0].index(name)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(r[:at] + r[at + 1:] for r in table)
    return out.getvalue()


V3_COLUMNS = ["gpubarrier_version", "git_sha", "nvidia_driver", "gpu_uuids", "sm_clock_mhz",
              "statistic"]
V4_COLUMNS = ["mpi_thread_level"]
V5_COLUMNS = ["sm_clock_source"]


def as_version(text, version):
    """A v5 file as gpubarrier wrote it at `version` (2 or 3): the newer columns gone."""
    for name in V5_COLUMNS + V4_COLUMNS + (V3_COLUMNS if version < 3 else []):
        text = without_column(text, name)
    return text.replace("\r\n5,", f"\r\n{version},")


SUMMARY_COLUMNS = ["method", "metric", "config", "launcher", "ranks", "nodes", "gpu_ids", "value",
                   "status", "rows"]


def summary_table(lines):
    """The --summary table as dicts: columns left-aligned, each starting where its header does."""
    if not lines:
        return []
    head = lines[0]
    starts = [head.index(c + " " if c != head.split()[-1] else c) for c in head.split()]
    return [{name: line[a:b].strip() for name, a, b in
             zip(head.split(), starts, starts[1:] + [None])} for line in lines[1:]]


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_merge(tmp_path):
    d = str(tmp_path)
    v5 = os.path.join(d, "v5.csv")
    p = gpubarrier("run", "--methods", "host.omp.barrier,gpu.block.syncthreads", "--axis",
                   "group_size=2", "--out", v5, "--samples", "5", "--time-budget", "0.1",
                   env={"SLURM_JOB_ID": "4242", "SLURMD_NODENAME": "node-a"})
    expect(p.returncode == 0, "a v5 run", p)
    mine = rows(v5)
    expect(all(r["node"] == "node-a" and r["slurm_job_id"] == "4242" for r in mine),
           f"rows carry the node and the Slurm job id: {mine}")
    expect(all(r["git_sha"] and r["gpubarrier_version"] for r in mine),
           f"rows carry the build: {mine}")
    v2, v3 = os.path.join(d, "v2.csv"), os.path.join(d, "v3.csv")
    run_id = mine[0]["run_id"]
    with open(v5, newline="") as f:
        text = f.read()
    with open(v2, "w", newline="") as g:  # another job's figures
        g.write(as_version(text, 2).replace("node-a", "node-b").replace(run_id, run_id + "0"))
    with open(v3, "w", newline="") as g:  # and a third's
        g.write(as_version(text, 3).replace("node-a", "node-c").replace(run_id, run_id + "1"))
    old = rows(V1)
    out = os.path.join(d, "all", "merged.csv")
    os.makedirs(os.path.dirname(out))
    p = gpubarrier("merge", V1, v2, v3, v5, v5, "--out", out, "--summary")
    expect(p.returncode == 0, "merge exits 0", p)
    merged = rows(out)
    expect(len(merged) == len(old) + 3 * len(mine), "every row once (the repeated file dropped)",
           p)
    expect(list(merged[0].keys())[-9:] == ["slurm_step_id"] + V3_COLUMNS + V4_COLUMNS + V5_COLUMNS,
           "v5 header")
    expect(all(r["node"] == "" and r["schema_version"] == "1" for r in merged[:len(old)]),
           "v1 rows gain empty v2-v5 columns and keep their version")
    expect([r["value"] for r in merged[:len(old)]] == [r["value"] for r in old], "v1 values kept")
    from_v2 = merged[len(old):len(old) + len(mine)]
    expect(all(r["schema_version"] == "2" and r["node"] == "node-b" and r["git_sha"] == "" and
               r["statistic"] == "" for r in from_v2), "v2 rows gain empty v3 columns")
    from_v3 = merged[len(old) + len(mine):len(old) + 2 * len(mine)]
    expect(all(r["schema_version"] == "3" and r["node"] == "node-c" and r["git_sha"] and
               r["mpi_thread_level"] == "" and r["sm_clock_source"] == "" for r in from_v3),
           "v3 rows gain empty v4 and v5 columns")
    expect(merged[len(old) + 2 * len(mine):] == mine, "v5 rows as they were")
    summary = p.stdout.strip().splitlines()
    expect(summary[-1].startswith(f"merged 5 files, {len(merged)} rows (") and
           f"{len(mine)} duplicates dropped" in summary[-1] and
           f"{len(old) + 2 * len(mine)} upgraded" in summary[-1], "one-line summary", p)
    table = summary_table(summary[:-1])
    expect(table and list(table[0]) == SUMMARY_COLUMNS, f"the --summary header: {summary[0]}", p)
    # v2, v3 and v5 hold the same figures (other nodes, other runs): one line each, 3 rows.
    for r in mine:
        shown = ("method", "metric", "config", "launcher", "ranks", "nodes")
        got = [t for t in table if [t[c] for c in shown] == [r[c] or "-" for c in shown]]
        expect(len(got) == 1 and got[0]["rows"] == "3",
               f"{r['method']} {r['config']} {r['metric']}: one summary line of 3 rows: {got}", p)
    expect(sorted(os.listdir(os.path.dirname(out))) == ["merged.csv"], "no temporary file left")

    # host.mpi.barrier of one job at several rank and node counts (a generated Slurm job's steps):
    # a line per count, told apart by ranks and nodes, never five lines that look the same.
    table = list(csv.reader(io.StringIO(text, newline="")))
    at = {name: i for i, name in enumerate(table[0])}
    steps = os.path.join(d, "steps.csv")
    with open(steps, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(table[0])
        for ranks, nodes in ((2, 1), (4, 1), (2, 2), (4, 2)):
            for row in (r for r in table[1:] if r[at["method"]] == "host.omp.barrier"):
                row = list(row)
                row[at["method"]], row[at["launcher"]] = "host.mpi.barrier", "mpi"
                row[at["ranks"]], row[at["nodes"]] = str(ranks), str(nodes)
                row[at["run_id"]] += f"-{ranks}-{nodes}"
                w.writerow(row)
    p = gpubarrier("merge", steps, "--out", os.path.join(d, "steps-merged.csv"), "--summary")
    expect(p.returncode == 0, "merge of the steps", p)
    lines = summary_table(p.stdout.strip().splitlines()[:-1])
    shapes = {}
    for t in lines:
        shapes.setdefault((t["metric"], t["config"]), []).append((t["ranks"], t["nodes"]))
    shapes = {k: sorted(v) for k, v in shapes.items()}
    expect(lines and all(v == [("2", "1"), ("2", "2"), ("4", "1"), ("4", "2")]
                         for v in shapes.values()) and all(t["rows"] == "1" for t in lines),
           f"one line per rank and node count: {shapes}", p)

    # Refusals name the file, the line and the column; the output is left alone.
    before = open(out).read()
    bad = os.path.join(d, "bad.csv")
    for broken, message in [
            (text.replace(",note,", ",comment,", 1),
             "bad.csv:1: column 41 'comment' is not a column"),
            (without_column(text, "slurm_job_id"), "bad.csv:1: missing column 'slurm_job_id'"),
            (text + "2,x,2026", f"bad.csv:{len(mine) + 2}: the last row is torn"),
            (without_column(text, "statistic"), "bad.csv:1: missing column 'statistic'"),
            (text.replace("\r\n5,", "\r\n7,", 1), "bad.csv:2: column schema_version: '7'")]:
        with open(bad, "w", newline="") as f:
            f.write(broken)
        p = gpubarrier("merge", v5, bad, "--out", out)
        expect(p.returncode == 2 and message in p.stderr, f"refused with '{message}'", p)
        expect(open(out).read() == before, "a refused merge leaves --out as it was")

#!/usr/bin/env python3
"""gpubarrier_tools/cli/compare.py (`gpubarrier compare`): verdicts on small CSVs written here, and on committed ones.

Run by pytest (`pytest tests/cli/test_compare.py`); compare.py runs with an interpreter that has
scipy where there is one (the Mann-Whitney test needs it, and is skipped without: scripts/setup
installs python3-scipy).
"""
import csv
import json
import os
import random
import shutil
import subprocess
import sys

import pytest

from gpubarrier_tools.cli import compare as compare_tool
from gpubarrier_tools.data import gbcsv
from tool_python import python_with

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = ["-m", "gpubarrier_tools.cli.compare"]
# Without scipy every test but the Mann-Whitney one runs.
PY = python_with("scipy.stats") or sys.executable


def row(**kw):
    r = {name: "" for name in gbcsv.NAMES}
    r.update(schema_version="3", run_id="r1", timestamp="2026-01-01T00:00:00Z", host="h",
             system="local", gpu_model="GPU X", gpu_count="1", gpu_ids="0", topology="single",
             method="gpu.grid.cg", level="grid", launcher="single", ranks="1", nodes="1",
             config="blocks_per_sm=1 threads_per_block=128", technique="clock", samples="20",
             metric="latency", unit="ns", value="1000", stddev="0.1", status="ok", note="verified",
             statistic="median")
    r.update({k: str(v) for k, v in kw.items()})
    return r


@pytest.fixture
def write(tmp_path):
    """write(name, rows): a gpubarrier CSV of `rows` in the test's folder; its path."""
    def write(name, rows):
        path = str(tmp_path / name)
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\r\n")
            w.writerow(gbcsv.NAMES)
            for r in rows:
                w.writerow([r[n] for n in gbcsv.NAMES])
        return path
    return write


def compare(*args, ok=(0,)):
    p = subprocess.run([PY, *TOOL, *args], capture_output=True, text=True, timeout=300, cwd=ROOT)
    if p.returncode not in ok:
        pytest.fail(f"compare.py {' '.join(args)}: exit {p.returncode}, expected {ok}\n"
                    f"{p.stdout}\n{p.stderr}")
    return p


def as_json(*args):
    return json.loads(compare(*args, "--format", "json").stdout)


def expect(cond, what, out=""):
    if not cond:
        pytest.fail(f"{what}\n{out}")


def one_verdict(res):
    expect(len(res["joined"]) == 1, "expected one joined key", json.dumps(res, indent=1))
    return res["joined"][0]["comparisons"][0]


def test_same_within_floor(write):
    a = write("same-a.csv", [row(value="1000")])
    b = write("same-b.csv", [row(value="1000.5", run_id="r2")])   # 0.05% < clock floor 0.1%
    c = one_verdict(as_json(a, b))
    expect(c["verdict"] == "same" and c["test"] == "se+floor", f"0.05% apart: {c}")
    # the floor is what makes it same: with --floor 0 and a tiny SE it differs
    c = one_verdict(as_json(a, b, "--floor", "0"))
    expect(c["verdict"] == "0.05% slower", f"--floor 0: {c}")


def test_faster_beyond(write):
    a = write("fast-a.csv", [row(value="1000")])
    b = write("fast-b.csv", [row(value="800", run_id="r2")])
    c = one_verdict(as_json(a, b))
    expect(c["verdict"] == "1.25x faster", f"800 vs 1000 ns: {c}")
    # throughput: larger is faster
    a = write("tp-a.csv", [row(value="2", metric="throughput", unit="syncs/ns")])
    b = write("tp-b.csv", [row(value="3", metric="throughput", unit="syncs/ns", run_id="r2")])
    expect(one_verdict(as_json(a, b))["verdict"] == "1.50x faster", "throughput 3 vs 2")
    # within 3 SE it is the same even beyond the floor: stddev 100 over 4 samples -> SE 50
    a = write("se-a.csv", [row(value="1000", stddev="100", samples="4")])
    b = write("se-b.csv", [row(value="1100", stddev="100", samples="4", run_id="r2")])
    expect(one_verdict(as_json(a, b))["verdict"] == "same", "10% apart within 3 SE")
    out = compare(a, b).stdout
    expect("1 keys joined" in out and "1 same, 0 faster, 0 slower" in out and "floor" in out,
           "table summary", out)


A_GPU, B_GPU = "GPU-aaaaaaaa-0000-0000-0000-000000000000", "GPU-bbbbbbbb-0000-0000-0000-000000000000"


@pytest.mark.parametrize("b_uuid, differ", [(B_GPU, True), (A_GPU, False), ("", False)])
def test_sides_name_their_gpus(write, b_uuid, differ):
    """Each side names the GPUs it was measured on; sides on other GPUs than the baseline's say
    that their verdicts hold the difference between the GPUs (a side that records none, no
    claim)."""
    a = write("gpu-a.csv", [row(gpu_uuids=A_GPU)])
    b = write("gpu-b.csv", [row(gpu_uuids=b_uuid, run_id="r2")])
    out = compare(a, b).stdout
    expect("gpu-a.csv (baseline): " in out and "1 keys, on GPU-aaaaaaaa" in out,
           "the baseline's GPU", out)
    expect(f"1 keys, on {b_uuid[:12]}" in out if b_uuid else "1 keys, GPUs not recorded" in out,
           "the other side's GPU", out)
    expect(("measured on different GPUs" in out) == differ,
           f"the different-GPUs line {'present' if differ else 'absent'}", out)
    sides = as_json(a, b)["sides"]
    expect([s["gpu_uuids"] for s in sides] == [[A_GPU], [b_uuid] if b_uuid else []],
           "the JSON sides' GPU UUIDs", sides)


def test_only_in_one(write):
    a = write("only-a.csv", [row(value="1000")])
    b = write("only-b.csv", [row(value="1000", run_id="r2"),
                             row(method="gpu.grid.atomic-sense", value="1400", run_id="r2")])
    out = compare(a, b).stdout
    expect("only in only-b.csv" in out and "gpu.grid.atomic-sense" in out, "only-in section", out)
    res = as_json(a, b)
    expect([o["method"] for o in res["only"]] == ["gpu.grid.atomic-sense"], "json only", res)
    md = compare(a, b, "--format", "markdown").stdout
    expect("**only in only-b.csv**" in md and "| gpu.grid.atomic-sense |" in md, "markdown", md)


def test_unit_mismatch(write):
    a = write("unit-a.csv", [row(unit="ns")])
    b = write("unit-b.csv", [row(unit="us", value="1", run_id="r2")])
    p = compare(a, b, ok=(2,))
    expect("unit-a.csv" in p.stderr and "unit-b.csv" in p.stderr and "'ns'" in p.stderr
           and "'us'" in p.stderr, "unit mismatch names both files and units", p.stderr)


def test_statistic_mismatch(write, tmp_path):
    a = write("stat-a.csv", [row(statistic="median")])
    b = write("stat-b.csv", [row(statistic="mean", value="800", run_id="r2")])
    c = one_verdict(as_json(a, b))
    expect(c["verdict"] == "not comparable: median vs mean", f"statistic mismatch: {c}")
    # a v1 row says nothing: clock infers median, differential eq7
    v1 = row(schema_version="1", technique="differential", statistic="")
    p = str(tmp_path / "stat-v1.csv")
    with open(p, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        names = gbcsv.columns_of(1)
        w.writerow(names)
        w.writerow([v1[n] for n in names])
    c = one_verdict(as_json(a, p))
    expect(c["verdict"] == "not comparable: median vs eq7", f"v1 differential: {c}")


def test_unreadable(write, tmp_path):
    a = write("bad-a.csv", [row()])
    b = write("bad-b.csv", [row(), row(value="fast", run_id="r2")])
    p = compare(a, b, ok=(2,))
    expect(len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr,
           "one line", p.stderr)
    expect("bad-b.csv:3" in p.stderr and "column 'value'" in p.stderr,
           "unreadable file names file, line and column", p.stderr)
    p = compare(a, str(tmp_path / "missing.csv"), ok=(2,))
    expect("missing.csv" in p.stderr and "cannot open" in p.stderr, "missing file", p.stderr)


def test_repeats_median(write):
    vals = [1000, 1003, 999, 1001, 1200]
    a = write("rep-a.csv", [row(value=v, run_id=f"r{i}") for i, v in enumerate(vals)])
    b = write("rep-b.csv", [row(value="1001", run_id="b")])
    res = as_json(a, b)
    v = res["joined"][0]["values"][0]
    expect(v["value"] == 1001 and v["count"] == 5, f"median of five repeats: {v}")
    out = compare(a, b).stdout
    expect("1001 (x5)" in out, "count shown", out)
    # the spread between repeats (one outlier of 1200) is larger than the rows' SE
    expect(v["se"] > 30, f"SE from the spread between repeats: {v}")


@pytest.mark.skipif(python_with("scipy.stats") is None,
                    reason="no python3 with scipy (scripts/setup installs python3-scipy)")
def test_mann_whitney(write, tmp_path):
    rng = random.Random(7)
    a = write("mwu-a.csv", [row(value="1000", run_id="ra", samples="50", stddev="5")])
    b = write("mwu-b.csv", [row(value="1100", run_id="rb", samples="50", stddev="5")])
    c = write("mwu-c.csv", [row(value="1001", run_id="rc", samples="50", stddev="5")])
    raw = str(tmp_path / "raw.csv")
    with open(raw, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run_id", "method", "config", "gpu_ids", "launcher", "metric", "unit",
                    "statistic", "sample", "value"])
        for run, mu in (("ra", 1000), ("rb", 1100), ("rc", 1000)):
            for i in range(50):
                w.writerow([run, "gpu.grid.cg", "blocks_per_sm=1 threads_per_block=128", "0",
                            "single", "latency", "ns", "sample", i, rng.gauss(mu, 5)])
    v = one_verdict(as_json(a, b, "--raw", raw))
    expect(v["test"].startswith("mwu p=") and v["p"] < 0.01 and v["verdict"] == "1.10x slower",
           f"Mann-Whitney decides a 10% shift: {v}")
    v = one_verdict(as_json(a, c, "--raw", raw))
    expect(v["test"].startswith("mwu p=") and v["verdict"] == "same", f"same samples: {v}")
    out = compare(a, b, "--raw", raw).stdout
    expect("mwu p=" in out and "Mann-Whitney" in out, "table names the test", out)
    # without raw samples the same pair is decided by se+floor
    expect(one_verdict(as_json(a, b))["test"] == "se+floor", "no raw: se+floor")


def test_committed():
    h100 = "results/h100/single-gpu.csv"
    h200 = "results/h200/single-gpu.csv"
    res = as_json(h100, h200, "--methods", "gpu.cluster.sync,gpu.block.syncthreads")
    expect(res["by"] == "gpu_model" and [s["label"] for s in res["sides"]] ==
           ["NVIDIA H100 80GB HBM3", "NVIDIA H200"], f"default --by gpu_model: {res['sides']}")

    def find(method, config, metric):
        for r in res["joined"]:
            if r["method"] == method and r["config"] == config and r["metric"] == metric:
                return r["comparisons"][0]
        pytest.fail(f"no joined row {method} {config} {metric}")
    # README: cluster.sync 710 cycles on H100, 350 on H200; __syncthreads identical
    c = find("gpu.cluster.sync", "cluster_size=1 threads_per_block=128", "latency_cycles")
    expect(c["verdict"] == "2.05x faster", f"H200 cluster.sync vs H100: {c}")
    c = find("gpu.block.syncthreads", "threads_per_block=1024 blocks_per_sm=1", "latency_cycles")
    expect(c["verdict"] == "same", f"__syncthreads 1024 on both: {c}")
    # threads vs mpi on 2 x H200, --by launcher
    out = compare("results/h200x2/multi-gpu.csv", "results/h200x2/multi-gpu-mpi.csv",
                  "--by", "launcher").stdout
    expect("sides by launcher" in out and "only in mpi" in out and "host.mpi.barrier" in out
           and "mpi against threads:" in out, "threads vs mpi", out)
    # 2 vs 4 H200, and a scaling file against itself by gpu_count
    compare("results/h200x2/multi-gpu.csv", "results/h200x4/multi-gpu-scaling.csv")
    res = as_json("results/h200x4/multi-gpu-scaling.csv", "--by", "gpu_count",
                  "--methods", "multigpu.device.push")
    expect([s["label"] for s in res["sides"]] == ["1 GPU", "2 GPUs", "3 GPUs", "4 GPUs"]
           and res["summary"]["slower"] == 48, f"push scaling: {res['summary']}")


def test_floor_reproducible(write, tmp_path):
    # gpubarrier_tools/data/noise_floors.json (what compare reads, installed with it) is current: what
    # --measure-floor --json computes from the committed repeat runs, byte for byte.
    p = compare("--measure-floor", "--json")
    committed = open(os.path.join(ROOT, "gpubarrier_tools", "data", "noise_floors.json"), encoding="utf-8").read()
    expect(p.stdout == committed, "gpubarrier_tools/data/noise_floors.json differs from what the committed repeat "
           "runs give; regenerate it with\n  gpubarrier compare --measure-floor --json > "
           "gpubarrier_tools/data/noise_floors.json\nand commit it")
    measured = {t: e["floor"] for t, e in json.loads(committed)["floors"].items()}
    expect(all(e["csvs"] for e in json.loads(committed)["floors"].values()),
           "every floor names the CSVs it came from", committed)
    p = compare("--measure-floor")
    line = [x for x in p.stdout.splitlines() if x.startswith("floors: ")]
    expect(line and json.loads(line[0][len("floors: "):]) == measured,
           "--measure-floor's table gives the file's floors", p.stdout)
    q = subprocess.run([PY, "-c", "import json; from gpubarrier_tools.cli import compare; "
                        "print(json.dumps(compare.default_floors()))"],
                       capture_output=True, text=True, cwd=ROOT)
    defaults = json.loads(q.stdout)
    expect(measured == defaults, f"default_floors() {defaults} != the file's {measured}")
    help_text = compare("--help").stdout
    for t, v in measured.items():
        expect(f"{t} {v * 100:g}%" in help_text, f"--help states the {t} floor {v * 100:g}%",
               help_text)
    expect("noise_floors.json" in help_text, "--help names the floors' file", help_text)
    # Without the file (a tools folder copied without it): one line, exit 2, naming the fix.
    tools = str(tmp_path / "nofloors" / "gpubarrier_tools")
    shutil.copytree(os.path.join(ROOT, "gpubarrier_tools"), tools,
                    ignore=shutil.ignore_patterns("__pycache__", "noise_floors.json"))
    a = write("nf-a.csv", [row()])
    b = write("nf-b.csv", [row(value="1001", run_id="r2")])
    p = subprocess.run([PY, "-m", "gpubarrier_tools.cli.compare", a, b], capture_output=True, text=True,
                       timeout=300, cwd=os.path.dirname(tools))
    lines = p.stderr.strip().splitlines()
    expect(p.returncode == 2 and len(lines) == 1 and "noise_floors.json" in lines[0] and
           "--floor" in lines[0], "compare without its floors file: exit 2, one line", p.stderr)


def test_api():
    code = ("from gpubarrier_tools.cli import compare; "
            "print(compare.compare_text(['results/h100/grid-repeats.csv', "
            "'results/h200/foundation-repeats.csv'], level='grid'))")
    p = subprocess.run([PY, "-c", code], capture_output=True, text=True, cwd=ROOT)
    expect(p.returncode == 0 and "| gpu.grid.cg |" in p.stdout and "(x5)" in p.stdout,
           "compare_text markdown", p.stdout + p.stderr)
    csv_out = compare("results/h100/grid-repeats.csv", "results/h200/foundation-repeats.csv",
                      "--format", "csv").stdout
    rows = list(csv.DictReader(csv_out.splitlines()))
    expect(len(rows) == 2 and rows[0]["verdict"] == "baseline" and rows[0]["count"] == "5"
           and rows[1]["verdict"].endswith("faster"), "csv format", csv_out)

    page = compare("results/h100/grid-repeats.csv", "results/h200/foundation-repeats.csv",
                   "--format", "html", "--where", "threads_per_block=128").stdout
    expect(page.startswith("<ul>") and "<table>" in page and "<td>gpu.grid.cg</td>" in page
           and "|" not in page.split("<table>")[1].split("</table>")[0], "html format", page)


def test_where():
    out = compare("results/h100/single-gpu.csv", "results/h200/single-gpu.csv", "--level", "grid",
                  "--where", "blocks_per_sm=2,threads_per_block=64", "--format", "csv").stdout
    rows = list(csv.DictReader(out.splitlines()))
    expect(rows and all("blocks_per_sm=2" in r["config"] and "threads_per_block=64" in r["config"]
                        for r in rows), "--where keeps only those configurations", out)
    bad = compare("results/h100/single-gpu.csv", "results/h200/single-gpu.csv", "--where", "x",
                  ok=(2,))
    expect(bad.returncode == 2 and "AXIS=VALUE" in bad.stderr, "--where x refused", bad.stderr)
    # An axis no input has is a mistake (a typo), not a filter that keeps everything.
    bad = compare("results/h100/single-gpu.csv", "results/h200/single-gpu.csv", "--where",
                  "blocks_per_smm=1", ok=(2,))
    lines = bad.stderr.strip().splitlines()
    expect(len(lines) == 1 and "Traceback" not in bad.stderr and "blocks_per_smm" in lines[0]
           and "blocks_per_sm" in lines[0].replace("blocks_per_smm", ""),
           "--where blocks_per_smm=1: one line naming the closest axis", bad.stderr)
    bad = compare("results/h100/single-gpu.csv", "results/h200/single-gpu.csv", "--where",
                  "threads_per_block=128,colour=red", ok=(2,))
    expect("colour" in bad.stderr and "threads_per_block" in bad.stderr,
           "an axis with no close name lists the axes there are", bad.stderr)


@pytest.mark.parametrize("values, q, want", [([1, 2, 3, 4], 50, 2.5), ([10, 0], 95, 9.5),
                                             ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 9.5),
                                             ([7], 95, 7)])
def test_percentile_interpolates(values, q, want):
    assert compare_tool.percentile(values, q) == pytest.approx(want)

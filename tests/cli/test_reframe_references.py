"""ReFrame's bounds and noisy figures (results/SCHEMA.md, "Noisy figures"). Noise only adds time,
so a figure read from a noisy row cannot show that a barrier got slower; it can still show one
that got faster than a barrier can be.

make_references  reframe/lib/make_references.py takes a variable's value and upper bound from
                 its quiet figures only and widens the lower bound by the noisy ones too; a
                 variable measured only noisily gets no upper bound (null)
check            a check whose figure comes from a noisy row keeps the reference's lower bound
                 and drops the upper one (ReFrame on this machine, system local-gpu, with a
                 stand-in for gpubarrier that writes the CSV): a quiet figure 100 times the
                 reference fails in the performance phase, the same figure noisy passes, and a
                 noisy figure 100 times below the reference still fails
"""
import csv
import json
import os
import subprocess
import sys

import pytest

from reframe_runner import ROOT, cases, find_reframe, run_reframe, stand_in

MAKE_REFERENCES = os.path.join(ROOT, "reframe", "lib", "make_references.py")
# A committed run with host.omp.barrier rows: the template of the CSVs written here.
TEMPLATE = os.path.join(ROOT, "results", "h200", "v3", "quick.csv")
NOISY = "; noisy: cv 1 > 0.25"


def omp_csv(path, latency_ns, noisy):
    """The template's host.omp.barrier rows, each latency row at `latency_ns`, noisy or quiet."""
    with open(TEMPLATE, newline="") as f:
        reader = csv.DictReader(f)
        rows = [r for r in reader if r["method"] == "host.omp.barrier"]
        fields = reader.fieldnames
    for r in rows:
        r["note"] = r["note"].split("; noisy: ")[0] + (NOISY if noisy else "")
        if r["metric"] == "latency":
            for c in ("value", "mean", "median", "min", "max", "p95", "p99"):
                r[c] = repr(float(latency_ns))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    return str(path)


def references(*csvs, factor=10):
    p = subprocess.run([sys.executable, MAKE_REFERENCES, "--partition", "cpu", "--factor",
                        str(factor), *csvs], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["cpu"]["host.omp.barrier"]


def test_make_references_quiet_figures_set_value_and_upper(tmp_path):
    quiet = omp_csv(tmp_path / "quiet.csv", 300, noisy=False)
    fast_noisy = omp_csv(tmp_path / "fast-noisy.csv", 100, noisy=True)
    slow_noisy = omp_csv(tmp_path / "slow-noisy.csv", 50000, noisy=True)
    # value 300 (the quiet figure); lower from 100 / 10; upper from 300 x 10, not 50000 x 10
    assert references(quiet, fast_noisy, slow_noisy) == [300.0, -0.967, 9.0, "ns"]


def test_make_references_only_noisy_figures_have_no_upper_bound(tmp_path):
    a = omp_csv(tmp_path / "a.csv", 200, noisy=True)
    b = omp_csv(tmp_path / "b.csv", 400, noisy=True)
    assert references(a, b) == [300.0, -0.934, None, "ns"]


@pytest.mark.parametrize("scale, noisy, result", [
    (100, False, "fail"),       # a quiet figure beyond the upper bound
    (100, True, "pass"),        # the same figure, noisy: no upper bound
    (0.01, True, "fail"),       # a noisy figure below the lower bound
])
def test_check_noisy_figure_keeps_lower_bound_only(tmp_path, scale, noisy, result):
    if not find_reframe() and os.environ.get("GPUBARRIER_REQUIRE_REFRAME") != "1":
        pytest.skip("no `reframe` command (reframe-hpc, which scripts/setup installs)")
    reference = 400.0
    refs = tmp_path / "refs"
    refs.mkdir()
    (refs / "local-gpu.json").write_text(json.dumps(
        {"gpu": {"host.omp.barrier": [reference, -0.5, 1.0, "ns"]}}))
    exe = stand_in(str(tmp_path), {"host-omp.csv": omp_csv(
        tmp_path / "run.csv", reference * scale, noisy)})
    p, report = run_reframe(str(tmp_path), ["--system", "local-gpu:gpu", "-n", "HostOmpBarrier",
                                            "-S", f"gpubarrier={exe}",
                                            "-S", f"references={refs}", "-r"])
    c = cases(report).get("HostOmpBarrier", {})
    value = c.get("perfvalues", {}).get("local-gpu:gpu:host.omp.barrier")
    upper = None if noisy else 1.0
    assert value and value[:5] == [reference * scale, reference, -0.5, upper, "ns"], (
        f"{value}\n{p.stdout[-3000:]}\n{p.stderr[-2000:]}")
    assert c.get("result") == result, f"{c.get('fail_reason')}\n{p.stdout[-3000:]}"
    if result == "fail":
        assert c["fail_phase"] == "performance", c.get("fail_reason")

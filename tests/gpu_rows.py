"""Helpers shared by the tests that drive the real executable on a GPU machine (tests/gpu/*.py,
tests/mpi/test_mpi_gpu.py, ...): GPU count, one run into a temporary CSV, the failure report
(an AssertionError, which pytest reports with its message), NCCL's refusals, a row's config with
its named values as codes."""
import csv
import json
import os
import subprocess
import sys
import tempfile

from bounded_run import run_bounded

NCCL_LSA = "multigpu.nccl.lsa"


def gpu_count():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    except FileNotFoundError:
        return 0
    if p.returncode != 0:
        return 0
    return sum(1 for line in p.stdout.splitlines() if line.startswith("GPU "))


def has_gpu():
    return gpu_count() > 0


def rows_of(cmd, env=None, timeout=900):
    """Runs `cmd` (a gpubarrier run or sweep command line, possibly under mpirun) with --out into
    a temporary CSV and returns its rows; a non-zero exit fails the test with the output."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "rows.csv")
        p = run_bounded([*cmd, "--out", out], env=env, timeout=timeout)
        if p.returncode != 0:
            raise AssertionError(f"FAIL: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
    check_provenance(rows)
    return rows


_CODES = {}


def codes(r):
    """The row's config as {axis: value}: a named value (ordering=release-acquire) as its
    method's integer code (0), from `gpubarrier list --json` of the executable under test
    (GPUBARRIER_EXE, which tests/conftest.py sets from --gpubarrier; else the first argument of a
    test run as a script); other numbers as int, anything else as written. So a test asks for
    impl=1 whichever way the CSV writes it."""
    if not _CODES:
        p = run_bounded([os.environ.get("GPUBARRIER_EXE") or sys.argv[1], "list", "--json"],
                        timeout=300)
        if p.returncode != 0:
            raise AssertionError(f"FAIL: list --json: exit {p.returncode}\n{p.stderr}")
        for m in json.loads(p.stdout):
            for axis, values in (m.get("value_names") or {}).items():
                for v in values:
                    _CODES[(m["name"], axis, v["name"])] = v["code"]
    out = {}
    for kv in r["config"].split():
        k, _, v = kv.partition("=")
        out[k] = _CODES.get((r["method"], k, v), int(v) if v.lstrip("-").isdigit() else v)
    return out


def check_provenance(rows):
    """Schema v3 (results/SCHEMA.md): every GPU of a row named by UUID, the build on every row,
    what `value` is on every ok row, and the SM clock on clock-technique rows."""
    for r in rows:
        if not r["git_sha"] or not r["gpubarrier_version"]:
            fail("a row without gpubarrier_version/git_sha", [r])
        ids = [i for i in r["gpu_ids"].split(",") if i]
        uuids = [u for u in r["gpu_uuids"].split(",") if u]
        if r["status"] == "ok" and (len(uuids) != len(ids) or
                                    not all(u.startswith("GPU-") for u in uuids)):
            fail("gpu_uuids does not name every GPU of gpu_ids", [r])
        if r["status"] == "ok" and ids and not r["gpu_model"]:
            fail("an ok GPU row without gpu_model", [r])
        if r["status"] == "ok" and not r["statistic"]:
            fail("an ok row without statistic", [r])
        if r["status"] == "ok" and r["technique"] == "clock" and not r["sm_clock_mhz"]:
            fail("a clock-technique row without sm_clock_mhz", [r])


def verified(r):
    """Whether a row is ok and passed its barrier check. The note must start with the runner's
    word: "not verified: <why>" (no check ran, status ok too) contains "verified" as well."""
    return r["status"] == "ok" and (r["note"] == "verified" or r["note"].startswith("verified; "))


def caught(r):
    """Whether a row's barrier check failed: status unverified and the runner's note for it."""
    return r["status"] == "unverified" and r["note"].startswith("barrier check failed: ")


def fail(why, rows):
    raise AssertionError("FAIL: " + why + "\n" + "\n".join(str(r) for r in rows))


def without_nccl_refusals(rows):
    """NCCL may refuse device communicators here (e.g. no symmetric memory support, or one GPU
    alone): then multigpu.nccl.lsa must say so in skipped rows, which are shown and set aside."""
    refused = [r for r in rows if r["method"] == NCCL_LSA and r["status"] == "skipped"
               and ("ncclDevCommCreate" in r["note"] or "LSA team" in r["note"])]
    for r in refused:
        print("NOTE:", NCCL_LSA, r["config"], "skipped:", r["note"])
    return [r for r in rows if r not in refused]

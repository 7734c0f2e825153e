#!/usr/bin/env python3
"""Multi-GPU methods in threads mode on every visible GPU (1..N); skipped without a GPU, or when
a test needs more GPUs than are visible.

Run by pytest (`pytest tests/gpu/test_multigpu.py`; ctest: gpu.multigpu).
"""
import os

import pytest

from gpu_rows import NCCL_LSA, codes, fail, rows_of, verified, without_nccl_refusals
# The fault axis (broken_variant, partial_participation) belongs to these alone: multigpu.nccl.lsa
# has none, since a GPU that skipped NCCL's barrier would leave its peers spinning inside NCCL,
# where no watchdog reaches (the host-side deadline can only report such a kernel, not end it).
DEVICE = "multigpu.device.*"
SMALL = ["--samples", "5", "--time-budget", "0.3", "--reps-lo", "64", "--reps-hi", "640"]
SHAPE = ["--axis", "blocks_per_sm=1", "--axis", "threads_per_block=128"]


def run_rows(exe, *args, shape=True):
    return rows_of([exe, "run", *SMALL, *(SHAPE if shape else []), *args],
                   env=dict(os.environ, NCCL_NVLS_ENABLE="0"))


def counts(n):
    return "gpu_count=" + ",".join(str(i) for i in range(1, n + 1))


def test_threads_all_methods(gpubarrier, gpus):
    rows = run_rows(gpubarrier, "--methods", DEVICE + "," + NCCL_LSA + ",host.omp.gpu-barrier,"
                    "host.nccl.allreduce,kernel.multi-device-launch,multigpu.cg.multi-grid",
                    "--axis", counts(gpus))
    # Multi-grid and the real multi-device launch (impl=1) run in the gpubarrier-legacy helper:
    # without it, skipped saying so; with it, checked below like the others.
    legacy = [r for r in rows
              if r["method"] == "multigpu.cg.multi-grid" or codes(r).get("impl") == 1]
    if any(r["status"] == "skipped" and "gpubarrier-legacy" not in r["note"] for r in legacy):
        fail("multi-grid and impl=1 may be skipped only for want of the gpubarrier-legacy helper",
             legacy)
    rows = [r for r in rows if r not in legacy or r["status"] != "skipped"]
    # NCCL gives no device communicator to a single GPU (no symmetric memory without peers).
    refused = {int(r["gpu_count"]) for r in rows if r not in without_nccl_refusals(rows)}
    rows = without_nccl_refusals(rows)
    bad = [r for r in rows if not verified(r) or float(r["value"]) <= 0
           or r["launcher"] != "threads"]
    if bad:
        fail("rows not ok+verified in threads mode", bad)
    for method in {r["method"] for r in rows}:
        seen = sorted({int(r["gpu_count"]) for r in rows if r["method"] == method})
        expected = [n for n in range(1, gpus + 1) if method != NCCL_LSA or n not in refused]
        if seen != expected:
            fail(f"{method}: gpu_count column {seen}, expected {expected}", rows)
    print("PASS", [(r["method"], r["gpu_count"], r["value"]) for r in rows])


def test_host_wait(gpubarrier, gpus):
    rows = run_rows(gpubarrier, "--methods", "host.omp.gpu-barrier", "--axis", "host_wait=0,1,2",
                    shape=False)
    # Each point: loop_latency (EPCC's loop mean, the headline) first, then the per-step latency.
    if [r["metric"] for r in rows] != ["loop_latency", "latency"] * 3 or any(
            r["status"] != "ok" or "OMP_WAIT_POLICY" not in r["note"] for r in rows):
        fail("host_wait 0/1/2 must each give ok loop_latency and latency rows that record "
             "OMP_WAIT_POLICY", rows)
    print("PASS", [(r["config"], r["value"]) for r in rows])


def caught(rows, metric):
    """The check_* rows of `metric`: unit, technique and note of a fault point's count."""
    picked = [r for r in rows if r["metric"] == metric]
    for r in picked:
        if r["unit"] != "per 1e6 crossings" or r["technique"] != "check" or \
                "test hook fault=" not in r["note"] or float(r["value"]) < 0:
            fail(f"{metric} row malformed", [r])
    return picked


def test_broken_variant(gpubarrier, gpus):
    # fault=1 signals but never waits: the stamp check must catch every algorithm, on 1 GPU too,
    # and say how often per 10^6 crossings (stamps; payload words too, where a peer was read).
    rows = run_rows(gpubarrier, "--methods", DEVICE, "--axis", "fault=1", "--axis", "ordering=0")
    if not rows or any(r["status"] != "unverified" for r in rows):
        fail("a barrier that does not wait must give unverified rows", rows)
    stamps = caught(rows, "check_stale_stamps")
    payload = caught(rows, "check_stale_payload")
    if len(stamps) != len(payload) or len(stamps) * 2 != len(rows):
        fail("a fault point gives one stamps and one payload row", rows)
    if any(float(r["value"]) <= 0 for r in stamps):
        fail("every algorithm that does not wait shows stale stamps", stamps)
    print("PASS", len(rows), "unverified rows;",
          [(r["method"].split(".")[-1], r["value"]) for r in stamps])


def test_unordered_counts(gpubarrier, gpus):
    # fault=3 drops every release, acquire and fence: whether H100/H200 show it is what the
    # count says (reported, not asserted); the rows must exist, count and never hang.
    rows = run_rows(gpubarrier, "--methods", DEVICE, "--axis", "fault=3", "--axis", "ordering=0",
                    "--axis", "gpu_count=" + str(gpus))
    if not rows or any(r["status"] not in ("ok", "unverified") for r in rows):
        fail("fault=3 points give counted rows, ok or unverified", rows)
    for r in caught(rows, "check_stale_payload") + caught(rows, "check_stale_stamps"):
        if "131072 crossings" not in r["note"]:
            fail("fault=3 runs 2^17 crossings", [r])
        print(r["method"], r["metric"], r["value"], r["status"])
    print("PASS", len(rows), "rows")


def test_partial_participation(gpubarrier, gpus):
    if gpus < 2:
        pytest.skip("partial participation needs 2 GPUs")
    # fault=2 keeps the last GPU out: the others must end on the watchdog, not hang.
    rows = run_rows(gpubarrier, "--methods", DEVICE, "--axis", "fault=2", "--axis", "ordering=0")
    if not rows or any(r["status"] != "timeout" for r in rows):
        fail("one GPU skipping the barrier must give timeout rows", rows)
    print("PASS", len(rows), "timeout rows")


def test_absent_while_timing(gpubarrier, gpus):
    if gpus < 2:
        pytest.skip("a GPU absent while timing needs 2 GPUs")
    # fault=4: every GPU takes part in the check, the last one stays out of the timing runs.
    # The watchdog then fires while timing: a timeout row that says so, not a failed row.
    rows = run_rows(gpubarrier, "--methods", DEVICE, "--axis", "fault=4", "--axis", "ordering=0")
    if not rows or any(r["status"] != "timeout" or "while timing" not in r["note"]
                       for r in rows):
        fail("a GPU absent while timing must give timeout rows that say so", rows)
    print("PASS", len(rows), "timeout rows")


def test_absent_alone(gpubarrier, gpus):
    # fault=2 on one GPU would leave nobody to cross: empty launches that verify nothing. Refused.
    rows = run_rows(gpubarrier, "--methods", DEVICE, "--axis", "fault=2", "--axis", "gpu_count=1",
                    "--axis", "ordering=0")
    if not rows or any(r["status"] != "skipped" or "needs 2 or more GPUs" not in r["note"]
                       for r in rows):
        fail("fault=2 with one GPU must be skipped with the reason", rows)
    print("PASS", len(rows), "skipped rows")


def test_member_throws(gpubarrier, gpus):
    # The last GPU's thread throws (GPUBARRIER_TEST_THROW, test-only: core/faults.hpp; once
    # per process, so the second point runs clean): its point must be one failed row naming that
    # thread, in bounded time, and the next point ok. push throws in verify; host.omp.gpu-barrier
    # in measure, inside loops of omp barriers, where a thread that left would hang the others.
    last = gpus - 1
    env = dict(os.environ, NCCL_NVLS_ENABLE="0")
    cases = (("multigpu.device.push", "verify", [*SHAPE, "--axis", "ordering=0,1"]),
             ("host.omp.gpu-barrier", "measure", ["--axis", "host_wait=0,1"]))
    for method, phase, axes in cases:
        env["GPUBARRIER_TEST_THROW"] = f"{phase}:{last}"
        rows = rows_of([gpubarrier, "run", *SMALL, "--methods", method, *axes], env=env,
                       timeout=300)
        first, rest = rows[0], rows[1:]
        if first["status"] != "failed" or f"thread {last} (GPU" not in first["note"] \
                or "GPUBARRIER_TEST_THROW" not in first["note"]:
            fail(f"{method}: the first point must fail naming thread {last}", rows)
        if not rest or any(r["status"] != "ok" for r in rest):
            fail(f"{method}: the next point must measure ok", rows)
        print("PASS", method, phase, first["note"], [(r["metric"], r["value"]) for r in rest])


def test_acq_rel_and_parts(gpubarrier, gpus):
    # The ordering experiments: ordering=2 (relaxed signals, acq_rel fences) is a barrier and must
    # verify like 0 and 1 on every algorithm, and so must push's count_poll=1 (relaxed polls of
    # the count, one acquire fence) and slots' scan=1 (relaxed polls of every slot, one acquire
    # fence; scan=0, an acquire load per poll, is the default the rows above use); push's
    # part=1..3 time one phase each and must say that they are not checked (status ok: readers
    # filter on it), while part=0 verifies.
    if gpus < 2:
        pytest.skip("needs 2 GPUs")
    rows = run_rows(gpubarrier, "--methods", DEVICE, "--axis", "ordering=2",
                    "--axis", "gpu_count=2")
    bad = [r for r in rows if not verified(r)]
    if not rows or bad:
        fail("ordering=2 rows must be ok and verified", bad or rows)
    rows = run_rows(gpubarrier, "--methods", "multigpu.device.push", "--axis", "count_poll=1",
                    "--axis", "ordering=0,1,2", "--axis", "gpu_count=2")
    if len(rows) != 3 or not all(verified(r) for r in rows):
        fail("count_poll=1 (relaxed polls, one acquire fence) must verify", rows)
    rows = run_rows(gpubarrier, "--methods", "multigpu.device.slots", "--axis", "scan=1",
                    "--axis", "ordering=0,1,2", "--axis", "gpu_count=2")
    if len(rows) != 3 or not all(verified(r) and codes(r)["scan"] == 1 for r in rows):
        fail("slots scan=1 (relaxed polls, one acquire fence) must verify", rows)
    counted = run_rows(gpubarrier, "--methods", "multigpu.device.slots", "--axis", "scan=1",
                       "--axis", "fault=3", "--axis", "ordering=0", "--axis", "gpu_count=2")
    if not counted or any(r["status"] not in ("ok", "unverified") for r in counted):
        fail("slots scan=1 with fault=3 gives counted rows, ok or unverified", counted)
    rows = run_rows(gpubarrier, "--methods", "multigpu.device.push", "--axis", "part=0,1,2,3",
                    "--axis", "ordering=0", "--axis", "gpu_count=2")
    parts = {str(codes(r)["part"]): r for r in rows}
    if sorted(parts) != ["0", "1", "2", "3"] or any(r["status"] != "ok" for r in rows):
        fail("push part=0..3 must each give an ok row", rows)
    if not verified(parts["0"]):
        fail("part=0 is the whole barrier: verified", rows)
    for k in "123":
        if f"not verified: part={k} times" not in parts[k]["note"]:
            fail(f"part={k} must say it is not checked", rows)
    refused = run_rows(gpubarrier, "--methods", "multigpu.device.push", "--axis", "part=1",
                       "--axis", "fault=1", "--axis", "gpu_count=2")
    if any(r["status"] != "skipped" or "fault must be 0" not in r["note"] for r in refused):
        fail("part with a fault hook must be refused", refused)
    print("PASS", [(k, r["value"]) for k, r in sorted(parts.items())])


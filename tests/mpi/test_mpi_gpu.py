#!/usr/bin/env python3
"""Multi-GPU methods in mpi mode: `mpirun -np N` with N = visible GPUs, one rank per GPU; skipped
without a GPU, or when a test needs more GPUs than are visible.

Run by pytest (`pytest tests/mpi/test_mpi_gpu.py`; ctest: mpi.gpu).
"""
import os
import shutil

import pytest

from gpu_rows import NCCL_LSA, codes, fail, rows_of, verified, without_nccl_refusals
# multigpu.nccl.lsa has no fault axis (a rank that skipped NCCL's barrier would leave the others
# spinning inside NCCL, where no watchdog reaches): broken_variant and partial_participation keep
# to multigpu.device.*.
SMALL = ["--samples", "5", "--time-budget", "0.3", "--reps-lo", "64", "--reps-hi", "640"]
# NVSHMEM's barriers, whose proxy thread jitters by milliseconds: at 576 repetitions of
# difference one 2 x H200 run gave a negative figure; the default repetitions keep the sign.
STEADY = ["--samples", "5", "--time-budget", "1", "--reps-lo", "512", "--reps-hi", "5632"]
SHAPE = ["--axis", "blocks_per_sm=1", "--axis", "threads_per_block=128"]


@pytest.fixture
def mpirun_rows(gpubarrier, gpus):
    """mpirun_rows(*args, ...): the rows of `gpubarrier run ARGS` under `mpirun -np N`, one rank
    per visible GPU unless `ranks` says how many."""
    def run(*args, shape=True, extra_env=None, timeout=900, ranks=None, small=SMALL):
        mpirun = shutil.which("mpirun")
        if not mpirun:
            pytest.fail("mpirun not found (scripts/setup installs openmpi-bin)")
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_btl="self,tcp", NCCL_NVLS_ENABLE="0", **(extra_env or {}))
        forward = [a for var in ("NCCL_NVLS_ENABLE", *(extra_env or {})) for a in ("-x", var)]
        return rows_of([mpirun, "-np", str(ranks or gpus), *forward, gpubarrier, "run", *small,
                        *(SHAPE if shape else []), *args], env=env, timeout=timeout)
    return run


def test_all_methods(mpirun_rows, gpus):
    rows = mpirun_rows("--methods", "multigpu.device.*," + NCCL_LSA + ",host.mpi.gpu-barrier,"
                       "host.nccl.allreduce,host.omp.gpu-barrier")
    omp = [r for r in rows if r["method"] == "host.omp.gpu-barrier"]
    if len(omp) != 1 or omp[0]["status"] != "skipped" or "threads mode" not in omp[0]["note"]:
        fail("host.omp.gpu-barrier must be skipped under mpirun (threads mode only)", omp)
    rows = without_nccl_refusals([r for r in rows if r["method"] != "host.omp.gpu-barrier"])
    bad = [r for r in rows if not verified(r) or float(r["value"]) <= 0
           or r["launcher"] != "mpi" or r["ranks"] != str(gpus)]
    if bad or not rows:
        fail("rows not ok+verified with launcher=mpi and ranks=N", bad or rows)
    # Every rank's GPU is named, and the class is that of all of them, not of rank 0's alone.
    everyone = ",".join(str(g) for g in range(gpus))
    wrong = [r for r in rows if r["gpu_ids"] != everyone or r["gpu_count"] != str(gpus)
             or (gpus > 1 and r["topology"] == "single")]
    if wrong:
        fail(f"rows must carry gpu_ids {everyone}, gpu_count {gpus} and the class of all GPUs",
             wrong)
    print("PASS", [(r["method"], r["value"]) for r in rows])


def test_multi_reductions(mpirun_rows, gpus):
    """reduction.multi.* with one rank per GPU: device-barrier, mpi and nccl ok and
    verified (relative error in the note) with launcher=mpi, latency and bandwidth; omp and
    multi-grid (one process drives every GPU) skipped (threads mode only)."""
    if gpus < 2:
        pytest.skip("the multi-GPU reductions need 2 GPUs")
    rows = mpirun_rows("--methods", "reduction.multi.*", "--axis", "bytes=1024,1048576",
                       shape=False)
    omp = [r for r in rows if r["method"] in ("reduction.multi.omp", "reduction.multi.multi-grid")]
    if {r["method"] for r in omp} != {"reduction.multi.omp", "reduction.multi.multi-grid"} or \
            any(r["status"] != "skipped" or "threads mode" not in r["note"] for r in omp):
        fail("reduction.multi.omp and multi-grid must be skipped under mpirun (threads mode "
             "only)", omp)
    rows = [r for r in rows if r not in omp]
    bad = [r for r in rows if not verified(r) or "relative error" not in r["note"]
           or float(r["value"]) <= 0 or r["launcher"] != "mpi" or r["gpu_count"] != str(gpus)]
    methods = {r["method"] for r in rows}
    if bad or methods != {"reduction.multi.device-barrier", "reduction.multi.mpi",
                          "reduction.multi.nccl"}:
        fail("device-barrier, mpi, nccl rows ok+verified with launcher=mpi", bad or rows)
    if {(r["metric"], r["unit"]) for r in rows} != {("latency", "ns"), ("bandwidth", "GB/s")}:
        fail("latency (ns) and bandwidth (GB/s) rows", rows)
    print("PASS", [(r["method"], r["config"], r["metric"], r["value"]) for r in rows])


def test_nvshmem(mpirun_rows, gpus):
    """NVSHMEM's barrier at every variant and ordering: verified, except that
    nvshmemx_sync_all_block without fences (variant 1, ordering 0) promises no ordering, so the
    payload check may catch it (unverified); never failed or timeout."""
    if gpus < 2:
        pytest.skip("NVSHMEM's barrier needs 2 GPUs")
    rows = mpirun_rows("--methods", "multigpu.nvshmem.barrier", "--axis", "variant=0,1,2",
                       "--axis", "ordering=0,1", small=STEADY)
    if rows and all("built without NVSHMEM" in r["note"] for r in rows):
        pytest.skip("built without NVSHMEM (scripts/setup, GPUBARRIER_WITH_NVSHMEM)")
    weak = [r for r in rows if codes(r).get("ordering") == 0 and codes(r).get("variant") == 1]
    strong = [r for r in rows if r not in weak]
    bad = [r for r in strong if not verified(r) or float(r["value"]) <= 0
           or r["launcher"] != "mpi"]
    bad += [r for r in weak if r["status"] not in ("ok", "unverified")]
    if bad or len(strong) != 5 or len(weak) != 1:
        fail("NVSHMEM rows: 5 ok+verified, sync_all unfenced ok or unverified", bad or rows)
    print("PASS", [(r["config"], r["status"], r["value"]) for r in rows])


def test_simulated_nodes(mpirun_rows, gpus):
    """2 ranks as 2 "nodes" (GPUBARRIER_TEST_RANKS_AS_NODES=1), NCCL over sockets on
    loopback: host barriers and NCCL measure across the "nodes"; device barriers, which need
    peer memory inside one node, are refused with the reason."""
    if gpus < 2:
        pytest.skip("needs 2 GPUs")
    env = {"GPUBARRIER_TEST_RANKS_AS_NODES": "1", "NCCL_P2P_DISABLE": "1",
           "NCCL_SHM_DISABLE": "1", "NCCL_NET": "Socket", "NCCL_SOCKET_IFNAME": "lo"}
    rows = mpirun_rows("--methods", "host.mpi.gpu-barrier,host.nccl.allreduce,multigpu.device.push",
                       "--axis", "ordering=0", extra_env=env)
    across = [r for r in rows if r["method"] != "multigpu.device.push"]
    device = [r for r in rows if r["method"] == "multigpu.device.push"]
    bad = [r for r in across if r["status"] != "ok" or r["nodes"] != str(gpus)
           or not r["system"].endswith("-simulated")]
    bad += [r for r in device if r["status"] != "skipped" or "one node only" not in r["note"]]
    if bad or not across or not device:
        fail("simulated nodes: host/NCCL rows ok on N nodes, device barriers refused", bad or rows)
    print("PASS", [(r["method"], r["metric"], r["value"]) for r in across])


# multinode.hierarchical at every ordering, network variant and fault that ends
# differently: verified, unverified (fault=1, skip the wait), timeout (fault=2, last rank absent).
# network=1 (NVSHMEM signals between the node leaders' GPUs) ends the same way in a build with
# NVSHMEM, and is skipped with the reason in one without. A short watchdog keeps the timeout
# points to about a second.
MULTINODE = ["--methods", "multinode.hierarchical", "--axis", "ordering=0,1",
             "--axis", "network=0,1", "--axis", "fault=0,1,2", "--watchdog", "0.5"]
# Every rank its own node or every k ranks one (test only), NCCL kept off P2P and shared memory
# as across real nodes (the method's MPI goes over TCP: OMPI_MCA_btl=self,tcp).
def simulated_env(per_node):
    return {"GPUBARRIER_TEST_RANKS_AS_NODES": str(per_node), "NCCL_P2P_DISABLE": "1",
            "NCCL_SHM_DISABLE": "1"}


def check_multinode(rows, ranks, nodes, simulated):
    """The rows of MULTINODE on `ranks` ranks in `nodes` nodes: per network variant and ordering
    one ok+verified latency (fault=0), three unverified check rows (fault=1), one timeout
    (fault=2); without NVSHMEM, network=1 skipped with the reason at every point. Simulated runs
    note what the MNNVL probe (NVML) said, since the refusal applies across real nodes only.
    network=1's note says how NVSHMEM reached the next leader (over NVLink between simulated
    nodes, none with one node)."""
    def of(network, fault):
        return [r for r in rows if codes(r).get("network") == network
                and codes(r).get("fault") == fault]
    bad = [r for r in rows if r["level"] != "multi-node" or r["launcher"] != "mpi"
           or r["ranks"] != str(ranks) or r["nodes"] != str(nodes)
           or r["system"].endswith("-simulated") != simulated]
    device = of(1, 0) + of(1, 1) + of(1, 2)
    built = not all("built without NVSHMEM" in r["note"] for r in device)
    reach = "NVLink/P2P load-store" if nodes > 1 else "no other node"
    networks = (0, 1) if built else (0,)
    for network in networks:
        ok = of(network, 0)
        bad += [r for r in ok if not verified(r) or float(r["value"]) <= 0
                or f"on {nodes} node(s)" not in r["note"]
                or ("MNNVL check" in r["note"]) != simulated]
        if network == 1:
            bad += [r for r in ok if f"NVSHMEM signals between the node leaders ({reach})"
                    not in r["note"]]
        caught = of(network, 1)
        bad += [r for r in caught if r["status"] != "unverified"]
        absent = of(network, 2)
        bad += [r for r in absent if r["status"] != "timeout"]
        if (len(ok), len(caught), len(absent)) != (2, 6, 2):
            fail(f"network={network}: 2 ok+verified, 6 unverified, 2 timeout", rows)
    if not built:
        bad += [r for r in device if r["status"] != "skipped"]
        if len(device) != 6:
            fail("network=1 without NVSHMEM: 6 skipped rows", rows)
    if bad:
        fail(f"multinode.hierarchical on {ranks} ranks, {nodes} nodes", bad)
    if len({r["node"] for r in rows}) != 1 or len(rows[0]["node"].split(",")) != ranks:
        fail("every row names every rank's node", rows)
    print("PASS", ranks, "ranks on", nodes, "nodes:",
          [(r["config"], r["value"]) for r in rows if codes(r).get("fault") == 0])


def test_multinode_simulated(mpirun_rows, gpus):
    """2 ranks as 2 "nodes" (one GPU each: the intra-node part is trivial, the network part is
    MPI over TCP, or NVSHMEM over NVLink, between the two leaders), then the same 2 GPUs as one
    node."""
    if gpus < 2:
        pytest.skip("needs 2 GPUs")
    check_multinode(mpirun_rows(*MULTINODE, ranks=2, extra_env=simulated_env(1)), 2, 2, True)
    check_multinode(mpirun_rows(*MULTINODE, ranks=2), 2, 1, False)


def test_multinode_two_by_two(mpirun_rows, gpus):
    """4 ranks as 2 "nodes" x 2 GPUs (GPUBARRIER_TEST_RANKS_AS_NODES=2): the GPUs of a node
    gather over NVLink/PCIe (CUDA IPC inside the node only), the two leaders cross over MPI or
    NVSHMEM."""
    if gpus < 4:
        pytest.skip("needs 4 GPUs")
    check_multinode(mpirun_rows(*MULTINODE, ranks=4, extra_env=simulated_env(2)), 4, 2, True)


def test_gpu_list_by_local_rank(mpirun_rows, gpus):
    # --gpus under mpirun is indexed by local rank: the reversed list puts rank 0 on the last GPU.
    if gpus < 2:
        pytest.skip("needs 2 GPUs")
    order = ",".join(str(g) for g in reversed(range(gpus)))
    rows = mpirun_rows("--methods", "multigpu.device.push", "--axis", "ordering=0", "--gpus", order)
    if not rows or any(r["status"] != "ok" or r["gpu_ids"] != order for r in rows):
        fail(f"rows must be ok on GPUs {order} in rank order", rows)
    print("PASS", [(r["gpu_ids"], r["value"]) for r in rows])


def test_broken_variant(mpirun_rows, gpus):
    rows = mpirun_rows("--methods", "multigpu.device.*", "--axis", "fault=1",
                       "--axis", "ordering=0")
    if not rows or any(r["status"] != "unverified" for r in rows):
        fail("a barrier that does not wait must give unverified rows", rows)
    print("PASS", len(rows), "unverified rows")


def test_partial_participation(mpirun_rows, gpus):
    if gpus < 2:
        pytest.skip("partial participation needs 2 GPUs")
    rows = mpirun_rows("--methods", "multigpu.device.*", "--axis", "fault=2",
                       "--axis", "ordering=0")
    if not rows or any(r["status"] != "timeout" for r in rows):
        fail("one rank's GPU skipping the barrier must give timeout rows", rows)
    print("PASS", len(rows), "timeout rows")


def test_member_throws(mpirun_rows, gpus):
    # The last rank throws (GPUBARRIER_TEST_THROW, test-only: core/faults.hpp; once per
    # process, so the second point runs clean): every rank must end its point as one failed row
    # naming that rank, in bounded time, and meet the others again in the next point, which
    # measures ok. Without the agreement the thrower would go on to a collective the others are
    # not in (its teardown's barrier against their maximum over ranks) and hang or mix them up.
    last = gpus - 1
    for method, phase, axis in (("multigpu.device.push", "verify", "ordering=0,1"),
                                ("multigpu.device.push", "measure", "ordering=0,1"),
                                ("host.mpi.gpu-barrier", "verify", "host_wait=0,1"),
                                ("host.mpi.gpu-barrier", "measure", "host_wait=0,1")):
        rows = mpirun_rows("--methods", method, "--axis", axis,
                           shape=method.startswith("multigpu."),
                           extra_env={"GPUBARRIER_TEST_THROW": f"{phase}:{last}"}, timeout=300)
        first, rest = rows[0], rows[1:]
        if first["status"] != "failed" or \
                f"rank {last} failed: GPUBARRIER_TEST_THROW" not in first["note"]:
            fail(f"{method} ({phase}): the first point must fail naming rank {last}", rows)
        if not rest or any(r["status"] != "ok" for r in rest):
            fail(f"{method} ({phase}): the next point must measure ok", rows)
        print("PASS", method, phase, [(r["metric"], r["value"]) for r in rest])


#!/usr/bin/env python3
"""What the compiler made of kernels whose meaning depends on instruction order (no GPU needed).

Clock brackets (the clock()/SASS post): the compiler may move instructions across a clock64()
read: a parameter or memory load that lands inside the timed region adds its latency to the
figure. The checks read the SASS of the built binary and check, between the two clock reads of
each timed kernel, that the intended instructions are there and nothing that touches memory is.

Memory ordering (push_orders_sends): no test on H100/H200 has shown the reordering a missing
fence allows, so the check is on the code: the PTX and the SASS of multigpu.device.push.

Run by pytest on the executable under test (`pytest tests/gpu/test_sass.py [--gpubarrier PATH]`;
ctest: sass.checks). Skipped when no cuobjdump with its nvdisasm is found: /usr/local/cuda/bin,
PATH, $CUOBJDUMP, or the PyPI packages nvidia-cuda-cuobjdump + nvidia-cuda-nvdisasm (in this
interpreter's site-packages or in those of the `python3` on PATH, which scripts/setup installs
them for).
"""
import csv
import fcntl
import glob
import json
import os
import re
import shutil
import site
import subprocess
import sys
from collections import Counter

import pytest

# Loads, stores, atomics, fences, cache control, calls and other special-register reads: any of
# them inside a clock bracket is timed along with the operation.
FORBIDDEN = re.compile(r"^(LD|ULD|ST|ATOM|RED|MEMBAR|FENCE|CCTL|ERRBAR|CALL|S2R|S2UR|NANOSLEEP)")
CLOCK_READ = re.compile(r"\bSR_CLOCKLO\b")
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")


def site_folders():
    """This interpreter's site-packages, then those of the `python3` on PATH where that is
    another interpreter (pytest may run under one that is not the tools')."""
    folders = site.getsitepackages() + [site.getusersitepackages()]
    python3 = shutil.which("python3")
    if python3 and os.path.realpath(python3) != os.path.realpath(sys.executable):
        p = subprocess.run([python3, "-c", "import site; print('\\n'.join(site.getsitepackages()"
                            " + [site.getusersitepackages()]))"], capture_output=True, text=True,
                           timeout=60)
        folders += p.stdout.split("\n") if p.returncode == 0 else []
    return [f for f in folders if f]


def find_cuobjdump():
    candidates = [os.environ.get("CUOBJDUMP"), "/usr/local/cuda/bin/cuobjdump",
                  shutil.which("cuobjdump")]
    for sp in site_folders():
        candidates += glob.glob(os.path.join(sp, "nvidia", "cu*", "bin", "cuobjdump"))
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    return None


def with_nvdisasm(cuobjdump):
    """The environment for cuobjdump: it runs the nvdisasm that lies beside it."""
    return dict(os.environ, PATH=os.path.dirname(cuobjdump) + os.pathsep +
                os.environ.get("PATH", ""))


def disassembly(cuobjdump, binary):
    """`cuobjdump -sass BINARY`, once per build of the binary: the text is kept beside it
    (BINARY.sass, with the binary's size and mtime in its first line) for later runs, since
    disassembling the whole executable takes about a minute on 2 cores."""
    st = os.stat(binary)
    stamp = f"# sass of {os.path.basename(binary)} size={st.st_size} mtime_ns={st.st_mtime_ns}\n"
    cache = binary + ".sass"
    # Runs that start together (the plain and the sanitized build's, or two pytest runs) take
    # turns: the first disassembles, the others wait for its cache instead of disassembling the
    # same binary beside it.
    try:
        lock = open(cache + ".lock", "a")
        fcntl.flock(lock, fcntl.LOCK_EX)
    except OSError:
        lock = None  # an unwritable build folder: each run disassembles on its own
    try:
        return _disassemble(cuobjdump, binary, cache, stamp)
    finally:
        if lock:
            lock.close()


def _disassemble(cuobjdump, binary, cache, stamp):
    try:
        with open(cache) as f:
            if f.readline() == stamp:
                return f.read()
    except OSError:
        pass
    p = subprocess.run([cuobjdump, "-sass", binary], capture_output=True, text=True,
                       env=with_nvdisasm(cuobjdump))
    if p.returncode != 0:
        if "nvdisasm" in p.stderr:
            pytest.skip(f"{cuobjdump} found no nvdisasm: {p.stderr.strip()}")
        pytest.fail(f"cuobjdump -sass {binary}: {p.stderr}")
    try:  # written whole, then renamed: a run beside this one reads all or nothing
        tmp = f"{cache}.{os.getpid()}"
        with open(tmp, "w") as f:
            f.write(stamp + p.stdout)
        os.replace(tmp, cache)
    except OSError:
        pass  # an unwritable build folder: no cache, the next run disassembles again
    return p.stdout


def sass_functions(cuobjdump, binary):
    functions = {}
    name = None
    for line in disassembly(cuobjdump, binary).splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1)
            functions[name] = []
            continue
        m = INSTRUCTION.search(line)
        if name and m:
            functions[name].append((m.group(2), line.strip()))
    return functions


def bracket(name, body):
    """The instructions strictly between the two clock reads of a timed kernel."""
    reads = [i for i, (_, text) in enumerate(body) if CLOCK_READ.search(text)]
    if len(reads) != 2:
        pytest.fail(f"{name}: expected 2 clock reads, found {len(reads)}")
    return body[reads[0] + 1:reads[1]]


def check_clean(name, inside):
    bad = [text for op, text in inside if FORBIDDEN.match(op)]
    if bad:
        pytest.fail(f"{name}: memory or special-register access inside the clock bracket "
                 f"(the clock()/SASS post):\n  " + "\n  ".join(bad))


def ptx_functions(cuobjdump, binary):
    """The PTX embedded in the binary, by .entry name."""
    p = subprocess.run([cuobjdump, "-ptx", binary], capture_output=True, text=True)
    if p.returncode != 0:
        pytest.fail(f"cuobjdump -ptx {binary}: {p.stderr}")
    functions, name = {}, None
    for line in p.stdout.splitlines():
        m = re.search(r"\.entry (\S+?)\(", line)
        if m:
            name = m.group(1)
            functions[name] = []
        elif name:
            functions[name].append(line.strip())
    return functions


def kernels(functions, pattern):
    picked = {n: b for n, b in functions.items() if re.search(pattern, n)}
    if not picked:
        pytest.fail(f"no kernel matching {pattern} in the binary's SASS or PTX")
    return picked


# A device barrier's kernels that order memory: the persistent kernel of each ordering
# (barrier_kernel<Algo, OrderedArgs<O>>) but the unordered fault's (O = 3, whose fences are left
# out on purpose), and the one-crossing kernel (barrier_step_kernel, ordering read at run time).
def ordered_kernels(functions, algo):
    return {n: b for n, b in kernels(functions, rf"barrier(_step)?_kernelINS0_{algo}E").items()
            if "OrderingE3E" not in n}


def test_block_barriers(functions):
    # gpu.block.syncthreads and gpu.block.cg share one timed kernel (kernels/block/detail): the
    # timed loop must hold unrolled barriers plus loop control, nothing else.
    loop_control = re.compile(r"^(U?IADD3|U?ISETP|U?LOP3|BRA|U?MOV|IMAD|VIADD|NOP|BSSY|BSYNC)")
    for name, body in kernels(functions, r"block_barrier_timed").items():
        inside = bracket(name, body)
        check_clean(name, inside)
        ops = Counter(op for op, _ in inside)
        barriers = sum(n for op, n in ops.items() if op.startswith("BAR.SYNC"))
        if barriers < 32:
            pytest.fail(f"{name}: {barriers} BAR.SYNC in the bracket, expected >= 32: {ops}")
        other = {op: n for op, n in ops.items()
                 if not op.startswith("BAR.SYNC") and not loop_control.match(op)}
        if other:
            pytest.fail(f"{name}: unexpected instructions in the bracket: {other}")
        print("PASS", name, dict(ops))


def test_selfcheck_add_chain(functions):
    # The unrolled chains (instruction-cache scan): exactly their adds, nothing else.
    chains = kernels(functions, r"add_chainILl\d+E")
    for name, body in sorted(chains.items()):
        adds = int(re.search(r"add_chainILl(\d+)E", name).group(1))
        inside = bracket(name, body)
        check_clean(name, inside)
        ops = Counter(op for op, _ in inside)
        if ops != Counter({"FADD": adds}):
            pytest.fail(f"{name}: the bracket must hold exactly {adds} FADD, has {dict(ops)}")
        print("PASS", name, adds, "FADD")
    if len(chains) < 2:
        pytest.fail(f"expected the base chain and its longer chains, found {list(chains)}")
    # The loop kernel (the technique check): one unrolled body of 512 FADD plus the loop's
    # counter, compare and back edge. More than a few of those would be timed per trip too, and
    # an unrolled or split loop would run different code at different trip counts.
    loop_control = re.compile(r"^(U?IADD3|U?ISETP|U?MOV|BRA|VIADD|UIMAD|IMAD|NOP)")
    for name, body in kernels(functions, r"add_loopE").items():
        inside = bracket(name, body)
        check_clean(name, inside)
        ops = Counter(op for op, _ in inside)
        other = {op: n for op, n in ops.items() if op != "FADD"}
        unexpected = {op: n for op, n in other.items() if not loop_control.match(op)}
        if ops["FADD"] != 512 or unexpected or sum(other.values()) > 6:
            pytest.fail(f"{name}: the bracket must hold 512 FADD and at most 6 loop-control "
                     f"instructions, has {dict(ops)}")
        if not any(op == "BRA" for op in other):
            pytest.fail(f"{name}: no back edge in the bracket: {dict(ops)}")
        print("PASS", name, dict(ops))


def test_push_orders_sends(functions, cuobjdump, binary):
    # Lane 0 acquires the other blocks' writes through the arrival count; lanes 1..31 then send
    # the epoch to peers with their own system-scope release store or fence. A shuffle carries
    # lane 0's "last" to them but orders no memory (PTX ISA, shfl.sync); bar.warp.sync does. In
    # PTX: count atom, then bar.warp.sync, then the first system-scope signal store.
    for name, body in ordered_kernels(ptx_functions(cuobjdump, binary), "4Push").items():
        count = next((i for i, t in enumerate(body) if re.match(r"atom\.add\.\w+\.gpu\.u64", t)),
                     None)
        first_send = next((i for i, t in enumerate(body)
                           if re.match(r"st\.(release|relaxed)\.sys\.b64", t)), None)
        if count is None or first_send is None or count > first_send:
            pytest.fail(f"{name} PTX: no arrival count before the signal stores")
        if not any(t.startswith("bar.warp.sync") for t in body[count:first_send]):
            pytest.fail(f"{name} PTX: no bar.warp.sync between lane 0's count and the sends:"
                     " the sending lanes are not ordered after lane 0's acquire")
        print("PASS", name, "PTX: atom.add, bar.warp.sync, then st.*.sys")
    # SASS: every system-scope signal store is preceded, on its path, by a system-scope MEMBAR
    # (release: MEMBAR.ALL.SYS; relaxed + fences: MEMBAR.SC.SYS) before any other memory
    # access, and a WARPSYNC lies between the count and the first send (the sm_90 SASS is the
    # same with and without the fix: shfl.sync already emits WARPSYNC.ALL, and bar.warp.sync
    # folds into it; the guarantee the fix adds is the PTX memory model's).
    for name, body in ordered_kernels(functions, "4Push").items():
        sends = [i for i, (op, _) in enumerate(body) if op.startswith("ST.E.64.STRONG.SYS")]
        counts = [i for i, (op, _) in enumerate(body) if op.startswith("ATOM.E.ADD.64")]
        if not sends or not counts:
            pytest.fail(f"{name}: no signal store or arrival count in the SASS")
        if not any(op.startswith("WARPSYNC") for op, _ in body[counts[0]:sends[0]]):
            pytest.fail(f"{name}: no WARPSYNC between the count and the first send")
        each_after_system_membar(name, body, sends, "send")
        # The release-acquire kernel is compiled with its ordering fixed (OrderedArgs): no code
        # of another ordering, such as ordering 1's seq_cst fence (MEMBAR.SC), is left in it.
        if "OrderingE0E" in name and any(op.startswith("MEMBAR.SC") for op, _ in body):
            pytest.fail(f"{name}: a MEMBAR.SC in the release-acquire kernel: its ordering is "
                     "not fixed at compile time")
        print("PASS", name, len(sends), "sends, each after a system-scope MEMBAR; WARPSYNC after "
              "the count")


def each_after_system_membar(name, body, sites, what):
    """Every instruction at `sites` is preceded, on its path, by a system-scope MEMBAR before
    any other memory access (the other arm of an if/else on the same predicate is skipped)."""
    memory = re.compile(r"^(LD|ST|ATOM|RED|MEMBAR)")
    for i in sites:
        pred = re.match(r"@(!?)(U?P\w+)", body[i][1].split("*/", 1)[1].strip())
        j = i - 1
        while j >= 0:
            text = body[j][1].split("*/", 1)[1].strip()
            other = re.match(r"@(!?)(U?P\w+)", text)
            if pred and other and other.group(2) == pred.group(2) and \
                    other.group(1) != pred.group(1):
                j -= 1
                continue
            if memory.match(body[j][0]) and not body[j][0].startswith("LDC"):
                break
            j -= 1
        if j < 0 or not re.match(r"MEMBAR\.(SC|ALL)\.SYS", body[j][0]):
            got = body[j][1] if j >= 0 else "nothing"
            pytest.fail(f"{name}: {what} {body[i][1]} follows {got}, not a system MEMBAR")


def test_early_count_releases(functions):
    # multigpu.device.early-count: each block's arrival on every GPU's counter is a system-scope
    # atomic add that follows a system-scope MEMBAR (the block's own release: a release pattern),
    # and no arrival waits for an answer before the block polls (the add's result is unused).
    for name, body in ordered_kernels(functions, "10EarlyCount").items():
        adds = [i for i, (op, text) in enumerate(body)
                if re.match(r"(ATOM|RED)\.E\.ADD\.64\.STRONG\.SYS", op)]
        if not adds:
            pytest.fail(f"{name}: no system-scope arrival add in the SASS")
        returning = [body[i][1] for i in adds
                     if body[i][0].startswith("ATOM") and not re.search(r"\bRZ,", body[i][1])]
        if returning:
            pytest.fail(f"{name}: an arrival add returns a value (waits for an answer): "
                     f"{returning}")
        each_after_system_membar(name, body, adds, "arrival")
        print("PASS", name, len(adds), "arrival adds, each after a system-scope MEMBAR")


def test_model_loads_timed(functions):
    # model.smem.stream and model.gmem.stream time loads: each timed kernel must hold its loads
    # inside the clock bracket. The first H100 rows of the shared-memory chase timed an empty
    # region: ptxas had deleted loads whose value nothing stored.
    # Named by namespace (gb::model) and kernel: the anonymous namespace's mangled name carries
    # the file that was compiled, which is a batch of kernels/model/ in a unity build.
    timed = kernels(functions, r"_ZN2gb5model\w*(smem_kernel|chase_kernel)")
    for name, body in sorted(timed.items()):
        reads = [i for i, (_, text) in enumerate(body) if CLOCK_READ.search(text)]
        if len(reads) < 2:
            pytest.fail(f"{name}: expected 2 clock reads, found {len(reads)}")
        inside = body[reads[0] + 1:reads[-1]]
        loads = [op for op, _ in inside if re.match(r"^(LDS|LDG|LD\.|LDL)", op)]
        if not loads:
            pytest.fail(f"{name}: no load between the clock reads: the timed region is empty")
        print("PASS", name, len(loads), "loads inside the clock bracket")


def test_warp_reduce_shuffles(functions):
    # gpu.warp.reduce's shuffle variants (the study's Table 5): each timed round must be the 5 steps
    # of the tree, a 64-bit SHFL.DOWN (two 32-bit halves) and a DADD per step, nothing else for
    # the tile; the coalesced group also computes each step's source lane (SHFL.IDX of its rank)
    # inside the bracket, which is what it costs over the tile.
    want = {"TileShuffle": {"SHFL.DOWN": 10, "DADD": 5},
            "CoalescedShuffle": {"SHFL.DOWN": 10, "DADD": 5}}
    for variant, core in want.items():
        for name, body in kernels(functions, rf"warp_reduce_kernelINS0_{len(variant)}{variant}E").items():
            reads = [i for i, (_, text) in enumerate(body) if CLOCK_READ.search(text)]
            if not reads or len(reads) % 2:
                pytest.fail(f"{name}: expected pairs of clock reads, found {len(reads)}")
            for start, end in zip(reads[::2], reads[1::2]):
                inside = body[start + 1:end]
                check_clean(name, inside)
                ops = Counter(op for op, _ in inside)
                got = {op: ops[op] for op in core}
                if got != core:
                    pytest.fail(f"{name}: the bracket must hold {core}, has {dict(ops)}")
                extra = {op: n for op, n in ops.items() if op not in core}
                if variant == "TileShuffle" and extra:
                    pytest.fail(f"{name}: the tile's bracket holds more than the tree: {extra}")
                print("PASS", variant, dict(ops))


def test_warp_wait_check_bracket(functions):
    # pitfall.warp.wait-check (kernels/warp/detail/wait_trials.cuh): a trial's clock reads are the
    # start, the spin's poll, "before" and "after". Between the last two lies exactly the
    # crossing: WARPSYNC for a sync; WARPSYNC, SHFL and the branch on its value for a shuffle;
    # nothing that waits for the control. The warp must not reconverge (BSYNC, WARPSYNC) between
    # the spin and "before", nor between the two reads but by the crossing itself, or the control
    # would wait at a reconvergence point and look like a sync (sm_90, CUDA 13: BSYNC follows
    # "after", except in the 32-thread tile shuffle, which has no convergence barrier at all).
    waits = re.compile(r"^(WARPSYNC|SHFL|BAR|BSYNC|BSSY|VOTE|MATCH|YIELD)")
    checked = Counter()
    for name, body in kernels(functions, r"wait_trials").items():
        # The crossing type (warp/detail/warp_actions.cuh): 0 none, 1 sync, 2 shuffle.
        crossing = {"NoCrossing": "0", "Sync": "1", "Shuffle": "2"}[
            re.search(r"\d(NoCrossing|Sync|Shuffle)E", name)[1]]
        reads = [i for i, (_, text) in enumerate(body) if CLOCK_READ.search(text)]
        if len(reads) != 4:
            pytest.fail(f"{name}: expected 4 clock reads (start, poll, before, after), "
                     f"found {len(reads)}")
        _, poll, before, after = reads
        inside = body[before + 1:after]
        check_clean(name, inside)
        ops = [op for op, _ in inside]
        spin = [text for op, text in body[poll + 1:before] if op.startswith(("BSYNC", "WARPSYNC"))]
        if spin:
            pytest.fail(f"{name}: the warp reconverges between the spin and 'before':\n  "
                     + "\n  ".join(spin))
        shuffle = [i for i, op in enumerate(ops) if op.startswith("SHFL")]
        syncs = sum(op.startswith("WARPSYNC") for op in ops)
        if any(op.startswith(("BSYNC", "BSSY", "BAR")) for op in ops):
            ok = False
        elif crossing == "0":
            ok = not any(waits.match(op) for op in ops)
        elif crossing == "1":
            ok = syncs == 1 and not shuffle
        else:
            ok = syncs == 1 and len(shuffle) == 1 and any(op == "BRA" for op in ops[shuffle[0]:])
        if not ok:
            pytest.fail(f"{name}: crossing {crossing} between the clock reads is {ops}")
        checked[crossing] += 1
        print("PASS", name, ops)
    # control + __syncwarp + coalesced sync + coalesced shuffle: 1 each; tiles of 2..32: 5 each.
    if checked != Counter({"0": 1, "1": 7, "2": 6}):
        pytest.fail(f"expected 1 control, 7 sync and 6 shuffle kernels, found {dict(checked)}")


SHARED_OPS = re.compile(r"^(LDS|STS|ATOMS|LDSM|STSM|REDS)")


def test_warp_timed_no_shared(functions, cuobjdump, binary):
    # scripts/gpu-sanitize leaves the warp methods' timed kernels out of racecheck (their
    # full-grid throughput pilot does not finish under it) on the ground that racecheck, which
    # sees shared memory only, has nothing to see in them: no static shared memory (they are
    # launched with no dynamic shared memory) and no shared-memory instruction. Their check
    # kernels keep their stamps in shared memory and stay checked.
    timed = kernels(functions, r"warp_timed")
    for name, body in sorted(timed.items()):
        shared = [text for op, text in body if SHARED_OPS.match(op)]
        if shared:
            pytest.fail(f"{name}: shared-memory instructions, so racecheck must check it "
                     "(scripts/gpu-sanitize, RACECHECK_EXCLUDE):\n  " + "\n  ".join(shared))
    p = subprocess.run([cuobjdump, "-res-usage", binary], capture_output=True, text=True,
                       env=with_nvdisasm(cuobjdump))
    if p.returncode != 0:
        pytest.fail(f"cuobjdump -res-usage {binary}: {p.stderr}")
    usage = dict(re.findall(r"Function (\S+):\s*\n\s*REG:\d+ STACK:\d+ SHARED:(\d+)", p.stdout))
    for name in timed:
        if usage.get(name) != "0":
            pytest.fail(f"{name}: static shared memory {usage.get(name, 'not listed')} bytes "
                     "(cuobjdump -res-usage), expected 0")
    checks = kernels(functions, r"warp_check")
    if not all(usage.get(n, "0") != "0" for n in checks):
        pytest.fail("a warp_check kernel without shared memory: the stamps moved, and "
                 "racecheck's coverage of the warp methods with them")
    print("PASS", len(timed), "warp_timed kernels without shared memory;", len(checks),
          "warp_check kernels with it")


# Every clock-technique method's timed kernels (each method states the instruction they must time,
# MethodInfo::timed), by (method, "axis=value" or ""): a pattern on their mangled names.
TIMED_KERNELS = {
    ("gpu.block.cg-sync", ""): r"block_barrier_timedINS_5block6CgSyncE",
    ("gpu.block.syncthreads", ""): r"block_barrier_timedINS_5block11SyncthreadsE",
    ("gpu.cluster.arrive-wait", ""): r"cluster_barrier_timedINS_7cluster10ArriveWaitE",
    ("gpu.cluster.sync", ""): r"cluster_barrier_timedINS_7cluster11ClusterSyncE",
    ("gpu.warp.coalesced-shuffle", ""): r"warp_timedINS0_9CoalescedENS0_7ShuffleE",
    ("gpu.warp.coalesced-sync", ""): r"warp_timedINS0_9CoalescedENS0_4SyncE",
    ("gpu.warp.coalesced-sync-diverged", ""): r"warp_timedINS0_5SplitINS0_9CoalescedEEENS0_4SyncE",
    ("gpu.warp.reduce", "variant=0"): r"warp_reduce_kernelINS0_6SerialE",
    ("gpu.warp.reduce", "variant=1"): r"warp_reduce_kernelINS0_6NoSyncE",
    ("gpu.warp.reduce", "variant=2"): r"warp_reduce_kernelINS0_8TileSyncE",
    ("gpu.warp.reduce", "variant=3"): r"warp_reduce_kernelINS0_13CoalescedSyncE",
    ("gpu.warp.reduce", "variant=4"): r"warp_reduce_kernelINS0_11TileShuffleE",
    ("gpu.warp.reduce", "variant=5"): r"warp_reduce_kernelINS0_16CoalescedShuffleE",
    # the same kernels as the methods of each variant
    ("gpu.warp.repeat-count", "variant=1"): r"warp_timedINS0_5SplitINS0_6MaskedEEENS0_4SyncE",
    ("gpu.warp.repeat-count", "variant=2"): r"warp_timedINS0_5SplitINS0_5TilesEEENS0_4SyncE",
    ("gpu.warp.repeat-count", "variant=3"):
        r"warp_timedINS0_5SplitINS0_9CoalescedEEENS0_4SyncE",
    ("gpu.warp.repeat-count", "variant=4"): r"warp_timedINS0_5TilesENS0_7ShuffleE",
    ("gpu.warp.repeat-count", "variant=5"): r"warp_timedINS0_9CoalescedENS0_7ShuffleE",
    # the whole chain unrolled, one kernel per length
    ("gpu.warp.repeat-count-unrolled", "variant=1"):
        r"warp_unrolledINS0_5SplitINS0_6MaskedEEENS0_4SyncE",
    ("gpu.warp.repeat-count-unrolled", "variant=4"): r"warp_unrolledINS0_5TilesENS0_7ShuffleE",
    ("gpu.warp.syncwarp", ""): r"warp_timedINS0_6MaskedENS0_4SyncE",
    ("gpu.warp.syncwarp-diverged", ""): r"warp_timedINS0_5SplitINS0_6MaskedEEENS0_4SyncE",
    ("gpu.warp.tile-shuffle", ""): r"warp_timedINS0_5TilesENS0_7ShuffleE",
    ("gpu.warp.tile-sync", ""): r"warp_timedINS0_5TilesENS0_4SyncE",
    ("gpu.warp.tile-sync-diverged", ""): r"warp_timedINS0_5SplitINS0_5TilesEEENS0_4SyncE",
    ("model.gmem.stream", ""): r"_ZN2gb5model\w*chase_kernel",
    ("model.smem.stream", ""): r"_ZN2gb5model\w*smem_kernel",
    ("reduction.block", ""): r"_ZN2gb9reduction\w*block_kernel",
}

def timed_region_table(binary):
    """What the methods state they time (`gpubarrier --json schema`, "timed"): {(method,
    "axis=value" or ""): (instruction, where)}."""
    p = subprocess.run([os.path.abspath(binary), "--json", "schema"], capture_output=True,
                       text=True)
    if p.returncode != 0:
        pytest.fail(f"{binary} --json schema: {p.stderr}")
    rows = {(method, f"{t['axis']}={t['value']}" if t["axis"] else ""): (t["instruction"],
                                                                         t["sm90"])
            for method, timed in json.loads(p.stdout).get("timed", {}).items() for t in timed}
    if not rows:
        pytest.fail(f"{binary} --json schema states no timed instruction")
    return rows


def clock_methods(binary):
    """Every clock-technique method: those `list --json` describes so, and those of the
    committed CSVs' rows of technique clock that the executable lists. `gpubarrier selfcheck`'s
    rows (selfcheck.fadd.*) are clock rows of no listed method: they do not go through the
    runner that writes the note, and test_selfcheck_add_chain checks their timed code."""
    p = subprocess.run([os.path.abspath(binary), "list", "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        pytest.fail(f"{binary} list --json: {p.stderr}")
    listed = {m["name"] for m in json.loads(p.stdout)}
    described = {m["name"] for m in json.loads(p.stdout) if "clock technique" in m["description"]}
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    files = subprocess.run(["git", "-C", root, "ls-files", "results/*.csv"], capture_output=True,
                           text=True).stdout.split()
    measured = set()
    for f in files:
        with open(os.path.join(root, f), newline="", encoding="utf-8", errors="replace") as fh:
            for row in csv.DictReader(fh):
                if row.get("technique") == "clock" and row.get("method"):
                    measured.add(row["method"])
    return listed, described | (measured & listed)


def branch_targets(body, region):
    """The out-of-line blocks that the divergence branches (BRA.DIV) of `region` jump to: from
    each target to the first unconditional BRA or EXIT."""
    address = {}
    for i, (_, text) in enumerate(body):
        m = re.search(r"/\*([0-9a-f]{4,})\*/", text)
        if m:
            address[int(m.group(1), 16)] = i
    blocks = []
    for op, text in region:
        if op != "BRA.DIV":
            continue
        target = int(re.search(r"0x([0-9a-f]+)\s*;", text).group(1), 16)
        j, block = address[target], []
        while j < len(body):
            op_j, text_j = body[j]
            block.append((op_j, text_j))
            if op_j == "EXIT" or (op_j == "BRA" and not re.search(r"\*/\s+@", text_j)):
                break
            j += 1
        blocks.append(block)
    return blocks


def test_timed_instructions(functions, binary):
    # The clock()/SASS post's check for every clock-technique method: the instruction its figure
    # claims to time is in the code between its clock reads (each pair of reads), where
    # the method states (MethodInfo::timed); a row without it says so ("not timed: ...").
    # `timed`: on the straight path; `absent`: not on it (a converged chain's syncs are NOPs on
    # sm_90, and the group falls through their divergence branches); `diverged`: behind every
    # operation's divergence branch (BRA.DIV), which the method's group takes at run time since
    # its members reach each operation from two branches (warp_groups.cuh, SplitGroup).
    table = timed_region_table(binary)
    listed, clock = clock_methods(binary)
    untabled = sorted(clock - {method for method, _ in table})
    if untabled:
        pytest.fail(f"clock-technique methods that state no timed instruction: {untabled}")
    unknown = sorted({method for method, _ in table} - listed)
    if unknown:
        pytest.fail(f"timed instructions of methods `list` lacks: {unknown}")
    if set(table) != set(TIMED_KERNELS):
        pytest.fail(f"rows without kernels here: {sorted(set(table) - set(TIMED_KERNELS))}; "
                 f"kernels without rows: {sorted(set(TIMED_KERNELS) - set(table))}")
    for key, (instruction, where) in sorted(table.items()):
        has = lambda ops: any(op.startswith(instruction) for op, _ in ops)
        for name, body in sorted(kernels(functions, TIMED_KERNELS[key]).items()):
            reads = [i for i, (_, text) in enumerate(body) if CLOCK_READ.search(text)]
            if not reads or len(reads) % 2:
                pytest.fail(f"{name}: expected pairs of clock reads, found {len(reads)}")
            for start, end in zip(reads[::2], reads[1::2]):
                region = body[start + 1:end]
                targets = branch_targets(body, region)
                # A converged group falls through its divergence branches: what they jump to
                # is timed only where the group arrives split (`diverged`).
                behind = bool(targets) and all(has(block) for block in targets)
                got = ("timed" if has(region) else
                       "diverged" if where == "diverged" and behind else "absent")
                if got != where:
                    pytest.fail(f"{key[0]} {key[1]} ({name}): the method states "
                             f"{instruction} is {where}, the SASS has it {got}: "
                             f"{dict(Counter(op for op, _ in region))}")
                if where == "diverged" and len(targets) < 32:
                    pytest.fail(f"{name}: {len(targets)} divergence branches between the "
                             "clock reads, expected one per sync of the unrolled chain (>= 32)")
            print("PASS", key[0], key[1], name[:60], instruction, where)



@pytest.fixture(scope="module")
def binary(gpubarrier):
    """The file whose device code is checked: the executable under test."""
    return gpubarrier


@pytest.fixture(scope="module")
def cuobjdump():
    tool = find_cuobjdump()
    if not tool:
        pytest.skip("no cuobjdump (install the CUDA toolkit or nvidia-cuda-cuobjdump)")
    return tool


@pytest.fixture(scope="module")
def functions(cuobjdump, binary):
    """The binary's SASS by function name: [(opcode, line)]."""
    return sass_functions(cuobjdump, binary)

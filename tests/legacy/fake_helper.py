#!/usr/bin/env python3
"""A stand-in for gpubarrier-legacy (src/methods/legacy/protocol.hpp) that needs no GPU: it
answers with canned lines from a linear model, or misbehaves as FAKE_LEGACY_MODE says, so that the
unit tests exercise gpubarrier's side of the process boundary (deadlines, failures, parsing, figures).

Modes: ok (default), stale (the checks count problems), hang_check, hang_sync (never answer that
request), crash_sync (exit 1 with a message on stderr), signal_sync (die by SIGSEGV), error_sync
(answer `error ...`), malformed_sync, unsupported (first line), protocol2 (first line), extra_gpu.
FAKE_LEGACY_PIDFILE: where to write this process's pid. FAKE_LEGACY_ARGS: where to write argv.

The model: a sync costs 7.4 us, a launch + wait 12 us, the launch overhead under fusion 20 us."""
import os
import signal
import sys
import time

mode = os.environ.get("FAKE_LEGACY_MODE", "ok")
if os.environ.get("FAKE_LEGACY_PIDFILE"):
    with open(os.environ["FAKE_LEGACY_PIDFILE"], "w") as f:
        f.write(str(os.getpid()))
if os.environ.get("FAKE_LEGACY_ARGS"):
    with open(os.environ["FAKE_LEGACY_ARGS"], "w") as f:
        f.write(" ".join(sys.argv[1:]))

args = sys.argv[1:]
gpus = args[args.index("--gpus") + 1].split(",")
unit_s = int(args[args.index("--unit-ns") + 1]) * 1e-9


def say(line):
    print(line, flush=True)


if mode == "unsupported":
    say("unsupported GPU 1 cannot access GPU 0's memory")
    sys.exit(3)
count = len(gpus) + (1 if mode == "extra_gpu" else 0)
say(f"ready protocol={2 if mode == 'protocol2' else 1} cudart=11080 driver=13000 "
    f"gpus={count} blocks={132 * int(args[args.index('--blocks-per-sm') + 1])}")

stale = 3 if mode == "stale" else 0
for line in sys.stdin:
    word, *n = line.split()
    n = [int(x) for x in n]
    if word == "quit":
        break
    if mode == f"hang_{word}":
        time.sleep(3600)
    if word == "sync" and mode == "crash_sync":
        print("boom: cudaLaunchCooperativeKernelMultiDevice failed", file=sys.stderr, flush=True)
        sys.exit(1)
    if word == "sync" and mode == "signal_sync":
        os.kill(os.getpid(), signal.SIGSEGV)
    if word == "sync" and mode == "error_sync":
        say("error cudaLaunchCooperativeKernelMultiDevice failed: "
            "cudaErrorCooperativeLaunchTooLarge")
        sys.exit(1)
    if word == "sync" and mode == "malformed_sync":
        say(f"sync reps={n[0]} seconds=soon")
        continue
    if word == "check":
        say(f"check crossings={n[0]} stale={stale}")
    elif word == "sync":
        say(f"sync reps={n[0]} seconds={1e-3 + n[0] * 7.4e-6:.12f}")
    elif word == "launch":
        say("launch ns=" + ",".join("12000" for _ in range(n[1])))
    elif word == "launch-check":
        say(f"launch-check rounds={n[0]} stale={stale}")
    elif word == "fuse":
        launches, units = n
        say(f"fuse launches={launches} units={units} "
            f"seconds={launches * 20e-6 + launches * units * unit_s:.12f}")
    else:
        say(f"error unknown request '{line.strip()}'")
        sys.exit(1)

#!/usr/bin/env python3
"""A stand-in for gpubarrier_tools/peers/torch_symm_barrier.py --serve that needs neither torch nor a GPU: it
answers with canned JSON lines from a linear model (a barrier costs 4 us, a replay 20 us more),
or misbehaves as FAKE_TORCH_MODE says, so that the unit tests exercise gpubarrier's side of the
process boundary (deadlines, skips, failures, parsing) for multigpu.torch.symm-barrier.

Modes: ok (default), stale (the check counts problems), skip (first line), error_time (answers
`time` with an error line), garbage_time (a line that is not JSON), long_line (a line of 2 MiB
without a newline), hang_time (never answers `time`), crash_check (exits 1 with a message on
stderr), wrong_gpus (ready names another GPU count)."""
import json
import os
import sys
import time

mode = os.environ.get("FAKE_TORCH_MODE", "ok")
args = sys.argv[1:]
gpus = args[args.index("--gpus") + 1].split(",")


def say(event, **fields):
    print(json.dumps({"event": event, **fields}), flush=True)


if mode == "skip":
    say("skip", reason="PyTorch is not importable by the fake (No module named 'torch')")
    sys.exit(77)
say("ready", torch="2.11.0", gpus=len(gpus) + (1 if mode == "wrong_gpus" else 0), channel=0,
    backend="CUDA", reps_lo=int(args[args.index("--reps-lo") + 1]),
    reps_hi=int(args[args.index("--reps-hi") + 1]), multicast=False)
for line in sys.stdin:
    words = line.split()
    if words[0] == "check":
        if mode == "crash_check":
            print("RuntimeError: CUDA error: an illegal memory access", file=sys.stderr, flush=True)
            sys.exit(1)
        say("check", crossings=int(words[1]), stale=3 if mode == "stale" else 0)
    elif words[0] == "time":
        reps = int(words[1])
        if mode == "hang_time":
            time.sleep(3600)
        elif mode == "error_time":
            say("error", what="GPU 1: RuntimeError: CUDA driver error: invalid argument")
            sys.exit(1)
        elif mode == "garbage_time":
            print("NCCL INFO this is not JSON", flush=True)
        elif mode == "long_line":
            sys.stdout.write("x" * (2 << 20))
            sys.stdout.flush()
            time.sleep(3600)
        else:
            say("time", reps=reps, seconds=(20 + 4 * reps) * 1e-6)

#!/usr/bin/env python3
"""PyTorch's symmetric-memory barrier measured the gpubarrier way (multigpu.torch.symm-barrier).

torch.distributed._symmetric_memory gives every GPU of a process group a buffer the others can
reach and a handle whose barrier(channel=...) is one small kernel (one block; each rank signals
every peer's signal pad and waits for every peer's signal). One process per GPU (spawned here),
torch.distributed over a local file store with the NCCL backend, a symmetric tensor from
symm_mem.empty + symm_mem.rendezvous; R_lo and R_hi barrier calls are each captured into a CUDA
graph once, so that a replay times the barriers and not Python's launches. Every sample replays
both, after one untimed barrier that lines the GPUs up, timed with CUDA events; a replay's time is
the slowest GPU's. T = (L_hi - L_lo) / (R_hi - R_lo) per sample.

NVLink multicast stays off: the script sets TORCH_SYMM_MEM_DISABLE_MULTICAST=1, NCCL_NVLS_ENABLE=0
and NVSHMEM_DISABLE_NVLS=1 before torch is imported, and refuses a handle with a multicast
address.

Standard library and torch only. Every line on stdout is one JSON object; whatever else torch,
NCCL, CUDA or Python print goes to stderr.

  torch_symm_barrier.py --gpus 0,1 [--channel 0] [--reps-lo 512] [--reps-hi 5632]
                        [--samples 20] [--check 64]
      prints ready, the check, one `sample` per sample, then done
  torch_symm_barrier.py --gpus 0,1 --serve ...
      prints ready, then answers requests on stdin, one line each (gpubarrier's way):
        check <n>     n barriers, one GPU late at each in turn, each GPU's stamp read by every GPU
                      after the barrier: {"event": "check", "crossings": n, "stale": s}
        time <reps>   one timed replay of the graph of R_lo or R_hi barriers:
                      {"event": "time", "reps": r, "seconds": s}
        quit          (or end of input) exits 0
  torch_symm_barrier.py --probe
      {"event": "ok", ...} when torch, CUDA and symmetric memory are there, else the skip line

Lines:
  {"event": "skip", "reason": "..."}   cannot run here (no torch, no GPU, ...); exit 77
  {"event": "ready", "torch": "2.11.0", "gpus": 2, "channel": 0, "backend": "CUDA",
   "reps_lo": 512, "reps_hi": 5632, "multicast": false}
  {"event": "sample", "lo_ns": ..., "hi_ns": ..., "t_ns": ...}
  {"event": "done", "samples": n}
  {"event": "error", "what": "..."}    a failure; exit 1
"""
import argparse
import json
import os
import queue
import sys
import tempfile
import traceback

SKIP = 77  # exit status: cannot run here (the skip line says why)
NO_MULTICAST = {"TORCH_SYMM_MEM_DISABLE_MULTICAST": "1", "NCCL_NVLS_ENABLE": "0",
                "NVSHMEM_DISABLE_NVLS": "1"}
LATE_CYCLES = 50_000  # torch.cuda._sleep of the check's late GPU: ~25 us, far above a barrier
POLL_S = 1.0          # how often the parent looks whether a worker died


class Skip(Exception):
    """This machine cannot run the measurement; the message says why."""


def emit(out, event, **fields):
    out.write(json.dumps({"event": event, **fields}) + "\n")
    out.flush()


def torch_version(torch):
    parts = torch.__version__.split("+")[0].split(".")
    return tuple(int(p) for p in parts[:2] if p.isdigit())


def probe(gpus):
    """torch, torch.distributed with NCCL, symmetric memory and `gpus` CUDA devices, or Skip."""
    try:
        import torch
    except ImportError as e:
        raise Skip(f"PyTorch is not importable by {sys.executable} ({e}); this method needs "
                   "torch >= 2.6 with CUDA (set GPUBARRIER_TORCH_PYTHON to a Python that has it)")
    if not torch.cuda.is_available():
        raise Skip(f"torch {torch.__version__} sees no CUDA device (torch.cuda.is_available() is "
                   "False)")
    if not torch.distributed.is_available() or not torch.distributed.is_nccl_available():
        raise Skip(f"torch {torch.__version__} was built without torch.distributed or NCCL")
    try:
        import torch.distributed._symmetric_memory as symm_mem
    except ImportError as e:
        raise Skip(f"torch {torch.__version__} has no torch.distributed._symmetric_memory ({e})")
    if not hasattr(symm_mem, "empty") or not hasattr(symm_mem, "rendezvous"):
        raise Skip(f"torch {torch.__version__} lacks symm_mem.empty/rendezvous (torch >= 2.6)")
    count = torch.cuda.device_count()
    if any(g < 0 or g >= count for g in gpus):
        raise Skip(f"GPUs {gpus} asked for, torch sees {count}")
    return torch


def worker(rank, args, store_path, commands, results):
    """One GPU's process: rendezvous, graphs, then the parent's commands until None."""
    try:
        import ctypes
        import signal
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the parent
    except (OSError, AttributeError):
        pass
    try:
        import torch
        import torch.distributed as dist
        import torch.distributed._symmetric_memory as symm_mem
        device = torch.device("cuda", args.gpus[rank])
        torch.cuda.set_device(device)
        world = len(args.gpus)
        dist.init_process_group("nccl", init_method="file://" + store_path, rank=rank,
                                world_size=world, device_id=device)
        group = dist.group.WORLD.group_name
        if torch_version(torch) < (2, 11) and hasattr(symm_mem, "enable_symm_mem_for_group"):
            symm_mem.enable_symm_mem_for_group(group)  # needed before 2.11, deprecated since
        stamp = symm_mem.empty(1, dtype=torch.int64, device=device)
        stamp.zero_()
        handle = symm_mem.rendezvous(stamp, group)
        multicast = bool(getattr(handle, "multicast_ptr", 0))
        if multicast:
            raise RuntimeError("PyTorch mapped a multicast address although "
                               "TORCH_SYMM_MEM_DISABLE_MULTICAST=1")
        get_backend = getattr(symm_mem, "get_backend", None)
        backend = get_backend(device) if get_backend else "CUDA"
        peers = [handle.get_buffer(p, (1,), torch.int64) for p in range(world)]

        def barrier():
            handle.barrier(channel=args.channel)

        for _ in range(3):  # module load, first signals
            barrier()
        torch.cuda.synchronize()
        graphs = {}
        for reps in (args.reps_lo, args.reps_hi):
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                for _ in range(reps):
                    barrier()
            graphs[reps] = g
        for g in graphs.values():  # the first replay uploads the graph
            barrier()
            g.replay()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        results.put((rank, "ready", {"torch": torch.__version__, "backend": str(backend),
                                     "multicast": multicast}))
        while True:
            command = commands.get()
            if command is None:
                break
            kind, n = command
            if kind == "check":
                stale = torch.zeros(1, dtype=torch.int64, device=device)
                base = int(stamp.item())
                for i in range(base + 1, base + n + 1):
                    if rank == i % world:  # the late GPU, in turn
                        torch.cuda._sleep(LATE_CYCLES)
                    stamp.fill_(i)
                    barrier()
                    for p in peers:
                        stale += (p < i).to(torch.int64)
                barrier()  # nobody writes the next stamp while a peer still reads this one
                results.put((rank, "check", int(stale.item())))
            else:
                barrier()  # lines the GPUs up: the timed span starts as this barrier ends
                start.record()
                graphs[n].replay()
                end.record()
                end.synchronize()
                results.put((rank, "time", start.elapsed_time(end) * 1e-3))
    except BaseException as e:  # the parent says it on one line and exits 1
        last = traceback.extract_tb(e.__traceback__)[-1:] or [None]
        where = f" at {os.path.basename(last[0].filename)}:{last[0].lineno}" if last[0] else ""
        text = " ".join(str(e).split())[:2000]
        results.put((rank, "error", f"GPU {args.gpus[rank]}: {type(e).__name__}: {text}{where}"))
    finally:
        try:
            import torch.distributed as dist
            if dist.is_initialized():
                dist.destroy_process_group()
        except BaseException:
            pass


class Team:
    """The workers, one per GPU, and the parent's side of their queues."""

    def __init__(self, args, store_path):
        import multiprocessing
        ctx = multiprocessing.get_context("spawn")
        self.results = ctx.Queue()
        self.commands = [ctx.Queue() for _ in args.gpus]
        self.procs = [ctx.Process(target=worker, args=(r, args, store_path, self.commands[r],
                                                       self.results), daemon=True)
                      for r in range(len(args.gpus))]
        for p in self.procs:
            p.start()

    def gather(self, kind):
        """Every worker's answer of `kind`; RuntimeError when one fails or dies."""
        got = {}
        while len(got) < len(self.procs):
            try:
                rank, what, value = self.results.get(timeout=POLL_S)
            except queue.Empty:
                for r, p in enumerate(self.procs):
                    if r not in got and not p.is_alive():
                        raise RuntimeError(f"the process of GPU rank {r} ended with exit code "
                                           f"{p.exitcode} before answering '{kind}'")
                continue
            if what == "error":
                raise RuntimeError(value)
            if what != kind:
                raise RuntimeError(f"rank {rank} answered '{what}' to '{kind}'")
            got[rank] = value
        return [got[r] for r in range(len(self.procs))]

    def ask(self, kind, n):
        for q in self.commands:
            q.put((kind, n))
        return self.gather(kind)

    def close(self):
        for q in self.commands:
            q.put(None)
        for p in self.procs:
            p.join(timeout=10)
            if p.is_alive():
                p.kill()


def run(args, out):
    with tempfile.TemporaryDirectory(prefix="gb-torch-symm-") as d:
        team = Team(args, os.path.join(d, "store"))
        try:
            info = team.gather("ready")[0]
            emit(out, "ready", torch=info["torch"], gpus=len(args.gpus), channel=args.channel,
                 backend=info["backend"], reps_lo=args.reps_lo, reps_hi=args.reps_hi,
                 multicast=info["multicast"])

            def check(n):
                emit(out, "check", crossings=n, stale=sum(team.ask("check", n)))

            def time(reps):
                return max(team.ask("time", reps))

            if args.serve:
                serve(args, out, check, time)
            else:
                if args.check > 0:
                    check(args.check)
                diff = args.reps_hi - args.reps_lo
                for i in range(args.samples):
                    order = (args.reps_hi, args.reps_lo) if i % 2 == 0 else (args.reps_lo,
                                                                              args.reps_hi)
                    seconds = {reps: time(reps) for reps in order}
                    lo, hi = seconds[args.reps_lo] * 1e9, seconds[args.reps_hi] * 1e9
                    emit(out, "sample", lo_ns=lo, hi_ns=hi, t_ns=(hi - lo) / diff)
                emit(out, "done", samples=args.samples)
        finally:
            team.close()


def serve(args, out, check, time):
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words == ["quit"]:
            return
        if len(words) == 2 and words[0] in ("check", "time") and words[1].isdigit():
            n = int(words[1])
            if words[0] == "check":
                check(n)
                continue
            if n in (args.reps_lo, args.reps_hi):
                emit(out, "time", reps=n, seconds=time(n))
                continue
        raise RuntimeError(f"unknown request {line.strip()[:200]!r} (check <n>, time <reps> "
                           f"with reps {args.reps_lo} or {args.reps_hi}, quit)")


def gpu_list(text):
    try:
        gpus = [int(g) for g in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--gpus takes CUDA ordinals such as 0,1, not {text!r}")
    if len(gpus) < 2 or len(set(gpus)) != len(gpus) or min(gpus) < 0:
        raise argparse.ArgumentTypeError("--gpus needs two or more distinct CUDA ordinals")
    return gpus


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gpus", type=gpu_list, help="CUDA ordinals, e.g. 0,1")
    parser.add_argument("--channel", type=int, default=0)
    parser.add_argument("--reps-lo", type=int, default=512)
    parser.add_argument("--reps-hi", type=int, default=5632)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--check", type=int, default=64, help="checked barriers first (0: none)")
    parser.add_argument("--serve", action="store_true", help="answer requests on stdin")
    parser.add_argument("--probe", action="store_true", help="only say whether it can run")
    args = parser.parse_args(argv)
    if not args.probe and args.gpus is None:
        parser.error("--gpus is required (or --probe)")
    if not 0 < args.reps_lo < args.reps_hi or args.samples < 1 or args.channel < 0:
        parser.error("needs 0 < --reps-lo < --reps-hi, --samples >= 1 and --channel >= 0")
    os.environ.update(NO_MULTICAST)  # before torch is imported, here and in every worker
    # The protocol's stdout is a copy of fd 1; fd 1 itself becomes stderr, so that whatever else
    # prints (torch, NCCL, a kernel's printf, the workers) cannot break a line of it.
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        torch = probe(args.gpus or [])
        if args.probe:
            emit(out, "ok", torch=torch.__version__, gpus=torch.cuda.device_count())
            return 0
        run(args, out)
        return 0
    except Skip as e:
        emit(out, "skip", reason=str(e))
        return SKIP
    except Exception as e:
        emit(out, "error", what=" ".join(str(e).split())[:4000] or type(e).__name__)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""The reductions without a GPU: `gpubarrier list` shows the reduction and model methods, the
multi-GPU reductions included (with the reason they cannot run where no GPU is visible),
configs/sweeps/reduction.yaml passes `config check`, and it measures every input `gpubarrier model
--from` reads (gpubarrier_tools/cli/model.py) at the configurations the model selects.

Run by pytest: pytest tests/cli/test_reduction_sweep.py
"""
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gpubarrier_tools.cli import model
from cli_common import expect

SWEEP = os.path.join(ROOT, "configs", "sweeps", "reduction.yaml")
NEW = ["model.smem.stream", "model.gmem.stream", "gpu.warp.reduce", "reduction.block",
       "reduction.single.two-kernel", "reduction.single.grid-sync", "reduction.single.cub",
       "reduction.copy", "reduction.multi.device-barrier", "reduction.multi.omp",
       "reduction.multi.mpi", "reduction.multi.nccl"]


def test_listed_and_accepted(gpubarrier):
    p = subprocess.run([gpubarrier, "list"], capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, "gpubarrier list exits 0", p)
    for name in NEW:
        line = next((l for l in p.stdout.splitlines() if l.split()[:1] == [name]), None)
        expect(line is not None, f"{name} listed", p)
        # Usable, or why not: no GPU here; on a GPU machine e.g. "needs mpirun" for the mpi one.
        expect(" yes" in line or re.search(r" no: \S", line),
               f"{name}: usable, or says why not: {line}", p)

    p = subprocess.run([gpubarrier, "config", "check", SWEEP], capture_output=True, text=True,
                       timeout=60)
    expect(p.returncode == 0 and "ok:" in p.stdout, "config check accepts reduction.yaml", p)


def test_sweep_measures_model_inputs():
    # Each input of gpubarrier_tools/cli/model.py: (method, {axis: value the model selects}).
    needs = [(model.SMEM, {"threads_per_block": t}) for t in (1, 32, 1024)]
    needs += [(model.GMEM, {"grid": g}) for g in (0, 1)]
    needs += [("gpu.warp.tile-shuffle", {"group_size": 32}),
              ("gpu.block.syncthreads", {"threads_per_block": 1024}), ("gpu.grid.cg", {}),
              ("reduction.block", {"threads_per_block": 1}),
              ("reduction.block", {"threads_per_block": 1024}),
              ("reduction.single.grid-sync", {"grid": 0}),
              ("reduction.single.grid-sync", {"grid": 1}),
              ("multigpu.floor.signal", {})]
    needs += [(prefix + "push" if prefix.endswith(".") else prefix, {})
              for prefix, _, _ in model.MULTI_REDUCTIONS]
    # The measured 1 GPU vs N switch point: each multi-GPU reduction at gpu_count 1 and 2.
    needs += [(reduction, {"gpu_count": n}) for _, reduction, _ in model.MULTI_REDUCTIONS
              for n in (1, 2)]
    try:
        import yaml
    except ImportError:
        yaml = None
    text = open(SWEEP).read()
    if yaml is None:  # names only
        for method, _ in needs:
            expect(method in text, f"reduction.yaml runs {method}")
    else:
        runs = yaml.safe_load(text)["runs"]

        def values(spec):
            if isinstance(spec, list):
                return [int(v) for v in spec]
            if isinstance(spec, str) and ":" in spec:  # first:last[:step|*factor]
                parts = spec.split(":")
                first, last = int(parts[0]), int(parts[1])
                step = parts[2] if len(parts) > 2 else "1"
                out, v = [], first
                while v <= last:
                    out.append(v)
                    v = v * int(step[1:]) if step.startswith("*") else v + int(step)
                return out
            return [int(spec)]

        for method, axes in needs:
            found = False
            for run in runs:
                methods = run["methods"] if isinstance(run["methods"], list) else [run["methods"]]
                if method not in methods:
                    continue
                have = run.get("axes", {})
                if all(k not in have or v in values(have[k]) for k, v in axes.items()):
                    found = True
            expect(found, f"reduction.yaml runs {method} at {axes}")
        sizes = [values(r["axes"]["bytes"]) for r in runs if "reduction.single.grid-sync" in
                 (r["methods"] if isinstance(r["methods"], list) else [r["methods"]])][0]
        expect(max(sizes) >= 256 << 20 and min(sizes) <= 1024,
               f"grid-sync sizes 1 KiB..256 MiB: {sizes}")
        for _, reduction, _ in model.MULTI_REDUCTIONS:
            sizes = [values(r["axes"]["bytes"]) for r in runs if reduction in
                     (r["methods"] if isinstance(r["methods"], list) else [r["methods"]])]
            expect(sizes and max(sizes[0]) >= 256 << 20 and min(sizes[0]) <= 1024 and
                   all(s in sizes[0] for s in (4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20)),
                   f"{reduction} sizes 1 KiB..256 MiB, x2 over 4-64 MiB: {sizes}")

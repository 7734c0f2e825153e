#!/usr/bin/env python3
"""`gpubarrier list --json` without a GPU: the `cache` axis and the physical bounds.

Cases:
  cache   every reduction.* method timed by gpubarrier itself and model.gmem.stream has the axis
          `cache` with the default [0] (cold: L2 evicted before every sample); the other methods
          have no such axis. reduction.multi.multi-grid is timed inside the gpubarrier-legacy
          helper, which evicts nothing: it has no such axis yet.
  bounds  every method lists its bounds, {metric, min, max, why, min_exclusive} with null for an
          open side: every time-like metric > 0 on every method; model.smem.stream's
          latency_cycles at least 1 and bandwidth_cycles at most 128 (B/cycle per SM).

Run by pytest: pytest tests/cli/test_list_cache_bounds.py [--gpubarrier PATH]
"""
import json
import sys


sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from cli_common import executable, expect, run_gpubarrier

EXE = executable()
HELPER_TIMED = {"reduction.multi.multi-grid"}
TIMES = ["latency", "loop_latency", "latency_cycles", "launch_interval", "launch_overhead",
         "one_way_latency", "interval", "loop_interval"]


def listed():
    p = run_gpubarrier(EXE, "list", "--json", timeout=120)
    expect(p.returncode == 0, "gpubarrier list --json exits 0", p)
    methods = json.loads(p.stdout)
    expect(isinstance(methods, list) and methods, "a list of methods", p)
    return {m["name"]: m for m in methods}


def test_cache():
    methods = listed()
    cached = [n for n in methods if n.startswith("reduction.") and n not in HELPER_TIMED]
    cached.append("model.gmem.stream")
    expect(len(cached) >= 9, f"the reductions and model.gmem.stream are listed: {cached}")
    for name in cached:
        axes = methods[name]["axes"]
        expect(axes.get("cache") == [0], f"{name}: axis cache with default [0], got {axes}")
    for name, m in methods.items():
        if name not in cached:
            expect("cache" not in m["axes"], f"{name}: no cache axis")
    print("PASS cache axis on", len(cached), "methods")


def test_bounds():
    methods = listed()
    for name, m in methods.items():
        bounds = m.get("bounds")
        expect(isinstance(bounds, list), f"{name}: a bounds array")
        for b in bounds:
            expect(set(b) == {"metric", "min", "max", "why", "min_exclusive"},
                   f"{name}: bound keys {sorted(b)}")
            expect(b["min"] is not None or b["max"] is not None, f"{name}: {b} bounds a side")
            expect(isinstance(b["why"], str) and b["why"], f"{name}: {b} says why")
        for metric in TIMES:
            expect(any(b["metric"] == metric and b["min"] == 0 and b["min_exclusive"] and
                       b["max"] is None for b in bounds), f"{name}: {metric} > 0 in {bounds}")
    smem = methods["model.smem.stream"]["bounds"]
    lat = [b for b in smem if b["metric"] == "latency_cycles" and b["min"] == 1]
    expect(len(lat) == 1 and not lat[0]["min_exclusive"] and lat[0]["max"] is None and
           "cycle" in lat[0]["why"], f"model.smem.stream: latency_cycles >= 1: {smem}")
    bw = [b for b in smem if b["metric"] == "bandwidth_cycles"]
    expect(len(bw) == 1 and bw[0]["max"] == 128 and bw[0]["min"] is None and
           "128 B per cycle" in bw[0]["why"], f"model.smem.stream: bandwidth_cycles <= 128: {smem}")
    print("PASS bounds of", len(methods), "methods")

#!/usr/bin/env python3
"""The GPU tests' reading of a row's config (tests/gpu_rows.py, codes): a named value comes back
as its method's code, taken from the executable's `list --json`, so that a GPU test asking for
impl=1 or part=1 finds the rows that the CSV writes as impl=real or part=gather. CI has no GPU, so
this is where the helper itself is checked.

Usage: test_gpu_rows.py GPUBARRIER
"""
import os
import sys

from gpu_rows import codes


def expect(row, want):
    got = codes(row)
    if got != want:
        sys.exit(f"FAIL: {row['method']} {row['config']!r}: {got}, expected {want}")


expect({"method": "multigpu.device.push",
        "config": "gpu_count=2 ordering=release-acquire part=gather count_poll=relaxed-then-fence"},
       {"gpu_count": 2, "ordering": 0, "part": 1, "count_poll": 1})
# One name, each method's own code: release-acquire is floor.signal's 3.
expect({"method": "multigpu.floor.signal", "config": "ordering=release-acquire word=32"},
       {"ordering": 3, "word": 32})
expect({"method": "kernel.multi-device-launch", "config": "impl=real host_wait=spin"},
       {"impl": 1, "host_wait": 1})
expect({"method": "multigpu.device.slots", "config": "scan=relaxed-then-fence fault=unordered"},
       {"scan": 1, "fault": 3})
# Old CSVs' integers stay integers; what is no name of the method stays as written.
expect({"method": "multigpu.device.push", "config": "part=2 x=0.5 ordering=gather"},
       {"part": 2, "x": "0.5", "ordering": "gather"})
expect({"method": "host.omp.barrier", "config": ""}, {})
print("PASS")

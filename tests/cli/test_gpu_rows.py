#!/usr/bin/env python3
"""The GPU tests' reading of a row's config (tests/gpu_rows.py, codes): a named value comes back
as its method's code, taken from the executable's `list --json`, so that a GPU test asking for
impl=1 or part=1 finds the rows that the CSV writes as impl=real or part=gather. CI has no GPU, so
this is where the helper itself is checked.

Run by pytest: pytest tests/cli/test_gpu_rows.py
"""
import sys

import pytest

from gpu_rows import codes


@pytest.mark.parametrize("method, config, want", [
    ("multigpu.device.push",
     "gpu_count=2 ordering=release-acquire part=gather count_poll=relaxed-then-fence",
     {"gpu_count": 2, "ordering": 0, "part": 1, "count_poll": 1}),
    # One name, each method's own code: release-acquire is floor.signal's 3.
    ("multigpu.floor.signal", "ordering=release-acquire word=32", {"ordering": 3, "word": 32}),
    ("kernel.multi-device-launch", "impl=real host_wait=spin", {"impl": 1, "host_wait": 1}),
    ("multigpu.device.slots", "scan=relaxed-then-fence fault=unordered", {"scan": 1, "fault": 3}),
    # Old CSVs' integers stay integers; what is no name of the method stays as written.
    ("multigpu.device.push", "part=2 x=0.5 ordering=gather",
     {"part": 2, "x": "0.5", "ordering": "gather"}),
    ("host.omp.barrier", "", {}),
])
def test_codes(method, config, want, gpubarrier, monkeypatch):
    # codes() asks the executable its script was given (argv[1]) for the names' codes.
    monkeypatch.setattr(sys, "argv", [sys.argv[0], gpubarrier])
    assert codes({"method": method, "config": config}) == want

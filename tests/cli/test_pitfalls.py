#!/usr/bin/env python3
"""The study's pitfall experiments as `gpubarrier list --json` shows them, no GPU needed: both
methods, their levels, their axes with the default values and what the descriptions must say
(the control, the timeout, why cg's grid sync with part of the grid runs only in an isolated
child).

Run by pytest: pytest tests/cli/test_pitfalls.py [--gpubarrier PATH]
"""
import json


from cli_common import executable, expect, run_gpubarrier

EXE = executable()

EXPECTED = {
    "pitfall.warp.wait-check": ("warp", {"variant": [0, 1, 2, 3, 4, 5],
                                         "group_size": [2, 4, 8, 16, 32]},
                                ["negative control", "__syncwarp", "tile", "coalesced",
                                 "shuffle", "Fig. 17"]),
    "pitfall.grid.partial-sync": ("grid", {"barrier": [0, 1], "missing": [0, 1, 2],
                                           "blocks_per_sm": [1], "threads_per_block": [128]},
                                  ["atomic-sense", "flag-epoch", "grid-sync", "control",
                                   "timeout", "no watchdog", "isolated child",
                                   "--point-timeout"]),
}


def test_list_json():
    p = run_gpubarrier(EXE, "list", "--json")
    expect(p.returncode == 0, "list --json exits 0", p)
    methods = {m["name"]: m for m in json.loads(p.stdout)}
    for name, (level, axes, words) in EXPECTED.items():
        expect(name in methods, f"{name} is listed", p)
        m = methods[name]
        expect(m["level"] == level, f"{name}: level {m['level']}, expected {level}")
        expect(m["axes"] == axes, f"{name}: axes {m['axes']}, expected {axes}")
        # What the method and its axis values say of themselves (the values' names and
        # meanings live with the method: value_names in `list --json`).
        said = " ".join([m["description"]] + [f"{v['name']} {v['meaning']}"
                                              for values in m.get("value_names", {}).values()
                                              for v in values])
        for w in words:
            expect(w in said, f"{name}: the description or a value's meaning names '{w}': "
                   f"{said}")
        # A GPU method: usable here exactly when a GPU is, and otherwise says why not.
        expect(m["usable"] or m["reason"], f"{name}: not usable without a reason: {m}")
    print("PASS", ", ".join(EXPECTED))

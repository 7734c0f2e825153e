"""Published reference figures that the results pages (results/FINDINGS.md and the others) set beside our measurements.

These are NOT our measurements: they are copied from the study, each with its source;
cli/report.py prints them in the study columns of `single`. The one exception is
DESIGN_REFERENCE, which holds no figure: it names the foundation figures that `foundation` reads
from a committed reference run.

  the study: L. Zhang, M. Wahib, H. Zhang, S. Matsuoka, "A Study of Single and Multi-device
             Synchronization Methods in Nvidia GPUs" (full paper); the workshop version: its
             earlier version, "A Study of Synchronization Methods in Modern GPUs".
"""

from __future__ import annotations

import os
from typing import Any

from . import tool_main

# The study's Table 2 (warp synchronization, latency in cycles; revises the workshop version's Table
# 4). The study's Table 1 (launch overhead by Eq. 6 and null-kernel total latency, ns; the table
# does not say which GPU). The workshop version's Tables 5,
# 7, 8 (block latency/throughput, grid sync latency).
STUDY = {
    # case key: (V100, P100, source)
    "warp.tile-sync": ("14 (every group size)", "1 (every group size)", "001 T2"),
    "warp.coalesced-sync": ("1-31: 108, 32: 14", "1 (every group size)", "001 T2"),
    "warp.syncwarp": ("-", "-", ""),
    "warp.tile-shuffle": ("22 (every group size)", "31 (every group size)", "001 T2"),
    "warp.coalesced-shuffle": ("77 (every group size)", "50 (every group size)", "001 T2"),
    "block.latency": ("22 / 36 / 84", "220 / 235 / 428", "002 T5"),
    "block.throughput": (
        "0.219 / 0.402 / 0.626-0.658 (per SM or GPU not said)",
        "0.087 / 0.103 / 0.102-0.111",
        "002 T7",
    ),
    "grid.cg.1": ("1.435-2.199", "1.762-2.254", "002 T8"),
    "grid.cg.min": (
        "1.838 / 2.847 / 5.055 / 9.207 / 21.061",
        "2.050 / 3.421 / 6.420 / 13.228 / 31.345",
        "002 T8",
    ),
    "kernel.launch-sync": ("8.888 / 10.248 / - / - \u2020", "-", "001 T1"),
    "kernel.fusion": ("1.081 \u2020", "-", "001 T1"),
}

STUDY_FOOTNOTE = (
    "\u2020 the study's Table 1 does not name the GPU; it also gives a launch overhead "
    "of 1.063 us (cooperative) and 1.258 us (cooperative multi-device) by Eq. 6, and "
    "a null-kernel total latency of 10.874 us for the cooperative multi-device launch."
)

# The foundation figures `report foundation` judges a sweep by, each read from the committed
# reference run below (one H200, schema v3 with its GPU UUID), never typed in.
# (label, method, metric, axes, scale to the unit shown, unit)
DESIGN_REFERENCE_RUN = os.path.join("results", "h200", "v3", "single-gpu.csv")
DESIGN_REFERENCE = [
    (
        "`__syncthreads`, 32 threads",
        "gpu.block.syncthreads",
        "latency_cycles",
        {"threads_per_block": "32"},
        1,
        "cycles",
    ),
    (
        "`__syncthreads`, 1024 threads",
        "gpu.block.syncthreads",
        "latency_cycles",
        {"threads_per_block": "1024"},
        1,
        "cycles",
    ),
    (
        "`grid.sync`, 1 block/SM x 128",
        "gpu.grid.cg",
        "latency",
        {"blocks_per_sm": "1", "threads_per_block": "128"},
        1e-3,
        "us",
    ),
    (
        "`grid.sync`, 8 blocks/SM x 128",
        "gpu.grid.cg",
        "latency",
        {"blocks_per_sm": "8", "threads_per_block": "128"},
        1e-3,
        "us",
    ),
    (
        "`grid.sync`, 32 blocks/SM x 32",
        "gpu.grid.cg",
        "latency",
        {"blocks_per_sm": "32", "threads_per_block": "32"},
        1e-3,
        "us",
    ),
]


def design_reference_csv() -> str:
    """The committed CSV the foundation figures are read from (DESIGN_REFERENCE_RUN), absolute."""
    return os.path.join(tool_main.ROOT, DESIGN_REFERENCE_RUN)


# The study's Tables 3 and 4 (section 7.2): the model's inputs on V100 and P100, shared memory,
# double precision, and the switch points the study computed from them (Eq. 5, "N_l").
# Table 3: (bandwidth B/cycle, latency cycles) per configuration; its concurrency column is
# T x Thr (Eq. 1), printed rounded. Table 4: sync latency in cycles ("5 times synchronization")
# and the switch point in bytes. cli/model.py --study and tests/cli/test_model.py use them.
STUDY_MODEL = {
    "V100": {
        "1 thread": (0.62, 13.0),
        "1 warp": (19.6, 13.0),
        "32 threads": (19.6, 13.0),
        "1024 threads": (215.0, 13.0),
    },
    "P100": {
        "1 thread": (0.43, 18.5),
        "1 warp": (13.8, 18.5),
        "32 threads": (13.8, 18.5),
        "1024 threads": (141.0, 18.5),
    },
}
# (basic, more, {gpu: (sync latency cycles, published switch point B)})
STUDY_SWITCH_POINTS = [
    ("1 thread", "1 warp", {"V100": (110.0, 70.0), "P100": (155.0, 70.0)}),
    ("32 threads", "1024 threads", {"V100": (420.0, 9076.0), "P100": (2135.0, 32681.0)}),
]
# The study's Table 3, its concurrency column (B), as printed (the "1 warp" and "32 thrd." rows are
# the same figures; STUDY_MODEL holds the bandwidth and latency columns).
STUDY_CONCURRENCY = {
    "V100": {"1 thread": 8, "1 warp": 256, "32 threads": 256, "1024 threads": 2796},
    "P100": {"1 thread": 8, "1 warp": 256, "32 threads": 256, "1024 threads": 2615},
}

# The study's Table 5: latency (cycles) for one warp to sum 32 doubles, by gpu.warp.reduce's variant
# (0 serial, 1 no sync, 2 tile sync, 3 coalesced sync, 4 tile shuffle, 5 coalesced shuffle). The
# study marks the no-sync result incorrect.
STUDY_WARP_REDUCE = {
    "V100": (299, 89, 237, 237, 164, 1261),
    "P100": (383, 112, 281, 251, 212, 1423),
}

# The study's Table 6: single-GPU reduction bandwidth (GB/s); the array size is not stated. Columns:
# implicit (the two-kernel reduction, a kernel boundary), grid sync, CUB, CUDA sample, theory (the
# GPU's peak memory bandwidth, not a measured copy).
STUDY_REDUCTION = {
    "V100": (865.40, 855.59, 849.39, 852.98, 898.05),
    "P100": (592.40, 590.85, 543.96, 590.65, 732.16),
}

# The study's Table 1 (the GPU is not named): (launch type, launch overhead by Eq. 6 in ns, null
# kernel total latency in ns).
STUDY_LAUNCH_TYPES = [
    ("traditional", 1081, 8888),
    ("cooperative", 1063, 10248),
    ("cooperative multi-device", 1258, 10874),
]

# The workshop version's Table 9: the multi-grid sync on 2 GPUs of a DGX-1, latency (us) by region
# of the heat map: (case as printed, blocks/SM and warps/SM predicate, min, max). warps/SM =
# blocks/SM x threads/block / 32.
STUDY_MULTI_GRID_2GPU = {
    "V100": [
        ("block/sm <= 4 and warp/sm <= 16", lambda b, w: b <= 4 and w <= 16, 6.02, 9.12),
        ("block/sm >= 16 or warp/sm = 64", lambda b, w: b >= 16 or w == 64, 22.00, 58.32),
    ],
    "P100": [
        ("block/sm <= 2 and warp/sm <= 32", lambda b, w: b <= 2 and w <= 32, 7.26, 9.08),
        ("block/sm > 8", lambda b, w: b > 8, 33.18, 74.89),
    ],
}

# NVIDIA's own throughput figures that the study sets beside its measurements (its section 5, the
# "Reference [1] thread op/cycle" column of Table 2), as NVIDIA publishes them for compute
# capability 9.0 (H100, H200). Results per clock cycle per multiprocessor, one result per thread:
# a warp-wide instruction is 32 of them.
#   shuffle: the CUDA C++ Programming Guide (CUDA 12.x), "Arithmetic Instructions", table
#     "Throughput of Native Arithmetic Instructions (Number of Results per Clock Cycle per
#     Multiprocessor)", row "warp shuffle": 32 for every compute capability it lists, 9.0 among them.
#   __syncthreads: the CUDA C++ Best Practices Guide (CUDA 13.2), "Synchronization Instruction"
#     (the Programming Guide's section of that name in CUDA 10, which the study cites): "Throughput
#     for __syncthreads() is 32 operations per clock cycle for devices of compute capability 6.0,
#     16 operations per clock cycle for devices of compute capability 7.x as well as 8.x and 64
#     operations per clock cycle for devices of compute capability 5.x, 6.1 and 6.2." It gives
#     none for 9.0.
GUIDE_SHUFFLE_PER_CLOCK = {"9.0": 32}
GUIDE_SHUFFLE_SOURCE = (
    "the CUDA C++ Programming Guide (CUDA 12.x), \"Throughput of Native "
    "Arithmetic Instructions\", warp shuffle"
)
GUIDE_SYNCTHREADS_PER_CLOCK = {"5.x, 6.1, 6.2": 64, "6.0": 32, "7.x, 8.x": 16}
GUIDE_SYNCTHREADS_SOURCE = (
    "the CUDA C++ Best Practices Guide (CUDA 13.2), \"Synchronization Instruction\""
)


# The study's conclusions that the findings page answers, in its order: data/study_conclusions.json
# (what the study says, its sentences copied exactly); analysis/findings.py and analysis/findings_more.py
# hold what answers each, by its key.
CONCLUSIONS_FILE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "study_conclusions.json"
)
CONCLUSION_FIELDS = ("key", "section", "claim", "quote")


def study_conclusions(path: str = CONCLUSIONS_FILE) -> list[dict[str, str]]:
    """The file's conclusions, in its order: {key, section, claim, quote[, figure]}, every field
    a string, the keys distinct. A file that cannot be read or holds anything else ends the tool
    (exit 2, naming the file): the tools folder is incomplete."""
    return tool_main.package_json(path, "the study's conclusions", _conclusions)


def _conclusions(data: Any) -> list[dict[str, str]]:
    conclusions = data["conclusions"]
    keys = set()
    for c in conclusions:
        fields = set(c)
        if not set(CONCLUSION_FIELDS) <= fields <= {*CONCLUSION_FIELDS, "figure"} or not all(
            isinstance(v, str) for v in c.values()
        ):
            raise ValueError(
                f"conclusion {c.get('key')!r} has the fields {sorted(fields)}: "
                f"strings {', '.join(CONCLUSION_FIELDS)}[, figure] expected"
            )
        if c["key"] in keys:
            raise ValueError(f"conclusion {c['key']!r} twice")
        keys.add(c["key"])
    return conclusions


def conclusion_rows(answers: dict, figures: dict, conclusions: list) -> list:
    """(key, section, claim, quote, the study's figure, answer) of each of `conclusions` whose key
    `answers` ({key: the function of a findings Scope that answers it}) names, in their order.
    The figure is the conclusion's own where the file gives one, else figures[key], written from
    this module's copies of the study's tables: exactly one of the two, so that a number has one
    copy (ValueError otherwise, as for a key of `answers` or `figures` that no conclusion has)."""
    known = {c["key"] for c in conclusions}
    stray = sorted((set(answers) | set(figures)) - known)
    if stray:
        raise ValueError(f"{', '.join(stray)}: no such conclusion in {CONCLUSIONS_FILE}")
    rows = []
    for c in conclusions:
        if c["key"] not in answers:
            continue
        if ("figure" in c) == (c["key"] in figures):
            raise ValueError(
                f"conclusion {c['key']!r}: its figure is given "
                f"{'twice' if 'figure' in c else 'nowhere'} (the file or FIGURES)"
            )
        rows.append(
            (
                c["key"],
                c["section"],
                c["claim"],
                c["quote"],
                c["figure"] if "figure" in c else figures[c["key"]],
                answers[c["key"]],
            )
        )
    return rows

"""report selfcheck and report selfcheck-log: the clock and differential techniques side by
side, from `gpubarrier selfcheck` CSVs or its text logs."""

from __future__ import annotations

import collections
import math
import re
from collections import OrderedDict
from collections.abc import MutableMapping, Sequence
from typing import Any

from ...data import user_files
from .common import cfg, load, need, table


def selfcheck_pairs(rows: list, method: str) -> OrderedDict:
    pairs = collections.OrderedDict()
    for r in rows:
        if r["method"] == method and r["metric"] == "cycles_per_add":
            pairs.setdefault((r["gpu_model"], r["run_id"], r["config"]), {})[r["technique"]] = r
    return pairs


def std_err(r: MutableMapping[str, Any]) -> float:
    return float(r["stddev"] or 0) / math.sqrt(max(int(float(r["samples"] or 1)), 1))


def selfcheck(argv: Sequence[str]) -> list:
    """`gpubarrier selfcheck` CSV rows: the loop kernel by both techniques at every repeat
    difference, then the unrolled chains' instruction-cache scan."""
    rows = load(argv)
    need(
        [r for r in rows if r["method"].startswith("selfcheck.")],
        "selfcheck.* rows",
        argv,
        "`report selfcheck` reads the CSVs of `gpubarrier selfcheck`",
    )
    runs = {r["run_id"] for r in rows if r["method"].startswith("selfcheck.")}
    lead = ["GPU", "run"] if len(runs) > 1 else []
    words = {"tolerance": "within {tol}", "2se": "within 2 SE", "none": "**no**"}
    out = []
    for (model, run, _), t in selfcheck_pairs(rows, "selfcheck.fadd.loop").items():
        c, d = t.get("clock"), t.get("differential")
        if not c or not d:
            continue
        clock, diff = float(c["value"]), float(d["value"])
        agreement = re.search(r"agreement (\S+)", d["note"])
        tol = re.search(r"tolerance (\d+%)", d["note"])
        said = words.get(agreement.group(1), agreement.group(1)) if agreement else "-"
        out.append(
            ([model, run] if lead else [])
            + [
                cfg(d)["base_trips"],
                cfg(d)["repeat_difference"],
                f"{clock:.3f}",
                f"{diff:.3f} ± {std_err(d):.3f}",
                f"{100 * (diff / clock - 1):+.1f}%",
                said.format(tol=tol.group(1) if tol else "tolerance"),
            ]
        )
    return [
        table(
            lead
            + [
                "R_lo (trips)",
                "repeat difference",
                "clock (cycles/add)",
                "differential (cycles/add)",
                "deviation",
                "agreement",
            ],
            out,
        )
    ] + selfcheck_chains(rows, lead)


def selfcheck_chains(rows: list, lead: list) -> list:
    """The unrolled chains' instruction-cache scan: one line per run and chain length, after a
    blank line (the items; none without chains)."""
    chains = [
        t
        for t in selfcheck_pairs(rows, "selfcheck.fadd.unrolled").values()
        if "clock" in t and "differential" in t
    ]
    if not chains:
        return []
    out = []
    for t in chains:
        c, d = t["clock"], t["differential"]
        model, run = c["gpu_model"], c["run_id"]
        code = re.search(r"(\d+ KiB) of code", c["note"])
        launch = re.search(
            r"launch difference ([-+]?\d+) cycles \(standard error (\d+)\)", d["note"]
        )
        adds = int(cfg(c)["base_adds"]) + int(cfg(c)["repeat_difference"])
        out.append(
            ([model, run] if lead else [])
            + [
                str(adds),
                code.group(1) if code else "-",
                f"{float(c['value']):.3f}",
                "overflows" if "overflows" in c["note"] else "fits",
                f"{float(d['value']):.3f} ± {std_err(d):.3f}",
                launch.group(1) + " ± " + launch.group(2) if launch else "-",
            ]
        )
    return [
        "",
        table(
            lead
            + [
                "adds",
                "code",
                "clock (cycles/add)",
                "instruction cache",
                "differential (cycles/add)",
                "launch difference (cycles)",
            ],
            out,
        ),
    ]


def parse_selfcheck_log(path: str) -> dict[str, Any]:
    text = user_files.read_text(path, "a `gpubarrier selfcheck` log")
    gpu = re.search(r"^GPU \d+: (.*?), SM clock", text, re.M)
    lo = re.search(r"R_lo = (\d+) adds \((\d+) trips\), clock ([\d.]+)", text)
    head = re.search(r"^ rep diff .*$", text, re.M)
    if not (gpu and lo and head):
        raise ValueError(f"{path}: not a `gpubarrier selfcheck` log")
    cols = head.group(0).split()
    dev_at = None
    points = []
    for line in text[head.end() :].split("\n")[1:]:
        f = line.split()
        if not f or not f[0].isdigit():
            break
        dev_at = dev_at or len(f) - 2  # deviation is the next-to-last column
        points.append((int(f[0]), f[len(f) - 2], f[-1]))
    passed = "PASS:" in text
    return {
        "gpu": gpu.group(1),
        "trips": lo.group(2),
        "clock": lo.group(3),
        "order": "alternating" if "MHz" in cols else "hi, lo",
        "points": points,
        "passed": passed,
    }


def selfcheck_log(argv: Sequence[str]) -> list:
    """One line per `gpubarrier selfcheck` log: the loop kernel's deviation of the differential
    figure from the clock figure at every repeat difference, and the run's verdict."""
    logs = [(p, parse_selfcheck_log(p)) for p in argv]
    diffs = sorted({d for _, lg in logs for d, _, _ in lg["points"]})
    out = []
    for p, lg in logs:
        dev = {
            d: (v if v.startswith("-") else "+" + v) + ("" if ok == "<5%" else " **no**")
            for d, v, ok in lg["points"]
        }
        out.append(
            [f"`{p}`", lg["gpu"].replace("NVIDIA ", "").split()[0], lg["trips"], lg["clock"]]
            + [dev.get(d, "-") for d in diffs]
            + ["pass" if lg["passed"] else "**fail**"]
        )
    return [
        table(
            ["log", "GPU (as logged)", "R_lo (trips)", "clock (cycles/add)"]
            + [f"deviation at {d}" for d in diffs]
            + ["selfcheck"],
            out,
        )
    ]

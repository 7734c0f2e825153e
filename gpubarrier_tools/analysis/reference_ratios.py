"""gpubarrier's host figures against the reference tools' conventions (the CSVs that
scripts/reference-check writes: reference/rows.py COLUMNS).

    ratios(path)     [(method, config, convention, {round: gpubarrier ns}, {round: reference ns},
                       skipped note)] in file order
    ratio(g, r)      (mean gpubarrier / mean reference over the rounds both have, per-round
                       ratios), or None
    summary(argv)    `report.py reference-summary DIR`: one line per check of every
                     reference-check CSV under DIR: its folder, the ratio and whether it is
                     within TOLERANCE (the table, data/tables.py)
"""

from __future__ import annotations

import collections
import glob
import os
import statistics
from collections.abc import Sequence

from ..data import gbcsv, tool_main, user_files
from ..data.tables import Table

TOLERANCE = 0.10  # within 10% of the reference tools' conventions
WANTED = {"method", "config", "convention", "source", "round", "value_ns", "host", "note"}


def read(path: str) -> list:
    header, records = user_files.csv_dicts(path, "a reference check of scripts/reference-check")
    if not records or WANTED - set(header):
        raise tool_main.InputError(
            f"reference: {tool_main.shown(path)}: expected the columns {sorted(WANTED)}"
        )
    return [r for _, r in records]


def ratios(rows: list) -> list:
    groups = collections.OrderedDict()
    for r in rows:
        g = groups.setdefault((r["method"], r["config"]), [r["convention"], {}, {}, ""])
        if r["value_ns"]:
            g[1 if r["source"] == "gpubarrier" else 2][r["round"]] = float(r["value_ns"])
        elif r["note"].startswith("skipped"):
            g[3] = r["note"]
    return [(m, c, *g) for (m, c), g in groups.items()]


def ratio(gb: dict, ref: dict) -> tuple | None:
    rounds = [k for k in gb if k in ref]
    if not rounds:
        return None
    q = statistics.mean(gb[k] for k in rounds) / statistics.mean(ref[k] for k in rounds)
    return q, [gb[k] / ref[k] for k in rounds], rounds


def summary(argv: Sequence[str]) -> list[Table | str]:
    base = argv[0] if argv else "."
    paths = sorted(
        p
        for p in glob.glob(os.path.join(base, "**", "*.csv"), recursive=True)
        if gbcsv.kind_of(p)[0] == "reference-check"
    )
    lines = []
    for p in paths:
        rows = read(p)
        host = ", ".join(sorted({r["host"] for r in rows if r["host"]})) or "-"
        for method, config, _, gb, ref, _skipped in ratios(rows):
            got = ratio(gb, ref)
            if got is None:
                continue
            q, per, rounds = got
            ok = abs(q - 1) <= TOLERANCE
            lines.append(
                [
                    f"`{os.path.relpath(p, base)}`",
                    host,
                    f"`{method}`",
                    config,
                    f"{q:.3f} ({min(per):.3f}-{max(per):.3f}, {len(rounds)})",
                    f"{'yes' if ok else '**no**'} ({(q - 1) * 100:+.1f}%)",
                ]
            )
    return [
        Table(
            [
                "CSV",
                "host",
                "method",
                "config",
                "gpubarrier / reference (rounds)",
                f"within {TOLERANCE:.0%}",
            ],
            lines,
        )
    ]

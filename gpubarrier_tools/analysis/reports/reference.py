"""report reference: gpubarrier's host figures against the reference tools' conventions (the CSV
of scripts/reference-check; analysis/reference_ratios.py computes the ratios)."""

from __future__ import annotations

from collections.abc import Sequence

from ...data.tables import Table
from .common import fmt


def reference(argv: Sequence[str]) -> list[Table | str]:
    """The CSV of scripts/reference-check (reference/rows.py COLUMNS): per method and
    config, every round's gpubarrier and reference figure (ns), the ratio of their means (and
    the range of the per-round ratios) and whether it is within 10% (analysis/reference_ratios.py):
    the table and a line on the rounds (data/tables.py)."""
    from .. import reference_ratios as rr

    if len(argv) != 1:
        raise ValueError("reference: CHECK.csv (written by scripts/reference-check)")
    rows = rr.read(argv[0])
    out = []
    for method, config, convention, gb, ref, skipped in rr.ratios(rows):
        got = rr.ratio(gb, ref)
        if got is None:
            out.append(
                [f"`{method}`", config, convention, "-", "-", skipped or "no complete round", "-"]
            )
            continue
        q, per, rounds = got
        ok = abs(q - 1) <= rr.TOLERANCE
        out.append(
            [
                f"`{method}`",
                config,
                convention,
                " / ".join(fmt(gb[k]) for k in rounds),
                " / ".join(fmt(ref[k]) for k in rounds),
                f"{q:.3f} ({min(per):.3f}-{max(per):.3f})",
                f"yes ({(q - 1) * 100:+.1f}%)" if ok else f"**no** ({(q - 1) * 100:+.1f}%)",
            ]
        )
    hosts = sorted({r["host"] for r in rows if r["host"]})
    n = len({r["round"] for r in rows if r["round"]})
    return [
        Table(
            [
                "method",
                "config",
                "convention",
                "gpubarrier (ns), by round",
                "reference (ns), by round",
                "gpubarrier / reference (by round)",
                f"within {rr.TOLERANCE:.0%}",
            ],
            out,
        ),
        "",
        f"{n} round{'s' if n != 1 else ''} on {', '.join(hosts) or '-'}, each gpubarrier's "
        "run first, then the reference program with the steps per loop and the number of "
        "loops of gpubarrier's row of that round.",
    ]

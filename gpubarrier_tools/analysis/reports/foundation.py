"""report foundation: the foundation figures of a sweep against the same figures of a committed
reference run (data/study_reference.py: DESIGN_REFERENCE names them, design_reference_csv() is
the run; --reference CSV another), within 15% or not.

    report.py foundation SWEEP.csv [--reference CSV]"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ...data import gbcsv, study_reference
from .common import load, pick, table, vals


def _one(
    rows: list, method: str, metric: str, axes: dict[str, str], scale: float, where: str
) -> float:
    v = vals(pick(rows, method, metric, **axes), scale)
    if len(v) != 1:
        raise ValueError(
            f"foundation: {len(v)} rows for {method} {metric} {axes} on GPU 0 in {where}"
        )
    return v[0]


def foundation(argv: Sequence[str]) -> list:
    argv = list(argv)
    given = gbcsv.take_option(argv, "--reference")
    ref_path = given or study_reference.design_reference_csv()
    rows, ref_rows = load(argv), load([ref_path])
    # the committed run by its path under results/, wherever the command runs
    shown = given or os.path.relpath(study_reference.DESIGN_REFERENCE_RUN, "results")
    out = []
    for label, method, metric, axes, scale, unit in study_reference.DESIGN_REFERENCE:
        got = _one(rows, method, metric, axes, scale, ", ".join(argv))
        refv = _one(ref_rows, method, metric, axes, scale, shown)
        dev = (got / refv - 1) * 100
        digits = 2 if unit == "cycles" else 3
        out.append(
            [
                label,
                f"{got:.{digits}f} {unit}",
                f"{refv:.{digits}f} {unit}",
                f"{'yes' if abs(dev) <= 15 else '**no**'} ({dev:+.1f}%)",
            ]
        )
    return [table(["figure (GPU 0)", "measured", f"reference (`{shown}`)", "within 15%"], out)]

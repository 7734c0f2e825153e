"""Tables that other modules compute, as report tables: samerows (analysis/same_rows.py) and
reduction-tables (analysis/reduction_tables.py); each returns its items (data/tables.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ...data.tables import Table
from .common import option


def samerows(argv: Sequence[str]) -> list[str]:
    from .. import same_rows

    if len(argv) != 2:
        raise ValueError("samerows: BEFORE.csv AFTER.csv")
    before, after = same_rows.load(argv[0]), same_rows.load(argv[1])
    _, bad = same_rows.compare(before, after, 0.05, 3.0)
    return [f"{bad} of {len(before.keys() & after.keys())}"]


def reduction_tables(argv: list[str]) -> list[Table | str]:
    """The study's Tables 3, 5, 6 (the reduction case study) from the CSVs, beside the study's."""
    from .. import reduction_tables as tables

    which = option(argv, "--table", "3,5,6").split(",")
    sizes = option(argv, "--sizes")
    # an empty --sizes gives "", which the tables read as None (every size)
    return tables.report(argv, which, sizes and [int(s) for s in sizes.split(",")])  # type: ignore[arg-type]

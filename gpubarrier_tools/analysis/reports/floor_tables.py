"""report floor and report push-phases: multi-GPU barriers over their composed floor
(analysis/floor.py) and where push's time goes (analysis/push_phases.py)."""

from __future__ import annotations

from collections.abc import Sequence

from ...data.tables import Table
from .common import load, need


def push_phases(argv: Sequence[str]) -> list[Table | str]:
    """Where push's time goes: its phases alone (part axis), its floor, orderings 1 and 2
    (analysis/push_phases.py; configs/sweeps/push-phases.yaml): the table (data/tables.py)."""
    from .. import push_phases as phases_of

    cells = phases_of.phases_table(load(argv))
    need(
        cells,
        "push phase rows",
        argv,
        "`report push-phases` reads what configs/sweeps/push-phases.yaml measures",
    )
    return [Table(phases_of.HEADER, cells)]


def floor(argv: Sequence[str]) -> list:
    """Each multi-GPU barrier beside its composed floor measured in the same run (analysis/floor.py:
    the cheapest verified grid barrier at the shape, named, + the one-way signal at the
    barrier's ordering), as a ratio: the table and the lines under it (data/tables.py)."""
    from .. import floor as floor_of

    items = floor_of.floors(load(argv))
    cells, missing = floor_of.floor_table(items)
    need(
        cells or missing,
        "multi-GPU barrier rows",
        argv,
        "`report floor` reads what configs/sweeps/floor.yaml measures",
    )
    out: list[Table | str] = [
        Table(floor_of.FLOOR_HEADER, [[f"`{c[0]}`", *c[1:5], f"`{c[5]}`", *c[6:]] for c in cells])
    ]
    sources = floor_of.signal_sources(items)
    if sources:
        out += [
            "",
            "The signal in each floor is the cheapest way the run measured it: "
            + "; ".join(sources)
            + ".",
        ]
    if missing:
        out += ["", "No floor (its parts are not in the same run): " + "; ".join(missing) + "."]
    return out

"""Eq. 6 figures in the findings (the study's section 9.2): the launch overhead of kernels built of
`__nanosleep` units depends on the length of the shorter of the two kernels compared (i launches
of j units against j launches of i units: min(i, j) units). Below some length the overhead is
the launch's; once the running kernel is long enough the next launch is prepared behind it and
Eq. 6 gives zero ("no overhead left", findings_rules.zero_within).

Every figure here carries its kernel length, and a comparison takes its Eq. 6 figures at one
length: the study's setting, the shortest length from 5 µs (its "around 5 us in single GPU")
that every side measured, else the longest below it.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, MutableMapping
from typing import Any

from ..data import bounds, gbcsv
from . import findings_rules
from .findings_rules import Fig, Missing, Outcome, Scope, _matches, about, less, margin

SETTLED_NS = 5000  # the study's section 9.2: "around 5 us in single GPU"
LAUNCH_NAMES = {"0": "<<<>>>", "1": "cooperative"}


def length_ns(row: MutableMapping[str, Any]) -> int | None:
    """The shorter kernel's length (ns): unit_ns x min(fusion_i, fusion_j); None without them."""
    c = gbcsv.config_axes(row)
    if not all(str(c.get(k, "")).isdigit() for k in ("unit_ns", "fusion_i", "fusion_j")):
        return None
    return int(c["unit_ns"]) * min(int(c["fusion_i"]), int(c["fusion_j"]))


def by_length(s: Scope, method: str, metric: str = "launch_overhead", **axes: Any) -> dict:
    """{length (ns): Fig}: the newest figure of `method` at each kernel length of the scope (None:
    rows that do not record it)."""
    out = {}
    for r in s.rows:
        n = length_ns(r)
        if not _matches(r, method, metric, axes):
            continue
        if n not in out or (r["timestamp"], r["_line"]) > (
            out[n].row["timestamp"],
            out[n].row["_line"],
        ):
            out[n] = Fig(r)
    s.found += bool(out)
    return out


def setting(lengths: Iterable[int | None]) -> int | None:
    """The length a comparison uses: the shortest from SETTLED_NS, else the longest below (None:
    only rows that do not record it)."""
    known = sorted(n for n in lengths if n is not None)
    return next((n for n in known if n >= SETTLED_NS), known[-1] if known else None)


def at_one_length(s: Scope, *sides: tuple[str, dict[str, Any]]) -> list:
    """[Fig] of each (method, axes) side at one kernel length (setting() of the lengths every
    side measured); Missing names the lengths each side holds."""
    got = [by_length(s, m, **axes) for m, axes in sides]
    common = set(got[0]).intersection(*got[1:]) if got else set()
    if not common:
        held = "; ".join(
            f"{m} {' '.join(f'{k}={v}' for k, v in axes.items())}: "
            + (", ".join(length_text(n) for n in sorted(g, key=_order)) or "none")
            for (m, axes), g in zip(sides, got)
        )
        names = " and ".join(
            f"{m} {' '.join(f'{k}={v}' for k, v in axes.items())}".strip() for m, axes in sides
        )
        raise Missing(f"{names} launch_overhead at one kernel length (held: {held})")
    n = setting(common)
    return [g[n] for g in got]


def _order(n: int | None) -> int:
    return -1 if n is None else n


def length_text(n: int) -> str:
    return "length not recorded" if n is None else f"{n / 1000:g} µs"


def kernels(f: Fig) -> str:
    """ "10 µs kernels": the shorter kernel's length of an Eq. 6 figure."""
    n = length_ns(f.row)
    return f"{length_text(n)} kernels" if n is not None else "kernel length not recorded"


def plus_minus(x: float) -> str:
    return f"±{x:.0f} ns" if x >= 10 else f"±{x:.2g} ns"


def show(f: Fig) -> str:
    """An Eq. 6 figure: "1.03 µs", or "no overhead left, within ±11 ns" for a zero."""
    if f.zero is not None:
        return f"no overhead left, within {plus_minus(f.zero)}"
    return f"{f.value / 1000:.3g} µs"


def launch_overhead(s: Scope) -> Outcome:
    trad, coop = at_one_length(
        s, ("kernel.fusion", {"launch": 0}), ("kernel.fusion", {"launch": 1})
    )
    return Outcome(
        f"<<<>>> {show(trad)}, cooperative {show(coop)} ({kernels(trad)})",
        [about(trad, coop, 0.25, "cooperative about <<<>>> (25%)")],
        [trad, coop],
    )


def multi_device_overhead(s: Scope) -> Outcome:
    trad, mdev = at_one_length(
        s, ("kernel.fusion", {"launch": 0}), ("kernel.fusion.multi-device", {"gpu_count": 1})
    )
    return Outcome(
        f"<<<>>> {show(trad)}, multi-device {show(mdev)} (Eq. 6, 1 GPU, {kernels(trad)})",
        [less(trad, mdev, "multi-device above <<<>>>")],
        [trad, mdev],
    )


def boundary(s: Scope) -> Fig:
    """The kernel boundary's Eq. 6 figure (<<<>>>) for a comparison with another method: at the
    study's setting of the lengths measured."""
    by = by_length(s, "kernel.fusion", launch=0)
    if not by:
        raise Missing("kernel.fusion launch_overhead launch=0")
    return by[setting(by)]


def hidden_note(s: Scope) -> str:
    """ "; from 20 µs kernels on ...": where a longer kernel hid the launch (a zero), said beside
    a comparison that used the figure at the study's setting; "" where none did."""
    by = curve(s)
    zeros = [n for n in sorted(by) if by[n].zero is not None]
    return (
        f"; from {length_text(zeros[0])} kernels the launch hides behind the running kernel "
        f"(Eq. 6: no overhead left)"
        if zeros
        else ""
    )


def curve(s: Scope, launch: int = 0) -> dict:
    """{length: Fig} of kernel.fusion at `launch`: the overhead over the kernel length."""
    return {n: f for n, f in by_length(s, "kernel.fusion", launch=launch).items() if n is not None}


def _curve_text(by: dict) -> str:
    return ", ".join(f"{length_text(n)}: {show(by[n])}" for n in sorted(by))


def settles(s: Scope) -> Outcome:
    """The study's section 9.2: Eq. 6 needs a kernel of about 5 µs before its figure settles.
    Checked: from 5 µs on, every figure within 25% of the one at the shortest such length (a fall
    to zero is no settling); below 5 µs, where measured, off that figure."""
    by = curve(s)
    long_ = [n for n in sorted(by) if n >= SETTLED_NS]
    short_ = [n for n in sorted(by) if n < SETTLED_NS]
    if len(long_) < 2:
        raise Missing(
            "kernel.fusion launch_overhead over its shorter kernel's length at two or "
            "more lengths from 5 µs: the rows hold "
            + (", ".join(length_text(n) for n in sorted(by)) or "none")
            + " (sweep unit_ns)"
        )
    first = by[long_[0]]
    off = [
        n
        for n in long_[1:]
        if abs(by[n].value - first.value) > 0.25 * abs(first.value)
        and abs(by[n].value - first.value) > margin(by[n], first)
    ]
    zeros = [n for n in off if by[n].zero is not None]
    if zeros:
        what = (
            f"settles from 5 µs: falls to zero (no overhead left) from "
            f"{length_text(zeros[0])} kernels instead"
        )
    elif off:
        what = f"settles from 5 µs: off by more than 25% at {length_text(off[0])}"
    else:
        what = "settles from 5 µs: within 25% of the figure at " + length_text(long_[0])
    within = [
        n
        for n in long_[1:]
        if n not in off and abs(by[n].value - first.value) > 0.25 * abs(first.value)
    ]
    checks = [(False if off else None if within else True, what)]
    if short_:
        shortest = by[short_[0]]
        checks.append(
            (
                True if abs(shortest.value - first.value) > margin(shortest, first) else None,
                "off the settled figure below 5 µs",
            )
        )
    text = _curve_text(by) + ("" if short_ else "; no length below 5 µs measured")
    return Outcome(text, checks, [by[n] for n in sorted(by)])


def over_length(s: Scope) -> Outcome:
    """Eq. 6's overhead over the shorter kernel's length: it falls once the running kernel hides
    the next launch (the longest length's figure below the shortest's beyond the margin)."""
    by = curve(s)
    if len(by) < 2:
        raise Missing(
            "kernel.fusion launch_overhead at two or more kernel lengths (sweep "
            "unit_ns over 1-200 µs kernels): the rows hold "
            + (", ".join(length_text(n) for n in sorted(by)) or "none")
        )
    lo, hi = by[min(by)], by[max(by)]
    d, m = lo.value - hi.value, margin(lo, hi)
    hidden = [n for n in sorted(by) if by[n].zero is not None]
    meaning = "the part of a launch not hidden behind the running kernel; " + (
        f"from {length_text(hidden[0])} the next launch is hidden: no overhead left"
        if hidden
        else "no length long enough to hide the launch measured"
    )
    return Outcome(
        f"<<<>>> {_curve_text(by)} ({meaning})",
        [
            (
                True if d > m else False if -d > m else None,
                "the overhead falls as the running kernel hides the launch",
            )
        ],
        [by[n] for n in sorted(by)],
        extension=True,
    )


def length_points(paths: list[str]) -> dict:
    """{(GPU model, UUID, launch): [(length µs, value ns, lo, hi)]} of the Eq. 6 rows: the points
    of the Eq. 6 plot (render/plot_eq6.py), the ok rows and the zeros (findings_rules.zero_row),
    lo and hi the 95% interval; a key with two lengths or more."""
    rows = gbcsv.load(paths, statuses={"ok", "unverified"})
    out = collections.defaultdict(dict)
    for r in rows:
        if r["method"] != "kernel.fusion" or r["metric"] != "launch_overhead":
            continue
        if r["status"] != "ok" and not findings_rules.zero_row(r):
            continue
        n = length_ns(r)
        if n is None:
            continue
        value = float(r["value"])
        ci = bounds.interval95(value, float(r["stddev"] or "nan"), float(r["samples"] or 0))
        lo, hi = ci if ci else (value, value)
        launch = gbcsv.config_names(r).get("launch", "triple-chevron")
        key = (r["gpu_model"], (r.get("gpu_uuids") or "?")[:12], launch)
        out[key][n] = (n / 1000, value, lo, hi)
    return {k: [v[n] for n in sorted(v)] for k, v in out.items() if len(v) >= 2}

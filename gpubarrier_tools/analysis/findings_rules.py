"""The rules a findings verdict is reached by (analysis/findings.py states them on the page): what a
figure is, when two figures differ, and which verdict a claim's checks give.

- A figure (Fig) is one row's value with its error: the standard error (stddev / sqrt(samples),
  x 1.2533 for a median) where the value is a mean or median of samples, else the row's stddev
  (cv x value where it has none). It is `noisy` (results/SCHEMA.md, "Noisy figures"), `excluded`
  (a figure that times nothing, an unresolved interval, a row outside a physical bound), or
  neither.
- A difference of two means (Eq. 6) whose 95% interval includes zero but is narrower than the
  figure it would resolve (the study's Table 1 overhead of the same launch) measured zero: "no
  overhead left, within +-X ns" (`zero`), not an unresolved figure.
- Two figures differ when their difference exceeds the margin: max(2 (e_A + e_B), f x the
  smaller), e their errors and f the larger run-to-run floor of their techniques; plus, where
  several GPUs of one machine measured a figure, the spread between those GPUs. margin_basis
  says which term set it.
- A verdict: `refuted` when a check fails, `confirmed` when every check holds, `inconclusive`
  when one is within the margin; a noisy figure takes part with its (larger) error, so a check it
  decides beyond the margin stands; an excluded figure takes part in no check (the claims leave
  it out and name it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, MutableMapping
from typing import Any

from ..data import bounds, gbcsv, study_reference
from .reports import common


class Missing(Exception):
    """A figure the claim needs is not in the rows."""


class NotTimed(Missing):
    """No method times what the claim needs (the message says why): not a matter of rows."""


class NotMeasured(NotTimed):
    """The measurement the claim needs was not made here (the message says why and what would
    make it): not a matter of rows missing from a run."""


class NoReference(Missing):
    """The claim compares with a reference figure that does not exist for this GPU (the message
    says whose and what was measured): the verdict is "no reference"."""


# A row whose note says its figure is not one (unresolved, not timed): no verdict rests on it.
EXCLUDED = gbcsv.figure_excluded

# The statistics that are a mean of samples (or a difference of two means) and the median: the
# figure's error is its standard error, stddev / sqrt(samples), times this factor.
STANDARD_ERROR_FACTOR = {"mean": 1.0, "eq6": 1.0, "eq7": 1.0, "median": math.sqrt(math.pi / 2)}

# The figure an Eq. 6 interval would resolve: the study's launch overhead of the same launch
# (Table 1, V100, ns). A narrower interval that includes zero measured "no overhead left".
_TABLE1 = {name: overhead for name, overhead, _ in study_reference.STUDY_LAUNCH_TYPES}
RESOLVES = {
    "kernel.fusion": {"0": _TABLE1["traditional"], "1": _TABLE1["cooperative"]},
    "kernel.fusion.multi-device": {"": _TABLE1["cooperative multi-device"]},
}
LAUNCH_CODES = {"triple-chevron": "0", "cooperative": "1"}


def _num(text: Any) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


def resolves(row: MutableMapping[str, Any]) -> float | None:
    """The figure (ns) an Eq. 6 row's interval would resolve, or None for any other row."""
    by = RESOLVES.get(row.get("method"))  # type: ignore[arg-type]  # None: no entry
    if by is None or row.get("metric") != "launch_overhead":
        return None
    launch = gbcsv.config_axes(row).get("launch", "0")
    return by.get(LAUNCH_CODES.get(launch, launch), by.get(""))


def zero_within(row: MutableMapping[str, Any]) -> float | None:
    """X (ns) when the row is an Eq. 6 difference whose 95% interval includes zero and reaches
    less than the figure it would resolve from zero on either side ("no overhead left, within
    +-X ns"); None otherwise (a resolved figure, or an interval too wide to say)."""
    scale = resolves(row)
    if scale is None:
        return None
    ci = bounds.interval95(
        _num(row.get("value")), _num(row.get("stddev")), _num(row.get("samples"))
    )
    if ci is None or not ci[0] <= 0.0 <= ci[1]:
        return None
    reach = max(-ci[0], ci[1])
    return reach if reach < scale else None


def zero_row(row: MutableMapping[str, Any]) -> bool:
    """The row is read as a measurement of zero: an Eq. 6 row whose only fault is its interval
    (unresolved, or the "a time is above zero" bound a difference of two means can cross)."""
    if zero_within(row) is None:
        return False
    parts = [
        p
        for p in (row.get("note") or "").split("; ")
        if p.startswith((bounds.UNRESOLVED, "outside physical bound"))
    ]
    return row.get("status") == "ok" or all(
        p.startswith(bounds.UNRESOLVED) or bounds.POSITIVE_WHY in p for p in parts
    )


class Fig:
    """One figure: its row, value, spread (stddev), error (what the margin uses) and flags."""

    def __init__(self, row: MutableMapping[str, Any]) -> None:
        self.row = row
        self.value = float(row["value"])
        s = _num(row.get("stddev"))
        if s != s:
            s = _num(row.get("cv")) * abs(self.value)
        self.spread = s if s == s else 0.0
        n = _num(row.get("samples"))
        factor = STANDARD_ERROR_FACTOR.get(gbcsv.statistic(row) if "technique" in row else "")
        self.standard_error = factor is not None and n >= 2 and self.spread > 0
        self.error = self.spread * factor / math.sqrt(n) if self.standard_error else self.spread  # type: ignore[operator]  # factor: not None where standard_error
        self.zero = zero_within(row) if zero_row(row) else None
        # a zero's cv (stddev over a value near zero) says nothing of its noise
        self.noisy = "" if self.zero is not None else gbcsv.noisy_reason(row)
        self.excluded = None if self.zero is not None else EXCLUDED(row)
        lo, hi, n_gpus = row.get("_gpus_range") or (self.value, self.value, 1)
        self.gpus = (lo, hi, n_gpus)

    @property
    def gpu_spread(self) -> float:
        """How far the GPUs of this figure's machine that measured it apart differ (0: one)."""
        return self.gpus[1] - self.gpus[0]


def _matches(r: MutableMapping[str, Any], method: str, metric: str, axes: dict[str, Any]) -> bool:
    """The row is of `method` and `metric` and has the `axes` (reports.common.matches), an axis
    the row lacks counting as its default (DEFAULTS)."""
    if r["method"] != method or r["metric"] != metric:
        return False
    cfg = gbcsv.config_axes(r)
    absent = {k for k in axes if k in DEFAULTS and cfg.get(k, r.get(k, "")) in ("", None)}
    return all(str(axes[k]) == DEFAULTS[k] for k in absent) and common.matches(
        r, **{k: v for k, v in axes.items() if k not in absent}
    )


# Axis values a row that lacks the axis had (rows written before the axis existed).
DEFAULTS = {
    "launch": "0",
    "cache": "1",
    "part": "0",
    "fault": "0",
    "host_wait": "0",
    "impl": "0",
    "variant": "0",
}


class Scope:
    """The rows one verdict may use (one machine; preferably one run)."""

    def __init__(self, rows: list) -> None:
        # skipped rows say why a point did not run (a refused launch); no figure of theirs
        self.skipped = [r for r in rows if r["status"] == "skipped"]
        self.all_rows = [r for r in rows if r["status"] != "skipped"]
        rows = self.all_rows
        # ok rows, and Eq. 6 rows that measured zero (zero_row)
        self.rows = [r for r in rows if r["status"] == "ok" or zero_row(r)]
        self.found = 0  # figures found so far: how far a claim got before a figure was missing

    def fig(self, method: str, metric: str, **axes: Any) -> Fig:
        hits = [r for r in self.rows if _matches(r, method, metric, axes)]
        if not hits:
            want = " ".join(f"{k}={v}" for k, v in axes.items())
            raise Missing(f"{method} {metric} {want}".strip())
        self.found += 1
        return Fig(max(hits, key=lambda r: (r["timestamp"], r["_line"])))

    def values(self, method: str, metric: str, axis: str, **axes: Any) -> dict:
        """{axis value: Fig} over every value of `axis` measured."""
        out = {}
        for r in self.rows:
            if _matches(r, method, metric, axes) and axis in gbcsv.config_axes(r):
                out.setdefault(gbcsv.config_axes(r)[axis], []).append(r)
        self.found += bool(out)
        return {k: Fig(max(v, key=lambda r: (r["timestamp"], r["_line"]))) for k, v in out.items()}


class Outcome:
    """The figures' text, the checks [(True | False | None, what)], the figures the checks used,
    the rows the figures came from (default: those of `figs`), the figures left out of the checks
    (text: which and why), the magnitude words tested, and whether the claim is an extension of
    the study (its verdict at most inconclusive)."""

    def __init__(
        self,
        figures: str,
        checks: list[tuple[bool | None, str]],
        figs: list[Fig],
        sources: list | None = None,
        left_out: Iterable[str] = (),
        words: Iterable[str] = (),
        extension: bool = False,
    ) -> None:
        self.figures, self.checks, self.figs = figures, checks, figs
        self.sources = sources if sources is not None else [f.row for f in figs]
        self.left_out, self.words, self.extension = list(left_out), list(words), extension


def floor_of(f: Fig) -> float:
    """The run-to-run floor (a fraction) of the figure's technique: what two runs of one build on
    one machine differ by (cli/compare.py, measured from the committed repeat runs)."""
    from . import comparison as compare

    floors = compare.default_floors()
    return floors.get(f.row.get("technique", ""), floors["other"])


def margin_parts(a: Fig, b: Fig) -> tuple:
    """(statistical, floor, between GPUs) parts of the margin of a against b."""
    return (
        2 * (a.error + b.error),
        max(floor_of(a), floor_of(b)) * min(abs(a.value), abs(b.value)),
        a.gpu_spread + b.gpu_spread,
    )


def margin(a: Fig, b: Fig) -> float:
    """The difference two figures must exceed to differ: twice their summed errors, at least the
    larger run-to-run floor of their techniques, plus the spread between GPUs of one machine."""
    stat, floor, gpus = margin_parts(a, b)
    return max(stat, floor) + gpus


def margin_basis(figs: list) -> str:
    """What set the margins of these figures: "standard errors" (or "stddevs" for a figure with
    no sample count), "the run-to-run floor (X%) where larger", "+ the spread between the
    machine's GPUs" where that took part."""
    errors, floor, gpus = set(), 0.0, False
    for f in figs:
        for g in figs:
            if f is g:
                continue
            stat, fl, spread = margin_parts(f, g)
            errors.update("standard errors" if h.standard_error else "stddevs" for h in (f, g))
            if fl > stat:
                floor = max(floor, max(floor_of(f), floor_of(g)))
            gpus = gpus or spread > 0
    text = (
        "standard errors, stddevs where a figure gives no standard error"
        if len(errors) == 2
        else next(iter(errors), "")
    )
    if floor:
        text += f"; the run-to-run floor ({100 * floor:.1f}%) where larger"
    if gpus:
        text += "; + the spread between the machine's GPUs"
    return text


def less(a: Fig, b: Fig, what: str) -> tuple:
    """(result, text) of the claim a < b: True when b - a exceeds the margin, False when a - b
    does, None when the difference is within it (no claim of a difference is refuted by a
    difference too small to tell)."""
    d = b.value - a.value
    m = margin(a, b)
    return (True if d > m else False if -d > m else None), what


def about(a: Fig, b: Fig, tol: float, what: str) -> tuple:
    d = abs(a.value - b.value)
    rel = d / min(abs(a.value), abs(b.value))
    return (True if rel <= tol else False if d > margin(a, b) else None), what


def flat(figs: list, tol: float, what: str) -> tuple:
    lo, hi = min(figs, key=lambda f: f.value), max(figs, key=lambda f: f.value)
    rel = (hi.value - lo.value) / lo.value
    return (True if rel <= tol else False if hi.value - lo.value > margin(lo, hi) else None), what


# "slightly" (the study's "slightly better", "not so distinct"): the gap is at most this fraction
# of the smaller figure.
SLIGHTLY = 0.10


def slightly_less(a: Fig, b: Fig, what: str) -> tuple | tuple[bool, str]:
    """(result, text) of "a is slightly below b": a < b (less) and the gap at most SLIGHTLY of
    a; fails when a is above b or when the gap is larger than SLIGHTLY beyond the margin."""
    ok, _ = less(a, b, what)
    gap = (b.value - a.value) / abs(a.value)
    if ok is False:
        return False, what
    if gap - SLIGHTLY > 0 and b.value - a.value - SLIGHTLY * abs(a.value) > margin(a, b):
        return (
            False,
            f"{what}: not slightly ({100 * gap:.0f}% apart, more than {100 * SLIGHTLY:.0f}%)",
        )
    return ok, what


def verdict(out: Outcome) -> tuple[str, str]:
    """(verdict, why) of an Outcome: see the module's rules. `out.extension` caps it at
    inconclusive; `out.left_out` and `out.words` are named."""
    excluded = sorted({f"{f.row['method']}: {f.excluded}" for f in out.figs if f.excluded})
    noisy = sorted({f"{f.row['method']}: {f.noisy}" for f in out.figs if f.noisy})
    results = [ok for ok, _ in out.checks]
    failed = [what for ok, what in out.checks if ok is False]
    notes = []
    if getattr(out, "left_out", None):
        notes.append("left out: " + "; ".join(out.left_out))
    if getattr(out, "words", None):
        notes.append("tested " + ", ".join(f"\"{w}\"" for w in out.words))
    apart = sorted(
        {
            f"{f.row['method']} {f.gpus[0]:.4g}-{f.gpus[1]:.4g} {f.row.get('unit', '')}"
            f" over the machine's {f.gpus[2]} GPUs"
            for f in out.figs
            if f.gpu_spread
        }
    )
    if apart:
        notes.append("GPUs of one machine apart: " + "; ".join(apart[:2]))
    basis = margin_basis(out.figs) if len(out.figs) > 1 else ""
    if basis:
        notes.append(f"margin: {basis}")
    if excluded:
        v, why = "inconclusive", "excluded: " + "; ".join(excluded[:2])
    elif failed:
        v, why = "refuted", "fails: " + ", ".join(failed[:4])
    elif any(ok is None for ok in results):
        within = [what for ok, what in out.checks if ok is None]
        v, why = (
            "inconclusive",
            ("noisy: " + "; ".join(noisy[:2]) + "; " if noisy else "")
            + "within the spread: "
            + ", ".join(within[:4]),
        )
    else:
        v, why = "confirmed", ""
    if noisy and v != "inconclusive":
        notes.append("noisy figures decided beyond their margin: " + "; ".join(noisy[:2]))
    if getattr(out, "extension", False) and v in ("confirmed", "refuted"):
        why = (
            f"an extension, not a conclusion of the study: at most inconclusive ({v} by its "
            f"own check{': ' + why if why else ''})"
        )
        v = "inconclusive"
    return v, "; ".join(t for t in [why] + notes if t)

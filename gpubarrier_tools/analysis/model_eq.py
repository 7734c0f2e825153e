"""The study's performance model, the study's section 7.1 (Eqs. 1-5), as functions.

A configuration ("basic": one thread, one warp, one block, one GPU; "more": more of them) is a
latency T and a throughput Thr. Little's law gives its concurrency, C = T x Thr (Eq. 1). Reading N
bytes takes T + max(0, N - C) / Thr, and "more" pays its synchronisation T_sync on top (Eq. 3:
T_more = T + T_sync). "more" wins once

    T_basic + max(0, N - C_basic) / Thr_basic  >  T_more + T_sync + max(0, N - C_more) / Thr_more

(Eq. 2). switch_point() solves that for N exactly: both sides are piecewise linear in N with
breaks at the two concurrencies. With one latency T for both sides, as the study assumes, the
answer is Eq. 4, N = (T + T_sync) x Thr_basic, when it lies between C_basic and C_more (the
study's scenario 2), and Eq. 5, N = T_sync x Thr_more x Thr_basic / (Thr_more - Thr_basic), above
C_more (scenario 3). Below C_basic (scenario 1) "basic" always wins.

Units are the caller's: B/cycle and cycles give bytes, as do B/ns (GB/s) and ns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Side:
    """One configuration: latency T and throughput Thr, in consistent units."""

    latency: float
    throughput: float

    def concurrency(self) -> float:
        """Eq. 1: C = T x Thr."""
        return self.latency * self.throughput

    def time(self, n: float, extra: float = 0.0) -> float:
        """The time to read n bytes (a term of Eq. 2), plus `extra` (T_sync for "more")."""
        return self.latency + extra + max(0.0, n - self.concurrency()) / self.throughput


@dataclass(frozen=True)
class SwitchPoint:
    """Where "more" starts to win: n (None when it never does), and which equation that is."""

    n: float | None
    equation: str
    scenario: str


def _equation(n: float, basic: Side, more: Side) -> tuple[str, str]:
    """The study's name for a switch point at n: Eq. 4 or 5 where both sides share T."""
    same_t = math.isclose(basic.latency, more.latency, rel_tol=1e-12)
    if n <= more.concurrency():
        return ("Eq. 4" if same_t else "Eq. 2"), "2: C_basic < N <= C_more"
    return ("Eq. 5" if same_t else "Eq. 2"), "3: N > C_more"


def switch_point(basic: Side, more: Side, t_sync: float) -> SwitchPoint:
    """The smallest N at which `more` (paying t_sync) is as fast as `basic` (Eq. 2 solved)."""
    if basic.throughput <= 0 or more.throughput <= 0:
        raise ValueError("throughputs must be positive")

    def gain(n: float) -> float:  # > 0 where "more" is faster
        return basic.time(n) - more.time(n, t_sync)

    if gain(0.0) >= 0:
        return SwitchPoint(0.0, "Eq. 2", "more is never slower")
    breaks = sorted({0.0, basic.concurrency(), more.concurrency()})
    for lo, hi in zip(breaks, breaks[1:] + [math.inf]):
        probe = lo + 1.0 if math.isinf(hi) else (lo + hi) / 2
        slope = (gain(probe) - gain(lo)) / (probe - lo)
        if slope <= 0:
            continue
        n = lo - gain(lo) / slope
        if n <= hi:
            equation, scenario = _equation(n, basic, more)
            return SwitchPoint(n, equation, scenario)
    return SwitchPoint(None, "Eq. 2", "never: Thr_more <= Thr_basic, so more never catches up")


def eq5(t_sync: float, thr_basic: float, thr_more: float) -> float:
    """Eq. 5 as printed, for checking switch_point against the study's own arithmetic."""
    return t_sync * thr_more * thr_basic / (thr_more - thr_basic)


@dataclass(frozen=True)
class Crossing:
    """A measured switch point: n, or a bound on it (bound "<=": "more" already won at the
    smallest size measured, n; ">": it never won up to the largest, n; "": interpolated)."""

    n: float
    bound: str = ""


def crossing(basic_curve: dict, more_curve: dict) -> Crossing | None:
    """The measured switch point: where the two latency curves (dicts size -> latency) cross,
    linearly interpolated between the sizes both were measured at; the first change from
    "basic faster" to "more faster" counts. None when they share no size."""
    sizes = sorted(set(basic_curve) & set(more_curve))
    if not sizes:
        return None
    gains = [(s, basic_curve[s] - more_curve[s]) for s in sizes]  # > 0: more is faster
    if gains[0][1] > 0:
        return Crossing(float(sizes[0]), "<=")
    for (s0, g0), (s1, g1) in zip(gains, gains[1:]):
        if g1 > 0:
            return Crossing(s0 + (s1 - s0) * (-g0) / (g1 - g0))
    return Crossing(float(sizes[-1]), ">")

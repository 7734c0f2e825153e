"""Physical bounds of the figures: a row outside them is not a measurement of what it claims.

Three kinds, applied by gbcsv.load to every row it reads (so that no table, model or answer
uses such a row): the row's status becomes `unverified` and its note starts with
"outside physical bound: ...", naming the bound.

- Static bounds, stated by each method (MethodInfo::bounds): every time-like figure is above
  zero; one dependent shared-memory load takes at least one cycle; and so on. The executable
  applies them as it writes rows and states them in its schema (`gpubarrier --json schema`,
  "bounds", committed as gpubarrier_tools/data/schema.json); TIME_METRICS and STATIC are read from there, for
  rows written before the executable applied them.
- Every figure is a finite number: NaN and infinity are no measurement (gbcsv.load refuses a file
  that holds one; apply marks such a row for any other caller).
- Bounds against the hardware and the same run (rows of one run_id in one file):
  * no reduction reads an array from DRAM faster than the GPU's theoretical DRAM bandwidth
    (DRAM_PEAK_GBS, times the GPU count for a reduction over several GPUs), where the row reads
    from DRAM: cold rows (config cache=0) and arrays larger than four times the largest L2
    (L2_RESIDENT_BYTES). A warm array that fits in L2 is read from L2, faster than DRAM: such
    rows say `warm` and are never compared with the DRAM peak;
  * no barrier across GPUs completes faster than one one-way signal between two of its GPUs,
    `multigpu.floor.signal` `one_way_latency`, the fastest ordering measured in the same run;
  * no cold reduction or copy (`reduction.*`) of 16 MiB and more reads the bytes between two
    consecutive sizes of the same run and configuration faster than the GPU's DRAM peak: the
    extra bytes over the extra time ((b2 - b1) x moved / (t2 - t1), median latencies) cancels
    what both sizes pay alike (launches, the last wave), so an array partly left in L2 by the
    eviction, or a size slowed by something else, shows even where each row's own bandwidth
    stays below the peak. Both sizes' rows are marked: which of the two is wrong, the pair
    cannot tell;
  * a clock figure in ns (`latency`, technique clock, with its `sm_clock_mhz`) is its
    `latency_cycles` twin at the measured clock: the cycle bounds apply to it in cycles.
- Unresolved figures (results/SCHEMA.md, "Unresolved figures"): a difference of two means
  (statistic eq6, eq7) whose 95% confidence interval, value +- t(0.975, n-1) x stddev / sqrt(n),
  includes zero measured nothing distinguishable from zero: status `unverified`, note part
  "unresolved: 95% interval LO..HI UNIT includes zero, below HI UNIT" (the bound it does
  establish). The executable writes the same part (src/core/resolution.hpp); here it is added to
  rows written before it did.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

from . import tool_main

SCHEMA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schema.json")


def stated(key: str, path: str = SCHEMA_FILE) -> Any:
    """The part `key` of the executable's schema (gpubarrier_tools/data/schema.json): what the methods state. A
    file without it is the one-line error of an incomplete tools folder (exit 2)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)[key]
    except (OSError, ValueError, KeyError, TypeError) as e:
        why = e.strerror if isinstance(e, OSError) else f"{type(e).__name__}: {e}"
        tool_main.fail(tool_main.InputError(
            f"cannot read '{key}' of {path} ({why}): write it with `gpubarrier --json schema > "
            f"{path}`"))


def _static_bounds(
    by_method: dict[str, Any],
) -> tuple[tuple[str, ...], str, dict[tuple[str, str], tuple[float | None, float | None, str]]]:
    """(TIME_METRICS, POSITIVE_WHY, STATIC) of the schema's "bounds": those of every method (a
    time is above zero), and each method's own."""
    every = by_method["every method"]
    static = {(method, b["metric"]): (b["min"], b["max"], b["why"])
              for method, own in by_method.items() if method != "every method" for b in own}
    return tuple(b["metric"] for b in every), every[0]["why"], static


# Metrics that time something: a figure of them at or below zero is impossible.
# (method, metric) -> (min, max, why) of the methods' own bounds; None for an open side.
TIME_METRICS, POSITIVE_WHY, STATIC = _static_bounds(stated("bounds"))

# The GPUs' theoretical DRAM bandwidth (GB/s): no array read from DRAM is summed or copied
# faster. By a substring of the CSV's gpu_model, with the source of each figure.
DRAM_PEAKS = [
    ("H100 80GB HBM3", 3352.0, "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM: 3.35 TB/s"),
    ("H100 NVL", 3938.0, "NVIDIA H100 Tensor Core GPU datasheet, H100 NVL: 3.9 TB/s"),
    ("H100 PCIe", 2039.0, "NVIDIA H100 Tensor Core GPU datasheet, H100 PCIe: 2 TB/s"),
    ("H200", 4800.0, "NVIDIA H200 Tensor Core GPU datasheet: 4.8 TB/s"),
]
DRAM_PEAK_GBS = [(part, peak) for part, peak, _ in DRAM_PEAKS]
# The consecutive-sizes check starts at this size (bytes of the smaller one): below it a
# reduction's time is mostly launches and its last wave, and the difference of two medians is
# within the events' resolution (about 0.5 us).
INCREMENT_FROM_BYTES = 16 << 20
# Bytes a method moves per byte of its array (reduction.copy reads and writes it).
MOVED_PER_BYTE = {"reduction.copy": 2}
PEAK_TOLERANCE = 0.02
L2_RESIDENT_BYTES = 4 * 60 * 1000 * 1000  # four times the largest L2 here (H200: 60 MB)
SIGNAL = ("multigpu.floor.signal", "one_way_latency")
SIGNAL_TOLERANCE = 0.05


def _axes(row: Mapping[str, Any]) -> dict[str, str]:
    return dict(item.split("=", 1) for item in row.get("config", "").split() if "=" in item)


def _number(text: Any) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def _mark(row: MutableMapping[str, Any], text: str) -> None:
    row["status"] = "unverified"
    row["note"] = f"outside physical bound: {text}" + (f"; {row['note']}" if row["note"] else "")


def static_bounds(method: str, metric: str) -> list[tuple[float | None, float | None, str]]:
    """[(min, max, why)] the method states for the metric (the default for time metrics too)."""
    out: list[tuple[float | None, float | None, str]] = []
    if metric in TIME_METRICS:
        out.append((0.0, None, POSITIVE_WHY))
    if (method, metric) in STATIC:
        out.append(STATIC[(method, metric)])
    return out


def _check_static(row: Mapping[str, Any], value: float) -> str:
    for lo, hi, why in static_bounds(row["method"], row["metric"]):
        if lo is not None and (value < lo or (lo == 0.0 and value <= 0.0)):
            return f"{row['metric']} {value:.4g} below {lo:g} ({why})"
        if hi is not None and value > hi:
            return f"{row['metric']} {value:.4g} above {hi:g} ({why})"
    return _check_clock_twin(row, value)


def _check_clock_twin(row: Mapping[str, Any], value: float) -> str:
    """The latency_cycles bounds of the method applied to a clock `latency` (ns) row in cycles,
    at the row's measured SM clock (the executable does the same: core/bounds.hpp)."""
    mhz = _number(row.get("sm_clock_mhz"))
    if row["metric"] != "latency" or row.get("technique") != "clock" or not mhz > 0:
        return ""
    lo, _, why = STATIC.get((row["method"], "latency_cycles"), (None, None, ""))
    cycles = value * mhz / 1000.0
    if lo is not None and cycles < lo:
        return (f"latency {value:.4g} ns is {cycles:.4g} cycles at {mhz:g} MHz, below {lo:g} "
                f"({why})")
    return ""


def _reads_dram(row: Mapping[str, Any]) -> bool:
    axes = _axes(row)
    if axes.get("cache") == "0":
        return True
    return _number(axes.get("bytes")) > L2_RESIDENT_BYTES


def dram_peak(gpu_model: str) -> float | None:
    """The GPU model's theoretical DRAM bandwidth (GB/s), or None when not known here."""
    for part, peak in DRAM_PEAK_GBS:
        if part in gpu_model:
            return peak
    return None


# Unresolved figures: the note part that says so, and the statistics it judges (a difference of
# two means, which noise can put on either side of zero).
UNRESOLVED = "unresolved: "
DIFFERENCE_STATISTICS = {"eq6": "eq6", "eq7": "eq7"}
# rows without `statistic`; looked up with a row's technique, None where it has none
DIFFERENCE_BY_TECHNIQUE: dict[str | None, str] = {"fusion": "eq6", "differential": "eq7"}
# Student's t, two-sided 95%, for 1 to 3 degrees of freedom (from 4 on the expansion below is
# within 0.001 of the tables).
_T975_SMALL = {1: 12.7062, 2: 4.30265, 3: 3.18245}
_Z975 = 1.959963984540054


def t975(df: int) -> float:
    """Student's t quantile at 0.975 for `df` degrees of freedom (>= 1): the table for 1-3,
    else the Cornish-Fisher expansion in 1/df (src/core/resolution.cpp computes the same)."""
    if df in _T975_SMALL:
        return _T975_SMALL[df]
    z, v = _Z975, float(df)
    return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2) +
            (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3) +
            (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) /
            (92160 * v ** 4))


def interval95(value: float, stddev: float, samples: float) -> tuple[float, float] | None:
    """(lo, hi): the 95% confidence interval of a mean-based figure, value +- t x stddev /
    sqrt(samples); None without two samples or a finite spread."""
    if not (samples >= 2 and math.isfinite(value) and math.isfinite(stddev) and stddev >= 0):
        return None
    half = t975(int(samples) - 1) * stddev / math.sqrt(samples)
    return value - half, value + half


def unresolved_reason(row: Mapping[str, Any]) -> str:
    """Why the row's figure is not resolved ("95% interval -99.8..24.4 ns includes zero, below
    24.4 ns"), or "": a difference of two means (eq6, eq7) whose interval includes zero."""
    stat = row.get("statistic") or DIFFERENCE_BY_TECHNIQUE.get(row.get("technique"), "")
    if stat not in DIFFERENCE_STATISTICS:
        return ""
    ci = interval95(_number(row.get("value")), _number(row.get("stddev")),
                    _number(row.get("samples")))
    if ci is None or not ci[0] <= 0.0 <= ci[1]:
        return ""
    unit = row.get("unit", "")
    return f"95% interval {ci[0]:.3g}..{ci[1]:.3g} {unit} includes zero, below {ci[1]:.3g} {unit}"


def _note_parts(row: Mapping[str, Any]) -> list[str]:
    return row.get("note", "").split("; ") if row.get("note") else []


def _add_part(row: MutableMapping[str, Any], part: str) -> None:
    """Marks the row unverified and appends `part` as a note part of its own."""
    row["status"] = "unverified"
    row["note"] = f"{row['note']}; {part}" if row["note"] else part


def _moved(row: Mapping[str, Any]) -> float:
    """Bytes the row's method moves for its array of `bytes`."""
    return _number(_axes(row).get("bytes")) * MOVED_PER_BYTE.get(row["method"], 1)


def _standard_error(row: Mapping[str, Any]) -> float:
    """stddev / sqrt(samples) of the row's figure (0 where either is missing)."""
    sd, n = _number(row.get("stddev")), _number(row.get("samples"))
    return sd / math.sqrt(n) if sd >= 0 and n >= 1 else 0.0


def _increments(rows: Sequence[MutableMapping[str, Any]]) -> dict[int, str]:
    """{id(row): why} for the cold reduction rows (latency and bandwidth) of every pair of
    consecutive sizes from INCREMENT_FROM_BYTES up whose extra bytes were read faster than the
    GPU's DRAM peak (rows of one run, method, configuration but `bytes`, and GPUs)."""
    groups = {}
    for r in rows:
        if r["status"] != "ok" or not r["method"].startswith("reduction.") or \
                r["metric"] not in ("latency", "bandwidth") or _axes(r).get("cache") != "0":
            continue
        axes = _axes(r)
        nbytes = _number(axes.pop("bytes", None))
        if not nbytes >= INCREMENT_FROM_BYTES or not dram_peak(r["gpu_model"]):
            continue
        key = (r["run_id"], r["method"], tuple(sorted(axes.items())),
               r.get("gpu_uuids") or r.get("gpu_ids"), r["gpu_model"])
        groups.setdefault(key, {}).setdefault(nbytes, []).append(r)
    out = {}
    for (_, method, _, _, model), sizes in groups.items():
        order = sorted(sizes)
        times = {b: next(((_number(r["value"]), _standard_error(r)) for r in sizes[b]
                          if r["metric"] == "latency"), (math.nan, math.nan)) for b in order}
        for b1, b2 in zip(order, order[1:]):
            (t1, e1), (t2, e2) = times[b1], times[b2]
            if not (math.isfinite(t1) and math.isfinite(t2)):
                continue
            r1 = sizes[b1][0]
            gpus = int(_number(r1["gpu_count"])) if r1["gpu_count"].isdigit() else 1
            peak = dram_peak(model) * max(1, gpus)  # type: ignore[operator]  # not None: grouped above
            extra = _moved(sizes[b2][0]) - _moved(r1)
            # The slowest the extra bytes can have been read within the two medians' spread.
            longest = t2 - t1 + 2 * math.hypot(e1, e2)
            if longest > 0 and extra / longest <= peak * (1 + PEAK_TOLERANCE):
                continue
            rate = f"{extra / (t2 - t1):.4g} GB/s" if t2 > t1 else "in no time"
            why = (f"the {extra:.0f} B {method} moves more at {b2:.0f} B than at {b1:.0f} B took "
                   f"{t2 - t1:.4g} ns: {rate}, above the GPU's DRAM peak {peak:.4g} GB/s"
                   f"{f' ({gpus} GPUs)' if gpus > 1 else ''} beyond the two medians' spread "
                   f"(one size partly read from L2 after the eviction, or the other slowed)")
            for r in sizes[b1] + sizes[b2]:
                out.setdefault(id(r), why)
    return out


def _signals(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, Any], float]:
    """{(run_id, GPU set): the fastest one-way signal (ns) of the run between those GPUs}."""
    out = {}
    for r in rows:
        if r["status"] == "ok" and (r["method"], r["metric"]) == SIGNAL:
            v = _number(r["value"])
            key = (r["run_id"], r.get("gpu_uuids") or r.get("gpu_ids"))
            if v == v and v > 0:
                out[key] = min(out.get(key, math.inf), v)
    return out


def _barrier_across_gpus(row: Mapping[str, Any]) -> bool:
    return row["metric"] == "latency" and (row["method"].startswith("multigpu.") or
                                           row["method"].startswith("multinode.")) and \
        row["method"] != SIGNAL[0] and _axes(row).get("part", "0") == "0"


def _signal_of(row: Mapping[str, Any], signals: Mapping[tuple[str, Any], float]) -> float:
    """The run's fastest one-way signal between GPUs of the row (its own set, else any pair of
    the run whose GPUs it uses)."""
    mine = row.get("gpu_uuids") or row.get("gpu_ids")
    best = signals.get((row["run_id"], mine), math.inf)
    used = set(mine.split(","))  # type: ignore[union-attr]  # every row has gpu_ids
    for (run, gpus), v in signals.items():
        if run == row["run_id"] and set(gpus.split(",")) <= used:
            best = min(best, v)
    return best


def apply(rows: Sequence[MutableMapping[str, Any]]) -> Sequence[MutableMapping[str, Any]]:
    """Marks the rows (dicts of one file) outside a bound as `unverified`, in place; returns
    them."""
    signals = _signals(rows)
    increments = _increments(rows)
    for r in rows:
        if r["status"] != "ok":
            continue
        unresolved = unresolved_reason(r)
        if unresolved and not any(p.startswith(UNRESOLVED) for p in _note_parts(r)):
            _add_part(r, UNRESOLVED + unresolved)
        value = _number(r["value"])
        if not math.isfinite(value):
            if str(r["value"]).strip():  # NaN, inf: no measurement (gbcsv refuses such rows)
                _mark(r, f"{r['metric']} {r['value']} is not a finite number (NaN and infinity "
                         f"are not figures)")
            continue
        why = _check_static(r, value)
        if not why and r["metric"] == "bandwidth" and r["method"].startswith("reduction.") \
                and _reads_dram(r) and dram_peak(r["gpu_model"]):
            gpus = max(1, int(_number(r["gpu_count"]))) if r["gpu_count"].isdigit() else 1
            peak = dram_peak(r["gpu_model"]) * gpus  # type: ignore[operator]  # not None: tested above
            if value > peak * (1 + PEAK_TOLERANCE):
                why = (f"bandwidth {value:.4g} GB/s above the GPU's DRAM peak {peak:.4g} GB/s"
                       f"{f' ({gpus} GPUs)' if gpus > 1 else ''}: an array read from DRAM (cold, "
                       f"or larger than any L2) is not read faster")
        if not why and _barrier_across_gpus(r):
            signal = _signal_of(r, signals)
            if signal < math.inf and value < signal * (1 - SIGNAL_TOLERANCE):
                why = (f"latency {value:.4g} ns below the same run's one-way signal "
                       f"{signal:.4g} ns between its GPUs (multigpu.floor.signal): a barrier "
                       f"across GPUs takes at least one signal")
        if not why:
            why = increments.get(id(r), "")
        if why:
            _mark(r, why)
    return rows

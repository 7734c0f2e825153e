"""Physical bounds of the figures: a row outside them is not a measurement of what it claims.

Three kinds, applied by gbcsv.load to every row it reads (so that no table, model or answer
uses such a row): the row's status becomes `unverified` and its note starts with
"outside physical bound: ...", naming the bound.

- Static bounds, stated by each method (`gpubarrier list --json`, "bounds"): every time-like
  figure is above zero; one dependent shared-memory load takes at least one cycle; and so on.
  The executable applies them as it writes rows; STATIC repeats them here for rows written
  before it did (tests/cli/test_bounds.py checks that the two agree).
- Every figure is a finite number: NaN and infinity are no measurement (gbcsv.load refuses a file
  that holds one; apply marks such a row for any other caller).
- Bounds against the hardware and the same run (rows of one run_id in one file):
  * no reduction reads an array from DRAM faster than the GPU's theoretical DRAM bandwidth
    (DRAM_PEAK_GBS, times the GPU count for a reduction over several GPUs), where the row reads
    from DRAM: cold rows (config cache=0) and arrays larger than four times the largest L2
    (L2_RESIDENT_BYTES). A warm array that fits in L2 is read from L2, faster than DRAM: such
    rows say `warm` and are never compared with the DRAM peak;
  * no barrier across GPUs completes faster than one one-way signal between two of its GPUs,
    `multigpu.floor.signal` `one_way_latency`, the fastest ordering measured in the same run.
"""
import math

# Metrics that time something: a figure of them at or below zero is impossible.
TIME_METRICS = ("latency", "loop_latency", "latency_cycles", "launch_interval", "launch_overhead",
                "one_way_latency")

POSITIVE_WHY = "a time is above zero"

# (method, metric) -> (min, max, why); None for an open side. Mirrors the methods' bounds().
STATIC = {
    ("model.smem.stream", "latency_cycles"):
        (1.0, None, "a dependent shared-memory load takes at least one cycle"),
    ("model.smem.stream", "bandwidth_cycles"):
        (None, 128.0, "an SM's shared memory delivers at most 128 B per cycle"),
}

# The GPUs' theoretical DRAM bandwidth (GB/s, the vendor's data sheets): no array read from
# DRAM is summed or copied faster. By a substring of the CSV's gpu_model.
DRAM_PEAK_GBS = [("H100 80GB HBM3", 3352.0), ("H100 NVL", 3938.0), ("H100 PCIe", 2039.0),
                 ("H200", 4800.0)]
PEAK_TOLERANCE = 0.02
L2_RESIDENT_BYTES = 4 * 60 * 1000 * 1000  # four times the largest L2 here (H200: 60 MB)
SIGNAL = ("multigpu.floor.signal", "one_way_latency")
SIGNAL_TOLERANCE = 0.05


def _axes(row):
    return dict(item.split("=", 1) for item in row.get("config", "").split() if "=" in item)


def _number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


def _mark(row, text):
    row["status"] = "unverified"
    row["note"] = f"outside physical bound: {text}" + (f"; {row['note']}" if row["note"] else "")


def static_bounds(method, metric):
    """[(min, max, why)] the method states for the metric (the default for time metrics too)."""
    out = []
    if metric in TIME_METRICS:
        out.append((0.0, None, POSITIVE_WHY))
    if (method, metric) in STATIC:
        out.append(STATIC[(method, metric)])
    return out


def _check_static(row, value):
    for lo, hi, why in static_bounds(row["method"], row["metric"]):
        if lo is not None and (value < lo or (lo == 0.0 and value <= 0.0)):
            return f"{row['metric']} {value:.4g} below {lo:g} ({why})"
        if hi is not None and value > hi:
            return f"{row['metric']} {value:.4g} above {hi:g} ({why})"
    return ""


def _reads_dram(row):
    axes = _axes(row)
    if axes.get("cache") == "0":
        return True
    return _number(axes.get("bytes")) > L2_RESIDENT_BYTES


def dram_peak(gpu_model):
    """The GPU model's theoretical DRAM bandwidth (GB/s), or None when not known here."""
    for part, peak in DRAM_PEAK_GBS:
        if part in gpu_model:
            return peak
    return None


def _signals(rows):
    """{(run_id, GPU set): the fastest one-way signal (ns) of the run between those GPUs}."""
    out = {}
    for r in rows:
        if r["status"] == "ok" and (r["method"], r["metric"]) == SIGNAL:
            v = _number(r["value"])
            key = (r["run_id"], r.get("gpu_uuids") or r.get("gpu_ids"))
            if v == v and v > 0:
                out[key] = min(out.get(key, math.inf), v)
    return out


def _barrier_across_gpus(row):
    return row["metric"] == "latency" and (row["method"].startswith("multigpu.") or
                                           row["method"].startswith("multinode.")) and \
        row["method"] != SIGNAL[0] and _axes(row).get("part", "0") == "0"


def _signal_of(row, signals):
    """The run's fastest one-way signal between GPUs of the row (its own set, else any pair of
    the run whose GPUs it uses)."""
    mine = row.get("gpu_uuids") or row.get("gpu_ids")
    best = signals.get((row["run_id"], mine), math.inf)
    used = set(mine.split(","))
    for (run, gpus), v in signals.items():
        if run == row["run_id"] and set(gpus.split(",")) <= used:
            best = min(best, v)
    return best


def apply(rows):
    """Marks the rows (dicts of one file) outside a bound as `unverified`, in place; returns
    them."""
    signals = _signals(rows)
    for r in rows:
        if r["status"] != "ok":
            continue
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
            peak = dram_peak(r["gpu_model"]) * gpus
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
        if why:
            _mark(r, why)
    return rows

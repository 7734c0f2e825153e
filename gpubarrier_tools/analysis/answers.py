"""The answer first: per machine, per level and GPU count, the fastest verified
barrier (where none of the level is verified, the fastest ok one, marked "not verified"), its
latency, its ratio to the same run's composed floor, and every alternative's ratio to it.
`gpubarrier report DIR_OR_CSVS` (no table named) and `report answers` print it; the HTML page
(cli/html_report.py) opens with it, then a chart of what the rows can show
(render/answers_chart.py).
A machine with nothing to answer with gets one line that says why (the rows' statuses and
notes); every CSV gpubarrier wrote reports, exit 0.

A machine (data/machines.py): rows of one host and GPU model whose GPU UUID sets (gpu_uuids)
overlap; rows without UUIDs (schema before v3): one machine per host and GPU model; host-only
rows join their run's or their host's one machine. Verified: status ok and a note that starts with
"verified"; other ok rows (a method without a barrier check, such as host.omp.barrier, or a check
that could not run: note "not verified: WHY") answer only where no verified row of their level
and GPU count does, and are alternatives, marked, beside verified ones; rows of status
`unverified` (the check failed) never answer. A noisy row (results/SCHEMA.md "Noisy figures") is
flagged, and a method's figure is its fastest verified row that is not noisy where it has one.
Figures are `latency` (ns; host methods' `loop_latency` where the point has one) and
`latency_cycles` (cycles), which count only where the point has no ns row: in ns with the row's
sm_clock_mhz, else kept apart in cycles; never `interval` or `loop_interval` (calls issued back to
back, such as NCCL's blocking=back-to-back: no barrier's latency). Levels are the CSV's `level`,
except host-initiated methods (host.*) of the multi-gpu level, which are "multi-GPU host-side".
A multi-GPU or multi-node method on one GPU is a barrier of one member, no comparison between
GPUs: its GPUs cell reads "1 (the gather alone)" and a line under the table says what that is.
Each method names its team where the GPUs column does not: the threads or ranks of a host-only
barrier, the nodes of a run on several ("`host.omp.barrier` on 2 threads").
The floor (analysis/floor.py): a multi-GPU device barrier's cheapest
verified grid barrier at its shape + one-way signal of the same run, the ratio naming the grid
barrier; other levels have none.
"""

from __future__ import annotations

import collections
import re
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any

from ..data import gbcsv
from ..data.machines import machines  # [(label, rows)]; html_report reads it as answers.machines
from ..data.tables import Table
from . import floor as floor_of
from .reports.common import point_of

# Level keys in the order the table shows them, with their names.
LEVELS = [
    ("warp", "warp"),
    ("block", "block"),
    ("cluster", "cluster"),
    ("grid", "grid"),
    ("kernel", "kernel boundary"),
    ("multi-gpu", "multi-GPU device-side"),
    ("multi-gpu-host", "multi-GPU host-side"),
    ("multi-node", "multi-node"),
    ("host", "host (CPU only)"),
]
LEVEL_NAME = dict(LEVELS)
# Rows of these methods time something else than a barrier (a reduction, a memory stream, the
# floor's own signal, the self-check): not candidates for an answer.
NOT_BARRIERS = ("reduction.", "model.", "selfcheck.", floor_of.SIGNAL, "gpu.warp.reduce")
HEADER = [
    "level",
    "GPUs",
    "fastest verified",
    "latency",
    "latency / floor",
    "alternatives (latency / fastest)",
]
# The header of a table where some answer is not verified.
HEADER_UNVERIFIED = HEADER[:2] + ["fastest (verified first)"] + HEADER[3:]
NOT_VERIFIED = "not verified: "
# Levels whose barrier is between GPUs: at one GPU, one member (GATHER_ALONE).
BETWEEN_GPUS = ("multi-gpu", "multi-gpu-host", "multi-node")
GATHER_ALONE = "the gather alone"
GATHER_ALONE_LEGEND = (
    f"1 ({GATHER_ALONE}): a barrier between GPUs run on one GPU has one member, "
    "so its figure is that member's own gather (its GPU's blocks, or its host's "
    "wait for its stream), not a barrier between GPUs; no comparison."
)


def header(found: list) -> list:
    return HEADER if all(a["verified"] for a in found) else HEADER_UNVERIFIED


def verified(r: MutableMapping[str, Any]) -> bool:
    return r["status"] == "ok" and r["note"].startswith("verified")


def unverified_why(r: MutableMapping[str, Any]) -> str:
    """Why an ok row is not verified: its note's "not verified: WHY" part, else what its note
    lacks."""
    note = r["note"]
    if NOT_VERIFIED in note:
        return note.split(NOT_VERIFIED, 1)[1].split("; ")[0].strip()
    return "its note records no barrier check"


def noisy(r: MutableMapping[str, Any]) -> bool:
    return bool(gbcsv.noisy_reason(r))


def marks(is_verified: bool, is_noisy: bool) -> str:
    """The words after a method's name: " (not verified, noisy)", " (noisy)", ... or ""."""
    words = ([] if is_verified else ["not verified"]) + (["noisy"] if is_noisy else [])
    return f" ({', '.join(words)})" if words else ""


def level_of(r: MutableMapping[str, Any]) -> str:
    if r["level"] == "multi-gpu" and r["method"].startswith("host."):
        return "multi-gpu-host"
    return r["level"] or "(none)"


def candidates(rows: list) -> list:
    """The ok latency rows that may answer (barriers only, no fault or phase rows; verified or
    not: verified(row) tells) as (row, value, unit) with ns rows in ns and cycles rows in ns where
    an SM clock is known."""
    rows = [r for r in rows if r["status"] == "ok" and not r["method"].startswith(NOT_BARRIERS)]
    has = collections.defaultdict(set)
    for r in rows:
        has[point_of(r)].add(r["metric"])
    out = []
    for r in rows:
        axes = gbcsv.config_axes(r)
        if axes.get("fault", "0") != "0" or axes.get("part", "0") != "0":
            continue
        m, unit, got = r["metric"], r["unit"], has[point_of(r)]
        if m == "latency" and "loop_latency" in got:
            continue  # host methods: the reference tools' convention is the headline
        if m not in ("latency", "loop_latency", "latency_cycles"):
            continue
        if m == "latency_cycles" and got & {"latency", "loop_latency"}:
            continue  # the same point in ns
        try:
            v = float(r["value"])
        except ValueError:
            continue
        if unit == "us":
            v, unit = v * 1000, "ns"
        elif unit == "cycles" and r.get("sm_clock_mhz"):
            try:
                v, unit = v * 1000 / float(r["sm_clock_mhz"]), "ns"
            except (ValueError, ZeroDivisionError):
                pass
        if unit in ("ns", "cycles"):
            out.append((r, v, unit))
    return out


def _count(r: MutableMapping[str, Any], col: str) -> int:
    text = str(r.get(col) or "")
    return int(text) if text.isdigit() else 0


def team(r: MutableMapping[str, Any]) -> str:
    """Who met at the barrier of row `r`, where the table's GPUs column does not say it: the
    threads or ranks of a host-only barrier ("2 threads", "4 ranks"), and the nodes of a run on
    several ("on 2 nodes", "on 2 simulated nodes" where ranks of one machine counted as nodes);
    "" for a GPU-level row on one node (its GPUs column is its team)."""
    words = []
    if _count(r, "gpu_count") == 0:
        if r["launcher"] == "mpi" and _count(r, "ranks"):
            words.append(_plural(_count(r, "ranks"), "rank"))
        else:
            threads = gbcsv.config_axes(r).get("group_size") or r.get("group_size") or ""
            if str(threads).isdigit():
                words.append(_plural(int(threads), "thread"))
    if _count(r, "nodes") > 1:
        # GPUBARRIER_TEST_RANKS_AS_NODES: ranks of one machine counted as nodes
        simulated = " simulated" if r.get("system", "").endswith("-simulated") else ""
        words.append(f"on {_count(r, 'nodes')}{simulated} nodes")
    return " ".join(words)


def with_team(label: str, r: MutableMapping[str, Any]) -> str:
    """A method's label with its team: "`host.omp.barrier` on 2 threads"."""
    who = team(r)
    if not who:
        return label
    return f"{label} {who}" if who.startswith("on ") else f"{label} on {who}"


def method_label(r: MutableMapping[str, Any]) -> str:
    """The method, with [graph] where its row is one block per GPU and one launch per barrier
    from a CUDA graph (a device barrier's launch=graph: another shape than its persistent whole-GPU
    rows, so it is answered apart) and [mpi] where it ran one MPI rank per GPU."""
    graph = floor_of.one_launch_per_barrier(r) and r["method"].startswith("multigpu.device.")
    return (
        r["method"] + (" [graph]" if graph else "") + (" [mpi]" if r["launcher"] == "mpi" else "")
    )


def _floor_index(rows: list) -> dict:
    """floors() items keyed by their barrier row's identity, for the ratio to the floor."""
    ok = [r for r in rows if r["status"] == "ok"]
    index = {}
    for item in floor_of.floors(ok):
        index[
            (item["file"], item["run_id"], item["config"], item["gpu_count"], item["latency"])
        ] = item
    return index


def floor_elsewhere(rows: list, r: MutableMapping[str, Any]) -> dict[str, Any] | None:
    """The composed floor of barrier row `r` from parts measured on its machine in other runs
    (the lowest verified grid barrier row at its shape on its GPUs + per GPU pair of its GPUs the
    lowest one-way signal at its ordering, the slowest pair counting) as {"floor", "grid_from",
    "signal" (None for one GPU)}, or None: for a run that lacks its floor's parts."""
    ok = [x for x in rows if x["status"] == "ok"]
    shape = floor_of._shape(r)
    gpus = set(r["gpu_ids"].split(",")) if r["gpu_ids"] else set()
    grid = [
        (float(x["value"]), x["method"])
        for x in ok
        if floor_of.is_grid_barrier(x)
        and floor_of._shape(x) == shape
        and (not gpus or x["gpu_ids"] in gpus)
    ]
    if not grid:
        return None
    signal = None
    if len(gpus) > 1:
        want = floor_of.signal_ordering(r)
        pairs = {}
        for x in ok:
            if (
                x["method"] == floor_of.SIGNAL
                and x["metric"] == "one_way_latency"
                and gbcsv.config_axes(x).get("ordering") == want
                and set(x["gpu_ids"].split(",")) <= gpus
            ):
                pairs[x["gpu_ids"]] = min(pairs.get(x["gpu_ids"], float("inf")), float(x["value"]))
        if not pairs:
            return None
        signal = max(pairs.values())
    value, method = min(grid)
    return {"floor": value + (signal or 0.0), "grid_from": method, "signal": signal}


def floor_cell(
    value: float,
    floor: dict[str, Any],
    markup: Callable[[str], str] = lambda s: s,
    elsewhere: bool = False,
) -> str:
    """The ratio of `value` to a floor (a floors() item or floor_elsewhere's dict), naming its
    grid barrier: "1.06 (`gpu.grid.count-epoch` + signal)"."""
    terms = markup(floor["grid_from"]) + (" + signal" if floor["signal"] is not None else "")
    where = "; floor's parts from other runs" if elsewhere else ""
    return f"{value / floor['floor']:.2f} ({terms}{where})"


def answers(rows: list) -> list:
    """One dict per (level, GPU count, unit) of one machine's rows: level, gpus, unit, best
    (method label, value, row, noisy, verified), floor item or None, alternatives [(label, value,
    noisy, verified)]: the verified ones by value, then the others by value. A method's figure is
    its verified row where it has one, then its rows that are not noisy, then the lowest."""
    floors = _floor_index(rows)
    best = {}  # (level, gpus, unit) -> {method label: ((unverified, noisy, value), value, row)}
    for r, v, unit in candidates(rows):
        key = (level_of(r), int(r["gpu_count"]) if r["gpu_count"].isdigit() else 0, unit)
        label = method_label(r)
        rank = (not verified(r), noisy(r), v)
        cur = best.setdefault(key, {}).get(label)
        if cur is None or rank < cur[0]:
            best[key][label] = (rank, v, r)
    order = {k: i for i, (k, _) in enumerate(LEVELS)}
    out = []
    for key in sorted(best, key=lambda k: (order.get(k[0], len(order)), k[0], k[1], k[2])):
        # verified first: an unverified method answers only where no method is verified
        methods = sorted(best[key].items(), key=lambda kv: (kv[1][0][0], kv[1][1], kv[0]))
        (label, (_, v, r)), rest = methods[0], methods[1:]
        item = (
            floors.get((r["_file"], r["run_id"], r["config"], r["gpu_count"], v))
            if key[0] == "multi-gpu"
            else None
        )
        elsewhere = None
        if key[0] == "multi-gpu" and not (item and "floor" in item):
            elsewhere = floor_elsewhere(rows, r)
        out.append(
            {
                "level": key[0],
                "gpus": key[1],
                "unit": key[2],
                "method": label,
                "value": v,
                "row": r,
                "noisy": noisy(r),
                "verified": verified(r),
                "why": {lb: unverified_why(rr) for lb, (_, _, rr) in methods if not verified(rr)},
                "floor": item if item and "floor" in item else None,
                "floor_elsewhere": elsewhere,
                "floor_missing": item.get("missing") if item else None,
                "alternatives": [
                    (lb, val, noisy(rr), verified(rr), rr) for lb, (_, val, rr) in rest
                ],
            }
        )
    return out


def fmt_latency(v: float, unit: str) -> str:
    if unit == "cycles":
        return f"{v:.3g} cycles" if v < 1000 else f"{v:.0f} cycles"
    if v >= 1e6:
        return f"{v / 1e6:.3g} ms"
    if v >= 1000:
        return f"{v / 1000:.3g} µs"
    return f"{v:.3g} ns"


def cells(a: dict, markup: Callable[[str], str] = lambda s: s) -> list:
    """The text cells of one answer under HEADER; markup(method) wraps method names."""
    flag = marks(a["verified"], a["noisy"])
    if a["floor"]:
        ratio = floor_cell(a["floor"]["latency"], a["floor"], markup)
    elif a.get("floor_elsewhere"):
        ratio = floor_cell(a["value"], a["floor_elsewhere"], markup, elsewhere=True)
    elif a["level"] == "multi-gpu":
        ratio = "no floor measured"
    else:
        ratio = "-"
    alts = (
        ", ".join(
            with_team(markup(lb), rr) + f" {val / a['value']:.2f}×" + marks(ok, nz)
            for lb, val, nz, ok, rr in a["alternatives"]
        )
        or "none measured"
    )
    gpus = str(a["gpus"]) if a["gpus"] else "none"
    if one_member(a):
        gpus += f" ({GATHER_ALONE})"
    return [
        LEVEL_NAME.get(a["level"], a["level"]),
        gpus,
        with_team(markup(a["method"]), a["row"]) + flag,
        fmt_latency(a["value"], a["unit"]),
        ratio,
        alts,
    ]


def one_member(a: dict) -> bool:
    """Whether an answer is of a barrier between GPUs measured on one GPU."""
    return a["gpus"] == 1 and a["level"] in BETWEEN_GPUS


def legend(found: list, markup: Callable[[str], str] = lambda s: s) -> str:
    """The line under a table that shows methods not verified: each one and why ("" when every
    figure of the table is verified)."""
    why = {}
    for a in found:
        for label, text in a["why"].items():
            why.setdefault(text, [])
            if label not in why[text]:
                why[text].append(label)
    if not why:
        return ""
    return (
        "Not verified (status ok, no barrier check ran): "
        + "; ".join(
            f"{', '.join(markup(m) for m in labels)}: {text}" for text, labels in why.items()
        )
        + "."
    )


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def nothing(
    rows: list, markup: Callable[[str], str] = lambda s: s, reasons: int = 3, width: int = 160
) -> str:
    """One line for a machine without an answer: what its rows are (statuses) and why (their
    notes' first clauses, the most frequent first; where every row says something else, one
    example)."""
    ok = [r for r in rows if r["status"] == "ok"]
    parts = []
    if ok:
        methods = sorted({r["method"] for r in ok})
        more = f", +{len(methods) - 4} more" if len(methods) > 4 else ""
        parts.append(
            f"{_plural(len(ok), 'row')} ok, none a barrier's latency "
            f"({', '.join(markup(m) for m in methods[:4])}{more})"
        )
    known = ["skipped", "failed", "timeout", "unverified"]
    others = sorted({r["status"] for r in rows} - set(known) - {"ok"})
    for status in known + others:
        rs = [r for r in rows if r["status"] == status]
        if not rs:
            continue
        # One reason per first clause whatever its figures: "3 stale stamps" as "7 stale stamps"
        kinds = collections.defaultdict(list)
        for r in rs:
            text = r["note"].split("; ")[0].strip() or "no note"
            kinds[re.sub(r"\d+(\.\d+)?", "#", text)].append(text)
        notes = sorted(kinds.values(), key=lambda texts: -len(texts))
        many = [t for t in notes[:reasons] if len(t) > 1] or notes[:1]
        shown = "; ".join(
            f"{len(t)} × {t[0] if len(t[0]) <= width else t[0][:width] + '…'}"
            + (" (figures vary)" if len(set(t)) > 1 else "")
            for t in many
        )
        if len(notes) > len(many):
            shown += f"; {_plural(len(notes) - len(many), 'other reason')}"
        parts.append(f"{_plural(len(rs), 'row')} {status} ({shown})")
    lead = "No barrier latency to answer with" if ok else "Nothing measured"
    return f"{lead}: {'; '.join(parts)}."


def table(found: list) -> Table:
    """The Table of one machine's answers: method names as `code`, a noisy answer's row
    marked."""
    return Table(
        header(found),
        [cells(a, lambda s: f"`{s}`") for a in found],
        marks=["noisy" if a["noisy"] else "" for a in found],
    )


def report(rows: list) -> list:
    """The answers of every machine of `rows`: a heading and a table per machine (a legend under
    it where a figure is not verified), or a line saying why there is none; the items
    (data/tables.py), without a blank line at the end."""
    out: list[Table | str] = []
    code = lambda s: f"`{s}`"
    for label, rs in machines(rows):
        found = answers(rs)
        out += [f"### {label}", ""]
        if not found:
            out += [nothing(rs, code), ""]
            continue
        out += [table(found), ""]
        if legend(found):
            out += [legend(found, code), ""]
        if any(one_member(a) for a in found):
            out += [GATHER_ALONE_LEGEND, ""]
    while out and out[-1] == "":
        out.pop()
    return out


def chart_points(rows: list) -> tuple[dict, dict]:
    """({method label: {gpu count: best verified latency ns}}, {gpu count: lowest composed
    floor ns}) of one machine's multi-GPU device barriers by GPU count (host-side ones are in the
    table: at one GPU an NCCL all-reduce is no barrier and would set the scale)."""
    lines = collections.defaultdict(dict)
    found = [
        (r, v)
        for r, v, unit in candidates(rows)
        if unit == "ns" and level_of(r) == "multi-gpu" and r["gpu_count"].isdigit()
    ]
    checked = {method_label(r) for r, _ in found if verified(r)}
    for r, v in found:
        n, label = int(r["gpu_count"]), method_label(r)
        if label not in checked:  # a method without a verified row: its ok ones, marked
            label += " (not verified)"
        elif not verified(r):
            continue
        if noisy(r) and n in lines[label]:
            continue
        lines[label][n] = min(lines[label].get(n, float("inf")), v)
    return dict(lines), {n: v for n, (v, _) in floor_line(rows).items()}


def bar_groups(found: list) -> list:
    """[(group name, level, gpus, [(method label, ns, verified, noisy, the figure as text)])] of
    the answers in ns: what render/answers_bars.py draws, one bar per method and group."""
    out = []
    for a in found:
        if a["unit"] != "ns":
            continue
        n = a["gpus"]
        name = (
            LEVEL_NAME.get(a["level"], a["level"])
            + (f", {n} GPU{'s' if n != 1 else ''}" if n else "")
            + (f" ({GATHER_ALONE})" if one_member(a) else "")
        )
        bars = [(a["method"], a["value"], a["verified"], a["noisy"])] + [
            (lb, v, ok, nz) for lb, v, nz, ok, _ in a["alternatives"]
        ]
        out.append((name, a["level"], n, [b + (fmt_latency(b[1], "ns"),) for b in bars]))
    return out


def chart(rows: list) -> dict:
    """What one machine's chart on the HTML page draws (render/answers_chart.py), from its rows:
    {"kind": "lines" (latency against GPU count) where its multi-GPU device barriers span two GPU
    counts or more, else "bars" (each method's figure of the answers table) where the table holds
    two figures or more, else None (one figure: the table says it all); "lines", "floor":
    chart_points; "floor_label": the floor's grid barriers; "bars", "bar_floors": bar_groups and
    the floor per GPU count, where the kind is "bars"}."""
    lines, floor = chart_points(rows)
    line = floor_line(rows)
    out: dict[str, Any] = {
        "lines": lines,
        "floor": floor,
        "bars": [],
        "bar_floors": {},
        "floor_label": "floor: " + floor_of.floor_terms(g for _, g in line.values()),
    }
    if len({n for pts in lines.values() for n in pts}) >= 2:
        out["kind"] = "lines"
        return out
    bars = bar_groups(answers(rows))
    out["kind"] = "bars" if sum(len(b) for *_, b in bars) >= 2 else None
    if out["kind"] == "bars":
        out["bars"] = bars
        out["bar_floors"] = {n: v for n, (v, _) in line.items()}
        out["floor_label"] = out["floor_label"] if line else ""
    return out


def floor_line(rows: list) -> dict:
    """{gpu count: (lowest composed floor ns, its grid barrier)} of one machine's multi-GPU device
    barriers: the same run's floors, and for counts without one the parts of other runs."""
    floor = {}
    for item in floor_of.floors([r for r in rows if r["status"] == "ok"]):
        if "floor" in item:
            n = int(item["gpu_count"])
            floor[n] = min(floor.get(n, (float("inf"), "")), (item["floor"], item["grid_from"]))
    for r, _v, unit in candidates(rows):  # counts without a same-run floor: parts of other runs
        if (
            level_of(r) == "multi-gpu"
            and r["gpu_count"].isdigit()
            and int(r["gpu_count"]) not in floor
            and unit == "ns"
        ):
            f = floor_elsewhere(rows, r)
            if f:
                n = -int(r["gpu_count"])
                floor[n] = min(floor.get(n, (float("inf"), "")), (f["floor"], f["grid_from"]))
    for n in [n for n in floor if n < 0]:
        floor[-n] = floor.pop(n)
    return floor


def main(argv: Sequence[str], load: Callable) -> list | list[str]:
    """`report answers CSV_OR_DIR...` (also `report DIR_OR_CSVS` with no table named)."""
    rows = load(argv, statuses=None)
    if not rows:  # the header alone: a run stopped before its first point was done
        return [
            f"No rows in {', '.join(argv)}: nothing was measured (the CSV holds its header "
            "only; a run writes each row as its point is done)."
        ]
    return report(rows)

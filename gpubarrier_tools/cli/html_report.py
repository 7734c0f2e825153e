#!/usr/bin/env python3
"""One self-contained HTML page of gpubarrier results, the answer first: per machine (host, GPU
model, GPU UUIDs) the answers table (analysis/answers.py: per level and GPU count the fastest
verified method, its ratio to the floor, the alternatives' ratios to it), the chart of latency
against GPU count, the topology, the provenance; then, folded, the floor table, the plots and
the tables per input and level. A comparison of inputs only with --baseline LABEL.

  python3 -m gpubarrier_tools.cli.html_report results/h200x2 --html h200x2.html
  gpubarrier report results/h100 results/h200 --html h100-vs-h200.html

Arguments are CSV files or directories; a directory is searched (recursively) for *.csv and for
topology.json / nvidia-smi-topo.txt / *.topology.json (also `<csv>.topology.json` beside a CSV
given), shown with the machine whose GPU UUIDs they name. CSVs of other kinds found in a
directory are not rows of the page: a reference check (scripts/reference-check) and a sanitizer
summary (scripts/gpu-sanitize) get a table of their own, the others (raw samples, anything else)
are listed with why they were skipped; without a gpubarrier CSV or such a table there is no page
(exit 2). The page needs nothing outside itself
(no CDN, no external CSS or script): it opens offline. All CSV text is HTML-escaped.
On load, a small inline script sets data-images-loaded / data-images on <body> (images with
pixels / all images) and data-tables / data-tables-all (tables with a data row / all tables),
which tests read from headless Chromium's DOM.
"""

from __future__ import annotations

import base64
import collections
import datetime
import glob
import html
import os
import tempfile
from collections import defaultdict
from collections.abc import MutableMapping, Sequence
from typing import Any

from .. import render
from ..analysis.reports.checks import sanitize
from ..analysis.reports.reference import reference
from ..data import gbcsv, output_files, tool_main, user_files
from ..data.tables import Html, Table

TOPO_FILES = ("nvidia-smi-topo.txt", "topology.json")

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em auto;
max-width:1200px;padding:0 1em;color:#222;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;
margin-top:1.8em}h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.85em}
th,td{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f2f2f2}td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.noisy td{background:#fff6e0}tr.bad td{background:#fde8e8}
pre{background:#f7f7f7;border:1px solid #ddd;padding:.6em;overflow-x:auto;font-size:.8em}
.note{color:#555;font-size:.9em}.meta td:first-child{font-weight:600;white-space:nowrap}
img{max-width:100%;height:auto;border:1px solid #eee;margin:.4em 0}
figure{margin:1em 0}figcaption{font-size:.85em;color:#444}
details{margin:.4em 0}summary{cursor:pointer;font-weight:600}
table.answers td.nw{white-space:nowrap}table.answers{font-size:.9em}
"""

SCRIPT = """
window.addEventListener("load", function () {
  var imgs = document.images, loaded = 0, i;
  for (i = 0; i < imgs.length; i++) {
    if (imgs[i].complete && imgs[i].naturalWidth > 0) loaded++;
  }
  var tables = document.getElementsByTagName("table"), withData = 0;
  for (i = 0; i < tables.length; i++) {
    if (tables[i].querySelector("tr > td")) withData++;
  }
  document.body.dataset.imagesLoaded = loaded;
  document.body.dataset.images = imgs.length;
  document.body.dataset.tables = withData;
  document.body.dataset.tablesAll = tables.length;
});
"""


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def find_inputs(args: Sequence[str]) -> tuple:
    """(gpubarrier CSV paths, topology files, [(path, kind, why)] of the other CSVs found in
    directories) from files and directories, in a stable order."""
    csvs, skipped = gbcsv.expand(args)  # a missing path raises CsvError
    topo = []
    for a in args:
        if os.path.isdir(a):
            for name in TOPO_FILES:
                topo += sorted(glob.glob(os.path.join(a, "**", name), recursive=True))
        else:
            for name in TOPO_FILES:
                beside = os.path.join(os.path.dirname(a) or ".", name)
                if os.path.isfile(beside):
                    topo.append(beside)
        for name in ("*.topology.json",):
            if os.path.isdir(a):
                topo += sorted(glob.glob(os.path.join(a, "**", name), recursive=True))
    for c in csvs:  # `<out>.topology.json` beside a CSV (out.csv.topology.json, out.topology.json)
        for beside in (c + ".topology.json", c[:-4] + ".topology.json"):
            if os.path.isfile(beside):
                topo.append(beside)
    topo = list(dict.fromkeys(topo))
    return csvs, topo, skipped


# CSVs of other kinds with a table of their own on the page: the report of them (analysis/reports/),
# its tables rendered as HTML (render/__init__.py).
OTHER_TABLES = {
    "reference-check": (
        "reference",
        "Reference check (scripts/reference-check): "
        "gpubarrier's host figures against the reference tools' "
        "conventions",
    ),
    "sanitize": ("sanitize", "Sanitizer summary (scripts/gpu-sanitize)"),
}
OTHER_TABLE_MODES = {"reference": reference, "sanitize": sanitize}


def other_tables(skipped: list[tuple[str, str, str]]) -> tuple[str, list]:
    """(HTML of the tables of reference checks and sanitizer summaries, [(path, why)] of the
    CSVs skipped after all)."""
    parts, left = [], []
    for path, kind, why in skipped:
        if kind not in OTHER_TABLES:
            left.append((path, why))
            continue
        mode, title = OTHER_TABLES[kind]
        try:
            items = OTHER_TABLE_MODES[mode]([path])
        except Exception as e:  # noqa: BLE001 (the file is skipped, saying why)
            left.append(
                (
                    path,
                    f"{why}; its table could not be made ({type(e).__name__}: "
                    f"{tool_main.one_line(e)})",
                )
            )
            continue
        parts.append(
            f"<h3>{esc(path)}</h3><p class=\"note\">{esc(title)}.</p>" + render.html(items)
        )
    return "\n".join(parts), left


def skipped_section(left: list[tuple[str, str]]) -> str:
    if not left:
        return ""
    items = "".join(f"<li><code>{esc(p)}</code>: {esc(why)}</li>" for p, why in left)
    return (
        f'<p class="note">Skipped {len(left)} CSV file{"s" if len(left) != 1 else ""} that '
        f"{'are' if len(left) != 1 else 'is'} not gpubarrier's (the page shows the rows of "
        f"gpubarrier CSVs):</p><ul class=\"note\">{items}</ul>"
    )


def values(rows: list, col: str) -> list:
    out = []
    for r in rows:
        v = r.get(col, "")
        if v and v not in out:
            out.append(v)
    return out


def recorded(rows: list, col: str, limit: int = 6) -> str:
    vals = values(rows, col)
    if not vals:
        return NOT_RECORDED
    text = ", ".join(esc(v) for v in vals[:limit])
    return text + (f" (+{len(vals) - limit} more)" if len(vals) > limit else "")


NOT_RECORDED = '<span class="note">not recorded</span>'


def provenance(rows: list, csvs: list[str]) -> str:
    stamps = sorted(r["timestamp"] for r in rows if r["timestamp"])
    items = [
        ("inputs", "<br>".join(esc(p) for p in csvs)),
        ("measured", esc(f"{stamps[0]} … {stamps[-1]}") if stamps else NOT_RECORDED),
        ("runs (run_id)", recorded(rows, "run_id", 4)),
        ("gpubarrier version", recorded(rows, "gpubarrier_version")),
        ("git sha", recorded(rows, "git_sha")),
        ("schema versions", recorded(rows, "schema_version")),
        ("system", recorded(rows, "system")),
        ("hosts / nodes", recorded(rows, "host") + " / " + recorded(rows, "node")),
        ("GPU models", recorded(rows, "gpu_model")),
        ("GPU UUIDs", recorded(rows, "gpu_uuids", 4)),
        ("topology classes", recorded(rows, "topology", 10)),
        ("NVIDIA driver", recorded(rows, "nvidia_driver")),
        (
            "CUDA driver API / runtime",
            recorded(rows, "driver") + " / " + recorded(rows, "cuda_runtime"),
        ),
        ("NCCL", recorded(rows, "nccl")),
        ("MPI", recorded(rows, "mpi")),
        ("SM clock (MHz)", recorded(rows, "sm_clock_mhz")),
    ]
    # The values are HTML already: the inputs one a line, "not recorded" muted.
    return render.html_table(
        Table(["what", "value"], [[k, Html(v)] for k, v in items]),
        css="meta",
        markup=False,
        head=False,
    )


def read_topology_json(path: str) -> dict | None:
    """The parsed `gpubarrier topo --json` file, or None where it cannot be read as one."""
    import json

    try:
        data = json.loads(user_files.read_text(path, "a `gpubarrier topo --json` file"))
    except (user_files.FileError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _clean(text: str) -> str:
    # nvidia-smi writes ANSI underlines; drop escape sequences.
    return "".join(
        ch for ch in text.replace("\x1b[4m", "").replace("\x1b[0m", "") if ch in "\n\t" or ch >= " "
    )


def cpu_facts(cpus: object) -> list[tuple[str, str]] | list:
    """The node's CPUs and NUMA nodes as `gpubarrier topo` prints them; none where not probed."""
    if not isinstance(cpus, dict) or not cpus.get("pus"):
        return []
    nodes = [n for n in cpus.get("numa_nodes") or [] if isinstance(n, dict)]
    return [
        ("CPUs", f"{cpus.get('pus')} ({cpus.get('cores')} cores): {cpus.get('list', '')}"),
        (
            "NUMA nodes",
            "; ".join(f"{n.get('index')}: CPUs {n.get('cpus', '')}" for n in nodes) or "unknown",
        ),
    ]


def topology_json_html(path: str, data: dict[str, Any], text: str) -> str:
    """The CPUs, NVLink groups, the class and the path matrix of a `gpubarrier topo --json` file;
    what it does not know is "unknown", as `gpubarrier topo` says."""
    gpus = [g for g in data.get("gpus", []) if isinstance(g, dict)]
    source = [("source", data.get("source", ""))]
    if not gpus:
        facts = source + cpu_facts(data.get("cpus")) + [("GPUs", "no GPU")]
    else:
        groups = data.get("nvlink_groups") or []
        gtext = (
            "; ".join(
                "GPUs " + ", ".join(str(g) for g in grp) for grp in groups if isinstance(grp, list)
            )
            or "none"
        )
        facts = (
            [
                ("topology class", data.get("topology_class", "")),
                ("NVLink groups", gtext),
                ("NVSwitch", {True: "yes", False: "no"}.get(data.get("nvswitch"), "unknown")),  # type: ignore[arg-type]
            ]
            + source
            + cpu_facts(data.get("cpus"))
            + [
                (
                    "GPUs",
                    "; ".join(
                        f"{g.get('index')}: {g.get('name', '')} "
                        f"{g.get('uuid', '')} (CPUs {g.get('cpu_affinity', '')})"
                        for g in gpus
                    ),
                )
            ]
        )
    out = [
        f"<p class=\"note\">{esc(path)} (<code>gpubarrier topo --json</code>)</p>",
        render.html_table(
            Table(["what", "value"], [[k, v] for k, v in facts if v != ""]),
            css="meta topo",
            markup=False,
            head=False,
        ),
    ]
    matrix = data.get("path")
    if isinstance(matrix, list) and matrix and all(isinstance(r, list) for r in matrix):
        out.append(
            render.html_table(
                Table(
                    [""] + [f"GPU{j}" for j in range(len(matrix))],
                    [[f"GPU{i}"] + row for i, row in enumerate(matrix)],
                ),
                css="matrix",
                markup=False,
                row_head=True,
            )
        )
    out.append(
        f"<details><summary>{esc(os.path.basename(path))}, the whole file ({len(text)} bytes)</summary>"
        f"<pre>{esc(text)}</pre></details>"
    )
    return "\n".join(out)


def topology_section(topo_files: list[str]) -> str:
    if not topo_files:
        return NO_TOPOLOGY
    parts = []
    for path in sorted(topo_files, key=lambda p: not p.endswith(".json")):  # the JSON first
        try:
            text = _clean(user_files.read_text(path, "a topology file", errors="replace"))
        except user_files.FileError as e:
            parts.append(f'<p class="note">{esc(str(e))}</p>')
            continue
        data = read_topology_json(path) if path.endswith(".json") else None
        if data is not None:
            parts.append(topology_json_html(path, data, text))
        else:
            parts.append(f'<p class="note">{esc(path)}</p><pre>{esc(text)}</pre>')
    return "\n".join(parts)


def fmt_value(text: str) -> str:
    try:
        v = float(text)
    except ValueError:
        return text
    if v == 0:
        return "0"
    if abs(v) >= 1e5 or abs(v) < 1e-3:
        return f"{v:.4g}"
    return f"{v:.4g}" if abs(v) < 100 else f"{v:.1f}"


def noisy(r: MutableMapping[str, Any]) -> list:
    """The row's noisy reasons (results/SCHEMA.md "Noisy figures", via gbcsv), as a list."""
    reason = gbcsv.noisy_reason(r)
    return [reason] if reason else []


# Notes longer than this are folded: their first words show, the whole note one click away.
NOTE_FOLD = 300


def note_cell(text: str) -> str:
    """A note whole, never cut: a long one folded (<details>) under its first words and the count
    of characters it holds, so that the table stays readable and nothing is lost."""
    if len(text) <= NOTE_FOLD:
        return text
    head = text[:NOTE_FOLD].rsplit(" ", 1)[0]
    return Html(
        f"<details><summary>{esc(head)} … ({len(text)} characters)</summary>{esc(text)}</details>"
    )


def row_note(r: MutableMapping[str, Any]) -> str:
    """The note of an ok, failed, ... row as the detailed tables show it: the row's note, its noisy
    reason said once (the note holds it from schema v3 on; before, the rule finds it)."""
    reasons = noisy(r) if r["status"] == "ok" else []
    note = r["note"] if r["note"] and (r["status"] != "ok" or r["note"] != "verified") else ""
    if reasons and "noisy: " not in r["note"]:
        note = "; ".join(["noisy: " + ", ".join(reasons)] + ([note] if note else []))
    return note_cell(note)


def level_tables(rows: list, path: str) -> str:
    """Tables per level of one input: ok figures, then the other statuses counted."""
    by_level = collections.defaultdict(list)
    for r in rows:
        by_level[r["level"] or "(none)"].append(r)
    order = [lv for lv in gbcsv.LEVELS if lv in by_level] + sorted(
        set(by_level) - set(gbcsv.LEVELS)
    )
    out = []
    for lv in order:
        rs = by_level[lv]
        counts = collections.Counter(r["status"] for r in rs)
        count_text = ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
        out.append(f"<h4>{esc(lv)} level <span class=\"note\">({esc(count_text)})</span></h4>")
        table = Table(LEVEL_HEADER, [], align_right=[2, 5, 7, 8])
        for r in rs:
            if r["status"] == "skipped":
                continue
            is_noisy = r["status"] == "ok" and noisy(r)
            table.marks.append("noisy" if is_noisy else "bad" if r["status"] != "ok" else "")
            table.rows.append(
                [
                    r["method"],
                    r["launcher"],
                    r["gpu_count"],
                    r["config"],
                    r["metric"],
                    r["value"],
                    r["unit"],
                    fmt_value(r["stddev"]),
                    r["samples"],
                    r["technique"],
                    r["status"],
                    row_note(r),
                ]
            )
        if table.rows:
            out.append(render.html_table(table, markup=False))
        skipped = collections.Counter(
            (r["method"], r["note"]) for r in rs if r["status"] == "skipped"
        )
        if skipped:
            sk = Table(
                ["method", "rows", "reason"],
                [[m, str(n), note_cell(note)] for (m, note), n in sorted(skipped.items())],
                align_right=[1],
            )
            out.append(
                "<details><summary>skipped configurations (cannot run there)</summary>"
                f"{render.html_table(sk, markup=False)}</details>"
            )
    return "\n".join(out)


# The columns of the tables per input and level: every row's own figures, as the CSV has them.
LEVEL_HEADER = [
    "method",
    "launcher",
    "GPUs",
    "config",
    "metric",
    "value",
    "unit",
    "stddev",
    "samples",
    "technique",
    "status",
    "note",
]


def floor_section(rows: list) -> str:
    """The floor table (analysis/floor.py) as HTML; empty where no barrier has its floor's parts."""
    from ..analysis import floor

    cells, _ = floor.floor_table(floor.floors([r for r in rows if r["status"] == "ok"]))
    if not cells:
        return ""
    return render.html_table(Table(floor.FLOOR_HEADER, cells), markup=False)


def comparison_html(res: dict) -> str:
    """A comparison (analysis/comparison.py parts) as an HTML fragment: its sides and its summary as
    lists, its tables (render/__init__.py) under their titles."""
    from ..analysis import comparison

    p = comparison.parts(res)
    out = ["<ul>" + "".join(f"<li>{esc(x)}</li>" for x in p["sides"]) + "</ul>"]
    out.append(
        render.html_table(p["table"]) if p["table"] else f"<p>{esc(comparison.NO_JOINED_KEY)}</p>"
    )
    for label, t in p["only"]:
        out += [
            f"<p><b>only in {esc(label)}</b> ({len(t.rows)} keys, no verdict):</p>",
            render.html_table(t),
        ]
    if p["floor"]:
        out += [f"<p><b>{esc(comparison.FLOOR_TITLE)}</b>:</p>", render.html_table(p["floor"])]
    out.append("<ul>" + "".join(f"<li>{esc(x)}</li>" for x in p["summary"]) + "</ul>")
    return "\n".join(out) + "\n"


def comparison_section(csvs: list[str]) -> str:
    """The comparison of the inputs (analysis/comparison.py) as HTML, or a note why there is none."""
    try:
        from ..analysis import comparison  # lazy: another tool, optional here
    except Exception as e:  # noqa: BLE001 (the page says why it has no comparison)
        return (
            f'<p class="note">The comparison table is not available: gpubarrier_tools/cli/compare.py '
            f'could not be used ({esc(type(e).__name__)}: {esc(e)}).</p>'
        )
    try:
        return f'<div class="compare">{comparison_html(comparison.compare(csvs))}</div>'
    except Exception as e:  # noqa: BLE001 (the page says why, as each of its forms would)
        why = f"{type(e).__name__}: {e}"
        return (
            '<p class="note">gpubarrier_tools/cli/compare.py could not compare these inputs: '
            + esc(f"html: {why}; markdown: {why}")[:2000]
            + "</p>"
        )


CAPTIONS = {
    "compare-bars": "Each method's latency per level at one configuration that every machine "
    "measured (named in the panel title or under the method); one bar per "
    "machine; error bars ±1 stddev of the samples.",
    "compare-ratio": "Latency of each method on each machine divided by the baseline machine's "
    "(first input); red is slower, blue faster, the baseline column shows its "
    "latency.",
    "compare-scaling": "Latency per barrier against the number of GPUs, one line per machine "
    "(dashed: one MPI rank per GPU).",
    "summary": "Best (lowest) latency of every method over all its configurations, log scale.",
    "scaling": "Each multi-GPU method's latency against the GPU count at 1 block/SM × 128 "
    "threads (solid: threads, dashed: MPI ranks).",
    "selfcheck": "Self-check: deviation of the differential from the clock technique.",
    "eq6-length": "The launch overhead by Eq. 6 (the study's section 9.2) against the shorter "
    "kernel's length, per GPU and launch, error bars the 95% interval: near zero "
    "the next launch is hidden behind the running kernel (no overhead left).",
}


def plots_section(
    csvs: list[str], baseline: str | None = None
) -> tuple[str, int] | tuple[str, int]:
    """The plots of cli/plot.py as base64 PNG <img>, or a note why there are none."""
    try:
        from . import plot  # needs matplotlib
    except ModuleNotFoundError as e:
        name = (e.name or "matplotlib").split(".")[0]
        return (
            f'<p class="note">No plots: gpubarrier_tools/cli/plot.py needs the Python module '
            f'<code>{esc(name)}</code>, which {esc(tool_main.interpreter())} (the Python '
            f'that wrote this page) cannot import: {esc(tool_main.missing_module_fix(name))}'
            f', then write the page again.</p>',
            0,
        )
    except Exception as e:  # noqa: BLE001 (the page says why it has no plots)
        return (
            f'<p class="note">No plots: gpubarrier_tools/cli/plot.py could not be loaded '
            f'({esc(type(e).__name__)}: {esc(e)}) by {esc(tool_main.interpreter())}.</p>',
            0,
        )
    with tempfile.TemporaryDirectory() as d:
        try:
            # Many files: no per-method plot (they would repeat the tables), repeats merged.
            only = "all" if len(csvs) <= 2 else "overview"
            made, _ = plot.make_plots(
                csvs,
                d,
                ["png"],
                baseline=baseline,
                only=only,
                split_repeats=len(csvs) <= 4,
                compare=baseline is not None,
            )
        except Exception as e:  # noqa: BLE001 (the page says why it has no plots)
            return f'<p class="note">No plots: {esc(type(e).__name__)}: {esc(e)}</p>', 0
        order = [
            "compare-bars",
            "compare-ratio",
            "compare-scaling",
            "summary",
            "scaling",
            "eq6-length",
            "selfcheck",
        ]

        def rank(p: str) -> tuple[int, str]:
            stem = os.path.basename(p)[:-4]
            return (order.index(stem) if stem in order else len(order), stem)

        figs = []
        for p in sorted((p for p in made if p.endswith(".png")), key=rank):
            stem = os.path.basename(p)[:-4]
            with open(p, "rb") as f:
                data = base64.b64encode(f.read()).decode("ascii")
            cap = CAPTIONS.get(
                stem,
                f"{stem}: latency (ns) against the swept axis, error bars ±1 stddev"
                if not stem.endswith("heatmap")
                else f"{stem}: latency (µs) over blocks per SM × threads per block",
            )
            figs.append(
                f'<figure><img alt="{esc(stem)}" src="data:image/png;base64,{data}">'
                f"<figcaption>{esc(cap)}</figcaption></figure>"
            )
        return "\n".join(figs), len(figs)


def csv_of_topology(path: str) -> bytes | str | None:
    """The CSV that `run --out X.csv` wrote beside `path` (X.csv.topology.json, X.topology.json),
    as an absolute path, or None for another name."""
    if not path.endswith(".topology.json"):
        return None
    stem = os.path.abspath(path[: -len(".topology.json")])
    return stem if stem.endswith(".csv") else stem + ".csv"


def machine_topology(machines: list[tuple[str, list]], topo: list[str]) -> tuple[defaultdict, list]:
    """{machine index: [topology files]} and the files matched to no machine: a JSON file goes to
    the machines whose GPU UUIDs it names, a `<csv>.topology.json` to the machines of that CSV's
    rows (a machine without GPUs too: its JSON names none), a file beside a matched JSON to the
    same machines; with a single machine of GPUs (else a single machine) every file is its
    own."""
    uuids = [{u for r in rs for u in r.get("gpu_uuids", "").split(",") if u} for _, rs in machines]
    files = [{os.path.abspath(r["_file"]) for r in rs} for _, rs in machines]
    gpu_machines = [i for i, (_, rs) in enumerate(machines) if any(r["gpu_model"] for r in rs)]
    if not gpu_machines and len(machines) == 1:
        gpu_machines = [0]
    mine = collections.defaultdict(list)
    by_dir = collections.defaultdict(set)
    for path in topo:
        info = read_topology_json(path) if path.endswith(".json") else None
        names = {g.get("uuid") for g in (info or {}).get("gpus", []) if isinstance(g, dict)}
        hit = [i for i, u in enumerate(uuids) if u & names] or [
            i for i, f in enumerate(files) if csv_of_topology(path) in f
        ]
        for i in hit:
            mine[i].append(path)
            by_dir[os.path.dirname(path)].add(i)
    left = []
    for path in topo:
        if any(path in v for v in mine.values()):
            continue
        near = by_dir.get(os.path.dirname(path))
        if near:
            for i in near:
                mine[i].append(path)
        elif len(gpu_machines) == 1:
            mine[gpu_machines[0]].append(path)
        else:
            left.append(path)
    return mine, left


def code_mark(text: str) -> str:
    """Marks a method name for code_html (answers' markup= hook)."""
    return f"\x00{text}\x01"


def code_html(text: str) -> str:
    """Escaped text whose code_mark parts are <code>."""
    return esc(text).replace("\x00", "<code>").replace("\x01", "</code>")


def answers_table(found: list, table_id: str) -> str:
    """The answers (analysis/answers.py) of one machine as an HTML table: the answers report's
    Table, its GPU count, latency and ratio to the floor aligned right, the first two kept on
    one line."""
    from ..analysis import answers

    return render.html_table(
        answers.table(found), css="answers", table_id=table_id, right=(1, 3, 4), nowrap=(1, 3)
    )


def machine_section(
    index: int,
    label: str,
    mrows: list,
    files: list[str],
    topo_files: list[str],
    topo_left: list[str],
) -> str:
    """One machine: its answers, its chart of latency against GPU count, its topology, its
    provenance."""
    from ..analysis import answers
    from ..render import answers_chart

    anchor = "answers" if index == 0 else f"answers-{index + 1}"
    parts = [f"<h2>{esc(label)}</h2>"]
    found = answers.answers(mrows)
    if found:
        parts += [
            '<p class="note">Per level and GPU count: the fastest verified method (status '
            "ok, note <code>verified</code>; where none of a level is, the fastest ok one, "
            "marked <em>not verified</em>; a noisy figure is marked and shaded), its "
            "latency, its ratio to the composed floor (multi-GPU device barriers: "
            "the cheapest verified grid barrier, named, + the one-way signal, "
            "gpubarrier_tools/analysis/floor.py) and each alternative's best "
            "as a ratio to it. <code>[mpi]</code>: one MPI rank per GPU; <code>[graph]</code>: "
            "one block per GPU and one launch per barrier from a CUDA graph.</p>",
            answers_table(found, anchor),
        ]
        if answers.legend(found):
            parts.append(f'<p class="note">{code_html(answers.legend(found, code_mark))}</p>')
    else:
        parts.append(
            f'<p class="note" id="{anchor}">{code_html(answers.nothing(mrows, code_mark))}</p>'
        )
    try:
        chart = answers.chart(mrows)
        kind = chart["kind"]
        png = answers_chart.chart_png(chart, label)
    except ModuleNotFoundError as e:
        png = None
        parts.append(
            f'<p class="note">No chart: the Python module <code>{esc(e.name)}</code> '
            f"is missing ({esc(tool_main.missing_module_fix(e.name or 'matplotlib'))})."
            "</p>"
        )
    if png and kind == "bars":
        data = base64.b64encode(png).decode("ascii")
        parts.append(
            '<figure><img alt="latency of each method, per level and GPU count" '
            f'src="data:image/png;base64,{data}"><figcaption>Each method of the answers '
            "table, its figure there, per level and GPU count (one GPU count: no line "
            "to draw against it); hatched: not verified; dashed: the composed floor of "
            "the multi-GPU device barriers, where measured.</figcaption></figure>"
        )
    elif png:
        data = base64.b64encode(png).decode("ascii")
        parts.append(
            f'<figure><img alt="latency against GPU count" '
            f'src="data:image/png;base64,{data}"><figcaption>Best verified latency of '
            "each multi-GPU barrier against the GPU count (dotted: MPI ranks); dashed: "
            "the composed floor, the cheapest verified grid barrier (named in the "
            "legend) + one-way signal (the lowest measured)."
            "</figcaption></figure>"
        )
    parts.append("<h3>Topology</h3>")
    if topo_files:
        parts.append(topology_section(topo_files))
    elif topo_left:
        parts.append(
            '<p class="note">No topology file names this machine\'s GPUs; the '
            "unmatched ones are listed after the machines.</p>"
        )
    else:
        parts.append(NO_TOPOLOGY)
    parts += ["<h3>Provenance</h3>", provenance(mrows, files)]
    return "\n".join(parts)


NO_TOPOLOGY = (
    '<p class="note">Topology not recorded: run <code>gpubarrier topo --json &gt; '
    "topology.json</code> beside the CSVs.</p>"
)


def pick_baseline(csvs: list[str], rows: list, baseline: str) -> list[str]:
    """The inputs reordered so that those of --baseline LABEL (a part of a file's path or of a
    machine's label) come first; InputError when LABEL matches none."""
    from ..analysis import answers

    files = [p for p in csvs if baseline in p]
    if not files:
        for label, rs in answers.machines(rows):
            if baseline in label:
                files = [p for p in csvs if p in {r["_file"] for r in rs}]
                break
    if not files:
        raise tool_main.InputError(
            f"--baseline {baseline}: no input file or machine label contains it"
        )
    return files + [p for p in csvs if p not in files]


def build(paths: list[str], title: str | None = None, baseline: str | None = None) -> str:
    csvs, topo, skipped = find_inputs(paths)
    others, left = other_tables(skipped)
    if not csvs and not others:
        raise gbcsv.no_csv_error(paths, skipped)
    title = title or "gpubarrier results: " + ", ".join(paths)
    if not csvs:
        return only_others(title, topo, others, left)
    from ..analysis import answers

    per_file = collections.OrderedDict((p, gbcsv.load_file(p)) for p in csvs)
    rows = [r for rs in per_file.values() for r in rs]
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    counts = collections.Counter(r["status"] for r in rows)
    machines = answers.machines(rows)
    mine, topo_left = machine_topology(machines, topo)
    parts = head(title) + [
        f'<p class="note">Generated {esc(now)} by gpubarrier_tools/cli/html_report.py from {len(csvs)} CSV '
        f'file{"s" if len(csvs) != 1 else ""} ({len(rows)} rows: '
        + esc(", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
        + f") of {len(machines)} machine{'s' if len(machines) != 1 else ''} (host, GPU model "
        "and GPU UUIDs). The answer first, one machine per section; the detailed tables last, "
        "folded. Figures are the CSV <code>value</code> column (results/SCHEMA.md): the median "
        "for clock and host-loop, Eq. 7 for differential.</p>"
    ]
    for i, (label, mrows) in enumerate(machines):
        files = [p for p in csvs if p in {r["_file"] for r in mrows}]
        parts.append(machine_section(i, label, mrows, files, mine.get(i, []), topo_left))
    if topo_left:
        parts += [
            "<h2>Topology files matched to no machine</h2>",
            '<p class="note">They name no GPU UUID of the rows (or there is no JSON '
            "beside them).</p>",
            topology_section(topo_left),
        ]
    if baseline:
        parts += [
            "<h2>Comparison</h2>",
            f'<p class="note">From gpubarrier_tools/cli/compare.py, against <code>{esc(baseline)}'
            "</code> (--baseline): its inputs first, then the others in the order given."
            "</p>",
            comparison_section(pick_baseline(csvs, rows, baseline)),
        ]
    # The details, last: each under its heading, folded.
    parts.append(skipped_section(left))
    floors = floor_section(rows)
    if floors:
        parts += [
            "<h2>Multi-GPU barriers at their floor</h2>",
            "<details><summary>per barrier, shape and ordering (same run)</summary>",
            '<p class="note">Each multi-GPU barrier over its composed floor from the same '
            "run: the cheapest verified grid barrier at its shape (the grid barrier "
            "column names it) + the one-way signal at its ordering (gpubarrier_tools/analysis/floor.py; "
            "configs/sweeps/floor.yaml measures them in one run).</p>",
            floors,
            "</details>",
        ]
    figs, n = plots_section(csvs, baseline)
    parts.append("<h2>Plots</h2>")
    if n:
        parts += [
            f"<details><summary>{n} plot{'s' if n != 1 else ''} of gpubarrier_tools/cli/plot.py</summary>",
            figs,
            "</details>",
        ]
    else:
        parts.append(figs or '<p class="note">No plots.</p>')
    if others:
        parts += [
            "<h2>Reference checks and sanitizer runs</h2>",
            "<details><summary>their tables</summary>",
            others,
            "</details>",
        ]
    parts += [
        "<h2>Tables per input and level</h2>",
        f"<details><summary>{len(per_file)} input{'s' if len(per_file) != 1 else ''}, "
        "every row</summary>",
    ]
    parts.append(
        '<p class="note">ok, failed, timeout and unverified rows; skipped ones counted '
        'with their reason. Shaded: noisy (results/SCHEMA.md, "Noisy figures": cv above '
        f'{gbcsv.NOISY_CV:g}, or above {gbcsv.NOISY_BUDGET_CV:g} when the time budget ran '
        'out, or a mean-based figure whose mean and median differ by more than '
        f'{100 * gbcsv.NOISY_MEAN_MEDIAN_GAP:g}%); red: not ok.</p>'
    )
    for p, rs in per_file.items():
        counts = collections.Counter(r["status"] for r in rs)
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no rows"
        parts.append(
            f"<details><summary>{esc(p)} <span class=\"note\">({esc(summary)})</span></summary>"
        )
        parts.append(level_tables(rs, p) if rs else '<p class="note">No rows.</p>')
        parts.append("</details>")
    parts += ["</details>", "</body></html>"]
    return "\n".join(parts) + "\n"


def head(title: str) -> list[str]:
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style>",
        f"<script>{SCRIPT}</script></head><body>",
        f"<h1>{esc(title)}</h1>",
    ]


def only_others(title: str, topo: list[str], others: str, left: list[tuple[str, str]]) -> str:
    """The page of a folder without gpubarrier CSVs that holds a reference check or a sanitizer
    summary (results/cpu2)."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts = head(title) + [
        f'<p class="note">Generated {esc(now)} by gpubarrier_tools/cli/html_report.py. The inputs hold no '
        "gpubarrier CSV: no provenance, plots or tables of gpubarrier rows.</p>",
        skipped_section(left),
        "<h2>Machine and topology</h2>",
        topology_section(topo),
        "<h2>Reference checks and sanitizer runs</h2>",
        others,
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def main(argv: Sequence[str]) -> int:
    ap = tool_main.ArgumentParser(
        prog="gpubarrier report --html", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("inputs", nargs="+", help="CSV files or folders of them")
    ap.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")
    ap.add_argument("--title", default=None, help="page title")
    ap.add_argument(
        "--baseline",
        default=None,
        help="compare the inputs against this one (a part of a file's path or of a "
        "machine's label): adds gpubarrier_tools/cli/compare.py's table and the comparison "
        "plots; without it the page compares nothing",
    )
    ap.add_argument(
        "--force",
        action="store_true",
        help="replace an --html file that already exists (default: refused)",
    )
    args = ap.parse_args(argv)
    tool_main.refuse_to_replace(args.html, "--html", args.force)
    page = build(args.inputs, args.title, args.baseline)  # CsvError: exit 2 (tool_main)
    output_files.write(args.html, page, replace_link=args.force)
    print(f"html_report: {args.html} ({len(page) // 1024} KiB)")
    return 0


if __name__ == "__main__":
    tool_main.run(main)

#!/usr/bin/env python3
"""tools/html_report.py: one self-contained HTML page of a committed results folder, opened in
headless Chromium; the page's inline script reports how many images loaded and tables rendered.
The answer comes first (issue 28): the first table after the title is the answers table
(id="answers"), before any plot or detailed table; the detailed tables are folded; no comparison
without --baseline; every <img> is a data: URI that decodes to a PNG or SVG; a screenshot renders.

Usage: test_html_report.py GPUBARRIER (unused). Chromium is required (scripts/setup installs it);
GPUBARRIER_NO_BROWSER=1 skips (exit 77) where it is absent.
"""
import base64
import csv
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tools import gbcsv
from cli_common import synthetic_row, write_rows
from tool_python import python_with_matplotlib

TOOL = ["-m", "tools.html_report"]
DIR = os.path.join(ROOT, "results", "h200x2")
# A known figure of that folder: its text must appear in the rendered table.
KNOWN = ("multigpu.device.push", "gpu_count=2 blocks_per_sm=1 threads_per_block=128 ordering=0 "
         "fault=0", "2496.84")


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("GPUBARRIER_NO_BROWSER") == "1":
        print("SKIP: no chromium and GPUBARRIER_NO_BROWSER=1")
        sys.exit(77)
    sys.exit("FAIL: chromium not found: scripts/setup installs it (apt-get install chromium); "
             "set GPUBARRIER_NO_BROWSER=1 to skip this test on a machine without a browser")


def report(*args):
    return subprocess.run([python_with_matplotlib(), *TOOL, *args], capture_output=True,
                          text=True, timeout=300)


def chart_alts(page):
    """The alt texts of the machines' charts (the images outside the folded plots)."""
    head = page.split("<h2>Plots</h2>", 1)[0]
    return re.findall(r'<img alt="([^"]*)"', head)


OMP_WHY = ("no check that the OpenMP barrier held every thread until the last arrived "
           "(host-only, nothing stamps the threads' arrival)")


def host_row(**kw):
    base = dict(method="host.omp.barrier", level="host", launcher="single", metric="loop_latency",
                unit="ns", value=201, config="group_size=2", technique="host-loop",
                gpu_count="0", note=f"not verified: {OMP_WHY}")
    return synthetic_row(gbcsv.NAMES, gbcsv.LATEST, **dict(base, **kw))


def check_first_hour(d):
    """The pages of the runs a new user makes first: the quick start's (host.omp.barrier on a
    machine without GPU, its `--out X.csv` beside X.csv.topology.json), a GPU-only run there
    (every row skipped), a single-GPU run (a committed one)."""
    quick = os.path.join(d, "quick")
    os.mkdir(quick)
    omp = os.path.join(quick, "omp.csv")
    write_rows(omp, gbcsv.NAMES, [host_row(), host_row(metric="latency", value=190),
                                  host_row(value=260, config="group_size=4")])
    with open(omp + ".topology.json", "w") as f:
        f.write('{"topology_class": "none", "gpus": [], "nvlink_groups": [], "path": [], '
                '"source": "probe of h"}\n')
    page_path = os.path.join(quick, "report.html")
    p = report(omp, "--html", page_path)
    if p.returncode != 0:
        sys.exit(f"FAIL: the quick start's page: exit {p.returncode}\n{p.stderr}")
    page = open(page_path, encoding="utf-8").read()
    top = page.split("<details", 1)[0]  # what shows before anything folded
    table = re.search(r'<table id="answers".*?</table>', top, re.S)
    if not table or "host.omp.barrier" not in table.group(0) or "201 ns" not in table.group(0) \
            or "not verified" not in table.group(0):
        sys.exit("FAIL: the quick start's page does not answer first, unfolded, with "
                 "host.omp.barrier's 201 ns marked not verified")
    if OMP_WHY not in html.unescape(top):
        sys.exit("FAIL: the quick start's page does not say why its figure is not verified")
    if "No verified latency row" in page or "matched to no machine" in page:
        sys.exit("FAIL: the quick start's page hides its figure or leaves its topology file "
                 "unmatched")
    section = page.split("<h3>Topology</h3>", 1)[1].split("<h3>Provenance</h3>", 1)[0]
    if "omp.csv.topology.json" not in section:
        sys.exit("FAIL: omp.csv.topology.json is not the topology of omp.csv's machine")
    if chart_alts(page):
        sys.exit(f"FAIL: a chart of one figure: {chart_alts(page)}")
    # A GPU-only run on a machine without GPU: every row skipped; the page says so and why.
    why = "no CUDA device is visible (cudaGetDeviceCount: no CUDA-capable device is detected)"
    skipped = os.path.join(d, "skipped.csv")
    write_rows(skipped, gbcsv.NAMES, [
        synthetic_row(gbcsv.NAMES, gbcsv.LATEST, method=m, level="grid", status="skipped",
                      note=why, config="blocks_per_sm=1 threads_per_block=128")
        for m in ("gpu.grid.cg", "gpu.grid.atomic-sense")])
    p = report(skipped, "--html", os.path.join(d, "skipped.html"))
    page = open(os.path.join(d, "skipped.html"), encoding="utf-8").read() \
        if p.returncode == 0 else ""
    if f"Nothing measured: 2 rows skipped (2 × {why})." not in html.unescape(page):
        sys.exit(f"FAIL: an all-skipped run's page must say nothing was measured and why "
                 f"(exit {p.returncode})\n{p.stderr}")
    # One GPU count: bars per method, never a line over a single x value.
    one = os.path.join(ROOT, "results", "h200", "v3")
    p = report(one, "--html", os.path.join(d, "one.html"))
    page = open(os.path.join(d, "one.html"), encoding="utf-8").read() if p.returncode == 0 else ""
    if chart_alts(page) != ["latency of each method, per level and GPU count"]:
        sys.exit(f"FAIL: a single-GPU run's chart must be bars per method: {chart_alts(page)}"
                 f"\n{p.stderr}")


start = time.monotonic()
chrome = browser()
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "h200x2.html")
    p = report(DIR, "--html", out)
    if p.returncode != 0:
        sys.exit(f"FAIL: html_report exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    page = open(out, encoding="utf-8").read()
    for bad in (r'src="https?:', r'href="https?:', r"<link\b", r"@import", r'src="//'):
        if re.search(bad, page):
            sys.exit(f"FAIL: the page refers to something outside itself ({bad})")
    for want in ("nvidia-smi-topo.txt", "NVIDIA H200", "not recorded", "data:image/png;base64,"):
        if want not in page:
            sys.exit(f"FAIL: the page lacks {want!r}")
    # Several GPU counts: the line of latency against the GPU count.
    if "latency against GPU count" not in chart_alts(page):
        sys.exit(f"FAIL: results/h200x2's page lacks the chart against GPU count: "
                 f"{chart_alts(page)}")
    check_first_hour(d)

    # The answer first: the first table after <h1> is the answers table, and it comes before
    # any image; the answers name the fastest multi-GPU device barrier with its floor ratio.
    after_title = page[page.index("<h1>"):]
    first_table = re.search(r"<table\b[^>]*>", after_title)
    if not first_table or 'id="answers"' not in first_table.group(0):
        sys.exit(f"FAIL: the first table after the title is not the answers table: "
                 f"{first_table.group(0) if first_table else None}")
    first_img = after_title.find("<img")
    if 0 <= first_img < first_table.start():
        sys.exit("FAIL: an image comes before the answers table")
    answers = after_title[first_table.start():after_title.index("</table>", first_table.start())]
    for want in ("multi-GPU device-side", "kernel boundary", "grid", "warp", "latency / floor",
                 "multigpu.device.push"):
        if want not in answers:
            sys.exit(f"FAIL: the answers table lacks {want!r}")
    # Details last and folded: the tables per input sit inside <details>, after the answers;
    # no comparison of inputs without --baseline (issue 28: never against the first file).
    folded = re.search(r"<h2>Tables per input and level</h2>\s*<details>", after_title)
    if not folded or "<table" in after_title[folded.start():folded.end()] or \
            "<h2>" in after_title[folded.end():] or \
            after_title.find("<td>multigpu.device.push</td><td>threads</td>") < folded.end():
        sys.exit("FAIL: the tables per input and level are not last and folded in <details>")
    if "<h2>Comparison</h2>" in page or "only in" in page:
        sys.exit("FAIL: the page compares inputs without --baseline")
    # The topology of the folder: NVLink groups and the matrix from topology.json.
    for want in ("NVLink groups", "GPUs 0, 1", "NV18", 'class="matrix"'):
        if want not in page:
            sys.exit(f"FAIL: the topology section lacks {want!r}")
    # Every image is a data: URI that decodes to a PNG or an SVG.
    srcs = re.findall(r'<img\b[^>]*\bsrc="([^"]*)"', page)
    if len(srcs) < 3:
        sys.exit(f"FAIL: {len(srcs)} images (want >= 3: the chart and the plots)")
    for src in srcs:
        m = re.match(r"data:image/(png|svg\+xml);base64,([A-Za-z0-9+/=]+)$", src)
        if not m:
            sys.exit(f"FAIL: an image is not an inline data: URI: {src[:80]}")
        data = base64.b64decode(m.group(2), validate=True)
        ok = data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000 \
            if m.group(1) == "png" else b"<svg" in data[:2000]
        if not ok:
            sys.exit(f"FAIL: an image's data is not a valid {m.group(1)} ({len(data)} bytes)")

    # Render it: the inline script counts loaded images and tables with data rows.
    t0 = time.monotonic()
    r = subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu",
                        f"--user-data-dir={os.path.join(d, 'profile')}",
                        "--virtual-time-budget=10000", "--dump-dom", "file://" + out],
                       capture_output=True, text=True, timeout=180)
    browser_s = time.monotonic() - t0
    dom = r.stdout
    body = re.search(r"<body([^>]*)>", dom)
    if r.returncode != 0 or not body:
        sys.exit(f"FAIL: chromium exit {r.returncode}, no <body> in its DOM\n{r.stderr[-2000:]}")
    attrs = dict(re.findall(r'data-([a-z-]+)="(\d+)"', body.group(1)))
    need = ("images-loaded", "images", "tables", "tables-all")
    if not all(k in attrs for k in need):
        sys.exit(f"FAIL: the page's script did not run: body attributes {body.group(1)!r}")
    n = {k: int(attrs[k]) for k in need}
    if n["images"] < 3 or n["images-loaded"] != n["images"]:
        sys.exit(f"FAIL: images loaded {n['images-loaded']} of {n['images']} (want all, >= 3)")
    if n["tables"] < 10 or n["tables"] != n["tables-all"]:
        sys.exit(f"FAIL: tables with data {n['tables']} of {n['tables-all']} (want all, >= 10)")
    method, config, value = KNOWN
    row = re.search(rf"<td>{re.escape(method)}</td><td>threads</td><td[^>]*>2</td>"
                    rf"<td>{re.escape(config)}</td><td>latency</td><td[^>]*>"
                    rf"{re.escape(value)}</td>", dom)
    if not row:
        sys.exit(f"FAIL: no rendered table cell holds {method} {config} = {value}")

    # What a user sees: a screenshot of the top of the page renders (a PNG, not blank).
    shot = os.path.join(d, "shot.png")
    r = subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={os.path.join(d, 'profile')}",
                        f"--screenshot={shot}", "--window-size=1400,1800", "file://" + out],
                       capture_output=True, text=True, timeout=180)
    if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
        sys.exit(f"FAIL: no screenshot of the page (chromium exit {r.returncode})\n"
                 f"{r.stderr[-2000:]}")

    # With --baseline the comparison is there, against the inputs named.
    p = report(os.path.join(DIR, "multi-gpu.csv"), os.path.join(DIR, "multi-gpu-mpi.csv"),
               "--baseline", "multi-gpu-mpi", "--html", os.path.join(d, "cmp.html"))
    cmp_page = open(os.path.join(d, "cmp.html"), encoding="utf-8").read() \
        if p.returncode == 0 else ""
    if "<h2>Comparison</h2>" not in cmp_page or "--baseline" not in cmp_page:
        sys.exit(f"FAIL: --baseline must add the comparison\n{p.stderr}")
    if cmp_page.index('id="answers"') > cmp_page.index("<h2>Comparison</h2>"):
        sys.exit("FAIL: the comparison comes before the answers")
    p = report(DIR, "--baseline", "no-such-input", "--html", os.path.join(d, "x.html"))
    if p.returncode != 2 or "no-such-input" not in p.stderr:
        sys.exit(f"FAIL: an unknown --baseline must fail (exit 2) naming it: {p.stderr}")

    # CSV text is escaped: a note with markup stays text.
    src = os.path.join(DIR, "multi-gpu-mpi.csv")
    evil = os.path.join(d, "evil.csv")
    with open(src, newline="") as f:
        rows = list(csv.reader(f))
    note = rows[0].index("note")
    rows[1][note] = '<img src=x onerror="alert(1)"> & </td>'
    with open(evil, "w", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    p = report(evil, "--html", os.path.join(d, "evil.html"))
    text = open(os.path.join(d, "evil.html"), encoding="utf-8").read() if p.returncode == 0 else ""
    if p.returncode != 0 or "<img src=x" in text or "&lt;img src=x onerror=" not in text:
        sys.exit(f"FAIL: CSV text must be escaped\n{p.stderr}")

    p = report(os.path.join(d, "missing"), "--html", os.path.join(d, "x.html"))
    if p.returncode == 0 or "no such file or directory" not in p.stderr:
        sys.exit(f"FAIL: a missing input must fail clearly: {p.stderr}")
print(f"PASS html_report: {n}, chromium {browser_s:.1f} s, total {time.monotonic() - start:.1f} s")

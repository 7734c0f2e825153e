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
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tool_python import python_with_matplotlib  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "html_report.py")
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
    return subprocess.run([python_with_matplotlib(), TOOL, *args], capture_output=True,
                          text=True, timeout=300)


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

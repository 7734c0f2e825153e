#!/usr/bin/env python3
"""tools/html_report.py: one self-contained HTML page of a committed results folder, opened in
headless Chromium; the page's inline script reports how many images loaded and tables rendered.

Usage: test_html_report.py GPUBARRIER (unused). Chromium is required (scripts/setup installs it);
GPUBARRIER_NO_BROWSER=1 skips (exit 77) where it is absent.
"""
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

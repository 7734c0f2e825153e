#!/usr/bin/env python3
"""gpubarrier_tools/cli/html_report.py: one self-contained HTML page of a committed results folder, opened in
headless Chromium; the page's inline script reports how many images loaded and tables rendered.
The answer comes first: the first table after the title is the answers table
(id="answers"), before any plot or detailed table; the detailed tables are folded; no comparison
without --baseline; every <img> is a data: URI that decodes to a PNG or SVG; a screenshot renders.

Run by pytest: pytest tests/cli/test_html_report.py. Chromium is required (scripts/setup installs
it); GPUBARRIER_NO_BROWSER=1 skips the tests that render where it is absent.
"""
import base64
import csv
import html
import os
import re
import shutil
import subprocess

import pytest

from gpubarrier_tools.data import gbcsv
from cli_common import synthetic_row, write_rows
from tool_python import python_with_matplotlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TOOL = ["-m", "gpubarrier_tools.cli.html_report"]
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
        pytest.skip("no chromium and GPUBARRIER_NO_BROWSER=1")
    pytest.fail("chromium not found: scripts/setup installs it (apt-get install chromium); "
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


def test_first_hour(tmp_path):
    """The pages of the runs a new user makes first: the quick start's (host.omp.barrier on a
    machine without GPU, its `--out X.csv` beside X.csv.topology.json), a GPU-only run there
    (every row skipped), a single-GPU run (a committed one)."""
    d = str(tmp_path)
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
        pytest.fail(f"the quick start's page: exit {p.returncode}\n{p.stderr}")
    page = open(page_path, encoding="utf-8").read()
    top = page.split("<details", 1)[0]  # what shows before anything folded
    table = re.search(r'<table id="answers".*?</table>', top, re.S)
    if not table or "host.omp.barrier" not in table.group(0) or "201 ns" not in table.group(0) \
            or "not verified" not in table.group(0):
        pytest.fail("the quick start's page does not answer first, unfolded, with "
                    "host.omp.barrier's 201 ns marked not verified")
    if OMP_WHY not in html.unescape(top):
        pytest.fail("the quick start's page does not say why its figure is not verified")
    if "No verified latency row" in page or "matched to no machine" in page:
        pytest.fail("the quick start's page hides its figure or leaves its topology file "
                    "unmatched")
    section = page.split("<h3>Topology</h3>", 1)[1].split("<h3>Provenance</h3>", 1)[0]
    if "omp.csv.topology.json" not in section:
        pytest.fail("omp.csv.topology.json is not the topology of omp.csv's machine")
    if chart_alts(page):
        pytest.fail(f"a chart of one figure: {chart_alts(page)}")
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
        pytest.fail(f"an all-skipped run's page must say nothing was measured and why "
                    f"(exit {p.returncode})\n{p.stderr}")
    # One GPU count: bars per method, never a line over a single x value.
    one = os.path.join(ROOT, "results", "h200", "v3")
    p = report(one, "--html", os.path.join(d, "one.html"))
    page = open(os.path.join(d, "one.html"), encoding="utf-8").read() if p.returncode == 0 else ""
    if chart_alts(page) != ["latency of each method, per level and GPU count"]:
        pytest.fail(f"a single-GPU run's chart must be bars per method: {chart_alts(page)}"
                    f"\n{p.stderr}")


@pytest.fixture(scope="module")
def folder_page(tmp_path_factory):
    """(path, text) of results/h200x2's page."""
    out = str(tmp_path_factory.mktemp("page") / "h200x2.html")
    p = report(DIR, "--html", out)
    if p.returncode != 0:
        pytest.fail(f"html_report exit {p.returncode}\n{p.stdout}\n{p.stderr}")
    return out, open(out, encoding="utf-8").read()


def test_self_contained(folder_page):
    _, page = folder_page
    for bad in (r'src="https?:', r'href="https?:', r"<link\b", r"@import", r'src="//'):
        if re.search(bad, page):
            pytest.fail(f"the page refers to something outside itself ({bad})")
    for want in ("nvidia-smi-topo.txt", "NVIDIA H200", "not recorded", "data:image/png;base64,"):
        if want not in page:
            pytest.fail(f"the page lacks {want!r}")
    # Several GPU counts: the line of latency against the GPU count.
    if "latency against GPU count" not in chart_alts(page):
        pytest.fail(f"results/h200x2's page lacks the chart against GPU count: "
                    f"{chart_alts(page)}")


def test_answer_first(folder_page):
    """The first table after <h1> is the answers table, and it comes before any image; the
    answers name the fastest multi-GPU device barrier with its floor ratio. Details last and
    folded: the tables per input sit inside <details>, after the answers; no comparison of
    inputs without --baseline (never against the first file)."""
    _, page = folder_page
    after_title = page[page.index("<h1>"):]
    first_table = re.search(r"<table\b[^>]*>", after_title)
    if not first_table or 'id="answers"' not in first_table.group(0):
        pytest.fail(f"the first table after the title is not the answers table: "
                    f"{first_table.group(0) if first_table else None}")
    first_img = after_title.find("<img")
    if 0 <= first_img < first_table.start():
        pytest.fail("an image comes before the answers table")
    answers = after_title[first_table.start():after_title.index("</table>", first_table.start())]
    for want in ("multi-GPU device-side", "kernel boundary", "grid", "warp", "latency / floor",
                 "multigpu.device.push"):
        if want not in answers:
            pytest.fail(f"the answers table lacks {want!r}")
    folded = re.search(r"<h2>Tables per input and level</h2>\s*<details>", after_title)
    if not folded or "<table" in after_title[folded.start():folded.end()] or \
            "<h2>" in after_title[folded.end():] or \
            after_title.find("<td>multigpu.device.push</td><td>threads</td>") < folded.end():
        pytest.fail("the tables per input and level are not last and folded in <details>")
    if "<h2>Comparison</h2>" in page or "only in" in page:
        pytest.fail("the page compares inputs without --baseline")


def test_topology(folder_page):
    """The topology of the folder: NVLink groups and the matrix from topology.json."""
    _, page = folder_page
    for want in ("NVLink groups", "GPUs 0, 1", "NV18", 'class="matrix"'):
        if want not in page:
            pytest.fail(f"the topology section lacks {want!r}")


def test_detailed_notes_whole():
    """The detailed tables show each note whole, a long one folded, and a noisy reason once."""
    from gpubarrier_tools.cli import html_report  # noqa: PLC0415
    long_note = ("not verified: no check that the OpenMP barrier held every thread until the last "
                 "arrived; per-thread loop means min 200 ns, max 201 ns; " * 3 +
                 "noisy: threads had 9% of a CPU each (other work took the rest)")
    rows = [synthetic_row(gbcsv.NAMES, gbcsv.LATEST, method="host.omp.barrier", level="host",
                          status="ok", value="294", unit="ns", config="group_size=2",
                          note=long_note),
            synthetic_row(gbcsv.NAMES, gbcsv.LATEST, method="gpu.grid.cg", level="grid",
                          status="skipped", value="", note="no GPU; " + "why " * 100)]
    page = html.unescape(html_report.level_tables(rows, "x.csv"))
    if long_note not in page:
        pytest.fail(f"a note longer than the fold is not shown whole:\n{page}")
    if page.count("noisy: threads had 9%") != 1:
        pytest.fail(f"the noisy reason is not said exactly once:\n{page}")
    if page.count("<details><summary>") < 3 or "characters)</summary>" not in page:
        pytest.fail(f"long notes are not folded under their first words:\n{page}")
    if ("no GPU; " + "why " * 99).strip() not in page:
        pytest.fail(f"a skipped row's long reason is cut:\n{page}")


def test_topology_without_gpu():
    """`gpubarrier topo --json` of a machine without GPUs: its CPUs and NUMA nodes, "no GPU" once,
    nothing of NVLink; of one with GPUs whose NVSwitch the probe could not tell: "unknown", the
    word `topo` prints too."""
    from gpubarrier_tools.cli import html_report  # noqa: PLC0415
    cpus = {"list": "0-3", "cores": 2, "pus": 4,
            "numa_nodes": [{"index": 0, "cpus": "0-1"}, {"index": 1, "cpus": "2-3"}]}
    data = {"source": "probe of cpu-box", "cpus": cpus, "gpus": [], "nvlink_groups": [],
            "topology_class": "none", "nvswitch": None}
    page = html.unescape(html_report.topology_json_html("topo.json", data, "{}"))
    for want in ("4 (2 cores): 0-3", "0: CPUs 0-1; 1: CPUs 2-3", "no GPU"):
        if want not in page:
            pytest.fail(f"the topology of a machine without GPU lacks {want!r}:\n{page}")
    for unwanted in ("NVLink", "NVSwitch", "not recorded", "topology class"):
        if unwanted in page:
            pytest.fail(f"the topology of a machine without GPU says {unwanted!r}:\n{page}")
    if page.count("no GPU") != 1:
        pytest.fail(f"'no GPU' more than once:\n{page}")
    gpu = {"index": 0, "name": "H100", "uuid": "GPU-1", "cpu_affinity": "0-3"}
    page = html.unescape(html_report.topology_json_html(
        "topo.json", dict(data, gpus=[gpu], nvlink_groups=[[0]], topology_class="single"), "{}"))
    if "unknown" not in page or "not recorded" in page:
        pytest.fail(f"an NVSwitch the probe could not tell is 'unknown':\n{page}")


def test_images_inline(folder_page):
    """Every image is a data: URI that decodes to a PNG or an SVG."""
    _, page = folder_page
    srcs = re.findall(r'<img\b[^>]*\bsrc="([^"]*)"', page)
    if len(srcs) < 3:
        pytest.fail(f"{len(srcs)} images (want >= 3: the chart and the plots)")
    for src in srcs:
        m = re.match(r"data:image/(png|svg\+xml);base64,([A-Za-z0-9+/=]+)$", src)
        if not m:
            pytest.fail(f"an image is not an inline data: URI: {src[:80]}")
        data = base64.b64decode(m.group(2), validate=True)
        ok = data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000 \
            if m.group(1) == "png" else b"<svg" in data[:2000]
        if not ok:
            pytest.fail(f"an image's data is not a valid {m.group(1)} ({len(data)} bytes)")


def test_renders(folder_page, tmp_path):
    """Rendered, the inline script counts loaded images and tables with data rows."""
    out, _ = folder_page
    chrome = browser()
    d = str(tmp_path)
    r = subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu",
                        f"--user-data-dir={os.path.join(d, 'profile')}",
                        "--virtual-time-budget=10000", "--dump-dom", "file://" + out],
                       capture_output=True, text=True, timeout=180)
    dom = r.stdout
    body = re.search(r"<body([^>]*)>", dom)
    if r.returncode != 0 or not body:
        pytest.fail(f"chromium exit {r.returncode}, no <body> in its DOM\n{r.stderr[-2000:]}")
    attrs = dict(re.findall(r'data-([a-z-]+)="(\d+)"', body.group(1)))
    need = ("images-loaded", "images", "tables", "tables-all")
    if not all(k in attrs for k in need):
        pytest.fail(f"the page's script did not run: body attributes {body.group(1)!r}")
    n = {k: int(attrs[k]) for k in need}
    if n["images"] < 3 or n["images-loaded"] != n["images"]:
        pytest.fail(f"images loaded {n['images-loaded']} of {n['images']} (want all, >= 3)")
    if n["tables"] < 10 or n["tables"] != n["tables-all"]:
        pytest.fail(f"tables with data {n['tables']} of {n['tables-all']} (want all, >= 10)")
    method, config, value = KNOWN
    row = re.search(rf"<td>{re.escape(method)}</td><td>threads</td><td[^>]*>2</td>"
                    rf"<td>{re.escape(config)}</td><td>latency</td><td[^>]*>"
                    rf"{re.escape(value)}</td>", dom)
    if not row:
        pytest.fail(f"no rendered table cell holds {method} {config} = {value}")


def test_screenshot(folder_page, tmp_path):
    """What a user sees: a screenshot of the top of the page renders (a PNG, not blank)."""
    out, _ = folder_page
    chrome = browser()
    d = str(tmp_path)
    shot = os.path.join(d, "shot.png")
    r = subprocess.run([chrome, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={os.path.join(d, 'profile')}",
                        f"--screenshot={shot}", "--window-size=1400,1800", "file://" + out],
                       capture_output=True, text=True, timeout=180)
    if not os.path.exists(shot) or os.path.getsize(shot) < 20000:
        pytest.fail(f"no screenshot of the page (chromium exit {r.returncode})\n"
                    f"{r.stderr[-2000:]}")


def test_baseline(tmp_path):
    """With --baseline the comparison is there, against the inputs named."""
    d = str(tmp_path)
    p = report(os.path.join(DIR, "multi-gpu.csv"), os.path.join(DIR, "multi-gpu-mpi.csv"),
               "--baseline", "multi-gpu-mpi", "--html", os.path.join(d, "cmp.html"))
    cmp_page = open(os.path.join(d, "cmp.html"), encoding="utf-8").read() \
        if p.returncode == 0 else ""
    if "<h2>Comparison</h2>" not in cmp_page or "--baseline" not in cmp_page:
        pytest.fail(f"--baseline must add the comparison\n{p.stderr}")
    if cmp_page.index('id="answers"') > cmp_page.index("<h2>Comparison</h2>"):
        pytest.fail("the comparison comes before the answers")
    p = report(DIR, "--baseline", "no-such-input", "--html", os.path.join(d, "x.html"))
    if p.returncode != 2 or "no-such-input" not in p.stderr:
        pytest.fail(f"an unknown --baseline must fail (exit 2) naming it: {p.stderr}")


def test_escaped(tmp_path):
    """CSV text is escaped: a note with markup stays text."""
    d = str(tmp_path)
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
        pytest.fail(f"CSV text must be escaped\n{p.stderr}")


def test_missing_input(tmp_path):
    d = str(tmp_path)
    p = report(os.path.join(d, "missing"), "--html", os.path.join(d, "x.html"))
    if p.returncode == 0 or "no such file or directory" not in p.stderr:
        pytest.fail(f"a missing input must fail clearly: {p.stderr}")

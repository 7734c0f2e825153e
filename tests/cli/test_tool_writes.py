#!/usr/bin/env python3
"""What the Python tools (`gpubarrier compare|model|report|plot`) do at the edges of what they
write and the flags they take: a page rewritten in place is whole or as it was, no FIFO or device
is written into or waited on, a closed standard output and a non-finite number are one line each.

Cases:
  readme_full_disk    `report readme PAGE.md` past a file-size limit (a full disk, as the tool
                      sees it): exit 1, one line naming PAGE.md; PAGE.md byte for byte as it was,
                      no temporary file left beside it
  readme_link         `report readme` of a page that is a symbolic link: exit 2, the target as it
                      was
  fifos               `report --html PAGE` where PAGE is a FIFO, `compare` of a FIFO no program
                      writes, `report DIR` whose DIR holds a FIFO named x.csv: no hang; refused
                      (exit 2), read as an empty file, skipped with a note
  devices             `report --html /dev/null` (with and without --force) and `plot --out DIR`
                      whose plot file is a character device: exit 2 naming it
  stdout_closed       compare, model and report with standard output closed (`>&-`): exit 1,
                      one line `cannot write to standard output`
  number_flags        NaN and infinity in report's --scale (value, rows, spans, heatmap) and in
                      pairs --over; a --fmt that formats no number: exit 2 naming the flag

Run by pytest: pytest tests/cli/test_tool_writes.py [--gpubarrier PATH]
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "gpubarrier_tools")
from gpubarrier_tools.data import gbcsv
from cli_common import executable, expect, one_line, synthetic_row, write_rows

EXE = executable()
# A hang would end here, far beyond what any of these commands takes on a loaded machine.
HANG_S = 300


def gpubarrier(*args, preexec_fn=None, stdout=subprocess.PIPE, cwd=None):
    env = dict(os.environ, GPUBARRIER_TOOLS=TOOLS)
    for var in ("GPUBARRIER_PYTHON", "GPUBARRIER_DEBUG"):
        env.pop(var, None)
    return subprocess.run([EXE, *args], stdout=stdout, stderr=subprocess.PIPE, text=True,
                          env=env, timeout=HANG_S, cwd=cwd, preexec_fn=preexec_fn)


def host_csv(d):
    rows = [synthetic_row(gbcsv.NAMES, gbcsv.LATEST, method="host.omp.barrier", level="host",
                          metric=metric, unit="ns", value=v + g, config=f"group_size={g}",
                          technique="host-loop", gpu_count="0")
            for g in (2, 4) for metric, v in (("loop_latency", 300), ("latency", 280))]
    path = os.path.join(d, "omp.csv")
    write_rows(path, gbcsv.NAMES, rows)
    return path


def page_text():
    hand = "".join(f"hand-written line {i} of my notes\n" for i in range(1, 43))
    return hand + "<!-- report: model --study -->\nstale\n<!-- /report -->\n"


def file_size_limit(size):
    """A child's preexec_fn: files it writes stop at `size` bytes (EFBIG, as a full disk stops
    them), SIGXFSZ ignored so that the write fails instead of killing it."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_readme_full_disk():
    with tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, "PAGE.md")
        text = page_text()
        with open(page, "w") as f:
            f.write(text)
        # the page fits under the limit; the regenerated one (the model's table) does not
        p = gpubarrier("report", "readme", page, preexec_fn=file_size_limit(len(text) + 64))
        one_line(p, 1, "PAGE.md", "cannot write")
        expect(open(page).read() == text, "PAGE.md byte for byte as it was", p)
        expect(sorted(os.listdir(d)) == ["PAGE.md"], f"nothing left beside it: {os.listdir(d)}")
        p = gpubarrier("report", "readme", page)
        expect(p.returncode == 0, "without the limit the page is rewritten", p)
        new = open(page).read()
        expect(new.startswith(text.split("<!--")[0]) and "stale" not in new,
               "the hand-written lines kept, the generated part replaced", p)


def test_readme_link():
    with tempfile.TemporaryDirectory() as d:
        target, link = os.path.join(d, "notes.md"), os.path.join(d, "PAGE.md")
        with open(target, "w") as f:
            f.write(page_text())
        os.symlink(target, link)
        one_line(gpubarrier("report", "readme", link), 2, "PAGE.md", "symbolic link")
        expect(open(target).read() == page_text(), "the link's target as it was")
        expect(os.path.islink(link), "the link as it was")


def test_fifos():
    with tempfile.TemporaryDirectory() as d:
        omp = host_csv(d)
        page = os.path.join(d, "page.html")
        os.mkfifo(page)
        for force in ((), ("--force",)):
            one_line(gpubarrier("report", omp, "--html", page, *force), 2, "page.html", "FIFO")
        empty = os.path.join(d, "empty.csv")
        os.mkfifo(empty)
        one_line(gpubarrier("compare", omp, empty), 2, "empty.csv", "empty")
        folder = os.path.join(d, "dir")
        os.mkdir(folder)
        shutil.copy(omp, folder)
        os.mkfifo(os.path.join(folder, "x.csv"))
        p = gpubarrier("report", "count", folder)
        expect(p.returncode == 0 and "4 rows" in p.stdout,
               "report DIR reads the CSV beside the FIFO", p)
        expect("x.csv" in p.stderr and "not a regular file" in p.stderr,
               "the FIFO skipped with a note naming it", p)


def test_devices():
    with tempfile.TemporaryDirectory() as d:
        omp = host_csv(d)
        for force in ((), ("--force",)):
            one_line(gpubarrier("report", omp, "--html", "/dev/null", *force), 2, "/dev/null",
                     "character device")
        plots = os.path.join(d, "plots")
        os.mkdir(plots)
        device = os.path.join(plots, "summary.png")
        os.mknod(device, 0o666 | 0o020000, os.makedev(1, 3))  # what /dev/null is
        for force in ((), ("--force",)):
            p = gpubarrier("plot", omp, "--out", plots, "--format", "png", *force)
            one_line(p, 2, "summary.png", "character device")
        expect(os.path.exists(device) and not os.path.isfile(device), "the device left as it was")


def test_stdout_closed():
    with tempfile.TemporaryDirectory() as d:
        omp = host_csv(d)
        for args in (("compare", omp, omp), ("model", "--study"), ("report", "count", omp)):
            p = subprocess.run(["bash", "-c", '"$@" >&-', "bash", EXE, *args],
                               stderr=subprocess.PIPE, text=True, timeout=HANG_S,
                               env=dict(os.environ, GPUBARRIER_TOOLS=TOOLS))
            one_line(p, 1, "cannot write to standard output", absent=("internal error",))


def test_number_flags():
    with tempfile.TemporaryDirectory() as d:
        omp = host_csv(d)
        cases = [
            (("value", omp, "host.omp.barrier", "latency", "group_size=2", "--scale", "nan"),
             "--scale"),
            (("rows", omp, "--scale", "inf"), "--scale"),
            (("spans", omp, "--scale", "nan"), "--scale"),
            (("heatmap", omp, "--method", "host.omp.barrier", "--scale", "nan"), "--scale"),
            (("pairs", omp, "--a", "group_size=2", "--b", "group_size=4", "--over", "nan"),
             "--over"),
            (("value", omp, "host.omp.barrier", "latency", "group_size=2", "--fmt", "%q"),
             "--fmt"),
        ]
        for args, flag in cases:
            one_line(gpubarrier("report", *args), 2, flag, prefix="gpubarrier report: error:")
        p = gpubarrier("report", "value", omp, "host.omp.barrier", "latency", "group_size=2",
                       "--scale", "1e-3", "--fmt", ".3f")
        expect(p.returncode == 0 and p.stdout.strip() == "0.282", "a finite --scale still works",
               p)

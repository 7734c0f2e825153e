#!/usr/bin/env python3
"""What a user sees when a Python tool (`gpubarrier compare|plot|model|report`) cannot do what was
asked: one line on stderr, exit 2 for bad input (the file, what was wrong, what is expected) or a
missing Python module (which one, which interpreter, the fix), exit 1 with one line for a bug in
the tool (its traceback only with GPUBARRIER_DEBUG=1); never a Python traceback. And which Python
runs the tools.

Cases:
  single_host_only    `report single omp.csv` of host rows only: no single-GPU rows, said so
  missing_module      a Python without matplotlib: plot names the module, the interpreter and the
                      fix; the HTML page says why it has no plots
  bad_input           a missing file, a CSV of another kind, an unknown table, for every tool
  internal_error      an unexpected exception: one line naming the bug; the traceback on request
  interpreter_search  GPUBARRIER_PYTHON, else the first of python3 on PATH and /usr/bin/python3
                      that imports what the tool needs
  folders             report over folders: CSVs of other kinds skipped with a note (on the page,
                      on stderr), exit 2 when no gpubarrier CSV is left
  committed_folders   `report DIR --html` on every committed results folder with a CSV
  overwrite           `report --html PAGE` and `plot --out DIR` refuse to replace a file (a
                      symlink's target too) without --force, as the executable's --out does
  bad_values          NaN, infinity, a negative stddev, a value too large to plot, bytes that are
                      not text, an --out that is a file or cannot be made, a full stdout: bad
                      input (exit 2) or a write error (exit 1), one line naming the file and row
  parse_errors        argparse's own errors: one line `gpubarrier TOOL: error: ...` with the
                      closest names, exit 2; --help still prints the whole help

Run by pytest: pytest tests/cli/test_tool_errors.py [--gpubarrier PATH]
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "gpubarrier_tools")
from gpubarrier_tools.data import gbcsv
from cli_common import committed_copy, executable, expect, one_line, synthetic_row, write_rows

EXE = executable()
SYSTEM_PYTHON = "/usr/bin/python3"


def gpubarrier(*args, env=None, drop=(), cwd=None):
    full = dict(os.environ, GPUBARRIER_TOOLS=TOOLS)
    for var in ("GPUBARRIER_PYTHON", "GPUBARRIER_DEBUG") + tuple(drop):
        full.pop(var, None)
    full.update(env or {})
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=full, timeout=600,
                          cwd=cwd)


def host_rows(gpu_model=""):
    rows = []
    for g in (2, 4):
        for metric, v in (("loop_latency", 300 + g), ("latency", 280 + g)):
            rows.append(synthetic_row(gbcsv.NAMES, gbcsv.LATEST, method="host.omp.barrier",
                                      level="host", launcher="single", metric=metric, unit="ns",
                                      value=v, config=f"group_size={g}", technique="host-loop",
                                      gpu_model=gpu_model, gpu_count="0"))
    return rows


def grid_rows():
    return [synthetic_row(gbcsv.NAMES, gbcsv.LATEST, method="gpu.grid.cg", level="grid",
                          metric="latency", unit="ns", value=v, gpu_model="NVIDIA H100 80GB HBM3",
                          gpu_ids="0", config=f"blocks_per_sm=1 threads_per_block={t}")
            for t, v in ((128, 1500), (256, 1600))]


def write_plain(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    return path


def other_kinds(d):
    """A reference-check CSV, a sanitize summary, raw samples and a CSV of no known kind."""
    return {
        "reference-check.csv": write_plain(
            os.path.join(d, "reference-check.csv"),
            ["method", "config", "convention", "source", "round", "value_ns", "steps", "loops",
             "host", "note"],
            [["host.omp.barrier", "threads=2", "EPCC syncbench", "gpubarrier", "1", "318", "10",
              "3", "box", ""],
             ["host.omp.barrier", "threads=2", "EPCC syncbench", "reference", "1", "300", "10",
              "3", "box", ""]]),
        "sanitize-summary.csv": write_plain(
            os.path.join(d, "sanitize-summary.csv"),
            ["tool", "method", "result", "errors", "seconds", "rows", "note"],
            [["memcheck", "gpu.grid.cg", "clean", "0", "2", "8 ok", ""]]),
        "run.raw.csv": write_plain(
            os.path.join(d, "run.raw.csv"),
            ["run_id", "method", "config", "gpu_ids", "launcher", "metric", "unit", "statistic",
             "sample", "value"],
            [["r1", "host.omp.barrier", "group_size=2", "", "single", "latency", "ns", "median",
              "0", "300"]]),
        "notes.csv": write_plain(os.path.join(d, "notes.csv"), ["what", "why"], [["a", "b"]]),
    }


def hiding_python(d, name="python3", log=None, mark="lacks"):
    """A `python3` script that runs /usr/bin/python3 with matplotlib hidden, as in a venv without
    it (neither found nor imported: a None in sys.modules, set by a sitecustomize), logging every
    call to `log`."""
    hide = os.path.join(d, "hide")
    os.makedirs(hide, exist_ok=True)
    with open(os.path.join(hide, "sitecustomize.py"), "w") as f:
        f.write("import sys\nsys.modules['matplotlib'] = None\n")
    return script_python(d, name, log, mark, f'PYTHONPATH="{hide}" ')


def script_python(d, name="python3", log=None, mark="has", prefix=""):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + (f'echo "$*" >> "{log}"\n' if log else "") +
                f'{prefix}GB_FAKE_PYTHON={mark} exec {SYSTEM_PYTHON} "$@"\n')
    os.chmod(path, 0o755)
    return path


def need_system_matplotlib():
    if not os.path.exists(SYSTEM_PYTHON) or subprocess.run(
            [SYSTEM_PYTHON, "-c", "import matplotlib"], capture_output=True).returncode != 0:
        pytest.skip(f"{SYSTEM_PYTHON} cannot import matplotlib (scripts/setup installs it)")


# ---------------------------------------------------------------------------------------------

def test_single_host_only():
    with tempfile.TemporaryDirectory() as d:
        omp = os.path.join(d, "omp.csv")
        write_rows(omp, gbcsv.NAMES, host_rows())
        p = gpubarrier("report", "single", omp)
        one_line(p, 2, "omp.csv", "no single-GPU rows")
        expect(p.stdout == "", "no table on stdout", p)
        # Host rows of a GPU machine (gpu_model recorded): the same answer.
        write_rows(omp, gbcsv.NAMES, host_rows("NVIDIA H100 80GB HBM3"))
        one_line(gpubarrier("report", "single", omp), 2, "omp.csv", "no single-GPU rows")
        # Beside a GPU file it is a column of '-' under its file's name.
        gpu = os.path.join(d, "gpu.csv")
        write_rows(gpu, gbcsv.NAMES, grid_rows())
        write_rows(omp, gbcsv.NAMES, host_rows())
        p = gpubarrier("report", "single", gpu, omp)
        expect(p.returncode == 0 and "| H100 | omp.csv |" in p.stdout and "Traceback" not in
               p.stderr, "a host-only column beside a GPU one", p)
        # The other tables of one kind of row say the same when no input holds their rows.
        for table, path, words in (("scaling", omp, "no multi-GPU latency rows"),
                                   ("faults", gpu, "no check_stale"),
                                   ("hostwait", gpu, "host_wait"),
                                   ("selfcheck", gpu, "no selfcheck")):
            one_line(gpubarrier("report", table, path), 2, os.path.basename(path), words)
    print("PASS single_host_only")


def test_missing_module():
    need_system_matplotlib()
    with tempfile.TemporaryDirectory() as d:
        py = hiding_python(d)
        csv_path = os.path.join(d, "gpu.csv")
        write_rows(csv_path, gbcsv.NAMES, grid_rows())
        env = {"GPUBARRIER_PYTHON": py}
        p = gpubarrier("plot", csv_path, "--out", os.path.join(d, "plots"), env=env)
        one_line(p, 2, "matplotlib", "GPUBARRIER_PYTHON", "install")
        # Tools that do not need it still run; the HTML page says why it has no plots.
        p = gpubarrier("compare", csv_path, csv_path, env=env)
        expect(p.returncode == 0, "compare runs without matplotlib", p)
        page = os.path.join(d, "page.html")
        p = gpubarrier("report", csv_path, "--html", page, env=env)
        expect(p.returncode == 0 and "Traceback" not in p.stderr, "the page without plots", p)
        text = open(page, encoding="utf-8").read()
        note = text[text.index("<h2>Plots</h2>"):][:1500]
        for want in ("No plots", "matplotlib", "GPUBARRIER_PYTHON", "python3-matplotlib"):
            expect(want in note, f"the page's plots note names {want!r}: {note}")
        # Straight from gpubarrier_tools/ too (python3 gpubarrier_tools/cli/plot.py).
        p = subprocess.run([py, "-m", "gpubarrier_tools.cli.plot", csv_path, "--out", d], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
        one_line(p, 2, "matplotlib", "GPUBARRIER_PYTHON")
    print("PASS missing_module")


def test_bad_input():
    with tempfile.TemporaryDirectory() as d:
        missing = os.path.join(d, "missing.csv")
        ref = other_kinds(d)["reference-check.csv"]
        junk = os.path.join(d, "junk.csv")
        with open(junk, "w") as f:
            f.write("schema_version,run_id\n3,r1,extra\n")
        out = os.path.join(d, "out")
        for tool, args in (("compare", [missing, missing]), ("plot", [missing, "--out", out]),
                           ("model", ["--from", missing]), ("report", ["multi", missing]),
                           ("report", [missing, "--html", os.path.join(d, "p.html")])):
            one_line(gpubarrier(tool, *args), 2, "missing.csv")
        for tool, args in (("compare", [ref, ref]), ("plot", [ref, "--out", out]),
                           ("model", ["--from", ref]), ("report", ["scaling", ref])):
            one_line(gpubarrier(tool, *args), 2, "reference-check.csv", "gpubarrier CSV")
        one_line(gpubarrier("report", "rows", junk), 2, "junk.csv:2")
        one_line(gpubarrier("report", "bogus", junk), 2, "bogus", "single")
        one_line(gpubarrier("plot", d, "--out", out), 2, d)
    print("PASS bad_input")


def test_internal_error():
    code = ("from gpubarrier_tools.data import tool_main\n"
            "def main(argv):\n    return {}['no such key']\n"
            "tool_main.run(main)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env={k: v for k, v in os.environ.items() if k != "GPUBARRIER_DEBUG"})
    line = one_line(p, 1, "bug", "KeyError")
    expect("<string>:3" in line, "the line names where it was raised", p)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, GPUBARRIER_DEBUG="1"))
    expect(p.returncode == 1 and "Traceback" in p.stderr, "GPUBARRIER_DEBUG=1: the traceback", p)
    print("PASS internal_error")


def probe(call):
    """Whether a logged call asked the interpreter what it can import (not ran a tool)."""
    return call.startswith("-c import ") and "runpy" not in call


FAKE_TOOL = """import os, sys
print("python=" + sys.executable + " mark=" + os.environ.get("GB_FAKE_PYTHON", "none"))
"""


def test_interpreter_search():
    need_system_matplotlib()
    with tempfile.TemporaryDirectory() as d:
        tools = os.path.join(d, "tools")
        os.makedirs(os.path.join(tools, "cli"))
        open(os.path.join(tools, "__init__.py"), "w").close()
        open(os.path.join(tools, "cli", "__init__.py"), "w").close()
        for name in ("compare", "plot", "model", "report"):
            with open(os.path.join(tools, "cli", f"{name}.py"), "w") as f:
                f.write(FAKE_TOOL)
        lacks, has = os.path.join(d, "lacks"), os.path.join(d, "has")
        os.mkdir(lacks)
        os.mkdir(has)
        log = os.path.join(d, "calls.log")
        hiding_python(lacks, log=log)
        script_python(has, log=log)
        path = os.environ.get("PATH", "")

        def tool(name, bindir, env=None):
            e = {"GPUBARRIER_TOOLS": tools, "PATH": bindir + os.pathsep + path, **(env or {})}
            if os.path.exists(log):
                os.remove(log)
            p = gpubarrier(name, "x.csv", env=e)
            expect(p.returncode == 0 and p.stdout.startswith("python="), f"{name} ran", p)
            calls = open(log).read().splitlines() if os.path.exists(log) else []
            return p.stdout.strip(), calls

        # python3 first on PATH lacks matplotlib: plot and report go on to /usr/bin/python3
        # (after asking it), compare and model need nothing more and take it.
        for name in ("plot", "report"):
            out, calls = tool(name, lacks)
            expect(out == f"python={SYSTEM_PYTHON} mark=none", f"{name}: {SYSTEM_PYTHON}: {out}")
            expect(calls and all(probe(c) for c in calls),
                   f"{name}: the PATH python3 was asked, not run: {calls}")
        for name in ("compare", "model"):
            out, calls = tool(name, lacks)
            expect(out.endswith("mark=lacks"), f"{name}: the PATH python3: {out}")
            expect(not any(probe(c) for c in calls), f"{name}: nothing probed: {calls}")
        # python3 first on PATH has matplotlib: chosen for every tool.
        for name in ("plot", "report", "compare"):
            out, calls = tool(name, has)
            expect(out.endswith("mark=has"), f"{name}: the PATH python3 that has it: {out}")
            expect(any(f"{d} tools.cli.{name} " in c for c in calls),
                   f"{name}: run by the PATH python3: {calls}")
        # GPUBARRIER_PYTHON wins, asked nothing, even without matplotlib.
        other = os.path.join(d, "other")
        os.mkdir(other)
        chosen = hiding_python(other, name="py", log=log, mark="chosen")
        out, calls = tool("plot", has, {"GPUBARRIER_PYTHON": chosen})
        expect(out.endswith("mark=chosen") and not any(probe(c) for c in calls),
               f"GPUBARRIER_PYTHON is used as it is: {out} {calls}")
    print("PASS interpreter_search")


def test_folders():
    with tempfile.TemporaryDirectory() as d:
        folder = os.path.join(d, "machine")
        os.makedirs(os.path.join(folder, "sub"))
        kinds = other_kinds(folder)
        gpu = os.path.join(folder, "sub", "single-gpu.csv")
        write_rows(gpu, gbcsv.NAMES, grid_rows())
        page = os.path.join(d, "page.html")
        p = gpubarrier("report", folder, "--html", page)
        expect(p.returncode == 0 and "Traceback" not in p.stderr, "the page of a mixed folder", p)
        text = open(page, encoding="utf-8").read()
        for name in kinds:
            expect(name in text, f"the page names the skipped or shown {name}")
        expect("gpu.grid.cg" in text, "the gpubarrier CSV's rows are on the page")
        low = text.lower()
        for why in ("raw samples", "not a gpubarrier csv"):
            expect(why in low, f"the page says why a file was skipped: {why!r}")
        # The reference check and the sanitizer summary are shown as their own tables.
        expect("EPCC syncbench" in text and "memcheck" in text,
               "reference-check and sanitize tables on the page")
        # Terminal tables over a folder: the same skipping, named on stderr.
        p = gpubarrier("report", "rows", folder)
        expect(p.returncode == 0 and "gpu.grid.cg" in p.stdout and "Traceback" not in p.stderr
               and "run.raw.csv" in p.stderr and "notes.csv" in p.stderr,
               "report rows FOLDER: the gpubarrier CSVs, the others named as skipped", p)
        # No gpubarrier CSV left, nothing else to show: one line, exit 2.
        empty = os.path.join(d, "empty")
        os.mkdir(empty)
        write_plain(os.path.join(empty, "notes.csv"), ["what"], [["x"]])
        one_line(gpubarrier("report", empty, "--html", page, "--force"), 2, "empty",
                 "gpubarrier CSV")
        one_line(gpubarrier("report", "rows", empty), 2, "empty", "gpubarrier CSV")
        # Only a reference check (results/cpu2): a page of it.
        only_ref = os.path.join(d, "cpu")
        os.mkdir(only_ref)
        shutil.copy(kinds["reference-check.csv"], only_ref)
        p = gpubarrier("report", only_ref, "--html", page, "--force")
        expect(p.returncode == 0 and "EPCC syncbench" in open(page, encoding="utf-8").read(),
               "a folder of one reference check gives its page", p)
    print("PASS folders")


@pytest.mark.plain  # the plain build only (tests/CMakeLists.txt)
def test_committed_folders():
    # A copy of what git tracks: a user's own runs (results/local/, or a CSV added to a folder)
    # are theirs, and need not report as the committed folders do.
    scratch = tempfile.TemporaryDirectory()
    results = committed_copy(ROOT, "results", scratch.name)
    with tempfile.TemporaryDirectory() as d:
        for name in sorted(os.listdir(results)):
            folder = os.path.join(results, name)
            has_csv = any(f.endswith(".csv") for _, _, fs in os.walk(folder) for f in fs)
            if not os.path.isdir(folder) or not has_csv:
                continue
            page = os.path.join(d, f"{name}.html")
            p = gpubarrier("report", folder, "--html", page)
            expect(p.returncode == 0 and os.path.getsize(page) > 0 and "Traceback" not in p.stderr,
                   f"report {name} --html", p)
            # On the terminal too: the answers, or a folder's reference checks where it holds
            # no gpubarrier CSV.
            p = gpubarrier("report", folder)
            expect(p.returncode == 0 and p.stdout.strip() and "Traceback" not in p.stderr,
                   f"report {name}", p)
    print("PASS committed_folders")


def test_overwrite():
    with tempfile.TemporaryDirectory() as d:
        omp = os.path.join(d, "omp.csv")
        write_rows(omp, gbcsv.NAMES, host_rows())
        page = os.path.join(d, "p.html")
        with open(page, "w") as f:
            f.write("mine\n")
        one_line(gpubarrier("report", omp, "--html", page), 2, "p.html", "--force")
        expect(open(page).read() == "mine\n", "the refused page is left as it was")
        # A symlink: its target is the user's file as well.
        target, link = os.path.join(d, "target.html"), os.path.join(d, "link.html")
        with open(target, "w") as f:
            f.write("theirs\n")
        os.symlink(target, link)
        one_line(gpubarrier("report", omp, "--html", link), 2, "link.html", "--force")
        expect(open(target).read() == "theirs\n", "the symlink's target is left as it was")
        p = gpubarrier("report", omp, "--html", page, "--force")
        expect(p.returncode == 0 and "<html" in open(page).read().lower(),
               "--force replaces the page", p)
        # plot --out DIR holding a summary.png of the user's.
        need_system_matplotlib()
        plots = os.path.join(d, "plots")
        os.mkdir(plots)
        summary = os.path.join(plots, "summary.png")
        with open(summary, "w") as f:
            f.write("mine\n")
        one_line(gpubarrier("plot", omp, "--out", plots, "--format", "png"), 2, "summary.png",
                 "--force")
        expect(open(summary).read() == "mine\n", "the refused summary.png is left as it was")
        p = gpubarrier("plot", omp, "--out", plots, "--format", "png", "--force")
        expect(p.returncode == 0 and open(summary, "rb").read(4) == b"\x89PNG",
               "--force replaces summary.png", p)
    print("PASS overwrite")


def test_bad_values():
    with tempfile.TemporaryDirectory() as d:
        good = os.path.join(d, "good.csv")
        write_rows(good, gbcsv.NAMES, host_rows())

        def with_value(name, row, **kw):
            rows = host_rows()
            rows[row].update({k: str(v) for k, v in kw.items()})
            path = os.path.join(d, name)
            write_rows(path, gbcsv.NAMES, rows)
            return path

        # NaN and infinity are not figures: every tool refuses the row (file:line, column).
        for text in ("nan", "inf", "-Infinity", "1e999"):
            bad = with_value("bad.csv", 1, value=text, mean=text, median=text)
            for tool, args in (("compare", [good, bad]), ("report", [bad]),
                               ("report", ["rows", bad]), ("model", ["--from", bad])):
                one_line(gpubarrier(tool, *args), 2, "bad.csv:3", "'value'")
        bad = with_value("bad.csv", 0, stddev="nan")
        one_line(gpubarrier("compare", good, bad), 2, "bad.csv:2", "'stddev'")
        bad = with_value("bad.csv", 0, stddev="-1")
        one_line(gpubarrier("compare", good, bad), 2, "bad.csv:2", "'stddev'")
        # Bytes that are not text as raw samples.
        junk = os.path.join(d, "junk.csv")
        with open(junk, "wb") as f:
            f.write(b"run_id,method\n\xff\xfe\x00\x81,\xc3\n")
        one_line(gpubarrier("compare", good, good, "--raw", junk, junk), 2, "junk.csv")
        # A full standard output: a write error, one line.
        if os.path.exists("/dev/full"):
            for tool, args in (("compare", [good, good]), ("report", [good])):
                with open("/dev/full", "w") as full:
                    p = subprocess.run([EXE, tool, *args], stdout=full, stderr=subprocess.PIPE,
                                       text=True, timeout=600,
                                       env=dict(os.environ, GPUBARRIER_TOOLS=TOOLS))
                p.stdout = ""
                one_line(p, 1, "standard output", "No space left")
                expect("bug" not in p.stderr, "a full disk is no bug in the tool", p)
        need_system_matplotlib()
        out = os.path.join(d, "plots")
        for name, kw, words in (("huge.csv", {"value": "1e308"}, ("huge.csv:3", "'value'")),
                                ("negative.csv", {"stddev": "-1"}, ("negative.csv:3", "'stddev'")),
                                ("nan.csv", {"value": "nan"}, ("nan.csv:3", "'value'"))):
            path = with_value(name, 1, **kw)
            one_line(gpubarrier("plot", path, "--out", out), 2, *words)
        # --out that is a file, --out that cannot be made.
        one_line(gpubarrier("plot", good, "--out", good), 2, "good.csv", "--out")
        for where in ("/sys/gpubarrier-plots", "/proc/nope/plots"):
            if not os.path.exists(os.path.dirname(where)) or os.path.exists(where):
                continue
            one_line(gpubarrier("plot", good, "--out", where), 2, where, "--out")
    print("PASS bad_values")


def test_parse_errors():
    need_system_matplotlib()
    with tempfile.TemporaryDirectory() as d:
        csv_path = os.path.join(d, "omp.csv")
        write_rows(csv_path, gbcsv.NAMES, host_rows())
        page = os.path.join(d, "p.html")
        for tool, args, words in (
                ("compare", [csv_path, csv_path, "--by", "sytem"], ("--by", "sytem", "system")),
                ("compare", [csv_path, csv_path, "--fromat", "json"], ("--fromat", "--format")),
                ("model", ["--syncs", "NaN"], ("--syncs", "NaN")),
                ("model", ["--study", "--format", "jsn"], ("--format", "json")),
                ("report", [csv_path, "--html", page, "--forse"], ("--forse", "--force")),
                ("report", [], ("gpubarrier report --help",)),
                ("plot", [csv_path, "--only", "compar"], ("--only", "compare")),
                ("plot", [csv_path, "--bogus"], ("--bogus",))):
            line = one_line(gpubarrier(tool, *args), 2, *words)
            expect(line.startswith(f"gpubarrier {tool}: error: "),
                   f"the line starts with 'gpubarrier {tool}: error: ': {line}")
        # --help still prints the whole help, on stdout, exit 0.
        for tool in ("compare", "plot", "model", "report"):
            p = gpubarrier(tool, "--help")
            expect(p.returncode == 0 and len(p.stdout.splitlines()) > 10 and p.stderr == "",
                   f"{tool} --help prints the help", p)
    print("PASS parse_errors")

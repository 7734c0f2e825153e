#!/usr/bin/env python3
"""What the Python tools (`gpubarrier compare|report|model|plot`) and merge do with files no
gpubarrier run writes: endless, too large, one line too long, saved with a byte order mark,
named with a newline; and how much memory a large CSV takes. Every reader is bounded
(gpubarrier_tools/data/user_files.py, io/csv_reader.hpp): a file over a bound is bad input, exit 2, one line
naming the file and the bound.

Cases:
  endless       /dev/zero as a CSV, as raw samples, as a network file and as a selfcheck log:
                refused at the line bound (1 MiB), in bounded memory
  oversize      a (sparse) CSV of more than 1 GiB: refused by its size before it is read, by
                the tools and by merge
  long_line     a CSV with a line longer than 1 MiB: refused naming that line and the bound, by
                the tools and by merge
  bom           the same CSVs (and raw samples, a network file, a reference check) saved with a
                UTF-8 byte order mark: the same answers as without it
  newline_path  a path, a folder and a glob holding a newline: one line, the name escaped
  memory        a CSV of 50,000 committed rows: compare, report and model keep at most a small
                multiple of its size (peak resident memory against that of the committed CSV)
  merge_memory  `gpubarrier merge` of a CSV of 300 MB (more than --resume's 256 MiB) given
                twice: the file itself out, byte for byte, in a fraction of its size of memory

Run by pytest: pytest tests/cli/test_tool_bounds.py [--gpubarrier PATH]
"""
import os
import resource
import shutil
import subprocess
import sys
import tempfile

import pytest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "gpubarrier_tools")
from cli_common import executable, expect, one_line

EXE = executable()
REDUCTION = os.path.join(ROOT, "results", "h100x2", "reduction.csv")  # the model's inputs too
NETWORK = os.path.join(ROOT, "configs", "network", "ndr-published.csv")
CHECK = os.path.join(ROOT, "results", "h100x4", "reference-check.csv")
# One node's inputs of `report multinode-model` (docs/cluster.md).
ONE_NODE = [os.path.join(ROOT, "results", "h100x4", name) for name in
            ("multinode-one-node-2.csv", "multinode-one-node-4.csv", "legacy-host.csv")] + \
    ["--gpus-per-node", "8", "--combine"]
# An address-space limit for the tools run directly in the endless and oversize cases: a tool
# that reads such a file whole fails at it (MemoryError) instead of filling this machine.
ADDRESS_LIMIT = 3 << 30


def env():
    full = dict(os.environ, GPUBARRIER_TOOLS=TOOLS)
    for var in ("GPUBARRIER_DEBUG", "GPUBARRIER_COMMAND"):
        full.pop(var, None)
    return full


def gpubarrier(*args, cwd=None):
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=env(), timeout=600,
                          cwd=cwd)


def matplotlib_python():
    """A Python that imports matplotlib (this one, else the system's), or None."""
    for python in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(python) and subprocess.run(
                [python, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            return python
    return None


def tool(script, *args, python=None):
    """gpubarrier_tools/cli/SCRIPT run directly under ADDRESS_LIMIT (no executable in between, whose sanitized
    build reserves more address space than that)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_LIMIT, ADDRESS_LIMIT))
    return subprocess.run([python or sys.executable, "-m", "gpubarrier_tools.cli." + script.removesuffix(".py"), *args],
                          capture_output=True, text=True, env=env(), timeout=300,
                          preexec_fn=limit)


def readers(path):
    """(script, args) of the tools reading `path` as a gpubarrier CSV (or raw samples)."""
    return [("compare.py", [path, REDUCTION]),
            ("compare.py", [REDUCTION, REDUCTION, "--raw", path]),
            ("model.py", ["--from", path]), ("report.py", [path]), ("report.py", ["rows", path])]


def test_endless():
    zero = "/dev/zero"
    for script, args in readers(zero) + [
            ("report.py", ["multinode-model", REDUCTION, "--network", zero]),
            ("report.py", ["selfcheck-log", zero])]:
        one_line(tool(script, *args), 2, zero, "line longer than 1 MiB")
    python = matplotlib_python()
    if python:
        with tempfile.TemporaryDirectory() as d:
            one_line(tool("plot.py", zero, "--out", d, python=python), 2, zero, "1 MiB")
    print("PASS endless")


def after_header(d, name, finish):
    """d/name: the header of a committed CSV, then what `finish` writes to the open file."""
    path = os.path.join(d, name)
    with open(REDUCTION, "rb") as src, open(path, "wb") as f:
        f.write(src.readline())
        finish(f)
    return path


def test_oversize():
    with tempfile.TemporaryDirectory() as d:
        # sparse: no disk space taken
        big = after_header(d, "big.csv", lambda f: f.truncate((1 << 30) + 1))
        for script, args in readers(big):
            one_line(tool(script, *args), 2, "big.csv", "larger than the 1 GiB")
        # In a folder: named as a CSV that is not read, with why.
        one_line(tool("report.py", d), 2, d, "big.csv", "larger than the 1 GiB")
        # merge has the tools' bound, and refuses the file by its size too.
        one_line(gpubarrier("merge", big, "--out", os.path.join(d, "m.csv")), 2, "big.csv",
                 "more than 1 GiB")
        expect(not os.path.exists(os.path.join(d, "m.csv")), "merge wrote no --out")
    print("PASS oversize")


def test_long_line():
    with tempfile.TemporaryDirectory() as d:
        long = after_header(d, "long.csv", lambda f: f.write(b"3," + b"x" * (2 << 20) + b"\r\n"))
        for args in (["compare", long, REDUCTION], ["model", "--from", long],
                     ["report", "rows", long]):
            one_line(gpubarrier(*args), 2, "long.csv:2", "line longer than 1 MiB")
        one_line(gpubarrier("merge", long, "--out", os.path.join(d, "m.csv")), 2, "long.csv:2",
                 "row longer than 1 MiB")
    print("PASS long_line")


def with_bom(src, dest):
    with open(src, "rb") as f, open(dest, "wb") as out:
        out.write(b"\xef\xbb\xbf" + f.read())
    return dest


def test_bom():
    with tempfile.TemporaryDirectory() as d:
        # Folders of one name length: the tables' columns are as wide on both sides.
        for side in ("plain", "withb"):
            os.makedirs(os.path.join(d, side))
            put = (lambda src, dest: shutil.copy(src, dest)) if side == "plain" else with_bom
            put(REDUCTION, os.path.join(d, side, "reduction.csv"))
            put(NETWORK, os.path.join(d, side, "network.csv"))
            put(CHECK, os.path.join(d, side, "reference-check.csv"))
            with open(os.path.join(d, side, "raw.csv"), "a") as f:  # after the BOM
                f.write("run_id,method,config,gpu_ids,launcher,metric,unit,statistic,sample,"
                        "value\n")
        for args in (["compare", REDUCTION, "SIDE/reduction.csv"],
                     ["compare", REDUCTION, REDUCTION, "--raw", "SIDE/raw.csv"],
                     ["model", "--from", "SIDE/reduction.csv"],
                     ["report", "rows", "SIDE/reduction.csv"],
                     ["report", "reference", "SIDE/reference-check.csv"],
                     ["report", "multinode-model", *ONE_NODE, "--network", "SIDE/network.csv"]):
            plain, marked = (gpubarrier(*[a.replace("SIDE", side) for a in args], cwd=d)
                             for side in ("plain", "withb"))
            what = " ".join(args[:2])
            expect(plain.returncode == 0, f"{what} reads the file without a byte order mark",
                   plain)
            expect(marked.returncode == 0 and marked.stderr == "",
                   f"{what} reads the file with a byte order mark", marked)
            expect(marked.stdout.replace("withb/", "plain/") == plain.stdout,
                   f"{what}: the same answer with a byte order mark", marked)
    print("PASS bom")


def test_newline_path():
    with tempfile.TemporaryDirectory() as d:
        missing = os.path.join(d, "a\nb.csv")
        shown = repr(missing)[1:-1]  # the name as the line shows it: a\nb.csv
        for args in (["compare", missing, REDUCTION], ["model", "--from", missing],
                     ["report", "rows", missing], ["report", missing]):
            one_line(gpubarrier(*args), 2, shown)
        junk = os.path.join(d, "x\ny.csv")
        with open(junk, "w") as f:
            f.write("schema_version,run_id\n3,r1,extra\n")
        one_line(gpubarrier("report", "rows", junk), 2, repr(junk) + ":2")
        folder = os.path.join(d, "runs\nold")
        os.makedirs(folder)
        with open(os.path.join(folder, "notes.csv"), "w") as f:
            f.write("what,when\n")
        one_line(gpubarrier("report", folder), 2, repr(folder), "notes.csv")
        one_line(gpubarrier("compare", "--measure-floor", os.path.join(d, "*\n.csv")), 2,
                 "no file matches", "\\n.csv")
    print("PASS newline_path")


def write_rows(path, n):
    """A CSV of the first n rows of REDUCTION repeated, each copy its own run with its own
    figures (so that no text is shared that a real file would not share)."""
    import csv  # noqa: PLC0415
    figures = ("value", "mean", "median", "min", "max", "p95", "p99")
    with open(REDUCTION, newline="") as f:
        header, *body = list(csv.reader(f))
    at = [header.index(c) for c in figures]
    run = header.index("run_id")
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(header)
        for k in range(n):
            copy, r = divmod(k, len(body))
            r = list(body[r])
            r[run] = f"{r[run]}-{copy}"
            for i in at:
                if r[i]:
                    r[i] = repr(float(r[i]) * (1 + copy * 1e-9))
            w.writerow(r)
    return os.path.getsize(path)


def peak(*args, stdout=os.devnull):
    """(peak resident bytes, exit status) of `gpubarrier ARGS`, the Python tool it runs
    included (os.wait4 reports the largest of the process and the children it waited for);
    its standard output goes to the file `stdout`."""
    with open(stdout, "w") as null:
        child = subprocess.Popen([EXE, *args], stdout=null, stderr=subprocess.DEVNULL, env=env())
        _, status, usage = os.wait4(child.pid, 0)
    return usage.ru_maxrss * 1024, os.waitstatus_to_exitcode(status)


def test_memory():
    with tempfile.TemporaryDirectory() as d:
        big = os.path.join(d, "big.csv")
        size = write_rows(big, 50_000)
        for name, small_args, big_args in (
                ("compare", ["compare", REDUCTION, REDUCTION], ["compare", big, REDUCTION]),
                ("report", ["report", REDUCTION], ["report", big]),
                ("model", ["model", "--from", REDUCTION], ["model", "--from", big])):
            base, rc = peak(*small_args)
            expect(rc == 0, f"{name} of the committed CSV (exit {rc})")
            used, rc = peak(*big_args)
            expect(rc == 0, f"{name} of {size} bytes of rows (exit {rc})")
            # A dict of every column per row took about 8 times the rows' text; the rows as
            # read now take about 2.
            expect(used - base < 4 * size,
                   f"{name} of {size} bytes of rows: peak resident memory {used} bytes, "
                   f"{used - base} more than for the committed CSV ({base}): expected less "
                   f"than 4 times the rows' size")
            print(f"{name}: {(used - base) / size:.2f} x the rows' size ({used} bytes at most "
                  f"resident, {base} for the committed CSV)")
    print("PASS memory")


@pytest.mark.plain  # the plain build only (tests/CMakeLists.txt)
def test_merge_memory():
    with tempfile.TemporaryDirectory() as d:
        small = os.path.join(d, "small.csv")
        p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2:4",
                       "--samples", "3", "--time-budget", "0.05", "--out", small)
        expect(p.returncode == 0, "a run to copy rows from", p)
        with open(small, "rb") as f:
            header, *body = f.read().split(b"\r\n")[:-1]
        run_id = body[0].split(b",")[1]
        expect(all(r.split(b",")[1] == run_id for r in body), "one run_id in the run")
        # Each copy its own run: distinct figures, every one kept (no quoting to change).
        big, target, copies = os.path.join(d, "big.csv"), 300 << 20, 0
        with open(big, "wb") as f:
            f.write(header + b"\r\n")
            while f.tell() < target:
                f.write(b"".join(r.replace(b"," + run_id + b",", b",%s-%d," % (run_id, copies + k),
                                           1) + b"\r\n"
                                 for k in range(1000) for r in body))
                copies += 1000
        size, rows = os.path.getsize(big), copies * len(body)
        # Peak resident memory beyond what the merge of the run's own file takes (a sanitized
        # build's runtime, this process's pages counted to the child before it runs the
        # executable), measured while this process is as small as it will be.
        base, rc = peak("merge", small, small, "--out", os.path.join(d, "small-merged.csv"))
        expect(rc == 0, f"merge of the run's file (exit {rc})")
        out, said = os.path.join(d, "merged.csv"), os.path.join(d, "stdout")
        used, rc = peak("merge", big, big, "--out", out, "--summary", stdout=said)
        with open(said) as f:
            said = f.read().splitlines()
        expect(rc == 0, f"merge of {size} bytes, twice (exit {rc}): {said[-1:]}")
        expect(said[-1] == f"merged 2 files, {rows} rows ({rows} ok; {rows} duplicates dropped, "
                           f"0 upgraded from older schema versions) into {out}",
               f"the merge's last line: {said[-1]}")
        expect(len(said) == 2 + len(body) and
               all(line.rstrip().endswith(f"  {copies}") for line in said[1:-1]),
               f"--summary: a line per figure of the run, {copies} rows each: {said[:-1]}")
        # Rows held as fields would take about ten times the file's size; streamed, merge holds
        # a table of the figures kept (where each is in the output) and one row.
        expect(used - base < size // 2,
               f"merge of {size} bytes ({rows} rows) twice: peak resident memory {used} bytes, "
               f"{used - base} more than for the run's file ({base}): expected less than half "
               f"the file's size")
        print(f"merge: {(used - base) / size:.3f} x the file's size ({used} bytes at most "
              f"resident for {size} bytes, {rows} rows, given twice; {base} for the run's file)")
        with open(out, "rb") as a, open(big, "rb") as b:
            same = True
            while same:
                x, y = a.read(1 << 20), b.read(1 << 20)
                same = x == y
                if not x:
                    break
        expect(same, "the merge of a current CSV with itself is that CSV, byte for byte")
    print("PASS merge_memory")

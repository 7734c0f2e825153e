#!/usr/bin/env python3
"""Every report mode's output on every committed results folder, kept as one SHA-256 per command
so that a change of the tools' code that should change no output can be shown to change none.

A command is `gpubarrier report ARGS` run in a copy of the committed results/ (git ls-files, so
that a user's own runs change nothing), with relative paths, so that its output does not depend
on where the copy lies. Its output is its exit status, standard output, standard error and, for
--html, the page; the page's "Generated <date> <time> UTC" is set to a fixed text. The embedded
PNGs (matplotlib's bytes, which another matplotlib version draws differently) are kept apart: the
text's SHA-256 counts with "png" in their place, and theirs is compared only where the matplotlib
version is the one the manifest was written with.

Usage:
  report_outputs.py (GPUBARRIER | --fork | --tools DIR) --write MANIFEST [--save DIR]
  report_outputs.py (GPUBARRIER | --fork | --tools DIR) --check MANIFEST [--save DIR]
GPUBARRIER: runs `GPUBARRIER report ...` (the user's command); --fork: this checkout's tools
package, imported once, each command in a forked child (the same outputs, a fraction of the
time: what ctest runs); --tools DIR runs `python DIR/report.py` (the tools of an older tree, when
they were a folder of scripts: `git archive REV tools configs results | tar -x -C DIR/..`, as the
tools read configs/ and results/ beside them).
The manifest (tests/cli/report_outputs.json) is rewritten with --write where an output is meant
to change, or when results/ gains a folder.
--save writes each command's normalised output into DIR (one file per command), to diff two trees'
outputs with `diff -r`. --check exits 1 naming each command whose output differs.
"""
import argparse
import base64
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

from cli_common import committed_copy, committed_files
from tool_python import python_with

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Modes that take the CSVs (or folders) alone.
FOLDER_MODES = [[], ["multi"], ["scaling"], ["hostwait"], ["faults"], ["floor"], ["push-phases"],
                ["selfcheck"], ["spans"], ["multinode-model"], ["reduction-tables"],
                ["count", "--span"], ["legacy-study", "launch"], ["legacy-study", "multigrid"],
                ["findings"], ["single"], ["foundation"]]
WHOLE_TREE = [["folders", "results"], ["study-tables", "results"],
              ["reference-summary", "results"], ["findings", "--newest", "results"],
              ["model", "--study"], ["results"]]


def commands():
    """(name, argv) of every command, from the tracked files under results/."""
    files = [f for f in committed_files(ROOT, "results")]
    csvs = sorted(f for f in files if f.endswith(".csv"))
    folders = sorted({os.path.dirname(f) for f in csvs})
    out = [(" ".join(a), a) for a in WHOLE_TREE]
    for d in folders:
        for mode in FOLDER_MODES:
            argv = mode + [d]
            out.append((" ".join(argv), argv))
        mine = [f for f in csvs if os.path.dirname(f) == d]
        if len(mine) >= 2:
            argv = ["compare", mine[0], mine[1]]
            out.append((" ".join(argv), argv))
        for f in mine:
            if "reduction" in os.path.basename(f):
                argv = ["model", "--from", f]
                out.append((" ".join(argv), argv))
    # the HTML page of each machine kind's folder
    for d in sorted({f.split("/")[1] for f in csvs if f.count("/") >= 2}):
        argv = [f"results/{d}", "--html", f"page-{d}.html"]
        out.append((" ".join(argv), argv))
    return out


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def normalise(text):
    """The output with its time stamp fixed and its PNGs as "png"; the PNGs' SHA-256s."""
    text = re.sub(r"Generated \d{4}-\d\d-\d\d \d\d:\d\d UTC", "Generated DATE TIME UTC", text)
    pngs = []

    def png(m):
        pngs.append(hashlib.sha256(base64.b64decode(m.group(1))).hexdigest())
        return "data:image/png;base64,png"
    return re.sub(r"data:image/png;base64,([A-Za-z0-9+/=]+)", png, text), pngs


def run_one(base, work, python, argv):
    env = dict(os.environ, GPUBARRIER_COMMAND="gpubarrier report", GPUBARRIER_PYTHON=python)
    env.pop("GPUBARRIER_DEBUG", None)
    p = subprocess.run(base + argv, capture_output=True, text=True, cwd=work, env=env,
                       timeout=600)
    return output(work, argv, p.returncode, p.stdout, p.stderr)


def output(work, argv, status, stdout, stderr):
    """The normalised output of one command (normalise); a page it wrote is read and removed."""
    out = f"exit {status}\n--- stdout\n{stdout}--- stderr\n{stderr}"
    if "--html" in argv:
        page = os.path.join(work, argv[argv.index("--html") + 1])
        if os.path.exists(page):
            with open(page, encoding="utf-8") as f:
                out += f"--- page\n{f.read()}"
            os.remove(page)
    return normalise(out)


def run_forked(work, cmds, jobs):
    """Each command as `gpubarrier report` runs it (gpubarrier_tools.cli.report's main under tool_main.run, its
    standard output and error to files, GPUBARRIER_COMMAND naming the command), in a child forked
    from this process, which imported the package and matplotlib once: the same outputs as
    separate interpreters, without an interpreter's start and imports for each of 439 commands.
    At most `jobs` children at a time; the outputs in the order of `cmds`."""
    import matplotlib  # noqa: PLC0415 (before the fork: each child shares it)
    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401,PLC0415
    from gpubarrier_tools.cli import report  # noqa: PLC0415
    from gpubarrier_tools.data import tool_main  # noqa: PLC0415
    os.environ["GPUBARRIER_COMMAND"] = "gpubarrier report"
    os.environ.pop("GPUBARRIER_DEBUG", None)
    results, running, pending = {}, {}, list(enumerate(cmds))
    with tempfile.TemporaryDirectory() as logs:
        def reap():
            pid, status = os.wait()
            i = running.pop(pid)
            texts = []
            for stream in ("out", "err"):
                with open(os.path.join(logs, f"{i}.{stream}"), encoding="utf-8") as f:
                    texts.append(f.read())
            results[i] = output(work, cmds[i][1], os.waitstatus_to_exitcode(status), *texts)
        while pending or running:
            if pending and len(running) < jobs:
                i, (_, argv) = pending.pop(0)
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    code = 1
                    try:
                        os.chdir(work)
                        for fd, stream in ((1, "out"), (2, "err")):
                            f = os.open(os.path.join(logs, f"{i}.{stream}"),
                                        os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                            os.dup2(f, fd)
                            os.close(f)
                        sys.argv = [report.__file__, *argv]
                        tool_main.run(report.main, argv)
                        code = 0
                    except SystemExit as e:
                        if isinstance(e.code, str):
                            print(e.code, file=sys.stderr)
                        code = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
                    finally:
                        for stream in (sys.stdout, sys.stderr):
                            try:
                                stream.flush()
                            except Exception:  # noqa: BLE001 (a full output: the child ends)
                                pass
                        os._exit(code)
                running[pid] = i
            else:
                reap()
    return [results[i] for i in range(len(cmds))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("exe", nargs="?")
    ap.add_argument("--tools")
    ap.add_argument("--fork", action="store_true")
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--write")
    what.add_argument("--check")
    ap.add_argument("--save")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if (a.exe is None) == (a.tools is None) and not a.fork:
        ap.error("give the gpubarrier executable, --tools DIR or --fork")
    python = python_with("matplotlib")
    if python is None:
        sys.exit("FAIL: no python3 with matplotlib (scripts/setup installs python3-matplotlib)")
    if a.fork and python != sys.executable:  # the children draw the pages' charts
        os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])
    mpl_version = subprocess.run([python, "-c", "import matplotlib; print(matplotlib.__version__)"],
                                 capture_output=True, text=True).stdout.strip()
    want = {}
    if a.check:
        with open(a.check, encoding="utf-8") as f:
            want = json.load(f)
    mpl = mpl_version if not a.check or want.get("matplotlib") == mpl_version else None
    cmds = commands()
    with tempfile.TemporaryDirectory() as scratch:
        committed_copy(ROOT, "results", scratch)
        if a.fork:
            outs = run_forked(scratch, cmds, a.jobs)
        else:
            base = [os.path.abspath(a.exe), "report"] if a.exe else \
                [python, os.path.join(os.path.abspath(a.tools), "cli", "report.py")]
            with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
                outs = list(pool.map(lambda c: run_one(base, scratch, python, c[1]), cmds))
    got = {name: {"text": sha(text), **({"png": sha(" ".join(pngs))} if pngs else {})}
           for (name, _), (text, pngs) in zip(cmds, outs)}
    if a.save:
        os.makedirs(a.save, exist_ok=True)
        for (name, _), (out, pngs) in zip(cmds, outs):
            with open(os.path.join(a.save, name.replace("/", "_").replace(" ", "_") or "answers"),
                      "w", encoding="utf-8") as f:
                f.write(out + "".join(f"png {p}\n" for p in pngs))
    if a.write:
        with open(a.write, "w", encoding="utf-8") as f:
            json.dump({"matplotlib": mpl_version, "outputs": got}, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{len(got)} commands written to {a.write}")
        return 0
    if mpl is None:
        print(f"note: matplotlib {mpl_version} here, {want.get('matplotlib')} in the manifest: "
              f"the pages' PNGs are not compared")
    old = want.get("outputs", {})

    def same(n):
        return n in old and old[n]["text"] == got[n]["text"] and \
            (mpl is None or old[n].get("png") == got[n].get("png"))
    bad = [n for n in got if not same(n)] + [n for n in old if n not in got]
    for n in bad:
        print(f"FAIL: `gpubarrier report {n}`: " +
              ("not in the manifest" if n not in old else
               "no longer run" if n not in got else "output differs"))
    if bad:
        print(f"{len(bad)} of {len(got)} commands differ from {a.check} (rerun with --save DIR "
              f"on both trees and diff -r to see how)")
        return 1
    print(f"{len(got)} commands: every output as in {a.check}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

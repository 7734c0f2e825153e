#!/usr/bin/env python3
"""`cmake --install` into a temporary prefix, then gpubarrier run from that prefix with the source
tree and the build folder out of reach: an empty tmpfs is mounted over them in a mount namespace
of each command's own (`unshare -m`; the files stay where they are for everyone else).

From the prefix: --version names <prefix>/share/gpubarrier; list; run --methods
host.omp.barrier; sweep of a shipped sweep by name; jobs --scheduler none; compare; report multi
and report --html; the installed ReFrame suite's HostOmpBarrier (system local, no scheduler).
The prefix copied whole to another folder (`cp -a`), the original hidden too: --version, list,
run and compare (without --floor, its --help stating the floors) from the copy, whose run path
names nothing of the source tree, the build folder or the original prefix. An executable copied
away from its prefix says where its data files should be, and a Python tool it cannot find fails
(exit 1) in one line naming that place.

Run by pytest: pytest tests/cli/test_install.py. Skipped where no mount namespace can be made
(needs root or CAP_SYS_ADMIN).
"""
import csv
import json
import os
import re
import shutil
import subprocess

import pytest

from cli_common import clean_env, executable, expect
from reframe_runner import cases, find_reframe

EXE = os.path.realpath(executable())
BUILD = os.path.dirname(EXE)
SOURCE = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HIDE = [SOURCE] + ([BUILD] if not (BUILD + os.sep).startswith(SOURCE + os.sep) else [])
# The data files of an install, and one file of each kind that must be there.
DATA = "share/gpubarrier"
INSTALLED = ["bin/gpubarrier", f"{DATA}/gpubarrier_tools/cli/compare.py",
             f"{DATA}/gpubarrier_tools/cli/report.py", f"{DATA}/gpubarrier_tools/data/gbcsv.py",
             f"{DATA}/gpubarrier_tools/data/study_conclusions.json",
             f"{DATA}/configs/sweeps/quick.yaml",
             f"{DATA}/configs/systems/local.yaml", f"{DATA}/jobs/templates/slurm-job.sh.in",
             f"{DATA}/reframe/config.py", f"{DATA}/reframe/checks/gpubarrier_checks.py",
             "share/doc/gpubarrier/README.md"]
# Runs "$@" after mounting an empty tmpfs over every folder in $GB_HIDE.
HIDING = 'for d in $GB_HIDE; do mount -t tmpfs gb-hidden "$d" || exit 97; done; exec "$@"'


def hidden(args, work, env, timeout=300, hide=()):
    """`args` in a mount namespace where the source tree, the build folder and `hide` are empty."""
    return subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", HIDING, "sh",
                           *args], capture_output=True, text=True, cwd=work, timeout=timeout,
                          env=dict(env, GB_HIDE=" ".join(HIDE + list(hide))))


def run_path(exe):
    """The executable's RUNPATH/RPATH entries, from readelf -d."""
    p = subprocess.run(["readelf", "-d", exe], capture_output=True, text=True)
    expect(p.returncode == 0, f"readelf -d {exe}", p)
    found = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[(.*)\]", p.stdout)
    return [d for entry in found for d in entry.split(":")]


def moved_prefix(prefix, work, env):
    """The prefix copied as a whole (`cp -a`) to another folder runs from there with the source
    tree, the build folder and the original prefix out of reach: its run path names only places
    relative to itself or outside them."""
    moved = os.path.join(work, "moved")
    p = subprocess.run(["cp", "-a", prefix, moved], capture_output=True, text=True)
    expect(p.returncode == 0, f"cp -a {prefix} {moved}", p)
    exe = os.path.join(moved, "bin", "gpubarrier")
    absolute = [d for d in run_path(exe) if os.path.isabs(d)]  # not $ORIGIN/...
    inside = [d for d in absolute for top in HIDE + [prefix]
              if os.path.realpath(d) == top or os.path.realpath(d).startswith(top + os.sep)]
    expect(not inside, f"the installed run path names nothing of {HIDE + [prefix]}: {inside}")
    env = dict(env, PATH=os.path.join(moved, "bin") + os.pathsep + env.get("PATH", ""))
    run = lambda *args: hidden(list(args), work, env, hide=[prefix])  # noqa: E731
    p = run("sh", "-c", 'test ! -e "$0/bin/gpubarrier"', prefix)
    expect(p.returncode == 0, f"{prefix} is out of reach beside the copy", p)
    p = run(exe, "--version")
    want = f"data files: {moved}/{DATA} (installed)"
    expect(p.returncode == 0 and want in p.stdout, f"the moved prefix's --version says '{want}'",
           p)
    p = run(exe, "list")
    expect(p.returncode == 0 and re.search(r"^host\.omp\.barrier .* yes$", p.stdout, re.M),
           "list from the moved prefix", p)
    p = run(exe, "run", "--methods", "host.omp.barrier", "--samples", "5", "--time-budget", "0.2",
            "--out", "moved.csv")
    expect(p.returncode == 0 and ok_rows(os.path.join(work, "moved.csv")),
           "run --methods host.omp.barrier from the moved prefix writes ok rows", p)
    # compare without --floor takes each technique's noise floor from the installed
    # gpubarrier_tools/data/noise_floors.json (the committed repeat runs are not installed), and --help states them.
    p = run(exe, "compare", "moved.csv", "omp.csv")
    expect(p.returncode == 0 and "host.omp.barrier" in p.stdout and "verdict: same when" in p.stdout,
           "compare without --floor from the moved prefix", p)
    p = run(exe, "compare", "--help")
    expect(p.returncode == 0 and "noise_floors.json" in p.stdout and "not computed" not in
           p.stdout and re.search(r"clock \d[\d.]*%", p.stdout),
           "compare --help from the moved prefix states the floors and their file", p)


def sanitizer_env(env, work):
    """A sanitizer build's suppression files live in the source tree: copies of them, so that the
    sanitized executable still reads them with the tree hidden."""
    for var in ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"):
        parts = []
        for item in env.get(var, "").split(":"):
            if item.startswith("suppressions=") and os.path.isfile(item.split("=", 1)[1]):
                copy = os.path.join(work, f"{var.lower()}.supp")
                shutil.copyfile(item.split("=", 1)[1], copy)
                item = f"suppressions={copy}"
            parts.append(item)
        if var in env:
            env[var] = ":".join(parts)
    return env


def ok_rows(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def installed_reframe(run, prefix, work):
    """The installed ReFrame suite's HostOmpBarrier, with the installed gpubarrier as its default
    executable (not run where ReFrame is not installed, unless GPUBARRIER_REQUIRE_REFRAME=1)."""
    reframe = find_reframe()
    if not reframe:
        expect(os.environ.get("GPUBARRIER_REQUIRE_REFRAME") != "1",
               "a `reframe` command (scripts/setup installs reframe-hpc)")
        print("note: no `reframe` command here: the installed ReFrame suite is not run")
        return
    report = os.path.join(work, "rfm.json")
    p = run(reframe, "-C", os.path.join(prefix, DATA, "reframe", "config.py"), "--system",
            "local:cpu", "-n", "HostOmpBarrier", "--prefix", os.path.join(work, "rfm"),
            "--nocolor", "--report-file", report, "-r")
    got = cases(json.load(open(report))) if p.returncode == 0 else {}
    expect(list(got) == ["HostOmpBarrier"] and got["HostOmpBarrier"]["result"] == "pass" and
           got["HostOmpBarrier"]["executable"] == os.path.join(prefix, "bin", "gpubarrier"),
           "the installed ReFrame suite runs the installed gpubarrier", p)


def test_install(tmp_path):
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace to hide the source tree in: {probe.stderr.strip()}")
    work = str(tmp_path)
    prefix = os.path.join(work, "prefix")
    p = subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix],
                       capture_output=True, text=True, timeout=300)
    expect(p.returncode == 0, f"cmake --install {BUILD} --prefix {prefix}", p)
    missing = [f for f in INSTALLED if not os.path.isfile(os.path.join(prefix, f))]
    expect(not missing, f"the prefix holds {', '.join(missing)}", p)
    legacy = os.path.isfile(os.path.join(BUILD, "gpubarrier-legacy"))
    expect(os.path.isfile(os.path.join(prefix, "bin", "gpubarrier-legacy")) == legacy,
           f"bin/gpubarrier-legacy is installed exactly when it was built ({legacy})", p)

    env = clean_env(drop=("GPUBARRIER_TOOLS", "GPUBARRIER_CONFIGS",
                          "GPUBARRIER_LEGACY_HELPER", "GPUBARRIER_PYTHON"))
    env = sanitizer_env(env, work)
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env.get("PATH", "")
    env["TMPDIR"] = work  # ReFrame's log
    run = lambda *args, **kw: hidden(list(args), work, env, **kw)  # noqa: E731

    p = run("sh", "-c", 'test ! -e "$0/CMakeLists.txt" && test ! -e "$1"', SOURCE, EXE)
    expect(p.returncode == 0, f"{SOURCE} and {EXE} are out of reach in the namespace", p)
    p = run("gpubarrier", "--version")
    want = f"data files: {prefix}/{DATA} (installed)"
    expect(p.returncode == 0 and want in p.stdout, f"--version says '{want}'", p)
    p = run("gpubarrier", "list")
    expect(p.returncode == 0 and re.search(r"^host\.omp\.barrier .* yes$", p.stdout, re.M),
           "list from the prefix", p)
    p = run("gpubarrier", "run", "--methods", "host.omp.barrier", "--samples", "5",
            "--time-budget", "0.2", "--out", "omp.csv")
    expect(p.returncode == 0 and ok_rows(os.path.join(work, "omp.csv")),
           "run --methods host.omp.barrier writes ok rows", p)
    p = run("gpubarrier", "sweep", "quick", "--methods", "host.omp.barrier", "--samples", "3",
            "--time-budget", "0.1", "--out", "quick.csv")
    expect(p.returncode == 0 and ok_rows(os.path.join(work, "quick.csv")),
           "sweep quick (a shipped sweep by name) from the prefix", p)
    p = run("gpubarrier", "jobs", "--system", "local", "--sweep", "quick", "--scheduler",
            "none", "--out", "jobs")
    scripts = sorted(os.listdir(os.path.join(work, "jobs"))) if p.returncode == 0 else []
    expect(p.returncode == 0 and any(s.endswith(".sh") for s in scripts),
           f"jobs --system local --sweep quick --scheduler none writes scripts ({scripts})", p)
    text = "".join(open(os.path.join(work, "jobs", s)).read() for s in scripts
                   if s.endswith(".sh"))
    expect(os.path.join(prefix, "bin", "gpubarrier") in text,
           "the generated scripts run the installed gpubarrier", p)
    p = run("gpubarrier", "compare", "omp.csv", "quick.csv")
    expect(p.returncode == 0 and "host.omp.barrier" in p.stdout, "compare from the prefix", p)
    p = run("gpubarrier", "report", "multi", "omp.csv")
    expect(p.returncode == 0 and "host.omp.barrier" in p.stdout, "report multi from the prefix",
           p)
    p = run("gpubarrier", "report", "omp.csv", "--html", "page.html")
    expect(p.returncode == 0 and os.path.getsize(os.path.join(work, "page.html")) > 0,
           "report --html from the prefix", p)

    installed_reframe(run, prefix, work)
    moved_prefix(prefix, work, env)

    # Copied away from its prefix, with the source tree hidden: no data files anywhere.
    alone = os.path.join(work, "alone")
    os.makedirs(alone)
    shutil.copy2(os.path.join(prefix, "bin", "gpubarrier"), alone)
    if os.path.isdir(os.path.join(prefix, "lib")):  # its rpath: $ORIGIN/../lib/gpubarrier
        shutil.copytree(os.path.join(prefix, "lib"), os.path.join(work, "lib"))
    lost = os.path.join(alone, "gpubarrier")
    p = run(lost, "--version")
    expect(p.returncode == 0 and f"data files: not found (expected in {work}/{DATA}"
           in p.stdout, "a copied executable says where its data files should be", p)
    p = run(lost, "compare", "omp.csv", "quick.csv")
    expect(p.returncode == 1 and f"{work}/{DATA}/gpubarrier_tools/cli/compare.py" in p.stderr and
           len(p.stderr.strip().splitlines()) == 1,
           "compare without data files: exit 1, one line naming the expected script", p)

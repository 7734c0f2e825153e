"""What the ReFrame tests share: finding ReFrame (reframe-hpc, which scripts/setup installs),
running it on gpubarrier's suite (reframe/), a stand-in for gpubarrier that writes a given CSV,
and reading its JSON report."""
import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUITE = os.path.join(ROOT, "reframe")
CONFIG = os.path.join(SUITE, "config.py")


def find_reframe():
    """The `reframe` command of this Python's environment, else the first on PATH; None."""
    here = os.path.join(sysconfig.get_path("scripts"), "reframe")
    return here if os.access(here, os.X_OK) else shutil.which("reframe")


def require_reframe():
    """The `reframe` command. Without one (a machine where pip cannot reach PyPI): the test skips
    with the reason, or fails where GPUBARRIER_REQUIRE_REFRAME=1 (CI)."""
    if not os.path.isfile(CONFIG):
        pytest.fail(f"no ReFrame suite at {CONFIG}")
    found = find_reframe()
    if not found:
        why = (f"no `reframe` command (reframe-hpc, which scripts/setup installs with pip for "
               f"{sys.executable})")
        if os.environ.get("GPUBARRIER_REQUIRE_REFRAME") == "1":
            pytest.fail(f"{why}; GPUBARRIER_REQUIRE_REFRAME=1")
        pytest.skip(why)
    return found


def run_reframe(work, args, env=None, timeout=300):
    """reframe -C reframe/config.py[:more] --prefix WORK/rfm ARGS --report-file WORK/report.json;
    (process, report or None)."""
    report = os.path.join(work, "report.json")
    if os.path.exists(report):
        os.remove(report)
    cmd = [require_reframe(), "--prefix", os.path.join(work, "rfm"), "--report-file", report,
           "--nocolor", *args]
    if not any(a == "-C" or a.startswith("--config-file") for a in args):
        cmd[1:1] = ["-C", CONFIG]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=work, timeout=timeout,
                       env=dict(os.environ if env is None else env, TMPDIR=work))  # its log
    data = None
    if os.path.exists(report):
        with open(report) as f:
            data = json.load(f)
    return p, data


def cases(report):
    """{test name: its report entry} of the last run."""
    return {c["name"]: c for c in report["runs"][-1]["testcases"]} if report else {}


def stand_in(folder, by_out, spans=None):
    """An executable that, given `--out NAME`, copies by_out[NAME] there and prints gpubarrier's
    summary line on stderr. With `spans` (a file), it also appends `NAME START END` (seconds
    since the epoch) there, taking a second between the two: when each copy of it ran."""
    path = os.path.join(folder, "gpubarrier-stand-in")
    with open(path, "w") as f:
        f.write(f"""#!{sys.executable}
import shutil, sys, time
by_out, spans = {by_out!r}, {spans!r}
out = sys.argv[sys.argv.index("--out") + 1]
start = time.time()
shutil.copyfile(by_out[out], out)
if spans:
    time.sleep(1)
    with open(spans, "a") as log:
        log.write(f"{{out}} {{start}} {{time.time()}}\\n")
n = sum(1 for _ in open(out)) - 1
print(f"{{n}} rows: {{n}} ok, 0 skipped, 0 failed, 0 timeout, 0 unverified; CSV: {{out}}",
      file=sys.stderr)
""")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path

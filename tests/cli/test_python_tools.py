#!/usr/bin/env python3
"""`gpubarrier compare|plot|model|report ARGS...` run gpubarrier_tools/cli/<name>.py with ARGS
untouched and exit with its status; GPUBARRIER_TOOLS and GPUBARRIER_PYTHON choose the package
folder and interpreter.

Run by pytest: pytest tests/cli/test_python_tools.py
"""
import os
import subprocess
import sys

from cli_common import executable, expect

EXE = executable()
FAKE = """import sys
print("args:" + "|".join(sys.argv[1:]))
print("to stderr", file=sys.stderr)
sys.exit(3)
"""


def gpubarrier(*args, env=None):
    full = dict(os.environ, **(env or {}))
    return subprocess.run([EXE, *args], capture_output=True, text=True, env=full, timeout=120)


def test_python_tools(tmp_path):
    d = str(tmp_path)
    os.mkdir(os.path.join(d, "cli"))
    for name in ("compare", "plot", "model", "report"):
        with open(os.path.join(d, "cli", f"{name}.py"), "w") as f:
            f.write(FAKE.replace("args:", f"{name} args:"))
    env = {"GPUBARRIER_TOOLS": d, "GPUBARRIER_PYTHON": sys.executable}
    args = ["a.csv", "b b.csv", "--level", "grid", "--out=x/", "-v", "--json", "--", "--help"]
    for name in ("compare", "plot", "model", "report"):
        p = gpubarrier(name, *args, env=env)
        expect(p.returncode == 3, f"{name}: the tool's exit status", p)
        expect(p.stdout.strip() == f"{name} args:" + "|".join(args),
               f"{name}: arguments passed through untouched and in order", p)
        expect("to stderr" in p.stderr, f"{name}: the tool's stderr passes through", p)
    p = gpubarrier("compare", env=env)
    expect(p.returncode == 3 and p.stdout.strip() == "compare args:", "no arguments", p)

    # Our own --help comes first (the example of each is in it), then the tool's own --help.
    for name, example in (("compare", "--level grid"), ("plot", "--out plots/"),
                          ("model", "--study"), ("report", "--html page.html")):
        p = gpubarrier(name, "--help", env=env)
        expect(example in p.stdout and p.stdout.index(example) < p.stdout.index(f"{name} args:--help")
               and p.returncode == 3, f"{name} --help: its example, then the tool's options", p)
    p = gpubarrier("--help")
    expect(all(n in p.stdout for n in ("compare", "plot", "model", "report")), "listed in --help",
           p)

    # A missing tool names the path tried.
    empty = os.path.join(d, "empty")
    os.mkdir(empty)
    p = gpubarrier("plot", "x.csv", env={"GPUBARRIER_TOOLS": empty})
    expect(p.returncode == 1 and os.path.join(empty, "cli", "plot.py") in p.stderr and
           "GPUBARRIER_TOOLS" in p.stderr, "a missing tool names the path", p)
    # An interpreter that cannot be started is named too.
    p = gpubarrier("plot", "x.csv", env={"GPUBARRIER_TOOLS": d,
                                         "GPUBARRIER_PYTHON": "/nonexistent/python"})
    expect(p.returncode == 1 and "/nonexistent/python" in p.stderr, "a missing python", p)

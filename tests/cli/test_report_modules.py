#!/usr/bin/env python3
"""tools/report.py and its tables in tools/reports/: every module imports on its own (as
tools.reports.NAME) and defines or imports every name it uses; report.py imports
every one of them (none left over); every table of MODES is a function named in report.py --help
and, run without arguments, says what it reads (exit 2) or exits 0, never with an
internal error. Plain python3 (stdlib only).

Usage: test_report_modules.py GPUBARRIER (unused).
"""
import builtins
import glob
import os
import subprocess
import symtable
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


PATHS = sorted(glob.glob(os.path.join(TOOLS, "reports", "*.py")))
modules = [os.path.basename(p)[:-3] for p in PATHS if not p.endswith("__init__.py")]
expect(len(modules) >= 10, f"tools/reports/ holds the tables, found {modules}")
for name in modules:
    # A fresh interpreter each: a module that leans on a name another module imported fails here.
    p = subprocess.run([sys.executable, "-c", f"import tools.reports.{name}"],
                       capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0 and not p.stderr, f"reports.{name} does not import on its own: "
                                               f"{p.stderr.strip()}")



def undefined_globals(path):
    """Names a function of `path` reads as globals that the module neither defines nor imports
    (a NameError waiting for the table that runs it)."""
    with open(path, encoding="utf-8") as f:
        top = symtable.symtable(f.read(), path, "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    missing = set()

    def walk(scope):
        for s in scope.get_symbols():
            if (s.is_global() or scope.get_type() == "module") and s.is_referenced() and \
                    s.get_name() not in defined and not hasattr(builtins, s.get_name()):
                missing.add(s.get_name())
        for child in scope.get_children():
            walk(child)
    walk(top)
    return missing - {"__file__"}


for path in PATHS + [os.path.join(TOOLS, "report.py")]:
    missing = undefined_globals(path)
    expect(not missing, f"{os.path.relpath(path, ROOT)} uses names it does not define or "
                        f"import: {sorted(missing)}")

from tools import report

loaded = {n.split(".", 2)[2] for n in sys.modules if n.startswith("tools.reports.")}
expect(set(modules) <= loaded, f"report.py does not import {sorted(set(modules) - loaded)}")
used = {getattr(getattr(f, "report", f), "__module__", "") for f in report.MODES.values()}
expect({f"tools.reports.{m}" for m in modules if m != "common"} <= used,
       f"modules no table of MODES comes from: "
       f"{sorted({m for m in modules if m != 'common'} - {u.split('.')[-1] for u in used})}")
for mode, fn in report.MODES.items():
    expect(callable(fn), f"MODES[{mode!r}] is not a function")
    expect(f"report.py {mode} " in report.__doc__ or f"report.py {mode}\n" in report.__doc__,
           f"report.py --help does not name the table {mode!r}")

# Every table given no input says what it reads (exit 2) or has nothing to say (exit 0): never
# an internal error (exit 1).
for mode in report.MODES:
    p = subprocess.run([sys.executable, "-m", "tools.report", mode], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    expect(p.returncode in (0, 2) and "internal error" not in p.stderr and
           "Traceback" not in p.stderr,
           f"report.py {mode} without arguments: exit {p.returncode}, {p.stderr.strip()[-300:]}")

if failures:
    sys.exit("FAIL:\n  " + "\n  ".join(failures))
print(f"PASS: {len(modules)} modules of tools/reports, {len(report.MODES)} tables")

#!/usr/bin/env python3
"""gpubarrier_tools/cli/report.py and its tables in gpubarrier_tools/analysis/reports/: every module imports on its own (as
gpubarrier_tools.analysis.reports.NAME) and defines or imports every name it uses; report.py imports
every one of them (none left over); every table of MODES is a function named in report.py --help
and, run without arguments, says what it reads (exit 2) or exits 0, never with an
internal error. Plain python3 (stdlib only).

Run by pytest: pytest tests/cli/test_report_modules.py
"""
import builtins
import glob
import os
import subprocess
import symtable
import sys

import pytest

from gpubarrier_tools.cli import report

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "gpubarrier_tools")
PATHS = sorted(glob.glob(os.path.join(TOOLS, "analysis", "reports", "*.py")))
MODULES = [os.path.basename(p)[:-3] for p in PATHS if not p.endswith("__init__.py")]


def test_reports_hold_the_tables():
    assert len(MODULES) >= 10, f"gpubarrier_tools/analysis/reports/ holds the tables, found {MODULES}"


@pytest.mark.parametrize("name", MODULES)
def test_imports_on_its_own(name):
    # A fresh interpreter each: a module that leans on a name another module imported fails here.
    p = subprocess.run([sys.executable, "-c", f"import gpubarrier_tools.analysis.reports.{name}"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and not p.stderr, \
        f"reports.{name} does not import on its own: {p.stderr.strip()}"


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


@pytest.mark.parametrize("path", PATHS + [os.path.join(TOOLS, "cli", "report.py")],
                         ids=lambda p: os.path.relpath(p, ROOT))
def test_defines_or_imports_every_name(path):
    missing = undefined_globals(path)
    assert not missing, (f"{os.path.relpath(path, ROOT)} uses names it does not define or "
                         f"import: {sorted(missing)}")


def test_report_imports_every_module():
    prefix = "gpubarrier_tools.analysis.reports."
    loaded = {n[len(prefix):] for n in sys.modules if n.startswith(prefix)}
    assert set(MODULES) <= loaded, f"report.py does not import {sorted(set(MODULES) - loaded)}"
    used = {getattr(getattr(f, "report", f), "__module__", "") for f in report.MODES.values()}
    assert {f"gpubarrier_tools.analysis.reports.{m}" for m in MODULES if m != "common"} <= used, \
        (f"modules no table of MODES comes from: "
         f"{sorted({m for m in MODULES if m != 'common'} - {u.split('.')[-1] for u in used})}")


@pytest.mark.parametrize("mode", list(report.MODES))
def test_mode_named_in_help(mode):
    assert callable(report.MODES[mode]), f"MODES[{mode!r}] is not a function"
    assert f"report.py {mode} " in report.__doc__ or f"report.py {mode}\n" in report.__doc__, \
        f"report.py --help does not name the table {mode!r}"


@pytest.mark.parametrize("mode", list(report.MODES))
def test_mode_without_input(mode):
    """Every table given no input says what it reads (exit 2) or has nothing to say (exit 0):
    never an internal error (exit 1)."""
    p = subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.report", mode], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 2) and "internal error" not in p.stderr and \
        "Traceback" not in p.stderr, \
        f"report.py {mode} without arguments: exit {p.returncode}, {p.stderr.strip()[-300:]}"

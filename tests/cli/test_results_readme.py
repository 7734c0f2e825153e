#!/usr/bin/env python3
"""The results pages (results/README.md, FINDINGS.md, journal.md and every folder's README.md) are
what gpubarrier_tools/cli/report.py writes from the committed CSVs: every generated table and figure
(`<!-- report: ... -->` blocks, `<!-- value: ... -->` figures) is regenerated and compared, and
no measured figure is typed in their prose outside those parts (`report.py readme PAGE --typed`,
gpubarrier_tools/render/readme_blocks.py). Negative self-tests change one generated figure in a copy and expect
`--check` to fail naming the marker's line, and turn one value marker of the journal back into
typed text and expect `--typed` to name its line. The pages are checked in a copy of the committed
results/ (git ls-files), so that what a user's runs add under results/ changes nothing here.
Plain python3 (stdlib only).

Run by pytest: pytest tests/cli/test_results_readme.py
"""
import os
import re
import subprocess

import pytest

from cli_common import committed_copy, committed_files
from tool_python import python_with

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPORT = ["-m", "gpubarrier_tools.cli.report"]
# The pages hold `report spans` tables, which group with pandas.
PYTHON = python_with("pandas")
# The generated pages: results/{README,FINDINGS,journal}.md and each folder's README.md.
PAGES = [f"results/{p}" for p in ("README.md", "FINDINGS.md", "journal.md")] + \
    [f for f in committed_files(ROOT, "results") if re.fullmatch(r"results/[^/]+/README\.md", f)]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A copy of the committed results/ (what a user's runs added there is left out)."""
    if PYTHON is None:
        pytest.fail("no python3 with pandas (scripts/setup installs python3-pandas)")
    return committed_copy(ROOT, "results", str(tmp_path_factory.mktemp("copy")))


def check(path, flag="--check"):
    return subprocess.run([PYTHON, *REPORT, "readme", path, flag],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", PAGES)
def test_page_is_current(name, results):
    page = os.path.join(os.path.dirname(results), name)
    with open(page, encoding="utf-8") as f:
        if "<!-- report: " not in f.read():
            pytest.fail(f"{name} has no generated part")
    typed = check(page, "--typed")
    if typed.returncode != 0:
        pytest.fail(f"{name} has measured figures typed outside the generated parts (make each "
                    f"a value marker, or a ref marker naming its source)\n{typed.stderr}")
    done = check(page)
    if done.returncode != 0:
        pytest.fail(f"{name} differs from what gpubarrier_tools/cli/report.py writes "
                    f"(run: gpubarrier report readme {name})\n{done.stderr}{done.stdout}")


def test_changed_figure_fails_check(results):
    readme = os.path.join(results, "journal.md")
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    target = next((i for i, line in enumerate(lines)
                   if line.startswith("| ") and i > 0 and lines[i - 1].startswith("|---")
                   and any(ln.startswith("<!-- report: ") for ln in lines[max(0, i - 3):i])), None)
    if target is None:
        pytest.fail("no generated table found in results/README.md")
    marker = max(i for i in range(target) if lines[i].startswith("<!-- report: "))
    cells = lines[target].split(" | ")
    cells[-2] = cells[-2] + "9"  # one generated figure changed
    lines[target] = " | ".join(cells)
    # the copy sits where the README does so that its relative paths still resolve
    copy = os.path.join(os.path.dirname(readme), f".test-readme-{os.getpid()}.md")
    try:
        with open(copy, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        bad = check(copy)
    finally:
        os.remove(copy)
    if bad.returncode != 1:
        pytest.fail(f"--check passed a README with a changed figure\n{bad.stdout}{bad.stderr}")
    if f":{marker + 1}: generated part differs" not in bad.stderr or "+++" not in bad.stdout:
        pytest.fail(f"--check should name line {marker + 1} and print a diff\n"
                    f"{bad.stderr}{bad.stdout}")


def test_typed_figure_named(results, tmp_path):
    """A generated figure typed in by hand instead is named by its line."""
    with open(os.path.join(results, "journal.md"), encoding="utf-8") as f:
        journal = f.read().split("\n")
    at = next(i for i, line in enumerate(journal)
              if re.search(r"<!-- value: value [^>]*-->[^<]*<!-- /value --> us", line))
    journal[at] = re.sub(r"<!-- value: [^>]*-->(.*?)<!-- /value -->", r"\1", journal[at], count=1)
    typed_copy = os.path.join(tmp_path, "typed.md")
    with open(typed_copy, "w", encoding="utf-8") as f:
        f.write("\n".join(journal))
    typed = check(typed_copy, "--typed")
    if typed.returncode != 1 or f"typed.md:{at + 1}: typed figure" not in typed.stderr:
        pytest.fail(f"--typed should name line {at + 1} of a journal with a typed figure\n"
                    f"{typed.stdout}{typed.stderr}")


def test_failing_marker_named(results, tmp_path):
    """A marker whose command fails is named by its line."""
    broken = os.path.join(tmp_path, "broken.md")
    with open(broken, "w", encoding="utf-8") as f:
        f.write("# t\n\n<!-- report: value no-such.csv m x -->\n<!-- /report -->\n")
    fail = check(broken)
    if fail.returncode != 1 or "broken.md:3:" not in fail.stderr:
        pytest.fail(f"a failing marker command should be named by its line\n{fail.stderr}")


@pytest.mark.parametrize("how", ["file", "module"])
def test_report_runs_as_a_file_and_as_a_module(results, tmp_path, how):
    """`python3 gpubarrier_tools/cli/report.py readme --check PAGE` from any folder, and `python3 -m gpubarrier_tools.cli.report
    readme --check PAGE` from the checkout's root, each with nothing on PYTHONPATH: the file
    imports its package from beside it and runs in the process that started it."""
    page = os.path.join(os.path.dirname(results), "results", "README.md")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command, cwd = {"file": ([os.path.join(ROOT, "gpubarrier_tools", "cli", "report.py")], str(tmp_path)),
                    "module": (REPORT, ROOT)}[how]
    p = subprocess.run([PYTHON, *command, "readme", page, "--check"], capture_output=True,
                       text=True, timeout=120, cwd=cwd, env=env)
    assert p.returncode == 0 and "up to date" in p.stdout, f"{p.stdout}\n{p.stderr}"


def test_report_file_fails_as_the_module_does(tmp_path):
    """Run as a file, report.py's refusals are the module's: the same message and exit status."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    runs = [subprocess.run([PYTHON, *command, "no-such-table"], capture_output=True, text=True,
                           timeout=60, cwd=cwd, env=env)
            for command, cwd in (([os.path.join(ROOT, "gpubarrier_tools", "cli", "report.py")], str(tmp_path)),
                                 (REPORT, ROOT))]
    assert [(p.returncode, p.stdout, p.stderr) for p in runs] == \
        [(2, "", runs[1].stderr)] * 2 and "unknown table 'no-such-table'" in runs[1].stderr

"""Reports return data, renderers print it (gpubarrier_tools/data/tables.py,
gpubarrier_tools/render/__init__.py): no module of the tools package but render/__init__.py writes
Markdown table syntax, no module of the analysis prints to standard output, every report mode of `report` returns its items with at least one Table, and
the HTML page builds its tables from Tables, never from Markdown.

The scans read the source (ast and the text of string literals), so that they need none of the
tools' libraries; the reports run on committed results folders."""
import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "gpubarrier_tools")
from layering.test_python_layering import modules, part_of

# A program's own command line in the analysis, whose lines are no report (the check of a
# refactor's rows, run by scripts/refactor-check).
PRINTS_ALLOWED = {("analysis.same_rows", "main")}


def package_modules():
    return sorted(modules(TOOLS).items())


def docstrings(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def table_syntax(path):
    """Lines of `path` whose string literals write Markdown table syntax: a literal (not a
    docstring) that starts with `| ` or `|---`, holds `---|`, or ends a row with ` |`."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    skip = docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or \
                id(node) in skip:
            continue
        text = node.value
        if text.startswith(("| ", "|---")) or "---|" in text or \
                text.endswith(" |") and text.lstrip().startswith("|"):
            hits.append(f"{os.path.relpath(path, ROOT)}:{node.lineno}: {text[:40]!r}")
    return hits


def test_only_render_writes_markdown_tables():
    hits = [h for name, path in package_modules() if name != "render" for h in table_syntax(path)]
    assert hits == [], "Markdown table syntax outside gpubarrier_tools/render/__init__.py:\n" + \
        "\n".join(hits)


def test_the_scan_finds_a_hand_built_table(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('def t(h):\n    return ["| " + " | ".join(h) + " |", "|" + "---|" * 2]\n')
    assert len(table_syntax(str(bad))) == 3


def stdout_prints(path):
    """(top-level function or None, line) of each print( to standard output (no file=) in
    `path`."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = []
    for top in tree.body:
        fn = top.name if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        out += [(fn, n.lineno) for n in ast.walk(top)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
                n.func.id == "print" and not any(k.arg == "file" for k in n.keywords)]
    return out


def test_no_report_prints():
    hits = []
    for name, path in package_modules():
        if part_of(name) != "analysis":
            continue
        hits += [f"{os.path.relpath(path, ROOT)}:{line} (in {fn})" for fn, line in
                 stdout_prints(path) if (name, fn) not in PRINTS_ALLOWED]
    assert hits == [], "a report prints (it returns its items; the command line renders):\n" + \
        "\n".join(hits)


def test_html_page_builds_its_tables_from_tables():
    path = os.path.join(TOOLS, "cli", "html_report.py")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for parsed in ("render.markdown", ".split(\"|\")", ".split('|')", "|---", "compare_text"):
        assert parsed not in text, f"gpubarrier_tools/cli/html_report.py reads Markdown ({parsed})"
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    built = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Constant) and
             isinstance(n.value, str) and ("<table" in n.value or "<td" in n.value)]
    assert built == [], f"gpubarrier_tools/cli/html_report.py:{built}: a table of its own " \
        "instead of render.html_table"


# Each report mode on a committed folder that feeds it: its items hold a Table and no line of
# Markdown table syntax.
CASES = [["answers", "results/h100x2"], ["multi", "results/h200x2"],
         ["scaling", "results/h100x4"], ["hostwait", "results/h200x2"],
         ["selfcheck", "results/h200"], ["single", "results/h200/single-gpu.csv"],
         ["spans", "results/h100"], ["legacy-study", "launch", "results/h200"],
         ["multinode-model", "results/h200x4"],
         ["reduction-tables", "results/h100x2/reduction.csv"],
         ["findings", "results/h100"], ["study-tables", "results"], ["folders", "results"],
         ["reference-summary", "results"], ["floor", "results/h200x2"],
         ["rows", "results/h100/cluster.csv"], ["faults", "results/h100x4"]]


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(c) for c in CASES])
def test_report_returns_tables(argv, monkeypatch, capsys):
    from gpubarrier_tools.cli import report
    from gpubarrier_tools.data.tables import Table
    monkeypatch.chdir(ROOT)
    items = report.REPORTS[argv[0]](list(argv[1:]))
    assert capsys.readouterr().out == "", "the report printed"
    assert any(isinstance(i, Table) for i in items), items
    lines = [i for i in items if not isinstance(i, Table)]
    assert all(isinstance(i, str) and not i.lstrip().startswith("|") for i in lines), lines


def test_compare_and_model_return_tables():
    from gpubarrier_tools.analysis import comparison, model_predictions
    from gpubarrier_tools.data.tables import Table
    res = comparison.compare([os.path.join(ROOT, "results/h100/grid-repeats.csv"),
                              os.path.join(ROOT, "results/h200/foundation-repeats.csv")],
                             level="grid")
    assert any(isinstance(i, Table) for i in comparison.report(res))
    items = model_predictions.report(model_predictions.study_predictions(), True)
    assert isinstance(items[0], Table) and items[0].rows

"""The layering of the tools package (gpubarrier_tools/): every module in one of its four
subpackages, each importing only what USES allows, and no import cycle among the modules, at any
depth (an import inside a function counts as much as one at the top).

  data       reading and checking the CSVs and the files beside them (gbcsv, the schema,
             machines, bounds, the study's figures), how a tool fails and what it may read and
             write, and what a report returns (data/tables.py): what every other part stands on
  analysis   the figures computed from the rows (answers, the comparison, the floor, the
             findings, the model, the tables of analysis/reports/, ...), returned as data
  render     what draws what the analysis returns: Markdown, text and HTML (render/__init__.py),
             the charts and plots, the results pages' generated blocks; it computes nothing of
             the analysis, which it is handed
  cli        the command lines that pick an analysis and its renderer (report, compare, plot,
             model, the HTML page, the documents' writers), and the package itself

data imports neither analysis nor render; analysis and render import data and never each other.
The imports are read from the source (ast), relative ones resolved against the package, so that
the check needs none of the tools' libraries. The selftests feed it synthetic packages. No file of
gpubarrier_tools/, tests/ or reframe/ edits sys.path: the package is imported as such. No module
of gpubarrier_tools/ replaces its process with another (os.exec*): a program of the package runs
in the process that started it.
"""
import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = "gpubarrier_tools"

# Each part of the package and the parts it may import besides its own.
USES = {
    "cli": ["render", "analysis", "data"],
    "render": ["data"],
    "analysis": ["data"],
    "data": [],
}
# The modules outside the four folders: the package itself, which is the command lines' part.
TOP = {PACKAGE: "cli"}


def modules(package_dir):
    """{module name relative to the package (PACKAGE for its __init__): path} of a package's
    modules, subpackages included (peers/ and reference/ hold programs run on their own, no
    module of the package)."""
    out = {}
    for folder, dirs, files in os.walk(package_dir):
        rel = os.path.relpath(folder, package_dir)
        if rel != "." and not os.path.isfile(os.path.join(folder, "__init__.py")):
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        prefix = "" if rel == "." else rel.replace(os.sep, ".") + "."
        for f in sorted(files):
            if f.endswith(".py"):
                name = prefix + f[:-3]
                name = name[:-len(".__init__")] if name.endswith(".__init__") else name
                out[PACKAGE if name == "__init__" else name] = os.path.join(folder, f)
    return out


def imports(name, path, known):
    """The modules of `known` that module `name` imports."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    here = [] if name == PACKAGE else name.split(".")[:-1]
    if os.path.basename(path) == "__init__.py" and name != PACKAGE:
        here = name.split(".")
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
            target = base + (node.module.split(".") if node.module else [])
            for alias in node.names:
                for cand in (".".join(target + [alias.name]), ".".join(target)):
                    if cand in known:
                        found.add(cand)
                        break
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""]
            for n in names:
                parts = n.split(".")
                if parts[0] == PACKAGE and len(parts) > 1 and ".".join(parts[1:]) in known:
                    found.add(".".join(parts[1:]))
    found.discard(name)
    return found


def part_of(name):
    """The part (a key of USES) module `name` belongs to, or None."""
    if name in TOP:
        return TOP[name]
    first = name.split(".")[0]
    return first if first in USES else None


def cycles(graph):
    """The import cycles of `graph` ({module: modules it imports}): strongly connected
    components of more than one module, each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def violations(package_dir, uses=None):
    """One line per broken rule: a module in no part, an import USES does not allow, an import
    cycle."""
    uses = USES if uses is None else uses
    mods = modules(package_dir)
    graph = {n: imports(n, p, mods) for n, p in mods.items()}
    out = [f"{n}: in no part of USES (data, analysis, render, cli)" for n in sorted(mods)
           if part_of(n) is None]
    for n in sorted(graph):
        mine = part_of(n)
        for m in sorted(graph[n]):
            theirs = part_of(m)
            if mine is not None and theirs is not None and theirs != mine and \
                    theirs not in uses[mine]:
                out.append(f"{n} ({mine}) imports {m} ({theirs}), which {mine} may not")
    out += [f"import cycle: {' -> '.join(c)}" for c in cycles(graph)]
    return out


def test_tools_package_is_layered():
    assert violations(os.path.join(ROOT, PACKAGE)) == []


def test_every_part_exists():
    mods = modules(os.path.join(ROOT, PACKAGE))
    assert sorted(p for p in USES if p not in mods) == []


def make_package(root, files):
    pkg = root / PACKAGE
    for name, text in {"__init__.py": "", **files}.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    return str(pkg)


@pytest.mark.parametrize("files, want", [
    # a clean package, imports relative and absolute, at the top and in functions
    ({"cli/__init__.py": "", "cli/report.py": "from ..render import html\n"
                                              "from ..analysis.reports.common import table\n",
      "render/__init__.py": "", "render/html.py": "def f():\n    from ..data import gbcsv\n",
      "analysis/__init__.py": "", "analysis/answers.py": "import gpubarrier_tools.data.gbcsv\n",
      "analysis/reports/__init__.py": "",
      "analysis/reports/common.py": "from ...data import gbcsv\n",
      "data/__init__.py": "", "data/gbcsv.py": "import os\n"}, []),
    # data importing the analysis, inside a function
    ({"data/__init__.py": "", "data/gbcsv.py": "def f():\n    from ..analysis import answers\n",
      "analysis/__init__.py": "", "analysis/answers.py": ""},
     ["data.gbcsv (data) imports analysis.answers (analysis), which data may not"]),
    # a renderer importing the analysis, and the analysis a renderer
    ({"render/__init__.py": "", "render/chart.py": "from ..analysis import answers\n",
      "analysis/__init__.py": "", "analysis/answers.py": "from ..render import chart\n"},
     ["analysis.answers (analysis) imports render.chart (render), which analysis may not",
      "render.chart (render) imports analysis.answers (analysis), which render may not",
      "import cycle: analysis.answers -> render.chart"]),
    # the analysis importing the command line, absolutely
    ({"analysis/__init__.py": "", "analysis/reports/__init__.py": "",
      "analysis/reports/common.py": "from gpubarrier_tools.cli.report import MODES\n",
      "cli/__init__.py": "", "cli/report.py": ""},
     ["analysis.reports.common (analysis) imports cli.report (cli), which analysis may not"]),
    # a cycle within one part
    ({"analysis/__init__.py": "", "analysis/answers.py": "from .reports import common\n",
      "analysis/reports/__init__.py": "",
      "analysis/reports/common.py": "from ..answers import answers\n"},
     ["import cycle: analysis.answers -> analysis.reports.common"]),
    # a module in no part
    ({"stray.py": ""}, ["stray: in no part of USES (data, analysis, render, cli)"]),
])
def test_checker_catches(tmp_path, files, want):
    assert violations(make_package(tmp_path, files)) == want


def process_replacements(folder):
    """(file, line) of each use of os.exec* (os.execv, os.execve, ...; by attribute or imported by
    name) in the Python files under `folder`, read from the source (ast)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(f for f in filenames if f.endswith(".py")):
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and node.attr.startswith("exec") and \
                        isinstance(node.value, ast.Name) and node.value.id in ("os", "posix"):
                    out.append((os.path.relpath(path, ROOT), node.lineno))
                elif isinstance(node, ast.ImportFrom) and node.module in ("os", "posix") and \
                        any(a.name.startswith("exec") for a in node.names):
                    out.append((os.path.relpath(path, ROOT), node.lineno))
    return sorted(out)


def test_no_process_replacement():
    """A program of gpubarrier_tools/ runs where it was started, as a file or as the package's
    module (`python3 gpubarrier_tools/cli/report.py`, `python3 -m gpubarrier_tools.cli.report`): none re-runs itself through os.exec*,
    which would hide its exit from a debugger or profiler and drop what the caller's Python set."""
    found = process_replacements(os.path.join(ROOT, PACKAGE))
    assert not found, f"os.exec* at {found}"


def test_process_replacement_check_catches(tmp_path):
    (tmp_path / "a.py").write_text("import os\nos.execve('p', [], {})\nfrom os import execv\n"
                                   "os.environ.get('x')\n")
    where = os.path.relpath(str(tmp_path / "a.py"), ROOT)
    assert process_replacements(str(tmp_path)) == [(where, 2), (where, 3)]


def path_edits(folder):
    """(file, line) of each edit of sys.path, and each `noqa: E402` (an import placed after code,
    which such an edit needs), in the Python files under `folder`."""
    out = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d not in ("__pycache__", "build")]
        for name in sorted(f for f in filenames if f.endswith(".py")):
            path = os.path.join(dirpath, name)
            if os.path.abspath(path) == os.path.abspath(__file__):
                continue  # this check's own patterns
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    code = line.split("#", 1)[0]
                    if "sys.path" in code and any(
                            w in code for w in ("insert(", "append(", "[0] =", "extend(", "+=")) or \
                            "noqa: E402" in line:
                        out.append((os.path.relpath(path, ROOT), number))
    return out


def test_no_path_edits():
    """gpubarrier_tools/ is imported as the package, the tests reach it through PYTHONPATH
    (conftest.py), and the ReFrame suite imports what it reads with from its files' locations
    (reframe/lib/gbresults.py): no file of gpubarrier_tools/, tests/ or reframe/ edits sys.path."""
    found = [at for folder in (PACKAGE, "tests", "reframe")
             for at in path_edits(os.path.join(ROOT, folder))]
    assert not found, f"sys.path edited (or an import after code) at {found}"


def test_path_edit_check_catches(tmp_path):
    (tmp_path / "a.py").write_text("import sys\nsys.path.insert(0, 'x')\nimport y  # noqa: E402\n")
    assert path_edits(str(tmp_path)) == [(os.path.relpath(str(tmp_path / "a.py"), ROOT), 2),
                                         (os.path.relpath(str(tmp_path / "a.py"), ROOT), 3)]

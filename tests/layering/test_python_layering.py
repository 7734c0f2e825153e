"""The layering of the tools package (tools/): every module in one layer of LAYERS, each layer
importing only its own and the layers below it, and no import cycle among the modules, at any
depth (an import inside a function counts as much as one at the top).

  data       reading and checking the CSVs and the files beside them, the study's figures, how a
             tool fails, and what a report returns (tools/tables.py): what every report stands on
  tables     the reports: figures computed from the rows (answers, the comparison, the model's
             predictions, the tables of tools/reports/, ...), returned as data
  renderers  what draws the tables and figures: Markdown and HTML (tools/render.py), the HTML
             page, the charts and plots
  commands   the command lines that pick a report and its renderer (report, compare, model, the
             documents' writers), and the package itself

The imports are read from the source (ast), relative ones resolved against the package, so that
the check needs none of the tools' libraries. The selftests feed it synthetic packages. No file of
tools/, tests/ or reframe/ edits sys.path: the package is imported as such. No module of tools/
replaces its process with another (os.exec*): a program of the package runs in the process that
started it.
"""
import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LAYERS = [
    ("commands", ["tools", "report", "readme_blocks", "methods_doc", "library_doc", "compare",
                  "model"]),
    ("renderers", ["render", "html_report", "answers_chart", "answers_bars", "plot",
                   "plot_compare", "plot_eq6", "plot_reduction"]),
    ("tables", ["answers", "comparison", "model_predictions", "findings", "findings_eq6",
                "findings_more", "findings_rules", "legacy_study",
                "multinode_model",
                "push_phases", "reduction_tables", "reference_ratios", "report_grids",
                "results_index", "same_rows", "study_tables", "reports", "reports.*"]),
    ("data", ["tables", "tool_main", "user_files", "output_files", "bounds", "timed_regions",
              "gbcsv", "machines", "floor", "study_reference", "model_eq"]),
]


def modules(package_dir):
    """{module name relative to the package ("tools" for its __init__): path} of a package's
    modules, subpackages included (tools/peers and tools/reference hold programs run on their
    own, no module of the package)."""
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
                out["tools" if name == "__init__" else name] = os.path.join(folder, f)
    return out


def imports(name, path, known):
    """The modules of `known` that module `name` imports."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    here = [] if name == "tools" else name.split(".")[:-1]
    if os.path.basename(path) == "__init__.py" and name != "tools":
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
                if parts[0] == "tools" and len(parts) > 1 and ".".join(parts[1:]) in known:
                    found.add(".".join(parts[1:]))
    found.discard(name)
    return found


def layer_of(name, layers):
    for i, (_, members) in enumerate(layers):
        for m in members:
            if name == m or (m.endswith(".*") and name.startswith(m[:-1])):
                return i
    return None


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


def violations(package_dir, layers=LAYERS):
    """One line per broken rule: a module in no layer, an import upward, an import cycle."""
    mods = modules(package_dir)
    graph = {n: imports(n, p, mods) for n, p in mods.items()}
    out = [f"{n}: in no layer of LAYERS" for n in sorted(mods) if layer_of(n, layers) is None]
    for n in sorted(graph):
        mine = layer_of(n, layers)
        for m in sorted(graph[n]):
            theirs = layer_of(m, layers)
            if mine is not None and theirs is not None and theirs < mine:
                out.append(f"{n} ({layers[mine][0]}) imports {m} ({layers[theirs][0]}), a layer "
                           f"above it")
    out += [f"import cycle: {' -> '.join(c)}" for c in cycles(graph)]
    return out


def test_tools_package_is_layered():
    assert violations(os.path.join(ROOT, "tools")) == []


def test_every_layer_member_exists():
    mods = modules(os.path.join(ROOT, "tools"))
    missing = [m for _, members in LAYERS for m in members
               if not m.endswith(".*") and m not in mods]
    assert missing == []


def make_package(root, files):
    pkg = root / "tools"
    for name, text in {"__init__.py": "", **files}.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    return str(pkg)


SMALL = [("commands", ["tools", "report"]), ("renderers", ["html_report"]),
         ("tables", ["answers", "reports", "reports.*"]), ("data", ["gbcsv"])]


@pytest.mark.parametrize("files, want", [
    # a clean package, imports relative and absolute, at the top and in functions
    ({"report.py": "from . import html_report\nfrom .reports.common import table\n",
      "html_report.py": "def f():\n    from . import answers\n",
      "answers.py": "import tools.gbcsv\n", "gbcsv.py": "import os\n",
      "reports/__init__.py": "", "reports/common.py": "from .. import gbcsv\n"}, []),
    # the data layer importing a table, inside a function
    ({"gbcsv.py": "def f():\n    from . import answers\n", "answers.py": ""},
     ["gbcsv (data) imports answers (tables), a layer above it"]),
    # a table importing the command line
    ({"reports/__init__.py": "", "reports/common.py": "from ..report import MODES\n",
      "report.py": ""},
     ["reports.common (tables) imports report (commands), a layer above it"]),
    # a cycle within one layer
    ({"answers.py": "from .reports import common\n", "reports/__init__.py": "",
      "reports/common.py": "from ..answers import answers\n"},
     ["import cycle: answers -> reports.common"]),
    # a module no layer names
    ({"stray.py": ""}, ["stray: in no layer of LAYERS"]),
])
def test_checker_catches(tmp_path, files, want):
    assert violations(make_package(tmp_path, files), SMALL) == want


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
    """A program of tools/ runs where it was started, as a file or as the package's module
    (`python3 tools/report.py`, `python3 -m tools.report`): none re-runs itself through os.exec*,
    which would hide its exit from a debugger or profiler and drop what the caller's Python set."""
    found = process_replacements(os.path.join(ROOT, "tools"))
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
    """tools/ is imported as the package, the tests reach it through PYTHONPATH (conftest.py), and
    the ReFrame suite imports what it reads with from its files' locations (reframe/lib/
    gbresults.py): no file of tools/, tests/ or reframe/ edits sys.path."""
    found = [at for folder in ("tools", "tests", "reframe")
             for at in path_edits(os.path.join(ROOT, folder))]
    assert not found, f"sys.path edited (or an import after code) at {found}"


def test_path_edit_check_catches(tmp_path):
    (tmp_path / "a.py").write_text("import sys\nsys.path.insert(0, 'x')\nimport y  # noqa: E402\n")
    assert path_edits(str(tmp_path)) == [(os.path.relpath(str(tmp_path / "a.py"), ROOT), 2),
                                         (os.path.relpath(str(tmp_path / "a.py"), ROOT), 3)]

#!/usr/bin/env python3
"""The documents against the gpubarrier they describe. Plain python3 (stdlib only).

Run by pytest: pytest tests/cli/test_docs.py [--gpubarrier PATH]
  methods      docs/methods.md is what gpubarrier_tools/cli/methods_doc.py writes from `GPUBARRIER list --json`
  quick_start  README.md's quick start (the ```sh block whose first line is `# quick start`) runs
               as written, every command exiting 0, in an empty folder whose build/ holds
               GPUBARRIER: the block's own `export PATH=...` is what puts gpubarrier on PATH
  no_history   README.md, docs/*.md, every --help, every method's description and the comments of
               the committed code (src/, kernels/, topology/, jobs/, gpubarrier_tools/, scripts/, configs/,
               cmake/, tests/CMakeLists.txt) speak to users: no paths into the project's working
               folders, no source-document file names, no issue or session numbers, no pointers
               to the journal (a comment states the contract and the reason, the story is in git)
"""
import glob
import os
import re
import subprocess
import sys
import tempfile


from cli_common import clean_env, expect, run_gpubarrier

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
MAX_README_LINES = 150


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def quick_start_commands(text):
    """The commands of the README's quick-start block, one per line, comments left out."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)
    found = [b for b in blocks if b.split("\n", 1)[0].strip() == "# quick start"]
    expect(len(found) == 1, f"README.md: expected one ```sh block starting '# quick start', "
                            f"found {len(found)}")
    return [line for line in found[0].split("\n") if line.strip() and
            not line.lstrip().startswith("#")]


def test_methods(exe):
    listed = run_gpubarrier(exe, "list", "--json", timeout=120)
    expect(listed.returncode == 0, "gpubarrier list --json failed", listed)
    done = subprocess.run([sys.executable, "-m", "gpubarrier_tools.cli.methods_doc", "-",
                           "--check", os.path.join(ROOT, "docs", "methods.md")],
                          input=listed.stdout, capture_output=True, text=True, timeout=60)
    expect(done.returncode == 0, "docs/methods.md is not current: run scripts/regenerate-docs",
           done)


def test_quick_start(exe):
    text = read(README)
    lines = text.count("\n")
    expect(lines <= MAX_README_LINES, f"README.md has {lines} lines, at most {MAX_README_LINES}")
    commands = quick_start_commands(text)
    expect(len(commands) == 5, f"README.md's quick start has {len(commands)} commands, "
                               f"expected 5: {commands}")
    expect(any("PATH" in c for c in commands), "the quick start does not put gpubarrier on PATH")
    exe = os.path.abspath(exe)
    with tempfile.TemporaryDirectory(prefix="gb-quick-start-") as tmp:
        # The checkout's build/ as the README means it: the folder of the gpubarrier under test.
        build = os.path.join(tmp, "build")
        if os.path.basename(exe) == "gpubarrier":
            os.symlink(os.path.dirname(exe), build)
        else:
            os.mkdir(build)
            os.symlink(exe, os.path.join(build, "gpubarrier"))
        env = clean_env()
        # No gpubarrier of another build may answer instead.
        env["PATH"] = os.pathsep.join(
            p for p in env.get("PATH", "").split(os.pathsep)
            if p and not os.path.exists(os.path.join(p, "gpubarrier")))
        script = "set -e\n"
        for c in commands:
            script += f"echo '+ {c}' >&2\n{c}\n"
        done = subprocess.run(["bash", "-c", script], cwd=tmp, env=env, capture_output=True,
                              text=True, timeout=300)
        expect(done.returncode == 0,
               f"the quick start failed (exit {done.returncode}) at the last '+' line below", done)
        for out in re.findall(r"--(?:out|html)\s+(\S+)", "\n".join(commands)):
            expect(os.path.isfile(os.path.join(tmp, out)), f"the quick start wrote no {out}")


HISTORY = [
    (re.compile(r"\.\./shared"), "a path into ../shared"),
    (re.compile(r"seed 00", re.I), "a source document by its seed number"),
    (re.compile(r"seeds/"), "the seeds folder"),
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt"), "a seed file name"),
    (re.compile(r"\bissues? #?\d", re.I), "an issue number"),
    (re.compile(r"\bsessions? \d", re.I), "a session number"),
]
# Code comments and --help also tell no story: what was measured when belongs in the journal and
# in commits, never a pointer to it from the contract. (docs/ may name results/journal.md: it is
# one of the results pages a user reads.)
STORY = [(re.compile(r"journal\.md"), "a pointer to the journal")]

# The committed code whose comments are scanned; tests/ holds fixtures, which are data.
CODE = ["src", "kernels", "topology", "jobs", "gpubarrier_tools", "scripts", "configs", "cmake",
        "include", "examples", "legacy", "reframe", "CMakeLists.txt", "tests/CMakeLists.txt"]
C_LIKE = (".c", ".h", ".cpp", ".hpp", ".cu", ".cuh", ".cpp.in", ".hpp.in")
DATA = (".csv", ".json")


def c_comments(text):
    """(line, comment) for every // and /* */ comment of C, C++ or CUDA source: string, character
    and raw string literals skipped."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k, part in enumerate(text[i:j].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, j)
            i = j
        elif c == "R" and text.startswith('"', i + 1) and not (text[i - 1:i].isalnum() or
                                                              text[i - 1:i] == "_"):
            open_paren = text.find("(", i + 2)
            close = ")" + text[i + 2:open_paren] + '"'
            j = text.find(close, open_paren)
            j = n if j < 0 else j + len(close)
            line += text.count("\n", i, j)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            line += c == "\n"
            i += 1
    return out


def python_comments(text):
    """(line, text) for every # comment and docstring of a Python file."""
    import ast
    import io
    import tokenize
    out = [(t.start[0], t.string) for t in tokenize.generate_tokens(io.StringIO(text).readline)
           if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                first = body[0].value.lineno
                out += [(first + k, part) for k, part in
                        enumerate(body[0].value.value.split("\n"))]
    return out


def hash_comments(text):
    """(line, comment) for every # comment of a shell script, YAML, CMake or template file: a #
    at the start of a line or after a blank outside quotes (a crude but sufficient reading)."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        quote = None
        for i, c in enumerate(line):
            if quote:
                quote = None if c == quote else quote
            elif c in "\"'":
                quote = c
            elif c == "#" and (i == 0 or line[i - 1] in " \t") and not line.startswith("#!"):
                out.append((n, line[i:]))
                break
    return out


def code_comments():
    """(where, comment) for the comments of the committed code of CODE."""
    files = subprocess.run(["git", "ls-files", "--", *CODE], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
    expect(files.returncode == 0 and files.stdout.strip(), "git ls-files failed", files)
    out = []
    for rel in files.stdout.split():
        path = os.path.join(ROOT, rel)
        if rel.endswith(DATA) or not os.path.isfile(path):
            continue
        text = read(path)
        if rel.endswith(".md"):
            found = list(enumerate(text.split("\n"), 1))
        elif rel.endswith(C_LIKE):
            found = c_comments(text)
        elif rel.endswith(".py"):
            found = python_comments(text)
        else:
            found = hash_comments(text)
        out += [(f"{rel}:{n}", comment) for n, comment in found]
    return out


SUBCOMMANDS = ["", "list", "topo", "run", "sweep", "selfcheck", "jobs", "config", "merge",
               "lost-point", "schema", "compare", "plot", "model", "report"]


def test_no_history(exe):
    files = [README] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    expect(len(files) > 1, "no docs/*.md")
    texts = [(os.path.relpath(path, ROOT), read(path)) for path in files]
    # Every --help, the Python tools' own options included, and every method's description.
    env = dict(os.environ, GPUBARRIER_TOOLS=os.path.join(ROOT, "gpubarrier_tools"))
    for sub in SUBCOMMANDS + ["config check"]:
        args = [exe, *sub.split(), "--help"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
        texts.append((f"gpubarrier {sub} --help", p.stdout + p.stderr))
    p = subprocess.run([exe, "list", "--json"], capture_output=True, text=True, timeout=120)
    texts.append(("gpubarrier list --json", p.stdout))
    bad = []
    for where, text in texts:
        story = STORY if where.startswith("gpubarrier") else []
        for n, line in enumerate(text.split("\n"), 1):
            for pattern, what in HISTORY + story:
                if pattern.search(line):
                    bad.append(f"{where}:{n}: {what}: {line.strip()}")
    for where, comment in code_comments():
        for pattern, what in HISTORY + STORY:
            if pattern.search(comment):
                bad.append(f"{where}: {what}: {comment.strip()}")
    expect(not bad, f"the documents and comments speak of the project's history ({len(bad)}):\n"
           + "\n".join(bad))

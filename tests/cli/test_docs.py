#!/usr/bin/env python3
"""The documents against the gpubarrier they describe. Plain python3 (stdlib only).

Usage: test_docs.py GPUBARRIER CASE
  methods      docs/methods.md is what tools/methods_doc.py writes from `GPUBARRIER list --json`
  quick_start  README.md's quick start (the ```sh block whose first line is `# quick start`) runs
               as written, every command exiting 0, in an empty folder whose build/ holds
               GPUBARRIER: the block's own `export PATH=...` is what puts gpubarrier on PATH
  no_history   README.md, docs/*.md, every --help and every method's description speak to users: no paths into the project's working
               folders, no source-document file names, no issue numbers
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import clean_env, expect, run_gpubarrier  # noqa: E402

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


def case_methods(exe):
    listed = run_gpubarrier(exe, "list", "--json", timeout=120)
    expect(listed.returncode == 0, "gpubarrier list --json failed", listed)
    done = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "methods_doc.py"), "-",
                           "--check", os.path.join(ROOT, "docs", "methods.md")],
                          input=listed.stdout, capture_output=True, text=True, timeout=60)
    expect(done.returncode == 0, "docs/methods.md is not current", done)


def case_quick_start(exe):
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
]


SUBCOMMANDS = ["", "list", "topo", "run", "sweep", "selfcheck", "jobs", "config", "merge",
               "lost-point", "schema", "compare", "plot", "model", "report"]


def case_no_history(exe):
    files = [README] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    expect(len(files) > 1, "no docs/*.md")
    texts = [(os.path.relpath(path, ROOT), read(path)) for path in files]
    # Every --help, the Python tools' own options included, and every method's description.
    env = dict(os.environ, GPUBARRIER_TOOLS=os.path.join(ROOT, "tools"))
    for sub in SUBCOMMANDS:
        args = [exe, *([sub] if sub else []), "--help"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
        texts.append((f"gpubarrier {sub} --help", p.stdout + p.stderr))
    p = subprocess.run([exe, "list", "--json"], capture_output=True, text=True, timeout=120)
    texts.append(("gpubarrier list --json", p.stdout))
    bad = []
    for where, text in texts:
        for n, line in enumerate(text.split("\n"), 1):
            for pattern, what in HISTORY:
                if pattern.search(line):
                    bad.append(f"{where}:{n}: {what}: {line.strip()}")
    expect(not bad, "the documents speak of the project's history:\n" + "\n".join(bad))


CASES = {"methods": case_methods, "quick_start": case_quick_start, "no_history": case_no_history}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit(__doc__)
    CASES[sys.argv[2]](sys.argv[1])
    print(f"PASS {sys.argv[2]}")

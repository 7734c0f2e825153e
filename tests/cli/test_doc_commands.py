#!/usr/bin/env python3
"""Every command block of README.md and docs/*.md runs as written on a CPU machine, or says why it
cannot. Plain python3 (stdlib only).

The convention (docs/building.md, "Commands in the documents"): a fenced block tagged ```sh,
```bash or nothing holds commands; the test runs each as one bash script (`set -e -o pipefail`)
with GPUBARRIER's folder first on PATH, in a scratch copy of the checkout's tracked files whose
build/ is that folder, so that a command may write where a user's would and the checkout stays
as it was. Instead, the block's first line may say why it is not run here:

  # needs: WHAT   it needs what a CPU machine without Slurm lacks (a GPU, Slurm, an install
                  prefix, more ranks than the machine has cores, ...)
  # long: WHY     it runs too long for the test (a build, a full sweep)

A block that is not commands (a synopsis with placeholders, a folder tree, sample output) is
fenced ```text; ```python, ```yaml and ```json blocks are files, not commands.

The test fails, naming FILE:LINE of the block (and the line of the command that failed), for a
block that exits non-zero, runs past its time limit or carries a marker without a reason, and when
`git status --porcelain` of the checkout differs after the blocks ran.

Run by pytest, one test per document: pytest tests/cli/test_doc_commands.py [-k docs/tools.md]
"""
import glob
import os
import re
import shutil
import subprocess
import time

import pytest

from cli_common import clean_env, expect

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHELL_TAGS = ("", "sh", "bash", "shell")
MARKER = re.compile(r"^#\s*(needs|long)\s*:?\s*(.*)$")
BLOCK_TIMEOUT = 300  # s; a loaded 2-core machine, far above what any block takes there
# The script's own lines before the block's first line (see script()).
PREAMBLE = ["set -e -o pipefail",
            "trap 'echo \"gb-doc-block: line $((LINENO - 3)) exited $?\" >&2' ERR",
            ""]


def blocks(path):
    """[(first line number of the block's body, fence tag, [body lines])] of a markdown file's
    fenced blocks, indented ones (in lists) included."""
    out, fence, lines = [], None, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f.read().split("\n"), 1):
            m = re.match(r"^(\s*)(```+|~~~+)\s*([\w+-]*)", line)
            if fence is None and m:
                fence, indent, tag, start, lines = m.group(2), len(m.group(1)), m.group(3), n + 1, []
            elif fence is not None and line.strip() == fence:
                out.append((start, tag.lower(), lines))
                fence = None
            elif fence is not None:
                lines.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
    return out


def marker(body):
    """('needs'|'long', reason) from the block's first line, or None: the block runs."""
    first = next((line.strip() for line in body if line.strip()), "")
    m = MARKER.match(first)
    return (m.group(1), m.group(2).strip()) if m else None


def copy_checkout(dst, exe):
    """The checkout's tracked files under dst, and dst/build -> the folder of `exe`."""
    listed = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], capture_output=True,
                            check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = os.path.join(ROOT, rel)
        if not os.path.lexists(src) or os.path.isdir(src):
            continue  # deleted in the working tree, or a submodule
        os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
        shutil.copy2(src, os.path.join(dst, rel), follow_symlinks=False)
    build = os.path.join(dst, "build")
    if os.path.basename(exe) == "gpubarrier":
        os.symlink(os.path.dirname(exe), build)
    else:
        os.makedirs(build, exist_ok=True)
        os.symlink(exe, os.path.join(build, "gpubarrier"))


# What a user's fresh shell does not have, whatever the test's caller set: a block that needs one
# of them (OpenMPI as root) sets it itself, as the user must.
NOT_A_USERS = ("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "GPUBARRIER_TOOLS")
# The line with which a block that runs mpirun allows OpenMPI to run as root.
ROOT_LINE = re.compile(r"OMPI_ALLOW_RUN_AS_ROOT=1\b.*OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1\b")
# What a command writes: the file or folder after --out, --raw or --html.
WRITES = re.compile(r"--(?:out|raw|html)[ =]([^\s`;|&)]+)")


def environment(exe):
    env = clean_env(drop=NOT_A_USERS)
    # Only the gpubarrier under test answers: first on PATH, no other build's behind it.
    env["PATH"] = os.pathsep.join(
        [os.path.dirname(exe)] + [p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and not os.path.exists(os.path.join(p, "gpubarrier"))])
    return env


def block_env(env, body):
    """The environment of one block: in a sanitized build, a block that starts OpenMPI runs with
    the leak checker's options for OpenMPI (tests/sanitizers/env.cmake.in says why)."""
    mpi_options = env.get("GB_LSAN_OPTIONS_MPI")
    if mpi_options and any(re.search(r"\bmpirun\b", line) for line in body):
        return dict(env, LSAN_OPTIONS=mpi_options)
    return env


def status():
    return subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=all"],
                          capture_output=True, text=True, check=True).stdout


def run_block(where, body, cwd, env):
    """(None or the failure, seconds) of one block run as a script in `cwd`."""
    script = "\n".join(PREAMBLE + body) + "\n"
    start = time.monotonic()
    try:
        done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=BLOCK_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"{where}: still running after {BLOCK_TIMEOUT} s", time.monotonic() - start
    took = time.monotonic() - start
    if done.returncode == 0:
        return None, took
    file, line = where.rsplit(":", 1)
    at = re.findall(r"gb-doc-block: line (\d+) exited", done.stderr)
    failed = f"{file}:{int(line) + int(at[-1]) - 1}" if at else where
    tail = "\n    ".join((done.stdout[-1500:] + done.stderr[-2500:]).strip().split("\n"))
    return f"{failed}: the command there exited {done.returncode} (block at {where}):\n    {tail}", \
        took


def run_files(files, exe, tmp):
    """(failures, blocks run, blocks not run) of the command blocks of `files`."""
    failures, ran, skipped = [], [], []
    env = environment(exe)
    for path in files:
        rel = os.path.relpath(path, ROOT)
        for start, tag, body in blocks(path):
            if tag not in SHELL_TAGS:
                continue
            where = f"{rel}:{start}"
            mark = marker(body)
            if mark:
                kind, reason = mark
                if not reason:
                    failures.append(f"{where}: '# {kind}:' says no reason (e.g. '# needs: a GPU', "
                                    f"'# long: a full build')")
                skipped.append(f"{where}: {kind}: {reason}")
                continue
            # Every block in a fresh copy: no block depends on what another wrote.
            cwd = os.path.join(tmp, f"b{len(ran)}")
            copy_checkout(cwd, exe)
            failure, took = run_block(where, body, cwd, block_env(env, body))
            ran.append(f"{where}: {took:.1f} s{'  FAILED' if failure else ''}")
            if failure:
                failures.append(failure)
            shutil.rmtree(cwd, ignore_errors=True)
    return failures, ran, skipped


SELF_CHECK = """A document whose second block fails on its third line.

```sh
gpubarrier --version
```

```
true
echo 'a continued' \\
  'command'
false
echo never
```

```sh
# needs:
gpubarrier --version
```
"""


def self_check(exe, tmp):
    """The test itself: a failing command is named by its file and line, a marker needs a reason."""
    path = os.path.join(tmp, "self-check.md")
    with open(path, "w") as f:
        f.write(SELF_CHECK)
    failures, ran, skipped = run_files([path], exe, tmp)
    rel = os.path.relpath(path, ROOT)
    expect(len(ran) == 2 and len(skipped) == 1 and len(failures) == 2 and
           failures[0].startswith(f"{rel}:11: the command there exited 1 (block at {rel}:8)") and
           "says no reason" in failures[1],
           "the test names a failing command by file:line and refuses a marker without a reason: "
           + "\n".join(failures + ran + skipped))


DOCUMENTS = [os.path.join(ROOT, "README.md")] + \
    sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def test_self_check(gpubarrier, tmp_path):
    self_check(os.path.abspath(gpubarrier), str(tmp_path))


def test_blocks_found():
    expect(any(tag in SHELL_TAGS and not marker(body)
               for path in DOCUMENTS for _, tag, body in blocks(path)), "no command block found")


def command_blocks():
    """[(file:line, first line number, body)] of every command block of the documents, run here
    or not (a user runs a `# needs:` block where it can run)."""
    return [(f"{os.path.relpath(path, ROOT)}:{start}", start, body)
            for path in DOCUMENTS for start, tag, body in blocks(path) if tag in SHELL_TAGS]


def code(line):
    """A block's line without its comment."""
    return re.sub(r"(^|\s)#.*$", "", line)


def test_blocks_run_in_users_environment(monkeypatch):
    for var in NOT_A_USERS:
        monkeypatch.setenv(var, "1")
    env = environment(os.path.join(ROOT, "build", "gpubarrier"))
    expect(not [v for v in NOT_A_USERS if v in env],
           "the blocks run without what the test's caller set for OpenMPI as root or the tools")


def test_mpirun_blocks_allow_root():
    # OpenMPI refuses to start as root without both variables: a block that runs mpirun sets them
    # itself (first), so that it runs as written on a fresh machine as root.
    missing = []
    for where, start, body in command_blocks():
        for i, line in enumerate(body):
            if re.search(r"\bmpirun\b", code(line)):
                if not any(ROOT_LINE.search(code(l)) for l in body[:i + 1]):
                    missing.append(f"{where.rsplit(':', 1)[0]}:{start + i}")
                break
    expect(not missing, "mpirun without what root needs, set in the block: " + ", ".join(missing))


def test_blocks_write_distinct_files():
    # The documents run in order in one folder refuse a second block's output that holds rows
    # (rightly): each block writes files of its own.
    first, twice = {}, []
    for where, _, body in command_blocks():
        for target in {t for line in body for t in WRITES.findall(code(line))
                       if t != "none" and not t.isupper() and "$" not in t}:
            if target in first:
                twice.append(f"{target}: {first[target]} and {where}")
            first.setdefault(target, where)
    expect(not twice, "two blocks write the same file: " + "; ".join(twice))


def test_pytest_runs_with_its_interpreter():
    # `python3` on PATH need not be the interpreter that has pytest (a pyenv's, a venv's): a block
    # runs pytest with the one CMake recorded, or through ctest.
    bare = [where for where, _, body in command_blocks()
            if any(re.search(r"(^|\s)python3 -m pytest\b", code(line)) for line in body)]
    expect(not bare, "`python3 -m pytest` with whatever python3 is first on PATH: "
           + ", ".join(bare))


def test_setup_claims_hold():
    # "(X, Y and Z as scripts/S installs them)": scripts/S is the script that installs each.
    wrong = []
    for path in DOCUMENTS:
        text = open(path, encoding="utf-8").read()
        for names, script in re.findall(r"\(([^()]*?) as (scripts/[\w-]+) installs them", text):
            body = open(os.path.join(ROOT, script), encoding="utf-8").read()
            for name in re.split(r",\s*|\s+and\s+", re.sub(r"^.*?:\s*|^\w+\s+\(", "", names)):
                if name and name not in body:
                    wrong.append(f"{os.path.relpath(path, ROOT)}: {script} does not install {name}")
    expect(not wrong, "; ".join(wrong))


def test_legacy_setup_says_what_it_changes():
    # `GPUBARRIER_LEGACY=1 scripts/setup` adds an apt source and installs g++-11 system-wide: the
    # line that gives the command says so.
    silent = [f"{where.rsplit(':', 1)[0]}:{start + i}" for where, start, body in command_blocks()
              for i, line in enumerate(body)
              if "GPUBARRIER_LEGACY=1 scripts/setup" in code(line)
              and not ("apt source" in line and "g++-11" in line)]
    expect(not silent, "the legacy set-up's system-wide changes unsaid at " + ", ".join(silent))


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: os.path.relpath(p, ROOT))
def test_document(path, gpubarrier, tmp_path):
    before = status()
    failures, ran, skipped = run_files([path], os.path.abspath(gpubarrier), str(tmp_path))
    after = status()
    if after != before:
        failures.append("the checkout changed while the blocks ran (git status --porcelain):\n"
                        f"before:\n{before}after:\n{after}")
    print(f"ran {len(ran)} blocks:\n  " + "\n  ".join(ran))
    print(f"not run here ({len(skipped)}):\n  " + "\n  ".join(skipped))
    expect(not failures, f"{len(failures)} document command(s) fail:\n" + "\n".join(failures))

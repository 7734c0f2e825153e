"""What the CLI tests share: running gpubarrier as a plain process (never as an MPI rank), failing
with the command's output, reading a CSV."""
import csv
import json
import os
import shutil
import subprocess
import sys

# Variables that make gpubarrier believe it is a rank of an mpirun/srun launch.
LAUNCH_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_PROCID")


def clean_env(extra=None, drop=()):
    env = dict(os.environ, **(extra or {}))
    for var in LAUNCH_VARS + tuple(drop):
        env.pop(var, None)
    return env


def run_gpubarrier(exe, *args, env=None, drop=(), timeout=300, cwd=None):
    return subprocess.run([exe, *args], capture_output=True, text=True,
                          env=clean_env(env, drop), timeout=timeout, cwd=cwd)


def executable():
    """The gpubarrier executable under test: what pytest was given (--gpubarrier, which
    tests/conftest.py puts in GPUBARRIER_EXE), else the first argument of a test run as a script."""
    return os.environ.get("GPUBARRIER_EXE") or sys.argv[1]


def expect(cond, what, proc=None, tail=None):
    """Fails the test with `what` and, given a finished process, its output (stdout's last `tail`
    characters when set)."""
    if not cond:
        out = proc.stdout[-tail:] if proc and tail else proc.stdout if proc else ""
        detail = f"\nstdout:\n{out}\nstderr:\n{proc.stderr}" if proc else ""
        raise AssertionError(f"FAIL: {what}{detail}")


def loop_against_step(loop, step):
    """What is wrong with a host method's loop row beside its per-step row, or None. Quiet, the
    two lie within 0.2x-5x of each other (the program marks both noisy beyond 4x apart); where the
    program marked either noisy (on a loaded machine preemption stretches single steps or whole
    loops, and the note says the members lacked CPUs), the test accepts that marking instead of
    the figures: speed is not what the tests assert."""
    if "noisy: " in loop["note"] or "noisy: " in step["note"]:
        return None
    if 0.2 * float(step["median"]) <= float(loop["median"]) <= 5 * float(step["median"]):
        return None
    return "the loop's mean step far from the per-step median, and neither figure marked noisy"


def one_line(p, code, *words, prefix="", absent=()):
    """Exit `code`, exactly one line on stderr holding every word (and starting with `prefix`,
    holding none of `absent`), no traceback; the line."""
    lines = p.stderr.strip().splitlines()
    expect(p.returncode == code, f"exit {code} (got {p.returncode})", p)
    expect("Traceback" not in p.stderr, "no Python traceback", p)
    expect(len(lines) == 1, f"one line on stderr (got {len(lines)})", p)
    expect(lines[0].startswith(prefix), f"the line starts with {prefix!r}", p)
    for w in words:
        expect(w in lines[0], f"the line names {w!r}", p)
    for w in absent:
        expect(w not in lines[0], f"the line does not say {w!r}", p)
    return lines[0]


def write_text(folder, name, text):
    """Writes `text` to folder/name; the path."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def synthetic_row(columns, latest, **kw):
    """One ok row of the latest schema (`columns`, `latest`: gpubarrier_tools/data/gbcsv.py's NAMES and LATEST)
    with neutral provenance; `kw` sets columns (mean and median follow value)."""
    r = dict.fromkeys(columns, "")
    r.update(schema_version=str(latest), run_id="r1", timestamp="2026-11-23T00:00:00Z", host="h",
             system="test", gpu_count="1", launcher="single", ranks="1", nodes="1",
             technique="clock", samples="5", status="ok", stop="converged")
    r.update({k: str(v) for k, v in kw.items()})
    r["mean"] = r["median"] = r["value"]
    return r


def write_rows(path, columns, rows):
    """A gpubarrier CSV (CRLF, header first) of `rows` (dicts of `columns`)."""
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\r\n")
        w.writeheader()
        w.writerows(rows)


def committed_files(root, path):
    """The files under `path` (relative to the checkout `root`) that git tracks, relative to root.
    Tests read these, never what a user's runs added beside them (scripts/run writes
    results/local/, a sweep may write anywhere under results/). Outside a git checkout (an
    unpacked archive holds only what was committed): every file except results/local/."""
    p = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", path],
                       capture_output=True, text=True)
    if p.returncode == 0:
        return sorted(f for f in p.stdout.split("\0") if f)
    out = []
    for folder, dirs, files in os.walk(os.path.join(root, path)):
        rel = os.path.relpath(folder, root)
        dirs[:] = [d for d in dirs if os.path.join(rel, d) != os.path.join("results", "local")]
        out += [os.path.normpath(os.path.join(rel, f)) for f in files]
    return sorted(out)


def committed_copy(root, path, dest):
    """Copies the tracked files under `path` (committed_files) into `dest`, keeping their paths
    relative to root; the copy of `path` itself."""
    for rel in committed_files(root, path):
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(root, rel), target)
    return os.path.join(dest, path)


def expect_sweep_skipped_without_gpu(exe, sweep, methods, probe, out):
    """Without a GPU (the method `probe` not usable), `sweep` runs to the end with a skipped row
    for each of `methods` that says why; with one, the test is skipped (the sweep would measure).
    pytest is imported here: the scripts that share this module run without it."""
    import pytest

    p = run_gpubarrier(exe, "--json", "list")
    expect(p.returncode == 0, "list works", p)
    if next(m for m in json.loads(p.stdout) if m["name"] == probe)["usable"]:
        pytest.skip("a GPU is visible: the sweep itself is not run here (it would measure)")
    p = run_gpubarrier(exe, "sweep", sweep, "--out", out)
    expect(p.returncode == 0, "the sweep runs to the end without a GPU", p)
    rows = read_csv(out)
    expect({r["method"] for r in rows} == methods, f"a row for each of {sorted(methods)}: {rows}")
    for r in rows:
        expect(r["status"] == "skipped" and "no CUDA GPU visible" in r["note"],
               f"skipped, saying why: {r}")

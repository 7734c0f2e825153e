#!/usr/bin/env python3
"""How `gpubarrier jobs` writes into a folder it made before: never through a symbolic link,
never into a FIFO or a device, and a full disk leaves each file whole and is the machine's
failure (exit 1), not the request's.

links        README.md (or the sweeps/ folder) a link to a file (folder) outside: exit 2 naming
             it; the target as it was, the link too; --dry-run refuses it as well
fifo         submit.sh a FIFO: exit 2 naming it, no hang
full_disk    writing past a file-size limit (EFBIG, as a full disk stops a write): exit 1, one
             line naming the file; every file of the earlier generation whole, no temporary file
             left

Run by pytest: pytest tests/cli/test_jobs_writes.py [--gpubarrier PATH]
"""
import os
import resource
import signal
import subprocess
import tempfile

from cli_common import clean_env, executable, expect, one_line

EXE = executable()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def jobs_into(out, *extra, preexec_fn=None):
    return subprocess.run([EXE, "jobs", "--system", "local-slurm", "--sweep", "quick", "--out",
                           out, "--gpu-counts", "2", *extra], capture_output=True, text=True,
                          env=clean_env(), timeout=300, cwd=ROOT, preexec_fn=preexec_fn)


def snapshot(folder):
    out = {}
    for base, dirs, files in os.walk(folder):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(base, d))]:
            path = os.path.join(base, name)
            rel = os.path.relpath(path, folder)
            out[rel] = ("link", os.readlink(path)) if os.path.islink(path) else \
                ("fifo",) if not os.path.isfile(path) else open(path, "rb").read()
    return out


def made(d):
    out = os.path.join(d, "j")
    p = jobs_into(out)
    expect(p.returncode == 0, "the first generation", p)
    return out


def test_links():
    with tempfile.TemporaryDirectory() as d:
        out = made(d)
        notes = os.path.join(d, "notes.txt")
        with open(notes, "w") as f:
            f.write("my notes\n")
        readme = os.path.join(out, "README.md")
        os.remove(readme)
        os.symlink("../notes.txt", readme)
        before = snapshot(out)
        for extra in ([], ["--dry-run"]):
            one_line(jobs_into(out, *extra), 2, "README.md", "symbolic link",
                     prefix="gpubarrier: error:")
            expect(open(notes).read() == "my notes\n", f"{extra}: the link's target as it was")
            expect(snapshot(out) == before, f"{extra}: the folder as it was")
        os.remove(readme)
        elsewhere = os.path.join(d, "elsewhere")
        os.mkdir(elsewhere)
        sweeps = os.path.join(out, "sweeps")
        for f in os.listdir(sweeps):
            os.rename(os.path.join(sweeps, f), os.path.join(elsewhere, f))
        os.rmdir(sweeps)
        os.symlink(elsewhere, sweeps)
        theirs = snapshot(elsewhere)
        one_line(jobs_into(out), 2, "sweeps", "symbolic link", prefix="gpubarrier: error:")
        expect(snapshot(elsewhere) == theirs, "the linked folder's files as they were")


def test_fifo():
    with tempfile.TemporaryDirectory() as d:
        out = made(d)
        submit = os.path.join(out, "submit.sh")
        os.remove(submit)
        os.mkfifo(submit)
        one_line(jobs_into(out), 2, "submit.sh", "FIFO", prefix="gpubarrier: error:")
        expect(not os.path.isfile(submit) and os.path.exists(submit), "the FIFO as it was")


def test_full_disk():
    with tempfile.TemporaryDirectory() as d:
        out = made(d)
        readme = os.path.join(out, "README.md")
        with open(readme, "a") as f:
            f.write("\n")  # this generation rewrites it, whole
        before = snapshot(out)
        small = min(len(v) for v in before.values() if isinstance(v, bytes) and len(v) > 200)

        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (small - 100, small - 100))

        p = jobs_into(out, preexec_fn=limit)
        one_line(p, 1, "cannot write", out, "as it was", prefix="gpubarrier: failed:")
        expect(snapshot(out) == before, "every file as it was, no temporary file beside them", p)

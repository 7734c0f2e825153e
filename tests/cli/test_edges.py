#!/usr/bin/env python3
"""The edges of the command line through the real executable: nothing of a user's file goes
without --force, bad input exits 2 with one line that says what was wrong and what is expected,
sweep files are narrowed from the command line, and the progress line never garbles a row.

overwrite       run --out/--raw of a file that holds rows: refused (2), the file untouched;
                --force replaces it, --resume continues it; merge and selfcheck alike
overwrite_mpi   the same refusal under `mpirun -np 2`, decided by rank 0 for every rank
topology        <csv>.topology.json beside every CSV, kept by --resume
no_trace        a refused --resume and --out DIR leave no .done behind
axis_values     values no method can mean, and too many points, refused before anything runs
parse_errors    unknown flags, subcommands and bad values: exit 2, the closest names
sweep_narrow    sweep FILE --methods/--axis (and GPUBARRIER_AXIS) narrow the file's runs
progress        on a terminal: the running point, the count, the time left, rows never glued;
                nothing of it when stderr is not a terminal

Run by pytest: pytest tests/.../test_edges.py [--gpubarrier PATH]
"""
import os
import pty
import re
import select
import subprocess
import tempfile

import pytest

from cli_common import clean_env, executable, expect, read_csv, run_gpubarrier, write_text

EXE = executable()
OMP = ["--methods", "host.omp.barrier", "--axis", "group_size=1", "--samples", "2",
       "--time-budget", "0.05"]


def gpubarrier(*args, env=None):
    return run_gpubarrier(EXE, *args, env=env)


def one_error_line(p, *words):
    """Exit 2, one line on stderr beginning 'gpubarrier: error:' and holding every word."""
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    expect(p.returncode == 2, f"exit 2 (got {p.returncode})", p)
    expect(len(lines) == 1 and lines[0].startswith("gpubarrier: error: "), "one error line", p)
    for w in words:
        expect(w in lines[0], f"the message names '{w}'", p)
    expect("Traceback" not in p.stderr, "no traceback", p)


def snapshot(*paths):
    out = {}
    for path in paths:
        if os.path.exists(path):
            with open(path, "rb") as f:
                out[path] = f.read()
    return out


def test_overwrite():
    with tempfile.TemporaryDirectory() as d:
        out, raw = os.path.join(d, "o.csv"), os.path.join(d, "o.raw.csv")
        p = gpubarrier("run", *OMP, "--out", out, "--raw", raw)
        expect(p.returncode == 0, "a first run writes its files", p)
        before = snapshot(out, out + ".done", raw)
        expect(len(before) == 3 and len(read_csv(out)) >= 1, "CSV, log and raw file written", p)

        p = gpubarrier("run", *OMP, "--out", out)
        one_error_line(p, out, "--resume", "--force")
        expect(snapshot(out, out + ".done", raw) == before, "a refused run changes nothing")
        os.remove(out)  # the completion log alone holds the record of finished points
        p = gpubarrier("run", *OMP, "--out", out)
        one_error_line(p, out + ".done", "--force")
        expect(not os.path.exists(out), "nothing created beside a refused log")
        p = gpubarrier("run", *OMP, "--out", os.path.join(d, "new.csv"), "--raw", raw)
        one_error_line(p, raw, "--force")
        expect(not os.path.exists(os.path.join(d, "new.csv")), "refused before any file is made")

        p = gpubarrier("run", *OMP, "--out", out, "--raw", raw, "--force")
        expect(p.returncode == 0 and len(read_csv(out)) >= 1, "--force replaces them", p)
        p = gpubarrier("run", *OMP, "--out", out, env={"GPUBARRIER_FORCE": "1"})
        expect(p.returncode == 0, "GPUBARRIER_FORCE=1 is --force", p)
        rows = len(read_csv(out))
        p = gpubarrier("run", *OMP, "--out", out, "--resume")
        expect(p.returncode == 0 and len(read_csv(out)) >= rows, "--resume continues it", p)
        empty = os.path.join(d, "empty.csv")
        open(empty, "w").close()
        p = gpubarrier("run", *OMP, "--out", empty)
        expect(p.returncode == 0, "an empty file holds nothing to lose", p)

        merged = os.path.join(d, "m.csv")
        p = gpubarrier("merge", out, "--out", merged)
        expect(p.returncode == 0, "merge into a new file", p)
        before = snapshot(merged)
        p = gpubarrier("merge", out, empty, "--out", merged)
        one_error_line(p, merged, "--force")
        expect(snapshot(merged) == before, "a refused merge leaves --out as it was")
        p = gpubarrier("merge", out, "--out", merged, "--force")
        expect(p.returncode == 0, "merge --force replaces it", p)
        one_error_line(gpubarrier("merge", out, "--out", d), "directory")
        one_error_line(gpubarrier("selfcheck", "--out", out), out, "--force")


@pytest.mark.mpi
def test_overwrite_mpi():
    """Under mpirun rank 0 decides for every rank: all exit 2, nothing changed, no rank hangs."""
    import shutil
    mpirun = shutil.which("mpirun")
    expect(mpirun, "mpirun on PATH (scripts/setup installs openmpi-bin)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl="self,tcp", OMPI_MCA_rmaps_base_oversubscribe="1")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.csv")
        cmd = [mpirun, "-np", "2", "--oversubscribe", EXE, "run", "--methods", "host.mpi.barrier",
               "--samples", "2", "--time-budget", "0.05", "--out", out]
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        expect(p.returncode == 0 and len(read_csv(out)) >= 1, "a first mpirun writes the CSV", p)
        before = snapshot(out, out + ".done")
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        expect(p.returncode == 2 and "--resume" in p.stderr and "--force" in p.stderr,
               "refused under mpirun too, naming --resume and --force", p)
        expect(snapshot(out, out + ".done") == before, "the CSV and its log as they were")
        p = subprocess.run(cmd + ["--force"], capture_output=True, text=True, env=env, timeout=300)
        expect(p.returncode == 0, "--force under mpirun", p)


def test_topology():
    """The machine's wiring beside every CSV (`gpubarrier topo --json`); kept by --resume."""
    import json
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.csv")
        p = gpubarrier("run", *OMP, "--out", out)
        record = out + ".topology.json"
        expect(p.returncode == 0 and os.path.exists(record), "the topology beside the CSV", p)
        with open(record) as f:
            topo = json.load(f)
        expect({"gpus", "nvlink_groups", "probes"} <= set(topo), f"topo --json's keys: {topo}")
        before = os.stat(record).st_mtime_ns
        p = gpubarrier("run", *OMP, "--out", out, "--resume")
        expect(p.returncode == 0 and os.stat(record).st_mtime_ns == before,
               "--resume keeps the record of the run it continues", p)
        p = gpubarrier("run", *OMP, "--out", "none")
        expect(p.returncode == 0 and sorted(os.listdir(d)) == ["t.csv", "t.csv.done", "t.csv" +
                                                              ".topology.json"],
               f"--out none writes nothing: {os.listdir(d)}", p)


def test_no_trace():
    with tempfile.TemporaryDirectory() as d:
        foreign = os.path.join(d, "notes.csv")
        with open(foreign, "w") as f:
            f.write("a,b\n1,2\n")
        p = gpubarrier("run", *OMP, "--out", foreign, "--resume")
        expect(p.returncode == 2, "resuming a file that is not gpubarrier's is refused", p)
        expect(not os.path.exists(foreign + ".done"), "and leaves no empty .done", p)
        expect(open(foreign).read() == "a,b\n1,2\n", "nor touches the file")
        for extra in ([], ["--resume"], ["--force"]):
            p = gpubarrier("run", *OMP, "--out", d, *extra)
            one_error_line(p, "is a directory")
            expect(not os.path.exists(d.rstrip("/") + ".done"), f"--out DIR {extra}: no DIR.done")


def test_axis_values():
    for axis, words in (("group_size=-5", ["group_size", "-5", "1.."]),
                        ("group_size=0", ["group_size", "0", "1.."]),
                        ("threads_per_block=2048", ["threads_per_block", "1..1024"])):
        p = gpubarrier("run", "--methods", "host.omp.barrier,gpu.block.*", "--axis", axis,
                       "--out", "none")
        one_error_line(p, *words)
    # A million points of one method: refused from the axes' sizes, nothing expanded or run.
    big = ["--methods", "multinode.hierarchical", "--axis", "threads_per_block=1:1000:1",
           "--axis", "blocks_per_sm=1:1000:1", "--out", "none"]
    one_error_line(gpubarrier("run", *big), "000000 points", "--point-limit")
    # Raised, a large request runs: the method is skipped outside mpirun, one row.
    p = gpubarrier("--json", "run", *big[:3], "threads_per_block=1:1000:1", "--axis",
                   "blocks_per_sm=1:30:1", "--out", "none", "--point-limit", "1000000")
    expect(p.returncode == 0 and '"skipped"' in p.stdout, "--point-limit raises the cap", p)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.yaml")
        with open(path, "w") as f:
            f.write("runs:\n  - methods: host.omp.barrier\n    axes: {group_size: [2, -5]}\n")
        p = subprocess.run([EXE, "config", "check", path], capture_output=True, text=True,
                           timeout=120)
        expect(p.returncode == 2 and f"{path}:3:" in p.stderr and "group_size" in p.stderr,
               "config check names the file, line and axis", p)


def test_parse_errors():
    one_error_line(gpubarrier("run", "--bogus"), "--bogus", "gpubarrier run --help")
    one_error_line(gpubarrier("run", "--sampels", "3"), "--sampels", "--samples")
    one_error_line(gpubarrier("run", "--samples", "abc"), "--samples", "abc")
    one_error_line(gpubarrier("merge", EXE, "/nonexistent.csv", "--out", "x.csv"),
                   "/nonexistent.csv")
    one_error_line(gpubarrier("frobnicate"), "frobnicate", "gpubarrier --help")
    one_error_line(gpubarrier("rn", "--methods", "x"), "'rn'", "run")
    one_error_line(gpubarrier("-v", "debug", "swep", "x.yaml"), "'swep'", "sweep")
    one_error_line(gpubarrier("run", "--isolate", "sometimes"), "--isolate", "sometimes")
    p = gpubarrier("run", "--help")
    expect(p.returncode == 0 and "--force" in p.stdout and "--point-limit" in p.stdout,
           "--help still exits 0 and teaches", p)
    p = gpubarrier("--version")
    expect(p.returncode == 0 and p.stdout.strip(), "--version exits 0", p)


SWEEP = """runs:
  - methods: host.omp.barrier
    axes: {group_size: [1, 2]}
  - methods: [gpu.block.syncthreads, host.omp.gpu-barrier]
    axes: {threads_per_block: [32]}
"""


def sweep_file(d):
    return write_text(d, "s.yaml", SWEEP)


def test_sweep_narrow():
    import json
    with tempfile.TemporaryDirectory() as d:
        path = sweep_file(d)
        p = gpubarrier("--json", "sweep", path, "--methods", "host.omp.*", "--axis",
                       "group_size=1", "--samples", "2", "--time-budget", "0.05", "--out", "none",
                       "--isolate", "none")
        expect(p.returncode == 0, "sweep takes --methods and --axis", p)
        rows = json.loads(p.stdout)
        methods = {r["method"] for r in rows}
        expect(methods <= {"host.omp.barrier", "host.omp.gpu-barrier"} and
               "host.omp.barrier" in methods, f"only the matching methods: {methods}", p)
        configs = {r["config"] for r in rows if r["method"] == "host.omp.barrier"}
        expect(configs == {"group_size=1"}, f"--axis replaced the file's values: {configs}", p)
        p = gpubarrier("--json", "sweep", path, "--samples", "2", "--time-budget", "0.05",
                       "--out", "none", "--isolate", "none",
                       env={"GPUBARRIER_METHODS": "host.omp.barrier",
                            "GPUBARRIER_AXIS": "group_size=2"})
        configs = {(r["method"], r["config"]) for r in json.loads(p.stdout or "[]")}
        expect(p.returncode == 0 and configs == {("host.omp.barrier", "group_size=2")},
               f"GPUBARRIER_METHODS and GPUBARRIER_AXIS narrow it too: {configs}", p)
        one_error_line(gpubarrier("sweep", path, "--methods", "gpu.grid.*", "--out", "none"),
                       "gpu.grid.*")
        one_error_line(gpubarrier("sweep", path, "--axis", "blocks_per_smm=1", "--out", "none"),
                       "blocks_per_smm")


def on_terminal(args):
    """Runs gpubarrier with stdout and stderr on one pseudo-terminal; returns (status, text)."""
    pid, fd = pty.fork()
    if pid == 0:
        env = clean_env({"COLUMNS": "200"})
        env.pop("GPUBARRIER_PROGRESS", None)
        os.execve(EXE, [EXE, *args], env)
    out = b""
    while True:
        ready, _, _ = select.select([fd], [], [], 300)
        if not ready:
            os.kill(pid, 9)
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def screen_lines(text):
    """What a terminal shows: '\\r' returns to the line's start, ESC[K erases what follows."""
    shown = []
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = ""
        for part in re.split(r"(\r|\x1b\[K)", raw):
            if part == "\r":
                line = ""  # every redraw is \r + ESC[K, so the old text is erased
            elif part != "\x1b[K":
                line += part
        shown.append(line)
    return shown


PROGRESS = re.compile(r"\[(\d+)/(\d+) \d+[smh]")


def test_progress():
    with tempfile.TemporaryDirectory() as d:
        args = ["run", "--methods", "host.omp.barrier", "--axis", "group_size=1,2,1",
                "--samples", "2", "--time-budget", "0.2", "--out", os.path.join(d, "o.csv")]
        status, text = on_terminal(args)
        expect(status == 0, f"the run exits 0 on a terminal:\n{text}")
        expect("[1/3 " in text and "host.omp.barrier group_size=1" in text,
               f"the progress names the running point and the count:\n{text!r}")
        expect(re.search(r"\[2/3 [^\]]*left\]", text), f"the time left:\n{text!r}")
        shown = screen_lines(text)
        rows = [ln for ln in shown if "host.omp.barrier" in ln and not PROGRESS.search(ln)]
        expect(len(rows) >= 3, f"every row on its own line:\n{shown}")
        glued = [ln for ln in shown if PROGRESS.search(ln) and ("loop_latency" in ln or "ok" in
                                                                ln.split()[-1:])]
        expect(not glued, f"no row glued to the progress line: {glued}")
        expect(not any(PROGRESS.search(ln) for ln in shown[-3:]),
               f"the line is cleared at the end:\n{shown[-3:]}")

        p = gpubarrier(*args[:-1], os.path.join(d, "p.csv"))
        expect(p.returncode == 0 and not PROGRESS.search(p.stderr) and "\x1b" not in p.stderr,
               "nothing of it when stderr is not a terminal", p)

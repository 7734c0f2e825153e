#!/usr/bin/env python3
"""`gpubarrier config check FILE...` through the real executable: every shipped system and sweep
passes, and a mistake exits 2 as `file:line:column: key: expected ...; did you mean 'x'?`.

shipped_files    configs/systems/*.yaml and configs/sweeps/*.yaml: ok, exit 0
system_mistakes  a misspelt key, a bad value, bad wiring in a system file
sweep_mistakes   a misspelt key, a glob that matches no method, an axis no method has
several_files    every file is checked; the exit status says whether any had a mistake
sweep_and_jobs_name_the_file  `sweep` and `jobs --sweep` report the mistakes as config check does
alias_bomb       anchors and aliases nested 19 x 9 (about 1 KB): refused at once by config check,
                 sweep and jobs --sweep, not expanded
huge_file        a 120 MB file: refused by its size before any of it is parsed, in bounded memory
second_document  a second YAML document after `---`: refused, not ignored
point_limit      a sweep of 65,536 points: refused by config check as sweep refuses it

Run by pytest: pytest test_config_check.py [--gpubarrier PATH]
"""
import glob
import os
import subprocess
import tempfile

import pytest

from cli_common import executable

EXE = executable()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def check(*files):
    return subprocess.run([EXE, "config", "check", *files], capture_output=True, text=True,
                          timeout=120)


def expect(cond, what, proc=None):
    if not cond:
        detail = f"\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}" if proc else ""
        pytest.fail(f"{what}{detail}")


def write(folder, name, text):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def test_shipped_files():
    files = sorted(glob.glob(os.path.join(ROOT, "configs", "systems", "*.yaml")) +
                   glob.glob(os.path.join(ROOT, "configs", "sweeps", "*.yaml")))
    p = check(*files)
    expect(p.returncode == 0, "every shipped file passes", p)
    expect(p.stdout.count("ok: ") == len(files), "one ok line per file", p)
    expect("system dgx-h100, 8 x H100-SXM5-80GB (CUDA_ARCH=90), nv18-clique8" in p.stdout,
           "a system's derived topology is shown", p)
    expect("system hgx-h200 (alias of dgx-h200)" in p.stdout, "aliases are resolved", p)
    expect("sweep paper," in p.stdout, "paper.yaml checked", p)


def expect_mistake(path, where, *parts):
    p = check(path)
    expect(p.returncode == 2, f"{path}: exit 2", p)
    expect(f"{path}:{where}: " in p.stderr, f"{path}: names line:column {where}", p)
    for part in parts:
        expect(part in p.stderr, f"{path}: says {part!r}", p)


def test_system_mistakes():
    with open(os.path.join(ROOT, "configs", "systems", "dgx-h100.yaml")) as f:
        good = f.read()
    with tempfile.TemporaryDirectory() as d:
        typo = write(d, "systems/dgx-h100.yaml", good.replace("  partition: null", "  partiton: null"))
        line = good[:good.index("  partition: null")].count("\n") + 1
        expect_mistake(typo, f"{line}:3", "slurm.partiton: unknown key", "did you mean 'partition'?")
        bad = write(d, "systems/dgx-h100.yaml", good.replace("launcher: srun", "launcher: srn"))
        line = good[:good.index("launcher: srun")].count("\n") + 1
        expect_mistake(bad, f"{line}:13", "slurm.launcher: expected one of srun, mpirun",
                       "did you mean 'srun'?")
        wiring = write(d, "systems/dgx-h100.yaml", good.replace("gpus_per_node: 8", "gpus_per_node: 9"))
        line = good[:good.index("  pcie:\n")].count("\n") + 2  # the list below the key
        expect_mistake(wiring, f"{line}:5", "wiring.pcie: expected a list of 9 PCIe positions")


def test_sweep_mistakes():
    with tempfile.TemporaryDirectory() as d:
        expect_mistake(write(d, "sweeps/a.yaml", "name: a\nrun:\n  - methods: host.*\n"), "2:1",
                       "run: unknown key 'run'", "did you mean 'runs'?")
        expect_mistake(write(d, "sweeps/b.yaml", "runs:\n  - methods: host.omp.barier\n"), "2:14",
                       "runs[0].methods: expected a registered method",
                       "did you mean 'host.omp.barrier'?")
        expect_mistake(write(d, "sweeps/c.yaml",
                             "runs:\n  - methods: gpu.block.*\n    axes: {thread_per_block: [32]}\n"),
                       "3:12", "runs[0].axes.thread_per_block: expected an axis",
                       "did you mean 'threads_per_block'?")
        expect_mistake(write(d, "sweeps/d.yaml", "runs:\n  - methods: x\n    axis: {a: [1]}\n"),
                       "3:5", "did you mean 'axes'?")
        # The values `sweep` would refuse are refused here, with their line and column.
        runs = "runs:\n  - methods: host.omp.barrier\n"
        for key, value, says in (("samples", "-3", "at least 2"), ("samples", "1", "at least 2"),
                                 ("time_budget", "-1", "above 0"), ("rse_target", "-1", "above 0"),
                                 ("rse_target", "2", "at most 1"),
                                 ("point_timeout", "0", "above 0")):
            expect_mistake(write(d, f"sweeps/{key}.yaml", f"{key}: {value}\n" + runs),
                           f"1:{len(key) + 3}", f"{key}: expected", says)
        expect_mistake(write(d, "sweeps/dup.yaml", "samples: 5\n" + runs + "samples: 7\n"),
                       "4:1", "samples: duplicate key (first given at line 1")
        expect_mistake(write(d, "sweeps/dup2.yaml",
                             runs + "    axes: {group_size: [2], group_size: [4]}\n"),
                       "3:29", "group_size: duplicate key")
        expect_mistake(write(d, "sweeps/tab.yaml", "runs:\n\t- methods: host.omp.barrier\n"),
                       "2:1", "a tab in the indentation")
        expect_mistake(write(d, "sweeps/range.yaml",
                             runs + "    axes: {group_size: [2, 0]}\n"), "3:28",
                       "group_size=0: outside the axis' range 1..")


def test_several_files():
    with tempfile.TemporaryDirectory() as d:
        good = os.path.join(ROOT, "configs", "sweeps", "quick.yaml")
        bad = write(d, "sweeps/bad.yaml", "runs:\n  - methods: nothing.like.this\n")
        p = check(bad, good)
        expect(p.returncode == 2, "a mistake in any file: exit 2", p)
        expect(f"ok: {good}" in p.stdout, "the good file is still checked", p)
        expect("1 of 2 file(s) have mistakes" in p.stderr, "the count of bad files", p)


def one_line_refusal(p, path, where, says):
    expect(p.returncode == 2, f"{path}: exit 2", p)
    # config check ends with its count of files with mistakes; the mistake itself is one line
    lines = [l for l in p.stderr.strip().splitlines() if "file(s) have mistakes" not in l]
    expect(len(lines) == 1 and lines[0].startswith(f"gpubarrier: error: {path}:{where}"),
           f"one line naming {path}:{where}", p)
    expect(says in p.stderr, f"says {says!r}", p)


def test_sweep_and_jobs_name_the_file():
    # `sweep` and `jobs --sweep` report a sweep file's mistake at its place, as config check does:
    # a misspelt axis is the file's, not a flag the user never typed.
    with tempfile.TemporaryDirectory() as d:
        mistakes = (
            ("axis.yaml", "runs:\n  - methods: host.omp.barrier\n    axes: {group_sise: [2]}\n",
             "3:12", "runs[0].axes.group_sise: expected an axis", "did you mean 'group_size'?"),
            ("method.yaml", "runs:\n  - methods: host.omp.barier\n", "2:14",
             "runs[0].methods: expected a registered method", "did you mean 'host.omp.barrier'?"))
        for name, text, where, says, hint in mistakes:
            path = write(d, f"sweeps/{name}", text)
            for args in (["config", "check", path], ["sweep", path, "--out", "none"],
                         ["jobs", "--system", "local-slurm", "--sweep", path, "--out",
                          os.path.join(d, "jobs")]):
                p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=60)
                one_line_refusal(p, path, f"{where}: {says}", hint)
                expect("--axis" not in p.stderr, f"{args[0]}: blames no flag", p)


def alias_bomb(levels=19, fan=9):
    """Each level is a list of `fan` aliases of the one before: fan**levels nodes expanded."""
    lines = ["l0: &l0 [" + ", ".join(["x"] * fan) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * fan) + "]")
    return "\n".join(lines) + "\nruns:\n  - methods: host.omp.barrier\n"


def test_alias_bomb():
    says = "YAML aliases (*name) and anchors (&name) are not accepted"
    with tempfile.TemporaryDirectory() as d:
        text = alias_bomb()
        expect(len(text) < 1500, f"the bomb is small ({len(text)} bytes)")
        bomb = write(d, "sweeps/bomb.yaml", text)
        for args in (["config", "check", bomb], ["sweep", bomb, "--out", "none"],
                     ["jobs", "--system", "local-slurm", "--sweep", bomb, "--out",
                      os.path.join(d, "jobs")]):
            p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=60)
            one_line_refusal(p, bomb, "1:", says)
        # An alias alone (no bomb) is refused as well: the value is written out instead.
        one = write(d, "sweeps/one.yaml", "runs:\n  - methods: &m host.omp.barrier\n"
                    "  - methods: *m\n")
        one_line_refusal(check(one), one, "2:", says)


def test_huge_file():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "sweeps", "huge.yaml")
        os.makedirs(os.path.dirname(path))
        with open(path, "w") as f:
            chunk = "  - methods: host.omp.barrier\n" * 4096
            f.write("runs:\n")
            while f.tell() < 120_000_000:
                f.write(chunk)
        small = write(d, "sweeps/small.yaml", "runs:\n  - methods: host.omp.barrier\n")
        base, _ = check_with_peak(small)
        peak, p = check_with_peak(path)
        one_line_refusal(p, path, "", "larger than 1048576 bytes (1 MiB)")
        # Refused before it is read: the check's peak memory stays within that of a check of a
        # small file plus a part of the 120 MB (an address-space limit would instead stop a
        # sanitized build, whose shadow memory is reserved up front).
        expect(peak < base + 60_000_000, f"config check read at most a part of the 120 MB file "
               f"(peak resident memory {peak} bytes; {base} for a small file)", p)


def check_with_peak(path):
    """(peak resident bytes, finished process) of `config check PATH`, from that child's own
    resource usage (os.wait4)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([EXE, "config", "check", path], stdout=out, stderr=err,
                                 text=True)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        p = subprocess.CompletedProcess(child.args, child.returncode, out.read(), err.read())
    return usage.ru_maxrss * 1024, p


def test_second_document():
    with tempfile.TemporaryDirectory() as d:
        path = write(d, "sweeps/two.yaml", "runs:\n  - methods: host.omp.barrier\n---\n"
                     "runs:\n  - methods: nothing.like.this\n")
        says = "holds one YAML document; found a second one here"
        one_line_refusal(check(path), path, "3:", says)
        p = subprocess.run([EXE, "sweep", path, "--out", "none"], capture_output=True, text=True,
                           timeout=120)
        one_line_refusal(p, path, "3:", says)


def test_point_limit():
    with tempfile.TemporaryDirectory() as d:
        path = write(d, "sweeps/big.yaml",
                     "runs:\n  - methods: multinode.hierarchical\n"
                     "    axes: {threads_per_block: '1:256:1', blocks_per_sm: '1:64:1'}\n")
        p = subprocess.run([EXE, "sweep", path, "--out", "none"], capture_output=True, text=True,
                           timeout=120)
        expect(p.returncode == 2 and "65536 points" in p.stderr, "sweep refuses it", p)
        p = check(path)
        expect(p.returncode == 2, "config check refuses it too", p)
        one_line_refusal(p, path, " this run asks for 65536 points", "over --point-limit 20000")



#!/usr/bin/env python3
"""`gpubarrier jobs` through the real executable: the job folder it writes, what it refuses,
and the scripts of every system x every shipped sweep checked with shellcheck and against the
options sbatch accepts (the DGX scripts cannot be tried on the local test cluster).

generate      a local-slurm folder: scripts, rank.sh, submit.sh, merge.sbatch, step sweeps,
              README; --json tells the steps
dry_run       --dry-run prints every file and writes nothing
refusals      impossible requests exit 2 with the reason
regenerate    generating again keeps results/ and logs/, refuses results of another system
foreign_folder  a folder gpubarrier jobs did not make is refused (exit 2, the files it would
              overwrite named) and left as it was, --dry-run too
new_or_empty_folder  a new folder or an empty one is written, with the marker that lets a later
              generation write there again
scripts_lint  every system x shipped sweep x layout: shellcheck clean, every #SBATCH key an
              sbatch option, no --gpu-bind/--gpus-per-task

Run by pytest: pytest test_jobs.py [--gpubarrier PATH]
"""
import concurrent.futures
import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from cli_common import executable, expect as cli_expect, run_gpubarrier

EXE = executable()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def gpubarrier(*args):
    return run_gpubarrier(EXE, *args, timeout=120, cwd=ROOT)


def expect(cond, what, proc=None):
    cli_expect(cond, what, proc, tail=4000)


def names(kind):
    folder = os.path.join(ROOT, "configs", kind)
    return sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".yaml"))


def test_generate():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "jobs")
        p = gpubarrier("jobs", "--system", "local-slurm", "--sweep", "paper", "--out", out,
                       "--nodes", "1,2", "--gpu-counts", "1,2")
        expect(p.returncode == 0, "jobs exits 0", p)
        expect("n1.sbatch: 1 node(s)" in p.stdout and "n2.sbatch: 2 node(s)" in p.stdout,
               "the summary names each script", p)
        expect("time limits estimated: points x (" in p.stdout, "says how time was estimated", p)
        files = set()
        for base, _, found in os.walk(out):
            files |= {os.path.relpath(os.path.join(base, f), out) for f in found}
        for f in ("n1.sbatch", "n2.sbatch", "merge.sbatch", "submit.sh", "rank.sh", "README.md",
                  "sweeps/n1-single.yaml", "sweeps/n1-mpi-r2.yaml", "sweeps/n2-mpi-r1.yaml"):
            expect(f in files, f"{f} written (have {sorted(files)})")
        for f in ("n1.sbatch", "submit.sh", "rank.sh"):
            expect(os.access(os.path.join(out, f), os.X_OK), f"{f} is executable")
        expect(os.path.isdir(os.path.join(out, "results")) and
               os.path.isdir(os.path.join(out, "logs")), "results/ and logs/ exist")
        p = gpubarrier("jobs", "--system", "local-slurm", "--sweep", "paper", "--out", out,
                       "--nodes", "1,2", "--gpu-counts", "1,2", "--json")
        plan = json.loads(p.stdout)
        steps = [s["id"] for script in plan["scripts"] for s in script["steps"]]
        expect(steps == ["n1-single", "n1-mpi-r2", "n2-mpi-r1", "n2-mpi-r2"], f"steps {steps}", p)
        p = gpubarrier("config", "check", *[os.path.join(out, "sweeps", f)
                                            for f in os.listdir(os.path.join(out, "sweeps"))])
        expect(p.returncode == 0, "the step sweeps pass config check", p)


def test_dry_run():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "jobs")
        p = gpubarrier("jobs", "--system", "dgx-h100", "--sweep", "paper", "--out", out,
                       "--subsets", "best,worst", "--dry-run")
        expect(p.returncode == 0, "dry run exits 0", p)
        expect(not os.path.exists(out), "dry run writes nothing")
        expect(p.stdout.startswith("would write " + out), "says what it would write", p)
        for part in ("----- " + out + "/n1.sbatch", "#SBATCH --gres=gpu:8", "#SBATCH --exclusive",
                     "----- " + out + "/sweeps/n1-mpi-g4-worst.yaml", "----- " + out + "/README.md"):
            expect(part in p.stdout, f"prints {part}", p)


def test_multinode():
    """--nodes 2 on a GPU system: every two-node step of the paper sweep runs
    multinode.hierarchical beside the host barriers; the single-node device barriers stay out."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "jobs")
        p = gpubarrier("jobs", "--system", "dgx-h100", "--sweep", "paper", "--out", out,
                       "--nodes", "2", "--gpu-counts", "1,2", "--dry-run")
        expect(p.returncode == 0, "dry run exits 0", p)
        sweeps = p.stdout.split("----- " + out + "/sweeps/")[1:]
        expect(len(sweeps) == 2, "two step sweeps (1 and 2 GPUs per node)", p)
        for text in sweeps:
            name = text.splitlines()[0]
            expect('"multinode.hierarchical"' in text and '"host.mpi.barrier"' in text and
                   "multigpu.device.push" not in text,
                   f"{name} runs multinode.hierarchical and host.mpi.barrier, no device barrier", p)


def test_refusals():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "jobs")
        mpi_only = os.path.join(d, "mpi-only.yaml")
        with open(mpi_only, "w") as f:
            f.write("runs:\n  - methods: host.mpi.barrier\n")
        cases = [
            (["--system", "dgx-h100", "--sweep", "paper", "--gpu-counts", "16"],
             "more GPUs than dgx-h100 has (8 per node)"),
            (["--system", "dgx-h100", "--sweep", "paper", "--subsets", "wrst"],
             "did you mean 'worst'?"),
            (["--system", "dgx-h100", "--sweep", "multi-gpu", "--nodes", "2"],
             "device-side barrier: its peers are GPUs of one node"),
            (["--system", "dgx-h100", "--sweep", mpi_only, "--scheduler", "none", "--gpu-counts", "1"],
             "a barrier among ranks needs 2 or more"),
            (["--system", "local-slurm", "--sweep", "paper", "--nodes", "3"],
             "local-slurm has 2 nodes"),
            (["--system", "dgx-h10", "--sweep", "paper"], "did you mean 'dgx-h100'?"),
            (["--system", "dgx-h100", "--sweep", "papr"], "did you mean 'paper'?"),
            (["--system", "dgx-h100", "--sweep", "paper", "--time", "soon"],
             "expected a Slurm time limit"),
            # run's and sweep's --gpus takes GPU indices; the counts of jobs have their own name.
            (["--system", "dgx-h100", "--sweep", "paper", "--gpus", "1,2"],
             "jobs takes GPU counts per node as --gpu-counts (e.g. --gpu-counts 1,2)"),
        ]
        for args, reason in cases:
            p = gpubarrier("jobs", "--out", out, *args)
            expect(p.returncode == 2 and reason in p.stderr,
                   f"{' '.join(args)}: exit 2 naming '{reason}'", p)
        expect(not os.path.exists(out), "a refused request writes nothing")


def snapshot(folder):
    """Every file and folder under `folder`: its bytes (files) and modification time."""
    seen = {}
    for base, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(base, name)
            st = os.lstat(path)
            data = None if os.path.isdir(path) else open(path, "rb").read()
            seen[os.path.relpath(path, folder)] = (data, st.st_mtime_ns, st.st_mode)
    return seen


def test_regenerate():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "jobs")
        args = ["jobs", "--sweep", "paper", "--out", out, "--gpu-counts", "2"]
        p = gpubarrier(*args, "--system", "local-slurm", "--nodes", "1,2")
        expect(p.returncode == 0, "first generation", p)
        kept = {os.path.join("results", "n1-mpi-r2.csv"): "schema_version\n",
                os.path.join("logs", "n1-1234.out"): "a log\n",
                "merged.csv": "schema_version\n"}
        for path, text in kept.items():
            with open(os.path.join(out, path), "w") as f:
                f.write(text)
        # A stamp that names results, logs or the merged CSV never gets them removed.
        with open(os.path.join(out, ".gpubarrier-jobs"), "a") as f:
            f.write("".join(f"  {path}\n" for path in kept))
        before = {path: snap for path, snap in snapshot(out).items() if path in kept}
        p = gpubarrier(*args, "--system", "local-slurm", "--dry-run")
        expect(p.returncode == 0, "a dry run into the folder it made", p)
        p = gpubarrier(*args, "--system", "local-slurm")
        expect(p.returncode == 0, "generating again with the same steps keeps results/", p)
        after = {path: snap for path, snap in snapshot(out).items() if path in kept}
        expect(after == before, f"results, logs and merged.csv untouched: {sorted(after)}")
        expect(not os.path.exists(os.path.join(out, "n2.sbatch")) and
               not os.path.exists(os.path.join(out, "sweeps", "n2-mpi-r2.yaml")),
               "files of the earlier generation that this one does not write are removed")
        p = gpubarrier(*args, "--system", "dgx-h100")
        expect(p.returncode == 2 and "holds results of another generation" in p.stderr,
               "results of another system are refused", p)


def jobs_into(out, *extra):
    return gpubarrier("jobs", "--system", "local-slurm", "--sweep", "paper", "--out", out,
                      "--gpu-counts", "2", *extra)


def test_foreign_folder():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "mine")
        os.makedirs(os.path.join(out, "results"))
        for name, text in (("README.md", "my notes\n"), ("submit.sh", "my script\n"),
                           ("data.txt", "1 2 3\n"), (os.path.join("results", "old.csv"), "a\n")):
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
        before = snapshot(out)
        for extra in ([], ["--dry-run"], ["--json"]):
            p = jobs_into(out, *extra)
            expect(p.returncode == 2, f"{extra}: a folder gpubarrier jobs did not make: exit 2", p)
            expect(p.stderr.count("\n") == 1 and "would overwrite README.md, submit.sh" in
                   p.stderr and "--out " + out in p.stderr and
                   "gpubarrier jobs did not make" in p.stderr,
                   f"{extra}: one line naming the folder and the files it would overwrite", p)
            expect(p.stdout == "", f"{extra}: nothing on stdout", p)
            expect(snapshot(out) == before, f"{extra}: the folder is left as it was")
        # Nothing to overwrite, but still someone else's folder.
        other = os.path.join(d, "other")
        os.makedirs(other)
        with open(os.path.join(other, "notes.txt"), "w") as f:
            f.write("mine\n")
        before = snapshot(other)
        p = jobs_into(other)
        expect(p.returncode == 2 and "not empty" in p.stderr and p.stderr.count("\n") == 1,
               "a non-empty folder gpubarrier jobs did not make: exit 2, one line", p)
        expect(snapshot(other) == before, "that folder is left as it was")
        # A file where the folder should be.
        path = os.path.join(d, "a-file")
        with open(path, "w") as f:
            f.write("x\n")
        p = jobs_into(path)
        expect(p.returncode == 2 and "not a folder" in p.stderr, "--out naming a file: exit 2", p)
        expect(open(path).read() == "x\n", "the file is left as it was")


def test_new_or_empty_folder():
    with tempfile.TemporaryDirectory() as d:
        fresh = os.path.join(d, "a", "b", "jobs")
        p = jobs_into(fresh)
        expect(p.returncode == 0, "a new folder (and its parents)", p)
        expect(os.path.isfile(os.path.join(fresh, ".gpubarrier-jobs")),
               "the folder is marked as made by gpubarrier jobs")
        empty = os.path.join(d, "empty")
        os.makedirs(empty)
        p = jobs_into(empty)
        expect(p.returncode == 0 and os.path.isfile(os.path.join(empty, "submit.sh")),
               "an empty folder", p)
        p = jobs_into(empty)
        expect(p.returncode == 0, "again into the folder it made", p)


def sbatch_options():
    """The long options sbatch accepts: `sbatch --help` (it reads a configuration first, so a
    minimal one is given when none is set) plus `man sbatch`, which also documents options the
    help omits (--open-mode). None when sbatch is not installed."""
    if not shutil.which("sbatch"):
        return None
    options = set()
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ)
        if not os.path.isfile(env.get("SLURM_CONF", "")):
            env["SLURM_CONF"] = os.path.join(d, "slurm.conf")
            with open(env["SLURM_CONF"], "w") as f:
                f.write("ClusterName=lint\nSlurmctldHost=localhost\n")
        p = subprocess.run(["sbatch", "--help"], capture_output=True, text=True, env=env)
        options |= set(re.findall(r"--([a-z][a-z0-9-]*)", p.stdout))
    for man in ("/usr/share/man/man1/sbatch.1.gz", "/usr/share/man/man1/sbatch.1"):
        if os.path.exists(man):
            raw = gzip.open(man).read() if man.endswith(".gz") else open(man, "rb").read()
            text = raw.decode(errors="replace")
            options |= {m.replace("\\-", "-")
                        for m in re.findall(r"\\fB\\-\\-((?:[a-z0-9]|\\-)+)", text)}
    return options if "time" in options else None


# Layouts tried for every system x sweep. A refusal is accepted only for these reasons: a sweep
# with nothing that runs there (GPU methods on fake or no GPUs, one-node methods on 2 nodes).
LAYOUTS = [[], ["--nodes", "2", "--bind", "none"], ["--subsets", "best,worst"],
           ["--one-job-per-point", "--gpu-counts", "1,2"], ["--scheduler", "none"]]
ACCEPTED_REFUSALS = ("nothing of", "has no GPU here")


@pytest.mark.plain  # some 500 runs of the executable: the plain build only (tests/CMakeLists.txt)
def test_scripts_lint():
    shellcheck = shutil.which("shellcheck")
    if not shellcheck:
        pytest.skip("shellcheck is not installed (scripts/setup installs it)")
    options = sbatch_options()
    scripts, generated, refused = [], 0, 0
    with tempfile.TemporaryDirectory() as d:
        for system in names("systems"):
            for sweep in names("sweeps"):
                for i, layout in enumerate(LAYOUTS):
                    out = os.path.join(d, f"{system}-{sweep}-{i}")
                    p = gpubarrier("jobs", "--system", system, "--sweep", sweep, "--out", out,
                                   *layout)
                    if p.returncode == 2 and any(r in p.stderr for r in ACCEPTED_REFUSALS):
                        refused += 1
                        continue
                    expect(p.returncode == 0, f"{system} x {sweep} {layout}", p)
                    generated += 1
                    scripts += [os.path.join(out, f) for f in sorted(os.listdir(out))
                                if f.endswith((".sh", ".sbatch"))]
        bad_keys, banned = [], []
        for path in scripts:
            with open(path) as f:
                for line in f:
                    if options is not None and line.startswith("#SBATCH "):
                        key = line.split()[1].split("=")[0].lstrip("-")
                        if key not in options:
                            bad_keys.append(f"{path}: {line.strip()}")
                    if not line.lstrip().startswith("#") or line.startswith("#SBATCH"):
                        banned += [f"{path}: {line.strip()}" for word in
                                   ("--gpu-bind", "--gpus-per-task") if word in line]
        expect(not bad_keys, "#SBATCH keys sbatch does not know:\n" + "\n".join(bad_keys[:20]))
        expect(not banned, "options that hide GPUs from ranks:\n" + "\n".join(banned[:20]))
        # Scripts that differ only in their folder are checked once (rank.sh is the same in all),
        # in batches over two processes.
        unique = {}
        for path in scripts:
            with open(path) as f:
                text = f.read().replace(os.path.dirname(path), "/JOBDIR")
            unique.setdefault(text, path)
        batches = [list(unique.values())[i:i + 40] for i in range(0, len(unique), 40)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            runs = pool.map(lambda batch: subprocess.run([shellcheck, "--shell=bash", *batch],
                                                         capture_output=True, text=True), batches)
            failures = [p.stdout for p in runs if p.returncode != 0]
        expect(not failures, "shellcheck:\n" + "".join(failures)[:6000])
    expect(generated > 100, f"only {generated} folders generated")
    how = "every #SBATCH key checked" if options is not None else \
        "#SBATCH keys not checked (no sbatch here)"
    print(f"{generated} job folders ({refused} refused as expected), {len(scripts)} scripts "
          f"({len(unique)} distinct) shellcheck-clean, {how}")



#!/usr/bin/env python3
"""The files gpubarrier writes never replace what they should not, and no setting is taken
silently, through the real executable.

special_files   --out/--raw of a device, a FIFO or a symbolic link (run, merge, selfcheck):
                exit 2, one line, the file untouched and no side file made
same_file       two outputs (or an output and a side file) that are one file: exit 2
side_files      an existing <csv>.topology.json or <csv>.inflight: refused without --force,
                replaced with --force, kept by --resume
stdout_full     list, topo, --json run and merge --summary into /dev/full: exit 1, one line
ranges          NaN, infinity and out-of-range numbers from the command line and the
                environment: exit 2 with the range sweep files apply, before anything runs
silent_choices  a repeated --axis, --resume with --force, --out "": refused, each in one line
endless_inputs  merge of /dev/zero (refused at its longest row), a completion log or in-flight
                mark that is /dev/zero: exit 2, one line naming the bound, memory bounded

Run by pytest: pytest tests/cli/test_outputs_guarded.py [--gpubarrier PATH]
"""
import os
import stat
import subprocess
import tempfile


from cli_common import clean_env, executable, expect, one_line, read_csv, run_gpubarrier

EXE = executable()
H = ["--methods", "host.omp.barrier", "--axis", "group_size=2", "--samples", "2",
     "--time-budget", "0.05"]


def gpubarrier(*args, env=None, cwd=None):
    return run_gpubarrier(EXE, *args, env=env, cwd=cwd)


def one_error_line(p, *words, status=2, prefix="gpubarrier: error: "):
    return one_line(p, status, *words, prefix=prefix)


def listing(d):
    return sorted(os.listdir(d))


def good_csv(d):
    out = os.path.join(d, "good.csv")
    p = gpubarrier("run", *H, "--out", out)
    expect(p.returncode == 0, "a first run", p)
    return out


def test_special_files():
    with tempfile.TemporaryDirectory() as d:
        good = good_csv(d)
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        empty = os.path.join(d, "empty.csv")
        open(empty, "w").close()
        link = os.path.join(d, "link.csv")
        os.symlink(empty, link)
        before = listing(d)
        stray = os.path.exists("/dev/null.done")  # left by an older gpubarrier, perhaps
        for path, kind in (("/dev/null", "character device"), (fifo, "FIFO"),
                           (link, "symbolic link")):
            for args in (["run", *H, "--out", path], ["run", *H, "--out", "none", "--raw", path],
                         ["merge", good, "--out", path], ["merge", good, "--out", path, "--force"],
                         ["selfcheck", "--out", path]):
                p = gpubarrier(*args)
                one_error_line(p, path, kind)
                expect(listing(d) == before, f"{args}: nothing made or replaced: {listing(d)}")
            expect(stat.S_ISFIFO(os.stat(fifo).st_mode) and os.path.islink(link),
                   "the FIFO and the link are still what they were")
        expect(stray or not os.path.exists("/dev/null.done"), "no /dev/null.done")
        expect(stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is still a device")


def test_same_file():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "same.csv")
        for raw, words in ((out, ["--raw", "--out"]),
                           (os.path.join(d, ".", "same.csv"), ["--raw", "--out"]),
                           (out + ".done", ["--raw", "completion log"]),
                           (out + ".topology.json", ["--raw", "topology record"]),
                           (out + ".inflight", ["--raw", "in flight"])):
            p = gpubarrier("run", *H, "--out", out, "--raw", raw)
            one_error_line(p, *words)
            expect(listing(d) == [], f"--raw {raw}: nothing written: {listing(d)}")
        other = os.path.join(d, "other.csv")
        open(other, "w").close()
        alias = os.path.join(d, "alias.csv")
        os.link(other, alias)  # two names of one file
        p = gpubarrier("run", *H, "--out", other, "--raw", alias)
        one_error_line(p, alias, other)
        p = gpubarrier("run", *H, "--out", out, "--raw", os.path.join(d, "raw.csv"))
        expect(p.returncode == 0 and len(read_csv(out)) >= 1, "distinct files are written", p)


def test_side_files():
    with tempfile.TemporaryDirectory() as d:
        for side, words in ((".topology.json", ["topology record"]),
                            (".inflight", ["in flight"])):
            out = os.path.join(d, f"x{side}.csv")
            mine = out + side
            with open(mine, "w") as f:
                f.write("a file of the user's\n")
            p = gpubarrier("run", *H, "--out", out)
            one_error_line(p, mine, "--force", *words)
            expect(open(mine).read() == "a file of the user's\n", f"{side} untouched")
            expect(not os.path.exists(out), "no CSV made beside a refused side file")
            p = gpubarrier("run", *H, "--out", out, "--force")
            expect(p.returncode == 0, f"--force replaces {side}", p)
            expect(not os.path.exists(mine) or open(mine).read() != "a file of the user's\n",
                   f"{side} replaced with --force")
        out = os.path.join(d, "kept.csv")
        p = gpubarrier("run", *H, "--out", out)
        expect(p.returncode == 0, "a run", p)
        with open(out + ".topology.json") as f:
            record = f.read()
        p = gpubarrier("run", *H, "--out", out, "--resume")
        expect(p.returncode == 0 and open(out + ".topology.json").read() == record,
               "--resume keeps the run's own topology record", p)


def test_stdout_full():
    with tempfile.TemporaryDirectory() as d:
        good = good_csv(d)
        for args in (["list"], ["topo"], ["--json", "run", *H, "--out", "none"],
                     ["merge", good, "--out", os.path.join(d, "m.csv"), "--summary"]):
            with open("/dev/full", "w") as full:
                p = subprocess.run([EXE, *args], stdout=full, stderr=subprocess.PIPE, text=True,
                                   env=clean_env(), timeout=300)
            p.stdout = ""
            expect(p.returncode == 1, f"{args}: exit 1 (got {p.returncode})", p)
            last = p.stderr.rstrip("\n").splitlines()[-1:]
            expect(last and last[0].startswith("gpubarrier: failed: could not write standard "
                                               "output: "), f"{args}: the last line says so", p)
            expect(sum("could not write" in ln for ln in p.stderr.splitlines()) == 1,
                   "said once", p)


def test_ranges():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.csv")
        base = ["run", "--methods", "host.omp.barrier", "--axis", "group_size=2", "--out", out]
        for flag, value, words in (
                ("--time-budget", "nan", ["--time-budget", "seconds above 0", "1e+07"]),
                ("--time-budget", "inf", ["--time-budget", "at most 1e+07"]),
                ("--rse-target", "nan", ["--rse-target", "a fraction"]),
                ("--rse-target", "2", ["--rse-target", "at most 1"]),
                ("--samples", "2000000000", ["--samples", "at most 1e+09"]),
                ("--watchdog", "inf", ["--watchdog", "seconds"])):
            p = gpubarrier(*base, flag, value)
            one_error_line(p, *words)
            expect(listing(d) == [], f"{flag} {value}: refused before any file is made")
        for value in ("inf", "nan", "1e308", "1e10"):
            p = gpubarrier(*base, "--isolate", "point", "--point-timeout", value)
            one_error_line(p, "--point-timeout", "seconds above 0")
            expect(listing(d) == [], f"--point-timeout {value}: no timeout rows written")
        p = gpubarrier(*base, env={"GPUBARRIER_TIME_BUDGET": "nan", "GPUBARRIER_RSE_TARGET":
                                   "1e-300"})
        one_error_line(p, "--time-budget", "seconds above 0")
        sweep = os.path.join(d, "s.yaml")
        with open(sweep, "w") as f:
            f.write("rse_target: 2\nruns:\n  - methods: host.omp.barrier\n")
        p = gpubarrier("sweep", sweep, "--out", "none")
        one_error_line(p, "rse_target", "a fraction, e.g. 0.01 above 0 and at most 1")
        with open(sweep, "w") as f:
            f.write("samples: 9223372036854775807\nruns:\n  - methods: host.omp.barrier\n")
        p = gpubarrier("sweep", sweep, "--out", "none")
        one_error_line(p, "samples", "an integer at least 2 and at most 1e+09")


def test_silent_choices():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.csv")
        p = gpubarrier("run", *H, "--axis", "group_size=4", "--out", out)
        one_error_line(p, "group_size", "twice", "group_size=2", "group_size=4")
        expect(listing(d) == [], "a repeated --axis runs nothing")
        p = gpubarrier("run", *H, "--out", out)
        expect(p.returncode == 0, "a run", p)
        before = open(out).read()
        p = gpubarrier("run", *H, "--out", out, "--resume", "--force")
        one_error_line(p, "--resume", "--force")
        expect(open(out).read() == before, "--resume --force changes nothing")
        p = gpubarrier("run", *H, "--out", "", cwd=d)
        one_error_line(p, "--out", "none")
        expect(not os.path.exists(os.path.join(d, "results")), "--out '' writes no results/")


def test_endless_inputs():
    import resource
    with tempfile.TemporaryDirectory() as d:
        good = good_csv(d)
        p = gpubarrier("merge", good, "/dev/zero", "--out", os.path.join(d, "m.csv"))
        one_error_line(p, "/dev/zero:1: row longer than 1 MiB", "character device")
        expect(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 2 * 1024 * 1024,
               "read no more than the bound (peak resident set under 2 GiB)")
        os.symlink("/dev/zero", good + ".inflight")
        p = gpubarrier("lost-point", "--out", good)
        one_error_line(p, good + ".inflight", "1 MiB")
        os.remove(good + ".inflight")
        os.rename(good + ".done", os.path.join(d, "kept.done"))
        os.symlink("/dev/zero", good + ".done")
        p = gpubarrier("run", *H, "--out", good, "--resume")
        one_error_line(p, good + ".done", "symbolic link")

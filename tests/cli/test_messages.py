#!/usr/bin/env python3
"""Errors that lead to the fix, through the real executable: each bad input gets exit 2 and one
line that says what is expected, in the terms of the file or flag that held it.

yaml_syntax     sweep files broken as YAML: what the file should hold there, at file:line:column,
                not yaml-cpp's words alone; axis values in the file's terms, not --axis's
flags           --samples 1e3, an --axis range over the limit, `config check` without files,
                selfcheck --gpu with a bad index, a newline in a glob: the flag, the
                expectation, the real command name, one line
bom             merge of a CSV saved with a byte-order mark: read as the same CSV

Run by pytest: pytest tests/cli/test_messages.py [--gpubarrier PATH]
"""
import os
import tempfile


from cli_common import executable, expect, one_line, read_csv, run_gpubarrier

EXE = executable()


def gpubarrier(*args):
    return run_gpubarrier(EXE, *args)


def one_error_line(p, *words, absent=()):
    return one_line(p, 2, *words, prefix="gpubarrier: error: ", absent=absent)


def test_yaml_syntax():
    with tempfile.TemporaryDirectory() as d:
        sweep = os.path.join(d, "s.yaml")
        for text, words in (
                ("runs:\n  - methods: host.omp.barrier\n    axes: {group_size: [1, 2\n",
                 ["s.yaml:4:1:", "'[' list is not closed", "expected ', item' or ']'"]),
                ("runs:\n  - methods: host.omp.barrier\n    axes: {group_size: 2\n",
                 ["'{' map is not closed"]),
                ("runs:\n  - methods: a: b\n", ["s.yaml:2:", "one 'key: value' a line"]),
                ("runs:\n  - methods: host.omp.barrier\n    axes: {group_size: '1:x'}\n",
                 ["s.yaml:3:", "group_size: '1:x'", "'x' is not an integer",
                  "a range string"])):
            with open(sweep, "w") as f:
                f.write(text)
            p = gpubarrier("sweep", sweep, "--out", "none")
            one_error_line(p, *words, absent=["--axis", "name=v1"])


def test_flags():
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--samples", "1e3", "--out", "none")
    one_error_line(p, "--samples '1e3'", "expected an integer at least 2 and at most 1e+09",
                   absent=["Could not convert"])
    p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=1:100001",
                   "--out", "none")
    one_error_line(p, "group_size=1:100001", "more than 100000 values")
    p = gpubarrier("config", "check")
    one_error_line(p, "gpubarrier config check --help")
    p = gpubarrier("selfcheck", "--gpu", "99999999999999", "--out", "none")
    one_error_line(p, "--gpu '99999999999999'", absent=["--gpus"])
    p = gpubarrier("run", "--methods", "host.omp\nbarrier", "--out", "none")
    one_error_line(p, "host.omp\\nbarrier")


def test_bom():
    with tempfile.TemporaryDirectory() as d:
        good = os.path.join(d, "good.csv")
        p = gpubarrier("run", "--methods", "host.omp.barrier", "--axis", "group_size=2",
                       "--samples", "2", "--time-budget", "0.05", "--out", good)
        expect(p.returncode == 0, "a run", p)
        bom = os.path.join(d, "bom.csv")
        with open(good, "rb") as f, open(bom, "wb") as g:
            g.write(b"\xef\xbb\xbf" + f.read())
        merged = os.path.join(d, "m.csv")
        p = gpubarrier("merge", bom, "--out", merged)
        expect(p.returncode == 0 and read_csv(merged) == read_csv(good),
               "a CSV with a byte-order mark merges as the CSV itself", p)

#!/usr/bin/env python3
"""`gpubarrier report reduction-tables` (gpubarrier_tools/analysis/reduction_tables.py): the study's Tables 3, 5 and 6
from a CSV the test writes (two GPUs of one machine), beside the study's V100/P100 figures, and
the same table regenerated as a `<!-- report: ... -->` block of a markdown file.

Run by pytest: pytest tests/cli/test_reduction_tables.py
"""
import os

import reduction_rows
from cli_common import executable, expect, run_gpubarrier

EXE = executable()


def report(*args, cwd):
    return run_gpubarrier(EXE, "report", *args, cwd=cwd)


def expect_lines(p, want, what):
    lines = p.stdout.splitlines()
    for w in want:
        expect(w in lines, f"{what}: the line {w}", p)


def test_reduction_tables(tmp_path):
    d = str(tmp_path)
    reduction_rows.write(os.path.join(d, "reduction.csv"))
    p = report("reduction-tables", "reduction.csv", cwd=d)
    expect(p.returncode == 0, "reduction-tables exits 0", p)
    expect_lines(p, [
        # Table 3: the median over the two GPUs with their range; C = T x Thr; the study's
        # "1 warp" / "32 thrd." rows share one measured row.
        "| 1 thread | 0.5 | 0.62 | 0.43 | 21 (20-22) | 13 | 18.5 | 10.5 | 8 | 8 |",
        "| 1 warp = 32 threads | 16 | 19.6 | 13.8 | 21 (20-22) | 13 | 18.5 | 336 | 256 | 256 |",
        "| 1024 threads | 128 | 215 | 141 | 41 (40-42) | 13 | 18.5 | 5248 | 2796 | 2615 |",
        "| one block of 1024 threads | 20 | 400 | 800 | 8000 |",
        "| the resident grid | 2000 | 400 | 800 | 800000 |",
        # Table 5: the no-sync variant is shown, unverified, with its error.
        "| 1: no sync * | 200 | unverified: the sum is wrong (relative error 0.52) | 89 * | 112 * |",
        "| 4: tile shuffle | 400 | ok | 164 | 212 |",
        # Table 6: sizes >= 1 MiB by default; best over the GPU's DRAM peak (H100: 3352 GB/s),
        # the stream read of the same run (2000 GB/s) and the copy of the same size beside it.
        "| H100 | 1 MiB | 100.0 | 96.0 | 80.0 | - | 2000.0 | 300.0 | 3352 | 3% |",
        "| H100 | 16 MiB | 1400.0 | 1300.0 | 1200.0 | - | 2000.0 | 2500.0 | 3352 | 42% |",
        "| V100 (study) | not stated | 865.40 | 855.59 | 849.39 | 852.98 | - | - | 898.05 | 96% |",
        "| P100 (study) | not stated | 592.40 | 590.85 | 543.96 | 590.65 | - | - | 732.16 | 81% |",
    ], "all tables")
    expect("From `reduction.csv` (rows of GPUs 0, 1: median, range in brackets)." in p.stdout,
           "the caption names the CSV and the GPUs", p)

    p = report("reduction-tables", "reduction.csv", "--table", "6", "--sizes", "65536", cwd=d)
    expect(p.returncode == 0 and "Table 3" not in p.stdout and "Table 5" not in p.stdout,
           "--table 6 prints Table 6 only", p)
    expect_lines(p, ["| H100 | 64 KiB | 6.0 | 7.0 | 5.0 | - | 2000.0 | 30.0 | 3352 | 0% |"], "--sizes")
    expect("| H100 | 1 MiB |" not in p.stdout, "--sizes keeps only the sizes given", p)

    # Fig. 16: GB/s by GPU count per multi-GPU reduction and launcher; NCCL's variant 0 only.
    multi = os.path.join(d, "multi.csv")
    mrow = lambda method, n, launcher, size, gbs, extra="": reduction_rows.row(  # noqa: E731
        "0" if n == 1 else "0,1", method, f"gpu_count={n} {extra}bytes={size}", "bandwidth",
        "GB/s", gbs, gpu_count=n, launcher=launcher)
    reduction_rows.write_rows(multi, reduction_rows.gbcsv.NAMES, [
        mrow("reduction.multi.device-barrier", 1, "threads", 64 << 20, 1700),
        mrow("reduction.multi.device-barrier", 2, "threads", 64 << 20, 3000),
        mrow("reduction.multi.mpi", 2, "mpi", 64 << 20, 2500),
        mrow("reduction.multi.nccl", 2, "threads", 64 << 20, 2900, "variant=0 "),
        mrow("reduction.multi.nccl", 2, "threads", 64 << 20, 1, "variant=1 ")])
    p = report("reduction-tables", "multi.csv", "--table", "16", cwd=d)
    expect(p.returncode == 0, "--table 16 exits 0", p)
    expect_lines(p, ["| H100 | 64 MiB | `reduction.multi.device-barrier` | threads | 1700.0 | 3000.0 |",
                     "| H100 | 64 MiB | `reduction.multi.mpi` | mpi | - | 2500.0 |",
                     "| H100 | 64 MiB | `reduction.multi.nccl` | threads | - | 2900.0 |"], "Fig. 16")

    p = report("reduction-tables", "reduction.csv", "--table", "4", cwd=d)
    expect(p.returncode != 0 and "--table 4" in p.stderr, "an unknown table is refused", p)
    reduction_rows.write(os.path.join(d, "host.csv"), lambda r: False)
    p = report("reduction-tables", "host.csv", cwd=d)
    expect(p.returncode != 0 and "no GPU rows" in p.stderr, "a CSV without GPU rows", p)

    # The README block: paths relative to the markdown file's folder.
    os.makedirs(os.path.join(d, "md"))
    os.rename(os.path.join(d, "reduction.csv"), os.path.join(d, "md", "reduction.csv"))
    md = os.path.join(d, "md", "README.md")
    with open(md, "w") as f:
        f.write("text\n<!-- report: reduction-tables reduction.csv --table 5 -->\n"
                "<!-- /report -->\nmore\n")
    p = report("readme", md, "--check", cwd=d)
    expect(p.returncode == 1, "an empty block is out of date", p)
    p = report("readme", md, cwd=d)
    expect(p.returncode == 0, "readme regenerates the block", p)
    with open(md) as f:
        text = f.read()
    expect("| 0: serial | 380 | ok | 299 | 383 |" in text and text.endswith("more\n"),
           f"the block holds Table 5:\n{text}")
    p = report("readme", md, "--check", cwd=d)
    expect(p.returncode == 0, "the regenerated block is up to date", p)

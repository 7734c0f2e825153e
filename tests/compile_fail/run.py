#!/usr/bin/env python3
"""Compiles one translation unit of tests/compile_fail/ as it stands and once per case it names.

The unit's own spelling must compile: it shows that the unit is a working method file, so that a
case fails for its mistake alone. Every case is a line of the unit's opening comment,

    // CASE name: "text" "text" ...

compiled with -DGB_CASE_<NAME>: it must fail, and the compiler's output must hold every text
(the check that catches the mistake, and the hook or member it names).

Usage: run.py --nvcc NVCC --flags FILE UNIT.cu
FILE (from CMake): one nvcc argument a line; "#system DIR" lines name the compiler's own include
folders, left out of the -I arguments as the build leaves them out.
Exit 0 all as expected, 1 a case compiled or failed for another reason, 2 bad input.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

CASE = re.compile(r'^//\s*CASE\s+(\w+):\s*(.*)$')


def cases_of(unit):
    cases = []
    with open(unit) as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = CASE.match(line.strip())
            if m:
                texts = re.findall(r'"([^"]+)"', m.group(2))
                if not texts:
                    sys.exit(f"{unit}: case {m.group(1)} names no text to expect (\"...\")")
                cases.append((m.group(1), texts))
    return cases


def compile_unit(nvcc, flags, unit, define, out_dir):
    cmd = [nvcc, *flags, *([f"-D{define}"] if define else []), "-x", "cu", "-c", unit,
           "-o", os.path.join(out_dir, "unit.o")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr, cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--flags", required=True)
    ap.add_argument("unit")
    args = ap.parse_args()
    for path, what in ((args.flags, "flags file"), (args.unit, "unit")):
        if not os.path.isfile(path):
            print(f"{what} {path} not found: expected a file (configure the build with tests on)",
                  file=sys.stderr)
            return 2
    flags, system = [], set()
    with open(args.flags) as f:
        for line in (line.strip() for line in f):
            if line.startswith("#system "):
                system.add(line[len("#system "):])
            elif line and line not in ("-I", "-D") and line not in flags:
                flags.append(line)
    flags = [a for a in flags if not (a.startswith("-I") and a[2:] in system)]
    cases = cases_of(args.unit)
    if not cases:
        print(f"{args.unit}: no '// CASE name: \"text\"' line in its opening comment",
              file=sys.stderr)
        return 2
    name = os.path.basename(args.unit)
    failed = 0
    with tempfile.TemporaryDirectory() as out:
        rc, text, cmd = compile_unit(args.nvcc, flags, args.unit, None, out)
        if rc != 0:
            print(f"FAIL: {name} as it stands does not compile, so no case can show what its "
                  f"mistake does:\n{shlex.join(cmd)}\n{text}")
            return 1
        print(f"PASS {name} as it stands compiles")
        for case, texts in cases:
            define = "GB_CASE_" + case.upper()
            rc, text, cmd = compile_unit(args.nvcc, flags, args.unit, define, out)
            missing = [t for t in texts if t not in text]
            if rc == 0:
                print(f"FAIL: {name} with {define} compiles: the mistake goes unnoticed")
                failed += 1
            elif missing:
                print(f"FAIL: {name} with {define} fails, but its output lacks {missing}:\n{text}")
                failed += 1
            else:
                first = next((l for l in text.splitlines() if "error" in l), "")
                print(f"PASS {name} with {define} does not compile: {first.strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Each translation unit of tests/compile_fail/ compiles as it stands, and fails, with the texts it
names, once per case it names.

The unit's own spelling must compile: it shows that the unit is a working method file, so that a
case fails for its mistake alone. Every case is a line of the unit's opening comment,

    // CASE name: "text" "text" ...

compiled with -DGB_CASE_<NAME>: it must fail, and the compiler's output must hold every text
(the check that catches the mistake, and the hook or member it names).

Run by pytest, given nvcc and the build's flags file through the environment (ctest sets both,
tests/compile_fail/CMakeLists.txt):
  GB_NVCC                 nvcc
  GB_COMPILE_FAIL_FLAGS   one nvcc argument a line; "#system DIR" lines name the compiler's own
                          include folders, left out of the -I arguments as the build leaves them out
  GB_COMPILE_FAIL_UNIT    (optional) the one unit to test: its file name without .cu
"""
import functools
import glob
import os
import re
import shlex
import subprocess
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CASE = re.compile(r'^//\s*CASE\s+(\w+):\s*(.*)$')


def unit_id(unit):
    return os.path.splitext(os.path.basename(unit))[0]


# Every unit, or the one GB_COMPILE_FAIL_UNIT names (ctest runs one unit a test).
ONLY = os.environ.get("GB_COMPILE_FAIL_UNIT")
UNITS = [u for u in sorted(glob.glob(os.path.join(HERE, "*.cu"))) if not ONLY or unit_id(u) == ONLY]


def cases_of(unit):
    """[(case, [text, ...])] of the unit's opening comment."""
    cases = []
    with open(unit) as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = CASE.match(line.strip())
            if m:
                cases.append((m.group(1), re.findall(r'"([^"]+)"', m.group(2))))
    return cases


CASES = [(unit, case, texts) for unit in UNITS for case, texts in cases_of(unit)]


@functools.lru_cache(maxsize=None)
def nvcc_and_flags():
    nvcc, path = os.environ.get("GB_NVCC"), os.environ.get("GB_COMPILE_FAIL_FLAGS")
    if not nvcc or not path or not os.path.isfile(path):
        pytest.fail(f"GB_NVCC ({nvcc}) and GB_COMPILE_FAIL_FLAGS ({path}, a file) are needed: "
                    f"ctest sets them (configure the build with tests on)")
    flags, system = [], set()
    with open(path) as f:
        for line in (line.strip() for line in f):
            if line.startswith("#system "):
                system.add(line[len("#system "):])
            elif line and line not in ("-I", "-D") and line not in flags:
                flags.append(line)
    return nvcc, [a for a in flags if not (a.startswith("-I") and a[2:] in system)]


def compile_unit(unit, define=None):
    """(exit code, the compiler's output, the command)."""
    nvcc, flags = nvcc_and_flags()
    with tempfile.TemporaryDirectory() as out:
        cmd = [nvcc, *flags, *([f"-D{define}"] if define else []), "-x", "cu", "-c", unit,
               "-o", os.path.join(out, "unit.o")]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr, cmd


@functools.lru_cache(maxsize=None)
def compiles_as_it_stands(unit):
    rc, text, cmd = compile_unit(unit)
    return rc == 0, f"{shlex.join(cmd)}\n{text}"


@pytest.mark.parametrize("unit", UNITS, ids=unit_id)
def test_unit_compiles_as_it_stands(unit):
    ok, output = compiles_as_it_stands(unit)
    assert ok, f"{unit_id(unit)}.cu as it stands does not compile:\n{output}"
    assert cases_of(unit), f"{unit}: no '// CASE name: \"text\"' line in its opening comment"


@pytest.mark.parametrize("unit, case, texts", CASES,
                         ids=[f"{unit_id(u)}-{c}" for u, c, _ in CASES])
def test_case_is_refused(unit, case, texts):
    assert texts, f"{unit}: case {case} names no text to expect (\"...\")"
    ok, output = compiles_as_it_stands(unit)
    assert ok, f"{unit_id(unit)}.cu does not compile as it stands, so no case can show what its " \
               f"mistake does:\n{output}"
    define = "GB_CASE_" + case.upper()
    rc, text, _ = compile_unit(unit, define)
    assert rc != 0, f"{unit_id(unit)}.cu with {define} compiles: the mistake goes unnoticed"
    missing = [t for t in texts if t not in text]
    assert not missing, f"{unit_id(unit)}.cu with {define} fails, but its output lacks {missing}:" \
                        f"\n{text}"


def test_every_level_of_the_recipe_has_a_unit():
    """docs/architecture.md's recipe ("Adding a method") gives one example file per level; each
    level with a frame under kernels/ has a unit here that is a new method file of that level, so
    that the recipe is tried, not only read: it compiles and registers as it stands."""
    first = unit_id(sorted(glob.glob(os.path.join(HERE, "*.cu")))[0])
    if ONLY and ONLY != first:
        pytest.skip(f"checked once, with the unit {first} (ctest runs one unit a test)")
    with open(os.path.join(HERE, "..", "..", "docs", "architecture.md")) as f:
        recipe = f.read().split("## Adding a method", 1)[1]
    levels = set(re.findall(r"^- \*\*[^*]+\*\*, `kernels/(\w+)/", recipe, re.M))
    assert levels, "docs/architecture.md's recipe names no kernels/<level>/ example"
    levels |= set(re.findall(r"is the same in\s+`kernels/(\w+)/`", recipe))
    included = set()
    for unit in glob.glob(os.path.join(HERE, "*.cu")):
        with open(unit) as f:
            included |= set(re.findall(r'^#include "(\w+)/(?:detail|frame)/', f.read(), re.M))
    missing = sorted(levels - included)
    assert not missing, f"the recipe's levels {missing} have no unit in tests/compile_fail/"

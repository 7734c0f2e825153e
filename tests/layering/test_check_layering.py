#!/usr/bin/env python3
"""Proves that check_layering.py fails when it should: each test writes a small synthetic input
(`ninja -t deps` text, a make depfile, a link graph, or a little source tree) and checks the
violations the checker prints; one injects violations into the dependency records of the build
folder of the gpubarrier under test.

Run by pytest: pytest tests/layering/test_check_layering.py [--gpubarrier BUILD/gpubarrier]"""

import argparse
import os
import struct
import subprocess
import sys

import pytest

from layering import check_layering

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check_layering.py")


class Failure(AssertionError):
    pass


def run(*args):
    res = subprocess.run([sys.executable, CHECKER, *args], capture_output=True, text=True)
    return res.returncode, res.stdout + res.stderr


def expect(rc_out, rc, present=(), absent=()):
    got_rc, out = rc_out
    problems = []
    if got_rc != rc:
        problems.append(f"exit status {got_rc}, expected {rc}")
    lines = out.splitlines()
    for want in present:
        if want not in lines:
            problems.append(f"missing line: {want}")
    for unwanted in absent:
        if any(unwanted in line for line in lines):
            problems.append(f"unexpected: {unwanted}")
    if problems:
        raise Failure("\n".join(problems) + "\n--- checker output ---\n" + out)
    print(out, end="")


def ninja_deps(entries):
    """{object: [paths]} -> `ninja -t deps` text."""
    text = ""
    for obj, deps in entries.items():
        text += f"{obj}: #deps {len(deps)}, deps mtime 1 (VALID)\n"
        text += "".join(f"    {d}\n" for d in deps) + "\n"
    return text


@pytest.fixture
def w(tmp_path):
    """The test's folder of synthetic inputs."""
    return Work(str(tmp_path))


class Work:
    def __init__(self, folder):
        self.dir = folder
        # A root that does not exist: the synthetic paths are never opened. The example.
        self.fake = "/repo" if not os.path.exists("/repo") else os.path.join(self.dir, "absent")

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def includes(self, entries, root=None, *extra):
        root = root or self.fake
        deps = self.write("deps.txt", ninja_deps(entries))
        return run("includes", "--source-dir", root, "--build-dir", os.path.join(root, "build"),
                   "--deps-file", deps, *extra)

    def links(self, lines):
        graph = self.write("link_graph.txt", "".join("\t".join(l) + "\n" for l in lines))
        return run("links", "--source-dir", self.fake, "--links-file", graph)


CORE = "CMakeFiles/gpubarrier_core.dir/src/core"
METHODS = "CMakeFiles/gpubarrier_methods.dir"


# ---------------------------------------------------------------------------------- includes


def test_core_includes_io_through_dotdot(w):
    r = w.fake
    expect(w.includes({f"{CORE}/runner.cpp.o": [
        f"{r}/src/core/runner.cpp", f"{r}/src/core/runner.hpp", "/usr/include/c++/12/vector",
        f"{r}/src/core/../io/row.hpp", f"{r}/src/core/./../app/../app/context.hpp"]}),
        1, present=["src/core/runner.cpp: includes src/io/row.hpp (core must not include io)",
                    "src/core/runner.cpp: includes src/app/context.hpp "
                    "(core must not include app)"],
        absent=["runner.hpp", "vector"])


def test_batch_members_are_checked(w):
    """A batch (CMake's unity build, cmake/CudaBatches.cmake) compiles several sources in one
    object: each member answers for its own includes, and what the compiler read that no
    member's lines explain is charged to every member."""
    r = os.path.join(w.dir, "tree")
    files = {"src/core/a.cpp": '#include "core/a.hpp"\n#include "io/row.hpp"\n',
             "src/core/b.cpp": '#include "core/b.hpp"\n', "src/core/a.hpp": "",
             "src/core/b.hpp": "", "src/io/row.hpp": "", "src/app/context.hpp": "",
             "build/CMakeFiles/gpubarrier_core.dir/Unity/unity_0_cxx.cxx":
                 f'#include "{r}/src/core/a.cpp"\n#include "{r}/src/core/b.cpp"\n'}
    for name, text in files.items():
        w.write(os.path.join("tree", name), text)
    expect(w.includes({"CMakeFiles/gpubarrier_core.dir/Unity/unity_0_cxx.cxx.o": [
        f"{r}/build/CMakeFiles/gpubarrier_core.dir/Unity/unity_0_cxx.cxx", f"{r}/src/core/a.cpp",
        f"{r}/src/core/a.hpp", f"{r}/src/io/row.hpp", f"{r}/src/core/b.cpp",
        f"{r}/src/core/b.hpp", f"{r}/src/app/context.hpp"]}, r),
        1, present=["src/core/a.cpp: includes src/io/row.hpp (core must not include io)",
                    "src/core/a.cpp: includes src/app/context.hpp (core must not include app)",
                    "src/core/b.cpp: includes src/app/context.hpp (core must not include app)",
                    "3 layering violation(s) (2 sources checked)"],
        absent=["src/core/b.cpp: includes src/io/row.hpp"])


def test_host_includes_kernel_detail(w):
    r = w.fake
    detail = f"{r}/kernels/multigpu/detail/barrier.cuh"
    expect(w.includes({
        f"{METHODS}/src/methods/host/x.cpp.o": [f"{r}/src/methods/host/x.cpp", detail],
        "CMakeFiles/gpubarrier.dir/src/app/run.cpp.o": [f"{r}/src/app/run.cpp",
                                                        f"{r}/kernels/warp/detail/warp_sync.cuh"],
        "tests/CMakeFiles/test_unit.dir/unit/test_x.cpp.o": [f"{r}/tests/unit/test_x.cpp", detail],
        # Inside kernels/ a detail header is fine.
        f"{METHODS}/kernels/multigpu/push.cu.o": [f"{r}/kernels/multigpu/push.cu", detail],
        # ... but only inside the folder that holds that detail/.
        f"{METHODS}/kernels/grid/flag_epoch.cu.o": [f"{r}/kernels/grid/flag_epoch.cu",
                                                    f"{r}/kernels/block/detail/block_barrier.cuh"],
        # An empty record (a build raced with another) must not pass as checked.
        f"{METHODS}/kernels/grid/cg_grid_sync.cu.o": [],
    }), 1, present=[
        "kernels/grid/flag_epoch.cu: includes kernels/block/detail/block_barrier.cuh "
        "(kernels/block/detail/ is private to kernels/block/)",
        "kernels/grid/cg_grid_sync.cu: no dependency record for "
        f"{METHODS}/kernels/grid/cg_grid_sync.cu.o, so it cannot be checked "
        "(delete that object file and build again)",
        "src/methods/host/x.cpp: includes kernels/multigpu/detail/barrier.cuh "
        "(kernels/multigpu/detail/ is private to kernels/multigpu/)",
        "src/app/run.cpp: includes kernels/warp/detail/warp_sync.cuh "
        "(kernels/warp/detail/ is private to kernels/warp/)",
        "tests/unit/test_x.cpp: includes kernels/multigpu/detail/barrier.cuh "
        "(kernels/multigpu/detail/ is private to kernels/multigpu/)"],
        absent=["push.cu"])


def test_multinode_includes_multigpu_detail(w):
    # No level reads another's detail/: the multi-node level composes the multi-GPU device
    # barrier through its public frame (kernels/multigpu/frame/), never its detail/.
    r = w.fake
    expect(w.includes({
        f"{METHODS}/kernels/multinode/hierarchical.cu.o": [
            f"{r}/kernels/multinode/hierarchical.cu", f"{r}/kernels/multinode/detail/session.cuh",
            f"{r}/kernels/multigpu/frame/device_barrier.cuh", f"{r}/kernels/multigpu/push.cuh",
            f"{r}/kernels/multigpu/detail/gpu_gather.cuh"],
        f"{METHODS}/kernels/reduction/multi_device_barrier.cu.o": [
            f"{r}/kernels/reduction/multi_device_barrier.cu",
            f"{r}/kernels/multigpu/frame/device_barrier.cuh",
            f"{r}/kernels/multigpu/detail/step_graphs.cuh"],
    }), 1, present=[
        "kernels/multinode/hierarchical.cu: includes kernels/multigpu/detail/gpu_gather.cuh "
        "(kernels/multigpu/detail/ is private to kernels/multigpu/)",
        "kernels/reduction/multi_device_barrier.cu: includes "
        "kernels/multigpu/detail/step_graphs.cuh "
        "(kernels/multigpu/detail/ is private to kernels/multigpu/)"],
        absent=["session.cuh", "frame/", "push.cuh"])


def test_runtime_includes_kernel_algorithm(w):
    r = w.fake
    expect(w.includes({"CMakeFiles/gpubarrier_runtime.dir/src/runtime/team.cpp.o": [
        f"{r}/src/runtime/team.cpp", f"{r}/src/core/method.hpp", f"{r}/topology/topology.hpp",
        f"{r}/src/runtime/host_steps.hpp",
        f"{r}/kernels/multigpu/nccl_dev_comm.hpp", f"{r}/kernels/multigpu/frame/signals.cuh",
        f"{r}/kernels/common/sm_clock.hpp", f"{r}/src/methods/host/omp_barrier.hpp",
        f"{r}/src/methods/legacy/figures.hpp"]}), 1, present=[
        "src/runtime/team.cpp: includes kernels/multigpu/nccl_dev_comm.hpp (runtime must not "
        "include methods: the runtime knows no barrier algorithm)",
        "src/runtime/team.cpp: includes kernels/multigpu/frame/signals.cuh (runtime must not "
        "include methods: the runtime knows no barrier algorithm)",
        "src/runtime/team.cpp: includes kernels/common/sm_clock.hpp (runtime must not include "
        "methods: the runtime knows no barrier algorithm)",
        "src/runtime/team.cpp: includes src/methods/host/omp_barrier.hpp (runtime must not "
        "include methods: the runtime knows no barrier algorithm)",
        "src/runtime/team.cpp: includes src/methods/legacy/figures.hpp (runtime must not include "
        "legacy)"],
        absent=["host_steps.hpp", "method.hpp", "topology.hpp"])


def test_topology_includes_kernels_and_host(w):
    r = w.fake
    expect(w.includes({"topology/CMakeFiles/gpubarrier_topology.dir/probe.cpp.o": [
        f"{r}/topology/probe.cpp", f"{r}/topology/probe.hpp", f"{r}/src/errors/errors.hpp",
        f"{r}/topology/../kernels/common/sm_clock.hpp", f"{r}/src/methods/host/omp_barrier.hpp",
        f"{r}/src/core/method.hpp", f"{r}/src/io/row.hpp", f"{r}/src/app/context.hpp",
        f"{r}/src/runtime/team.hpp"]}), 1, present=[
        "topology/probe.cpp: includes kernels/common/sm_clock.hpp "
        "(topology must not include methods)",
        "topology/probe.cpp: includes src/methods/host/omp_barrier.hpp "
        "(topology must not include methods)",
        "topology/probe.cpp: includes src/core/method.hpp (topology must not include core)",
        "topology/probe.cpp: includes src/io/row.hpp (topology must not include io)",
        "topology/probe.cpp: includes src/app/context.hpp (topology must not include app)",
        "topology/probe.cpp: includes src/runtime/team.hpp (topology must not include runtime)"],
        absent=["errors.hpp", "probe.hpp"])


def test_io_includes_app(w):
    r = w.fake
    expect(w.includes({"CMakeFiles/gpubarrier_io.dir/src/io/row.cpp.o": [
        f"{r}/src/io/row.cpp", f"{r}/src/core/record.hpp", f"{r}/src/app/context.hpp",
        f"{r}/src/runtime/team.hpp", f"{r}/src/methods/host/x.hpp",
        f"{r}/src/runtime/host_steps.hpp", f"{r}/kernels/grid/grid_barrier.cuh"]}), 1, present=[
        "src/io/row.cpp: includes src/app/context.hpp (io must not include app)",
        "src/io/row.cpp: includes src/runtime/team.hpp (io must not include runtime)",
        "src/io/row.cpp: includes src/methods/host/x.hpp (io must not include methods)",
        "src/io/row.cpp: includes src/runtime/host_steps.hpp (io must not include runtime)",
        "src/io/row.cpp: includes kernels/grid/grid_barrier.cuh (io must not include methods)"],
        absent=["record.hpp"])


def test_core_header_includes_io(w):
    # A core header that only io and the CLI include: no core object lists it, so the resolved
    # #include lines of the headers must catch it.
    root = os.path.join(w.dir, "tree")
    w.write("tree/src/core/record.hpp", '#pragma once\n// #include "io/csv_writer.hpp"\n'
            '#include <vector>\n#include "../io/row.hpp"\n')
    w.write("tree/src/io/row.hpp", "#pragma once\n")
    w.write("tree/src/app/main.cpp", '#include "core/record.hpp"\n')
    entries = {"CMakeFiles/gpubarrier.dir/src/app/main.cpp.o": [
        f"{root}/src/app/main.cpp", f"{root}/src/core/record.hpp", f"{root}/src/io/row.hpp"]}
    expect(w.includes(entries, root), 1,
           present=["src/core/record.hpp: includes src/io/row.hpp (core must not include io)"],
           absent=["csv_writer", "src/app/main.cpp:"])
    expect(w.includes(entries, root, "--no-header-scan"), 0, present=[],
           absent=["must not"])


def test_barriers_include_project(w):
    # The public headers (include/gpubarrier/) are installed alone: a header of theirs that
    # includes any part of the project, or their target linking one, is caught.
    root = os.path.join(w.dir, "tree")
    w.write("tree/include/gpubarrier/grid_barrier.cuh",
            '#pragma once\n#include <cuda/atomic>\n#include "../../src/core/faults.hpp"\n')
    w.write("tree/src/core/faults.hpp", "#pragma once\n")
    w.write("tree/kernels/grid/count_epoch.cu", '#include "gpubarrier/grid_barrier.cuh"\n')
    entries = {f"{METHODS}/kernels/grid/count_epoch.cu.o": [
        f"{root}/kernels/grid/count_epoch.cu", f"{root}/include/gpubarrier/grid_barrier.cuh",
        f"{root}/src/core/faults.hpp"]}
    expect(w.includes(entries, root), 1, present=[
        "include/gpubarrier/grid_barrier.cuh: includes src/core/faults.hpp (barriers must not "
        "include core: the public headers include nothing of the project (they are installed "
        "alone))"], absent=["count_epoch.cu:"])
    graph = replace(intended_graph(), "gpubarrier_barriers", iface="CUDA::cudart;gpubarrier_core")
    expect(w.links(graph), 1, present=[
        "gpubarrier_barriers: links gpubarrier_core (barriers must not link core)"])


def test_symlink_into_io(w):
    root = os.path.join(w.dir, "tree")
    w.write("tree/src/io/row.hpp", "#pragma once\n")
    os.makedirs(os.path.join(root, "src/core"), exist_ok=True)
    os.symlink("../io/row.hpp", os.path.join(root, "src/core/row_alias.hpp"))
    expect(w.includes({f"{CORE}/runner.cpp.o": [
        f"{root}/src/core/runner.cpp", f"{root}/src/core/row_alias.hpp"]}, root), 1,
        present=["src/core/runner.cpp: includes src/io/row.hpp (core must not include io)"])


def test_object_maps_to_source(w):
    r = w.fake
    detail = f"{r}/kernels/grid/detail/x.cuh"
    expect(w.includes({
        # The source is found from the object path even when it is not listed first.
        f"{CORE}/runner.cpp.o": [f"{r}/src/core/runner.hpp", f"{r}/src/core/runner.cpp",
                                 f"{r}/src/io/row.hpp"],
        # `__` in an object path is `..`: tests compile src/app/context.cpp too.
        "tests/CMakeFiles/test_unit.dir/__/src/app/context.cpp.o": [
            f"{r}/src/app/context.cpp", detail],
        # A source in the wrong library.
        "CMakeFiles/gpubarrier_core.dir/src/io/json_writer.cpp.o": [f"{r}/src/io/json_writer.cpp"],
    }), 1, present=[
        "src/core/runner.cpp: includes src/io/row.hpp (core must not include io)",
        "src/app/context.cpp: includes kernels/grid/detail/x.cuh "
        "(kernels/grid/detail/ is private to kernels/grid/)",
        "src/io/json_writer.cpp: compiled into gpubarrier_core "
        "(gpubarrier_core compiles only core)"],
        absent=["src/core/runner.hpp:"])


def test_clean_tree_passes(w):
    r = w.fake
    expect(w.includes({
        f"{CORE}/runner.cpp.o": [f"{r}/src/core/runner.cpp", f"{r}/src/errors/errors.hpp",
                                 f"{r}/topology/topology.hpp", f"{r}/build/generated/v.hpp",
                                 "/usr/local/cuda/include/cuda_runtime.h"],
        "CMakeFiles/gpubarrier_io.dir/src/io/row.cpp.o": [f"{r}/src/io/row.cpp",
                                                          f"{r}/src/core/record.hpp"],
        "CMakeFiles/gpubarrier_runtime.dir/src/runtime/host_verify.cpp.o": [
            f"{r}/src/runtime/host_verify.cpp", f"{r}/src/runtime/host_steps.hpp"],
        "CMakeFiles/gpubarrier_runtime.dir/src/runtime/host_steps.cu.o": [
            f"{r}/src/runtime/host_steps.cu", f"{r}/src/runtime/timers.cuh"],
        f"{METHODS}/src/methods/host/omp_gpu_barrier.cpp.o": [
            f"{r}/src/methods/host/omp_gpu_barrier.cpp", f"{r}/src/runtime/team.hpp",
            f"{r}/src/runtime/host_steps.hpp", f"{r}/kernels/multigpu/nccl_dev_comm.hpp"],
        f"{METHODS}/kernels/multigpu/push.cu.o": [
            f"{r}/kernels/multigpu/push.cu", f"{r}/kernels/multigpu/frame/signals.cuh",
            f"{r}/kernels/multigpu/detail/gpu_gather.cuh", f"{r}/src/runtime/peer_memory.hpp"],
        "topology/CMakeFiles/gpubarrier_topology.dir/json.cpp.o": [
            f"{r}/topology/json.cpp", f"{r}/src/errors/errors.hpp",
            "/usr/include/nlohmann/json.hpp"],
        "CMakeFiles/gpubarrier.dir/src/app/run.cpp.o": [
            f"{r}/src/app/run.cpp", f"{r}/src/io/csv_writer.hpp", f"{r}/src/methods/host/x.hpp"],
    }), 0, present=["layering ok (8 sources checked)"])


def test_make_depfile(w):
    r = w.fake
    dep = w.write("runner.cpp.o.d",
                  f"CMakeFiles/gpubarrier_core.dir/src/core/runner.cpp.o: \\\n"
                  f"  {r}/src/core/runner.cpp {r}/src/core/runner.hpp \\\n"
                  f"  {r}/src/core/../io/row\\ file.hpp \\\n  /usr/include/stdio.h\n"
                  f"{r}/src/core/runner.hpp:\n")
    expect(run("includes", "--source-dir", r, "--deps-file", dep, "--deps-format", "make"), 1,
           present=["src/core/runner.cpp: includes src/io/row file.hpp "
                    "(core must not include io)"])


def test_corrupt_deps_log(w):
    # Two builds at once in one folder can leave .ninja_deps with a record naming a path it
    # never wrote, and `ninja -t deps` then crashes. The checker reads the log itself and names
    # the object it cannot check. A stand-in ninja crashes the way the real one did.
    r = w.fake
    build = os.path.join(w.dir, "build")
    objects = [f"{CORE}/runner.cpp.o", f"{METHODS}/kernels/grid/x.cu.o", f"{CORE}/axis.cpp.o"]
    fake_ninja = w.write("build/fake-ninja", "#!/bin/sh\ncase \"$*\" in\n"
                         "  *'-t targets'*) printf '%s: phony\\n' "
                         + " ".join(objects) + " ;;\n  *) kill -SEGV $$ ;;\nesac\n")
    os.chmod(fake_ninja, 0o755)
    w.write("build/CMakeCache.txt", "CMAKE_GENERATOR:INTERNAL=Ninja\n"
            f"CMAKE_MAKE_PROGRAM:FILEPATH={fake_ninja}\n")
    paths = [objects[0], f"{r}/src/core/runner.cpp", f"{r}/src/core/../io/row.hpp",
             objects[1], objects[2], f"{r}/src/core/axis.cpp"]
    log = b"# ninjadeps\n" + struct.pack("<i", 4)
    for i, name in enumerate(paths):
        data = name.encode()
        data += b"\0" * (-len(data) % 4) + struct.pack("<I", ~i & 0xFFFFFFFF)
        log += struct.pack("<I", len(data)) + data
    for out, ids in [(0, [1, 2]), (3, [1, 99]), (4, [5])]:
        data = struct.pack(f"<iII{len(ids)}i", out, 1, 0, *ids)
        log += struct.pack("<I", len(data) | 0x80000000) + data
    with open(os.path.join(build, ".ninja_deps"), "wb") as f:
        f.write(log)
    expect(run("includes", "--source-dir", r, "--build-dir", build), 1, present=[
        "src/core/runner.cpp: includes src/io/row.hpp (core must not include io)",
        f"kernels/grid/x.cu: a corrupt dependency record for {objects[1]}, so it cannot be "
        "checked (delete that object file and build again)"], absent=["axis.cpp"])


def test_include_without_link(w):
    # The folder tree and the link graph say the same: a library whose sources include a
    # layer's headers links that layer's target (here the runtime lost its link to the core).
    r = w.fake
    graph = w.write("link_graph.txt", "".join("\t".join(l) + "\n" for l in replace(
        intended_graph(), "gpubarrier_runtime", link="OpenMP::OpenMP_CXX",
        iface="OpenMP::OpenMP_CXX")))
    expect(w.includes({
        "CMakeFiles/gpubarrier_runtime.dir/src/runtime/team.cpp.o": [
            f"{r}/src/runtime/team.cpp", f"{r}/src/runtime/team.hpp", f"{r}/src/core/state.hpp",
            f"{r}/topology/topology.hpp"],
        "CMakeFiles/gpubarrier_io.dir/src/io/row.cpp.o": [f"{r}/src/io/row.cpp",
                                                          f"{r}/src/core/record.hpp"],
    }, None, "--links-file", graph), 1, present=[
        "src/runtime/team.cpp: includes src/core/state.hpp, but gpubarrier_runtime does not link "
        "gpubarrier_core (the folder tree and the link graph disagree)",
        "src/runtime/team.cpp: includes topology/topology.hpp, but gpubarrier_runtime does not "
        "link gpubarrier_topology (the folder tree and the link graph disagree)"],
        absent=["team.hpp", "row.cpp"])


# ---------------------------------------------------------------------------------- links


def intended_graph():
    """The link graph of the top-level CMakeLists.txt, as cmake/Layering.cmake writes it."""
    return [
        ("gpubarrier_errors", "STATIC_LIBRARY", "", ""),
        ("gpubarrier_paths", "STATIC_LIBRARY", "", ""),
        ("gpubarrier_topology", "STATIC_LIBRARY",
         "gpubarrier_errors;nlohmann_json::nlohmann_json;CUDA::cudart;gb_optional_deps",
         "gpubarrier_errors;nlohmann_json::nlohmann_json;$<LINK_ONLY:CUDA::cudart>;"
         "$<LINK_ONLY:gb_optional_deps>"),
        ("gb_optional_deps", "INTERFACE_LIBRARY", "", "MPI::MPI_CXX"),
        ("gpubarrier_core", "STATIC_LIBRARY",
         "gpubarrier_errors;gpubarrier_topology;CUDA::cudart;spdlog::spdlog;gb_optional_deps",
         "gpubarrier_errors;gpubarrier_topology;CUDA::cudart"),
        ("gpubarrier_io", "STATIC_LIBRARY", "gpubarrier_core;gb_yaml", "gpubarrier_core;gb_yaml"),
        ("gb_yaml", "INTERFACE_LIBRARY", "", "yaml-cpp"),
        ("gpubarrier_runtime", "STATIC_LIBRARY", "gpubarrier_core;OpenMP::OpenMP_CXX",
         "gpubarrier_core;OpenMP::OpenMP_CXX"),
        ("gpubarrier_legacy", "STATIC_LIBRARY", "gpubarrier_core;gpubarrier_paths",
         "gpubarrier_core;$<LINK_ONLY:gpubarrier_paths>"),
        ("gpubarrier_barriers", "INTERFACE_LIBRARY", "", "CUDA::cudart"),
        ("gpubarrier_methods", "OBJECT_LIBRARY",
         "::@(0x1);gpubarrier_runtime;gpubarrier_legacy;gpubarrier_core;gpubarrier_barriers;::@",
         "gpubarrier_runtime;gpubarrier_legacy;gpubarrier_core;gpubarrier_barriers"),
        ("gpubarrier_jobs", "STATIC_LIBRARY", "gpubarrier_io;gpubarrier_core;gpubarrier_paths",
         "gpubarrier_io;gpubarrier_core;$<LINK_ONLY:gpubarrier_paths>"),
        ("gpubarrier", "EXECUTABLE",
         "gpubarrier_methods;gpubarrier_jobs;gpubarrier_io;gpubarrier_paths;CLI11::CLI11", ""),
        ("test_unit", "EXECUTABLE", "gpubarrier_methods;gpubarrier_io;GTest::gtest_main", ""),
    ]


def replace(graph, name, link=None, iface=None):
    out = []
    for row in graph:
        if row[0] == name:
            row = (row[0], row[1], row[2] if link is None else link,
                   row[3] if iface is None else iface)
        out.append(row)
    return out


def test_core_links_io_through_interface(w):
    graph = replace(intended_graph(), "gb_optional_deps",
                    iface="MPI::MPI_CXX;$<$<BOOL:ON>:gpubarrier_io>")
    graph = replace(graph, "gpubarrier_io", link="gpubarrier_core;gb_yaml;gpubarrier_runtime")
    expect(w.links(graph), 1, present=[
        "gpubarrier_core: links gpubarrier_io via gb_optional_deps (core must not link io)",
        "gpubarrier_topology: links gpubarrier_core via gb_optional_deps -> gpubarrier_io "
        "(topology must not link core)",
        "gpubarrier_io: links gpubarrier_runtime (io must not link runtime)"])


def test_runtime_links_methods(w):
    graph = replace(intended_graph(), "gpubarrier_runtime",
                    iface="gpubarrier_core;$<LINK_ONLY:gb::methods>")
    graph.append(("gb::methods", "ALIAS", "gpubarrier_methods", ""))
    graph = replace(graph, "gpubarrier_legacy", link="gpubarrier_core;gpubarrier_runtime")
    expect(w.links(graph), 1, present=[
        "gpubarrier_runtime: links gpubarrier_methods via gb::methods "
        "(runtime must not link methods)",
        "gpubarrier_legacy: links gpubarrier_runtime (legacy must not link runtime)",
        "gpubarrier_legacy: links gpubarrier_methods via gpubarrier_runtime -> gb::methods "
        "(legacy must not link methods)"],
        absent=["gpubarrier_methods: links"])


def test_clean_graph_passes(w):
    expect(w.links(intended_graph()), 0, present=["layering ok (14 CMake targets checked)"])


def test_object_paths_are_no_targets(w):
    # A build linking another build's objects lists them by path; the checkout's folders may be
    # named like any target (a clone named gpubarrier): a path names no target, only a file.
    graph = intended_graph()
    names = "/".join(row[0] for row in graph)
    objects = ";".join(f"/home/u/{names}/build/CMakeFiles/{row[0]}.dir/kernels/grid/x.cu.o"
                       for row in graph)
    graph = replace(graph, "gpubarrier_methods",
                    link=objects + ";gpubarrier_runtime;gpubarrier_legacy;gpubarrier_core;"
                    "gpubarrier_barriers;$<TARGET_OBJECTS:gpubarrier_core>",
                    iface=f"$<LINK_ONLY:gpubarrier/build/x.o>;{objects};gpubarrier_runtime")
    expect(w.links(graph), 0, present=["layering ok (14 CMake targets checked)"])
    # A path inside a generator expression is a path too, and a name there still counts.
    graph = replace(graph, "gpubarrier_core",
                    iface="gpubarrier_topology;$<$<BOOL:ON>:gpubarrier_io;/x/gpubarrier_jobs/y.o>")
    expect(w.links(graph), 1, present=[
        "gpubarrier_core: links gpubarrier_io (core must not link io)"],
        absent=["links gpubarrier_jobs", "links gpubarrier "])


def test_unknown_project_library(w):
    graph = [row for row in intended_graph() if row[0] != "gpubarrier_runtime"]
    graph.append(("gpubarrier_extra", "STATIC_LIBRARY", "gpubarrier_core", ""))
    expect(w.links(graph), 1, present=[
        "gpubarrier_extra: not in the layering table (add it to LAYERS or RDC_SLICES in "
        "tests/layering/check_layering.py)",
        "gpubarrier_runtime: no such CMake target (the layering table names it)"])


def test_table_upward_use(w):
    # The table is checked at every run: a layer that may use one above it, or that uses a layer
    # through another without listing it, makes the includes and the links disagree.
    assert check_layering.check_table() == [], check_layering.check_table()
    saved = dict(check_layering.MAY_USE)
    try:
        check_layering.MAY_USE["core"] = ["runtime", "topology", "errors"]
        check_layering.MAY_USE["io"] = ["core", "errors"]
        got = check_layering.check_table()
    finally:
        check_layering.MAY_USE.clear()
        check_layering.MAY_USE.update(saved)
    want = ["layering table: core may use runtime, which is not below it",
            "layering table: io uses topology through core but MAY_USE['io'] does not list it"]
    missing = [line for line in want if line not in got]
    if missing:
        raise Failure("missing: " + "; ".join(missing) + "\n--- got ---\n" + "\n".join(got))
    print("\n".join(got))


# ---------------------------------------------------------------------------------- real build


def test_real_tree_is_checked(w, gpubarrier):
    """The real build's dependency records, CUDA objects included, with violations injected: the
    build folder of the gpubarrier under test."""
    build_dir = os.path.dirname(os.path.abspath(gpubarrier))
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        pytest.skip(f"{build_dir} is no Ninja build folder")
    root = check_layering.read_cache(build_dir).get("CMAKE_HOME_DIRECTORY")
    args = argparse.Namespace(deps_file=None, build_dir=build_dir, deps_format="ninja")
    entries = dict(check_layering.collect_deps(args)[0])
    tree = check_layering.Tree(root, build_dir)

    def sources_of(obj):
        """What one object compiles: its source (listed first), or a batch's members."""
        deps = entries.get(obj) or []
        if not deps:
            return []
        first = tree.resolve(deps[0], build_dir)
        return check_layering.batch_members(first) or [first]

    def first_source(prefix, objects):
        """-> (object, source) of the first object that compiles a file under `prefix`."""
        for obj in objects:
            for src in sources_of(obj):
                if src.startswith(f"{root}/{prefix}"):
                    return obj, src
        return None, None

    methods = [o for o in entries if "gpubarrier_methods.dir/" in o and entries[o]]
    host, host_src = first_source("src/methods/host/", methods)
    cudas = [o for o in methods if o.endswith(".cu.o")]
    if not host or not first_source("kernels/", cudas)[0]:
        pytest.skip("the methods library is not built yet "
                    "(no src/methods/host or kernels/*.cu objects)")
    # The records of CUDA objects (nvcc -MD) must list their headers, as C++ ones do.
    cuda = next((o for o in cudas
                 if any(f"{root}/kernels/" in d and not d.endswith(".cu")
                        for d in entries[o] or [])), None)
    if not cuda:
        raise Failure("no CUDA object of gpubarrier_methods has a dependency record that lists "
                      "a header under kernels/: the includes check would not see device code")
    cuda_src = first_source("kernels/", [cuda])[1]
    entries = {o: d for o, d in entries.items() if d}
    # Files no source includes: in a batch they are charged to every member.
    entries[host] = entries[host] + [f"{root}/kernels/multigpu/detail/../detail/barrier.cuh"]
    entries[cuda] = entries[cuda] + [f"{root}/src/app/commands.hpp"]
    deps = w.write("real_deps.txt", ninja_deps(entries))
    cuda_part = tree.part(cuda_src)
    host_src, cuda_src = tree.name(host_src), tree.name(cuda_src)
    expect(run("includes", "--source-dir", root, "--build-dir", build_dir, "--deps-file", deps),
           1, present=[
               f"{host_src}: includes kernels/multigpu/detail/barrier.cuh "
               "(kernels/multigpu/detail/ is private to kernels/multigpu/)",
               f"{cuda_src}: includes src/app/commands.hpp ({cuda_part} must not include app)"])

#!/usr/bin/env python3
"""Checks gpubarrier's layering: the folder tree, the includes and the CMake
link graph must say the same thing. One table (LAYERS: each layer's folders and its one CMake
target, top down; MAY_USE: what each layer may use) gives the rules of all three.

  table     the table itself, at every run: each layer folder is one target and each target
            one layer; a layer uses only layers below it, and what it uses through another
            layer it lists too, so that the allowed include edges are the allowed link edges.
  links     the CMake link graph: no library links a layer above it. The graph comes from
            tests/layering/CMakeLists.txt (cmake/Layering.cmake), which writes every target's
            LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES to a file at generate time.
  includes  the compiler's dependency output: every header each object file read, as the
            compiler resolved it (`ninja -t deps`, or the .d depfiles of other generators).
            Paths are resolved (symlinks, `..`) before they are mapped to parts, so
            `#include "../io/row.hpp"` from src/core counts as io. Headers are not compiled on
            their own, so the resolved `#include` lines of every project header some object read
            are checked too: a core header that includes io is caught even when only io or the
            app include that core header. Each object must be compiled into its layer's target,
            `kernels/X/detail/` is read only from kernels/X/, and with --links-file a library
            that includes a layer's header must link that layer's target.

Violations print as `<source>: includes <header> (<rule>)` or `<target>: links <target> (<rule>)`.
Exit status: 0 clean, 1 violations, 2 bad input, 77 nothing to check (skip, with the reason).
Python 3 standard library only.
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

# --------------------------------------------------------------------------------------------
# The rules. Paths are relative to the repository root.

# The layers, from the top down: each with its folders and its one CMake target. A layer uses
# only layers below it; the folder tree, the includes and the link graph must all say so.
LAYERS = [
    ("app",      ["src/app"],                     "gpubarrier"),  # the executable, subcommands
    ("jobs",     ["jobs"],                        "gpubarrier_jobs"),
    ("io",       ["src/io"],                      "gpubarrier_io"),
    ("methods",  ["kernels", "src/methods/host"], "gpubarrier_methods"),
    ("legacy",   ["src/methods/legacy"],          "gpubarrier_legacy"),  # the helper's client
    ("runtime",  ["src/runtime"],                 "gpubarrier_runtime"),
    ("core",     ["src/core"],                    "gpubarrier_core"),
    ("topology", ["topology"],                    "gpubarrier_topology"),
    ("paths",    ["src/paths"],                   "gpubarrier_paths"),  # where the data files are
    ("errors",   ["src/errors"],                  "gpubarrier_errors"),
    # the public headers users include (docs/library.md): below everything, include nothing of
    # the project; the benchmark's methods are built on them
    ("barriers", ["include/gpubarrier"],          "gpubarrier_barriers"),
]

# What each layer may use, directly or through others: the same table for includes (its
# sources and headers) and for links (its target). Only layers below it (check_table).
MAY_USE = {
    "app":      ["jobs", "io", "methods", "legacy", "runtime", "core", "topology", "paths",
                 "errors", "barriers"],
    "jobs":     ["io", "core", "topology", "paths", "errors", "barriers"],
    "io":       ["core", "topology", "errors", "barriers"],
    "methods":  ["legacy", "runtime", "core", "topology", "paths", "errors", "barriers"],
    "legacy":   ["core", "topology", "paths", "errors", "barriers"],
    "runtime":  ["core", "topology", "errors", "barriers"],
    "core":     ["topology", "errors", "barriers"],
    "topology": ["errors", "barriers"],
    "paths":    ["barriers"],
    "errors":   ["barriers"],
    "barriers": [],
}

# Where one target of a layer cannot hold all of its device code: NVSHMEM's methods, compiled
# -rdc into a device link of their own where NVSHMEM is found (cmake/Nvshmem.cmake). The NVSHMEM
# runtime's initialisation must be in that device link, so the slice also compiles that one file
# of the runtime's folder, and nothing else of it. target -> (layer, the layer whose target it
# is a slice of, the other layers' files it compiles).
RDC_SLICES = {
    "gpubarrier_nvshmem": ("methods", "gpubarrier_methods", ["src/runtime/nvshmem_runtime.cu"]),
}

# Besides the layers: tests/ (may use every layer), "generated" (the build folder:
# gpubarrier_version.hpp, for the core and every layer that uses it), "external" (outside the
# repository: system, CUDA, NCCL; always allowed; also the prefixes below, which set-up scripts
# unpack into the repository, ignored by git) and "other" (any other repository file).
EXTERNAL_PREFIXES = (".nvshmem/", ".legacy-cuda/")

# A `detail/` folder under kernels/ belongs to the level folder that holds it: kernels/X/detail/
# is read only from kernels/X/. No exemption; what another level needs is public (e.g.
# kernels/multigpu/frame/, the device-barrier frame that multi-node barriers compose).
DETAIL = re.compile(r"^(kernels/.+?)/detail/")

# Why, where a plain "<layer> must not include <layer>" says too little.
WHY = {
    ("runtime", "methods"): "the runtime knows no barrier algorithm",
    ("core", "runtime"): "the core reaches other ranks only through core/launch.hpp",
    "other": "not in any part of the layering table",
    "barriers": "the public headers include nothing of the project (they are installed alone)",
}


def _derived():
    parts, libraries = [], {}
    for layer, folders, target in LAYERS:
        parts.append((layer, [f + "/**" for f in folders]))
        libraries[target] = (layer, [layer], MAY_USE.get(layer, []))
    for target, (layer, _, _) in RDC_SLICES.items():
        libraries[target] = (layer, [layer], MAY_USE.get(layer, []))
    parts.append(("tests", ["tests/**"]))
    may = {layer: [layer] + MAY_USE.get(layer, []) for layer, _, _ in LAYERS}
    for layer, uses in list(may.items()):
        if "core" in uses:
            may[layer] = uses + ["generated"]
    may["tests"] = ["tests", "generated"] + [layer for layer, _, _ in LAYERS]
    return parts, libraries, may


# The parts of the tree (first matching pattern wins; `**` matches any number of folders, `*`
# stays inside one), the CMake libraries (target -> (its layer, the layers whose sources it
# compiles, the layers whose targets it may link, directly or transitively)) and what each part
# may include, directly or through other headers: all three from LAYERS and MAY_USE.
PARTS, LIBRARIES, MAY_INCLUDE = _derived()
# Libraries only some builds have (the table still holds their rules where they exist).
OPTIONAL_LIBRARIES = set(RDC_SLICES)
# A library named like this must be in LIBRARIES (so that a new part cannot dodge the rules).
PROJECT_LIBRARY = re.compile(r"^gpubarrier(_|$)")


def check_table():
    """The table itself: each layer folder has exactly one target and each target one layer;
    a layer uses only layers below it (the order of LAYERS), and what it uses through another
    layer is listed too, so that the allowed include edges and link edges are one relation."""
    problems = []
    names = [layer for layer, _, _ in LAYERS]
    targets = [target for _, _, target in LAYERS]
    folders = [f for _, fs, _ in LAYERS for f in fs]
    for what, items in (("layer", names), ("target", targets), ("folder", folders)):
        for item in sorted({i for i in items if items.count(i) > 1}):
            problems.append(f"layering table: {what} {item} appears more than once in LAYERS")
    for a in folders:
        for b in folders:
            if a != b and b.startswith(a + "/"):
                problems.append(f"layering table: folder {b} lies inside folder {a}")
    if set(MAY_USE) != set(names):
        problems.append("layering table: MAY_USE and LAYERS name different layers: "
                        + ", ".join(sorted(set(MAY_USE) ^ set(names))))
    for layer, uses in MAY_USE.items():
        if layer not in names:
            continue
        below = names[names.index(layer) + 1:]
        for used in uses:
            if used not in below:
                problems.append(f"layering table: {layer} may use {used}, which is not below it")
            for through in MAY_USE.get(used, []):
                if through not in uses:
                    problems.append(f"layering table: {layer} uses {through} through {used} "
                                    f"but MAY_USE[{layer!r}] does not list it")
    for target, (layer, parent, _) in RDC_SLICES.items():
        if (layer, parent) not in [(l, t) for l, _, t in LAYERS]:
            problems.append(f"layering table: {target} is no slice of {layer}'s target {parent}")
    return problems


SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".cu")
SKIP = 77


# --------------------------------------------------------------------------------------------
# Parts

def _glob_regex(pattern):
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


_PART_PATTERNS = [(name, [_glob_regex(p) for p in pats]) for name, pats in PARTS]


class Tree:
    """Maps resolved paths to parts and to repository-relative names."""

    def __init__(self, source_dir, build_dir):
        self.root = os.path.realpath(source_dir)
        self.folder = os.path.realpath(build_dir) if build_dir else None
        # The build folder's files are "generated"; in an in-source build, no folder is.
        self.build = self.folder if self.folder != self.root else None

    def resolve(self, path, base):
        if not os.path.isabs(path):
            path = os.path.join(base, path)
        return os.path.realpath(path)

    def _under(self, path, folder):
        return folder is not None and (path == folder or path.startswith(folder + os.sep))

    def name(self, path):
        """Repository-relative name of a resolved path, or the path itself outside it."""
        if self._under(path, self.root):
            return os.path.relpath(path, self.root).replace(os.sep, "/")
        return path

    def part(self, path):
        if self._under(path, self.build):
            return "generated"
        if not self._under(path, self.root):
            return "external"
        rel = self.name(path)
        if rel.startswith(EXTERNAL_PREFIXES):
            return "external"
        for name, regexes in _PART_PATTERNS:
            if any(r.match(rel) for r in regexes):
                return name
        return "other"


def include_rule(src_part, hdr_part, src_name="", hdr_name=""):
    """None when allowed, else the rule the include breaks."""
    detail = DETAIL.match(hdr_name)
    if detail and not src_name.startswith(detail.group(1) + "/"):
        owner = detail.group(1)
        return f"{owner}/detail/ is private to {owner}/"
    if hdr_part == "external" or src_part not in MAY_INCLUDE:
        return None
    if hdr_part in MAY_INCLUDE[src_part]:
        return None
    why = WHY.get((src_part, hdr_part)) or WHY.get(hdr_part) or WHY.get(src_part)
    plain = f"{src_part} must not include {hdr_part}"
    return f"{plain}: {why}" if why else plain


# --------------------------------------------------------------------------------------------
# Dependency input

def parse_ninja_deps(text):
    """`ninja -t deps` output -> [(object, [paths]), ...] in the order given."""
    entries, current = [], None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0].isspace():
            if current is None:
                raise ValueError(f"dependency line before any object: {line.strip()!r}")
            current[1].append(line.strip())
        else:
            m = re.match(r"^(.*?): #deps\b", line)
            if not m:
                raise ValueError(f"not `ninja -t deps` output: {line!r}")
            current = (m.group(1), [])
            entries.append(current)
    return entries


def parse_make_depfile(text):
    """One Makefile-style depfile (`obj: src hdr \\` ...) -> [(object, [paths]), ...]."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    entries = []
    for line in text.splitlines():
        # A colon followed by whitespace ends the target; `C:\x` style paths do not occur here.
        m = re.match(r"^((?:[^:\\]|\\.)+?):(?:\s|$)(.*)$", line)
        if not m:
            continue
        words = re.findall(r"(?:\\.|[^\s\\])+", m.group(2))
        paths = [re.sub(r"\\(.)", r"\1", w).replace("$$", "$") for w in words]
        if paths:
            entries.append((m.group(1).strip(), paths))
    # `-MP` adds empty `header:` rules, which the `if paths` above already dropped.
    return entries


def read_ninja_deps_log(path):
    """Ninja's binary deps log (format 3 or 4) -> ([(object, [paths])], [objects whose latest
    record is corrupt]). Read only when `ninja -t deps` itself fails."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"# ninjadeps\n") or len(data) < 16:
        raise ValueError(f"{path} is not a ninja deps log")
    version = struct.unpack_from("<i", data, 12)[0]
    if version not in (3, 4):
        raise ValueError(f"{path}: unknown deps log version {version}")
    head = 3 if version == 4 else 2  # out id, mtime (64-bit from version 4)
    paths, records, off = [], {}, 16
    while off + 4 <= len(data):
        size = struct.unpack_from("<I", data, off)[0]
        off += 4
        is_deps, size = size >> 31, size & 0x7FFFFFFF
        record = data[off:off + size]
        off += size
        if len(record) < size or size % 4 or size < 4:
            break  # a torn tail: ninja drops it too
        if is_deps:
            ids = struct.unpack_from(f"<{size // 4}i", record)
            records[ids[0]] = ids[head:]
        else:
            checksum = struct.unpack_from("<I", record, size - 4)[0]
            if checksum != (~len(paths)) & 0xFFFFFFFF:
                break  # ninja stops at the first path record out of sequence
            paths.append(record[:-4].rstrip(b"\0").decode("utf-8", "replace"))
    entries, broken = [], []
    for out, deps in records.items():
        if not 0 <= out < len(paths):
            continue
        if all(0 <= d < len(paths) for d in deps):
            entries.append((paths[out], [paths[d] for d in deps]))
        else:
            broken.append(paths[out])
    return entries, broken


def read_cache(build_dir):
    cache = {}
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^([A-Za-z0-9_.-]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    cache[m.group(1)] = m.group(2)
    except OSError:
        pass
    return cache


class Skip(Exception):
    pass


def collect_deps(args):
    """-> (entries, base folder of relative paths, notes)."""
    notes = []
    if args.deps_file:
        with open(args.deps_file, encoding="utf-8") as f:
            text = f.read()
        if args.deps_format == "make":
            return parse_make_depfile(text), args.build_dir or os.getcwd(), notes
        return parse_ninja_deps(text), args.build_dir or os.getcwd(), notes

    build = args.build_dir
    cache = read_cache(build)
    generator = cache.get("CMAKE_GENERATOR", "")
    if not generator:
        raise Skip(f"{build} is not a configured CMake build folder (no CMAKE_GENERATOR)")
    if "Ninja" in generator:
        ninja = cache.get("CMAKE_MAKE_PROGRAM") or shutil.which("ninja")
        if not ninja or not os.path.exists(ninja):
            ninja = shutil.which("ninja")
        if not ninja:
            raise Skip("the build uses Ninja but no ninja program was found")
        res = subprocess.run([ninja, "-C", build, "-t", "targets", "all"],
                             capture_output=True, text=True)
        objects = [line.split(": ")[0] for line in res.stdout.splitlines()
                   if re.match(r"^\S*CMakeFiles/\S+\.dir/\S+\.(o|obj): ", line)]
        res = subprocess.run([ninja, "-C", build, "-t", "deps"], capture_output=True, text=True)
        if res.returncode == 0:
            entries = parse_ninja_deps(res.stdout)
            stale = res.stdout.count("(STALE)")
            if stale:
                notes.append(f"{stale} object(s) have stale dependency records "
                             "(the next build refreshes them)")
        else:
            # Seen when two builds ran in one folder at once: ninja crashes on a record that
            # names a path it never wrote. Read the log directly and name the broken objects.
            notes.append(f"`ninja -t deps` failed (exit status {res.returncode}); "
                         "read .ninja_deps directly")
            live = set(objects)
            entries, broken = read_ninja_deps_log(os.path.join(build, ".ninja_deps"))
            entries = [e for e in entries if e[0] in live]
            entries += [(obj, None) for obj in broken if obj in live]
        recorded = {e[0] for e in entries}
        missing = [obj for obj in objects if obj not in recorded]
        if missing:
            notes.append(f"{len(missing)} object(s) not built yet, so not checked: "
                         + ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else ""))
        return entries, build, notes

    # Other generators: the compilers' own depfiles (CMake >= 3.20 keeps them as <obj>.d).
    entries = []
    for folder, _, files in os.walk(build):
        for fname in files:
            if fname.endswith((".o.d", ".obj.d")) and "CMakeFiles" in folder:
                path = os.path.join(folder, fname)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for obj, deps in parse_make_depfile(f.read()):
                        # Makefile builds compile in the target's folder: relative paths are
                        # relative to the folder that holds CMakeFiles/.
                        base = folder[:folder.index("CMakeFiles")]
                        entries.append((os.path.relpath(os.path.join(base, obj), build),
                                        [d if os.path.isabs(d) else os.path.join(base, d)
                                         for d in deps]))
    if not entries:
        raise Skip(f"generator {generator!r} is not Ninja and {build} holds no .d depfiles "
                   "(build first, or use -G Ninja)")
    return entries, build, notes


# --------------------------------------------------------------------------------------------
# Includes

OBJECT_PATH = re.compile(r"^(?:(.*)/)?CMakeFiles/([^/]+)\.dir/(.+)\.(?:o|obj)$")


def object_source(tree, obj, deps):
    """-> (library target or None, resolved source path or None) of one object file.

    The object path mirrors the source: <subdir>/CMakeFiles/<target>.dir/<path>.o, with `..`
    spelled `__`. The compiler lists the source first among the dependencies; that is the
    fallback when the mirror does not match (sources outside the tree, multi-config folders).
    """
    target, mirrored = None, None
    m = OBJECT_PATH.match(obj.replace(os.sep, "/"))
    if m:
        subdir, target, rest = m.group(1) or "", m.group(2), m.group(3)
        rest = "/".join(".." if c == "__" else c for c in rest.split("/"))
        mirrored = os.path.realpath(os.path.join(tree.root, subdir, rest))
    if mirrored and mirrored in deps:
        return target, mirrored
    for d in deps:
        if d.endswith(SOURCE_SUFFIXES):
            return target, d
    return target, mirrored


INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]', re.M)


def header_includes(path, include_dirs):
    """Resolved `#include` targets of one header, as the preprocessor would search them."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    found = []
    for kind, name in INCLUDE_LINE.findall(text):
        dirs = ([os.path.dirname(path)] if kind == '"' else []) + include_dirs
        for d in dirs:
            candidate = os.path.join(d, name)
            if os.path.isfile(candidate):
                found.append(os.path.realpath(candidate))
                break
    return found


def include_dirs_of(tree):
    """Project include folders: -I/-isystem flags of build.ninja that lie inside the repository."""
    dirs = []
    try:
        with open(os.path.join(tree.folder, "build.ninja"), encoding="utf-8") as f:
            text = f.read()
        for d in re.findall(r"(?:^|\s)-(?:I|isystem)(?:=|\s+)?([^\s=]\S*)", text):
            d = os.path.realpath(os.path.join(tree.folder, d))
            if d.startswith(tree.root + os.sep) and d not in dirs:
                dirs.append(d)
    except (OSError, TypeError):
        pass
    for d in ("src", "kernels", ""):
        d = os.path.realpath(os.path.join(tree.root, d))
        if d not in dirs:
            dirs.append(d)
    return dirs


# A batch file: one compilation of several sources, each named by an `#include` line. CMake's
# unity build writes <target>.dir/Unity/unity_<n>_<lang>.<ext>; cmake/CudaBatches.cmake writes
# cuda_batches/<target>_<folder>_<n>_<hash of its members>.cu.
BATCH_FILE = re.compile(r"(?:/Unity/unity_\d+_[a-z]+\.[a-z]+|/cuda_batches/[^/]+\.cu)$")


def batch_members(path):
    """The sources a batch file compiles, resolved from its folder; [] for any other file."""
    if not BATCH_FILE.search(path.replace(os.sep, "/")):
        return []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return []
    folder = os.path.dirname(path)
    return [os.path.realpath(os.path.join(folder, name))
            for quote, name in INCLUDE_LINE.findall(text) if quote == '"']


def textual_closure(tree, path, dirs, cache):
    """Every file `path` includes, directly or through the repository's files, as the
    preprocessor would find them by their `#include` lines."""
    if path in cache:
        return cache[path]
    seen, queue = set(), [path]
    while queue:
        for dep in header_includes(queue.pop(), dirs):
            if dep not in seen and dep != path:
                seen.add(dep)
                if tree.part(dep) not in ("external", "generated"):
                    queue.append(dep)
    cache[path] = seen
    return seen


def object_sources(tree, source, deps, dirs, cache):
    """-> [(source, its dependencies)] of one object. A batch's dependency record is the union of
    its members': each member gets the files its own `#include` lines reach, and a file the
    compiler read that no member's lines explain (an include through a macro, say) is charged
    to every member, so that batching hides no include."""
    members = batch_members(source) if tree.part(source) == "generated" else []
    if not members:
        return [(source, deps)]
    closures = [textual_closure(tree, m, dirs, cache) for m in members]
    explained = set(members).union(*closures) | {source}
    unexplained = [d for d in deps if d not in explained]
    return [(m, [m] + sorted(c) + unexplained) for m, c in zip(members, closures)]


def check_includes(tree, entries, base, scan_headers=True, graph=None):
    """With `graph` (the link graph), also: a library that includes a layer's header links that
    layer's target, so that the folder tree and the link graph say the same."""
    violations, checked, headers = [], 0, set()
    reach = reachable(graph) if graph is not None else None
    target_of = {layer: target for layer, _, target in LAYERS}
    dirs, closures = include_dirs_of(tree), {}
    for obj, raw_deps in entries:
        deps = [tree.resolve(d, base) for d in raw_deps or []]
        target, source = object_source(tree, obj, deps)
        if source is None:
            continue
        if tree.part(source) == "external":
            continue
        if tree.part(source) == "generated" and not batch_members(source):
            continue
        if not deps:
            # Ninja records an empty list when the depfile was missing, e.g. when two builds
            # compiled the object at once; the object then looks up to date but was never seen.
            what = "a corrupt" if raw_deps is None else "no"
            violations.append(f"{tree.name(source)}: {what} dependency record for {obj}, so it "
                              "cannot be checked (delete that object file and build again)")
            continue
        for source, deps in object_sources(tree, source, deps, dirs, closures):
            checked += check_source(tree, target, source, deps, violations, headers, reach,
                                    target_of)
    if scan_headers and headers:
        for hdr in sorted(headers):
            hdr_part = tree.part(hdr)
            for dep in header_includes(hdr, dirs):
                rule = include_rule(hdr_part, tree.part(dep), tree.name(hdr), tree.name(dep))
                if rule:
                    violations.append(f"{tree.name(hdr)}: includes {tree.name(dep)} ({rule})")
    return sorted(set(violations)), checked


def check_source(tree, target, source, deps, violations, headers, reach, target_of):
    """The rules for one source compiled into `target`: 1 when it was checked, else 0."""
    src_part = tree.part(source)
    if src_part in ("external", "generated"):
        return 0
    src_name = tree.name(source)
    extra = RDC_SLICES.get(target, (None, None, []))[2]
    if target in LIBRARIES and src_part not in LIBRARIES[target][1] and src_name not in extra:
        violations.append(f"{src_name}: compiled into {target} ({target} compiles only "
                          f"{', '.join(LIBRARIES[target][1] + extra)})")
    for dep in deps:
        if dep == source:
            continue
        hdr_part = tree.part(dep)
        if hdr_part not in ("external", "generated"):
            headers.add(dep)
        rule = include_rule(src_part, hdr_part, src_name, tree.name(dep))
        if rule:
            violations.append(f"{src_name}: includes {tree.name(dep)} ({rule})")
        elif (reach is not None and target in LIBRARIES and target in reach
              and hdr_part in target_of and hdr_part != LIBRARIES[target][0]
              and target_of[hdr_part] not in reach[target]):
            violations.append(f"{src_name}: includes {tree.name(dep)}, but {target} does not "
                              f"link {target_of[hdr_part]} (the folder tree and the link "
                              "graph disagree)")
    return 1


# --------------------------------------------------------------------------------------------
# Links

def parse_link_graph(text):
    """Lines `<target>\t<TYPE>\t<LINK_LIBRARIES>\t<INTERFACE_LINK_LIBRARIES>`
    -> {target: (type, [items])}."""
    graph = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise ValueError(f"link graph line {n}: expected 4 tab-separated fields: {line!r}")
        name, kind, link, iface = fields
        items = [i for i in (link + ";" + iface).split(";") if i and not i.startswith("::@")]
        graph[name] = (kind, items)
    return graph


# What separates the words of a link item: generator-expression syntax (`$<`, `>`, `,`, `;` and
# a single `:`, never the `::` of a namespaced target). A path keeps its spaces.
_WORD_BREAK = re.compile(r"\$<|[>,;]|(?<!:):(?!:)")


def link_words(item):
    """The words of one link item that may name a target: a CMake target name, in a generator
    expression or not. A word holding a slash is a path (an object file or library linked by
    name), whose folders are no targets, whatever they are called."""
    return [w for w in _WORD_BREAK.split(item) if w and "/" not in w and "\\" not in w]


def link_edges(graph):
    """Each target's linked targets. Items with generator expressions count every target they
    name, whatever the condition: the layering must hold for every option."""
    edges = {}
    for name, (_, items) in graph.items():
        out = []
        for item in items:
            for token in link_words(item):
                if token in graph and token != name and token not in out:
                    out.append(token)
        edges[name] = out
    return edges


def reachable(graph):
    """{target: every target it links, directly or transitively}."""
    edges = link_edges(graph)
    out = {}
    for name in graph:
        seen, queue = set(), [name]
        while queue:
            for nxt in edges.get(queue.pop(0), []):
                if nxt not in seen and nxt != name:
                    seen.add(nxt)
                    queue.append(nxt)
        out[name] = seen
    return out


def check_links(graph):
    violations = []
    edges = link_edges(graph)
    for name, (kind, _) in sorted(graph.items()):
        if PROJECT_LIBRARY.match(name) and name not in LIBRARIES and kind != "UTILITY":
            violations.append(f"{name}: not in the layering table (add it to LAYERS or "
                              "RDC_SLICES in tests/layering/check_layering.py)")
    for name in LIBRARIES:
        if name not in graph and name not in OPTIONAL_LIBRARIES:
            violations.append(f"{name}: no such CMake target (the layering table names it)")
    part_of = {lib: row[0] for lib, row in LIBRARIES.items()}
    for name, (part, _, may_link) in LIBRARIES.items():
        if name not in graph:
            continue
        # Breadth-first, so the reported path is a shortest one.
        via, queue = {name: None}, [name]
        while queue:
            cur = queue.pop(0)
            for nxt in edges.get(cur, []):
                if nxt not in via:
                    via[nxt] = cur
                    queue.append(nxt)
        for reached in via:
            if reached == name or reached not in LIBRARIES or part_of[reached] in may_link:
                continue
            path, cur = [], via[reached]
            while cur != name:
                path.append(cur)
                cur = via[cur]
            how = f" via {' -> '.join(reversed(path))}" if path else ""
            violations.append(f"{name}: links {reached}{how} "
                              f"({part} must not link {part_of[reached]})")
    return violations


# --------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", choices=["includes", "links", "all"])
    ap.add_argument("--source-dir", required=True, help="repository root")
    ap.add_argument("--build-dir", help="CMake build folder (includes: where to read the deps)")
    ap.add_argument("--deps-file", help="read dependencies from this file instead of the build")
    ap.add_argument("--deps-format", choices=["ninja", "make"], default="ninja",
                    help="format of --deps-file: `ninja -t deps` output or a make depfile")
    ap.add_argument("--links-file", help="link graph written by cmake/Layering.cmake (includes: "
                    "also check that each library links the layers whose headers it includes)")
    ap.add_argument("--no-header-scan", action="store_true",
                    help="check only the objects' dependency lists")
    args = ap.parse_args(argv)

    violations, summary, notes = check_table(), [], []
    try:
        graph = None
        if args.links_file:
            if not os.path.exists(args.links_file):
                raise Skip(f"{args.links_file} does not exist (configure with tests enabled)")
            with open(args.links_file, encoding="utf-8") as f:
                graph = parse_link_graph(f.read())
        if args.check in ("links", "all"):
            if not args.links_file:
                ap.error("links needs --links-file")
            violations += check_links(graph)
            summary.append(f"{len(graph)} CMake targets")
        if args.check in ("includes", "all"):
            if not args.deps_file and not args.build_dir:
                ap.error("includes needs --build-dir or --deps-file")
            tree = Tree(args.source_dir, args.build_dir)
            entries, base, notes = collect_deps(args)
            found, checked = check_includes(tree, entries, base, not args.no_header_scan, graph)
            if checked == 0 and not found:
                raise Skip("no object of the repository has dependency records (build first)")
            violations += found
            summary.append(f"{checked} sources")
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    except (OSError, ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    for note in notes:
        print(f"note: {note}")
    for v in violations:
        print(v)
    verdict = f"{len(violations)} layering violation(s)" if violations else "layering ok"
    print(f"{verdict} ({', '.join(summary)} checked)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())

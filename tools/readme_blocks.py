"""Regenerate (or check) the generated parts of a markdown file such as results/README.md.

Two marker forms; ARGS is a tools/report.py command line (subcommand and arguments), paths
relative to the markdown file's folder, split like a shell would (quotes allowed), `*` globbed:

    <!-- report: ARGS -->            a block: the lines between the two markers are exactly
    ...                              what `report.py ARGS` prints
    <!-- /report -->

    text <!-- value: ARGS -->1.01 us<!-- /value --> text     inline, within one line: the
                                                             output with surrounding blanks cut

    report.py readme FILE.md            rewrite FILE.md in place
    report.py readme FILE.md --check    exit 1 with a unified diff (and the marker lines) when a
                                        generated part differs; exit 1 naming the marker's line
                                        when its command fails
"""
import contextlib
import difflib
import glob
import io
import os
import re
import shlex
import sys

BLOCK_OPEN = re.compile(r"^<!-- report: (.*?) -->\s*$")
BLOCK_CLOSE = "<!-- /report -->"
INLINE = re.compile(r"(?<!`)<!-- value: (.*?) -->(.*?)<!-- /value -->")  # `quoted` ones are text


class MarkerError(Exception):
    """A marker that cannot be regenerated: the message names the file and line."""


def _expand(args, base):
    out = []
    for a in args:
        if any(c in a for c in "*?[") and "=" not in a.split("*")[0]:
            hits = sorted(os.path.relpath(p, base) for p in glob.glob(os.path.join(base, a)))
            if not hits:
                raise MarkerError(f"'{a}' matches no file")
            out += hits
        else:
            out.append(a)
    return out


def run_command(dispatch, text, base):
    """Output of one report.py command line run in-process from folder `base`."""
    args = _expand(shlex.split(text), base)
    buf = io.StringIO()
    cwd = os.getcwd()
    try:
        os.chdir(base)
        with contextlib.redirect_stdout(buf):
            rc = dispatch(args)
    except SystemExit as e:
        raise MarkerError(f"exited with {e.code}") from None
    except Exception as e:  # any failure of the command is the marker's failure
        raise MarkerError(f"{type(e).__name__}: {e}") from None
    finally:
        os.chdir(cwd)
    if rc not in (None, 0):
        raise MarkerError(f"returned {rc}")
    return buf.getvalue()


def regenerate(path, dispatch):
    """(new text, [(line number, marker text)] of every generated part)."""
    base = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, markers, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        m = BLOCK_OPEN.match(line)
        if m:
            start = i + 1
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == BLOCK_CLOSE),
                       None)
            if end is None:
                raise MarkerError(f"{path}:{start}: '{line.strip()}' has no {BLOCK_CLOSE}")
            try:
                body = run_command(dispatch, m.group(1), base).rstrip("\n")
            except MarkerError as e:
                raise MarkerError(f"{path}:{start}: report: {m.group(1)}: {e}") from None
            markers.append((start, m.group(1)))
            out.append(line)
            if body:
                out += body.split("\n")
            out.append(lines[end])
            i = end + 1
            continue

        def inline(match, lineno=i + 1):
            try:
                value = run_command(dispatch, match.group(1), base).strip()
            except MarkerError as e:
                raise MarkerError(f"{path}:{lineno}: value: {match.group(1)}: {e}") from None
            if "\n" in value:
                raise MarkerError(f"{path}:{lineno}: value: {match.group(1)}: prints more than "
                                  f"one line")
            markers.append((lineno, match.group(1)))
            return f"<!-- value: {match.group(1)} -->{value}<!-- /value -->"

        out.append(INLINE.sub(inline, line))
        i += 1
    return "\n".join(out), markers


def main(argv, dispatch):
    """report.py readme FILE.md [--check]; dispatch(args) runs one report.py command."""
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    if len(paths) != 1:
        print("usage: report.py readme FILE.md [--check]", file=sys.stderr)
        return 2
    path = paths[0]
    try:
        with open(path, encoding="utf-8") as f:
            old = f.read()
        new, markers = regenerate(path, dispatch)
    except (MarkerError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not check:
        if new != old:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
        print(f"{path}: {len(markers)} generated parts, {'rewritten' if new != old else 'unchanged'}")
        return 0
    if new == old:
        print(f"{path}: {len(markers)} generated parts, all up to date")
        return 0
    old_lines, new_lines = old.split("\n"), new.split("\n")
    diff = list(difflib.unified_diff(old_lines, new_lines, f"{path} (committed)",
                                     f"{path} (regenerated)", lineterm=""))
    changed = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old_lines, new_lines).get_opcodes():
        if tag != "equal":
            changed.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    blocks = sorted({(ln, text) for ln, text in markers
                     if any(ln <= c <= _block_end(old_lines, ln) for c in changed)})
    for ln, text in blocks:
        print(f"{path}:{ln}: generated part differs: {text}", file=sys.stderr)
    print("\n".join(diff))
    print(f"{path}: out of date; run tools/report.py readme {path}", file=sys.stderr)
    return 1


def _block_end(lines, start):
    """Last line (1-based) of the generated part whose marker is on line `start`."""
    if start - 1 < len(lines) and BLOCK_OPEN.match(lines[start - 1]):
        for j in range(start, len(lines)):
            if lines[j].strip() == BLOCK_CLOSE:
                return j + 1
    return start

"""Regenerate (or check) the generated parts of a markdown file such as results/README.md.

Two marker forms; ARGS is a cli/report.py command line (subcommand and arguments), paths
relative to the markdown file's folder, split like a shell would (quotes allowed), `*` globbed:

    <!-- report: ARGS -->            a block: the lines between the two markers are exactly
    ...                              what `report.py ARGS` prints
    <!-- /report -->

    text <!-- value: ARGS -->1.01 us<!-- /value --> text     inline, within one line: the
                                                             output with surrounding blanks cut

    report.py readme FILE.md            rewrite FILE.md in place
    report.py readme FILE.md --check    exit 1 with a unified diff (and the marker lines) when a
                                        generated part differs; exit 1 naming the marker's line
                                        when its command fails; exit 1 on a typed figure (below)
    report.py readme FILE.md --typed    only the typed-figure check (no command is run)

Typed figures. A measured figure is a number followed by a measured unit: µs, us, ns, ms,
cycles, GB/s, TB/s, B/ns, B/cycle, MHz, GHz (a k or M before the unit allowed), %, or x / ×
written against the number (2.7x; `1 x 128` and `4x256` are shapes). Every such figure in prose
must be generated; `--check` and `--typed` report each one elsewhere as FILE:LINE: figure: line.
A figure whose unit is on the next line of its paragraph counts on the line it starts on.
Not prose, so not checked: generated blocks and value markers, headings, `code spans`, fenced
code and indented code blocks (commands), HTML comments, link targets. Allowed without a value
marker:
  - a figure quoted, not measured here (the study's, a datasheet's, another tool's threshold):
    wrap it, naming its source, `<!-- ref: the study's Table 2 -->1.5 us<!-- /ref -->`;
  - numbers with units that are configuration or identity, not measurement: sizes (16 MiB,
    64 KiB, 4 B), counts (4 GPUs, 128 threads, 5 runs), shapes (1 x 128), dates and versions.
"""

from __future__ import annotations

import contextlib
import difflib
import glob
import io
import os
import re
import shlex
import sys
from collections.abc import Callable, Sequence

from ..data import output_files, user_files

MARKDOWN = "a Markdown file with generated parts (<!-- report: ... -->)"
BLOCK_OPEN = re.compile(r"^<!-- report: (.*?) -->\s*$")
BLOCK_CLOSE = "<!-- /report -->"
INLINE = re.compile(r"(?<!`)<!-- value: (.*?) -->(.*?)<!-- /value -->")  # `quoted` ones are text
REF = re.compile(r"<!-- ref: (\S.*?) -->(.*?)<!-- /ref -->")  # the source named
_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_UNIT = r"(?:[kKM]\s*)?(?:µs|μs|us|ns|ms|cycles?|GB/s|TB/s|B/ns|B/cycle|[MG]Hz)(?![\w/])"
_LIST = rf"(?:[-+−~≈]?{_NUM}\s*/\s*)*"  # 0.157 / 4.65 / 84.2 B/cycle
FIGURE = re.compile(
    rf"(?<![\w.\-+−/]){_LIST}[-+−~≈]?{_NUM}(?:\s*(?:-|–|to)\s*[-+−]?{_NUM})?"
    rf"(?:\s*{_UNIT}|\s*%|[x×](?![\w/]|\s*\d))"
)
# what is not prose: each is cut out (replaced by a mark that no figure can use) before FIGURE
_NOT_PROSE = [
    INLINE,
    REF,
    re.compile(r"(`+).+?\1"),
    re.compile(r"<!--.*?-->"),
    re.compile(r"\]\([^)]*\)"),
]
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d+[.)])\s")


class MarkerError(Exception):
    """A marker that cannot be regenerated: the message names the file and line."""


def _expand(args: list[str], base: str) -> list:
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


def run_command(dispatch: Callable, text: str, base: str) -> str:
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
    except Exception as e:  # noqa: BLE001 (any failure of the command is the marker's failure)
        raise MarkerError(f"{type(e).__name__}: {e}") from None
    finally:
        os.chdir(cwd)
    if rc not in (None, 0):
        raise MarkerError(f"returned {rc}")
    return buf.getvalue()


def regenerate(path: str, dispatch: Callable) -> tuple[str, list]:
    """(new text, [(line number, marker text)] of every generated part)."""
    base = os.path.dirname(os.path.abspath(path))
    lines = user_files.read_text(path, MARKDOWN).split("\n")
    out, markers, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        m = BLOCK_OPEN.match(line)
        if m:
            start = i + 1
            end = next(
                (j for j in range(i + 1, len(lines)) if lines[j].strip() == BLOCK_CLOSE), None
            )
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

        def inline(match: re.Match[str], lineno: int = i + 1) -> str:
            try:
                value = run_command(dispatch, match.group(1), base).strip()
            except MarkerError as e:
                raise MarkerError(f"{path}:{lineno}: value: {match.group(1)}: {e}") from None
            if "\n" in value:
                raise MarkerError(
                    f"{path}:{lineno}: value: {match.group(1)}: prints more than one line"
                )
            markers.append((lineno, match.group(1)))
            return f"<!-- value: {match.group(1)} -->{value}<!-- /value -->"

        out.append(INLINE.sub(inline, line))
        i += 1
    return "\n".join(out), markers


def typed_figures(text: str) -> list:
    """[(line number, figure, line)] of every measured figure typed in prose (module docstring)."""
    hits, lines, fence, block, comment = [], [], None, False, False
    in_list, code, prev_blank = False, False, True
    for n, line in enumerate(text.split("\n"), 1):
        fenced = _FENCE.match(line)
        if fence:  # inside fenced code until the same fence closes it
            fence = None if fenced and fenced.group(1) == fence else fence
            continue
        if fenced:
            fence = fenced.group(1)
            continue
        if block:  # a generated block, up to its closing marker
            block = line.strip() != BLOCK_CLOSE
            continue
        if BLOCK_OPEN.match(line):
            block = True
            continue
        if comment:  # inside an HTML comment that opened on an earlier line
            if "-->" not in line:
                continue
            comment, line = False, " " * (line.index("-->") + 3) + line[line.index("-->") + 3 :]
        blank = not line.strip()
        indent = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())
        if not blank and _LIST_ITEM.match(line):
            in_list = True
        elif not blank and indent == 0:
            in_list = False
        # an indented code block: 4 spaces after a blank line (or more code), not in a list
        code = not blank and indent >= 4 and not in_list and (prev_blank or code)
        prev_blank = blank
        if blank or code or line.lstrip().startswith("#"):
            continue
        prose = line
        for pattern in _NOT_PROSE:
            prose = pattern.sub(" ¤ ", prose)
        if "<!--" in prose:  # a comment that closes on a later line
            comment, prose = True, prose[: prose.index("<!--")]
        lines.append((n, prose, line.strip()))
    # a figure may run over a line break ("1997.8 against 1987.8\n GB/s"): each line is read
    # with the next line of its paragraph after it, and a figure counts where it starts
    for i, (n, prose, line) in enumerate(lines):
        nxt = lines[i + 1][1] if i + 1 < len(lines) and lines[i + 1][0] == n + 1 else ""
        hits += [
            (n, " ".join(m.group(0).split()), line)
            for m in FIGURE.finditer(prose.rstrip() + " " + nxt.lstrip())
            if m.start() < len(prose.rstrip())
        ]
    return hits


def check_typed(path: str, text: str) -> int:
    """Print each typed figure as FILE:LINE: figure: line; the number of them."""
    hits = typed_figures(text)
    for n, figure, line in hits:
        print(f"{path}:{n}: typed figure '{figure}': {line}", file=sys.stderr)
    if hits:
        print(
            f"{path}: {len(hits)} measured figures typed outside the generated parts: make each "
            f"a <!-- value: ... --> marker, or wrap a quoted one in <!-- ref: SOURCE --> ... "
            f"<!-- /ref --> (gpubarrier_tools/render/readme_blocks.py)",
            file=sys.stderr,
        )
    return len(hits)


def main(argv: Sequence[str], dispatch: Callable) -> int:
    """report.py readme FILE.md [--check | --typed]; dispatch(args) runs one report.py command."""
    check, typed_only = "--check" in argv, "--typed" in argv
    paths = [a for a in argv if a not in ("--check", "--typed")]
    if len(paths) != 1 or paths[0].startswith("-"):
        print("usage: report.py readme FILE.md [--check | --typed]", file=sys.stderr)
        return 2
    path = paths[0]
    old = user_files.read_text(path, MARKDOWN)
    typed = check_typed(path, old) if check or typed_only else 0
    if typed_only:
        if not typed:
            print(f"{path}: no measured figure typed outside the generated parts")
        return 1 if typed else 0
    try:
        new, markers = regenerate(path, dispatch)
    except MarkerError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if not check:
        if new != old:
            output_files.write(path, new)
        print(
            f"{path}: {len(markers)} generated parts, {'rewritten' if new != old else 'unchanged'}"
        )
        return 0
    if new == old:
        print(f"{path}: {len(markers)} generated parts, all up to date")
        return 1 if typed else 0
    old_lines, new_lines = old.split("\n"), new.split("\n")
    diff = list(
        difflib.unified_diff(
            old_lines, new_lines, f"{path} (committed)", f"{path} (regenerated)", lineterm=""
        )
    )
    changed = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old_lines, new_lines).get_opcodes():
        if tag != "equal":
            changed.update(range(i1 + 1, max(i2, i1 + 1) + 1))
    blocks = sorted(
        {
            (ln, text)
            for ln, text in markers
            if any(ln <= c <= _block_end(old_lines, ln) for c in changed)
        }
    )
    for ln, text in blocks:
        print(f"{path}:{ln}: generated part differs: {text}", file=sys.stderr)
    print("\n".join(diff))
    print(f"{path}: out of date; run gpubarrier report readme {path}", file=sys.stderr)
    return 1


def _block_end(lines: Sequence[str], start: int) -> int:
    """Last line (1-based) of the generated part whose marker is on line `start`."""
    if start - 1 < len(lines) and BLOCK_OPEN.match(lines[start - 1]):
        for j in range(start, len(lines)):
            if lines[j].strip() == BLOCK_CLOSE:
                return j + 1
    return start

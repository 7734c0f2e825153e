"""How every tool of gpubarrier_tools/ ends: one line on stderr and an exit status, never a Python traceback.

    from . import tool_main
    with tool_main.imports(__name__):     # only where a module outside the standard library is
        import matplotlib                 # imported at the top (plot.py)
    ...
    if __name__ == "__main__":
        tool_main.run(main)               # main(argv) returns the exit status (None: 0)

Exit statuses (README, "Exit codes"):
  0  done
  2  bad input: an InputError (gbcsv.CsvError, compare.CompareError, ...) names the file (and
     line), what was wrong and what is expected; a file that cannot be opened; a Python module
     the tool needs that this interpreter cannot import (which one, which interpreter, the fix);
     argparse's own usage errors are 2 as well
  1  a write error (a full disk, a full standard output): what could not be written and why;
     a bug in the tool: the exception's type, message and where it was raised, in one line; with
     GPUBARRIER_DEBUG=1 the full traceback follows
Argument errors (ArgumentParser below) are one line too, as the executable's: the option, what
was wrong, the closest valid names, and `see ... --help`; --help prints the whole help.
Messages start with the command the user typed (`gpubarrier report`, set by the executable in
GPUBARRIER_COMMAND), else the script's name.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import errno
import json
import os
import re
import stat
import sys
import traceback
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

# OSErrors that say an output could not be written, not that the tool is wrong.
WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO, errno.EFBIG}
# The package's folder, and the folder that holds it: the checkout's root, or share/gpubarrier of
# an install (beside configs/ and results/).
TOOLS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TOOLS_DIR)


class InputError(Exception):
    """Input a tool cannot use; the message names the file (and line), what was wrong and what is
    expected. `status` is the exit status (2: bad input)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


class WriteError(InputError):
    """An output that could not be written (status 1: not the input's fault, nor a bug)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, status=1)


def prog() -> str:
    return os.environ.get("GPUBARRIER_COMMAND") or os.path.basename(sys.argv[0] or "tool")


def one_line(text: object) -> str:
    return " ".join(str(text).split())


def shown(text: str) -> str:
    """`text` (a path, a glob, an argument) as a message shows it: as it is when printable, else
    quoted with its escapes ('a\\nb.csv'), so that a newline in a name neither splits the one line
    nor reads as a space."""
    text = str(text)
    return text if text.isprintable() else repr(text)


def _arguments_shown(message: str) -> str:
    """The message with every argument of this command that holds a newline, a tab or another
    unprintable character shown quoted (shown), wherever a tool named it as it is."""
    for arg in sorted({a for a in sys.argv[1:] if not a.isprintable()}, key=len, reverse=True):
        message = message.replace(arg, shown(arg))
    return message


def interpreter() -> str:
    """This Python, as a user would name it: its path and version."""
    v = sys.version_info
    return f"{sys.executable or 'python3'} (Python {v.major}.{v.minor}.{v.micro})"


def missing_module_fix(module: str | None) -> str:
    """What to do when `module` cannot be imported: install it for this interpreter, or point
    GPUBARRIER_PYTHON at one that has it."""
    top = (module or "?").split(".")[0]
    apt = {
        "matplotlib": "python3-matplotlib",
        "scipy": "python3-scipy",
        "numpy": "python3-numpy",
    }.get(top, f"python3-{top}")
    return (
        f"install it for that interpreter (apt-get install {apt}, or pip install {top} in "
        f"its environment) or set GPUBARRIER_PYTHON to a Python that has it"
    )


def missing_module_message(e: ImportError) -> str:
    """One line for a ModuleNotFoundError: a missing gpubarrier_tools/ module is a broken checkout, anything
    else a library this interpreter lacks."""
    name = getattr(e, "name", None) or str(e)
    top = name.split(".")[0]
    if os.path.exists(os.path.join(TOOLS_DIR, top + ".py")):
        return (
            f"cannot import {name} from {TOOLS_DIR}: the tools folder is incomplete "
            f"(restore it from the checkout, or set GPUBARRIER_TOOLS to a complete one)"
        )
    return (
        f"needs the Python module '{top}', which {interpreter()} cannot import: "
        + missing_module_fix(top)
    )


def _where(tb: types.TracebackType | None) -> str:
    frames = traceback.extract_tb(tb)
    if not frames:
        return "?"
    f = frames[-1]
    return f"{os.path.basename(f.filename) if os.path.isabs(f.filename) else f.filename}:{f.lineno}"


def report(e: BaseException) -> tuple[int, str] | tuple:
    """(exit status, the one line) for an exception that ends a tool."""
    if isinstance(e, InputError):
        return e.status, f"{prog()}: error: {one_line(_arguments_shown(str(e)))}"
    if isinstance(e, ModuleNotFoundError):
        return 2, f"{prog()}: error: this tool {missing_module_message(e)}"
    if isinstance(e, (FileNotFoundError, IsADirectoryError, PermissionError, NotADirectoryError)):
        what = shown(e.filename) if e.filename else "a file"
        return 2, f"{prog()}: error: {what}: {e.strerror or e}"
    if isinstance(e, OSError) and e.errno in WRITE_ERRNOS:  # a full disk, a read-only one
        return 1, f"{prog()}: error: cannot write {e.filename or 'an output'}: {e.strerror or e}"
    return 1, (
        f"{prog()}: internal error (a bug in the tool, please report it): "
        f"{type(e).__name__}: {one_line(e)} at {_where(e.__traceback__)} "
        f"(GPUBARRIER_DEBUG=1 prints the traceback)"
    )


def file_kind(mode: int) -> str:
    """What a file of this st_mode is, in a message's words: "character device", "FIFO",
    "socket", "block device", "directory", else "file"."""
    for test, kind in (
        (stat.S_ISDIR, "directory"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISSOCK, "socket"),
    ):
        if test(mode):
            return kind
    return "file"


def special_file(path: str, flag: str, links: bool = True) -> None:
    """The executable's rule for every file a tool writes: InputError (exit 2) naming `flag` (if
    any) and `path` when it exists and is no regular file (a directory; a device such as
    /dev/null, a FIFO or a socket, which a tool would write into or wait on for ever; with
    `links`, a symbolic link, which writing would replace), before anything is written."""
    try:
        info = os.lstat(path)
    except OSError:
        return
    named = f"{flag} '{shown(path)}'" if flag else f"'{shown(path)}'"
    if stat.S_ISLNK(info.st_mode):
        if links:
            target = ""
            with contextlib.suppress(OSError):
                target = f" to '{shown(os.readlink(path))}'"
            raise InputError(
                f"{named} is a symbolic link{target}, which writing would replace: "
                f"give the path of the file itself"
            )
        return
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{named} is a directory: name a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(
            f"{named} is a {file_kind(info.st_mode)}, not a regular file: a "
            f"gpubarrier tool writes only regular files (it replaces them whole); "
            f"give a file's path"
        )


def refuse_to_replace(path: str, flag: str, force: bool) -> None:
    """The executable's rule for --out: a file that already holds anything (a symlink, whose
    target is someone's file too) is replaced only with --force; InputError (exit 2) naming
    `flag`, the file and --force otherwise, before anything is written; a device, FIFO or
    socket is refused with or without --force (special_file)."""
    special_file(path, flag, links=False)
    if os.path.isdir(path):
        raise InputError(f"{flag} '{path}' is a directory: name a file")
    holds = os.path.islink(path) or (os.path.exists(path) and os.path.getsize(path) > 0)
    if holds and not force:
        raise InputError(
            f"{flag} '{path}' already exists and is not empty: replace it with "
            f"--force, or choose a new file"
        )


class ArgumentParser(argparse.ArgumentParser):
    """argparse with the executable's one-line errors: `PROG: error: --by 'sytem' is not one of
    system, ... (closest: system); see `PROG --help``, raised as InputError (exit 2), never the
    usage block. prog defaults to the command the user typed (prog())."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prog", prog())
        super().__init__(*args, **kwargs)

    def _options(self) -> list:
        return [o for a in self._actions for o in a.option_strings if o.startswith("--")]

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            name = "/".join(action.option_strings) or action.dest
            choices = [str(c) for c in action.choices]
            near = difflib.get_close_matches(str(value), choices, 3)
            raise argparse.ArgumentError(
                None,
                f"{name} '{value}' is not one of {', '.join(choices)}"
                + (f" (closest: {', '.join(near)})" if near else ""),
            )

    def parse_args(  # type: ignore[override]
        self, args: Any = None, namespace: Any = None
    ) -> argparse.Namespace:
        args, extras = self.parse_known_args(args, namespace)
        if extras:
            first = extras[0]
            if first.startswith("-"):
                near = difflib.get_close_matches(first.split("=", 1)[0], self._options(), 3)
                self.error(
                    f"unknown option '{first}'" + (f" (closest: {', '.join(near)})" if near else "")
                )
            self.error(f"unexpected argument '{first}'")
        return args

    def error(self, message: str) -> NoReturn:
        message = one_line(message)
        if message.startswith("argument "):  # argparse's "argument --syncs: invalid int value"
            message = message[len("argument ") :]
        typed = re.fullmatch(r"(\S+): invalid (\w+) value: (.*)", message)
        if typed:
            what = {"int": "an integer", "float": "a number"}.get(typed[2], f"a {typed[2]}")
            message = f"{typed[1]} {typed[3]}: expected {what}"
        raise InputError(f"{message}; see `{self.prog} --help`")


def package_json(path: str, what: str, parse: Callable[[Any], T], fix: str = "") -> T:
    """parse(the JSON of `path`), one of the package's own data files. A file that cannot be read
    or holds anything else (`parse` raises ValueError, KeyError, TypeError or AttributeError) ends
    the tool (exit 2) naming `what` and the file: the tools folder is incomplete, restored from
    the checkout (`fix`: ", or ..." where the file can be written again)."""
    try:
        with open(path, encoding="utf-8") as f:
            return parse(json.load(f))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        why = e.strerror if isinstance(e, OSError) else f"{type(e).__name__}: {e}"
        fail(
            InputError(
                f"cannot read {what} {path} ({why}): the tools folder is incomplete; restore it "
                f"from the checkout{fix}"
            )
        )


def fail(e: BaseException) -> NoReturn:
    """Prints the line for `e` (and with GPUBARRIER_DEBUG=1 its traceback) and exits."""
    status, line = report(e)
    if os.environ.get("GPUBARRIER_DEBUG") == "1":
        traceback.print_exception(type(e), e, e.__traceback__)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    print(line, file=sys.stderr)
    sys.exit(status)


class _Stdout:
    """sys.stdout whose write errors (a full disk, /dev/full, a closed standard output: `>&-`)
    are a WriteError naming standard output, not an OSError from wherever the tool happened to
    print. A closed standard output (Python's sys.stdout is None) fails at the first write; a
    tool that prints nothing does not notice it."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def _guard(self, name: str, *args: Any) -> None:
        if self._stream is None:
            if name == "flush":
                return None
            raise WriteError("cannot write to standard output: it is closed")
        try:
            return getattr(self._stream, name)(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise WriteError(f"cannot write to standard output: {e.strerror or e}") from None

    def write(self, text: str) -> None:
        return self._guard("write", text)

    def writelines(self, lines: Iterable[str]) -> None:
        return self._guard("writelines", lines)

    def flush(self) -> None:
        return self._guard("flush")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_stdout() -> None:
    """Points standard output at /dev/null, so that what is still buffered for the one that
    failed is not tried again (and reported by Python) at exit."""
    with contextlib.suppress(Exception):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno())  # type: ignore[union-attr]  # None: suppressed
    with contextlib.suppress(Exception):
        sys.stdout = open(os.devnull, "w")


def run(main: Callable[[list[str]], int | None], argv: list[str] | None = None) -> None:
    """Runs main(argv) (sys.argv[1:] by default) and exits with its status; every exception
    becomes one line (fail)."""
    if not isinstance(sys.stdout, _Stdout):
        sys.stdout = _Stdout(sys.stdout)
    try:
        status = main(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()  # a full standard output fails here, not silently at exit
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print(f"{prog()}: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # `... | head`: the reader has gone; nothing more to say
        with contextlib.suppress(Exception):
            sys.stdout = open(os.devnull, "w")
        sys.exit(0)
    except WriteError as e:
        _drop_stdout()
        fail(e)
    except Exception as e:  # noqa: BLE001 (this is the one place that turns them into a line)
        fail(e)
    sys.exit(status or 0)


@contextlib.contextmanager
def imports(module_name: str) -> Iterator:
    """Around a tool's top-level imports of libraries: when the tool is run as a program
    (`module_name` is "__main__"), a failed import is one line (fail); imported by another tool,
    the ImportError goes to that tool (html_report.py notes that it has no plots)."""
    try:
        yield
    except Exception as e:
        if module_name != "__main__":
            raise
        fail(e)

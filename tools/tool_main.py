"""How every tool of tools/ ends: one line on stderr and an exit status, never a Python traceback.

    import tool_main
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
  1  a bug in the tool: the exception's type, message and where it was raised, in one line; with
     GPUBARRIER_DEBUG=1 the full traceback follows
Messages start with the command the user typed (`gpubarrier report`, set by the executable in
GPUBARRIER_COMMAND), else the script's name.
"""
import contextlib
import os
import sys
import traceback

TOOLS_DIR = os.path.dirname(os.path.abspath(__file__))


class InputError(Exception):
    """Input a tool cannot use; the message names the file (and line), what was wrong and what is
    expected. `status` is the exit status (2: bad input)."""

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


def prog():
    return os.environ.get("GPUBARRIER_COMMAND") or os.path.basename(sys.argv[0] or "tool")


def one_line(text):
    return " ".join(str(text).split())


def interpreter():
    """This Python, as a user would name it: its path and version."""
    v = sys.version_info
    return f"{sys.executable or 'python3'} (Python {v.major}.{v.minor}.{v.micro})"


def missing_module_fix(module):
    """What to do when `module` cannot be imported: install it for this interpreter, or point
    GPUBARRIER_PYTHON at one that has it."""
    top = (module or "?").split(".")[0]
    apt = {"matplotlib": "python3-matplotlib", "scipy": "python3-scipy",
           "numpy": "python3-numpy"}.get(top, f"python3-{top}")
    return (f"install it for that interpreter (apt-get install {apt}, or pip install {top} in "
            f"its environment) or set GPUBARRIER_PYTHON to a Python that has it")


def missing_module_message(e):
    """One line for a ModuleNotFoundError: a missing tools/ module is a broken checkout, anything
    else a library this interpreter lacks."""
    name = getattr(e, "name", None) or str(e)
    top = name.split(".")[0]
    if os.path.exists(os.path.join(TOOLS_DIR, top + ".py")):
        return (f"cannot import {name} from {TOOLS_DIR}: the tools folder is incomplete "
                f"(restore it from the checkout, or set GPUBARRIER_TOOLS to a complete one)")
    return (f"needs the Python module '{top}', which {interpreter()} cannot import: "
            + missing_module_fix(top))


def _where(tb):
    frames = traceback.extract_tb(tb)
    if not frames:
        return "?"
    f = frames[-1]
    return f"{os.path.basename(f.filename) if os.path.isabs(f.filename) else f.filename}:{f.lineno}"


def report(e):
    """(exit status, the one line) for an exception that ends a tool."""
    if isinstance(e, InputError):
        return e.status, f"{prog()}: error: {one_line(e)}"
    if isinstance(e, ModuleNotFoundError):
        return 2, f"{prog()}: error: this tool {missing_module_message(e)}"
    if isinstance(e, (FileNotFoundError, IsADirectoryError, PermissionError, NotADirectoryError)):
        what = e.filename or "a file"
        return 2, f"{prog()}: error: {what}: {e.strerror or e}"
    return 1, (f"{prog()}: internal error (a bug in the tool, please report it): "
               f"{type(e).__name__}: {one_line(e)} at {_where(e.__traceback__)} "
               f"(GPUBARRIER_DEBUG=1 prints the traceback)")


def fail(e):
    """Prints the line for `e` (and with GPUBARRIER_DEBUG=1 its traceback) and exits."""
    status, line = report(e)
    if os.environ.get("GPUBARRIER_DEBUG") == "1":
        traceback.print_exception(type(e), e, e.__traceback__)
    with contextlib.suppress(Exception):
        sys.stdout.flush()
    print(line, file=sys.stderr)
    sys.exit(status)


def run(main, argv=None):
    """Runs main(argv) (sys.argv[1:] by default) and exits with its status; every exception
    becomes one line (fail)."""
    try:
        status = main(sys.argv[1:] if argv is None else argv)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print(f"{prog()}: interrupted", file=sys.stderr)
        sys.exit(130)
    except BrokenPipeError:  # `... | head`: the reader has gone; nothing more to say
        with contextlib.suppress(Exception):
            sys.stdout = open(os.devnull, "w")
        sys.exit(0)
    except Exception as e:  # noqa: BLE001 (this is the one place that turns them into a line)
        fail(e)
    sys.exit(status or 0)


@contextlib.contextmanager
def imports(module_name):
    """Around a tool's top-level imports of libraries: when the tool is run as a program
    (`module_name` is "__main__"), a failed import is one line (fail); imported by another tool,
    the ImportError goes to that tool (html_report.py notes that it has no plots)."""
    try:
        yield
    except Exception as e:  # noqa: BLE001
        if module_name != "__main__":
            raise
        fail(e)

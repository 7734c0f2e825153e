"""The Python interpreter the CLI tests run gpubarrier_tools/cli/*.py with: ctest may start them with a pyenv
python3 that lacks Debian's python3-matplotlib / python3-scipy, which serve /usr/bin/python3."""
import os
import subprocess
import sys


def python_with(module):
    """An interpreter that can import `module`, or None."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(exe) and subprocess.run([exe, "-c", f"import {module}"],
                                                  capture_output=True).returncode == 0:
            return exe
    return None


def python_with_matplotlib():
    """An interpreter with matplotlib; the test fails without one (scripts/setup installs it)."""
    exe = python_with("matplotlib")
    if exe is None:
        sys.exit("FAIL: no python3 with matplotlib (scripts/setup installs python3-matplotlib)")
    return exe

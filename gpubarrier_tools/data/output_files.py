"""How every tool of gpubarrier_tools/ writes a file: whole or not at all, never through a link, never into
a device, a FIFO or a socket.

    from . import output_files
    output_files.write(path, text_or_bytes)              # a page, a plot, a rewritten document
    output_files.write(path, data, replace_link=True)    # --force: the link itself is replaced

The data goes to a temporary file in the same folder (a rename is atomic only within one file
system), is synced, then renamed over `path`: a reader, a kill or a full disk sees the old file
or the new one, never a part. A file that is replaced keeps its permission bits. A failure to
write (a full disk, a read-only folder) removes the temporary file, leaves `path` as it was and
is a WriteError naming `path` (exit 1); a `path` that is no regular file is an InputError (exit 2)
before anything is written (tool_main.special_file).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile

from . import tool_main


def _mode(path: str) -> int:
    """The permission bits `path` has, or those a new file gets under the umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write(path: str, data: str | bytes, replace_link: bool = False) -> None:
    """Writes `data` (str, as UTF-8, or bytes) as the whole of `path` (see the module's text);
    a symbolic link at `path` is refused unless `replace_link` (then the link, never its
    target, is replaced)."""
    tool_main.special_file(path, "", links=not replace_link)
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.dirname(path) or "."
    temp = None
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, _mode(path))
        os.replace(temp, path)
        temp = None
    except OSError as e:
        what = f"cannot write {tool_main.shown(path)}: {e.strerror or e}"
        if e.errno in tool_main.WRITE_ERRNOS:  # a full disk: nothing wrong with the input
            raise tool_main.WriteError(f"{what} (the file is as it was)") from None
        raise tool_main.InputError(f"{what}: name a file in a folder that can be written") from None
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)

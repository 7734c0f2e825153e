"""How every tool of gpubarrier_tools/ reads a file a user names: bounded, as UTF-8 text, a BOM dropped.

    from . import user_files
    with user_files.Lines(path, "a gpubarrier CSV") as lines:   # str lines, newline kept
        for fields in csv.reader(lines): ...                     # lines.line: the line number
    for line, fields in user_files.csv_rows(path, "a raw sample file"): ...
    text = user_files.read_text(path, "a `gpubarrier topo --json` file")

The bounds are stated here, once, for every reader: no gpubarrier file comes near them (a CSV
of a whole sweep is a few MB, one of a million rows about 600 MB), while a file that does is
not one (a log, an archive, /dev/zero, a pipe that never ends) and would otherwise fill the
memory. A file over a bound is refused with FileError (exit 2), one line naming the file, the
bound and what was expected, before more than the bound is read:
  MAX_CSV_BYTES   a file read line by line (CSVs): its size, or for a pipe or a device (which
                  state no size) what has been read from it
  MAX_TEXT_BYTES  a file read whole (JSON, logs, Markdown)
  MAX_LINE_BYTES  one line of either
A UTF-8 byte order mark at the start of a file is dropped, so that a CSV saved by a spreadsheet
reads as the same columns. Text that is not UTF-8 is refused naming the line and the byte.
"""

from __future__ import annotations

import csv
import fcntl
import os
import stat
from collections.abc import Generator, Iterator
from typing import BinaryIO, Literal

from . import tool_main

MAX_CSV_BYTES = 1 << 30  # 1 GiB
MAX_TEXT_BYTES = 64 << 20  # 64 MiB
MAX_LINE_BYTES = 1 << 20  # 1 MiB
BOM = b"\xef\xbb\xbf"


class FileError(tool_main.InputError):
    """A user's file that cannot be read: names the file (and line), what was wrong and what is
    expected (exit 2)."""


def size_text(n: int) -> str:
    """1 GiB, 64 MiB, 1.5 GiB: a bound or a size as a user reads it."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} bytes"


def special_kind(path: str) -> str:
    """ "FIFO", "character device", ... for a path (links followed) that is no regular file, else
    "" (a regular file, a folder, or nothing there)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""
    return "" if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else tool_main.file_kind(mode)


def _open_without_waiting(path: str) -> BinaryIO:
    """`path` open for reading in binary. A named FIFO is opened without waiting for a writer
    (a plain open would wait for ever): one that no program writes reads as an empty file."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class Lines:
    """The lines of `path` as text, read at most `limit` bytes and MAX_LINE_BYTES per line; a
    context manager and an iterator (once). `expected` says what the file should be ("a
    gpubarrier CSV"); every refusal is `error` (FileError or a subclass) and ends with it.
    `errors` as for bytes.decode ("strict": refused naming the line; "replace" for text shown
    as it is)."""

    def __init__(
        self,
        path: str,
        expected: str,
        limit: int = MAX_CSV_BYTES,
        error: type[Exception] = FileError,
        errors: str = "strict",
    ) -> None:
        self.path, self.name, self.expected = path, tool_main.shown(path), expected
        self.limit, self.error, self.errors = limit, error, errors
        self.line = 0
        self._file: BinaryIO = None  # type: ignore[assignment]  # opened by __enter__

    def __enter__(self) -> Lines:
        try:
            self._file = _open_without_waiting(self.path)
        except OSError as e:
            raise self.error(f"{self.name}: cannot open: {e.strerror}") from None
        info = os.fstat(self._file.fileno())
        self.regular, self.kind = stat.S_ISREG(info.st_mode), tool_main.file_kind(info.st_mode)
        size = info.st_size
        if self.regular and size > self.limit:
            self._file.close()
            raise self.error(
                f"{self.name}: {size_text(size)} ({size} bytes), larger than the "
                f"{size_text(self.limit)} a gpubarrier tool reads from one file: expected "
                f"{self.expected}, which is far smaller; split it, or keep the rows you need"
            )
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self._file.close()
        return False

    def __iter__(self) -> Iterator:
        return self._lines()

    def _lines(self) -> Iterator[str]:
        f, read, name = self._file, 0, self.name
        while True:
            data = f.readline(MAX_LINE_BYTES + 1)
            if not data:
                return
            self.line += 1
            read += len(data)
            if len(data) > MAX_LINE_BYTES:
                what = "" if self.regular else f" (a {self.kind}, which may never end)"
                raise self.error(
                    f"{name}:{self.line}: line longer than "
                    f"{size_text(MAX_LINE_BYTES)}{what}: expected {self.expected}, "
                    f"whose lines are far shorter"
                )
            if read > self.limit:
                raise self.error(
                    f"{name}: more than {size_text(self.limit)} read from this "
                    f"{self.kind}, the most a gpubarrier tool reads from one file: "
                    f"expected {self.expected}, which is far smaller"
                )
            if self.line == 1 and data.startswith(BOM):
                data = data[len(BOM) :]
            try:
                yield data.decode("utf-8", self.errors)
            except UnicodeDecodeError as e:
                at = read - len(data) + e.start
                raise self.error(
                    f"{name}:{self.line}: not UTF-8 text ({e.reason} at byte {at}): "
                    f"expected {self.expected}"
                ) from None


def read_text(
    path: str, expected: str, error: type[Exception] = FileError, errors: str = "strict"
) -> str:
    """The whole text of `path` (at most MAX_TEXT_BYTES; Lines), its line ends read as "\\n" as
    Python's text files read them."""
    with Lines(path, expected, MAX_TEXT_BYTES, error, errors) as lines:
        return "".join(lines).replace("\r\n", "\n").replace("\r", "\n")


def csv_rows(path: str, expected: str, error: type[Exception] = FileError) -> Generator:
    """(line number, fields) of each non-empty CSV record of `path` (the header first), read
    through Lines; a record that is not valid CSV is `error` naming its line."""
    with Lines(path, expected, error=error) as lines:
        reader = csv.reader(lines)
        try:
            for fields in reader:
                if fields:
                    yield reader.line_num, fields
        except csv.Error as e:
            raise error(
                f"{lines.name}:{reader.line_num}: not valid CSV ({e}): expected {expected}"
            ) from None


def csv_dicts(path: str, expected: str, error: type[Exception] = FileError) -> tuple[list, list]:
    """(header, [(line number, {column: text})]) of a small CSV (csv_rows; a BOM dropped); a
    record whose field count differs from the header's is `error` naming its line."""
    rows, header = [], None
    for line, fields in csv_rows(path, expected, error):
        if header is None:
            header = fields
        elif len(fields) != len(header):
            raise error(
                f"{tool_main.shown(path)}:{line}: {len(fields)} fields, expected "
                f"{len(header)} (the header's columns): expected {expected}"
            )
        else:
            rows.append((line, dict(zip(header, fields))))
    return header or [], rows

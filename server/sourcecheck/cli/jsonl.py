"""JSON Lines: one session per line, read a line at a time.

A file named ``*.jsonl`` (or any input with ``--jsonl``) holds one session per line:

* lines end at ``\\n``; a ``\\r`` just before it is part of the line ending (``\\r\\n``),
  a ``\\r`` elsewhere is part of the line (JSON reads it as whitespace);
* a final newline ends the last line, it does not start another; a last line without one
  is a line all the same;
* a blank line (nothing but spaces, tabs and ``\\r``) holds no session and is skipped: no
  report for it, but it is counted, so that every line keeps its number;
* each other line is checked as a session of its own, as if it were the whole input: a line
  that is not UTF-8, or longer than the size limit, is reported (exit 2) and the lines
  after it are still checked.

A file is read a line at a time: memory is that of its largest line, however large the file.

A large file is checked in parts (a Dask partition each, docs/examples/dask_recipe.py): a
part is the lines that *begin* at a byte offset in ``[start, stop)``, a line beginning at 0
or just after a ``\n``. Each line begins at one offset, so consecutive ranges hold each line
once, whatever their offsets: one begun before ``start`` and running past it is the part's
before. :func:`line_ranges` cuts a file into such ranges at line beginnings, each with the
number of its first line, reading the file once in blocks (never a whole line in memory).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple, overload

import sourcecheck.disk as disk  # the module alone: the package imports this one (api.py)

SUFFIX = ".jsonl"
CHUNK = 1 << 20  # what is read at a time of a line too long to check, to skip it


def is_jsonl(name: str) -> bool:
    """Whether a file's name says it holds JSON Lines."""
    return name.lower().endswith(SUFFIX)


@overload
def session_of(line: str) -> str | None: ...
@overload
def session_of(line: bytes) -> bytes | None: ...
@overload
def session_of(line: str | bytes) -> str | bytes | None: ...
def session_of(line: str | bytes) -> str | bytes | None:
    """The session a line holds: the line without its ending (``\\n`` or ``\\r\\n``); None
    for a blank line."""
    if isinstance(line, str):
        if line.endswith("\n"):
            line = line[:-2] if line.endswith("\r\n") else line[:-1]
        return line if line.strip(" \t\r") else None
    if line.endswith(b"\n"):
        line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
    return line if line.strip(b" \t\r") else None


def open_lines(name: str) -> BinaryIO | None:
    """A regular file opened to be read a line at a time; None when it cannot be (a reader
    of files then says why: missing, a directory, a pipe, a device). Opened without
    blocking (``disk.open_regular``): a FIFO, whatever its name, is refused at once, never
    waited on."""
    try:
        fd = disk.open_regular(name)
    except disk.ReadRefused:
        return None
    return os.fdopen(fd, "rb", buffering=1 << 16)


def read_lines(handle: BinaryIO, limit: int, part: LineRange | None = None) -> Iterator[tuple[int, bytes | None, int]]:
    """``(number, line, size)`` for each line of ``handle`` (1-based), its ending kept; the
    line is None (and its size counted without keeping it) when it holds more than ``limit``
    bytes besides its ending. With ``part``, the lines that begin in its range, numbered
    from its ``first_line``."""
    number, position, stop = 0, 0, None
    if part is not None:
        number, position, stop = part.first_line - 1, begin(handle, part.start), part.stop
    while stop is None or position < stop:
        line = handle.readline(limit + 2)
        if not line:
            return
        number += 1
        ending = 2 if line.endswith(b"\r\n") else 1 if line.endswith(b"\n") else 0
        if len(line) - ending <= limit:
            position += len(line)
            yield number, line, len(line)
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = handle.readline(CHUNK)
            if not line:
                break
            size += len(line)
        position += size
        yield number, None, size


class LineRange(NamedTuple):
    """A part of a JSON Lines file: the lines that begin at a byte offset in ``[start,
    stop)``, the first of them line ``first_line`` of the file."""

    start: int
    stop: int
    first_line: int = 1


def begin(handle: BinaryIO, start: int) -> int:
    """Where the first line beginning at ``start`` or after it begins (the end of the file
    when none does), ``handle`` left there; a line before it is skipped a block at a time."""
    if start <= 0:
        handle.seek(0)
        return 0
    handle.seek(start - 1)
    position = start - 1
    while True:
        block = handle.readline(CHUNK)
        position += len(block)
        if not block or block.endswith(b"\n"):
            return position


def line_ranges(name: str, size: int) -> list[LineRange]:
    """Consecutive ranges of about ``size`` bytes covering the file, each starting where a
    line begins, with the number of its first line: each line of the file is in one of them
    (a line longer than ``size`` makes its range longer). None for an empty file; one range
    from 0 for a file that cannot be opened (reading it then says why)."""
    handle = open_lines(name)
    if handle is None:
        return [LineRange(0, 0)]
    with handle:
        total = os.fstat(handle.fileno()).st_size
        if not total:
            return []
        starts = [0]
        for nominal in range(size, total, max(size, 1)):
            if nominal > starts[-1]:
                at = begin(handle, nominal)
                if starts[-1] < at < total:
                    starts.append(at)
        ranges, first = [], 1
        for start, stop in zip(starts, [*starts[1:], total], strict=True):
            ranges.append(LineRange(start, stop, first))
            first += newlines(handle, start, stop)
        return ranges


def newlines(handle: BinaryIO, start: int, stop: int) -> int:
    """How many ``\n`` the bytes ``[start, stop)`` hold, read a block at a time."""
    handle.seek(start)
    count, left = 0, stop - start
    while left > 0:
        block = handle.read(min(CHUNK, left))
        if not block:
            break
        count, left = count + block.count(b"\n"), left - len(block)
    return count


__all__ = [
    "SUFFIX",
    "LineRange",
    "begin",
    "is_jsonl",
    "line_ranges",
    "newlines",
    "open_lines",
    "read_lines",
    "session_of",
]

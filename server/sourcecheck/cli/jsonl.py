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
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import BinaryIO, overload

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


def read_lines(handle: BinaryIO, limit: int) -> Iterator[tuple[int, bytes | None, int]]:
    """``(number, line, size)`` for each line of ``handle`` (1-based), its ending kept; the
    line is None (and its size counted without keeping it) when it holds more than ``limit``
    bytes besides its ending."""
    number = 0
    while True:
        line = handle.readline(limit + 2)
        if not line:
            return
        number += 1
        ending = 2 if line.endswith(b"\r\n") else 1 if line.endswith(b"\n") else 0
        if len(line) - ending <= limit:
            yield number, line, len(line)
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = handle.readline(CHUNK)
            if not line:
                break
            size += len(line)
        yield number, None, size


__all__ = ["SUFFIX", "is_jsonl", "open_lines", "read_lines", "session_of"]

"""Line tables and position conversion between string offsets and editor positions.

Offsets are indexes into a Python ``str`` (code points). Editors count columns in
UTF-16 code units (LSP's default), UTF-8 bytes or UTF-32 code points; lines break only
at ``\\n``, ``\\r\\n`` and ``\\r`` (never at U+2028, U+2029, ``\\x85``, ``\\v`` or ``\\f``,
which ``str.splitlines`` would also break at).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from enum import Enum
from itertools import accumulate

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Encoding(str, Enum):
    """How a column is counted."""

    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"


@dataclass(frozen=True, slots=True)
class Position:
    """A 0-based line and a column in some :class:`Encoding`."""

    line: int
    character: int


@dataclass(frozen=True, slots=True)
class Span:
    """A range of positions, end exclusive."""

    start: Position
    end: Position


def units(text: str, encoding: Encoding) -> int:
    """The length of ``text`` in ``encoding`` units (lone surrogates count as one unit)."""
    if encoding is Encoding.UTF32 or text.isascii():
        return len(text)
    if encoding is Encoding.UTF16:
        return len(text) + sum(1 for ch in text if ch > "\uffff")
    return len(text.encode("utf-8", "surrogatepass"))


def offset_in_units(text: str, count: int, encoding: Encoding) -> int:
    """The code point offset in ``text`` reached after ``count`` units (clamped)."""
    if encoding is Encoding.UTF32 or text.isascii():
        return min(count, len(text))
    used = 0
    for index, ch in enumerate(text):
        if used >= count:
            return index
        if encoding is Encoding.UTF16:
            used += 2 if ch > "\uffff" else 1
        else:
            code = ord(ch)
            used += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return len(text)


class LineTable:
    """Where each line of a text starts, with LSP's idea of a line break."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        if "\r" in text:
            self.starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
        else:
            # split + accumulate run in C: this is the common, large case.
            self.starts = [0, *accumulate(len(line) + 1 for line in text.split("\n")[:-1])]

    @property
    def line_count(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset) - 1

    def line_end(self, line: int) -> int:
        """The offset just past the line's text, before its line break."""
        if line + 1 >= len(self.starts):
            return len(self.text)
        end = self.starts[line + 1] - 1
        if end > self.starts[line] and self.text[end - 1] == "\r" and self.text[end] == "\n":
            end -= 1
        return end

    def line_text(self, line: int) -> str:
        return self.text[self.starts[line] : self.line_end(line)]

    def position(self, offset: int, encoding: Encoding = Encoding.UTF16) -> Position:
        offset = max(0, min(offset, len(self.text)))
        line = self.line_of(offset)
        start = self.starts[line]
        return Position(line, units(self.text[start:offset], encoding))

    def span(self, start: int, end: int, encoding: Encoding = Encoding.UTF16) -> Span:
        return Span(self.position(start, encoding), self.position(end, encoding))

    def offset(self, position: Position, encoding: Encoding = Encoding.UTF16) -> int:
        """The offset of an editor position, clamped to the text (as LSP asks)."""
        if position.line < 0:
            return 0
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[position.line]
        line = self.text[start : self.line_end(position.line)]
        return start + offset_in_units(line, max(0, position.character), encoding)

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
from enum import StrEnum
from itertools import accumulate

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class Encoding(StrEnum):
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
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
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


CHECKPOINT = 2048
"""On lines longer than this, column counts are kept every so many characters."""


class LineTable:
    """Where each line of a text starts, with LSP's idea of a line break."""

    __slots__ = ("text", "starts", "_checkpoints")

    def __init__(self, text: str, starts: list[int] | None = None) -> None:
        self.text = text
        # Per long line: UTF-16 and UTF-8 units before every CHECKPOINT-th character.
        self._checkpoints: dict[int, tuple[list[int], list[int]]] = {}
        if starts is not None:
            self.starts = starts
        elif "\r" in text:
            self.starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
        else:
            # split + accumulate run in C: this is the common, large case.
            self.starts = [0, *accumulate(len(line) + 1 for line in text.split("\n")[:-1])]

    def patched(self, text: str, start: int, end: int, inserted: str) -> LineTable:
        """The table of ``text``, which is this table's text with ``[start, end)`` replaced."""
        if "\r" in inserted or "\r" in self.text[max(0, start - 1) : end + 1]:
            return LineTable(text)  # a CR may pair with an LF across the edit: count afresh
        delta = len(inserted) - (end - start)
        first = self.line_of(start)
        last = self.line_of(end)
        inside = [start + m.end() for m in _LINE_BREAK.finditer(inserted)]
        tail = self.starts[last + 1 :]
        starts = self.starts[: first + 1] + inside + ([s + delta for s in tail] if delta else tail)
        table = LineTable(text, starts)
        # Column counts stay true on the long lines that end before the edit.
        table._checkpoints = {at: marks for at, marks in self._checkpoints.items() if self.line_end(self.line_of(at)) < start}
        return table

    def _marks(self, line_start: int) -> tuple[list[int], list[int]]:
        """UTF-16 and UTF-8 units before every CHECKPOINT-th character of a long line."""
        marks = self._checkpoints.get(line_start)
        if marks is None:
            line_end = self.line_end(self.line_of(line_start))
            utf16, utf8 = [0], [0]
            for at in range(line_start, line_end - CHECKPOINT + 1, CHECKPOINT):
                piece = self.text[at : at + CHECKPOINT]
                utf16.append(utf16[-1] + units(piece, Encoding.UTF16))
                utf8.append(utf8[-1] + units(piece, Encoding.UTF8))
            marks = self._checkpoints[line_start] = (utf16, utf8)
        return marks

    def _units_from_line_start(self, line_start: int, offset: int, encoding: Encoding) -> int:
        if offset - line_start <= CHECKPOINT or encoding is Encoding.UTF32:
            return units(self.text[line_start:offset], encoding)
        marks = self._marks(line_start)
        index = min((offset - line_start) // CHECKPOINT, len(marks[0]) - 1)
        base = marks[0][index] if encoding is Encoding.UTF16 else marks[1][index]
        return base + units(self.text[line_start + index * CHECKPOINT : offset], encoding)

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
        return Position(line, self._units_from_line_start(self.starts[line], offset, encoding))

    def span(self, start: int, end: int, encoding: Encoding = Encoding.UTF16) -> Span:
        return Span(self.position(start, encoding), self.position(end, encoding))

    def offset(self, position: Position, encoding: Encoding = Encoding.UTF16) -> int:
        """The offset of an editor position, clamped to the text (as LSP asks)."""
        if position.line < 0:
            return 0
        if position.line >= len(self.starts):
            return len(self.text)
        start = self.starts[position.line]
        end = self.line_end(position.line)
        count = max(0, position.character)
        if encoding is not Encoding.UTF32 and end - start > CHECKPOINT and count > CHECKPOINT:
            # A long line (a document's content): jump to the last checkpoint before the column.
            marks = self._marks(start)[0 if encoding is Encoding.UTF16 else 1]
            index = bisect_right(marks, count) - 1
            start, count = start + index * CHECKPOINT, count - marks[index]
        return start + offset_in_units(self.text[start:end], count, encoding)

"""Line tables and position conversion between string offsets and editor positions.

Offsets are indexes into a Python ``str`` (code points). Editors count columns in
UTF-16 code units (LSP's default), UTF-8 bytes or UTF-32 code points; lines break only
at ``\\n``, ``\\r\\n`` and ``\\r`` (never at U+2028, U+2029, ``\\x85``, ``\\v`` or ``\\f``,
which ``str.splitlines`` would also break at).
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import accumulate
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    from .text import Text

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NEWLINE = re.compile("\n")


class Encoding(StrEnum):
    """How a column is counted."""

    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"


@dataclass(frozen=True, slots=True)
class Position:
    """A 0-based line and a column in some :class:`Encoding` (the API's and ``--json``'s
    positions: UTF-16 code units unless told)."""

    line: int
    character: int

    def to_json(self) -> dict[str, int]:
        """``{"line": L, "character": C}``."""
        return {"line": self.line, "character": self.character}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Position:
        """The position ``to_json`` writes as ``value``."""
        return cls(value["line"], value["character"])


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


def line_starts(text: str, breaks: re.Pattern[str] = _NEWLINE) -> list[int]:
    """Where each line of ``text`` starts (lines broken at ``\n``, or at ``breaks``),
    found in C, a stretch at a time: a 12 MB session has 400,000 lines, and one call over
    all of them would hold the interpreter for 50 ms, while a request waits on another thread."""
    starts = [0]
    at, size = 0, LINE_SCAN
    while at < len(text):
        end = min(len(text), at + size)
        while end < len(text) and text[end - 1] == "\r":  # never between the halves of \r\n
            end += 1
        starts += map(re.Match.end, breaks.finditer(text, at, end))
        at = end
    return starts


LINE_SCAN = 1 << 18
"""Characters scanned for line breaks in one go (about 1 ms)."""


CHECKPOINT = 2048
"""On lines longer than this, column counts are kept every so many characters."""

MAX_PROBES = 20_000
"""Offsets kept for counting positions before a table's line starts are found (see LineTable)."""


class LineStarts(Sequence[int]):
    """Where each line starts, kept in blocks of about :attr:`SIZE` lines.

    An edit that adds a character moves the start of every later line. Stored flat, that
    is a Python loop over every line of the file (400,000 in a 12 MB session) on each
    keystroke; in blocks, each with its own shift, it is one block and the block shifts.
    Never changed once built: :meth:`replaced` makes a new one that shares the blocks the
    edit did not touch, so an earlier version's table stays true.
    """

    SIZE = 4096

    __slots__ = ("blocks", "shifts", "firsts", "lines_before")

    def __init__(self, starts: list[int]) -> None:
        size = self.SIZE
        self._set([starts[at : at + size] for at in range(0, len(starts), size)] or [[0]], None)

    def _set(self, blocks: list[list[int]], shifts: list[int] | None) -> None:
        self.blocks = blocks  # each block's starts, less its shift
        self.shifts = shifts if shifts is not None else [0] * len(blocks)
        self.firsts = [block[0] + shift for block, shift in zip(blocks, self.shifts, strict=True)]
        self.lines_before = list(accumulate(map(len, blocks), initial=0))

    def __len__(self) -> int:
        return self.lines_before[-1]

    @overload
    def __getitem__(self, line: int) -> int: ...
    @overload
    def __getitem__(self, line: slice) -> list[int]: ...
    def __getitem__(self, line: int | slice) -> int | list[int]:
        if isinstance(line, slice):
            return list(self)[line]
        if line < 0:
            line += len(self)
        if not 0 <= line < len(self):
            raise IndexError("line out of range")
        b = bisect_right(self.lines_before, line) - 1
        return self.blocks[b][line - self.lines_before[b]] + self.shifts[b]

    def __iter__(self) -> Iterator[int]:
        for block, shift in zip(self.blocks, self.shifts, strict=True):
            yield from (start + shift for start in block) if shift else block

    def line_of(self, offset: int) -> int:
        """The line holding ``offset``."""
        b = max(0, bisect_right(self.firsts, offset) - 1)
        return self.lines_before[b] + bisect_right(self.blocks[b], offset - self.shifts[b]) - 1

    def replaced(self, first: int, last: int, inside: list[int], delta: int) -> LineStarts:
        """The starts after an edit from line ``first`` to line ``last`` that put line
        starts ``inside`` (offsets in the new text) in between and moved later text by ``delta``."""
        lines_before = self.lines_before
        b_first, b_last = bisect_right(lines_before, first) - 1, bisect_right(lines_before, last) - 1
        merged = [
            start
            for b in range(b_first, b_last + 1)
            for start in (self.blocks[b] if not self.shifts[b] else [s + self.shifts[b] for s in self.blocks[b]])
        ]
        base = lines_before[b_first]
        merged = merged[: first - base + 1] + inside + [s + delta for s in merged[last - base + 1 :]]
        size = self.SIZE
        middle = [merged[at : at + size] for at in range(0, len(merged), size)] if len(merged) > 2 * size else [merged]
        new = LineStarts.__new__(LineStarts)
        later = [shift + delta for shift in self.shifts[b_last + 1 :]]
        new._set(
            self.blocks[:b_first] + middle + self.blocks[b_last + 1 :],
            self.shifts[:b_first] + [0] * len(middle) + later,
        )
        return new


class LineTable:
    """Where each line of a text starts, with LSP's idea of a line break.

    Finding every line's start in a 12 MB session takes some 40 ms (400,000 lines), and the
    first diagnostics after opening it need the positions of only a thousand offsets. So
    in a text without ``\r``, the starts are found when something first needs them all
    (an edit, an editor position to read, or :meth:`complete`, which the server calls once
    the first diagnostics are out); until then a position is counted in C, from the
    nearest offset asked before (:meth:`_counted`). Both give the same answers."""

    __slots__ = ("text", "_starts", "_checkpoints", "_probes", "_lock", "_line_count")

    def __init__(self, text: str | Text, starts: LineStarts | None = None) -> None:
        self.text = text
        # Per long line and encoding: the units before every CHECKPOINT-th character.
        self._checkpoints: dict[tuple[int, Encoding], list[int]] = {}
        self._starts = starts
        # The offsets positions were counted for, in order, with their lines and the
        # starts of those lines (used only while the starts are not found).
        self._probes: tuple[list[int], list[int], list[int]] = ([0], [0], [0])
        self._lock = threading.Lock()
        self._line_count = -1
        if starts is None and not (isinstance(text, str) and "\r" not in text):
            whole = str(text)  # a piece table is made whole once, to be scanned in C
            self._starts = LineStarts(line_starts(whole, _LINE_BREAK if "\r" in whole else _NEWLINE))

    @property
    def starts(self) -> LineStarts:
        starts = self._starts
        if starts is None:  # a str without \r (see __init__)
            starts = self._starts = LineStarts(line_starts(str(self.text)))
        return starts

    def complete(self) -> None:
        """Find every line's start now, if not done yet."""
        self.starts  # noqa: B018 (the property finds them)

    def _counted(self, offset: int) -> tuple[int, int]:
        """The line holding ``offset`` (clamped to the text) and the offset where it starts,
        counted from the nearest offset counted before, while the starts are not found."""
        text = str(self.text)
        offsets, lines, line_starts = self._probes
        with self._lock:  # the table is shared by the threads
            at = bisect_right(offsets, offset) - 1
            base = offsets[at]
            breaks = text.count("\n", base, offset)
            line = lines[at] + breaks
            start = text.rfind("\n", base, offset) + 1 if breaks else line_starts[at]
            if base != offset and len(offsets) < MAX_PROBES:
                offsets.insert(at + 1, offset)
                lines.insert(at + 1, line)
                line_starts.insert(at + 1, start)
        return line, start

    def patched(self, text: str | Text, start: int, end: int, inserted: str) -> LineTable:
        """The table of ``text``, which is this table's text with ``[start, end)`` replaced."""
        if "\r" in inserted or "\r" in self.text[max(0, start - 1) : end + 1]:
            return LineTable(str(text))  # a CR may pair with an LF across the edit: count afresh
        delta = len(inserted) - (end - start)
        first = self.line_of(start)
        last = self.line_of(end)
        inside = [start + m.end() for m in _LINE_BREAK.finditer(inserted)]
        table = LineTable(text, self.starts.replaced(first, last, inside, delta))
        # Column counts stay true on the long lines that end before the edit.
        table._checkpoints = {
            key: marks for key, marks in self._checkpoints.items() if self.line_end(self.line_of(key[0])) < start
        }
        return table

    def _marks(self, line_start: int, encoding: Encoding) -> list[int]:
        """``encoding``'s units before every CHECKPOINT-th character of a long line."""
        marks = self._checkpoints.get((line_start, encoding))
        if marks is None:
            if self._starts is None:  # no \r in the text (see __init__)
                end = str(self.text).find("\n", line_start)
                line_end = len(self.text) if end < 0 else end
            else:
                line_end = self.line_end(self.line_of(line_start))
            marks = [0]
            for at in range(line_start, line_end - CHECKPOINT + 1, CHECKPOINT):
                marks.append(marks[-1] + units(self.text[at : at + CHECKPOINT], encoding))
            self._checkpoints[line_start, encoding] = marks
        return marks

    def _units_from_line_start(self, line_start: int, offset: int, encoding: Encoding) -> int:
        if encoding is Encoding.UTF32:  # code points: counted without copying the line
            return offset - line_start
        if offset - line_start <= CHECKPOINT:
            return units(self.text[line_start:offset], encoding)
        marks = self._marks(line_start, encoding)
        index = min((offset - line_start) // CHECKPOINT, len(marks) - 1)
        return marks[index] + units(self.text[line_start + index * CHECKPOINT : offset], encoding)

    @property
    def line_count(self) -> int:
        if self._starts is None:
            if self._line_count < 0:
                self._line_count = str(self.text).count("\n") + 1
            return self._line_count
        return len(self._starts)

    def line_of(self, offset: int) -> int:
        if self._starts is None:
            return self._counted(max(0, min(offset, len(self.text))))[0]
        return self._starts.line_of(offset)

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
        if self._starts is None:
            line, line_start = self._counted(offset)
        else:
            line = self._starts.line_of(offset)
            line_start = self._starts[line]
        return Position(line, self._units_from_line_start(line_start, offset, encoding))

    def span(self, start: int, end: int, encoding: Encoding = Encoding.UTF16) -> Span:
        first = self.position(start, encoding)
        if self._starts is None and 0 <= start <= end <= len(self.text) and str(self.text).find("\n", start, end) < 0:
            # On one line (a text without \r breaks lines at \n only): counted on from the start.
            return Span(first, Position(first.line, first.character + units(self.text[start:end], encoding)))
        return Span(first, self.position(end, encoding))

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
            marks = self._marks(start, encoding)
            index = bisect_right(marks, count) - 1
            start, count = start + index * CHECKPOINT, count - marks[index]
        return start + offset_in_units(self.text[start:end], count, encoding)

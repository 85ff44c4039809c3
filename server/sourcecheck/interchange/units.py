"""Offsets counted as providers count them, turned into the code points a session counts.

A provider's offsets are in its own unit: code points (Python's ``str``), UTF-16 code units
(JavaScript's), or UTF-8 bytes (Gemini's). :class:`Measured` converts an offset in any of
them into a code point offset of the text, or says it falls inside a character. Texts a
session holds are LF only (``content`` with a ``\\r`` is an error): :func:`normalized` makes
them so and maps an offset of the original text to the same place in the normalized one.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Literal

Unit = Literal["code points", "UTF-16 code units", "UTF-8 bytes"]
UNITS: tuple[Unit, ...] = ("code points", "UTF-16 code units", "UTF-8 bytes")


def _width16(ch: str) -> int:
    return 2 if ord(ch) > 0xFFFF else 1


def _width8(ch: str) -> int:
    code = ord(ch)
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4


@dataclass
class Measured:
    """A text, and where each of its characters starts in each unit (found when first asked)."""

    text: str
    _starts: dict[Unit, list[int]] = field(default_factory=dict)

    def _table(self, unit: Unit) -> list[int]:
        table = self._starts.get(unit)
        if table is None:
            width = _width16 if unit == "UTF-16 code units" else _width8
            table = self._starts[unit] = [0, *accumulate(map(width, self.text))]
        return table

    def size(self, unit: Unit) -> int:
        """The text's length in ``unit``."""
        return len(self.text) if unit == "code points" else self._table(unit)[-1]

    def code_point(self, offset: int, unit: Unit) -> int | None:
        """The code point offset that ``offset`` (in ``unit``) is, or None when it lies outside
        the text or inside a character."""
        if unit == "code points":
            return offset if 0 <= offset <= len(self.text) else None
        table = self._table(unit)
        at = bisect_left(table, offset)
        return at if at < len(table) and table[at] == offset else None

    def nearest_code_point(self, offset: int, unit: Unit) -> int:
        """The code point offset nearest ``offset`` (clamped to the text), for choosing among
        places when the offsets themselves do not hold the cited text."""
        if unit == "code points":
            return min(max(offset, 0), len(self.text))
        return min(bisect_left(self._table(unit), offset), len(self.text))

    def holds(self, start: int, end: int, unit: Unit, text: str) -> bool:
        """Whether ``[start, end)`` in ``unit`` is exactly ``text``."""
        first, last = self.code_point(start, unit), self.code_point(end, unit)
        return first is not None and last is not None and self.text[first:last] == text


def normalized(text: str) -> tuple[str, Callable[[int], int]]:
    """``text`` with LF line breaks and no byte order mark, and the map from an offset of
    ``text`` (code points) to the same place in the result."""
    bom = 1 if text.startswith("\ufeff") else 0
    body = text[bom:]
    if "\r" not in body:
        return body, (lambda offset: max(offset - bom, 0))
    dropped: list[int] = []  # where each \r of a \r\n stood (in ``text``)
    at = body.find("\r\n")
    while at >= 0:
        dropped.append(at + bom)
        at = body.find("\r\n", at + 2)
    result = body.replace("\r\n", "\n").replace("\r", "\n")
    return result, (lambda offset: max(offset - bom - bisect_left(dropped, offset), 0))


def line_breaks_normalized(text: str) -> str:
    """``text`` with LF line breaks, as :func:`normalized` writes a document's."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


__all__ = ["UNITS", "Measured", "Unit", "line_breaks_normalized", "normalized"]

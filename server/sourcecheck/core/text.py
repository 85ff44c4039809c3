"""A document's text after edits, without copying it on every edit.

An editor sends one small edit per keystroke. Applied to a Python ``str``, each one copies
the whole text: 48 MB for a 12 MB session with one emoji in it (four bytes a character),
about 10 ms, the largest cost of a keystroke. A :class:`Text` is a piece table: the text of
an earlier version and the pieces typed since. Slicing it costs the slice; the whole
``str`` is made only when something needs it (and then kept), and after many edits.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate


class Text:
    """An immutable text, made of pieces of strings (``str(text)`` gives it whole)."""

    MAX_PIECES = 64
    """Past this many pieces the text is made whole again: slicing walks the pieces (and the
    whole text is copied twice over, some 50 ms for a 12 MB session with an emoji in it)."""

    __slots__ = ("_pieces", "_starts", "_full")

    def __init__(self, text: str) -> None:
        self._pieces: list[tuple[str, int, int]] = [(text, 0, len(text))]
        self._starts = [0, len(text)]  # where each piece starts, and the length at the end
        self._full: str | None = text

    def __len__(self) -> int:
        return self._starts[-1]

    def __str__(self) -> str:
        if self._full is None:
            self._full = "".join([string[begin:end] for string, begin, end in self._pieces])
        return self._full

    def __getitem__(self, index: int | slice) -> str:
        if self._full is not None:
            return self._full[index]
        if isinstance(index, int):
            at = index + len(self) if index < 0 else index
            if not 0 <= at < len(self):
                raise IndexError("text index out of range")
            return self._slice(at, at + 1)
        start, stop, step = index.indices(len(self))
        if step != 1:
            return str(self)[index]
        return self._slice(start, stop) if start < stop else ""

    def _slice(self, start: int, stop: int) -> str:
        starts, pieces = self._starts, self._pieces
        first = bisect_right(starts, start) - 1
        parts = []
        for i in range(first, len(pieces)):
            if starts[i] >= stop:
                break
            string, begin, end = pieces[i]
            lo, hi = begin + max(0, start - starts[i]), begin + min(end - begin, stop - starts[i])
            parts.append(string[lo:hi])
        return parts[0] if len(parts) == 1 else "".join(parts)

    def edited(self, start: int, end: int, inserted: str) -> Text:
        """This text with ``[start, end)`` replaced by ``inserted``."""
        source = [(self._full, 0, len(self._full))] if self._full is not None else self._pieces
        starts = [0, len(self._full)] if self._full is not None else self._starts
        pieces: list[tuple[str, int, int]] = []
        placed = False
        for i, (string, begin, stop) in enumerate(source):
            at = starts[i]
            after = at + stop - begin
            if after <= start:  # wholly before the edit
                pieces.append((string, begin, stop))
                continue
            if not placed:
                if at < start:
                    pieces.append((string, begin, begin + start - at))
                pieces.append((inserted, 0, len(inserted)))
                placed = True
            if after > end:  # what follows the edit
                pieces.append((string, begin + max(0, end - at), stop))
        if not placed:
            pieces.append((inserted, 0, len(inserted)))
        new = Text.__new__(Text)
        new._pieces = _coalesced(pieces)
        new._starts = list(accumulate((stop - begin for _, begin, stop in new._pieces), initial=0))
        new._full = None
        if len(new._pieces) > self.MAX_PIECES:
            whole = str(new)
            new._pieces, new._starts, new._full = [(whole, 0, len(whole))], [0, len(whole)], whole
        return new


SMALL = 4096
"""Pieces of at most this many characters side by side are joined into one: typing a new
annotation keystroke by keystroke stays one piece between the text before and after it,
however long it grows, and the text is not made whole on its 64th keystroke."""


def _coalesced(pieces: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """``pieces`` without empty ones, each run of small ones side by side made one."""
    found: list[tuple[str, int, int]] = []
    for string, begin, end in pieces:
        if end <= begin:
            continue
        if found and end - begin <= SMALL and found[-1][2] - found[-1][1] <= SMALL:
            before, first, last = found[-1]
            joined = before[first:last] + string[begin:end]
            found[-1] = (joined, 0, len(joined))
        else:
            found.append((string, begin, end))
    return found

"""An index of one long line, so that many boundaries on it cost what the line costs, not the
line's length each (a thousand refs on one 2 MB line were a thousand scans of it).

Every occurrence of a boundary string lines its words up with the line's words (``\\w+``, as
both are split): a word of the string with a mark or space on each side is a whole word of the
line; its first word (a mark after it) ends a word of the line, its last (a mark before it)
starts one; a string that is one word lies inside one. So a string is absent when one of its
words cannot be so placed in the line's vocabulary (a model's misspelt boundary, most often:
found in microseconds), and where it is present its occurrences are among the places of its
rarest word, each then compared (:meth:`LineIndex.find_all`). A string without a word (marks
alone) is not the index's to tell: it is looked for in the line.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

_WORD = re.compile(r"\w+")
MAX_CANDIDATES = 20_000
"""Places of a string's rarest word compared at most (past this, the line is searched)."""


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    offset: int  # in the string
    opens_left: bool  # at the string's start: the line's word may go on before it
    opens_right: bool  # at the string's end: the line's word may go on after it


def _tokens(needle: str) -> list[_Token]:
    return [_Token(m.group(), m.start(), m.start() == 0, m.end() == len(needle)) for m in _WORD.finditer(needle)]


class LineIndex:
    """The words of a line: their set and sorted (for prefixes), reversed and sorted (for
    suffixes), and, made when first needed, each word's places."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.vocabulary = frozenset(_WORD.findall(line))
        self.sorted = sorted(self.vocabulary)
        self.reversed = sorted(word[::-1] for word in self.vocabulary)
        self._places: dict[str, list[int]] | None = None

    def _starts_some(self, prefix: str) -> bool:
        at = bisect_left(self.sorted, prefix)
        return at < len(self.sorted) and self.sorted[at].startswith(prefix)

    def _ends_some(self, suffix: str) -> bool:
        backwards = suffix[::-1]
        at = bisect_left(self.reversed, backwards)
        return at < len(self.reversed) and self.reversed[at].startswith(backwards)

    def _placeable(self, token: _Token) -> bool:
        if token.opens_left and token.opens_right:
            return len(self.vocabulary) > 5000 or any(token.text in word for word in self.vocabulary)
        if token.opens_left:
            return self._ends_some(token.text)
        if token.opens_right:
            return self._starts_some(token.text)
        return token.text in self.vocabulary

    def absent(self, needle: str) -> bool:
        """Whether ``needle`` surely does not occur in the line (False: it may)."""
        return not all(self._placeable(token) for token in _tokens(needle))

    def places(self) -> dict[str, list[int]]:
        """Where each word of the line starts (made once)."""
        if self._places is None:
            found: dict[str, list[int]] = {}
            for match in _WORD.finditer(self.line):
                found.setdefault(match.group(), []).append(match.start())
            self._places = found
        return self._places

    def find_all(self, needle: str, most: int) -> tuple[list[int], int] | None:
        """Where ``needle`` occurs (the first ``most``, and how many, up to ``most + 1``), from
        the places of its rarest whole word; None when it has no whole word, or that word is too
        common to be worth it (the line is then searched)."""
        whole = [token for token in _tokens(needle) if not token.opens_left and not token.opens_right]
        if not whole:
            return None
        places = self.places()
        rarest = min(whole, key=lambda token: len(places.get(token.text, ())))
        candidates = places.get(rarest.text, [])
        if len(candidates) > MAX_CANDIDATES:
            return None
        found: list[int] = []
        count = 0
        line = self.line
        for place in candidates:
            start = place - rarest.offset
            if start >= 0 and line.startswith(needle, start):
                count += 1
                if len(found) < most:
                    found.append(start)
                elif count > most:
                    break
        return found, min(count, most + 1)


__all__ = ["LineIndex", "MAX_CANDIDATES"]

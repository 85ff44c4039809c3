"""One edit of a text, and one way to apply edits: every repair (``fixes.py``), insertion
(``insert.py``), sync (``accept.py``), incremental re-parse (``incremental.py``) and the
editor's code actions are replacements of ``[start, end)`` of a text by another text, in
offsets of that text."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class TextEdit(NamedTuple):
    """Replace the text's ``[start, end)`` with ``text``."""

    start: int
    end: int
    text: str


def apply(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with non-overlapping edits made (in any order given)."""
    pieces, at = [], 0
    for start, end, new in sorted(edits, key=lambda edit: (edit[0], edit[1])):
        pieces += [text[at:start], new]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


__all__ = ["TextEdit", "apply"]

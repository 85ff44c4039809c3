"""Refs made from text: the coordinates that cite exactly a span of a document.

A writer selects text (in the editor, or names it on the command line) and gets the ref
whose resolved text is exactly that span: the start boundary is the shortest string that
begins at the span's first character and is unique on its line, the end boundary the
shortest that ends at its last character and is unique on its line, each stopping at a
word boundary when that costs only a few characters more. Some spans cannot be cited (a
boundary that no extension makes unique, a span that starts or ends at a line break): then
the reason says why and what to do.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from .display import visible
from .extend import extend_left, extend_right
from .occurrences import occurrences
from .session import Document


@dataclass(frozen=True, slots=True)
class Boundaries:
    """A ref's coordinates: 1-based lines and boundary strings."""

    path: str
    start_line: int
    start_str: str
    end_line: int
    end_str: str

    def as_json(self) -> dict[str, Any]:
        """The ref as it is written in a session."""
        return {
            "path": self.path,
            "start": {"line": self.start_line, "str": self.start_str},
            "end": {"line": self.end_line, "str": self.end_str},
        }


@dataclass(frozen=True, slots=True)
class Uncitable:
    """Why a span cannot be cited, said for a person."""

    reason: str


def cite(document: Document, start: int, end: int) -> Boundaries | Uncitable:
    """The ref that cites the content characters ``[start, end)`` of ``document``."""
    content = document.content
    if not 0 <= start < end <= len(content):
        return Uncitable("select some text of the document to cite it")
    if content[start] == "\n" or content[end - 1] == "\n":
        return Uncitable("a ref cannot start or end at a line break; start and end the selection on a character")
    first_line, last_line = document.line_of_offset(start), document.line_of_offset(end - 1)
    lines = document.lines
    start_column = start - lines.starts[first_line - 1]
    end_column = end - lines.starts[last_line - 1]  # exclusive
    start_str = extend_right(lines[first_line - 1], start_column, 1)
    if start_str is None:
        return Uncitable(
            f"no string that starts at {_shown(content, start)} is unique on line {first_line}: "
            "SourceCheck has no other way to tell the occurrences apart. Start the selection elsewhere"
        )
    end_str = extend_left(lines[last_line - 1], end_column, 1)
    if end_str is None:
        return Uncitable(
            f"no string that ends at {_shown(content, end - 1)} is unique on line {last_line}: "
            "SourceCheck has no other way to tell the occurrences apart. End the selection elsewhere"
        )
    return Boundaries(document.path, first_line, start_str, last_line, end_str)


def _shown(content: str, at: int) -> str:
    return "`" + visible(content[at : at + 12]) + ("…`" if at + 12 < len(content) else "`")


@dataclass(frozen=True, slots=True)
class Occurrence:
    """Where a text occurs in a document: content offset and 1-based line."""

    offset: int
    line: int


def find_text(document: Document, text: str, line: int | None = None) -> list[Occurrence]:
    """Every occurrence of ``text`` in the document (overlapping ones too), or only those
    that start on ``line``."""
    found = []
    content = document.content
    at = content.find(text)
    while at >= 0 and text:
        where = document.line_of_offset(at)
        if line is None or where == line:
            found.append(Occurrence(at, where))
        at = content.find(text, at + 1)
    return found


def nearest_line(document: Document, text: str) -> tuple[int, str] | None:
    """The line most like ``text`` (its first line, for a text of several), for a message
    when the text is not found: (1-based line, its text)."""
    wanted = text.split("\n")[0]
    best: tuple[float, int] | None = None
    for number, line in enumerate(document.lines, start=1):
        if not line.strip():
            continue
        matcher = difflib.SequenceMatcher(None, wanted, line, autojunk=False)
        if matcher.real_quick_ratio() <= (best[0] if best else 0):
            continue
        block = matcher.find_longest_match(0, len(wanted), 0, len(line))
        score = block.size / max(1, len(wanted))
        if best is None or score > best[0]:
            best = (score, number)
    if best is None or best[0] == 0:
        return None
    return best[1], document.lines[best[1] - 1]


def resolves_to(document: Document, boundaries: Boundaries) -> str | None:
    """The text a ref with these boundaries cites in ``document`` (None: it does not resolve)."""
    lines = document.lines
    if not 1 <= boundaries.start_line <= boundaries.end_line <= len(lines):
        return None
    starts, ends = (
        occurrences(lines[boundaries.start_line - 1], boundaries.start_str),
        occurrences(lines[boundaries.end_line - 1], boundaries.end_str),
    )
    if starts[1] != 1 or ends[1] != 1:
        return None
    begin = document.offset(boundaries.start_line, starts[0][0])
    finish = document.offset(boundaries.end_line, ends[0][0] + len(boundaries.end_str))
    return document.content[begin:finish] if begin < finish else None

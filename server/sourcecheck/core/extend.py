"""Fix computations, pure: what a boundary string should become, never how to edit a file.

Extending an ambiguous boundary (docs/rules.md, "Quick fix"): ``start.str`` grows to the right
so that its first character stays where the span starts, ``end.str`` grows to the left
so that its last character stays where the span ends. Which occurrence the author meant
cannot be known, so there is one extension per occurrence that can be made unique.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .occurrences import occurrences
from .session import Boundary, CheckedRef

MAX_EXTENSION = 400
"""Characters a boundary is extended by at most to make it unique (each longer string is
counted on the whole line: past this, a line of repeats would cost its length squared)."""
WORD_SLACK = 12
"""How many characters longer than the shortest unique string a word-boundary stop may be:
a boundary that stops inside a word ("with s", "the e") reads as noise, so the current word
is finished when it ends within this many characters; a longer word keeps the shortest."""


@dataclass(frozen=True, slots=True)
class Extension:
    """A longer boundary string that makes one occurrence unique."""

    side: str  # "start" or "end"
    new_str: str
    column: int  # first character of the boundary's occurrence on its line
    occurrence: int  # 1-based, in line order
    span_text: str | None  # the ref's text with this fix, when the other side resolves
    forward: bool | None  # the span would run forward (start not after end); None if unknown


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _word_end(line: str, at: int) -> bool:
    return at >= len(line) or not (_is_word(line[at - 1]) and _is_word(line[at]))


def _word_start(line: str, at: int) -> bool:
    return at <= 0 or not (_is_word(line[at - 1]) and _is_word(line[at]))


def _unique(line: str, text: str) -> bool:
    """Whether ``text`` occurs exactly once on ``line`` (two scans in C at most)."""
    first = line.find(text)
    return first >= 0 and line.find(text, first + 1) < 0


def _shortest(lengths: range, unique: Callable[[int], bool]) -> int | None:
    """The first of ``lengths`` (increasing) for which ``unique`` holds, searched by halving:
    a longer string holding a unique one is unique too (it occurs no more often)."""
    low, high = 0, len(lengths)
    if high == 0 or not unique(lengths[-1]):
        return None
    while low < high:
        middle = (low + high) // 2
        if unique(lengths[middle]):
            high = middle
        else:
            low = middle + 1
    return lengths[low]


def extend_right(line: str, column: int, length: int) -> str | None:
    """The shortest string starting at ``column``, at least ``length`` long (and at most
    :data:`MAX_EXTENSION` longer), unique on ``line``.

    The current word is finished (a stop at its end) when that costs at most WORD_SLACK
    characters more.
    """
    lengths = range(column + length, min(len(line), column + length + MAX_EXTENSION) + 1)
    end = _shortest(lengths, lambda stop: _unique(line, line[column:stop]))
    if end is None:
        return None
    for nicer in range(end, min(end + WORD_SLACK, len(line)) + 1):
        if _word_end(line, nicer):
            return line[column:nicer]
    return line[column:end]


def extend_left(line: str, end: int, length: int) -> str | None:
    """The shortest string ending at ``end`` (exclusive), at least ``length`` long (and at most
    :data:`MAX_EXTENSION` longer), unique on ``line``; it starts at the start of its word when
    that costs at most WORD_SLACK more."""
    sizes = range(length, min(end, length + MAX_EXTENSION) + 1)
    size = _shortest(sizes, lambda size: _unique(line, line[end - size : end]))
    if size is None:
        return None
    start = end - size
    for nicer in range(start, max(start - WORD_SLACK, 0) - 1, -1):
        if _word_start(line, nicer):
            return line[nicer:end]
    return line[start:end]


def extensions(ref: CheckedRef, side: str) -> list[Extension]:
    """One extension per occurrence of an ambiguous boundary that can be made unique."""
    boundary: Boundary | None = ref.start if side == "start" else ref.end
    other: Boundary | None = ref.end if side == "start" else ref.start
    document = ref.document
    if boundary is None or other is None or document is None or boundary.occurrence_count < 2:
        return []
    lines = document.lines
    line = lines[boundary.line - 1]
    found: list[Extension] = []
    meant = whole_word_occurrences(line, boundary.str, side, boundary.occurrences)
    for index, column in enumerate(boundary.occurrences):
        if column not in meant:
            continue
        if side == "start":
            new = extend_right(line, column, len(boundary.str))
        else:
            new = extend_left(line, column + len(boundary.str), len(boundary.str))
        if new is None:
            continue
        span_text, forward = _span_with(ref, side, column, lines, other)
        if forward is False:
            continue  # the span would run backward: not an occurrence the author can mean
        found.append(Extension(side, new, column, index + 1, span_text, forward))
    return found


def whole_word_occurrences(line: str, text: str, side: str, columns: Sequence[int]) -> set[int]:
    """The occurrences of a boundary string that start (for ``start``; end, for ``end``) where
    a word does, as the string does: ``"is"`` at the start of a span is not the end of
    ``"This"``. All of them when none does (the string was written inside a word on purpose)."""
    if side == "start":
        edge = text[:1]
        keep = {c for c in columns if not (_is_word(edge) and c > 0 and _is_word(line[c - 1]))}
    else:
        edge = text[-1:]
        stop = len(text)
        keep = {c for c in columns if not (_is_word(edge) and c + stop < len(line) and _is_word(line[c + stop]))}
    return keep or set(columns)


def _span_with(
    ref: CheckedRef, side: str, column: int, lines: Sequence[str], other: Boundary
) -> tuple[str | None, bool | None]:
    """The ref's text if ``side`` sat at ``column`` (None when the other side is unresolved)."""
    assert ref.start is not None and ref.end is not None
    if ref.start.line > ref.end.line:
        return None, None  # lines-reversed stands either way; the extension is not to blame
    if not other.resolved:
        return None, True if ref.start.line < ref.end.line else None
    if side == "start":
        start_line, start_col = ref.start.line, column
        end_line, end_col = ref.end.line, ref.end.column + len(ref.end.str)
    else:
        start_line, start_col = ref.start.line, ref.start.column
        end_line, end_col = ref.end.line, column + len(ref.end.str)
    if start_line == end_line:
        if start_col >= end_col:
            return None, False
        return lines[start_line - 1][start_col:end_col], True
    middle = lines[start_line : end_line - 1]
    return "\n".join([lines[start_line - 1][start_col:], *middle, lines[end_line - 1][:end_col]]), True


def span_resolves(lines: Sequence[str], start: tuple[int, str], end: tuple[int, str]) -> bool:
    """Whether a ref with these (line, str) boundaries resolves against ``lines``."""
    columns = []
    for line, text in (start, end):
        if not 1 <= line <= len(lines) or not text:
            return False
        found, count = occurrences(lines[line - 1], text)
        if count != 1:
            return False
        columns.append(found[0])
    if start[0] > end[0]:
        return False
    return start[0] < end[0] or columns[0] < columns[1] + len(end[1])


def preferred(found: list[Extension]) -> Extension | None:
    """The extension to mark preferred: the only one whose span runs forward, if just one does."""
    forward = [e for e in found if e.forward]
    return forward[0] if len(forward) == 1 else None


MAX_CANDIDATES = 2000
MAX_SCANNED = 20_000
"""Characters of a line whose words completion makes boundaries of: on a longer line, the words
of its first stretch."""
MAX_TRIED = 600
"""Words completion tries to make a boundary of on one line (each a few scans of the line)."""


def boundary_candidates(line: str, side: str) -> list[tuple[str, int]]:
    """(string, column) for every shortest boundary unique on ``line`` that starts a word
    (for ``start``) or ends one (for ``end``), in line order: what completion offers (for the
    words of the line's first :data:`MAX_SCANNED` characters)."""
    found: dict[str, int] = {}
    tried = 0
    for i, ch in enumerate(line[:MAX_SCANNED]):
        if tried >= MAX_TRIED:
            break
        if side == "start":
            if _is_word(ch) and (i == 0 or not _is_word(line[i - 1])):
                tried += 1
                text = extend_right(line, i, 1)
                if text is not None:
                    found.setdefault(text, i)
        else:
            end = i + 1
            if _is_word(ch) and (end == len(line) or not _is_word(line[end])):
                tried += 1
                text = extend_left(line, end, 1)
                if text is not None:
                    found.setdefault(text, end - len(text))
        if len(found) >= MAX_CANDIDATES:
            break
    return sorted(found.items(), key=lambda item: item[1])

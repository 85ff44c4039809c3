"""Where a broken ref was meant to be, as a whole: the boundaries that repair every mistake in it.

A ref can hold two mistakes (a line off and a string re-cased, both boundary strings written
otherwise); each part is found as the near-miss rules find it (core/nearmiss.py), and a
placement is a pair of them under which the ref resolves, running forward:

- a boundary that resolves is kept, or moved with the other by as many lines when the other
  is found that far away and its own string is found there too (a ref whose lines are off
  resolves by chance at one end: moving the other end alone would make it cite other lines);
- a boundary that does not is one of its candidates (:func:`~.nearmiss.candidates`: its
  line's text written otherwise, the lines around it, nearest first); one with a safe
  candidate on its line (the same characters but for quotes, case, spacing) is taken to be
  that, as its own fix writes it.

Placements are ranked by what they change: keeping the ref's shape (as many lines apart as
written) first, then the fewest mistakes repaired (its lines moved, each string written
otherwise), the fewest lines moved, the least guessed; only the best rank is
offered (several of it: the author chooses). A placement is **safe** only when every part it
changes is a safe candidate. Pure: lines and boundaries in, placements out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .nearmiss import NearMiss, lines_holding_once
from .refs import Boundaries, resolves_to
from .session import Boundary, CheckedRef, Document, Side

State = Literal["resolved", "missing", "out", "other"]
MAX_PLACEMENTS = 5
CLOSE = 2
"""Lines away a boundary is moved alone (the ref's shape changed) whatever its string; farther
only a string that tells (:func:`_telling`)."""


@dataclass(frozen=True, slots=True)
class Part:
    """One boundary of a placement: where it is and what it says."""

    side: Side
    line: int
    text: str
    safe: bool  # kept as written, or a safe candidate
    rank: int  # how much it guesses (NearMiss.rank)
    why: str
    edited: bool  # its line or its string is not what the ref has
    written: bool = True  # False: another finding's own (safe) fix writes it, not this one
    shifted: bool = False  # a boundary that resolves, moved with the other


@dataclass(frozen=True, slots=True)
class RefPlacement:
    """Both boundaries of a repaired ref, and the text it then cites."""

    start: Part
    end: Part
    cited: str

    @property
    def parts(self) -> tuple[Part, Part]:
        return self.start, self.end

    @property
    def safe(self) -> bool:
        return all(part.safe for part in self.parts if part.edited)

    @property
    def moved(self) -> tuple[Part, ...]:
        """The parts this placement's edits write."""
        return tuple(part for part in self.parts if part.edited and part.written)


def state(boundary: Boundary, document: Document) -> State:
    """How a checked boundary stands: resolved, not found on its line, on a line past the
    document, or another failure (empty, ambiguous) that no placement repairs."""
    if not 1 <= boundary.line <= len(document.lines):
        return "out"
    if boundary.str and boundary.occurrence_count == 1:
        return "resolved"
    if boundary.str and boundary.occurrence_count == 0:
        return "missing"
    return "other"


def own_fix(document: Document, boundary: Boundary) -> NearMiss | None:
    """The safe candidate of a boundary not found on its line (its one repair, evident)."""
    if state(boundary, document) != "missing":
        return None
    misses = document.near_misses(boundary.line, boundary.str, boundary.side)
    return misses[0] if len(misses) == 1 and misses[0].safe else None


def _kept(boundary: Boundary) -> Part:
    return Part(boundary.side, boundary.line, boundary.str, True, 0, "", False)


def _options(document: Document, boundary: Boundary) -> list[Part]:
    """What a boundary may be: itself when it resolves; its safe candidate when it has one
    (written by its own fix); else every candidate."""
    found = state(boundary, document)
    if found == "resolved":
        return [_kept(boundary)]
    evident = own_fix(document, boundary)
    if evident is not None:
        return [Part(boundary.side, evident.line, evident.text, True, evident.rank, evident.why, True, False)]
    if found == "missing":
        misses = document.candidates(boundary.line, boundary.str, boundary.side)
        return [Part(boundary.side, m.line, m.text, m.safe, m.rank, m.why, True) for m in misses]
    if found == "out":
        lines = lines_holding_once(document.content, document.line_starts, boundary.str)
        return [Part(boundary.side, n, boundary.str, False, 0, f"it is on line {n}", True) for n in lines]
    return []


def _shifted(document: Document, boundary: Boundary, deltas: set[int]) -> list[Part]:
    """A resolving boundary moved by each of ``deltas`` lines, where its string (or the same
    characters but for quotes, case, spacing) is found once there."""
    lines = document.lines
    found = []
    for delta in sorted(deltas, key=lambda d: (abs(d), d)):
        number = boundary.line + delta
        if delta == 0 or not 1 <= number <= len(lines):
            continue
        line = lines[number - 1]
        first = line.find(boundary.str)
        if first >= 0 and line.find(boundary.str, first + 1) < 0:
            found.append(
                Part(boundary.side, number, boundary.str, False, 0, f"it is on line {number} too", True, True, True)
            )
            continue
        matches = document.survey().written_otherwise(number, boundary.str)
        if len(matches) == 1 and line.count(matches[0]) == 1:
            why = f"it is on line {number} too, written otherwise"
            found.append(Part(boundary.side, number, matches[0], False, 1, why, True, True, True))
    return found


def _cited(document: Document, start: Part, end: Part) -> str | None:
    if start.line > end.line:
        return None
    return resolves_to(document, Boundaries(document.path, start.line, start.text, end.line, end.text))


def placements(ref: CheckedRef) -> list[RefPlacement]:
    """The best-ranked placements of a ref that does not resolve (see the module's docstring)."""
    document, start, end = ref.document, ref.start, ref.end
    if document is None or start is None or end is None:
        return []
    return document.placed(start, end, lambda: _placements(document, start, end))


def _placements(document: Document, start: Boundary, end: Boundary) -> list[RefPlacement]:
    starts, ends = _options(document, start), _options(document, end)
    if not starts or not ends:
        return []
    if state(start, document) == "resolved":
        starts += _shifted(document, start, {part.line - end.line for part in ends if part.edited})
    if state(end, document) == "resolved":
        ends += _shifted(document, end, {part.line - start.line for part in starts if part.edited})
    found: dict[tuple[int, str, int, str], RefPlacement] = {}
    for first in starts:
        for last in ends:
            cited = _cited(document, first, last) if first.edited or last.edited else None
            if cited is not None:
                found.setdefault((first.line, first.text, last.line, last.text), RefPlacement(first, last, cited))
    both_broken = state(start, document) != "resolved" and state(end, document) != "resolved"
    credible = _credible(list(found.values()), start, end, both_broken)
    if not credible:
        return []
    ranked = [(_rank(p, start, end), _distance(p, start, end), index, p) for index, p in enumerate(credible)]
    best = min(rank for rank, _, _, _ in ranked)
    return [p for rank, _, _, p in sorted(ranked, key=lambda r: r[1:3]) if rank == best][:MAX_PLACEMENTS]


def _telling(text: str) -> bool:
    """Whether a string found on a line says much of where it is: eight characters or more
    (``is``, ``the`` or ``on a`` is on many lines by chance)."""
    return len(text.strip()) >= 8


def _reshaped(placement: RefPlacement, start: Boundary, end: Boundary) -> bool:
    return placement.end.line - placement.start.line != end.line - start.line


def _line_of(part: Part, start: Boundary, end: Boundary) -> int:
    return (start if part.side == "start" else end).line


def _credible(found: list[RefPlacement], start: Boundary, end: Boundary, both_broken: bool) -> list[RefPlacement]:
    """The placements whose evidence holds. A boundary that resolves moved with the other only
    where its string tells (``"is"`` is on many lines by chance); where one is found that
    way, no boundary is moved alone either (the two readings conflict). A boundary moved
    alone to another line (the ref's shape changed) more than :data:`CLOSE` lines only where
    its string tells; and when
    neither boundary resolves as written, only where the other was found on its own line
    with a string that tells (its own safe fix): else only the two found as far off as each
    other (a ref moved whole) say where it was meant to be."""
    weak = [p for p in found if any(part.shifted and not _telling(part.text) for part in p.parts)]
    kept = []
    for placement in found:
        if placement in weak:
            continue
        if _reshaped(placement, start, end):
            if weak:
                continue
            moved = [p for p in placement.moved if p.line != (start if p.side == "start" else end).line]
            if not all(_telling(p.text) or abs(p.line - _line_of(p, start, end)) <= CLOSE for p in moved):
                continue
            if both_broken and not any(not p.written and _telling(p.text) for p in placement.parts):
                continue
        kept.append(placement)
    return kept


def _rank(placement: RefPlacement, start: Boundary, end: Boundary) -> tuple[bool, int, int]:
    """What a placement changes, least first: whether it keeps the ref's shape (as many
    lines apart as written, a boundary that resolves moved with the other only where its
    string tells), how many mistakes it repairs (the lines moved, each string written
    otherwise), and how much its parts guess."""
    first, last = placement.start, placement.end
    reshaped = _reshaped(placement, start, end)
    moved = first.line != start.line or last.line != end.line
    return reshaped, moved + (first.text != start.str) + (last.text != end.str), first.rank + last.rank


def _distance(placement: RefPlacement, start: Boundary, end: Boundary) -> int:
    return abs(placement.start.line - start.line) + abs(placement.end.line - end.line)


def carried_by(ref: CheckedRef, placement: RefPlacement) -> Side | None:
    """The boundary whose finding carries a placement's fix: the first it writes that has a
    finding of its own (one fix, on one finding, however many mistakes it repairs)."""
    document = ref.document
    assert document is not None and ref.start is not None and ref.end is not None
    moved = [part.side for part in placement.moved]
    for boundary in (ref.start, ref.end):
        if boundary.side in moved and state(boundary, document) in ("missing", "out"):
            return boundary.side
    return moved[0] if moved else None


__all__ = ["MAX_PLACEMENTS", "Part", "RefPlacement", "carried_by", "own_fix", "placements", "state"]

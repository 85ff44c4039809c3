"""Incrementality, in one place: what an edit lets the next analysis keep.

An editor sends one small edit per keystroke; a big session is re-analysed from the
previous version's analysis, keeping what the edit cannot have changed:

- the tree: an edit between the brackets of ``documents`` / ``annotations`` re-parses the
  region between the nearest untouched items and moves the items after it (:func:`reparse`);
  whitespace typed between other values moves them (:func:`respaced`). The previous tree
  is *handed over*, never shared: it is moved out and raises if read (an analysis is
  immutable, and the previous version's must not report text it never had);
- the plain JSON value: spliced along the edited array's path only (:func:`with_splice`);
- the check: annotations whose values are the very same objects, citing documents that did
  not change, are not checked again, wherever they moved (the memo layer, ``memo.py``);
- what an edge built for the previous version (a diagnostic's line and column) while the
  edit cannot have moved it (:class:`Derivation`, :class:`Placement`).

Anything else is a full analysis.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import itemgetter
from typing import Any

from .jsonlex import after_ws
from .jsonnodes import (
    NOT_MOVED,
    DuplicateKey,
    JArray,
    JObject,
    Node,
    PartialList,
    Path,
    Splice,
    SyntaxIssue,
    Tail,
    move,
    node_end,
    node_start,
)
from .lazy import JLazy, holds_duplicates
from .positions import LineTable
from .schema import SESSION
from .syntax import MAX_ISSUES, Resumed, Tree, brace_debt, resume_items, to_python
from .text import Text

Edit = tuple[int, int, str]
"""An edit of a text, as :class:`~.edits.TextEdit` is (a plain tuple here: made per keystroke)."""


def merged(first: Edit, then: Edit, text: str | Text) -> Edit:
    """One edit doing what ``first`` and then ``then`` did, to reach ``text``: from the
    earlier of their starts to the later of their ends, replaced by that span of ``text``
    (what lies between two distant edits is replaced by itself)."""
    start, end, inserted = first
    first_end = start + len(inserted)  # the end of ``first``'s text, in the text between the two
    then_start, then_end, then_inserted = then
    # The span of both in the text between; its end is after ``first``'s text, so shifted
    # by what ``first`` added in the text before both, and by what ``then`` added in ``text``.
    span_end = max(first_end, then_end)
    before_end = span_end - (first_end - end)
    after_end = span_end + len(then_inserted) - (then_end - then_start)
    begin = min(start, then_start)
    return begin, before_end, text[begin:after_end]


# --- the tree ------------------------------------------------------------------------


LOOKAHEAD = 8192
"""Characters past the point where a parse of part of a text stops that it may have looked
at (a string's possible closing quote, a value skipped whole): that part is parsed too."""


def reparse(old: Tree, text: str | Text, start: int, end: int, inserted: int) -> Tree | None:
    """The tree of ``text`` (the old text with ``[start, end)`` replaced by ``inserted``
    characters), reusing the old tree when the edit falls inside a session array
    (``documents`` / ``annotations``) between its brackets.

    The *damaged region* runs from the last untouched item before the edit to the first
    untouched item after it, however many items it holds (none, one, many, a half-typed
    one with its syntax issues): it is parsed again, by the array loop resumed there, which
    stops at the first untouched item it reaches at an item's start (from there the parse
    is the old one, moved). The old tree is moved out (see :class:`~.syntax.Tree`): its
    nodes are the new tree's now. Returns None when the edit needs a full parse.
    """
    if not isinstance(old.root, JObject) or len(old.issues) >= MAX_ISSUES:
        return None
    for array_path, array in _element_arrays(old.root):
        if array.start < start and end < array.end:
            return _reparse_items(old, text, array_path, array, start, end, inserted - (end - start))
    return respaced(old, text, start, end, inserted)


def _reparse_items(
    old: Tree, text: str | Text, array_path: Path, array: JArray, start: int, end: int, delta: int
) -> Tree | None:
    region = _damaged_region(old, array, start, end)
    if region is None:
        return None
    first, after, begin, limit = region
    items = array.items
    close = array.end - 1 + delta  # the array's `]` in the new text
    stop_from = limit + delta if limit < array.end else close  # the first item kept as it was
    root = old.root
    assert isinstance(root, JObject)
    ended_inside = root.truncated  # the file ended inside the array: parsed to the end
    window_end = len(text) if ended_inside else min(len(text), stop_from + 2 * LOOKAHEAD)
    window = text[begin:window_end]  # a str, from a piece table too
    parser = _resume(window, window_end == len(text), array_path, array, first, after, begin, delta, stop_from)
    if len(parser.issues) >= MAX_ISSUES:
        return None
    last = root.members[-1].value is array if array_path == ("annotations",) else False
    outcome = _kept_from(parser, items, window, window_end < len(text), begin, delta, close, ended_inside, last)
    if outcome is None:
        return None
    keep_from, ends = outcome
    new_items = parser.array.items
    if any(type(item) is JLazy and holds_duplicates(item, window, item.start) for item in new_items):
        return None
    for item in new_items:
        move(item, begin)
    # Everything after the array moves; the array grows; its untouched items move.
    if ends is None and not ended_inside:
        _shift(root, array.end - 1, array.end - 1, delta, array)
        array.end += delta
    elif ends is None:  # the file still ends inside the array, after the region
        array.end += delta
        root.end += delta
    else:  # the array is the root's last value, and the file's end moved into it or out of it
        array.end = begin + parser.stopped
        root.end, root.truncated = ends
    kept = items[keep_from:]
    move_tail(array, first, keep_from, len(new_items), delta)  # the items after the region move
    if first + len(new_items) != keep_from:  # and are renumbered
        for index, item in enumerate(kept, first + len(new_items)):
            if type(item) is JLazy:
                item.path = array_path + (index,)
    array.items = items[:first] + new_items + kept
    array.dropped = parser.array.dropped
    values = [item.value if type(item) is JLazy else to_python(item) for item in new_items]
    issues = [SyntaxIssue(issue.start + begin, issue.end + begin, issue.message) for issue in parser.issues]
    splice = Splice(array_path, first, keep_from - first, values, parser.array.dropped, ends is not None)
    # The keys the region's objects hold twice (their nodes moved with the items).
    return Tree(text, old.hand_over(), issues, parser.duplicates, splice)


def _damaged_region(old: Tree, array: JArray, start: int, end: int) -> tuple[int, int, int, int] | None:
    """The region an edit of ``[start, end)`` in ``array`` damaged: the index of its first item,
    of the first untouched item after the edit, where it starts, and where it may end (the
    first item decoded in one go after the edit); None when what the old text holds broken is
    not all inside it (parsing the region again would not tell all)."""
    items = array.items
    # The items kept as they are: those before the region end before the edit (the last of
    # them decoded in one go: its parse cannot depend on what follows it); those after it
    # begin after the edit.
    first = bisect_right(items, start, key=node_end)
    while first > 0 and type(items[first - 1]) is not JLazy:
        first -= 1
    after = bisect_left(items, end, key=node_start)
    begin = items[first - 1].end if first > 0 else array.start + 1  # where the region starts
    # (up to the first item decoded in one go after it, where a missing comma is reported)
    limit = next((items[i].start for i in range(after, len(items)) if type(items[i]) is JLazy), array.end)
    if any(
        not (begin <= issue.start and (issue.end <= limit or issue.start == limit and issue.end == limit + 1))
        for issue in old.issues
    ) or any(not (begin <= dup.first_key.start and _end_of(dup) <= limit) for dup in old.duplicates):
        return None  # (so must a key seen twice: a half-typed item that took the next one's keys)
    return first, after, begin, limit


def _resume(
    window: str,
    to_the_end: bool,
    array_path: Path,
    array: JArray,
    first: int,
    after: int,
    begin: int,
    delta: int,
    stop_from: int,
) -> Resumed:
    """The parser's array loop resumed on ``window`` (the text from the region's start, to the
    file's end when ``to_the_end``), stopping at the first untouched item decoded in one go."""
    items = array.items
    stops = []
    for index in range(after, len(items)):
        at = items[index].start + delta - begin
        if at + LOOKAHEAD > len(window) and not to_the_end:
            break
        if type(items[index]) is JLazy:
            stops.append(at)
    if to_the_end:  # before the region, the open braces of the objects around the array
        debt = len(array_path) + brace_debt(window)
    else:
        debt = _region_brace_debt(window, stop_from - begin)
    return resume_items(window, array.start - begin, array_path, first, frozenset(stops), SESSION, debt)


def _kept_from(
    parser: Resumed,
    items: list[Node],
    window: str,
    windowed: bool,
    begin: int,
    delta: int,
    close: int,
    ended_inside: bool,
    last: bool,
) -> tuple[int, tuple[int, bool] | None] | None:
    """Where the resumed parse joined the old one: the index of the first old item kept, and
    (when the file's end moved into the array or out of it) the root's new end and whether the
    file ends inside it; None when the rest of the file changed meaning (a full parse)."""
    stopped = parser.stopped
    if parser.reached_end:  # the file ends in the array (an item being typed at its end)
        if not last or windowed or stopped != len(window):
            return None
        return len(items), (begin + len(window), True)
    if parser.resynced >= 0:
        return bisect_left(items, parser.resynced + begin - delta, key=node_start), None
    if stopped + begin == close + 1 and not ended_inside:  # closed by its `]`, as before
        return len(items), None
    if last:  # closed elsewhere, the file ending inside it before: the rest is the root's `}`
        after = after_ws(window, stopped)
        if windowed or not window.startswith("}", after) or after_ws(window, after + 1) < len(window):
            return None
        return len(items), (begin + after + 1, False)
    return None  # the array now closes elsewhere: the rest of the file changed meaning


def _end_of(duplicate: DuplicateKey) -> int:
    return (duplicate.value or duplicate.key).end


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _region_brace_debt(window: str, stop: int) -> int:
    """The brace debt of the whole text (see ``Parser.brace_debt``), from a window that
    starts where the region does and holds the first untouched item's line from ``stop``.

    Outside the region the text is as it was, valid: what comes before the region and what
    comes after it balance. The region's strings are paired with the quotes on the line of
    the first untouched item (a string left open pairs with them), so the region is counted
    with that line, and that line's own count from ``stop`` is taken away."""
    line_end = len(window)
    for brk in ("\n", "\r"):
        found = window.find(brk, stop)
        if 0 <= found < line_end:
            line_end = found
    return brace_debt(window[:line_end]) - brace_debt(window[stop:line_end])


def respaced(old: Tree, text: str | Text, start: int, end: int, inserted: int) -> Tree | None:
    """The tree after an edit that only adds or removes whitespace between values (a line
    break typed between two annotations, an indent changed): the same values, moved.

    In valid JSON every value is set off by a bracket, comma or colon, so whitespace
    between values cannot join or split one; within a string or number it would."""
    if (
        old.issues
        or old.duplicates
        or not _JSON_SPACE.fullmatch(old.source[start:end])
        or not _JSON_SPACE.fullmatch(text[start : start + inserted])
    ):
        return None
    node = old.root
    while isinstance(node, (JObject, JArray)):
        if isinstance(node, JObject):
            children: list[Node | None] = [part for member in node.members for part in (member.key, member.value)]
        else:  # only the items next to the edit can hold it
            index = max(0, bisect_right(node.items, start, key=node_start) - 1)
            children = list(node.items[index : index + 2])
        around = [child for child in children if child is not None and child.start < end and start < child.end]
        if not around:
            break  # between this container's values: nothing is cut
        node = around[0]
        if not (isinstance(node, (JObject, JArray)) and node.start < start and end < node.end):
            return None  # inside a string, a number or a lazily decoded item
    _shift(old.root, start, end, inserted - (end - start), None)
    return Tree(text, old.hand_over(), [], [])


def _element_arrays(root: JObject) -> Iterator[tuple[Path, JArray]]:
    for member in root.members:
        if member.key.value in ("documents", "annotations") and isinstance(member.value, JArray):
            yield (member.key.value,), member.value
        elif member.key.value == "session" and isinstance(member.value, JObject):
            inner = member.value.member("documents")
            if inner is not None and isinstance(inner.value, JArray):
                yield ("session", "documents"), inner.value


def _shift(node: Node | None, start: int, end: int, delta: int, keep: Node | None) -> None:
    """Account for an edit of ``[start, end)`` that added ``delta`` characters: nodes
    after it move, those around it grow or shrink, those before it stay (and ``keep``)."""
    if node is None or node is keep or node.end <= start:
        return
    if node.start >= end:
        node.start += delta
    node.end += delta
    if isinstance(node, JLazy):
        node.expanded = None  # its inner nodes moved: parse them again when asked
    elif isinstance(node, JObject):
        for member in node.members:
            _shift(member.key, start, end, delta, keep)
            _shift(member.value, start, end, delta, keep)
    elif isinstance(node, JArray):
        items = node.items
        after = bisect_left(items, end, key=node_start)  # the first item after the edit
        for item in items[bisect_right(items, start, key=node_end) : after]:  # those that end before stay
            _shift(item, start, end, delta, keep)
        move_tail(node, after, after, 0, delta)  # the many items after the edit, quickly


def move_tail(array: JArray, first: int, keep_from: int, added: int, delta: int) -> None:
    """Move the items of ``array`` from ``keep_from`` on by ``delta``, the items ``[first,
    keep_from)`` being replaced by ``added`` others (indexes before the edit; the caller
    replaces them). The lazily decoded ones are moved by one addition to the array's
    :class:`Tail`, which they all hold: only the items between where the tail began and
    the edit are gone through (none while a writer types at one place), and the few that
    are not lazily decoded."""
    items = array.items
    tail = array.tail if array.tail is not None else Tail(len(items))
    gone = items[min(tail.first, first) : keep_from]  # out of the tail: kept before the edit, or replaced
    for item in items[tail.first : first]:  # the tail's items before the edit stay where they are
        if type(item) is JLazy:
            item.join(NOT_MOVED)
    if gone and tail.plain:
        tail.plain = [plain for plain in tail.plain if all(plain is not item for item in gone)]
    for item in items[keep_from : tail.first]:  # those after the edit not in the tail join it
        if type(item) is JLazy:
            item.join(tail)
        else:
            tail.plain.append(item)
    if delta:
        tail.delta += delta
        for plain in tail.plain:
            move(plain, delta)
    tail.first = first + added
    array.tail = tail


# --- the plain value -----------------------------------------------------------------


def with_splice(value: Any, splice: Splice) -> Any:
    """A copy of a plain ``value`` with the items of the array at ``splice.path`` replaced as
    the splice says; only the containers along the path are copied (in C), the rest is shared."""
    return _spliced(value, splice.path, splice)


def _spliced(value: Any, path: Path, splice: Splice) -> Any:
    if not path:
        items = value[: splice.first] + splice.items + value[splice.first + splice.count :]
        return PartialList(items, splice.unreadable) if splice.unreadable else items
    copy: Any = list(value) if isinstance(value, list) else dict(value)
    copy[path[0]] = _spliced(value[path[0]], path[1:], splice)
    return copy


# --- what the edit moved -------------------------------------------------------------

_BREAK = re.compile(r"[\r\n]")
_START, _END = itemgetter(0), itemgetter(1)


@dataclass(frozen=True, slots=True)
class Derivation:
    """The one edit that turned an earlier analysis's text into this one's."""

    previous: int  # the ``serial`` of the earlier analysis
    start: int  # the replaced range [start, end) in the earlier text
    end: int
    delta: int  # characters added (negative: removed)
    breaks_kept: bool  # no line break was added, removed or split: every line keeps its number

    @classmethod
    def of(cls, previous_serial: int, previous_text: str | Text, edit: Edit) -> Derivation:
        start, end, inserted = edit
        breaks_kept = not _BREAK.search(inserted) and not _BREAK.search(previous_text[max(0, start - 1) : end + 1])
        return cls(previous_serial, start, end, len(inserted) - (end - start), breaks_kept)

    def ending_before(self, extents: Sequence[tuple[int, int]]) -> int:
        """How many of ``extents`` (in the order of their starts) come first and all end before
        the edit (at its start at most): those it left where they were. By bisection, and the
        ends before it in C."""
        before = bisect_left(extents, self.start, key=_START)
        return bisect_right(list(accumulate(map(_END, extents[:before]), max)), self.start)

    def moved(self, extent: tuple[int, int]) -> tuple[int, int] | None:
        """Where an extent of the earlier text is now, if the edit left it whole."""
        if extent[1] <= self.start:
            return extent
        if extent[0] >= self.end:
            return (extent[0] + self.delta, extent[1] + self.delta)
        return None


class Placement:
    """Where an extent of the text something was built for (the previous version's, or
    this one's when ``same``) is in this text, by line and column, found with a few
    comparisons per extent: at the same place, or the same columns of lines moved by
    ``line_delta`` (the edit added or removed line breaks before it), or somewhere else."""

    def __init__(self, derived: Derivation | None, lines: LineTable, same: bool, line_count: int = -1) -> None:
        self.same = same
        self.derived = derived
        # The edit's range in the previous text and what it added, read by lines_moved (on
        # every keystroke, once per diagnostic).
        self.start, self.end, self.delta = (derived.start, derived.end, derived.delta) if derived else (0, 0, 0)
        # After the edit, columns are kept from the line after the one the edit ends on; line
        # numbers there moved by as many lines as the edit added (``line_count``: the table's
        # before the edit, if known).
        self.next_line = -1
        self.line_delta = 0 if derived is not None and derived.breaks_kept else None
        if derived is not None:
            line = lines.line_of(derived.end + derived.delta)
            self.next_line = lines.starts[line + 1] if line + 1 < lines.line_count else -1
            if self.line_delta is None and line_count >= 0:
                self.line_delta = lines.line_count - line_count

    def lines_moved(self, was: tuple[int, int], now: tuple[int, int]) -> int | None:
        """How many lines the extent ``was`` moved to be ``now``, its columns kept; None when
        its line or columns may have changed otherwise."""
        if self.same or self.derived is None:
            return 0 if self.same and was == now else None
        if now[1] <= self.start:
            return 0 if was == now else None  # before the edit: nothing before it changed
        # After the edit's line, where the edit moved it (Derivation.moved, written out: ``was``
        # after the edit, shifted by it; one before the edit cannot end after it now).
        next_line, delta = self.next_line, self.delta
        if 0 <= next_line <= now[0] and was[0] >= self.end and was[0] + delta == now[0] and was[1] + delta == now[1]:
            return self.line_delta
        return None

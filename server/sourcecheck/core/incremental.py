"""Incrementality, in one place: what an edit lets the next analysis keep.

An editor sends one small edit per keystroke; a big session is re-analysed from the
previous version's analysis, keeping what the edit cannot have changed:

- the tree: an edit inside one item of ``documents`` / ``annotations`` re-parses that item
  alone and moves the nodes after it (:func:`reparse`); whitespace typed between values
  moves them (:func:`respaced`). The previous tree is *handed over*, never shared: it is
  moved out and raises if read (an analysis is immutable, and the previous version's must
  not report text it never had);
- the plain JSON value: copied along the edited path only (:func:`with_item`);
- the check: annotations whose values are the very same objects, citing documents that did
  not change, are not checked again (the memo types below, used by ``rules.py``);
- what an edge built for the previous version (a diagnostic's line and column) while the
  edit cannot have moved it (:class:`Derivation`, :class:`Placement`).

Anything else is a full analysis.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .positions import LineTable
from .syntax import (
    ELEMENT_ARRAYS,
    MAX_ISSUES,
    JArray,
    JLazy,
    JObject,
    Node,
    Path,
    SyntaxIssue,
    Tree,
    _Parser,
    move,
    node_end,
    node_start,
    to_python,
)
from .text import Text

if TYPE_CHECKING:
    from .session import Annotation, Document, Finding, Ref

Edit = tuple[int, int, str]
"""An edit of a text: the replaced range ``[start, end)`` and the inserted text."""


# --- the tree ------------------------------------------------------------------------


def reparse(old: Tree, text: str | Text, start: int, end: int, inserted: int) -> Tree | None:
    """The tree of ``text`` (the old text with ``[start, end)`` replaced by ``inserted``
    characters), reusing the old tree when the edit falls inside one decoded session item.

    The item is decoded again; if it still ends where it did (shifted), nothing else can
    have changed meaning, and every later node just moves. The old tree is moved out (see
    :class:`~.syntax.Tree`): its nodes are the new tree's now.
    Returns None when the edit needs a full parse.
    """
    if old.duplicates or not isinstance(old.root, JObject) or len(old.issues) >= MAX_ISSUES:
        return None
    delta = inserted - (end - start)
    for array_path, array in _element_arrays(old.root):
        items = array.items
        index = bisect_right(items, start, key=node_start) - 1
        if index < 0:
            continue
        item = items[index]
        if not (item.start < start and end < item.end):
            continue
        # What is broken must be broken inside this item: then parsing it again tells all.
        if any(not (item.start < issue.start and issue.end <= item.end) for issue in old.issues):
            return None
        path = array_path + (index,)
        # The item's new text alone is parsed (the edit is strictly inside it, so it still
        # opens and closes with the same characters); its nodes are then moved into place.
        piece = text[item.start : item.end + delta]
        parser = _Parser(piece, ELEMENT_ARRAYS)
        new_item: Node | None
        new_item, new_end = parser.fast_item(0, path)
        if new_item is None and piece[:1] in ("{", "["):  # broken now: parsed with its breaks
            new_item, new_end = parser.value(0, path, len(path))
        if (
            new_item is None
            or new_end != len(piece)
            or parser.reported_eof
            or parser.duplicates
            or (isinstance(new_item, JLazy) and new_item.has_duplicates)
        ):
            return None
        move(new_item, item.start)
        items[index] = new_item
        _shift(old.root, start, end, delta, new_item)
        value = new_item.value if isinstance(new_item, JLazy) else to_python(new_item)
        issues = [
            SyntaxIssue(issue.start + item.start, issue.end + item.start, issue.message) for issue in parser.issues
        ]
        return Tree(text, old.hand_over(), issues, [], (path, value))
    return respaced(old, text, start, end, inserted)


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def respaced(old: Tree, text: str | Text, start: int, end: int, inserted: int) -> Tree | None:
    """The tree after an edit that only adds or removes whitespace between values (a line
    break typed between two annotations, an indent changed): the same values, moved.

    In valid JSON every value is set off by a bracket, comma or colon, so whitespace
    between values cannot join or split one; within a string or number it would."""
    if (
        old.issues
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
        for item in items[bisect_right(items, start, key=node_end) :]:  # those that end before stay
            if type(item) is JLazy and item.start >= end:  # the many items after the edit, quickly
                item.start += delta
                item.end += delta
                item.expanded = None
            else:
                _shift(item, start, end, delta, keep)


# --- the plain value -----------------------------------------------------------------


def with_item(value: Any, path: Path, item: Any) -> Any:
    """A copy of a plain ``value`` with the array item at ``path`` replaced by ``item``;
    only the containers along the path are copied (in C), the rest is shared."""
    copy: Any = list(value) if isinstance(value, list) else dict(value)
    copy[path[0]] = item if len(path) == 1 else with_item(value[path[0]], path[1:], item)
    return copy


# --- what the edit moved -------------------------------------------------------------

_BREAK = re.compile(r"[\r\n]")


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

    def moved(self, extent: tuple[int, int]) -> tuple[int, int] | None:
        """Where an extent of the earlier text is now, if the edit left it whole."""
        if extent[1] <= self.start:
            return extent
        if extent[0] >= self.end:
            return (extent[0] + self.delta, extent[1] + self.delta)
        return None


class Placement:
    """Whether an extent of the text something was built for (the previous version's, or
    this one's when ``same``) is at the same line and columns in this text, found with a
    few comparisons per extent."""

    def __init__(self, derived: Derivation | None, lines: LineTable, same: bool) -> None:
        self.same = same
        self.derived = derived
        # After the edit, lines keep their numbers if no line break changed, and columns
        # are kept from the line after the one the edit ends on.
        self.next_line = -1
        if derived is not None and derived.breaks_kept:
            line = lines.line_of(derived.end + derived.delta)
            self.next_line = lines.starts[line + 1] if line + 1 < lines.line_count else -1

    def unmoved(self, was: tuple[int, int], now: tuple[int, int]) -> bool:
        derived = self.derived
        if self.same or derived is None:
            return self.same and was == now
        if now[1] <= derived.start:
            return was == now  # before the edit: nothing before it changed
        return self.next_line >= 0 and now[0] >= self.next_line and derived.moved(was) == now


# --- the check's memory --------------------------------------------------------------


@dataclass(slots=True)
class AnnotationCheck:
    """What checking one annotation gave, and what it depended on."""

    value: Any  # the annotation's JSON value (reused only while it is the very same object)
    # {document path: the content it was checked against (None: no such document)}; the
    # None key holds the list of documents that an unknown path's message names.
    depends: dict[str | None, Any]
    annotation: Annotation
    findings: list[Finding]
    refs: list[Ref]
    ref_findings: dict[Path, list[Finding]]  # of each ref that has some


@dataclass(slots=True)
class CheckMemo:
    """What one check hands to the next: annotations and documents whose JSON values are
    the very same objects (an incremental parse keeps them), with what they depend on."""

    annotations: dict[Path, AnnotationCheck] = field(default_factory=dict)
    # (path, content) by identity -> Document, so that line tables are split once
    documents: dict[tuple[str, int], Document] = field(default_factory=dict)
    # path -> identity of the Document refs resolve against
    winners: dict[str, int] | None = None
    # the annotations array's items, to find the one an edit changed
    array: list[Any] | None = None
    # What checking the array gave, in order (annotations, refs, findings), and how many of
    # each came from each item: enough to splice one item's results in and out.
    results: tuple[list[Annotation], list[Ref], list[Finding]] = ([], [], [])
    counts: tuple[list[int], list[int], list[int]] = ([], [], [])

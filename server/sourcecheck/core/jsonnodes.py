"""The nodes of a JSON tree, each with its extent in the text, and what a parse reports
beside them (its issues, keys written twice, an array's items replaced).

Plain data: nothing here parses. The parser (:mod:`.syntax`) makes these; the items of the
large arrays of a session are :class:`~.lazy.JLazy` nodes, decoded in one go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Path = tuple[str | int, ...]

# --- nodes -------------------------------------------------------------------------


class Node:
    """A JSON value and its extent ``[start, end)`` in the text."""

    __slots__ = ("start", "end")
    start: int
    end: int


class JString(Node):
    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: str) -> None:
        self.start, self.end, self.value = start, end, value


class JNumber(Node):
    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: int | float) -> None:
        self.start, self.end, self.value = start, end, value


class JLiteral(Node):
    """``true``, ``false`` or ``null``."""

    __slots__ = ("value",)

    def __init__(self, start: int, end: int, value: bool | None) -> None:
        self.start, self.end, self.value = start, end, value


class Member:
    """One ``"key": value`` of an object; ``value`` is None when it never got typed."""

    __slots__ = ("key", "value")

    def __init__(self, key: JString, value: Node | None) -> None:
        self.key, self.value = key, value


class JObject(Node):
    __slots__ = ("members", "truncated")

    def __init__(self, start: int, end: int, members: list[Member], truncated: bool = False) -> None:
        self.start, self.end, self.members = start, end, members
        self.truncated = truncated  # the file ends inside it: the keys it lacks may be on their way

    def member(self, key: str) -> Member | None:
        """The member that wins for ``key``: the last one, as in every JSON reader."""
        for member in reversed(self.members):
            if member.key.value == key:
                return member
        return None


class Tail:
    """How far the lazily decoded items at the end of an array moved since their offsets were
    written (see :func:`~.incremental.move_tail`): they all hold this one object, so an edit
    before them moves them in one addition, however many there are."""

    __slots__ = ("first", "delta", "plain")

    def __init__(self, first: int, delta: int = 0) -> None:
        self.first = first  # the index of the first item of the tail
        self.delta = delta
        self.plain: list[Node] = []  # the tail's items that are not lazily decoded (moved one by one)


NOT_MOVED = Tail(0)
"""The tail of no array: what every lazily decoded item outside a tail holds (never moved)."""


class JArray(Node):
    __slots__ = ("items", "dropped", "tail")

    def __init__(self, start: int, end: int, items: list[Node], dropped: int = 0) -> None:
        self.start, self.end, self.items = start, end, items
        self.dropped = dropped  # items that were there but could not be read (reported as issues)
        self.tail: Tail | None = None


@dataclass(frozen=True, slots=True)
class SyntaxIssue:
    """Where the text stops being JSON, and what to do about it."""

    start: int
    end: int
    message: str


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    """A key seen again in one object; the later member wins."""

    path: Path  # of the later member's value
    key: JString
    value: Node | None
    first_key: JString


class MovedOut(RuntimeError):
    """A tree was read after its nodes were handed to the tree of a later text."""


@dataclass(frozen=True, slots=True)
class Splice:
    """Items ``[first, first + count)`` of the session array at ``path`` replaced by ``items``
    (their plain values); the array now has ``unreadable`` items that could not be read."""

    path: Path
    first: int
    count: int
    items: list[Any]
    unreadable: int
    whole: bool = False  # the file's end moved into or out of the array: its value is the tree's


class PartialObject(dict[str, Any]):
    """The plain value of an object some of whose keys have a value that could not be read
    (``"confidence": NaN``, ``"line": }``): those keys are left out of the dict and listed in
    ``unreadable``, so that a checker knows the key was written (its syntax issue says what
    is wrong) rather than report it missing. ``truncated``: the file ends inside the object,
    so any key it lacks may be one that was not typed yet."""

    __slots__ = ("unreadable", "truncated")

    def __init__(self, items: dict[str, Any], unreadable: frozenset[str], truncated: bool = False) -> None:
        super().__init__(items)
        self.unreadable = unreadable
        self.truncated = truncated


class PartialList(list[Any]):
    """The plain value of an array some of whose items could not be read: ``unreadable`` of them."""

    __slots__ = ("unreadable",)

    def __init__(self, items: list[Any], unreadable: int) -> None:
        super().__init__(items)
        self.unreadable = unreadable


def unreadable_key(value: Any, key: str) -> bool:
    """Whether ``key`` was written in the object ``value`` with a value that could not be read."""
    return isinstance(value, PartialObject) and key in value.unreadable


def absent_by_syntax(value: Any, key: str) -> bool:
    """Whether ``key`` is not in the object ``value`` because of a break the parser reported:
    written with a value it could not read, or in an object the file ends inside (not typed
    yet). A checker does not report such a key missing: that would say the same thing twice."""
    return isinstance(value, PartialObject) and (value.truncated or key in value.unreadable)


def unreadable_items(value: Any) -> int:
    """How many items of the array ``value`` were written but could not be read."""
    return value.unreadable if isinstance(value, PartialList) else 0


def move(node: Node | None, by: int) -> None:
    """Add ``by`` to the offsets of ``node`` and of everything in it."""
    if node is None or not by:
        return
    node.start += by
    node.end += by
    if isinstance(node, JObject):
        for member in node.members:
            move(member.key, by)
            move(member.value, by)
    elif isinstance(node, JArray):
        for item in node.items:
            move(item, by)


def node_start(node: Node) -> int:
    """A node's start: the key to bisect a list of nodes with."""
    return node.start


def node_end(node: Node) -> int:
    return node.end

"""JSON text to a tree of values that knows where every key and value sits.

The parser is strict about what JSON is (RFC 8259: no comments, no trailing commas, no
``NaN``) but never gives up: an editor sends half-typed text on most keystrokes, so every
break is recorded as a :class:`SyntaxIssue` and parsing goes on, keeping every value it can.

Recovery is quiet: one issue per mistake, said as the writer would fix it, and never two
on one range. A bad token is skipped whole (``1.0e-``); what follows an unusable token is
not reported again; a string pasted with its line breaks, or holding a `"` meant as text,
is read as the one string it was meant to be; a boundary missing its `}` before a key of
the ref around it is closed there. A key whose value could not be read stays known as
written (:class:`PartialObject`), so that the checker does not report it missing too.

Big sessions are mostly document text and thousands of small annotations. The items of
the ``documents`` and ``annotations`` arrays are decoded by the C ``json`` decoder when
they are valid (a :class:`JLazy` node: value and extent only); their inner nodes are
parsed on demand, when a finding or an editor feature needs a position inside them.
"""

from __future__ import annotations

import json
import operator
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, islice, repeat
from json.decoder import scanstring  # type: ignore[attr-defined]  # in the module, not in its stub
from typing import Any, Protocol

from .display import json_visible, visible
from .text import Text

Path = tuple[str | int, ...]

MAX_DEPTH = 256
"""Deeper nesting than this is reported rather than parsed (no session needs it)."""

MAX_ISSUES = 200
"""Syntax issues recorded per parse: past a few, more only repeat the first."""

# The arrays whose items are decoded fast and lazily expanded.
ELEMENT_ARRAYS: frozenset[Path] = frozenset({("documents",), ("annotations",), ("session", "documents")})

_WS = re.compile(r"[ \t\n\r]*")


def _after_ws(text: str, pos: int) -> int:
    """The offset past the JSON whitespace at ``pos``."""
    match = _WS.match(text, pos)
    assert match is not None  # `*` matches the empty string too
    return match.end()


# Possessive: a string that does not close must fail fast, not backtrack for ever.
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# One escape decodes to one code point; a valid surrogate pair is one escape.
_ESCAPE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.|\Z)", re.S)
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS = {"true": True, "false": False, "null": None}
_NOT_JSON_WORDS = {
    "NaN": "`NaN` is not JSON; write a number or null",
    "Infinity": "`Infinity` is not JSON; write a number or null",
    "True": "`True` is not JSON; write `true`",
    "False": "`False` is not JSON; write `false`",
    "None": "`None` is not JSON; write `null`",
    "undefined": "`undefined` is not JSON; write `null`",
}


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


class JLazy(Node):
    """An array item decoded in one go; :meth:`Tree.expand` gives its inner nodes.

    Its offsets are those written, plus its tail's ``delta`` (see :class:`Tail`).

    Whether it holds a key twice is known at once, or (an annotation, decoded without
    looking at its pairs: that took a quarter of a full parse) ``None`` until settled
    (:func:`holds_duplicates`): a text with no more `:` than the keys its objects hold
    has none (every key is followed by a `:` outside strings; ``colons`` counts them).
    The check says how many keys an annotation it found clean has (see ``Analysis``);
    another's are counted; one whose strings hold a `:` is decoded once more."""

    __slots__ = ("value", "path", "has_duplicates", "colons", "_start", "_end", "_tail", "_expanded", "_expanded_at")

    def __init__(
        self, start: int, end: int, value: Any, path: Path, has_duplicates: bool | None, colons: int = -1
    ) -> None:
        # (one by one: ten thousand are made on opening a large session)
        self._start = start
        self._end = end
        self._tail = NOT_MOVED
        self.value = value
        self.path = path
        self.has_duplicates = has_duplicates
        self.colons = colons
        self._expanded: Node | None = None
        self._expanded_at = -1

    @property  # an attribute of Node, computed here
    def start(self) -> int:
        return self._start + self._tail.delta

    @start.setter
    def start(self, value: int) -> None:
        self._start = value - self._tail.delta

    @property
    def end(self) -> int:
        return self._end + self._tail.delta

    @end.setter
    def end(self, value: int) -> None:
        self._end = value - self._tail.delta

    @property
    def expanded(self) -> Node | None:
        """Its inner nodes, once parsed, while it has not moved since."""
        return self._expanded if self._expanded_at == self._start + self._tail.delta else None

    @expanded.setter
    def expanded(self, node: Node | None) -> None:
        self._expanded, self._expanded_at = node, self._start + self._tail.delta

    def join(self, tail: Tail) -> None:
        """Hold ``tail`` from now on, at the same place."""
        moved = self._tail.delta - tail.delta
        self._start += moved
        self._end += moved
        self._tail = tail


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


@dataclass(slots=True)
class Tree:
    """The parse of one text: its root value, where it breaks, its duplicate keys.

    An incremental parse (``incremental.reparse``) takes the nodes of the previous text's
    tree and moves them into the new one; the previous tree is then *moved out*: reading
    its root raises :class:`MovedOut` rather than report positions of a text it never had.
    """

    source: str | Text  # the text (a piece table after an incremental parse: see text.py)
    _root: Node | None
    issues: list[SyntaxIssue]
    duplicates: list[DuplicateKey] = field(default_factory=list)
    # After an incremental reparse: the items of one session array parsed again (everything
    # else has the previous tree's values).
    replaced: Splice | None = None
    moved_out: bool = False
    # The items this parse decoded without knowing whether they hold a key twice (see JLazy).
    unsure: list[JLazy] = field(default_factory=list)

    @property
    def root(self) -> Node | None:
        if self.moved_out:
            raise MovedOut("this tree's nodes were handed to the analysis of a later version; read that one")
        return self._root

    def hand_over(self) -> Node | None:
        """The root, for a later tree to take; this tree is moved out from now on."""
        root = self.root
        self.moved_out = True
        return root

    @property
    def text(self) -> str:
        return str(self.source)

    def expand(self, node: Node) -> Node:
        """The full node for a lazily decoded item (parsed once, then cached)."""
        if not isinstance(node, JLazy):
            return node
        if node.expanded is None:
            text, at = self.item_text(node)
            parser = _Parser(text, (), valid=True)
            expanded, _ = parser.value(at, node.path, len(node.path))
            move(expanded, node.start - at)
            node.expanded = expanded or JLiteral(node.start, node.end, None)
            self.duplicates.extend(parser.duplicates)
        return node.expanded

    def holds_duplicates(self, node: JLazy, watch: DuplicateWatch | None = None) -> bool:
        """Whether a lazily decoded item holds a key twice (settled now if not known)."""
        return holds_duplicates(node, *self.item_text(node), watch)

    def item_text(self, node: Node) -> tuple[str, int]:
        """A text holding ``node`` and where it starts in it: the whole text if it is at
        hand, else the node's own (a piece table is not made whole for one item)."""
        if isinstance(self.source, str):
            return self.source, node.start
        return self.source[node.start : node.end], 0

    def child(self, node: Node, part: str | int) -> Node | None:
        """One step down a path: the winning member of a key, or an array item."""
        node = self.expand(node)
        if isinstance(node, JObject) and isinstance(part, str):
            member = node.member(part)
            return member.value if member else None
        if isinstance(node, JArray) and isinstance(part, int):
            return node.items[part] if 0 <= part < len(node.items) else None
        return None

    def node_at_path(self, path: Path) -> Node | None:
        """The value a JSON pointer path names, following the winning member of each key."""
        node = self.root
        for part in path:
            if node is None:
                return None
            node = self.child(node, part)
        return node

    def locate(self, path: Path) -> tuple[int, int] | None:
        """The extent of the value at ``path``, without expanding lazily decoded items.

        Inside a decoded item, the members along the path are walked with the C decoder
        skipping every value not on the path: a few calls instead of a full parse.
        """
        node = self.root
        for depth, part in enumerate(path):
            if node is None:
                return None
            if isinstance(node, JLazy) and node.expanded is None and not self.holds_duplicates(node):
                text, at = self.item_text(node)
                found = _skip_to(text, at, path[depth:])
                if found is not None:
                    return found[0] + node.start - at, found[1] + node.start - at
            node = self.child(node, part)
        return (node.start, node.end) if node is not None else None

    def string_at(self, path: Path, value: str, line_starts: Sequence[int]) -> tuple[JString | None, bool]:
        """The string at ``path``, known to decode to ``value`` (whose lines start at
        ``line_starts``), and whether it was read off the text (then its only escapes are
        ``\\n``: see string_extent); else the tree's own node (None if it is not a string)."""
        node = self.root
        for depth, part in enumerate(path):
            if node is None:
                return None, False
            if isinstance(node, JLazy) and node.expanded is None and not self.holds_duplicates(node):
                text, at = self.item_text(node)
                found = string_extent(text, at, path[depth:], value, line_starts)
                if found is not None:
                    return JString(found[0] + node.start - at, found[1] + node.start - at, value), True
            node = self.child(node, part)
        node = self.expand(node) if node is not None else None
        return (node, False) if isinstance(node, JString) else (None, False)

    def member_at_path(self, path: Path) -> Member | None:
        """The member whose value ``path`` names (for a key's own range)."""
        if not path or not isinstance(path[-1], str):
            return None
        parent = self.node_at_path(path[:-1])
        if parent is None:
            return None
        parent = self.expand(parent)
        return parent.member(path[-1]) if isinstance(parent, JObject) else None


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


def to_python(node: Node | None) -> Any:
    """The plain value of a node; untyped members and items are left out (a
    :class:`PartialObject` or :class:`PartialList` says they were there)."""
    if isinstance(node, JLazy):
        return node.value
    if isinstance(node, JObject):
        value = {m.key.value: to_python(m.value) for m in node.members if m.value is not None}
        if len(value) < len(node.members) or node.truncated:
            unreadable = frozenset(m.key.value for m in node.members if m.value is None) - value.keys()
            if unreadable or node.truncated:
                return PartialObject(value, unreadable, node.truncated)
        return value
    if isinstance(node, JArray):  # most items of a big array are decoded already
        items = [item.value if type(item) is JLazy else to_python(item) for item in node.items]
        return PartialList(items, node.dropped) if node.dropped else items
    if isinstance(node, (JString, JNumber, JLiteral)):
        return node.value
    return None


# --- string offsets ----------------------------------------------------------------


class StringMap:
    """Maps offsets in a string's decoded value to offsets in the JSON text.

    Every escape (``\\n``, ``\\"``, ``\\u00e9``, a surrogate pair ``\\ud83d\\ude80``) decodes
    to exactly one code point, so the map is a sorted list of escapes.
    """

    __slots__ = ("body_start", "length", "_line_starts", "_escapes")

    def __init__(
        self, text: str | Text, node: JString, line_starts: Sequence[int] | None = None, newlines_only: bool = False
    ) -> None:
        """The map of ``node``, a string of ``text``; ``line_starts``, if given, are where
        the lines of its value start (``line_starts(node.value)``): when every escape of the
        string is a ``\\n`` (how a document's content is mostly written; ``newlines_only``:
        known to be), the map is read off them, without looking for its escapes (13 contents
        of a 12 MB session, 44,000 escapes: 13 ms, then under 2)."""
        self.body_start = start = node.start + 1
        body_end = _body_end(text, node.start, node.end)
        self._escapes: tuple[list[int], list[int], list[int]] | None = None
        self._line_starts = None
        if line_starts is not None and (
            newlines_only or _newlines_only(text, start, body_end, node.value, len(line_starts) - 1)
        ):
            self._line_starts = line_starts
            self.length = len(node.value)
            return
        # Without a Python-level loop: a content string holds tens of thousands of escapes.
        escapes = list(_ESCAPE.finditer(text[start:body_end]))
        at = list(map(re.Match.start, escapes))
        raw_len = list(map(operator.sub, map(re.Match.end, escapes), at))
        # Each escape before one shortens the decoded text by its length less one.
        removed = list(accumulate(map(operator.sub, raw_len, repeat(1)), initial=0))
        self._escapes = (list(map(operator.sub, at, removed)), list(map(operator.add, at, repeat(start))), raw_len)
        self.length = body_end - start - removed[-1]

    @property
    def escapes(self) -> tuple[list[int], list[int], list[int]]:
        """Where each escape is, in order: its decoded offsets, its text offsets and its lengths."""
        if self._escapes is None:
            starts = self._line_starts
            assert starts is not None
            count = len(starts) - 1
            decoded_at = list(map(operator.sub, islice(starts, 1, None), repeat(1)))  # each \n
            self._escapes = (
                decoded_at,
                list(map(operator.add, decoded_at, range(self.body_start, self.body_start + count))),
                [2] * count,
            )
        return self._escapes

    def raw_offset(self, decoded: int) -> int:
        """The text offset where the decoded character at ``decoded`` is written."""
        starts = self._line_starts
        if starts is not None:  # one more for each \n before it
            return self.body_start + decoded + bisect_right(starts, decoded) - 1
        decoded_at, raw_at, raw_len = self.escapes
        i = bisect_right(decoded_at, decoded) - 1
        if i < 0:
            return self.body_start + decoded
        if decoded_at[i] == decoded:
            return raw_at[i]
        return raw_at[i] + raw_len[i] + (decoded - decoded_at[i] - 1)

    def decoded_offset(self, raw: int) -> int:
        """The decoded offset of the character written at (or spanning) text offset ``raw``."""
        decoded_at, raw_at, raw_len = self.escapes
        index = bisect_right(raw_at, raw) - 1
        if index < 0:
            return raw - self.body_start
        escape_end = raw_at[index] + raw_len[index]
        if raw < escape_end:
            return decoded_at[index]
        return decoded_at[index] + 1 + (raw - escape_end)

    def raw_range(self, start: int, end: int) -> tuple[int, int]:
        """The text extent of the decoded characters ``[start, end)``."""
        return self.raw_offset(start), self.raw_offset(end)


def _newlines_only(text: str | Text, start: int, end: int, value: str, newlines: int) -> bool:
    """Whether the string body ``text[start:end]``, whose value ``value`` holds ``newlines``
    line breaks, writes each of them as ``\\n`` and has no other escape. Each escape holds
    at least one backslash and, but for a lone one at the end, is longer than the character
    it gives; with no raw line break in the body, each of the value's breaks is one escape.
    So a body holding as many backslashes as the value has breaks, and longer than the value
    by as many characters, holds exactly those escapes, each two characters long: ``\\n``."""
    if end - start != len(value) + newlines:
        return False
    if isinstance(text, str):
        return text.count("\\", start, end) == newlines and text.find("\n", start, end) < 0
    body = text[start:end]
    return body.count("\\") == newlines and "\n" not in body


def decode_lenient(body: str) -> str:
    """Decode a string body that may hold bad escapes: each escape gives one code point."""
    return _ESCAPE.sub(_decode_escape, body)


def _decode_escape(match: re.Match[str]) -> str:
    escape = match.group()
    if len(escape) == 12:
        high, low = int(escape[2:6], 16), int(escape[8:12], 16)
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    if len(escape) == 6:
        return chr(int(escape[2:], 16))
    if len(escape) == 1:
        return "\\"
    return _SIMPLE_ESCAPES.get(escape[1], escape[1])


def encode_string(value: str) -> str:
    """A JSON string literal for ``value``, safe to write into a file.

    Non-ASCII text stays readable; control, invisible and reordering characters are written
    as escapes (the same value, but no raw bidi override lands in a session: see display.py),
    lone surrogates too (a lone surrogate cannot be written raw in UTF-8).
    """
    return json_visible(escape_lone_surrogates(json.dumps(value, ensure_ascii=False)))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(json_text: str) -> str:
    """JSON text with each lone surrogate written as a ``\\uXXXX`` escape (same value; UTF-8
    cannot hold it raw). Only strings can hold one, so the escape is always in a string."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)


# --- parser ------------------------------------------------------------------------


class Cancelled(Exception):
    """The work was called off (its ``stop`` was set): its result is no longer wanted."""


class Stop(Protocol):
    """What long work polls to know it is no longer wanted (a ``threading.Event``)."""

    def is_set(self) -> bool: ...


def parse(text: str, stop: Stop | None = None) -> Tree:
    """Parse a whole file; the items of the session arrays are decoded lazily. With
    ``stop``, raises :class:`Cancelled` soon after it is set."""
    parser = _Parser(text, ELEMENT_ARRAYS, stop)
    root = parser.document()
    return Tree(text, root, parser.issues, parser.duplicates, unsure=parser.unsure)


def holds_duplicates(item: JLazy, text: str, at: int, watch: DuplicateWatch | None = None) -> bool:
    """Whether ``item``, written in ``text`` at ``at``, holds a key twice: known; else none
    when its text has as many `:` as its objects have keys (see JLazy), else found by
    decoding it once more with its pairs (``watch``, if given, does). Known from then on."""
    if item.has_duplicates is None:
        keys, in_strings = keys_and_colons(item.value)
        if item.colons == keys:
            item.has_duplicates = False
        elif not colon_escaped(item, text, at):
            # No `:` written as an escape: those in strings are the decoded strings' own, and
            # the others follow the keys, one each, as written: more of them than keys decoded
            # (of a key written twice, or of the strings of a value it replaced) are keys twice.
            item.has_duplicates = item.colons - in_strings != keys
        else:
            item.has_duplicates = (watch or DuplicateWatch()).holds(text, at)
    return item.has_duplicates


def colon_escaped(item: JLazy, text: str, at: int) -> bool:
    """Whether ``item``, written in ``text`` at ``at``, may write a `:` as an escape
    (``\\u003a``): then the `:` written do not tell the strings' from the keys'."""
    return text.find("\\u003", at, at + item.end - item.start) >= 0


def keys_and_colons(value: Any) -> tuple[int, int]:
    """How many keys the objects in a decoded value have, in all, and how many `:` its
    strings (keys included) hold."""
    count = colons = 0
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            count += len(item)
            if item:  # the keys' own, less the join's
                colons += ":".join(item).count(":") - (len(item) - 1)
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind is str:
            colons += item.count(":")
    return count, colons


class DuplicateWatch:
    """A decoder that tells whether the value it last decoded held a key twice."""

    __slots__ = ("decoder", "seen")

    def __init__(self) -> None:
        # A list, not an attribute: a closure over self would be a reference cycle, kept
        # until a collection (and a parser holds one, with its text).
        seen = self.seen = [False]

        def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
            result = dict(pairs)
            if len(result) != len(pairs):
                seen[0] = True
            return result

        self.decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_constant=_reject_constant)

    def holds(self, text: str, at: int) -> bool:
        """Whether the valid JSON value at ``at`` holds a key twice."""
        self.seen[0] = False
        self.decoder.raw_decode(text, at)
        return self.seen[0]


def brace_debt(text: str) -> int:
    """How many more `{` than `}` ``text`` holds outside its (one-line) strings."""
    stripped = _ONE_LINE_STRING.sub("", text)
    return stripped.count("{") - stripped.count("}")


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


def describe_char(ch: str) -> str:
    """A character named so that a reader can see it, even when it is invisible."""
    if ch == "":
        return "the end of the file"
    if ch.isprintable() and ch not in " \u00a0":
        return f"`{ch}`"
    return f"U+{ord(ch):04X}"


# What may follow the closing quote of a string. Anything else (`"say "hi" now"`) suggests
# that the quote was meant as part of the text.
_AFTER_STRING = frozenset(' \t\r\n,:]}"/')
_STRUCTURAL = frozenset(",:]}\r\n")
_JUNK = re.compile(r"""[^ \t\n\r,:\[\]{}"']+""")
_NUMBER_TOKEN = re.compile(r"[-+]*[.\w]*(?:(?<=[eE])[-+]+[.\w]*)*")
_CLOSE_SCAN = re.compile(r'["{}\[\]\n\r]')
_QUOTE_OR_BRACKET = re.compile(r'["{}\[\]]')
_KEY_AHEAD = re.compile(r'[ \t\n\r]*,?[ \t\n\r]*"(?:[^"\\\n\r]|\\.)*"[ \t]*:')
_ONE_LINE_STRING = re.compile(r'"(?:[^"\\\n\r]++|\\.)*+"')
_ANNOTATION_AHEAD = re.compile(r'\{[ \t\n\r]*"(?:claim|sources)"[ \t\n\r]*:')

_DOCUMENT_FIELDS = frozenset({"path", "content"})
_ANNOTATION_FIELDS = frozenset({"claim", "sources"})
_REF_FIELDS = frozenset({"path", "start", "end"})
_SOURCE_FIELDS = _REF_FIELDS | {"polarity", "confidence"}
_BOUNDARY_FIELDS = frozenset({"line", "str"})


def schema_fields(path: Path) -> frozenset[str] | None:
    """The keys the format defines for the object at ``path``; None where it defines none."""
    if not path:
        return frozenset({"documents", "annotations", "session"})
    if path == ("session",):
        return frozenset({"documents"})
    if len(path) == 2 and path[0] == "documents" or len(path) == 3 and path[:2] == ("session", "documents"):
        return _DOCUMENT_FIELDS if isinstance(path[-1], int) else None
    if path[0] != "annotations" or len(path) < 2 or not isinstance(path[1], int):
        return None
    rest = path[2:]
    if not rest:
        return _ANNOTATION_FIELDS
    if rest == ("claim",):
        return _REF_FIELDS
    if len(rest) == 2 and rest[0] == "sources" and isinstance(rest[1], int):
        return _SOURCE_FIELDS
    if rest[-1] in ("start", "end") and (
        len(rest) == 2 and rest[0] == "claim" or len(rest) == 3 and rest[0] == "sources"
    ):
        return _BOUNDARY_FIELDS
    return None


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd number of backslashes."""
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _bad_number(token: str) -> str:
    """What is wrong with a token that starts like a number and is not one."""
    shown = f"`{visible_token(token)}`"
    body = token.lstrip("+-")
    sign = token[: len(token) - len(body)]
    if body in ("Infinity", "NaN", "inf", "nan", "infinity"):
        return f"{shown} is not JSON (a `{sign or '-'}` must be followed by digits); write a number or null"
    if not body:
        return f"{shown} must be followed by digits"
    if len(sign) > 1 or (sign == "+" and not _NUMBER.fullmatch(body)):
        return f"{shown} is not a JSON number"
    if sign == "+":
        return f"{shown} is not a JSON number: JSON has no `+` sign; write `{body}`"
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", body):
        return f"{shown} is not a JSON number: write it in decimal, `{sign}{int(body, 16)}`"
    if re.fullmatch(r"0[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", body):
        fixed = body.lstrip("0")
        fixed = "0" + fixed if not fixed or fixed[0] in ".eE" else fixed
        return f"{shown} is not a JSON number: it has a leading zero; write `{sign}{fixed}`"
    if body.startswith(".") and _NUMBER.fullmatch("0" + body):
        return f"{shown} is not a JSON number: write `{sign}0{body}`"
    if re.fullmatch(r"[0-9]+\.", body):
        return (
            f"{shown} is not a JSON number: a `.` must be followed by digits; write `{token[:-1]}` or `{sign}{body}0`"
        )
    if re.fullmatch(r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?[eE][-+]?", body):
        return f"{shown} is not a JSON number: an exponent needs digits after `{body[body.lower().index('e') :]}`"
    return f"{shown} is not a JSON number"


def visible_token(token: str, limit: int = 40) -> str:
    """A token for a message: control characters named, long ones shortened."""
    shown = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in token[:limit])
    return shown + ("…" if len(token) > limit else "")


class _Parser:
    def __init__(
        self,
        text: str,
        element_arrays: frozenset[Path] | tuple[()],
        stop: Stop | None = None,
        valid: bool = False,
        known_brace_debt: int | None = None,
    ) -> None:
        """``valid``: the value to parse is known to be valid JSON (an item the decoder read
        whole): strings are read in C, and nothing is inferred."""
        self.text = text
        self.stop = stop
        self.n = len(text)
        self.issues: list[SyntaxIssue] = []
        self.duplicates: list[DuplicateKey] = []
        self.element_arrays = element_arrays
        self.reported_eof = False
        # A missing `}` is inferred (a key of the enclosing object met inside a boundary) only
        # when the text has more `{` than `}`; a text known to be valid is never second-guessed.
        self.valid = valid
        self.infer_braces = not valid
        self._brace_debt = known_brace_debt  # of the whole text, when ``text`` is only a part of it
        self._ranges: set[tuple[int, int]] = set()
        self._unclosed = -1  # the end of the last string that was never closed (it ends at its line)
        # An array item left open before the next one (see :meth:`item_ahead`): where it
        # ends, and the closers its inner values lacked, for the one issue that says it all.
        self._open_item_end = -1
        self._closers: list[str] = []
        # Where a resumed array loop stopped (see :meth:`array_items`), if it did.
        self.resynced = -1
        watch = DuplicateWatch()  # its decoder tells of keys seen twice
        self.decoder, self._duplicates_seen = watch.decoder, watch.seen
        self.unsure: list[JLazy] = []  # annotations decoded by _PLAIN (see JLazy)

    # -- helpers

    def issue(self, start: int, end: int, message: str) -> None:
        if self.reported_eof and start >= self.n:
            return  # the end of the file was reported once; more would only repeat it
        end = max(start, min(end, self.n))
        if (start, end) in self._ranges:
            return  # one issue per place: a second one would only repeat the first
        if len(self.issues) < MAX_ISSUES:
            self._ranges.add((start, end))
            self.issues.append(SyntaxIssue(start, end, message))

    def eof_issue(self, message: str) -> None:
        # Only the innermost unclosed value says so; its parents would only repeat it.
        if not self.reported_eof:
            self.issue(self.n, self.n, message)
            self.reported_eof = True

    def skip(self, pos: int) -> int:
        """Skip whitespace, and comments after reporting them."""
        text = self.text
        while True:
            pos = _after_ws(text, pos)
            if pos + 1 < self.n and text[pos] == "/" and text[pos + 1] in "/*":
                if text[pos + 1] == "/":
                    end = text.find("\n", pos)
                    end = self.n if end < 0 else end
                else:
                    close = text.find("*/", pos + 2)
                    end = self.n if close < 0 else close + 2
                self.issue(pos, end, "comments are not allowed in JSON; remove this comment")
                pos = end
                continue
            return pos

    def skip_token(self, pos: int) -> int:
        """Past one unusable token, so that parsing always moves forward."""
        word = _JUNK.match(self.text, pos)
        return word.end() if word else pos + 1

    def brace_debt(self) -> int:
        """How many more `{` than `}` the text holds outside its strings (see :func:`brace_debt`)."""
        if self._brace_debt is None:
            self._brace_debt = brace_debt(self.text)
        return self._brace_debt

    def first_on_line(self, pos: int) -> bool:
        """Whether only spaces and tabs come before ``pos`` on its line."""
        line_start = max(self.text.rfind("\n", 0, pos), self.text.rfind("\r", 0, pos)) + 1
        return not self.text[line_start:pos].strip(" \t")

    # -- grammar

    def document(self) -> Node | None:
        text = self.text
        pos = 0
        if text.startswith("\ufeff"):
            self.issue(
                0,
                1,
                "the file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 "
                "without BOM",
            )
            pos = 1
        pos = self.skip(pos)
        if pos >= self.n:
            self.issue(
                0, self.n, "the file holds no JSON value; a session is an object with `documents` and `annotations`"
            )
            return None
        root, pos = self.value(pos, (), 0)
        pos = self.skip(pos)
        if pos < self.n and root is not None:  # one issue for all of it: the rest is not read
            end = len(text.rstrip(" \t\n\r"))
            self.issue(
                pos,
                max(end, pos + 1),
                f"unexpected {describe_char(text[pos])} after the end of the JSON value; a file holds one value",
            )
        return root

    def value(
        self, pos: int, path: Path, depth: int, parent: dict[str, JString] | None = None
    ) -> tuple[Node | None, int]:
        """Parse the value at ``pos``; None if nothing usable is there, and then the offset
        past what was reported (only at the end of the file is nothing skipped). ``parent``:
        the keys seen so far in the object this value is a member of."""
        pos = self.skip(pos)
        if pos >= self.n:
            self.eof_issue("the file ends where a value was expected")
            return None, pos
        text = self.text
        ch = text[pos]
        if ch == "{":
            return self.object(pos, path, depth, parent)
        if ch == "[":
            return self.array(pos, path, depth)
        if ch == '"':
            return self.string(pos)
        if ch == "'":
            return self.single_quoted(pos)
        if ch in "-+." or "0" <= ch <= "9":
            return self.number(pos)
        word = _JUNK.match(text, pos)
        if word:
            name = word.group()
            if name in _LITERALS:
                return JLiteral(pos, word.end(), _LITERALS[name]), word.end()
            if len(name) == 1 and not name.isalnum():
                message = f"expected a value, found {describe_char(name)}"
            else:
                default = f'`{visible_token(name)}` is not a JSON value; quote strings with `"`'
                message = _NOT_JSON_WORDS.get(name, default)
            self.issue(pos, word.end(), message)
            return None, word.end()
        self.issue(pos, pos + 1, f"expected a value, found {describe_char(ch)}")
        return None, pos + 1

    def number(self, pos: int) -> tuple[Node | None, int]:
        match = _NUMBER_TOKEN.match(self.text, pos)
        assert match is not None  # it matches the empty string too
        end = max(match.end(), pos + 1)
        raw = self.text[pos:end]
        if not _NUMBER.fullmatch(raw):
            self.issue(pos, end, _bad_number(raw))
            return None, end
        try:
            number: int | float = int(raw) if raw.lstrip("-").isdigit() else float(raw)
        except ValueError:  # more digits than int() takes
            number = float(raw)
        return JNumber(pos, end, number), end

    def string(self, pos: int, key: bool = False) -> tuple[JString, int]:
        text = self.text
        if self.valid:  # the decoder read it already: a document's content is a megabyte at times
            value, end = scanstring(text, pos + 1)
            return JString(pos, end, value), end
        match = _STRING.match(text, pos)
        if match:
            end = match.end()
            if end >= self.n or text[end] in _AFTER_STRING or self.closes_later(end, key) < 0:
                body = text[pos + 1 : end - 1]
                value = scanstring(text, pos + 1)[0] if "\\" in body else body
                return JString(pos, end, value), end
        return self.broken_string(pos, key)

    def fits_close(self, quote: int, key: bool) -> bool:
        """Whether what follows the `"` at ``quote`` is what follows a key (`:`) or a value."""
        after = quote + 1
        while after < self.n and self.text[after] in " \t":
            after += 1
        if after >= self.n:
            return not key
        ch = self.text[after]
        return ch == ":" if key else ch in ",]}\r\n"

    def closes_later(self, at: int, key: bool) -> int:
        """The `"` later on this line that would close a string begun before ``at`` (one
        whose closing quote was meant as text); -1 when there is none. The search stops at
        a bracket that closes what is around the string: the value ends there at the latest."""
        text = self.text
        depth = 0
        for match in _CLOSE_SCAN.finditer(text, at):
            ch, quote = match.group(), match.start()
            if ch == '"':
                if _escaped(text, quote):
                    continue
                after = quote + 1
                while after < self.n and text[after] in " \t":
                    after += 1
                if after >= self.n or text[after] in _STRUCTURAL:
                    return quote if self.fits_close(quote, key) else -1
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth < 0:
                    return -1
            else:  # the end of the line
                return -1
        return -1

    def continuation(self, at: int, key: bool) -> int:
        """Where a string with a raw line break at ``at`` closes, when it was typed (or
        pasted) over several lines; -1 when it was never closed and ends at its line. As in
        :meth:`closes_later`, a bracket that closes what is around the string ends the search."""
        text = self.text
        after = _after_ws(text, at)
        if after < self.n and text[after] in "{}]":
            return -1  # a line that starts with a bracket: the JSON goes on there
        depth = 0
        for match in _QUOTE_OR_BRACKET.finditer(text, at):
            ch, quote = match.group(), match.start()
            if ch in "{[":
                depth += 1
                continue
            if ch in "}]":
                depth -= 1
                if depth < 0:
                    return -1
                continue
            if _escaped(text, quote):
                continue
            if self.fits_close(quote, key):
                return quote
            if self.first_on_line(quote):
                return -1  # a line that starts with a string: the JSON goes on there
            # Otherwise a quote in the text (`said "hi" to`): the string goes on.
        return -1

    def broken_string(self, pos: int, key: bool) -> tuple[JString, int]:
        """A string with a raw control character or line break, a bad escape, a `"` meant as
        text, or no closing quote: one issue for each kind of mistake in it.

        A JSON string cannot hold a raw line break, so a string that is not closed ends at
        its line, and the rest of the file keeps its meaning; one that closes on a later line
        as a value would (text pasted with its line breaks) is read as one string.
        """
        text, i = self.text, pos + 1
        end = None
        inner: list[int] = []  # quotes meant as text
        in_text = False  # past a quote meant as text: the string ends at a quote that fits
        breaks = 0
        first_break = -1
        closes_at = -1  # a string that goes on over line breaks closes at this quote
        controls: list[int] = []
        while i < self.n:
            ch = text[i]
            if ch == '"':
                if i < closes_at:  # in text that goes on over lines: a quote of the text
                    inner.append(i)
                    i += 1
                    continue
                if in_text:
                    if self.fits_close(i, key):
                        end = i + 1
                        break
                elif i + 1 >= self.n or text[i + 1] in _AFTER_STRING or self.closes_later(i + 1, key) < 0:
                    end = i + 1
                    break
                in_text = True
                inner.append(i)
                i += 1
                continue
            if ch == "\n" or ch == "\r":
                if closes_at < i:
                    closes_at = self.continuation(i, key)
                if closes_at < 0:
                    # Where the quote goes: the end of the line (the string itself is the rules' to judge).
                    self.issue(i, i, 'this string is never closed; add the closing `"` at the end of its line')
                    end = self._unclosed = i
                    break
                if ch == "\n" or not text.startswith("\n", i + 1):
                    breaks += 1
                    first_break = i if first_break < 0 else first_break
                i += 1
                continue
            if ch == "\\":
                escape = _ESCAPE.match(text, i)
                assert escape is not None  # a backslash starts an escape, maybe a bad one
                piece = escape.group()
                if piece[1:] in ("\n", "\r"):
                    piece = "\\"  # the line break is the loop's to judge
                if piece == "\\u":
                    digits = re.match(r'[^"\\\s]{0,4}', text[i + 2 : i + 6])
                    shown = text[i : i + 2 + (len(digits.group()) if digits else 0)]
                    self.issue(i, i + len(shown), f"`{visible_token(shown)}`: a \\u escape needs four hex digits")
                elif not (len(piece) in (6, 12) or (len(piece) == 2 and piece[1] in _SIMPLE_ESCAPES)):
                    shown = piece if len(piece) == 2 else "\\"
                    self.issue(
                        i,
                        i + len(shown),
                        f"`{visible_token(shown)}` is not a JSON escape; write `\\\\` for a backslash",
                    )
                i += len(piece)
                continue
            if ch < " ":
                controls.append(i)
            i += 1
        if end is None:
            end = i
            self.eof_issue('the file ends inside a string; add the closing `"`')
        if breaks:
            self.issue(
                first_break,
                first_break + 1,
                f"this string goes on over {breaks + 1} lines, but a JSON string cannot hold a raw line break: "
                "write each one as `\\n`",
            )
        if inner:
            several = f" ({len(inner)} of them)" if len(inner) > 1 else ""
            self.issue(
                inner[0],
                inner[-1] + 1,
                f'a `"` inside a string ends it: write each quote that is part of the text as `\\"`{several}',
            )
        if controls:
            self.issue(controls[0], controls[0] + 1, _control_message(text, controls))
        return JString(pos, end, decode_lenient(text[pos + 1 : _body_end(text, pos, end)])), end

    def single_quoted(self, pos: int) -> tuple[JString | None, int]:
        """A string in single quotes: read as the string it was meant to be, and reported.
        A `'` that does not close on its line is a stray character, not a string."""
        text, i = self.text, pos + 1
        while i < self.n and text[i] not in "'\n\r":
            i += 2 if text[i] == "\\" else 1
        if i >= self.n or text[i] != "'":
            self.issue(pos, pos + 1, "expected a value, found `'`; JSON strings are in double quotes")
            return None, pos + 1
        end = i + 1
        self.issue(pos, end, 'JSON strings and keys are in double quotes (`"`), not single quotes')
        return JString(pos, end, decode_lenient(text[pos + 1 : _body_end(text, pos, end)])), end

    def too_deep(self, pos: int) -> int:
        """Report nesting past MAX_DEPTH and skip to the matching bracket."""
        self.issue(pos, pos + 1, f"values are nested more than {MAX_DEPTH} levels deep; a session needs only a few")
        depth, i, text = 0, pos, self.text
        while i < self.n:
            ch = text[i]
            if ch == '"':
                match = _STRING.match(text, i)
                i = match.end() if match else i + 1
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        self.reported_eof = True  # the file ends inside them: that issue says it all
        return self.n

    def missing_brace(self, pos: int, path: Path, parent: dict[str, JString] | None) -> str | None:
        """The key at ``pos`` when it belongs to the enclosing object, not to this one (a
        boundary `{"line": 1, "str": "x"` followed by `, "end": ...`): this object lacks its `}`."""
        if parent is None or not self.infer_braces or not path:
            return None
        match = _STRING.match(self.text, pos)
        if match is None:
            return None
        key = self.text[pos + 1 : match.end() - 1]
        mine, enclosing = schema_fields(path), schema_fields(path[:-1])
        if mine is None or enclosing is None or key in mine or key not in enclosing or key in parent:
            return None
        if self.brace_debt() <= 0:
            return None
        self._brace_debt = self.brace_debt() - 1
        return key

    def item_depth(self, path: Path) -> int:
        """The length of the path of the session array item that ``path`` is in or is (0: none)."""
        for depth in (2, 3):
            if len(path) >= depth and path[: depth - 1] in self.element_arrays and isinstance(path[depth - 1], int):
                return depth
        return 0

    def next_item_at(self, pos: int, path: Path) -> bool:
        """Whether the `{` at ``pos`` may be the next item of a session array that an item
        being typed (or a value in it, at ``path``) lacks the braces to close (see
        :meth:`item_ahead`, which says so once the object meets it)."""
        if not self.infer_braces or not self.item_depth(path):
            return False
        return self.first_on_line(pos) and self.brace_debt() > 0

    def item_ahead(self, pos: int, path: Path) -> bool:
        """Whether the `{` at ``pos``, first on its line where a key of the object at ``path``
        was expected, is the next item of a session array: the object (an item being typed,
        or a value in one) was left open. Only when the text has more `{` than `}`."""
        if not self.next_item_at(pos, path):
            return False
        self._brace_debt = self.brace_debt() - 1
        return True

    def sources_ahead(self, pos: int, path: Path) -> bool:
        """Whether the `{` at ``pos``, first on its line in the ``sources`` at ``path``, opens
        the next annotation (its first key is `claim` or `sources`): ``sources`` was left open."""
        if not self.infer_braces or len(path) != 3 or path[2] != "sources" or self.item_depth(path) != 2:
            return False
        return self.first_on_line(pos) and _ANNOTATION_AHEAD.match(self.text, pos) is not None

    def left_open(self, start: int, members: list[Member], path: Path) -> JObject:
        """The object at ``path`` that the next item's `{` found open, closed after its last
        member; the item it is (or is in) gets one issue naming every closer it lacks."""
        last = members[-1] if members else None
        close = start + 1 if last is None else last.value.end if last.value is not None else last.key.end
        self._closers.append("}")
        if len(path) == self.item_depth(path):
            what = "annotation" if path[0] == "annotations" else "document"
            closers = "".join(self._closers)
            self._closers = []
            if close == self._unclosed and (close, close) in self._ranges:  # a string left open too: one issue
                index = next(i for i, issue in enumerate(self.issues) if (issue.start, issue.end) == (close, close))
                self.issues[index] = SyntaxIssue(
                    close,
                    close,
                    f'this string is never closed, nor is the {what} it is in: add `"{closers},` here, before the '
                    "next one (or finish typing it)",
                )
            else:
                self.issue(
                    close,
                    close,
                    f"this {what} is not closed: add `{closers},` here, before the next one (or finish typing it)",
                )
            self._open_item_end = close
        return JObject(start, close, members, truncated=True)

    def object(self, pos: int, path: Path, depth: int, parent: dict[str, JString] | None = None) -> tuple[JObject, int]:
        start, text = pos, self.text
        if depth >= MAX_DEPTH:
            end = self.too_deep(pos)
            return JObject(start, end, []), end
        pos += 1
        members: list[Member] = []
        seen: dict[str, JString] = {}
        want_member = True
        trailing_comma = -1
        junk = False  # an unusable token was just reported: what follows is not reported again
        while True:
            pos = self.skip(pos)
            if pos >= self.n:
                self.eof_issue("the file ends inside an object; close it with `}`")
                return JObject(start, self.n, members, truncated=True), self.n
            ch = text[pos]
            if ch == "}":
                if parent is None and not self.valid and _KEY_AHEAD.match(text, pos + 1):
                    # An array item (or the whole file) is never followed by a key: this `}` is
                    # one too many, and the members after it are this object's.
                    self.issue(pos, pos + 1, "an extra `}`: the keys after it belong to this object; remove it")
                    pos += 1
                    continue
                if trailing_comma >= 0:
                    self.issue(
                        trailing_comma,
                        trailing_comma + 1,
                        "a trailing comma before `}` is not allowed in JSON; remove it",
                    )
                return JObject(start, pos + 1, members), pos + 1
            key: JString | None = None
            if ch == '"' or ch == "'":
                if want_member and trailing_comma >= 0 and members:
                    belongs = self.missing_brace(pos, path, parent)
                    if belongs is not None:
                        last = members[-1]
                        close = last.value.end if last.value is not None else last.key.end
                        self.issue(
                            close,
                            close,
                            f"`{visible(str(path[-1]))}` is not closed: add `}}` here, before `{visible(belongs)}` "
                            f"(a key of the object around `{visible(str(path[-1]))}`)",
                        )
                        return JObject(start, close, members), trailing_comma
                if not want_member and not junk:
                    self.issue(pos, pos + 1, "a comma is missing before this key")
                if ch == '"':
                    key, pos = self.string(pos, key=True)
                else:
                    key, pos = self.single_quoted(pos)
                    if key is None:
                        junk = True
                        continue
            elif ch not in ",:[]{":
                word = _JUNK.match(text, pos)
                after = _after_ws(text, word.end()) if word else pos
                if word and after < self.n and text[after] == ":":  # an unquoted key
                    if not want_member and not junk:
                        self.issue(pos, pos + 1, "a comma is missing before this key")
                    key = JString(pos, word.end(), word.group())
                    self.issue(pos, word.end(), f"a key must be in double quotes: write {_quoted(word.group())}")
                    pos = word.end()
            if key is not None:
                pos = self.skip(pos)
                if pos < self.n and text[pos] == ":":
                    pos += 1
                    colon = True
                else:
                    colon = False
                after = self.skip(pos)
                value: Node | None = None
                if not colon and key.end == self._unclosed:
                    pos = after  # a key being typed, never closed: the next line is not its value
                elif after < self.n and text[after] == "{" and self.next_item_at(after, path):
                    if colon:
                        self.issue(pos - 1, pos, f"the key {_quoted(key.value)} has no value")
                    else:
                        self.issue(key.end, key.end + 1, f"expected `:` after the key {_quoted(key.value)}")
                    pos = after  # a key being typed: the next item is not its value
                elif after >= self.n or text[after] in ",}]":
                    if after < self.n:
                        self.issue(after, after + 1, f"the key {_quoted(key.value)} has no value")
                    else:
                        self.eof_issue(f"the file ends before the value of {_quoted(key.value)}")
                    pos = after
                else:
                    if not colon:
                        self.issue(key.end, key.end + 1, f"expected `:` after the key {_quoted(key.value)}")
                    value, pos = self.value(after, path + (key.value,), depth + 1, seen)
                members.append(Member(key, value))
                first = seen.get(key.value)
                if first is not None:
                    self.duplicates.append(DuplicateKey(path + (key.value,), key, value, first))
                seen[key.value] = key
                # After a string left open, a missing comma is the same mistake (it is in the string).
                junk = value is None or value.end in (self._unclosed, self._open_item_end)
                want_member, trailing_comma = False, -1
                pos = self.skip(pos)
                if pos < self.n and text[pos] == ",":
                    want_member, trailing_comma, junk = True, pos, False
                    pos += 1
                continue
            if ch == "]":
                self.issue(pos, pos + 1, "`]` where `}` should close the object")
                return JObject(start, pos, members), pos
            if ch == ",":
                if want_member and not junk:
                    self.issue(pos, pos + 1, "an extra comma; remove it")
                want_member, junk = True, False
                pos += 1
                continue
            if ch == "{" and self.item_ahead(pos, path):
                return self.left_open(start, members, path), pos
            begin = pos
            whole = self.whole_value(pos) if ch in "[{" else -1
            if whole > pos:  # a value where a key should be: skipped whole
                pos = whole
                found = "an object" if ch == "{" else "an array"
            else:
                pos = self.skip_token(pos)
                found = describe_char(ch) if pos == begin + 1 else f"`{visible_token(text[begin:pos])}`"
            if not junk:
                self.issue(
                    begin, pos if ch not in "[{" else begin + 1, f"expected a key in double quotes, found {found}"
                )
            junk, trailing_comma = True, -1

    def whole_value(self, pos: int) -> int:
        """The end of the valid JSON value at ``pos``; -1 if none is there."""
        try:
            return int(self.decoder.raw_decode(self.text, pos)[1])
        except (ValueError, RecursionError):
            return -1

    def array(self, pos: int, path: Path, depth: int) -> tuple[JArray, int]:
        if depth >= MAX_DEPTH:
            end = self.too_deep(pos)
            return JArray(pos, end, []), end
        return self.array_items(pos, pos + 1, path, depth)

    def array_items(
        self,
        start: int,
        pos: int,
        path: Path,
        depth: int,
        first_index: int = 0,
        stops: frozenset[int] | None = None,
    ) -> tuple[JArray, int]:
        """The items of the array opened at ``start``, from ``pos``, where an item may begin
        (``first_index`` items come before it). An incremental parse resumes an array here
        after its last untouched item and ``stops`` at the first of ``stops`` (offsets where
        untouched items begin) that begins an item: from there on the items are as before
        (``resynced`` is set, and the array returned has the items up to there)."""
        text = self.text
        items: list[Node] = []
        dropped = 0
        fast = path in self.element_arrays
        want_item = True
        trailing_comma = -1
        junk = False
        declined = -1  # where an item was not valid JSON, found so by the decoder (not tried again)
        if first_index:  # resumed just after an item (decoded in one go): as the loop is after one
            want_item = False
            pos = self.skip(pos)
            if pos < self.n and text[pos] == ",":
                want_item, trailing_comma = True, pos
                pos += 1
        while True:
            if fast and want_item and not junk:
                # One object after another, each decoded in C and followed by a comma (ten
                # thousand annotations): read here, as the loop below reads them, until
                # anything else comes (then the loop takes it).
                while True:
                    at = _after_ws(text, pos)
                    if at >= self.n or text[at] != "{" or (stops is not None and at in stops):
                        break
                    if self.stop is not None and self.stop.is_set():
                        raise Cancelled
                    lazy, end = self.fast_item(at, path + (first_index + len(items),))
                    if lazy is None:
                        declined = at
                        break
                    items.append(lazy)
                    pos = end if end < self.n and text[end] == "," else self.skip(end)
                    if pos < self.n and text[pos] == ",":
                        trailing_comma = pos
                        pos += 1
                    else:
                        want_item, trailing_comma = False, -1
                        break
            pos = self.skip(pos)
            if pos >= self.n:
                self.eof_issue("the file ends inside an array; close it with `]`")
                return JArray(start, self.n, items, dropped + 1), self.n  # an item may be on its way
            ch = text[pos]
            if ch == "]":
                if trailing_comma >= 0:
                    self.issue(
                        trailing_comma,
                        trailing_comma + 1,
                        "a trailing comma before `]` is not allowed in JSON; remove it",
                    )
                return JArray(start, pos + 1, items, dropped), pos + 1
            if ch == "}":
                self.issue(pos, pos + 1, "`}` where `]` should close the array")
                return JArray(start, pos, items, dropped), pos
            if ch == ",":
                if want_item and not junk:
                    self.issue(pos, pos + 1, "an extra comma; remove it")
                want_item, junk = True, False
                pos += 1
                continue
            if ch == ":":
                if not junk:
                    self.issue(pos, pos + 1, "a `:` in an array: an array holds values; `key: value` is for objects")
                want_item, junk = True, True
                pos += 1
                continue
            if ch == "{" and self.sources_ahead(pos, path):
                self._closers.append("]")
                return JArray(start, items[-1].end if items else start + 1, items, dropped + 1), pos
            if not want_item and not junk:
                self.issue(pos, pos + 1, "a comma is missing before this value")
            if stops is not None and pos in stops:
                self.resynced = pos
                return JArray(start, pos, items, dropped), pos
            if self.stop is not None and self.stop.is_set():
                raise Cancelled
            item: Node | None = None
            index = first_index + len(items)
            if fast and pos != declined:
                item, pos = self.fast_item(pos, path + (index,))
            if item is None:
                item, end = self.value(pos, path + (index,), depth + 1)
                pos = max(end, pos + 1) if item is None else end
            if item is not None:
                items.append(item)
            else:
                dropped += 1
            junk = item is None or item.end in (self._unclosed, self._open_item_end)
            want_item, trailing_comma = False, -1
            pos = self.skip(pos)
            if pos < self.n and text[pos] == ",":
                want_item, trailing_comma, junk = True, pos, False
                pos += 1

    def fast_item(self, pos: int, path: Path) -> tuple[JLazy | None, int]:
        """Decode a whole array item in C; None (and no issue) when it is not valid JSON."""
        if self.text[pos] not in "{[":
            return None, pos
        annotation = path[0] == "annotations"
        self._duplicates_seen[0] = False
        try:
            value, end = (_PLAIN if annotation else self.decoder).raw_decode(self.text, pos)
        except (ValueError, RecursionError):
            return None, pos
        if annotation and type(value) is dict:
            sources = value.get("sources")
            if (
                type(sources) is list
                and sources
                and (
                    (type(sources[0]) is dict and "claim" in sources[0])
                    or (type(sources[-1]) is dict and "claim" in sources[-1])
                )
            ):
                # `"sources": [` typed (or `,` after a source), and the annotations after it read
                # as its sources: valid JSON, but not what was meant (the last of them, or the
                # first, has a claim). Parsed with its break (see :meth:`sources_ahead`).
                return None, pos
        if annotation:
            item = JLazy(pos, end, value, path, None, self.text.count(":", pos, end))
            self.unsure.append(item)
            return item, end
        return JLazy(pos, end, value, path, self._duplicates_seen[0]), end


_SKIPPER = json.JSONDecoder()
_SKIP_VALUE = _SKIPPER.scan_once  # type: ignore[attr-defined]  # (value, end) of the valid JSON value at an offset


def _skip_to(text: str, pos: int, path: Path) -> tuple[int, int] | None:
    """Extent of the value at ``path`` below the valid JSON value at ``pos`` (None if absent),
    which has no duplicate key: the first member with a key is the only one."""
    start = _value_at(text, pos, path)
    if start is None:
        return None
    _, end = _SKIPPER.raw_decode(text, start)
    return start, end


def string_extent(text: str, pos: int, path: Path, value: str, line_starts: Sequence[int]) -> tuple[int, int] | None:
    """Extent of the string at ``path`` below the valid JSON value at ``pos`` (which has no
    duplicate key), known to decode to ``value``, whose lines start at ``line_starts``: found
    without reading it (a document's content is a megabyte at times) when its only escapes
    are ``\\n``, else None.

    In valid JSON each character of a string is written as itself or as an escape longer
    than it, and a line break only as an escape. So the string's closing quote is at least as
    many characters after its body's start as the value has, and one more for each break; if
    an unescaped quote (not after a backslash) is right there, it is the closing one, and the
    body holds no other escape than one ``\\n`` for each break."""
    start = _value_at(text, pos, path)
    if start is None:
        return None
    end = start + 1 + len(value) + len(line_starts) - 1
    if end >= len(text) or text[end] != '"' or (end > start + 1 and text[end - 1] == "\\"):
        return None
    return start, end + 1


def _value_at(text: str, pos: int, path: Path) -> int | None:
    """Where the value at ``path`` below the valid JSON value at ``pos`` starts (see _skip_to).
    The values before it are skipped by the C decoder (its scanner called directly: the value
    is valid JSON), the whitespace by the pattern (called directly: a thousand findings are
    placed on opening a large session, twenty skips each)."""
    space, skip = _WS.match, _SKIP_VALUE
    for part in path:
        opener = text[pos]
        pos += 1
        if opener == "{" and isinstance(part, str):
            found = None
            while True:
                pos = space(text, pos).end()  # type: ignore[union-attr]  # `*` matches the empty string
                if text[pos] == "}":
                    break
                key, pos = scanstring(text, pos + 1)
                pos = space(text, space(text, pos).end() + 1).end()  # type: ignore[union-attr]  # past `:`
                if key == part:
                    found = pos
                    break
                pos = space(text, skip(text, pos)[1]).end()  # type: ignore[union-attr]
                if text[pos] == ",":
                    pos += 1
            if found is None:
                return None
            pos = found
        elif opener == "[" and isinstance(part, int):
            index = 0
            while True:
                pos = space(text, pos).end()  # type: ignore[union-attr]
                if text[pos] == "]":
                    return None
                if index == part:
                    break
                pos = space(text, skip(text, pos)[1]).end()  # type: ignore[union-attr]
                if text[pos] == ",":
                    pos += 1
                index += 1
        else:
            return None
    return pos


def _body_end(text: str | Text, start: int, end: int) -> int:
    """Where the text of the string ``[start, end)`` ends: before its closing quote, if it has one."""
    return end - 1 if end - start >= 2 and text[end - 1] == text[start] else end


def _control_message(text: str, at: list[int]) -> str:
    """What to say of the raw control characters of one string, at ``at``."""
    first = text[at[0]]
    if all(text[i] == "\t" for i in at):
        what = "a raw tab" if len(at) == 1 else f"{len(at)} raw tabs"
        return f"{what} (a control character) in a string; write each as `\\t`"
    several = f" (and {len(at) - 1} more)" if len(at) > 1 else ""
    return f"a raw control character (U+{ord(first):04X}) in a string{several}; write it as `\\u{ord(first):04x}`"


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


_PLAIN = json.JSONDecoder(parse_constant=_reject_constant)  # objects made in C, their pairs unseen


def _quoted(key: str) -> str:
    return "`" + json.dumps(key, ensure_ascii=False) + "`"


def iter_lazy(node: Node | None) -> Iterator[JLazy]:
    """Every lazily decoded item below ``node`` (without expanding them)."""
    if isinstance(node, JLazy):
        yield node
    elif isinstance(node, JObject):
        for member in node.members:
            yield from iter_lazy(member.value)
    elif isinstance(node, JArray):
        for item in node.items:
            yield from iter_lazy(item)

"""JSON text to a tree of values that knows where every key and value sits.

The parser is strict about what JSON is (RFC 8259: no comments, no trailing commas, no
``NaN``) but never gives up: an editor sends half-typed text on most keystrokes, so every
break is recorded as a :class:`SyntaxIssue` and parsing goes on, keeping every value it can.

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
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from json.decoder import scanstring  # type: ignore[attr-defined]  # in the module, not in its stub
from typing import Any, Protocol

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
    __slots__ = ("members",)

    def __init__(self, start: int, end: int, members: list[Member]) -> None:
        self.start, self.end, self.members = start, end, members

    def member(self, key: str) -> Member | None:
        """The member that wins for ``key``: the last one, as in every JSON reader."""
        for member in reversed(self.members):
            if member.key.value == key:
                return member
        return None


class JArray(Node):
    __slots__ = ("items",)

    def __init__(self, start: int, end: int, items: list[Node]) -> None:
        self.start, self.end, self.items = start, end, items


class JLazy(Node):
    """An array item decoded in one go; :meth:`Tree.expand` gives its inner nodes."""

    __slots__ = ("value", "path", "has_duplicates", "expanded")

    def __init__(self, start: int, end: int, value: Any, path: Path, has_duplicates: bool) -> None:
        self.start, self.end, self.value = start, end, value
        self.path, self.has_duplicates = path, has_duplicates
        self.expanded: Node | None = None


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
    # After an incremental reparse: the path of the one array item decoded again, and its
    # value (everything else has the previous tree's values).
    replaced: tuple[Path, Any] | None = None
    moved_out: bool = False

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
            parser = _Parser(text, ())
            expanded, _ = parser.value(at, node.path, len(node.path))
            move(expanded, node.start - at)
            node.expanded = expanded or JLiteral(node.start, node.end, None)
            self.duplicates.extend(parser.duplicates)
        return node.expanded

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
            if isinstance(node, JLazy) and node.expanded is None and not node.has_duplicates:
                text, at = self.item_text(node)
                found = _skip_to(text, at, path[depth:])
                if found is not None:
                    return found[0] + node.start - at, found[1] + node.start - at
            node = self.child(node, part)
        return (node.start, node.end) if node is not None else None

    def member_at_path(self, path: Path) -> Member | None:
        """The member whose value ``path`` names (for a key's own range)."""
        if not path or not isinstance(path[-1], str):
            return None
        parent = self.node_at_path(path[:-1])
        if parent is None:
            return None
        parent = self.expand(parent)
        return parent.member(path[-1]) if isinstance(parent, JObject) else None


def to_python(node: Node | None) -> Any:
    """The plain value of a node; untyped members and items are left out."""
    if isinstance(node, JLazy):
        return node.value
    if isinstance(node, JObject):
        return {m.key.value: to_python(m.value) for m in node.members if m.value is not None}
    if isinstance(node, JArray):  # most items of a big array are decoded already
        return [item.value if type(item) is JLazy else to_python(item) for item in node.items]
    if isinstance(node, (JString, JNumber, JLiteral)):
        return node.value
    return None


# --- string offsets ----------------------------------------------------------------


class StringMap:
    """Maps offsets in a string's decoded value to offsets in the JSON text.

    Every escape (``\\n``, ``\\"``, ``\\u00e9``, a surrogate pair ``\\ud83d\\ude80``) decodes
    to exactly one code point, so the map is a sorted list of escapes.
    """

    __slots__ = ("body_start", "decoded_at", "raw_at", "raw_len", "length")

    def __init__(self, text: str | Text, node: JString) -> None:
        self.body_start = start = node.start + 1
        body_end = node.end - 1 if node.end - node.start >= 2 and text[node.end - 1] == '"' else node.end
        # Without a Python-level loop: a content string holds tens of thousands of escapes.
        escapes = list(_ESCAPE.finditer(text[start:body_end]))
        at = list(map(re.Match.start, escapes))
        self.raw_len: list[int] = list(map(operator.sub, map(re.Match.end, escapes), at))
        self.raw_at: list[int] = list(map(operator.add, at, repeat(start)))
        # Each escape before one shortens the decoded text by its length less one.
        removed = list(accumulate(map(operator.sub, self.raw_len, repeat(1)), initial=0))
        self.decoded_at: list[int] = list(map(operator.sub, at, removed))
        self.length = body_end - start - removed[-1]

    def raw_offset(self, decoded: int) -> int:
        """The text offset where the decoded character at ``decoded`` is written."""
        i = bisect_right(self.decoded_at, decoded) - 1
        if i < 0:
            return self.body_start + decoded
        if self.decoded_at[i] == decoded:
            return self.raw_at[i]
        return self.raw_at[i] + self.raw_len[i] + (decoded - self.decoded_at[i] - 1)

    def raw_range(self, start: int, end: int) -> tuple[int, int]:
        """The text extent of the decoded characters ``[start, end)``."""
        return self.raw_offset(start), self.raw_offset(end)


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

    Non-ASCII text stays readable; control characters and lone surrogates are escaped
    (a lone surrogate cannot be written raw in UTF-8).
    """
    return escape_lone_surrogates(json.dumps(value, ensure_ascii=False))


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
    return Tree(text, root, parser.issues, parser.duplicates)


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


class _Parser:
    def __init__(self, text: str, element_arrays: frozenset[Path] | tuple[()], stop: Stop | None = None) -> None:
        self.text = text
        self.stop = stop
        self.n = len(text)
        self.issues: list[SyntaxIssue] = []
        self.duplicates: list[DuplicateKey] = []
        self.element_arrays = element_arrays
        self.reported_eof = False
        # Set by the decoder's hook; a list, not an attribute of self: a closure over self
        # would be a reference cycle, keeping every parser (and its text) until a collection.
        duplicates_seen = self._duplicates_seen = [False]

        def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
            result = dict(pairs)
            if len(result) != len(pairs):
                duplicates_seen[0] = True
            return result

        self.decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_constant=_reject_constant)

    # -- helpers

    def issue(self, start: int, end: int, message: str) -> None:
        if self.reported_eof and start >= self.n:
            return  # the end of the file was reported once; more would only repeat it
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(SyntaxIssue(start, max(start, min(end, self.n)), message))

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
        word = _WORD.match(self.text, pos)
        return word.end() if word else pos + 1

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
        while True:
            pos = self.skip(pos)
            if pos >= self.n:
                return root
            if root is None:
                # value() reported the unusable token; step past it and look for the value.
                pos = self.skip_token(pos)
                continue
            self.issue(
                pos,
                self.skip_token(pos),
                f"unexpected {describe_char(text[pos])} after the end of the JSON value; a file holds one value",
            )
            pos = self.skip_token(pos)

    def value(self, pos: int, path: Path, depth: int) -> tuple[Node | None, int]:
        """Parse the value at ``pos`` (whitespace skipped); None if nothing usable is there."""
        pos = self.skip(pos)
        if pos >= self.n:
            self.eof_issue("the file ends where a value was expected")
            return None, pos
        ch = self.text[pos]
        if ch == "{":
            return self.object(pos, path, depth)
        if ch == "[":
            return self.array(pos, path, depth)
        if ch == '"':
            return self.string(pos)
        if ch == "-" or "0" <= ch <= "9":
            return self.number(pos)
        word = _WORD.match(self.text, pos)
        if word:
            name = word.group()
            if name in _LITERALS:
                return JLiteral(pos, word.end(), _LITERALS[name]), word.end()
            message = _NOT_JSON_WORDS.get(name, f'`{name}` is not a JSON value; quote strings with `"`')
            self.issue(pos, word.end(), message)
            return None, pos
        self.issue(pos, pos + 1, f"expected a value, found {describe_char(ch)}")
        return None, pos

    def number(self, pos: int) -> tuple[Node | None, int]:
        match = _NUMBER.match(self.text, pos)
        if not match:
            self.issue(pos, pos + 1, "`-` must be followed by digits")
            return None, pos
        raw = match.group()
        end = match.end()
        if end < self.n and (self.text[end].isalnum() or self.text[end] == "."):
            bad = self.skip_token(end)
            self.issue(pos, bad, f"`{self.text[pos:bad]}` is not a JSON number")
            return None, pos
        try:
            number: int | float = int(raw) if raw.lstrip("-").isdigit() else float(raw)
        except ValueError:  # more digits than int() takes
            number = float(raw)
        return JNumber(pos, end, number), end

    def string(self, pos: int) -> tuple[JString, int]:
        text = self.text
        match = _STRING.match(text, pos)
        if match:
            end = match.end()
            body = text[pos + 1 : end - 1]
            value = scanstring(text, pos + 1)[0] if "\\" in body else body
            return JString(pos, end, value), end
        return self.broken_string(pos)

    def broken_string(self, pos: int) -> tuple[JString, int]:
        """A string with a raw control character, a bad escape or no closing quote.

        A JSON string cannot hold a raw line break, so an unclosed string ends at its line:
        the rest of the file keeps its meaning.
        """
        text, i = self.text, pos + 1
        end = None
        while i < self.n:
            ch = text[i]
            if ch == '"':
                end = i + 1
                break
            if ch in "\n\r":
                self.issue(pos, i, 'this string is never closed; add the closing `"` on the same line')
                end = i
                break
            if ch == "\\":
                escape = _ESCAPE.match(text, i)
                assert escape is not None  # a backslash starts an escape, maybe a bad one
                piece = escape.group()
                if piece[1:] in ("\n", "\r"):
                    piece = "\\"  # the line break ends the string; leave it for the loop
                if not (len(piece) in (6, 12) or (len(piece) == 2 and piece[1] in _SIMPLE_ESCAPES)):
                    shown = piece if len(piece) == 2 else "\\"
                    self.issue(i, i + len(shown), f"`{shown}` is not a JSON escape; write `\\\\` for a backslash")
                i += len(piece)
                continue
            if ch < " ":
                self.issue(
                    i, i + 1, f"a raw control character (U+{ord(ch):04X}) in a string; write it as `\\u{ord(ch):04x}`"
                )
            i += 1
        if end is None:
            end = i
            self.eof_issue('the file ends inside a string; add the closing `"`')
        body_end = end - 1 if end - pos >= 2 and text[end - 1] == '"' else end
        return JString(pos, end, decode_lenient(text[pos + 1 : body_end])), end

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
        return self.n

    def object(self, pos: int, path: Path, depth: int) -> tuple[JObject, int]:
        start, text = pos, self.text
        if depth >= MAX_DEPTH:
            end = self.too_deep(pos)
            return JObject(start, end, []), end
        pos += 1
        members: list[Member] = []
        seen: dict[str, JString] = {}
        want_member = True
        trailing_comma = -1
        while True:
            pos = self.skip(pos)
            if pos >= self.n:
                self.eof_issue("the file ends inside an object; close it with `}`")
                return JObject(start, self.n, members), self.n
            ch = text[pos]
            if ch == "}":
                if trailing_comma >= 0:
                    self.issue(
                        trailing_comma,
                        trailing_comma + 1,
                        "a trailing comma before `}` is not allowed in JSON; remove it",
                    )
                return JObject(start, pos + 1, members), pos + 1
            if ch == '"':
                if not want_member:
                    self.issue(pos, pos + 1, "a comma is missing before this key")
                key, pos = self.string(pos)
                pos = self.skip(pos)
                if pos < self.n and text[pos] == ":":
                    pos += 1
                else:
                    self.issue(key.end, key.end + 1, f"expected `:` after the key {_quoted(key.value)}")
                after = self.skip(pos)
                value: Node | None = None
                if after >= self.n or text[after] in ",}]":
                    if after < self.n:
                        self.issue(after, after + 1, f"the key {_quoted(key.value)} has no value")
                    else:
                        self.eof_issue(f"the file ends before the value of {_quoted(key.value)}")
                    pos = after
                else:
                    value, pos = self.value(after, path + (key.value,), depth + 1)
                    if value is None:
                        pos = self.skip_token(after)
                members.append(Member(key, value))
                first = seen.get(key.value)
                if first is not None:
                    self.duplicates.append(DuplicateKey(path + (key.value,), key, value, first))
                seen[key.value] = key
                want_member, trailing_comma = False, -1
                pos = self.skip(pos)
                if pos < self.n and text[pos] == ",":
                    want_member, trailing_comma = True, pos
                    pos += 1
                continue
            if ch == "]":
                self.issue(pos, pos + 1, "`]` where `}` should close the object")
                return JObject(start, pos, members), pos
            if ch == ",":
                self.issue(pos, pos + 1, "an extra comma; remove it")
                pos += 1
                continue
            bad = self.skip_token(pos)
            self.issue(
                pos,
                bad,
                "expected a key in double quotes, found "
                f"{describe_char(ch) if bad == pos + 1 else '`' + text[pos:bad] + '`'}",
            )
            pos = bad

    def array(self, pos: int, path: Path, depth: int) -> tuple[JArray, int]:
        start, text = pos, self.text
        if depth >= MAX_DEPTH:
            end = self.too_deep(pos)
            return JArray(start, end, []), end
        pos += 1
        items: list[Node] = []
        fast = path in self.element_arrays
        want_item = True
        trailing_comma = -1
        while True:
            pos = self.skip(pos)
            if pos >= self.n:
                self.eof_issue("the file ends inside an array; close it with `]`")
                return JArray(start, self.n, items), self.n
            ch = text[pos]
            if ch == "]":
                if trailing_comma >= 0:
                    self.issue(
                        trailing_comma,
                        trailing_comma + 1,
                        "a trailing comma before `]` is not allowed in JSON; remove it",
                    )
                return JArray(start, pos + 1, items), pos + 1
            if ch == "}":
                self.issue(pos, pos + 1, "`}` where `]` should close the array")
                return JArray(start, pos, items), pos
            if ch == ",":
                self.issue(pos, pos + 1, "an extra comma; remove it")
                pos += 1
                continue
            if not want_item:
                self.issue(pos, pos + 1, "a comma is missing before this value")
            if self.stop is not None and self.stop.is_set():
                raise Cancelled
            item: Node | None = None
            if fast:
                item, pos = self.fast_item(pos, path + (len(items),))
            if item is None:
                item, end = self.value(pos, path + (len(items),), depth + 1)
                pos = end if item is not None else self.skip_token(pos)
            if item is not None:
                items.append(item)
            want_item, trailing_comma = False, -1
            pos = self.skip(pos)
            if pos < self.n and text[pos] == ",":
                want_item, trailing_comma = True, pos
                pos += 1

    def fast_item(self, pos: int, path: Path) -> tuple[JLazy | None, int]:
        """Decode a whole array item in C; None (and no issue) when it is not valid JSON."""
        if self.text[pos] not in "{[":
            return None, pos
        self._duplicates_seen[0] = False
        try:
            value, end = self.decoder.raw_decode(self.text, pos)
        except (ValueError, RecursionError):
            return None, pos
        return JLazy(pos, end, value, path, self._duplicates_seen[0]), end


_SKIPPER = json.JSONDecoder()


def _skip_to(text: str, pos: int, path: Path) -> tuple[int, int] | None:
    """Extent of the value at ``path`` below the valid JSON value at ``pos`` (None if absent)."""
    for part in path:
        opener = text[pos]
        pos += 1
        if opener == "{" and isinstance(part, str):
            found = None
            while True:
                pos = _after_ws(text, pos)
                if text[pos] == "}":
                    break
                key, pos = scanstring(text, pos + 1)
                pos = _after_ws(text, pos) + 1
                pos = _after_ws(text, pos)
                if key == part:
                    found = pos  # keep going: the last member with this key wins
                _, pos = _SKIPPER.raw_decode(text, pos)
                pos = _after_ws(text, pos)
                if text[pos] == ",":
                    pos += 1
            if found is None:
                return None
            pos = found
        elif opener == "[" and isinstance(part, int):
            index = 0
            while True:
                pos = _after_ws(text, pos)
                if text[pos] == "]":
                    return None
                if index == part:
                    break
                _, pos = _SKIPPER.raw_decode(text, pos)
                pos = _after_ws(text, pos)
                if text[pos] == ",":
                    pos += 1
                index += 1
        else:
            return None
    _, end = _SKIPPER.raw_decode(text, pos)
    return pos, end


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


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

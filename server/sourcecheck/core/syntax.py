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

The grammar knows nothing of sessions. What it may assume of the text it reads comes in as
:class:`Hints` (a session's: :data:`.schema.SESSION`): the arrays whose items are decoded by
the C ``json`` decoder when they are valid (a :class:`~.lazy.JLazy` node: value and extent
only; their inner nodes are parsed on demand), the keys each object may hold (a key of the
enclosing object met inside one tells that it lacks its `}`), and what an item of such an
array starts with. The nodes are in :mod:`.jsonnodes`, the tokens and strings in
:mod:`.jsonlex`, lazy items in :mod:`.lazy`; this module re-exports what they define.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]  # in the module, not in its stub
from typing import Any, Protocol

from .brokenstrings import AFTER_STRING, StringRecovery, missing_opening_quote, opening_quote_message
from .display import visible
from .jsonlex import (
    LITERALS,
    NOT_JSON_WORDS,
    NUMBER,
    STRING,
    after_ws,
    bad_number,
    describe_char,
    quoted_key,
    visible_token,
)
from .jsonnodes import (
    DuplicateKey,
    JArray,
    JLiteral,
    JNumber,
    JObject,
    JString,
    Member,
    MovedOut,
    Node,
    PartialList,
    PartialObject,
    Path,
    Splice,
    SyntaxIssue,
    move,
)
from .lazy import (
    PLAIN,
    DuplicateWatch,
    JLazy,
    holds_duplicates,
    skip_to,
    string_extent,
)
from .text import Text

MAX_DEPTH = 256
"""Deeper nesting than this is reported rather than parsed (no session needs it)."""

MAX_ISSUES = 200
"""Syntax issues recorded per parse: past a few, more only repeat the first."""


def _any_fields(path: Path) -> frozenset[str] | None:
    return None


def _an_item(path: Path) -> str:
    return "item"


@dataclass(frozen=True, slots=True)
class Hints:
    """What the parser may assume of the text it reads, to decode it fast and to recover as
    its writer meant (by default nothing: plain JSON)."""

    element_arrays: frozenset[Path] = frozenset()
    """Arrays whose valid items are decoded in one go (lazily expanded), and in which an item
    left open is closed where the next one starts on a line of its own."""
    fields: Callable[[Path], frozenset[str] | None] = _any_fields
    """The keys the object at a path may have (None: any): a key of the enclosing object met
    inside one tells that it lacks its `}`."""
    item_start: re.Pattern[str] | None = None
    """What an item of an element array starts with: met first on a line inside the
    ``inner_array`` of an item, it tells that that array was left open."""
    inner_array: str | None = None
    """The key of the array inside an item that may swallow the next items when left open."""
    lead_key: str | None = None
    """The key an item is written with first (what ``item_start`` finds): a valid item of a
    ``counted_array`` whose ``inner_array`` starts or ends with an object holding it swallowed
    the next items, and is parsed with its break instead of decoded."""
    counted_arrays: frozenset[Path] = frozenset()
    """Element arrays whose items are decoded with their objects made in C, their pairs unseen:
    whether one holds a key twice is settled after the parse (:attr:`Tree.unsure`, ``JLazy``)."""
    item_names: Callable[[Path], str] = _an_item
    """What an item of the element array at a path is called in messages."""
    decode_items: bool = True
    """Whether the valid items of the element arrays are decoded in one go (else parsed)."""


NO_HINTS = Hints()


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
    # Whether a value inside a decoded item is located by walking its text (else it is expanded).
    walk_items: bool = True

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
            parser = Parser(text, valid=True)
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
            if (
                self.walk_items
                and isinstance(node, JLazy)
                and node.expanded is None
                and not self.holds_duplicates(node)
            ):
                text, at = self.item_text(node)
                found = skip_to(text, at, path[depth:])
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
            if (
                self.walk_items
                and isinstance(node, JLazy)
                and node.expanded is None
                and not self.holds_duplicates(node)
            ):
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


# --- parser ------------------------------------------------------------------------


class Cancelled(Exception):
    """The work was called off (its ``stop`` was set): its result is no longer wanted."""


class Stop(Protocol):
    """What long work polls to know it is no longer wanted (a ``threading.Event``)."""

    def is_set(self) -> bool: ...


def parse(text: str, stop: Stop | None = None, hints: Hints = NO_HINTS) -> Tree:
    """Parse a whole file (the items of the ``hints``' element arrays decoded lazily). With
    ``stop``, raises :class:`Cancelled` soon after it is set."""
    parser = Parser(text, hints, stop)
    root = parser.document()
    return Tree(text, root, parser.issues, parser.duplicates, unsure=parser.unsure)


@dataclass(frozen=True, slots=True)
class Resumed:
    """What parsing the items of an array from the middle of a text gave (:func:`resume_items`)."""

    array: JArray  # the items read, their offsets in the text given
    stopped: int  # where the parse stopped: after the array's `]`, at a stop, or at the end
    issues: list[SyntaxIssue]
    duplicates: list[DuplicateKey]
    reached_end: bool  # the text ends inside the array
    resynced: int  # the stop at which an item began as before (-1: none)


def resume_items(
    text: str,
    start: int,
    path: Path,
    first_index: int,
    stops: frozenset[int],
    hints: Hints = NO_HINTS,
    debt: int | None = None,
) -> Resumed:
    """Parse the items of the array that opens at ``start`` of ``text`` (a window of a larger
    text: ``path`` is the array's there, ``first_index`` items come before this one, ``debt``
    is the larger text's brace debt), until its `]` or the first of ``stops`` (offsets where
    untouched items begin) where an item begins: the entry of an incremental parse."""
    parser = Parser(text, hints, known_brace_debt=debt)
    array, stopped = parser.array_items(start, 0, path, len(path), first_index, stops)
    return Resumed(array, stopped, parser.issues, parser.duplicates, parser.reported_eof, parser.resynced)


def brace_debt(text: str) -> int:
    """How many more `{` than `}` ``text`` holds outside its (one-line) strings."""
    stripped = _ONE_LINE_STRING.sub("", text)
    return stripped.count("{") - stripped.count("}")


_JUNK = re.compile(r"""[^ \t\n\r,:\[\]{}"']+""")
_NUMBER_TOKEN = re.compile(r"[-+]*[.\w]*(?:(?<=[eE])[-+]+[.\w]*)*")
_KEY_AHEAD = re.compile(r'[ \t\n\r]*,?[ \t\n\r]*"(?:[^"\\\n\r]|\\.)*"[ \t]*:')
_ONE_LINE_STRING = re.compile(r'"(?:[^"\\\n\r]++|\\.)*+"')


class Parser(StringRecovery):
    def __init__(
        self,
        text: str,
        hints: Hints = NO_HINTS,
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
        self.hints = hints
        self.element_arrays = hints.element_arrays
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
        self.unsure: list[JLazy] = []  # the items of counted arrays, decoded by PLAIN (see JLazy)

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
            pos = after_ws(text, pos)
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
        if ch == "{" or ch == "[":
            if depth >= MAX_DEPTH:
                end = self.too_deep(pos)
                return (JObject(pos, end, []) if ch == "{" else JArray(pos, end, [])), end
            if ch == "{":
                return self.object(pos, path, depth, parent)
            return self.array_items(pos, pos + 1, path, depth)  # (no frame between: nesting is deep)
        if ch == '"':
            return self.string(pos)
        if ch == "'":
            return self.single_quoted(pos)
        if ch in "-+." or "0" <= ch <= "9":
            return self.number(pos)
        word = _JUNK.match(text, pos)
        if word:
            name = word.group()
            if name in LITERALS:
                return JLiteral(pos, word.end(), LITERALS[name]), word.end()
            end = missing_opening_quote(text, pos)
            if end > 0:
                self.issue(pos, end, opening_quote_message(text[pos : end - 1]))
                return JString(pos, end, text[pos : end - 1]), end
            if len(name) == 1 and not name.isalnum():
                message = f"expected a value, found {describe_char(name)}"
            else:
                default = f'`{visible_token(name)}` is not a JSON value; quote strings with `"`'
                message = NOT_JSON_WORDS.get(name, default)
            self.issue(pos, word.end(), message)
            return None, word.end()
        self.issue(pos, pos + 1, f"expected a value, found {describe_char(ch)}")
        return None, pos + 1

    def number(self, pos: int) -> tuple[Node | None, int]:
        match = _NUMBER_TOKEN.match(self.text, pos)
        assert match is not None  # it matches the empty string too
        end = max(match.end(), pos + 1)
        raw = self.text[pos:end]
        if not NUMBER.fullmatch(raw):
            self.issue(pos, end, bad_number(raw))
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
        match = STRING.match(text, pos)
        if match:
            end = match.end()
            if end >= self.n or text[end] in AFTER_STRING or self.closes_later(end, key) < 0:
                body = text[pos + 1 : end - 1]
                value = scanstring(text, pos + 1)[0] if "\\" in body else body
                return JString(pos, end, value), end
        return self.broken_string(pos, key)

    def too_deep(self, pos: int) -> int:
        """Report nesting past MAX_DEPTH and skip to the matching bracket."""
        self.issue(pos, pos + 1, f"values are nested more than {MAX_DEPTH} levels deep; a session needs only a few")
        depth, i, text = 0, pos, self.text
        while i < self.n:
            ch = text[i]
            if ch == '"':
                match = STRING.match(text, i)
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
        match = STRING.match(self.text, pos)
        if match is None:
            return None
        key = self.text[pos + 1 : match.end() - 1]
        fields = self.hints.fields
        mine, enclosing = fields(path), fields(path[:-1])
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

    def item_ahead_in_inner_array(self, pos: int, path: Path) -> bool:
        """Whether the `{` at ``pos``, first on its line in the ``inner_array`` at ``path`` of an
        element array's item, opens the next item (``item_start``: a session's annotation in
        its ``sources``): the inner array was left open."""
        start = self.hints.item_start
        if start is None or not self.infer_braces or len(path) != 3 or path[2] != self.hints.inner_array:
            return False
        if self.item_depth(path) != 2:
            return False
        return self.first_on_line(pos) and start.match(self.text, pos) is not None

    def left_open(self, start: int, members: list[Member], path: Path) -> JObject:
        """The object at ``path`` that the next item's `{` found open, closed after its last
        member; the item it is (or is in) gets one issue naming every closer it lacks."""
        last = members[-1] if members else None
        close = start + 1 if last is None else last.value.end if last.value is not None else last.key.end
        self._closers.append("}")
        if len(path) == self.item_depth(path):
            what = self.hints.item_names(path[:-1])
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
        """The object that opens at ``pos`` (not too deep: :meth:`value` sees to that), each
        member read here, as JSON writes it, without a call of its own (a session has
        hundreds of thousands)."""
        start, text = pos, self.text
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
            if ch == "}" or ch == "]":
                # (a `}` closing a member's object, as written most, without a call)
                end = (
                    pos + 1
                    if ch == "}" and trailing_comma < 0 and parent is not None
                    else self.object_end(pos, parent, trailing_comma)
                )
                if end >= 0:
                    return JObject(start, end, members), end
                pos += 1  # an extra `}`
                continue
            if (  # after a member and a comma, a key of the object around this one
                trailing_comma >= 0
                and (ch == '"' or ch == "'")
                and (belongs := self.missing_brace(pos, path, parent)) is not None
            ):
                return JObject(start, self.closed_before(belongs, path, members), members), trailing_comma
            key: JString | None
            if ch == '"' and (want_member or junk):  # a key, as written most
                key, pos = self.string(pos, key=True)
            else:
                key, pos = self.odd_key(pos, want_member or junk)
            if key is None:
                if ch == "{" and self.item_ahead(pos, path):
                    return self.left_open(start, members, path), pos
                pos, want_member, junk, trailing_comma = self.not_a_member(pos, ch, want_member, junk, trailing_comma)
                continue
            # The member of ``key``: its `:` and its value.
            pos = self.skip(pos)
            colon = pos < self.n and text[pos] == ":"
            if colon:
                pos += 1
            after = self.skip(pos)
            value: Node | None = None
            if colon and after < self.n and text[after] not in ",}]{":  # `"key": value`, as written most
                value, pos = self.value(after, path + (key.value,), depth + 1, seen)
            elif self.no_value(key, colon, pos, after, path):
                pos = after
            else:
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

    def odd_key(self, pos: int, expected: bool) -> tuple[JString | None, int]:
        """A key as JSON does not write it at ``pos``: after a missing comma (unless
        ``expected``: after a comma or junk), in single quotes, or unquoted, said; None when
        no key is there (a `'` that does not close is read and said all the same)."""
        ch = self.text[pos]
        if ch == '"' or ch == "'":
            if not expected:
                self.issue(pos, pos + 1, "a comma is missing before this key")
            return self.string(pos, key=True) if ch == '"' else self.single_quoted(pos)
        if ch in ",:[]{":
            return None, pos
        return self.unquoted_key(pos, expected)

    def not_a_member(
        self, pos: int, ch: str, want_member: bool, junk: bool, trailing_comma: int
    ) -> tuple[int, bool, bool, int]:
        """What is at ``pos`` (``ch``) where a member should be and none is: a `'` already read
        (:meth:`odd_key`), an extra comma, or a value or a token skipped; where it ends, and
        then whether a member is wanted, whether what follows is junk, the trailing comma."""
        if ch == "'":
            return pos, want_member, True, trailing_comma
        if ch == ",":
            self.extra_comma(pos, want_member and not junk)
            return pos + 1, True, False, trailing_comma
        return self.not_a_key(pos, junk), want_member, True, -1

    def object_end(self, pos: int, parent: dict[str, JString] | None, trailing_comma: int) -> int:
        """Where the object ends at the `}` or `]` at ``pos`` (said when it is a `]`, or after a
        trailing comma); -1 when the `}` is one too many (said): the members after it are the
        object's."""
        if self.text[pos] == "]":
            self.issue(pos, pos + 1, "`]` where `}` should close the object")
            return pos
        if parent is None and not self.valid and _KEY_AHEAD.match(self.text, pos + 1):
            # An array item (or the whole file) is never followed by a key.
            self.issue(pos, pos + 1, "an extra `}`: the keys after it belong to this object; remove it")
            return -1
        if trailing_comma >= 0:
            self.issue(
                trailing_comma, trailing_comma + 1, "a trailing comma before `}` is not allowed in JSON; remove it"
            )
        return pos + 1

    def extra_comma(self, pos: int, said: bool) -> None:
        """The `,` at ``pos`` follows a comma (or an opening bracket): said when ``said``."""
        if said:
            self.issue(pos, pos + 1, "an extra comma; remove it")

    def not_a_key(self, pos: int, junk: bool) -> int:
        """Skip what is at ``pos`` where a key should be (a value, whole, or a token), said
        unless ``junk`` (an unusable token was just reported); where it ends."""
        text, begin, ch = self.text, pos, self.text[pos]
        whole = self.whole_value(pos) if ch in "[{" else -1
        if whole > pos:  # a value where a key should be: skipped whole
            pos = whole
            found = "an object" if ch == "{" else "an array"
        else:
            pos = self.skip_token(pos)
            found = describe_char(ch) if pos == begin + 1 else f"`{visible_token(text[begin:pos])}`"
        if not junk:
            self.issue(begin, pos if ch not in "[{" else begin + 1, f"expected a key in double quotes, found {found}")
        return pos

    def closed_before(self, belongs: str, path: Path, members: list[Member]) -> int:
        """Where the object at ``path`` should have been closed, its next key (after a comma)
        being ``belongs``, a key of the object around it (see :meth:`missing_brace`); said."""
        last = members[-1]
        close = last.value.end if last.value is not None else last.key.end
        self.issue(
            close,
            close,
            f"`{visible(str(path[-1]))}` is not closed: add `}}` here, before `{visible(belongs)}` "
            f"(a key of the object around `{visible(str(path[-1]))}`)",
        )
        return close

    def unquoted_key(self, pos: int, expected: bool) -> tuple[JString | None, int]:
        """An unquoted key at ``pos`` (``expected``: after a comma or junk, so no comma is
        missing), with an issue; None when what is there is no key."""
        text = self.text
        word = _JUNK.match(text, pos)
        after = after_ws(text, word.end()) if word else pos
        if not word or after >= self.n or text[after] != ":":
            return None, pos
        if not expected:
            self.issue(pos, pos + 1, "a comma is missing before this key")
        self.issue(pos, word.end(), f"a key must be in double quotes: write {quoted_key(word.group())}")
        return JString(pos, word.end(), word.group()), word.end()

    def no_value(self, key: JString, colon: bool, pos: int, after: int, path: Path) -> bool:
        """Whether ``key`` of the object at ``path`` (its `:` read, if ``colon``, up to ``pos``)
        has no value at ``after`` (it is being typed, or a `,` `}` `]` comes next), said; a
        missing `:` before a value is said too."""
        text = self.text
        if not colon and key.end == self._unclosed:
            return True  # a key being typed, never closed: the next line is not its value
        if after < self.n and text[after] == "{" and self.next_item_at(after, path):
            if colon:
                self.issue(pos - 1, pos, f"the key {quoted_key(key.value)} has no value")
            else:
                self.issue(key.end, key.end + 1, f"expected `:` after the key {quoted_key(key.value)}")
            return True  # a key being typed: the next item is not its value
        if after >= self.n or text[after] in ",}]":
            if after < self.n:
                self.issue(after, after + 1, f"the key {quoted_key(key.value)} has no value")
            else:
                self.eof_issue(f"the file ends before the value of {quoted_key(key.value)}")
            return True
        if not colon:
            self.issue(key.end, key.end + 1, f"expected `:` after the key {quoted_key(key.value)}")
        return False

    def whole_value(self, pos: int) -> int:
        """The end of the valid JSON value at ``pos``; -1 if none is there."""
        try:
            return int(self.decoder.raw_decode(self.text, pos)[1])
        except (ValueError, RecursionError):
            return -1

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
        fast = path in self.element_arrays and self.hints.decode_items
        counted = fast and path in self.hints.counted_arrays  # (its items decoded by PLAIN)
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
                pos, want_item, trailing_comma, declined = self.fast_items(
                    pos, path, counted, items, first_index, stops, trailing_comma, declined
                )
            pos = self.skip(pos)
            if pos >= self.n:
                self.eof_issue("the file ends inside an array; close it with `]`")
                return JArray(start, self.n, items, dropped + 1), self.n  # an item may be on its way
            ch = text[pos]
            if ch == "]" or ch == "}":
                end = pos + 1 if ch == "]" and trailing_comma < 0 else self.array_end(pos, trailing_comma)
                return JArray(start, end, items, dropped), end
            if ch == "," or ch == ":":
                junk = self.punctuation_in_array(pos, want_item, junk)
                want_item = True
                pos += 1
                continue
            if ch == "{" and self.item_ahead_in_inner_array(pos, path):
                self._closers.append("]")
                return JArray(start, items[-1].end if items else start + 1, items, dropped + 1), pos
            if not want_item and not junk:
                self.issue(pos, pos + 1, "a comma is missing before this value")
            if stops is not None and pos in stops:
                self.resynced = pos
                return JArray(start, pos, items, dropped), pos
            if self.stop is not None and self.stop.is_set():
                raise Cancelled
            at, where = pos, path + (first_index + len(items),)
            item, pos = (
                self.array_item(pos, where, depth, counted)
                if fast and pos != declined
                else self.value(pos, where, depth + 1)
            )
            if item is not None:
                items.append(item)
            else:
                dropped += 1
                pos = max(pos, at + 1)  # past it, at least one character on
            junk = item is None or item.end in (self._unclosed, self._open_item_end)
            want_item, trailing_comma = False, -1
            pos = self.skip(pos)
            if pos < self.n and text[pos] == ",":
                want_item, trailing_comma, junk = True, pos, False
                pos += 1

    def fast_items(
        self,
        pos: int,
        path: Path,
        counted: bool,
        items: list[Node],
        first_index: int,
        stops: frozenset[int] | None,
        trailing_comma: int,
        declined: int,
    ) -> tuple[int, bool, int, int]:
        """One object after another from ``pos``, each decoded in C and followed by a comma (ten
        thousand annotations), added to ``items`` as the loop of :meth:`array_items` adds them,
        until anything else comes (then that loop takes it): where they end, whether an item is
        wanted there, the trailing comma (-1: none), where an item was declined (-1: none)."""
        text, n, stop = self.text, self.n, self.stop
        while True:
            at = after_ws(text, pos)
            if at >= n or text[at] != "{" or (stops is not None and at in stops):
                return pos, True, trailing_comma, declined
            if stop is not None and stop.is_set():
                raise Cancelled
            lazy, end = self.fast_item(at, path + (first_index + len(items),), counted)
            if lazy is None:
                return pos, True, trailing_comma, at
            items.append(lazy)
            pos = end if end < n and text[end] == "," else self.skip(end)
            if pos < n and text[pos] == ",":
                trailing_comma = pos
                pos += 1
            else:
                return pos, False, -1, declined

    def array_end(self, pos: int, trailing_comma: int) -> int:
        """Where the array ends at the `]` or `}` at ``pos`` (said when it is a `}`, or after a
        trailing comma)."""
        if self.text[pos] == "}":
            self.issue(pos, pos + 1, "`}` where `]` should close the array")
            return pos
        if trailing_comma >= 0:
            self.issue(
                trailing_comma, trailing_comma + 1, "a trailing comma before `]` is not allowed in JSON; remove it"
            )
        return pos + 1

    def punctuation_in_array(self, pos: int, want_item: bool, junk: bool) -> bool:
        """A `,` where an item is wanted (one too many) or a `:` at ``pos`` in an array, said
        unless ``junk`` (just said); whether what follows is junk (after a `:`, yes)."""
        if self.text[pos] == ",":
            self.extra_comma(pos, want_item and not junk)
            return False
        if not junk:
            self.issue(pos, pos + 1, "a `:` in an array: an array holds values; `key: value` is for objects")
        return True

    def array_item(self, pos: int, path: Path, depth: int, counted: bool) -> tuple[Node | None, int]:
        """The item at ``pos``, decoded in C when it can be, and where it ends; None when no
        value could be read there."""
        lazy, end = self.fast_item(pos, path, counted)
        if lazy is not None:
            return lazy, end
        return self.value(pos, path, depth + 1)

    def fast_item(self, pos: int, path: Path, counted: bool) -> tuple[JLazy | None, int]:
        """Decode a whole array item in C (by PLAIN, when its array is ``counted``); None (and
        no issue) when it is not valid JSON, or not what was meant."""
        if self.text[pos] not in "{[":
            return None, pos
        self._duplicates_seen[0] = False
        try:
            value, end = (PLAIN if counted else self.decoder).raw_decode(self.text, pos)
        except (ValueError, RecursionError):
            return None, pos
        if counted and type(value) is dict and (lead := self.hints.lead_key) is not None:
            inner = value.get(self.hints.inner_array)
            if (
                type(inner) is list
                and inner
                and ((type(inner[0]) is dict and lead in inner[0]) or (type(inner[-1]) is dict and lead in inner[-1]))
            ):
                # A session's `"sources": [` typed (or `,` after a source), and the annotations
                # after it read as its sources: valid JSON, but not what was meant (the last of
                # them, or the first, has a claim). Parsed with its break (see :meth:`item_ahead_in_inner_array`).
                return None, pos
        if counted:
            item = JLazy(pos, end, value, path, None, self.text.count(":", pos, end))
            self.unsure.append(item)
            return item, end
        return JLazy(pos, end, value, path, self._duplicates_seen[0]), end

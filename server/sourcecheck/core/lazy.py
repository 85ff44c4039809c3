"""Lazily decoded items: the items of a session's large arrays (its documents, its
annotations) decoded by the C ``json`` decoder in one go (a :class:`JLazy` node: value and
extent), their inner nodes parsed only when a position inside is needed; whether one holds a
key twice, settled when asked; and values found inside one without parsing it (the C
decoder skipping what is not on the path).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from json.decoder import scanstring  # type: ignore[attr-defined]  # in the module, not in its stub
from typing import Any

from .jsonlex import WS
from .jsonnodes import NOT_MOVED, JArray, JObject, Node, Path, Tail
from .jsontext import compact


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


def holds_duplicates(item: JLazy, text: str, at: int, watch: DuplicateWatch | None = None) -> bool:
    """Whether ``item``, written in ``text`` at ``at``, holds a key twice: known; else none
    when its text has as many `:` as its decoded value written again (see JLazy), else
    found by decoding it once more with its pairs (``watch``, if given, does). Known from
    then on."""
    if item.has_duplicates is None:
        if not colon_escaped(item, text, at):
            # No `:` written as an escape: those in strings are the decoded strings' own, and
            # the others follow the keys, one each, as written. A key written twice (and the
            # strings of the value it replaced) leaves more of them than the decoded value
            # has when written again: one `:` after each key, and its strings' own (written
            # by the C encoder, which writes a `:` as itself).
            item.has_duplicates = item.colons != written_colons(item.value)
        elif item.colons == keys_and_colons(item.value)[0]:
            item.has_duplicates = False
        else:
            item.has_duplicates = (watch or DuplicateWatch()).holds(text, at)
    return item.has_duplicates


def colon_escaped(item: JLazy, text: str, at: int) -> bool:
    """Whether ``item``, written in ``text`` at ``at``, may write a `:` as an escape
    (``\\u003a``): then the `:` written do not tell the strings' from the keys'."""
    return text.find("\\u003", at, at + item.end - item.start) >= 0


def written_colons(value: Any) -> int:
    """How many `:` a decoded value has written again as JSON: one after each key, and its
    strings' own (keys included)."""
    text = compact(value)  # in C (five times as fast as counting in Python)
    if text is not None:
        return text.count(b":")
    keys, in_strings = keys_and_colons(value)
    return keys + in_strings


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

        self.decoder = json.JSONDecoder(object_pairs_hook=pairs_hook, parse_constant=reject_constant)

    def holds(self, text: str, at: int) -> bool:
        """Whether the valid JSON value at ``at`` holds a key twice."""
        self.seen[0] = False
        self.decoder.raw_decode(text, at)
        return self.seen[0]


def reject_constant(name: str) -> Any:
    raise ValueError(name)


PLAIN = json.JSONDecoder(parse_constant=reject_constant)  # objects made in C, their pairs unseen


_SKIPPER = json.JSONDecoder()
_SKIP_VALUE = _SKIPPER.scan_once  # type: ignore[attr-defined]  # (value, end) of the valid JSON value at an offset


def skip_to(text: str, pos: int, path: Path) -> tuple[int, int] | None:
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
    """Where the value at ``path`` below the valid JSON value at ``pos`` starts (see skip_to).
    The values before it are skipped by the C decoder (its scanner called directly: the value
    is valid JSON), the whitespace by the pattern (called directly: a thousand findings are
    placed on opening a large session, twenty skips each)."""
    space, skip = WS.match, _SKIP_VALUE
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

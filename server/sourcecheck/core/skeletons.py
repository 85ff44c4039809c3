"""Skeletons: whole values a writer starts from, and the places where each can be written.

- *What goes where*: a new annotation where an item of ``annotations`` can start, a new
  source in a ``sources`` array, a ref after ``"claim":``, a boundary after ``"start":`` /
  ``"end":``, a list of one source after ``"sources":``; and inside an annotation, a ref,
  a source or a boundary, each key the format defines there and the object lacks, with a
  value to start from.
- *What they hold*: a skeleton points at real text, so that one accepted as it is already
  resolves: the first document (for a source, the first that is not the claim's), its first
  line with a word, and that word, made unique on its line, as both boundaries.
- *How they are written*: :meth:`Offer.text` writes JSON the way the file is written (its
  indentation unit, the indentation of the line), with the commas the place needs; as a
  snippet, every value to fill in is a placeholder (``$``, ``}`` and ``\\`` escaped as the
  snippet grammar asks).

Places are read from the analysis of a half-typed text (``Analysis.place_at`` and the
characters around the cursor); nothing is parsed again, and nothing here knows of LSP.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from typing import Any

from .analysis import Analysis
from .extend import extend_right
from .insert import indent_unit, line_indent
from .jsonlex import encode_string
from .jsonnodes import JArray, JObject, Member, Node
from .occurrences import occurrences
from .schema import ANNOTATION_KEYS, BOUNDARY_KEYS, REF_KEYS, SOURCE_KEYS
from .session import Document, Path

FIELDS: dict[str, tuple[str, ...]] = {
    "annotation": ANNOTATION_KEYS,
    "ref": REF_KEYS,
    "source": SOURCE_KEYS,
    "boundary": BOUNDARY_KEYS,
}
"""The keys of each kind of object, in the order they are written."""

DETAILS = {
    "annotation": "a new annotation: a claim and one source",
    "source": "a new source: a ref, its polarity and confidence",
    "ref": "a ref: path, start and end",
    "boundary": "a boundary: line and str",
    "sources": "a list of one source",
}
CONFIDENCE = 0.7  # a reputable secondary source, the skill's middle band
SCAN_LINES = 50  # lines searched for the first word of a document
SCAN_CHARS = 200  # characters of a line searched for its first word

_WORD = re.compile(r"\w")  # a word character, as the boundary rules count them
_TYPED_WORD = re.compile(r"[A-Za-z_]+$")
_VALUE_KEY_BEFORE = re.compile(r'"(claim|sources|start|end)"\s*:\s*$')
_AFTER_KEY = re.compile(r"[ \t]*(:[ \t]*)?")
_SPACE = " \t\r\n"


# --- what a skeleton holds


@dataclass(frozen=True, slots=True)
class Slot:
    """A value the writer is expected to change: a placeholder in a snippet."""

    value: str | int | float


@dataclass(frozen=True, slots=True)
class RefTarget:
    """Where a new ref points unless the writer says otherwise."""

    path: str
    line: int
    text: str


def first_word(line: str) -> str | None:
    """The first word of ``line``, extended until it is unique on the line."""
    found = _WORD.search(line, 0, SCAN_CHARS)
    if found is None:
        return None
    text = extend_right(line[:SCAN_CHARS], found.start(), 1)
    return text if text is not None and occurrences(line, text)[1] == 1 else None


def point_in(document: Document | None, line: int | None = None) -> RefTarget:
    """A point in ``document``: on ``line`` if given, else on its first line with a word."""
    if document is None:
        return RefTarget("", 1, "")
    lines = document.lines
    if line is not None and 1 <= line <= len(lines):
        return RefTarget(document.path, line, first_word(lines[line - 1]) or "")
    for number in range(1, min(len(lines), SCAN_LINES) + 1):
        word = first_word(lines[number - 1])
        if word is not None:
            return RefTarget(document.path, number, word)
    return RefTarget(document.path, 1, "")


def boundary(point: RefTarget) -> dict[str, Any]:
    return {"line": Slot(point.line), "str": Slot(point.text)}


def ref(point: RefTarget) -> dict[str, Any]:
    return {"path": Slot(point.path), "start": boundary(point), "end": boundary(point)}


def source(point: RefTarget) -> dict[str, Any]:
    return {**ref(point), "polarity": Slot("supports"), "confidence": Slot(CONFIDENCE)}


def annotation(claim: RefTarget, evidence: RefTarget) -> dict[str, Any]:
    return {"claim": ref(claim), "sources": [source(evidence)]}


# --- writing one


def snippet_escape(text: str) -> str:
    """Literal text for an LSP snippet: ``$``, ``}`` and ``\\`` escaped."""
    return re.sub(r"([$}\\])", r"\\\1", text)


def written(value: Any, unit: str | None, indent: str, snippet: bool) -> str:
    """``value`` as JSON, indented by ``unit`` from ``indent`` (compact when ``unit`` is
    None); as a snippet, each :class:`Slot` is a placeholder, numbered in text order."""
    return _json(value, unit, indent, snippet, count(1))


def _json(value: Any, unit: str | None, indent: str, snippet: bool, stops: Iterator[int]) -> str:
    if isinstance(value, Slot):
        return _slot(value.value, snippet, stops)
    inner = indent + unit if unit is not None else ""
    if isinstance(value, dict):
        parts = [_literal(key, snippet) + ": " + _json(v, unit, inner, snippet, stops) for key, v in value.items()]
        return _joined("{", parts, "}", unit, indent, snippet)
    if isinstance(value, list):
        return _joined("[", [_json(v, unit, inner, snippet, stops) for v in value], "]", unit, indent, snippet)
    return _literal(value, snippet)


def _literal(value: str | int | float, snippet: bool) -> str:
    text = encode_string(value) if isinstance(value, str) else json.dumps(value)
    return snippet_escape(text) if snippet else text


def _slot(value: str | int | float, snippet: bool, stops: Iterator[int]) -> str:
    literal = _literal(value, False)
    if not snippet:
        return literal
    stop = next(stops)
    body = literal[1:-1] if isinstance(value, str) else literal
    placeholder = f"${{{stop}:{snippet_escape(body)}}}" if body else f"${{{stop}}}"
    return f'"{placeholder}"' if isinstance(value, str) else placeholder


def _joined(opening: str, parts: list[str], closing: str, unit: str | None, indent: str, snippet: bool) -> str:
    closing = snippet_escape(closing) if snippet else closing
    if not parts:
        return opening + closing
    if unit is None:
        return opening + ", ".join(parts) + closing
    inner = indent + unit
    return opening + "\n" + inner + (",\n" + inner).join(parts) + "\n" + indent + closing


@dataclass(frozen=True, slots=True)
class Offer:
    """One thing completion may write: a skeleton, or a key with a value to start from.

    It replaces ``[start, end)`` (on the cursor's line); a comma the place needs before it
    goes at ``comma_at`` (after the value before, outside that range) or opens ``text``."""

    label: str
    detail: str
    key: str | None  # written as the member ``"key": value``; None: the value alone
    value: Any  # with a :class:`Slot` for each value to fill in
    start: int
    end: int
    filter: str  # what the typed text is matched against
    sort: str
    indent: str  # of the line it is written on
    unit: str | None  # the file's indentation step; None: a compact file
    comma_at: int | None = None
    lead: str = ""  # written before: a comma right after the value before
    comma_after: bool = False  # a value follows: a comma ends it
    wrap: bool = False  # in an empty `[]` on one line: written on lines of its own

    def text(self, snippet: bool) -> str:
        indent = self.indent + self.unit if self.wrap and self.unit is not None else self.indent
        body = written(self.value, self.unit, indent, snippet)
        if self.key is not None:
            body = _literal(self.key, snippet) + ": " + body
        if self.wrap and self.unit is not None:
            body = "\n" + indent + body + "\n" + self.indent
        return self.lead + body + ("," if self.comma_after else "")


# --- where the format puts what


def object_kind(path: Path) -> str | None:
    """The kind of object the format puts at ``path``: annotation, ref (a claim), source, boundary."""
    if len(path) < 2 or path[0] != "annotations" or not isinstance(path[1], int):
        return None
    rest = path[2:]
    if not rest:
        return "annotation"
    if rest == ("claim",):
        return "ref"
    if len(rest) == 2 and rest[0] == "sources" and isinstance(rest[1], int):
        return "source"
    if rest[-1] in ("start", "end") and object_kind(path[:-1]) in ("ref", "source"):
        return "boundary"
    return None


def item_kind(path: Path) -> str | None:
    """The kind of object the array at ``path`` holds."""
    if path == ("annotations",):
        return "annotation"
    if len(path) == 3 and path[0] == "annotations" and isinstance(path[1], int) and path[2] == "sources":
        return "source"
    return None


def _written(value: Any, path: Path) -> Any:
    """The plain value at ``path`` as written so far (None where there is none)."""
    for part in path:
        if isinstance(part, str) and isinstance(value, dict):
            value = value.get(part)
        elif isinstance(part, int) and isinstance(value, list) and 0 <= part < len(value):
            value = value[part]
        else:
            return None
    return value


def claim_point(analysis: Analysis) -> RefTarget:
    """Where a new claim points: the first document."""
    documents = analysis.session.documents
    return point_in(documents[0] if documents else None)


def evidence_point(analysis: Analysis, claim_path: Any) -> RefTarget:
    """Where a new source points: the first document that is not the claim's."""
    documents = analysis.session.documents
    others = [d for d in documents if d.path != claim_path] or documents
    return point_in(others[0] if others else None)


def source_point(analysis: Analysis, annotation_path: Path) -> RefTarget:
    """Where a new source of the annotation at ``annotation_path`` points."""
    claim = _written(analysis.value, annotation_path + ("claim", "path"))
    return evidence_point(analysis, claim if isinstance(claim, str) else claim_point(analysis).path)


def ref_point(analysis: Analysis, path: Path) -> RefTarget:
    """Where the ref or boundary at ``path`` points: its document and line as written, else
    where a new one would."""
    boundary_path = path if object_kind(path) == "boundary" else None
    ref_path = path[:-1] if boundary_path else path
    written_path = _written(analysis.value, ref_path + ("path",))
    document = analysis.session.by_path.get(written_path) if isinstance(written_path, str) else None
    if document is None:
        return source_point(analysis, ref_path[:2]) if object_kind(ref_path) == "source" else claim_point(analysis)
    line = _written(analysis.value, boundary_path + ("line",)) if boundary_path else None
    return point_in(document, line if isinstance(line, int) and not isinstance(line, bool) else None)


def skeleton(analysis: Analysis, kind: str, path: Path) -> Any:
    """The skeleton of ``kind`` for the value at ``path`` (an item's: its array's path)."""
    if kind == "annotation":
        claim = claim_point(analysis)
        return annotation(claim, evidence_point(analysis, claim.path))
    if kind == "source":
        return source(source_point(analysis, path[:2]))
    if kind == "sources":
        return [source(source_point(analysis, path[:2]))]
    point = ref_point(analysis, path)
    return ref(point) if kind == "ref" else boundary(point)


def member_value(analysis: Analysis, path: Path, key: str) -> Any:
    """The value to start from for ``key`` in the object at ``path``."""
    if key in ("claim", "sources"):
        return skeleton(analysis, "ref" if key == "claim" else "sources", path + (key,))
    point = ref_point(analysis, path)
    values: dict[str, str | int] = {"path": point.path, "line": point.line, "str": point.text, "polarity": "supports"}
    if key in values:
        return Slot(values[key])
    return Slot(CONFIDENCE) if key == "confidence" else boundary(point)


# --- the cursor


@dataclass(frozen=True, slots=True)
class Cursor:
    """Where completion was asked: the object or array it is in, the word or key being typed
    (``[start, end)``, empty when none), an empty ``{}`` just typed around it."""

    offset: int
    path: Path
    node: Node
    start: int
    end: int
    key: Member | None = None  # the key being typed (the cursor is on it)
    brace: tuple[int, int] | None = None


def cursor_at(analysis: Analysis, offset: int) -> Cursor | None:
    """The cursor at ``offset``; None inside a value (a string, a number) or on a key that
    has its value."""
    place = analysis.place_at(offset)
    if place is None:
        return None
    path, node = place.path, place.node
    if place.on_key:
        member = analysis.member(path)
        if member is not None and member.key.start < offset:
            end = _typed_key_end(analysis, member, offset)
            parent = analysis.node(path[:-1])
            if end is None or parent is None:
                return None
            return Cursor(offset, path[:-1], parent, member.key.start, end, key=member)
    if path and not _inside(analysis, node, offset):  # before a value, or after a closed one
        if not place.on_key and not isinstance(node, (JObject, JArray)) and node.start < offset:
            return None  # at the end of a string or number: what is typed is that value
        path = path[:-1]
        node = analysis.node(path) or node
    word = _TYPED_WORD.search(analysis.source[_line_start(analysis, offset) : offset])
    start = offset - len(word.group()) if word else offset
    return Cursor(offset, path, node, start, offset, brace=_just_opened(analysis, node, offset))


def _inside(analysis: Analysis, node: Node, offset: int) -> bool:
    """Whether ``offset`` is inside the object or array ``node`` (not before or after it)."""
    if not isinstance(node, (JObject, JArray)) or offset <= node.start:
        return False
    closing = "}" if isinstance(node, JObject) else "]"
    return offset < node.end or node.end - node.start < 2 or analysis.source[node.end - 1] != closing


def _line_start(analysis: Analysis, offset: int) -> int:
    return analysis.lines.starts[analysis.lines.line_of(offset)]


def _line_end(analysis: Analysis, offset: int) -> int:
    return analysis.lines.line_end(analysis.lines.line_of(offset))


def _typed_key_end(analysis: Analysis, member: Member, offset: int) -> int | None:
    """Where the key being typed ends, with its `:` if there is one; None when a value
    follows on its line (a key being renamed, not typed) or it runs past the line."""
    line_end = _line_end(analysis, offset)
    if member.key.end > line_end:
        return None
    rest = analysis.source[member.key.end : line_end]
    after = _AFTER_KEY.match(rest)
    assert after is not None  # it matches the empty string too
    if after.group(1) and rest[after.end() :].strip() and rest[after.end()] not in ",}":
        return None
    return member.key.end + (after.end() if after.group(1) else 0)


def _just_opened(analysis: Analysis, node: Node, offset: int) -> tuple[int, int] | None:
    """The extent of an empty ``{`` (or ``{}``) just typed on the cursor's line."""
    if not isinstance(node, JObject) or node.members or node.start >= offset:
        return None
    source = analysis.source
    if (
        source[node.start] != "{"
        or source[node.start + 1 : offset].strip(_SPACE)
        or _line_start(analysis, offset) > node.start
    ):
        return None
    closed = node.end <= _line_end(analysis, offset) and source[node.end - 1] == "}" and node.end > offset
    if closed and not source[offset : node.end - 1].strip(_SPACE):
        return node.start, node.end
    return node.start, offset


def _before(analysis: Analysis, at: int) -> tuple[str, int]:
    """The last character before ``at`` that is not whitespace, and its offset ("" and -1: none)."""
    source = analysis.source
    while at > 0:
        chunk = source[max(0, at - 256) : at]
        stripped = chunk.rstrip(_SPACE)
        if stripped:
            return stripped[-1], at - len(chunk) + len(stripped) - 1
        at -= len(chunk)
    return "", -1


def _after(analysis: Analysis, at: int) -> tuple[str, int]:
    """The first character at or after ``at`` that is not whitespace, and its offset."""
    source = analysis.source
    while at < len(source):
        chunk = source[at : at + 256]
        stripped = chunk.lstrip(_SPACE)
        if stripped:
            return stripped[0], at + len(chunk) - len(stripped)
        at += len(chunk)
    return "", len(source)


_OPENINGS = {"item": "[", "member": "{"}


def _placed(analysis: Analysis, start: int, end: int, where: str, **fields: Any) -> Offer | None:
    """An offer for ``[start, end)``, an ``item`` of an array, a ``member`` of an object or
    the ``value`` of a key, with the commas its neighbours need. None: no new item or
    member starts there (after a `:`, or where the other kind of value goes)."""
    before, before_at = _before(analysis, start)
    after, after_at = _after(analysis, end)
    if where != "value" and (before == ":" or before in ("[", "{") and before != _OPENINGS[where]):
        return None
    source = analysis.source
    unit = indent_unit(source)
    indent = line_indent(source, start)
    if indent is None:
        line = source[_line_start(analysis, start) : start]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
    comma_at, lead = None, ""
    if where != "value" and before and before not in "[{,":
        if before_at + 1 == start:
            lead = "," + ("\n" + indent if unit is not None else " ")
        else:
            comma_at = before_at + 1
    wrap = where == "item" and before == "[" and after == "]" and "\n" not in source[before_at:after_at]
    return Offer(
        start=start,
        end=end,
        indent=indent,
        unit=unit,
        comma_at=comma_at,
        lead=lead,
        comma_after=after == '"' if where != "item" else bool(after) and after not in ",]}",
        wrap=wrap,
        **fields,
    )


# --- what is offered


def offers_at(analysis: Analysis, offset: int) -> list[Offer]:
    """Everything that can be written at ``offset``: skeletons, then missing keys."""
    cursor = cursor_at(analysis, offset)
    if cursor is None:
        return []
    offers = [skeleton_offer(analysis, cursor), *key_offers(analysis, cursor)]
    return [offer for offer in offers if offer is not None]


def skeleton_offer(analysis: Analysis, cursor: Cursor) -> Offer | None:
    """A whole value: the object whose ``{`` was just typed, an item where one can start in
    ``annotations`` or ``sources``, the value after ``"claim":``, ``"sources":``,
    ``"start":`` or ``"end":``."""
    if cursor.key is not None:
        return None
    if cursor.brace is not None:
        kind = object_kind(cursor.path)
        if kind is None:
            return None
        where = "item" if kind in ("annotation", "source") else "value"
        return _skeleton(analysis, kind, cursor.path, *cursor.brace, where, "{" + kind)
    if isinstance(cursor.node, JArray):
        kind = item_kind(cursor.path)
        return _skeleton(analysis, kind, cursor.path, cursor.start, cursor.end, "item", kind) if kind else None
    key = _value_key(analysis, cursor)
    if key is None:
        return None
    kind = {"claim": "ref", "sources": "sources"}.get(key, "boundary")
    return _skeleton(analysis, kind, cursor.path + (key,), cursor.start, cursor.end, "value", kind)


def _skeleton(analysis: Analysis, kind: str, path: Path, start: int, end: int, where: str, filter: str) -> Offer | None:
    value = skeleton(analysis, kind, path)
    return _placed(
        analysis, start, end, where, label=kind, detail=DETAILS[kind], key=None, value=value, filter=filter, sort="0"
    )


def _value_key(analysis: Analysis, cursor: Cursor) -> str | None:
    """The key (``claim``, ``sources``, ``start``, ``end``) whose value is to be typed at
    the cursor, when the object at the cursor has it and it has no value yet."""
    if not isinstance(cursor.node, JObject):
        return None
    before = _VALUE_KEY_BEFORE.search(analysis.source[_line_start(analysis, cursor.start) : cursor.start])
    kind = object_kind(cursor.path)
    if before is None or kind is None or before.group(1) not in FIELDS[kind]:
        return None
    member = cursor.node.member(before.group(1))
    if member is None or member.key.end > cursor.start:
        return None
    value = member.value
    if value is not None and "\n" not in analysis.source[cursor.end : max(cursor.end, value.start)]:
        return None  # it has a value (or one starts right here)
    return before.group(1)


def key_offers(analysis: Analysis, cursor: Cursor) -> list[Offer | None]:
    """Each key the object at the cursor lacks, with a value to start from."""
    node, kind = cursor.node, object_kind(cursor.path)
    if not isinstance(node, JObject) or kind is None:
        return []
    present = {m.key.value for m in node.members if m is not cursor.key}
    start, end = (cursor.start, cursor.end) if cursor.brace is None else (cursor.offset, cursor.offset)
    offers = []
    for rank, key in enumerate(FIELDS[kind]):
        if key in present:
            continue
        value = member_value(analysis, cursor.path, key)
        shown = written(value, None, "", False)
        fields = {
            "label": key,
            "detail": shown if len(shown) <= 60 else shown[:59] + "…",
            "key": key,
            "value": value,
            "filter": encode_string(key) if cursor.key is not None else key,
            "sort": f"1{rank:02d}",
        }
        offers.append(_placed(analysis, start, end, "member", **fields))
    return offers

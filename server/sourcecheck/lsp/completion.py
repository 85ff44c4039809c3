"""Completion where a session is written: paths, polarities, line numbers and boundaries.

- ``path``: the session's documents, with their size;
- ``polarity``: ``supports`` and ``refutes``;
- ``line``: the document's line numbers, each with its text as the label detail;
- ``str``: the shortest strings unique on the ref's line (for ``start`` those that begin at
  a word start, for ``end`` those that end at a word end), each shown in its line.
Works inside half-typed JSON: the key before the cursor decides, not a complete parse.
"""

from __future__ import annotations

import re

from lsprotocol import types

from ..analysis import Analysis
from ..display import shorten, visible
from ..fixes import extend_left, extend_right
from ..session import Document, Ref
from ..syntax import encode_string
from .convert import lsp_range
from .documents import OpenDocument
from .hover import marked_line
from .server import SourceCheckServer, guarded

_KEY_BEFORE = re.compile(r'"(path|polarity|str|line)"\s*:\s*("(?:[^"\\]|\\.)*|-?\d*)$')
MAX_ITEMS = 2000


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def boundary_candidates(line: str, side: str) -> list[tuple[str, int]]:
    """(string, column) for every shortest unique boundary that starts or ends a word."""
    found: dict[str, int] = {}
    for i, ch in enumerate(line):
        if side == "start":
            if _is_word(ch) and (i == 0 or not _is_word(line[i - 1])):
                text = extend_right(line, i, 1)
                if text is not None:
                    found.setdefault(text, i)
        else:
            end = i + 1
            if _is_word(ch) and (end == len(line) or not _is_word(line[end])):
                text = extend_left(line, end, 1)
                if text is not None:
                    found.setdefault(text, end - len(text))
        if len(found) >= MAX_ITEMS:
            break
    return sorted(found.items(), key=lambda item: item[1])


def enclosing_ref(analysis: Analysis, offset: int) -> tuple[Ref | None, str | None]:
    place = analysis.place_at(offset)
    path = place.path if place else ()
    for length in range(len(path), 0, -1):
        ref = analysis.refs_by_path.get(path[:length])
        if ref is not None:
            side = path[length] if len(path) > length and path[length] in ("start", "end") else None
            return ref, side  # type: ignore[return-value]
    return None, None


class _Edit:
    """Where a completion goes: into the string being typed, or as a new JSON value."""

    def __init__(self, ls: SourceCheckServer, document: OpenDocument, offset: int, typed: str) -> None:
        text, analysis = document.text, document.analysis
        self.quoted = typed.startswith('"')
        start = offset - len(typed)
        end = offset
        if self.quoted:
            start += 1
            line_end = analysis.lines.line_end(analysis.lines.line_of(offset))
            i = offset
            while i < line_end and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            end = min(i, line_end)
        self.range = lsp_range(analysis.span(start, end, ls.encoding))

    def item(self, label: str, value: str, kind: types.CompletionItemKind, **extra: object) -> types.CompletionItem:
        literal = encode_string(value)
        new_text = literal[1:-1] if self.quoted else literal
        if kind == types.CompletionItemKind.Value and value.isdigit():
            new_text = value
        return types.CompletionItem(label=label, kind=kind, text_edit=types.TextEdit(range=self.range, new_text=new_text), filter_text=new_text, **extra)  # type: ignore[arg-type]


def completions(ls: SourceCheckServer, document: OpenDocument, position: types.Position) -> list[types.CompletionItem]:
    analysis = document.analysis
    offset = ls.offset(document, position)
    line_start = analysis.lines.starts[analysis.lines.line_of(offset)]
    match = _KEY_BEFORE.search(document.text, line_start, offset)
    if match is None:
        return []
    key, typed = match.group(1), match.group(2) or ""
    edit = _Edit(ls, document, offset, typed)
    if key == "polarity":
        return [edit.item(word, word, types.CompletionItemKind.EnumMember, detail=meaning) for word, meaning in (("supports", "the span, read alone, evidences the claim"), ("refutes", "the span directly contradicts the claim"))]
    ref, side = enclosing_ref(analysis, offset)
    if key == "path":
        if ref is None:  # a document's own path: nothing to pick from
            return []
        return [edit.item(doc.path, doc.path, types.CompletionItemKind.File, detail=f"{len(doc.lines)} lines") for doc in analysis.session.documents]
    doc = _document_of(analysis, ref)
    if doc is None or side is None:
        return []
    if key == "line":
        if typed.startswith('"'):
            return []
        edit.quoted = False
        return [
            edit.item(str(n), str(n), types.CompletionItemKind.Value, label_details=types.CompletionItemLabelDetails(description=shorten(visible(text), 60)), sort_text=f"{n:08d}")
            for n, text in enumerate(doc.lines[:MAX_ITEMS], start=1)
        ]
    boundary = ref.raw.get(side) if isinstance(ref.raw, dict) else None  # type: ignore[union-attr]
    number = boundary.get("line") if isinstance(boundary, dict) else None
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= len(doc.lines):
        return []
    line = doc.lines[number - 1]
    items = []
    for rank, (text, column) in enumerate(boundary_candidates(line, side)):
        preview = marked_line(line, [column], len(text))
        items.append(
            edit.item(
                text, text, types.CompletionItemKind.Text,
                label_details=types.CompletionItemLabelDetails(description=f"column {column + 1}"),
                documentation=types.MarkupContent(kind=types.MarkupKind.PlainText, value=preview),
                sort_text=f"{rank:06d}",
            )
        )
    return items


def _document_of(analysis: Analysis, ref: Ref | None) -> Document | None:
    if ref is None or not isinstance(ref.raw, dict):
        return None
    path = ref.raw.get("path")
    return analysis.session.by_path.get(path) if isinstance(path, str) else None


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=['"', ":"]))
    @guarded(types.CompletionList(is_incomplete=False, items=[]))
    async def complete(ls: SourceCheckServer, params: types.CompletionParams) -> types.CompletionList:
        document = await ls.ready_session(params.text_document.uri)
        items = completions(ls, document, params.position) if document else []
        return types.CompletionList(is_incomplete=False, items=items)

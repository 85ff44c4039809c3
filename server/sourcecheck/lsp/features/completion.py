"""Completion where a session is written: paths, polarities, line numbers and boundaries.

- ``path``: the session's documents, with their size;
- ``polarity``: ``supports`` and ``refutes``;
- ``line``: the document's line numbers, each with its text as the label detail;
- ``str``: the shortest strings unique on the ref's line (for ``start`` those that begin at
  a word start, for ``end`` those that end at a word end), each shown in its line.
Works inside half-typed JSON: the key before the cursor decides, not a complete parse.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ...core.display import shorten, visible
from ...core.explain import marked_line
from ...core.fixes import boundary_candidates
from ...core.queries import Typing, enclosing_ref, typing_at, written_document, written_line
from ...core.syntax import encode_string
from ..app import View

MAX_ITEMS = 2000
NOTHING = types.CompletionList(is_incomplete=False, items=[])
POLARITIES = (
    ("supports", "the span, read alone, evidences the claim"),
    ("refutes", "the span directly contradicts the claim"),
)


def item(
    view: View, typing: Typing, label: str, new_text: str, kind: types.CompletionItemKind, **extra: Any
) -> types.CompletionItem:
    edit = types.TextEdit(range=view.range(typing.start, typing.end), new_text=new_text)
    return types.CompletionItem(label=label, kind=kind, text_edit=edit, filter_text=new_text, **extra)


def string_item(
    view: View, typing: Typing, value: str, kind: types.CompletionItemKind, **extra: Any
) -> types.CompletionItem:
    """An item that writes ``value`` as a JSON string (inside the quotes being typed, or whole)."""
    literal = encode_string(value)
    return item(view, typing, value, literal[1:-1] if typing.quoted else literal, kind, **extra)


def complete(view: View, params: types.CompletionParams) -> types.CompletionList:
    return types.CompletionList(is_incomplete=False, items=completions(view, view.offset(params.position)))


def completions(view: View, offset: int) -> list[types.CompletionItem]:
    analysis = view.analysis
    typing = typing_at(analysis, offset)
    if typing is None:
        return []
    if typing.key == "polarity":
        return [
            string_item(view, typing, word, types.CompletionItemKind.EnumMember, detail=meaning)
            for word, meaning in POLARITIES
        ]
    ref, side = enclosing_ref(analysis, offset)
    if typing.key == "path":
        if ref is None:  # a document's own path: nothing to pick from
            return []
        return [
            string_item(view, typing, doc.path, types.CompletionItemKind.File, detail=f"{len(doc.lines)} lines")
            for doc in analysis.session.documents
        ]
    document = written_document(analysis, ref)
    if ref is None or document is None or side is None:
        return []
    if typing.key == "line":
        if typing.quoted:
            return []
        return [
            item(
                view,
                typing,
                str(n),
                str(n),
                types.CompletionItemKind.Value,
                label_details=types.CompletionItemLabelDetails(description=shorten(visible(text), 60)),
                sort_text=f"{n:08d}",
            )
            for n, text in enumerate(document.lines[:MAX_ITEMS], start=1)
        ]
    number = written_line(ref, side)
    if number is None or not 1 <= number <= len(document.lines):
        return []
    line = document.lines[number - 1]
    return [
        string_item(
            view,
            typing,
            text,
            types.CompletionItemKind.Text,
            label_details=types.CompletionItemLabelDetails(description=f"column {column + 1}"),
            documentation=types.MarkupContent(
                kind=types.MarkupKind.PlainText, value=marked_line(line, [column], len(text))
            ),
            sort_text=f"{rank:06d}",
        )
        for rank, (text, column) in enumerate(boundary_candidates(line, side))
    ]

"""Completion where a session is written: values, keys and whole skeletons.

- ``path``: the session's documents, with their size;
- ``polarity``: ``supports`` and ``refutes``;
- ``line``: the document's line numbers, each with its text as its ``detail`` (Neovim's
  menu shows that) and its label's description (VS Code shows that beside the label); typing
  words of a line finds it (they are in the filter text), the number is what is written;
- ``str``: the shortest strings unique on the ref's line (for ``start`` those that begin at
  a word start, for ``end`` those that end at a word end), each shown in its line;
- elsewhere, what ``core.skeletons`` offers: a new annotation, source, ref or boundary where
  one can start, and the keys an annotation, ref, source or boundary lacks, each with a value
  to start from; as snippets (a placeholder for each value) when the client takes them.
Works inside half-typed JSON: the key before the cursor decides, not a complete parse.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ...core.display import shorten, visible
from ...core.explain import lines_said, marked_line
from ...core.extend import boundary_candidates
from ...core.jsonlex import encode_string
from ...core.queries import Typing, enclosing_ref, line_words_at, typing_at, written_document, written_line
from ...core.session import CheckedRef, Document
from ...core.skeletons import Offer, offers_at
from ..app import View

MAX_ITEMS = 2000
MAX_FILTER = 1000  # characters of a line its item can be found by
NOTHING = types.CompletionList(is_incomplete=False, items=[])
POLARITIES = (
    ("supports", "the span, read alone, evidences the claim"),
    ("refutes", "the span directly contradicts the claim"),
)


def item(
    view: View, typing: Typing, label: str, new_text: str, kind: types.CompletionItemKind, **extra: Any
) -> types.CompletionItem:
    edit = types.TextEdit(range=view.range(typing.start, typing.end), new_text=new_text)
    extra.setdefault("filter_text", new_text)
    return types.CompletionItem(label=label, kind=kind, text_edit=edit, **extra)


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
    typing = typing_at(analysis, offset) or line_words_at(analysis, offset)
    if typing is None:
        return [offer_item(view, offer) for offer in offers_at(analysis, offset)]
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
            string_item(view, typing, doc.path, types.CompletionItemKind.File, detail=lines_said(doc))
            for doc in analysis.session.documents
        ]
    document = written_document(analysis, ref)
    if ref is None or document is None or side is None:
        return []
    if typing.key == "line":
        return [] if typing.quoted else line_items(view, typing, document)
    return boundary_items(view, typing, ref, side, document)


def offer_item(view: View, offer: Offer) -> types.CompletionItem:
    """A skeleton or a key, as a snippet when the client takes snippets."""
    snippets = view.client.snippets
    return types.CompletionItem(
        label=offer.label,
        kind=types.CompletionItemKind.Property if offer.key else types.CompletionItemKind.Snippet,
        detail=offer.detail,
        documentation=None if offer.key else plain_text(offer.text(False)),
        text_edit=types.TextEdit(range=view.range(offer.start, offer.end), new_text=offer.text(snippets)),
        additional_text_edits=comma_before(view, offer),
        filter_text=offer.filter,
        sort_text=offer.sort,
        insert_text_format=types.InsertTextFormat.Snippet if snippets else types.InsertTextFormat.PlainText,
        insert_text_mode=types.InsertTextMode.AsIs,  # written in the file's indentation already
    )


def comma_before(view: View, offer: Offer) -> list[types.TextEdit] | None:
    """The comma after the value before the offer, when the place needs one there."""
    if offer.comma_at is None:
        return None
    return [types.TextEdit(range=view.range(offer.comma_at, offer.comma_at), new_text=",")]


def plain_text(value: str) -> types.MarkupContent:
    return types.MarkupContent(kind=types.MarkupKind.PlainText, value=value)


def line_items(view: View, typing: Typing, document: Document) -> list[types.CompletionItem]:
    """Each line's number with its text, found by its number or by words of its text."""
    return [
        item(
            view,
            typing,
            str(n),
            str(n),
            types.CompletionItemKind.Value,
            detail=(shown := shorten(visible(text), 60)),
            label_details=types.CompletionItemLabelDetails(description=shown),
            filter_text=f"{n} {text[:MAX_FILTER]}",
            sort_text=f"{n:08d}",
        )
        for n, text in enumerate(document.lines[:MAX_ITEMS], start=1)
    ]


def boundary_items(
    view: View, typing: Typing, ref: CheckedRef, side: str, document: Document
) -> list[types.CompletionItem]:
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
            detail=f"column {column + 1}",
            label_details=types.CompletionItemLabelDetails(description=f"column {column + 1}"),
            documentation=types.MarkupContent(
                kind=types.MarkupKind.PlainText, value=marked_line(line, [column], len(text))
            ),
            sort_text=f"{rank:06d}",
        )
        for rank, (text, column) in enumerate(boundary_candidates(line, side))
    ]

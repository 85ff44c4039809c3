"""Builders for the feature unit tests: views made from a text, params, and positions
computed independently of the server's code (lines, columns in each encoding)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lsprotocol import types

from sourcecheck.core.positions import Encoding
from sourcecheck.lsp.app import Client, View
from sourcecheck.lsp.settings import Settings

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
URI = "file:///test.sourcecheck.json"
ENCODINGS = [Encoding.UTF16, Encoding.UTF8, Encoding.UTF32]


def fixture(name: str) -> str:
    """The text of a fixture, e.g. ``orbit-article`` or ``broken/unknown-path``."""
    return (FIXTURES / f"{name}.sourcecheck.json").read_text(encoding="utf-8")


def view_of(
    text: str,
    encoding: Encoding = Encoding.UTF16,
    markdown: bool = True,
    document_changes: bool = False,
    snippets: bool = False,
    settings: Settings | None = None,
    version: int = 1,
    uri: str = URI,
) -> View:
    client = Client(encoding=encoding, markdown=markdown, document_changes=document_changes, snippets=snippets)
    return View.of(text, client=client, settings=settings, uri=uri, version=version)


def session_text(value: Any, indent: int | None = 2) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


# --- positions, independent of sourcecheck.core.positions


def _line_starts(text: str) -> list[int]:
    starts, i = [0], 0
    while i < len(text):
        if text[i] == "\r" and text[i + 1 : i + 2] == "\n":
            i += 2
            starts.append(i)
            continue
        if text[i] in "\r\n":
            starts.append(i + 1)
        i += 1
    return starts


def units(text: str, encoding: Encoding) -> int:
    if encoding == Encoding.UTF8:
        return len(text.encode("utf-8"))
    if encoding == Encoding.UTF16:
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def position_of(text: str, offset: int, encoding: Encoding = Encoding.UTF16) -> types.Position:
    starts = _line_starts(text)
    line = max(i for i, start in enumerate(starts) if start <= offset)
    return types.Position(line=line, character=units(text[starts[line] : offset], encoding))


def offset_of(text: str, position: types.Position, encoding: Encoding = Encoding.UTF16) -> int:
    """The offset of a position; a column inside a character is an error here (a test
    wants to know the server cut one in half)."""
    start = _line_starts(text)[position.line]
    offset = start
    while units(text[start:offset], encoding) < position.character:
        offset += 1
    if units(text[start:offset], encoding) != position.character:
        raise AssertionError(
            f"column {position.character} of line {position.line} falls inside a character ({encoding})"
        )
    return offset


def range_of(text: str, start: int, end: int, encoding: Encoding = Encoding.UTF16) -> types.Range:
    return types.Range(start=position_of(text, start, encoding), end=position_of(text, end, encoding))


def range_text(text: str, rng: types.Range, encoding: Encoding = Encoding.UTF16) -> str:
    """The text a range selects, read as a client of ``encoding`` would."""
    return text[offset_of(text, rng.start, encoding) : offset_of(text, rng.end, encoding)]


def apply_edits(text: str, edits: list[types.TextEdit], encoding: Encoding = Encoding.UTF16) -> str:
    spans = sorted(
        ((offset_of(text, e.range.start, encoding), offset_of(text, e.range.end, encoding), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_of(edit: types.WorkspaceEdit, uri: str = URI) -> list[types.TextEdit]:
    """The text edits of a workspace edit for one document, in either of its two forms."""
    if edit.document_changes:
        (change,) = edit.document_changes
        assert isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri
        return list(change.edits)  # type: ignore[arg-type]
    assert edit.changes is not None
    return list(edit.changes[uri])


def apply_workspace_edit(
    text: str, edit: types.WorkspaceEdit, encoding: Encoding = Encoding.UTF16, uri: str = URI
) -> str:
    return apply_edits(text, edits_of(edit, uri), encoding)


# --- params


def doc(uri: str = URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def at(view: View, needle: str, plus: int = 0, after: str | None = None) -> types.Position:
    """The position ``plus`` characters into the first ``needle`` (after ``after``, if given)."""
    start = view.text.index(after) if after is not None else 0
    return position_of(view.text, view.text.index(needle, start) + plus, view.encoding)


def whole_range(view: View) -> types.Range:
    return range_of(view.text, 0, len(view.text), view.encoding)


def edited(view: View, start: int, end: int, inserted: str) -> View:
    """The next version of ``view`` after replacing ``[start, end)`` with ``inserted``,
    analysed incrementally from the view's analysis and sharing its memo, as the server
    makes it (see ``sourcecheck.lsp.sync``). Fails if the edit needs a full analysis."""
    from dataclasses import replace

    from sourcecheck.core.analysis import Analysis

    text = view.text[:start] + inserted + view.text[end:]
    analysis = Analysis.incremental(text, view.analysis, (start, end, inserted))
    assert analysis is not None, "this edit needs a full analysis"
    return replace(view, version=view.version + 1, analysis=analysis)


def per_encoding(function: Any) -> dict[str, Any]:
    """``function(encoding)`` for each encoding, by name: compared with one dict, a failure
    shows every encoding's answer side by side."""
    return {str(encoding): function(encoding) for encoding in ENCODINGS}


def same_for_every_encoding(value: Any) -> dict[str, Any]:
    return {str(encoding): value for encoding in ENCODINGS}

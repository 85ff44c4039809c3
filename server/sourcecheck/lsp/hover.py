"""Hover: what a ref resolves to, right where you point at it.

On any part of a ref: the cited text, its document and lines; on a claim, every source
with polarity, confidence and text; on a source, the claim it supports or refutes. On a
ref that does not resolve: why, and the line it names with the boundary's occurrences
marked. On ``line``: that line's text. On a document's ``path``: its size and citations.
"""

from __future__ import annotations

import unicodedata

from lsprotocol import types

from ..analysis import Analysis
from ..display import visible
from ..session import Boundary, Ref
from .convert import lsp_range
from .documents import OpenDocument
from .render import RichText
from .server import SourceCheckServer, guarded

WINDOW = 80
"""Characters of a long document line shown around the place of interest."""

POLARITY_MARK = {"supports": "✓", "refutes": "✗"}


def _width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def marked_line(line: str, columns: list[int], length: int) -> str:
    """The line (a window of it, if long) and under it ``^`` beneath each occurrence."""
    focus = columns[0] if columns else 0
    left = max(0, min(focus - WINDOW // 4, len(line) - WINDOW)) if len(line) > WINDOW else 0
    right = min(len(line), left + WINDOW)
    marked = {c for start in columns for c in range(start, start + length)}
    shown, marks = [], []
    for index in range(left, right):
        piece = visible(line[index])
        shown.append(piece)
        marks.append(("^" if index in marked else " ") * _width(piece))
    prefix = "…" if left else ""
    suffix = "…" if right < len(line) else ""
    text = prefix + "".join(shown) + suffix
    if not columns:
        return text
    return text + "\n" + " " * len(prefix) + "".join(marks).rstrip()


def where(ref: Ref) -> str:
    """`article`, line 3 / lines 3–5."""
    assert ref.start is not None and ref.end is not None
    lines = f"line {ref.start.line}" if ref.start.line == ref.end.line else f"lines {ref.start.line}–{ref.end.line}"
    return lines


def polarity_of(ref: Ref) -> str | None:
    """The source's polarity when it is a valid one (it may be any JSON value at all)."""
    return ref.polarity if isinstance(ref.polarity, str) and ref.polarity in POLARITY_MARK else None


def describe_source(out: RichText, source: Ref) -> None:
    polarity = polarity_of(source)
    mark = POLARITY_MARK.get(polarity or "", "?")
    confidence = source.confidence if isinstance(source.confidence, (int, float)) and not isinstance(source.confidence, bool) else None
    head = f"{mark} {polarity or 'no valid polarity'} · confidence {confidence if confidence is not None else '?'}"
    if source.valid:
        out.para(head, " · ", out.code(source.doc_path or ""), f", {where(source)}")
        out.block(source.text or "")
    else:
        out.para(head, " · ", out.code(source.doc_path or "?"), " · does not resolve")


def ref_findings(analysis: Analysis, ref: Ref) -> list[str]:
    return [f.message for f in analysis.findings if f.ref is ref and f.severity.value == "error"]


def describe_ref(out: RichText, analysis: Analysis, ref: Ref, part: tuple) -> None:
    role = "source" if ref.is_source else "claim"
    if part[-1:] == ("line",) and ref.document is not None:
        boundary = ref.start if part[0] == "start" else ref.end
        if boundary is not None and 1 <= boundary.line <= len(ref.document.lines):
            out.para(f"line {boundary.line} of ", out.code(ref.document.path), ":")
            out.block(ref.document.lines[boundary.line - 1])
    if ref.valid:
        out.para(out.strong(role), " · ", out.code(ref.doc_path or ""), f", {where(ref)}")
        out.block(ref.text or "")
    else:
        out.para(out.strong(f"{role} does not resolve"))
        for message in ref_findings(analysis, ref):
            out.para("• ", out.text(message))
        for boundary in (ref.start, ref.end):
            describe_failed_boundary(out, ref, boundary)
    if ref.is_source:
        claim = ref.annotation.claim
        out.rule()
        verb = polarity_of(ref) or "is cited for"
        if claim is not None and claim.valid:
            out.para(f"this source {verb} the claim in ", out.code(claim.doc_path or ""), f", {where(claim)}:")
            out.block(claim.text or "")
        else:
            out.para(f"this source {verb} a claim that does not resolve")
    else:
        sources = ref.annotation.sources
        if sources:
            out.rule()
            supports = sum(1 for s in sources if s.polarity == "supports")
            refutes = sum(1 for s in sources if s.polarity == "refutes")
            out.para(f"{len(sources)} source{'s' if len(sources) != 1 else ''}: {supports} supports, {refutes} refutes")
            for source in sources:
                describe_source(out, source)


def describe_failed_boundary(out: RichText, ref: Ref, boundary: Boundary | None) -> None:
    document = ref.document
    if boundary is None or document is None or not 1 <= boundary.line <= len(document.lines) or boundary.resolved:
        return
    side = boundary.json_path[-1]
    out.para(f"`{side}` line {boundary.line} of ", out.code(document.path), (f", {boundary.occurrence_count} occurrences of " if boundary.occurrence_count > 1 else ", no occurrence of "), out.code(boundary.str), ":")
    out.block(marked_line(document.lines[boundary.line - 1], boundary.occurrences, len(boundary.str)))


def describe_document(out: RichText, analysis: Analysis, doc_path: str) -> None:
    document = analysis.session.by_path.get(doc_path)
    if document is None:
        return
    refs = analysis.refs_into(document)
    claims = sum(1 for r in refs if not r.is_source)
    out.para(out.strong("document"), " ", out.code(document.path), f" · {len(document.lines)} lines")
    out.para(f"cited by {len(refs)} ref{'s' if len(refs) != 1 else ''} ({claims} claims, {len(refs) - claims} sources)")


def hover_for(ls: SourceCheckServer, document: OpenDocument, position: types.Position) -> types.Hover | None:
    analysis = document.analysis
    offset = ls.offset(document, position)
    place = analysis.place_at(offset)
    if place is None:
        return None
    out = RichText(ls.markdown)
    node = place.node
    start, end = node.start, node.end
    if place.on_key:
        member = analysis.member(place.path)
        if member is not None:
            start, end = member.key.start, member.key.end
    found = analysis.ref_at(offset)
    path = place.path
    if found is not None:
        ref, inner = found
        describe_ref(out, analysis, ref, inner[len(ref.json_path) :])
    elif len(path) >= 3 and path[-1] == "path" and path[-3] == "documents":
        value = getattr(analysis.node(path), "value", None)
        if isinstance(value, str):
            describe_document(out, analysis, value)
    if not out.blocks:
        return None
    span = analysis.span(start, end, ls.encoding)
    return types.Hover(contents=out.markup(), range=lsp_range(span))


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded()
    async def hover(ls: SourceCheckServer, params: types.HoverParams) -> types.Hover | None:
        document = await ls.ready_session(params.text_document.uri)
        if document is None:
            return None
        return hover_for(ls, document, params.position)

"""Hover: what a ref resolves to, right where you point at it.

On any part of a ref: the cited text, its document and lines; on a claim, every source
with polarity, confidence and text; on a source, the claim it supports or refutes. On a
ref that does not resolve: why, and the line it names with the boundary's occurrences
marked. On ``line``: that line's text. On a document's ``path``: its size, its citations
and, when a claim cites it, how much of its text no claim does. What is said comes from
the core (``core/explain.py``); here it is only rendered (``lsp/markup.py``: a finding's
message with its backtick-quoted values as inline code, the rest escaped).
"""

from __future__ import annotations

from lsprotocol import types

from ...core.explain import Text, describe_document, describe_ref
from ..app import View
from ..markup import rendered


def hover(view: View, params: types.HoverParams) -> types.Hover | None:
    analysis = view.analysis
    offset = view.offset(params.position)
    place = analysis.place_at(offset)
    if place is None:
        return None
    start, end = place.node.start, place.node.end
    if place.on_key:
        member = analysis.member(place.path)
        if member is not None:
            start, end = member.key.start, member.key.end
    found = analysis.ref_at(offset)
    path = place.path
    text: Text = []
    if found is not None:
        ref, inner = found
        text = describe_ref(analysis, ref, inner[2 + len(ref.tail) :])  # (after "annotations", its index)
    elif len(path) >= 3 and path[-1] == "path" and path[-3] == "documents":
        value = getattr(analysis.node(path), "value", None)
        if isinstance(value, str):
            text = describe_document(analysis, value)
    if not text:
        return None
    return types.Hover(contents=rendered(text, view.client.markdown), range=view.range(start, end))

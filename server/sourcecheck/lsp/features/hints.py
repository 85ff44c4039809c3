"""Inlay hints: the cited text after every valid ref, polarity and confidence after sources.

A reviewer sees what each ref points at without hovering: ``"cuts cold-start latency…"``
after a claim, ``✓ 0.95 "cold start p50 drops…"`` after a source. Refs that do not resolve
get none (their diagnostic speaks). Text is shortened to ``sourcecheck.inlayHints.maxLength``
with newlines and control characters escaped. Only the requested range is computed.
"""

from __future__ import annotations

from lsprotocol import types

from ...core.display import shorten, visible
from ...core.explain import POLARITY_MARK, confidence_of, polarity_of
from ...core.session import Ref
from ..app import View

MAX_HINTS = 2000
"""Hints per request: a request for a huge range is answered in bounded time."""


def label(ref: Ref, width: int) -> str:
    cited = '"' + shorten(visible(ref.text or ""), width) + '"'
    if not ref.is_source:
        return cited
    symbol = POLARITY_MARK.get(polarity_of(ref) or "", "?")
    confidence = confidence_of(ref)
    shown = f"{confidence:g}" if confidence is not None else "?"
    return f"{symbol} {shown} {cited}"


def inlay_hints(view: View, params: types.InlayHintParams) -> list[types.InlayHint]:
    analysis = view.analysis
    start, end = view.offset(params.range.start), view.offset(params.range.end)
    width = view.settings.inlay_max_length
    hints: list[types.InlayHint] = []
    for index in analysis.annotations_between(start, end):
        if len(hints) >= MAX_HINTS:
            break
        annotation = analysis.annotations_by_path.get(("annotations", index))
        if annotation is None:
            continue
        refs = ([annotation.claim] if annotation.claim else []) + annotation.sources
        for ref in refs:
            node = analysis.node(ref.json_path)
            if not ref.valid or node is None or not start <= node.end <= end:
                continue
            tooltip = types.MarkupContent(
                kind=types.MarkupKind.PlainText, value=visible(ref.text or "", keep_newlines=True)
            )
            hints.append(
                types.InlayHint(
                    position=view.position(node.end), label=label(ref, width), padding_left=True, tooltip=tooltip
                )
            )
    return hints[:MAX_HINTS]

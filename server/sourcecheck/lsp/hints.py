"""Inlay hints: the cited text after every valid ref, polarity and confidence after sources.

A reviewer sees what each ref points at without hovering: ``"cuts cold-start latency…"``
after a claim, ``✓ 0.95 "cold start p50 drops…"`` after a source. Refs that do not resolve
get none (their diagnostic speaks). Text is shortened to ``sourcecheck.inlayHints.maxLength``
with newlines and control characters escaped. Only the requested range is computed.
"""

from __future__ import annotations

from lsprotocol import types

from ..display import shorten, visible
from ..session import Ref
from .convert import lsp_range
from .documents import OpenDocument
from .server import SourceCheckServer, guarded

POLARITY_SYMBOL = {"supports": "✓", "refutes": "✗"}
MAX_HINTS = 2000
"""Hints per request: a request for a huge range is answered in bounded time."""


def label(ref: Ref, width: int) -> str:
    cited = '"' + shorten(visible(ref.text or ""), width) + '"'
    if not ref.is_source:
        return cited
    symbol = POLARITY_SYMBOL.get(ref.polarity, "?") if isinstance(ref.polarity, str) else "?"
    confidence = ref.confidence
    shown = f"{confidence:g}" if isinstance(confidence, (int, float)) and not isinstance(confidence, bool) else "?"
    return f"{symbol} {shown} {cited}"


def inlay_hints(ls: SourceCheckServer, document: OpenDocument, rng: types.Range) -> list[types.InlayHint]:
    analysis = document.analysis
    start, end = ls.offset(document, rng.start), ls.offset(document, rng.end)
    width = ls.settings.inlay_max_length
    hints = []
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
            position = lsp_range(analysis.span(node.end, node.end, ls.encoding)).start
            tooltip = types.MarkupContent(kind=types.MarkupKind.PlainText, value=visible(ref.text or "", keep_newlines=True))
            hints.append(types.InlayHint(position=position, label=label(ref, width), padding_left=True, tooltip=tooltip))
    return hints[:MAX_HINTS]


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    @guarded([])
    async def inlay_hint(ls: SourceCheckServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        document = await ls.ready_session(params.text_document.uri)
        if document is None or not ls.settings.inlay_hints:
            return []
        return inlay_hints(ls, document, params.range)

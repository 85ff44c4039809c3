"""Inlay hints: the cited text after every valid ref, polarity and confidence after sources.

A reviewer sees what each ref points at without hovering: ``"cuts cold-start latency by
37%" · not in its sources: cuts, latency`` after a claim (the words of the claim its
supporting sources' cited text does not have, ``core/unsupported.py``), ``✓ 0.95 "cold
start p50 … 517ms (-37%)"`` after a source. Refs that do not resolve get none (their
diagnostic speaks). A long text shows both its ends in ``sourcecheck.inlayHints.maxLength``
characters (the word a reviewer needs is as often at its end as at its start), with
newlines and control characters escaped and its quotes and backslashes as JSON escapes them
(an escape counted in the width, never cut). Only the requested range is computed.
"""

from __future__ import annotations

from lsprotocol import types

from ...core.display import quote_within, visible
from ...core.explain import ASIDE, POLARITY_MARK, confidence_of, polarity_of
from ...core.session import CheckedRef
from ...core.unsupported import said
from ..app import View

MAX_HINTS = 2000
"""Hints per request: a request for a huge range is answered in bounded time."""


def label(ref: CheckedRef, width: int, missing: tuple[str, ...] | None = None) -> str:
    """A ref's hint: its cited text, after a source its polarity and confidence, after a
    claim the words its sources lack (``missing``)."""
    # In quotes, a quote or backslash in it escaped as in JSON (``"say \"no\""``, as a title
    # quotes it): where the text ends is never in doubt.
    cited = quote_within(ref.text or "", width)
    if not ref.is_source:
        return cited + " · " + visible(said(missing, width)) if missing else cited
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
        annotation = analysis.session.annotation_at(index)
        if annotation is None:
            continue
        refs = ([annotation.claim] if annotation.claim else []) + annotation.sources
        for ref in refs:
            node = analysis.node(("annotations", index, *ref.tail))
            if not ref.valid or node is None or not start <= node.end <= end:
                continue
            missing = None if ref.is_source else analysis.unsupported.of(("annotations", index))
            shown = visible(ref.text or "", keep_newlines=True)
            if missing:
                shown += f"\n\n{visible(said(missing))} ({ASIDE})"
            tooltip = types.MarkupContent(kind=types.MarkupKind.PlainText, value=shown)
            hints.append(
                types.InlayHint(
                    position=view.position(node.end),
                    label=label(ref, width, missing),
                    padding_left=True,
                    tooltip=tooltip,
                )
            )
    return hints[:MAX_HINTS]

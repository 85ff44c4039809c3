"""Code lens: a verdict on each annotation and coverage on each document.

Above an annotation: "2 supports (max 0.95) · 1 refutes", with "contested" when it has both.
Above a document: "cited by N refs · M of L lines covered".
"""

from __future__ import annotations

from lsprotocol import types

from ..analysis import Analysis
from ..session import Annotation, Document
from .convert import lsp_range
from .documents import OpenDocument
from .server import SourceCheckServer, guarded


def verdict(annotation: Annotation) -> str:
    parts = []
    both = True
    for polarity in ("supports", "refutes"):
        sources = [s for s in annotation.sources if s.polarity == polarity]
        both = both and bool(sources)
        if sources:
            scores = [s.confidence for s in sources if isinstance(s.confidence, (int, float)) and not isinstance(s.confidence, bool)]
            best = f" (max {max(scores):g})" if scores else ""
            parts.append(f"{len(sources)} {polarity}{best}")
    if not parts:
        return "no valid sources"
    return ("contested: " if both else "") + " · ".join(parts)


def coverage(analysis: Analysis, document: Document) -> str:
    refs = analysis.refs_into(document)
    covered: set[int] = set()
    for ref in refs:
        if ref.valid and ref.start and ref.end:
            covered.update(range(ref.start.line, ref.end.line + 1))
    total = len(document.lines)
    return f"cited by {len(refs)} ref{'s' if len(refs) != 1 else ''} · {len(covered)} of {total} line{'s' if total != 1 else ''} covered"


def code_lenses(ls: SourceCheckServer, document: OpenDocument) -> list[types.CodeLens]:
    analysis = document.analysis
    lenses = []

    def lens_at(path: tuple, title: str) -> None:
        node = analysis.node(path)
        if node is not None:
            rng = lsp_range(analysis.span(node.start, node.start, ls.encoding))
            lenses.append(types.CodeLens(range=rng, command=types.Command(title=title, command="")))

    for doc in analysis.session.documents:
        lens_at(doc.json_path, coverage(analysis, doc))
    for annotation in analysis.session.annotations:
        lens_at(annotation.json_path, verdict(annotation))
    return lenses


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    @guarded([])
    async def code_lens(ls: SourceCheckServer, params: types.CodeLensParams) -> list[types.CodeLens]:
        document = await ls.ready_session(params.text_document.uri)
        if document is None or not ls.settings.code_lens:
            return []
        return code_lenses(ls, document)

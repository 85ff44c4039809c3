"""Moving between claims and evidence.

- Go to definition from any part of a ref: the exact characters it cites, inside the
  document's ``content`` string in this file (one range over the whole span, escapes and all).
- Document highlight: the same span, while the cursor is on the ref.
- Find references: from a character of a document's ``content``, every ref whose span covers
  it; from a document's ``path``, every ref into that document; from a claim, its sources.
"""

from __future__ import annotations

from lsprotocol import types

from ..analysis import Analysis
from ..session import Ref
from .convert import lsp_range
from .documents import OpenDocument
from .server import SourceCheckServer, guarded


def cited_range(ls: SourceCheckServer, analysis: Analysis, ref: Ref) -> types.Range | None:
    extent = analysis.span_extent(ref)
    return lsp_range(analysis.span(*extent, ls.encoding)) if extent else None


def ref_location(ls: SourceCheckServer, document: OpenDocument, ref: Ref) -> types.Location | None:
    node = document.analysis.node(ref.json_path)
    if node is None:
        return None
    return types.Location(uri=document.uri, range=lsp_range(document.analysis.span(node.start, node.end, ls.encoding)))


def definition(ls: SourceCheckServer, document: OpenDocument, position: types.Position) -> types.Location | None:
    analysis = document.analysis
    found = analysis.ref_at(ls.offset(document, position))
    if found is None:
        return None
    ref = found[0]
    rng = cited_range(ls, analysis, ref)
    if rng is not None:
        return types.Location(uri=document.uri, range=rng)
    if ref.document is not None:  # does not resolve: at least go to its document
        node = analysis.node(ref.document.json_path + ("path",))
        if node is not None:
            return types.Location(uri=document.uri, range=lsp_range(analysis.span(node.start, node.end, ls.encoding)))
    return None


def document_path_at(analysis: Analysis, offset: int) -> str | None:
    """The document whose ``path`` (key or value) in the documents array is at ``offset``."""
    place = analysis.place_at(offset)
    if place is None or len(place.path) < 3 or place.path[-1] != "path" or place.path[-3] != "documents":
        return None
    node = analysis.node(place.path)
    value = getattr(node, "value", None)
    return value if isinstance(value, str) and value in analysis.session.by_path else None


def references(ls: SourceCheckServer, document: OpenDocument, position: types.Position, include_declaration: bool) -> list[types.Location]:
    analysis = document.analysis
    offset = ls.offset(document, position)
    refs: list[Ref] = []
    inside = analysis.document_at(offset)
    doc_path = document_path_at(analysis, offset)
    found = analysis.ref_at(offset)
    if inside is not None:
        refs = analysis.refs_covering(*inside)
    elif doc_path is not None:
        refs = analysis.refs_into(analysis.session.by_path[doc_path])
    elif found is not None:
        ref = found[0]
        annotation = ref.annotation
        claim = annotation.claim
        if not ref.is_source:
            refs = ([claim] if include_declaration and claim else []) + annotation.sources
        else:
            refs = [claim] if claim else []
    locations = [ref_location(ls, document, ref) for ref in refs]
    return [location for location in locations if location is not None]


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded()
    async def goto_definition(ls: SourceCheckServer, params: types.DefinitionParams) -> types.Location | None:
        document = await ls.ready_session(params.text_document.uri)
        return definition(ls, document, params.position) if document else None

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @guarded([])
    async def highlight(ls: SourceCheckServer, params: types.DocumentHighlightParams) -> list[types.DocumentHighlight]:
        document = await ls.ready_session(params.text_document.uri)
        if document is None:
            return []
        found = document.analysis.ref_at(ls.offset(document, params.position))
        rng = cited_range(ls, document.analysis, found[0]) if found else None
        return [types.DocumentHighlight(range=rng, kind=types.DocumentHighlightKind.Read)] if rng else []

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @guarded([])
    async def find_references(ls: SourceCheckServer, params: types.ReferenceParams) -> list[types.Location]:
        document = await ls.ready_session(params.text_document.uri)
        return references(ls, document, params.position, params.context.include_declaration) if document else []

"""Moving between claims and evidence.

- Go to definition from any part of a ref: the exact characters it cites, inside the
  document's ``content`` string in this file (one range over the whole span, escapes and all);
  from a document's ``path``: that document as text, in its document view.
- Document highlight: the same span, while the cursor is on the ref.
- Find references: from a character of a document's ``content``, every ref whose span covers
  it; from a document's ``path``, every ref into that document; from a claim, its sources.
"""

from __future__ import annotations

from lsprotocol import types

from ...core.queries import document_path_at
from ...core.session import CheckedRef
from ..app import View, view_uri


def cited_range(view: View, ref: CheckedRef) -> types.Range | None:
    extent = view.analysis.span_extent(ref)
    return view.range(*extent) if extent else None


def ref_location(view: View, ref: CheckedRef) -> types.Location | None:
    node = view.analysis.node(view.analysis.session.ref_path(ref))
    return view.location(node.start, node.end) if node is not None else None


def definition(view: View, params: types.DefinitionParams) -> types.Location | None:
    analysis = view.analysis
    offset = view.offset(params.position)
    doc_path = document_path_at(analysis, offset)
    if doc_path is not None:  # a document's own path: its text, in the document view
        start = types.Position(line=0, character=0)
        return types.Location(uri=view_uri(view.uri, doc_path), range=types.Range(start=start, end=start))
    found = analysis.ref_at(offset)
    if found is None:
        return None
    ref = found[0]
    rng = cited_range(view, ref)
    if rng is not None:
        return types.Location(uri=view.uri, range=rng)
    if ref.document is not None:  # does not resolve: at least go to its document
        node = analysis.node(ref.document.json_path + ("path",))
        if node is not None:
            return view.location(node.start, node.end)
    return None


def highlight(view: View, params: types.DocumentHighlightParams) -> list[types.DocumentHighlight]:
    found = view.analysis.ref_at(view.offset(params.position))
    rng = cited_range(view, found[0]) if found else None
    return [types.DocumentHighlight(range=rng, kind=types.DocumentHighlightKind.Read)] if rng else []


def references(view: View, params: types.ReferenceParams) -> list[types.Location]:
    analysis = view.analysis
    offset = view.offset(params.position)
    refs: list[CheckedRef] = []
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
            refs = ([claim] if params.context.include_declaration and claim else []) + annotation.sources
        else:
            refs = [claim] if claim else []
    locations = [ref_location(view, ref) for ref in refs]
    places = [location for location in locations if location is not None]
    here = found[0] if found is not None and inside is None and doc_path is None else None
    if view.elsewhere is not None and here is not None and here.is_source and here.valid and here.span is not None:
        # the claims of the workspace's other sessions citing the same passage
        places += view.elsewhere.claims_citing(view.uri, here.doc_path or "", here.span, view.client)
    return places

"""The outline: Documents (path, line count) and Annotations (the claim's text, its sources
as children with polarity and the first words of their text)."""

from __future__ import annotations

from lsprotocol import types

from ...core.display import shorten, visible
from ...core.explain import lines_said, polarity_of
from ...core.session import CheckedRef, Path
from ..app import View

NAME_WIDTH = 60


def ref_name(ref: CheckedRef) -> str:
    if ref.valid:
        return shorten(visible(ref.text or ""), NAME_WIDTH) or '""'
    return "(does not resolve)"


def document_symbols(view: View, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    analysis = view.analysis

    def rng(path: Path) -> types.Range | None:
        node = analysis.node(path)
        return view.node_range(node) if node is not None else None

    documents = []
    for doc in analysis.session.documents:
        whole, name = rng(doc.json_path), rng(doc.json_path + ("path",))
        if whole and name:
            documents.append(
                types.DocumentSymbol(
                    name=visible(shorten(doc.path, NAME_WIDTH)) or '""',
                    detail=lines_said(doc),
                    kind=types.SymbolKind.File,
                    range=whole,
                    selection_range=name,
                )
            )
    annotations = []
    for index, annotation in enumerate(analysis.session.annotation_items()):
        if annotation is None:
            continue
        whole = rng(("annotations", index))
        if whole is None:
            continue
        children = []
        for source in annotation.sources:
            source_range = rng(("annotations", index, *source.tail))
            if source_range is None:
                continue
            polarity = polarity_of(source) or "?"
            children.append(
                types.DocumentSymbol(
                    name=f"{polarity}: {ref_name(source)}",
                    detail=visible(shorten(f"{source.doc_path or '?'} · {source.confidence}", NAME_WIDTH)),
                    kind=types.SymbolKind.Field,
                    range=source_range,
                    selection_range=source_range,
                )
            )
        claim = annotation.claim
        selection = rng(("annotations", index, *claim.tail)) if claim else None
        annotations.append(
            types.DocumentSymbol(
                name=ref_name(claim) if claim else "(no claim)",
                detail=visible(shorten(claim.doc_path or "", NAME_WIDTH)) if claim else "",
                kind=types.SymbolKind.Event,
                range=whole,
                selection_range=selection or whole,
                children=children,
            )
        )
    groups = []
    documents_path: Path = ("session", "documents") if analysis.session.shape == "cli" else ("documents",)
    for title, path, children, kind in (
        ("Documents", documents_path, documents, types.SymbolKind.Module),
        ("Annotations", ("annotations",), annotations, types.SymbolKind.Namespace),
    ):
        whole = rng(path)
        if whole is not None:
            groups.append(
                types.DocumentSymbol(
                    name=title,
                    detail=str(len(children)),
                    kind=kind,
                    range=whole,
                    selection_range=whole,
                    children=children,
                )
            )
    return groups

"""Code lens: a verdict on each annotation and coverage on each document.

Above an annotation: "2 supports (max 0.95) · 1 refutes", with "contested" when it has both.
Above a document: "cited by N refs · M of L lines covered", and "open as text", which opens
its document view (the client's ``sourcecheck.openDocumentView`` command).
"""

from __future__ import annotations

from lsprotocol import types

from ...core.explain import coverage_title, verdict_title
from ...core.session import Path
from ..app import View, view_uri

OPEN_VIEW = "sourcecheck.openDocumentView"
"""The client command that opens a document view (its URI is the one argument)."""


def code_lenses(view: View, params: types.CodeLensParams) -> list[types.CodeLens]:
    analysis = view.analysis
    lenses = []

    def lens_at(path: Path, title: str) -> None:
        node = analysis.node(path)
        if node is not None:
            lenses.append(
                types.CodeLens(range=view.range(node.start, node.start), command=types.Command(title=title, command=""))
            )

    for document in analysis.session.documents:
        lens_at(document.json_path, coverage_title(analysis, document))
        node = analysis.node(document.json_path)
        if node is not None:
            command = types.Command(
                title="open as text", command=OPEN_VIEW, arguments=[view_uri(view.uri, document.path)]
            )
            lenses.append(types.CodeLens(range=view.range(node.start, node.start), command=command))
    for annotation in analysis.session.annotations:
        lens_at(annotation.json_path, verdict_title(annotation))
    return lenses

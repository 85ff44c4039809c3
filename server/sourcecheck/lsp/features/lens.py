"""Code lens: the verdict of each annotation, and above each document who cites it and
what no claim does.

Above an annotation: its verdict (``core/verdicts.py``, docs/rules.md), e.g. "supported: 2
supports (max 0.95)", "contested: 1 supports (max 0.8) · 2 refutes (max 0.9)"; clicked, it
lists the annotation's sources. Above a document: "cited by N refs", which lists them;
"K uncited passages (62%)" when no claim covers some of its text, which lists those
passages in the document's view (its own lines, so a list shows line 12 of the document
and its text, not a place in a JSON string); and "open as text", which opens that view.

Every lens runs a client command, none an empty one (Neovim before 0.10 offers lenses with
an empty command in a picker). ``sourcecheck.showReferences`` takes plain JSON:
``[session_uri, {line, character}, [{uri, range}, ...]]``, the lens's position and the
places to list, in the session file and in the client's position encoding;
``sourcecheck.openDocumentView`` takes the view's URI.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ...core.explain import citations_title, coverage_of, listed_from, uncited_title, verdict_title
from ...core.positions import LineTable
from ...core.session import CheckedRef, Document
from ..app import View, lsp_range, view_uri

OPEN_VIEW = "sourcecheck.openDocumentView"
"""The client command that opens a document view (its URI is the one argument)."""
SHOW_REFERENCES = "sourcecheck.showReferences"
"""The client command that lists places of the session file: ``[session_uri, position,
locations]`` as plain JSON (an LSP ``Position`` and LSP ``Location`` s)."""


def position_json(position: types.Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


def location_json(view: View, start: int, end: int) -> dict[str, Any]:
    """An LSP ``Location`` of the session file, as plain JSON."""
    rng = view.range(start, end)
    return {"uri": view.uri, "range": {"start": position_json(rng.start), "end": position_json(rng.end)}}


def show_references(view: View, at: types.Range, title: str, locations: list[dict[str, Any]]) -> types.CodeLens:
    arguments: list[Any] = [view.uri, position_json(at.start), locations]
    return types.CodeLens(range=at, command=types.Command(title=title, command=SHOW_REFERENCES, arguments=arguments))


def ref_locations(view: View, refs: list[CheckedRef]) -> list[dict[str, Any]]:
    """Where each ref is written in the session file (its whole object)."""
    found = []
    for ref in refs:
        node = view.analysis.node(view.analysis.session.ref_path(ref))
        if node is not None:
            found.append(location_json(view, node.start, node.end))
    return found


def uncited_locations(view: View, document: Document) -> list[dict[str, Any]]:
    """The passages of ``document`` no claim cites, as places in its document view, each
    from its first line holding uncited words (``core.explain.listed_from``): a list shows
    that line's text."""
    coverage = coverage_of(view.analysis, document)
    if coverage is None or not coverage.runs:
        return []
    uri = view_uri(view.uri, document.path)
    lines = LineTable(document.content)
    found = []
    for run in coverage.runs:
        rng = lsp_range(lines.span(listed_from(document.content, run.start, run.end), run.end, view.encoding))
        found.append({"uri": uri, "range": {"start": position_json(rng.start), "end": position_json(rng.end)}})
    return found


def code_lenses(view: View, params: types.CodeLensParams) -> list[types.CodeLens]:
    """The lenses, with their titles; those that list places get them when the editor
    resolves the lens (``codeLens/resolve``): a session with thousands of refs would
    otherwise send every location of every lens on every request."""
    analysis = view.analysis
    lenses = []
    for index, document in enumerate(analysis.session.documents):
        node = analysis.node(document.json_path)
        if node is None:
            continue
        at = view.range(node.start, node.start)
        lenses.append(unresolved(view, at, citations_title(analysis, document), "cited", index))
        coverage = coverage_of(analysis, document)
        if coverage is not None and coverage.runs:
            lenses.append(unresolved(view, at, uncited_title(coverage), "uncited", index))
        command = types.Command(title="open as text", command=OPEN_VIEW, arguments=[view_uri(view.uri, document.path)])
        lenses.append(types.CodeLens(range=at, command=command))
    for index, verdict in enumerate(analysis.summary.verdicts):
        node = analysis.node(verdict.path)
        if node is not None:
            lenses.append(
                unresolved(view, view.range(node.start, node.start), verdict_title(verdict), "verdict", index)
            )
    return lenses


def unresolved(view: View, at: types.Range, title: str, kind: str, index: int) -> types.CodeLens:
    """A lens whose places are found when it is resolved (``data`` says which)."""
    return types.CodeLens(range=at, data={"uri": view.uri, "title": title, "kind": kind, "index": index})


def resolve(view: View, lens: types.CodeLens) -> types.CodeLens:
    """The lens with its command: the places it lists, in the newest version of the file."""
    data = lens.data if isinstance(lens.data, dict) else {}
    kind, index, title = data.get("kind"), data.get("index"), data.get("title")
    if lens.command is not None or not isinstance(index, int) or not isinstance(title, str):
        return lens
    analysis = view.analysis
    documents = analysis.session.documents
    locations: list[dict[str, Any]] = []
    if kind in ("cited", "uncited") and 0 <= index < len(documents):
        document = documents[index]
        if kind == "cited":
            locations = ref_locations(view, analysis.refs_into(document))
        else:
            locations = uncited_locations(view, document)
    elif kind == "verdict" and 0 <= index < len(analysis.summary.verdicts):
        annotation = analysis.session.annotation_at_path(analysis.summary.verdicts[index].path)
        locations = ref_locations(view, list(annotation.sources) if annotation is not None else [])
    return show_references(view, lens.range, title, locations)

"""Cite from a selection: select text and get the ref written, never a wrong coordinate.

In a document view, or inside a document's ``content`` string in the session file, a
selection offers code actions that write into the session file:

- "Cite as the claim of a new annotation": an annotation with this span as its claim and
  no sources yet (the next selection, in a source document, adds them);
- "Cite as a source that supports / refutes" the annotation being written: the one at the
  session file's cursor, as the requests the editor sends there tell (hover, document
  highlight, code action: ``View.cursor``); else, after an edit, the one the writer last
  edited; else the last one without a source that resolves, else the last one. The title
  names its claim and which of these it is, so the writer sees which. The source's
  confidence is a placeholder: one to type over where the client takes snippets in edits
  (VS Code), else 0.7 (a reputable secondary source), named in the title. It is never
  copied from another source: a weak source just cited would make the next one weak.

Titles show both ends of the text cited (``"relieving … methods"``): what the ref starts
and ends with is what the writer chose.

The ref has the shortest boundaries unique on their lines (``core/refs.py``); the JSON is
written with the file's indentation (``core/insert.py``). A selection that cannot be cited
gets one disabled action whose reason says why, and no edit.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ...core.analysis import Analysis
from ...core.display import title_quote
from ...core.insert import Insertion, new_annotation, new_source
from ...core.queries import DEFAULT_CONFIDENCE, annotation_being_written, content_selection
from ...core.refs import Uncitable, cite
from ...core.session import Document
from ..app import Shown, View

KIND = types.CodeActionKind.RefactorRewrite
TITLE_WIDTH = 40


def in_session(view: View, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Cite actions for a selection inside a ``content`` string of the session file."""
    if not wanted(params):
        return []
    found = content_selection(view.analysis, view.offset(params.range.start), view.offset(params.range.end))
    return actions(view, *found) if found is not None else []


def in_view(shown: Shown, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Cite actions for a selection in a document view."""
    if not wanted(params):
        return []
    start, end = shown.offset(params.range.start), shown.offset(params.range.end)
    return actions(shown.view, shown.document, start, end) if end > start else []


def wanted(params: types.CodeActionParams) -> bool:
    only = params.context.only
    return not only or any(KIND.startswith(kind) or kind.startswith(KIND) for kind in only)


def actions(view: View, document: Document, start: int, end: int) -> list[types.CodeAction]:
    result = cite(document, start, end)
    if isinstance(result, Uncitable):
        return [
            types.CodeAction(
                title="Cite this selection", kind=KIND, disabled=types.CodeActionDisabled(reason=result.reason)
            )
        ]
    ref = result.as_json()
    analysis = view.analysis
    found: list[types.CodeAction] = []
    quoted = title_quote(document.content[start:end], TITLE_WIDTH, ends=True)
    insertion = new_annotation(analysis, {"claim": ref, "sources": []})
    if insertion is not None:
        found.append(action(view, f"Cite {quoted} as the claim of a new annotation", insertion))
    index, which = target(view)
    annotation = analysis.session.annotation_at(index) if index is not None else None
    claim = annotation.claim if annotation is not None else None
    if index is not None and (claim is None or claim.doc_path != document.path):
        about = (
            title_quote(claim.text, TITLE_WIDTH, ends=True)
            if claim is not None and claim.text
            else f"annotation {index + 1}"
        )
        confidence = DEFAULT_CONFIDENCE
        placeholder = "" if view.client.snippet_edits else f", confidence {confidence:g} (a placeholder)"
        for polarity in ("supports", "refutes"):
            source: dict[str, Any] = {**ref, "polarity": polarity, "confidence": confidence}
            insertion = new_source(analysis, index, source)
            if insertion is not None:
                title = f"Cite {quoted} as a source that {polarity} {about} ({which}){placeholder}"
                found.append(action(view, title, insertion, confidence))
    return found


def target(view: View) -> tuple[int | None, str]:
    """The annotation a new source goes to, and which one it is, said for the title."""
    analysis = view.analysis
    for offset, which in ((view.cursor, "at the cursor"), (view.memo.last_edit, "last edited")):
        if offset is not None and (around := analysis.annotations_between(offset, offset)):
            return around[0], which
    index = annotation_being_written(analysis, None)
    return index, "the last without a source" if index is not None and unsourced(analysis, index) else "the last"


def unsourced(analysis: Analysis, index: int) -> bool:
    annotation = analysis.session.annotation_at(index)
    return annotation is None or not any(source.valid for source in annotation.sources)


def action(view: View, title: str, insertion: Insertion, confidence: int | float | None = None) -> types.CodeAction:
    """The cite action writing ``insertion``; with a ``confidence``, where the client takes
    snippets, that confidence is a placeholder to type over."""
    if confidence is not None and view.client.snippet_edits:
        written = f'"confidence": {confidence}'
        at = insertion.text.rfind(written)
        if at >= 0:
            head, tail = insertion.text[:at], insertion.text[at + len(written) :]
            snippet = snippet_text(head) + '"confidence": ${1:' + str(confidence) + "}" + snippet_text(tail)
            return types.CodeAction(
                title=title, kind=KIND, edit=view.snippet_edit(insertion.start, insertion.end, snippet)
            )
    return types.CodeAction(
        title=title, kind=KIND, edit=view.workspace_edit([(insertion.start, insertion.end, insertion.text)])
    )


def snippet_text(text: str) -> str:
    """Text in a snippet as itself: ``$``, ``}`` and ``\\`` escaped."""
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")

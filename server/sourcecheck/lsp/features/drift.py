"""Drift, seen in the editor: a session's documents beside their files on disk.

For a session saved on disk whose documents' files the server has read (the paths and
limits of ``sourcecheck sync``: only files inside the session's folder, symlinks resolved;
``lsp/files.py``), each document whose file differs gets a diagnostic on its ``path`` saying
what the change does to its refs, and each ref whose text changed one saying what it cited
and what stands there now: the words of ``core/driftsaid.py``, which the CLI says too.

Code actions, edits of the session buffer only (the server never writes a file), the same
decisions as ``sourcecheck sync`` (``core/accept.py``), each titled with what it does:

- on a document: "Sync `notes.txt` with its file (re-anchor 5 refs)" when every ref into it
  keeps its text (preferred); "Accept the new text of `notes.txt`: 1 ref re-anchored to
  edited text, 1 source removed" when some cite text that changed (never preferred: a person
  judges those claims);
- on a changed ref: "Remove this source (its text was deleted; its claim is left
  unverified)", or for a claim "Remove this annotation"; for text that stands elsewhere
  now (moved more than once, or a copy), "Cite it at line 57 and sync `notes.txt`" per
  place, when it is the document's last changed ref;
- ``source.fixAll``: every document whose refs all keep their text.
"""

from __future__ import annotations

from lsprotocol import types

from ...core.accept import cited_at, document_edits, ref_removal, synced
from ...core.driftsaid import named, plural
from ...core.resync import DocumentDrift, Drift, RefDrift
from ...core.session import Path
from ..app import View


def _lines_of(view: View, path: Path) -> tuple[int, int] | None:
    node = view.analysis.node(path)
    if node is None:
        return None
    lines = view.analysis.lines
    return lines.line_of(node.start), lines.line_of(node.end)


def _on_lines(view: View, start: int, end: int, path: Path) -> bool:
    """Whether the request's range is on a line of the value at ``path`` (an action is offered
    anywhere on the lines of its diagnostic, as the editor asks at the cursor's line)."""
    spans = _lines_of(view, path)
    if spans is None:
        return False
    lines = view.analysis.lines
    return lines.line_of(start) <= spans[1] and spans[0] <= lines.line_of(end)


def accept_title(drift: Drift, document: DocumentDrift) -> str:
    """What accepting a document's change does, counted."""
    result = synced(drift, frozenset({document.document.path}))
    counts: dict[str, int] = {}
    for outcome in result.outcomes:
        counts[outcome.action] = counts.get(outcome.action, 0) + 1
    parts = []
    if counts.get("re-anchored"):
        parts.append(f"{plural(counts['re-anchored'], 'ref')} re-anchored to edited text")
    if counts.get("source removed"):
        parts.append(f"{plural(counts['source removed'], 'source')} removed (text deleted)")
    if counts.get("annotation removed"):
        parts.append(f"{plural(counts['annotation removed'], 'annotation')} removed (claim deleted)")
    moving = document.moving
    if moving:
        parts.append(f"{moving} more re-anchored")
    return f"Accept the new text of {named(document.document.path)}: " + ", ".join(parts)


def sync_action(view: View, drift: Drift, document: DocumentDrift) -> types.CodeAction | None:
    """Sync a document whose refs all keep their text, or accept its change."""
    name = named(document.document.path)
    if document.all_kept:
        moving = document.moving
        title = f"Sync {name} with its file" + (f" (re-anchor {plural(moving, 'ref')})" if moving else "")
        edits = document_edits(view.analysis, document, accept=False)
        return types.CodeAction(
            title=title, kind=types.CodeActionKind.QuickFix, is_preferred=True, edit=view.workspace_edit(edits)
        )
    if document.held:
        return None  # a changed ref no boundary can cite: settled by hand (see DocumentDrift.held)
    edits = list(synced(drift, frozenset({document.document.path})).edits)
    return types.CodeAction(
        title=accept_title(drift, document), kind=types.CodeActionKind.QuickFix, edit=view.workspace_edit(edits)
    )


def ref_actions(view: View, document: DocumentDrift, ref: RefDrift) -> list[types.CodeAction]:
    """A changed ref's own decisions: remove it; cite its text at one of its places now."""
    actions = []
    removal = ref_removal(view.analysis, ref.ref)
    if removal:
        what = "was deleted" if ref.state == "deleted" else "was edited"
        title = (
            f"Remove this source (its text {what})"
            if ref.ref.is_source
            else f"Remove this annotation (its claim's text {what})"
        )
        actions.append(
            types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, edit=view.workspace_edit(removal))
        )
    for place in ref.places:
        edits = cited_at(view.analysis, document, ref, place)
        if edits is None:
            continue
        title = f"Cite it at line {place.line} and sync {named(document.document.path)}"
        actions.append(
            types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix, edit=view.workspace_edit(edits))
        )
    return actions


def drift_actions(view: View, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The decisions of the document or changed ref under the cursor; ``source.fixAll``: every
    document whose refs all keep their text."""
    drift = view.drift
    if drift is None or drift.analysis is not view.analysis or not drift.on_disk:
        return []
    only = params.context.only
    actions: list[types.CodeAction] = []
    if only is None or any(kind.startswith(types.CodeActionKind.QuickFix) for kind in only):
        start, end = view.offset(params.range.start), view.offset(params.range.end)
        for document in drift.documents:
            if document.state != "changed":
                continue
            changed = [ref for ref in document.changed_refs if _on_lines(view, start, end, ref.path)]
            for ref in changed:
                actions += ref_actions(view, document, ref)
            if changed or _on_lines(view, start, end, document.document.json_path):
                action = sync_action(view, drift, document)
                if action is not None:
                    actions.append(action)
    if only is not None and any(kind.startswith(types.CodeActionKind.SourceFixAll) for kind in only):
        edits = [
            edit for document in drift.updated(accept=False) for edit in document_edits(view.analysis, document, False)
        ]
        if edits:
            actions.append(
                types.CodeAction(
                    title="Sync every document whose refs keep their text",
                    kind=types.CodeActionKind.SourceFixAll,
                    edit=view.workspace_edit(sorted(edits)),
                )
            )
    return actions

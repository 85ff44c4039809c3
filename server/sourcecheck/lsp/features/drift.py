"""Drift, seen in the editor: a session's documents beside their files on disk.

For a session saved on disk whose documents' files the server has read (the paths and
limits of ``sourcecheck sync``: only files inside the session's folder, symlinks resolved),
each document whose file differs gets a diagnostic on its ``path`` saying what the change
does to its refs ("5 refs move with it, 1 cites text that changed"), and each ref whose text
changed one saying what it cited and what stands there now. A file that cannot be read
(missing, a link leaving the folder) is said on the document's ``path`` too. A session none
of whose documents has a file (written by hand, not with ``sourcecheck new``) hears nothing.

Code actions, edits of the session buffer only (the server never writes a file): "Sync
`notes.txt` (re-anchor 5 refs)" when every ref into it keeps its text (preferred); "Accept
the new text of `notes.txt`" when some cite text that changed (never preferred: a person
judges those claims again); and ``source.fixAll``, every document whose refs all survive.
"""

from __future__ import annotations

from lsprotocol import types

from ...core.display import shorten, visible
from ...core.resync import DocumentDrift, document_edits
from ..app import View


def _name(path: str) -> str:
    return "`" + visible(shorten(path, 80)) + "`"


def _refs(count: int) -> str:
    return f"{count} ref{'s' if count != 1 else ''}"


def _touches(view: View, document: DocumentDrift, start: int, end: int) -> bool:
    """Whether the offsets ``[start, end]`` touch the document's item or a ref into it that changed."""
    places = [document.document.json_path] + [ref.ref.json_path for ref in document.changed_refs]
    for path in places:
        node = view.analysis.node(path)
        if node is not None and node.start <= end and start <= node.end:
            return True
    return False


def sync_action(view: View, document: DocumentDrift, accept: bool) -> types.CodeAction:
    name = _name(document.document.path)
    changed = len(document.changed_refs)
    moving = sum(1 for ref in document.kept_refs if ref.moves)
    if accept:
        title = f"Accept the new text of {name} ({_refs(changed)} re-anchored to text that changed"
        title += f", {moving} more moved)" if moving else ")"
    else:
        title = f"Sync {name} with its file (re-anchor {_refs(moving)})" if moving else f"Sync {name} with its file"
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        is_preferred=(not accept) or None,
        edit=view.workspace_edit(document_edits(view.analysis, document, accept)),
    )


def drift_actions(view: View, params: types.CodeActionParams) -> list[types.CodeAction]:
    """Sync or accept the document under the cursor; ``source.fixAll``: every document whose
    refs all keep their text."""
    drift = view.drift
    if drift is None or drift.analysis is not view.analysis or not drift.on_disk:
        return []
    only = params.context.only
    actions: list[types.CodeAction] = []
    if only is None or any(kind.startswith(types.CodeActionKind.QuickFix) for kind in only):
        start, end = view.offset(params.range.start), view.offset(params.range.end)
        for document in drift.documents:
            if document.state == "changed" and _touches(view, document, start, end):
                actions.append(sync_action(view, document, accept=bool(document.changed_refs)))
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

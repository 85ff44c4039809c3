"""Rename a document's ``path``, from the document or from any ref to it: every ref follows.

The rename is refused, with a message, when the new name is already another document's.
"""

from __future__ import annotations

from lsprotocol import types

from ...core.jsonlex import encode_string
from ...core.jsonnodes import JString
from ...core.queries import path_under_cursor
from ..app import RequestRefused, View


def prepare_rename(view: View, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder | None:
    found = path_under_cursor(view.analysis, view.offset(params.position))
    if found is None:
        return None
    name, node = found
    return types.PrepareRenamePlaceholder(range=view.range(node.start + 1, node.end - 1), placeholder=name)


def rename(view: View, params: types.RenameParams) -> types.WorkspaceEdit | None:
    analysis = view.analysis
    found = path_under_cursor(analysis, view.offset(params.position))
    new_name = params.new_name
    if found is None or new_name == found[0]:
        return None
    old = found[0]
    if new_name in analysis.session.by_path:
        raise RequestRefused(f"a document named {new_name!r} already exists; pick another name")
    under = found[1]
    winner = analysis.session.by_path[old]
    if analysis.node(winner.json_path + ("path",)) is not under and analysis.ref_at(under.start) is None:
        # A later document with the same path (a duplicate, which refs never resolve
        # against): renamed alone.
        return view.workspace_edit([(under.start, under.end, encode_string(new_name))])
    targets = [winner.json_path + ("path",)]
    ref_path = analysis.session.ref_path
    targets += [ref_path(ref) + ("path",) for ref in analysis.session.refs if ref.doc_path == old]
    literal = encode_string(new_name)
    edits = []
    for path in targets:
        node = analysis.node(path)
        if isinstance(node, JString) and node.value == old:
            edits.append((node.start, node.end, literal))
    return view.workspace_edit(edits)

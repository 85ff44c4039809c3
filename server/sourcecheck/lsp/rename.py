"""Rename a document's ``path``, from the document or from any ref to it: every ref follows.

The rename is refused, with a message, when the new name is already another document's.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from ..analysis import Analysis
from ..syntax import JString, encode_string
from .actions import workspace_edit_many
from .convert import lsp_range
from .documents import OpenDocument
from .navigation import document_path_at
from .server import SourceCheckServer, guarded


def path_under_cursor(analysis: Analysis, offset: int) -> tuple[str, JString] | None:
    """The document path at ``offset`` (in the documents array or in a ref) and its string node."""
    place = analysis.place_at(offset)
    if place is None or not place.path or place.path[-1] != "path":
        return None
    node = analysis.node(place.path)
    if not isinstance(node, JString) or node.value not in analysis.session.by_path:
        return None
    in_ref = analysis.ref_at(offset) is not None
    if not in_ref and document_path_at(analysis, offset) is None:
        return None
    return node.value, node


def rename_edit(ls: SourceCheckServer, document: OpenDocument, offset: int, new_name: str) -> types.WorkspaceEdit | None:
    analysis = document.analysis
    found = path_under_cursor(analysis, offset)
    if found is None:
        return None
    old, _ = found
    if new_name == old:
        return None
    if new_name in analysis.session.by_path:
        raise JsonRpcInvalidParams(f"a document named {new_name!r} already exists; pick another name")
    targets = [analysis.session.by_path[old].json_path + ("path",)]
    targets += [ref.json_path + ("path",) for ref in analysis.session.refs if ref.doc_path == old]
    literal = encode_string(new_name)
    edits = []
    for path in targets:
        node = analysis.node(path)
        if isinstance(node, JString) and node.value == old:
            edits.append((node.start, node.end, literal))
    return workspace_edit_many(ls, document, edits)


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    @guarded()
    async def prepare(ls: SourceCheckServer, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder | None:
        document = await ls.ready_session(params.text_document.uri)
        found = path_under_cursor(document.analysis, ls.offset(document, params.position)) if document else None
        if document is None or found is None:
            return None
        name, node = found
        rng = lsp_range(document.analysis.span(node.start + 1, node.end - 1, ls.encoding))
        return types.PrepareRenamePlaceholder(range=rng, placeholder=name)

    @server.feature(types.TEXT_DOCUMENT_RENAME, types.RenameOptions(prepare_provider=True))
    async def rename(ls: SourceCheckServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
        document = await ls.ready_session(params.text_document.uri)
        if document is None:
            return None
        return rename_edit(ls, document, ls.offset(document, params.position), params.new_name)

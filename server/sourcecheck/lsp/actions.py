"""Quick fixes in the editor: every fix the core offers for the findings under the cursor.

The extend-until-unique fix (one per occurrence, titled with the text the ref would then
cite, preferred when it is the only one whose span runs forward), and the others of
:mod:`sourcecheck.quickfix`. Offered from the diagnostic and from the cursor on the value.
An edit names the document version it was computed for, so a client drops it if the text
has moved on; it replaces only the values it fixes.
"""

from __future__ import annotations

from lsprotocol import types

from ..quickfix import Fix, quick_fixes
from ..session import Finding
from .convert import lsp_range
from .documents import OpenDocument
from .server import SourceCheckServer, guarded


def workspace_edit_many(ls: SourceCheckServer, document: OpenDocument, edits: list[tuple[int, int, str]]) -> types.WorkspaceEdit:
    analysis = document.analysis
    text_edits = [types.TextEdit(range=lsp_range(analysis.span(start, end, ls.encoding)), new_text=text) for start, end, text in edits]
    if ls.document_changes:
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=document.uri, version=document.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=text_edits)])
    return types.WorkspaceEdit(changes={document.uri: text_edits})


def code_action(ls: SourceCheckServer, document: OpenDocument, fix: Fix, diagnostic: types.Diagnostic) -> types.CodeAction:
    return types.CodeAction(
        title=fix.title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=fix.preferred or None,
        edit=workspace_edit_many(ls, document, [(e.start, e.end, e.text) for e in fix.edits]),
    )


def diagnostic_for(ls: SourceCheckServer, document: OpenDocument, finding: Finding, sent: list[types.Diagnostic]) -> types.Diagnostic:
    """The client's own diagnostic for a finding when it sent it, else an equal one."""
    rng = lsp_range(document.analysis.finding_span(finding, ls.encoding))
    for diagnostic in sent:
        if diagnostic.code == finding.code and diagnostic.range == rng:
            return diagnostic
    return types.Diagnostic(range=rng, message=finding.message, code=finding.code, source="sourcecheck", severity=types.DiagnosticSeverity.Error)


def code_actions(ls: SourceCheckServer, document: OpenDocument, params: types.CodeActionParams) -> list[types.CodeAction]:
    if params.context.only and not any(kind.startswith(types.CodeActionKind.QuickFix) for kind in params.context.only):
        return []
    analysis = document.analysis
    start = ls.offset(document, params.range.start)
    end = ls.offset(document, params.range.end)
    actions: list[types.CodeAction] = []
    for finding in analysis.findings:
        begin, finish = analysis.extent(finding)
        if finish < start or begin > end:
            continue
        fixes = quick_fixes(analysis, finding)
        if fixes:
            diagnostic = diagnostic_for(ls, document, finding, list(params.context.diagnostics))
            actions.extend(code_action(ls, document, fix, diagnostic) for fix in fixes)
    return actions


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    @guarded([])
    async def code_action_handler(ls: SourceCheckServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        document = await ls.ready_session(params.text_document.uri)
        if document is None:
            return []
        return code_actions(ls, document, params)

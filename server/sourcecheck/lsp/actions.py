"""Quick fixes: extend an ambiguous boundary until it is unique, keeping the span in place.

One fix per occurrence that can be made unique, titled with the text the ref would then
cite; when only one of them gives a span that runs forward, it is marked preferred.
Offered from the diagnostic and from the cursor on the ``str`` value. The edit replaces
only the ``str`` value, written as a correctly escaped JSON string, and names the
document version it was computed for, so a client drops it if the text has moved on.
"""

from __future__ import annotations

from lsprotocol import types

from ..display import shorten, visible
from ..fixes import Extension, extensions, preferred
from ..session import Finding
from ..syntax import encode_string
from .convert import lsp_range
from .documents import OpenDocument
from .server import SourceCheckServer, guarded

TITLE_WIDTH = 60


def workspace_edit(ls: SourceCheckServer, document: OpenDocument, start: int, end: int, new_text: str) -> types.WorkspaceEdit:
    edit = types.TextEdit(range=lsp_range(document.analysis.span(start, end, ls.encoding)), new_text=new_text)
    if ls.document_changes:
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=document.uri, version=document.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=[edit])])
    return types.WorkspaceEdit(changes={document.uri: [edit]})


def title(extension: Extension) -> str:
    new = visible(shorten(extension.new_str, TITLE_WIDTH // 2))
    if extension.span_text is not None:
        span = visible(shorten(extension.span_text, TITLE_WIDTH))
        return f'Extend {extension.side} to "{new}": cites "{span}"'
    if extension.forward is False:
        return f'Extend {extension.side} to "{new}" (occurrence {extension.occurrence}: the span would run backward)'
    return f'Extend {extension.side} to "{new}" (occurrence {extension.occurrence}, column {extension.column + 1})'


def extend_actions(ls: SourceCheckServer, document: OpenDocument, finding: Finding, diagnostic: types.Diagnostic | None) -> list[types.CodeAction]:
    ref = finding.ref
    if ref is None:
        return []
    side = str(finding.path[-2])
    found = extensions(ref, side)
    best = preferred(found)
    value = document.analysis.node(finding.path)
    if value is None:
        return []
    actions = []
    for extension in found:
        actions.append(
            types.CodeAction(
                title=title(extension),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic] if diagnostic is not None else None,
                is_preferred=extension is best or None,
                edit=workspace_edit(ls, document, value.start, value.end, encode_string(extension.new_str)),
            )
        )
    return actions


def matching_diagnostic(diagnostics: list[types.Diagnostic], code: str, rng: types.Range) -> types.Diagnostic | None:
    for diagnostic in diagnostics:
        if diagnostic.code == code and diagnostic.range == rng:
            return diagnostic
    return None


def code_actions(ls: SourceCheckServer, document: OpenDocument, params: types.CodeActionParams) -> list[types.CodeAction]:
    if params.context.only and not any(kind.startswith(types.CodeActionKind.QuickFix) for kind in params.context.only):
        return []
    analysis = document.analysis
    start = ls.offset(document, params.range.start)
    end = ls.offset(document, params.range.end)
    actions: list[types.CodeAction] = []
    for finding in analysis.findings:
        if finding.code != "boundary-ambiguous":
            continue
        begin, finish = analysis.extent(finding)
        if finish < start or begin > end:
            continue
        rng = lsp_range(analysis.span(begin, finish, ls.encoding))
        diagnostic = matching_diagnostic(params.context.diagnostics, finding.code, rng) or types.Diagnostic(
            range=rng, message=finding.message, code=finding.code, source="sourcecheck", severity=types.DiagnosticSeverity.Error
        )
        actions.extend(extend_actions(ls, document, finding, diagnostic))
    return actions


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    @guarded([])
    def code_action(ls: SourceCheckServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        document = ls.session(params.text_document.uri)
        if document is None:
            return []
        return code_actions(ls, document, params)

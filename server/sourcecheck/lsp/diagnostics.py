"""Diagnostics: every finding of RULES.md on the exact JSON value, as you type.

Clients that can pull diagnostics (``textDocument/diagnostic``) get them by pull, the
others by push; never both, or an editor shows each twice. An ambiguous boundary lists
every occurrence in ``relatedInformation``, pointing into the document's ``content``.
"""

from __future__ import annotations

import asyncio

from lsprotocol import types

from ..analysis import looks_like_session, no_garbage_collection
from ..display import shorten, visible
from ..session import Finding, Severity
from .convert import lsp_range
from .documents import SESSION_SUFFIX, OpenDocument
from .server import SourceCheckServer, guarded

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


def occurrence_locations(ls: SourceCheckServer, document: OpenDocument, finding: Finding) -> list[types.DiagnosticRelatedInformation]:
    """Where each occurrence of an ambiguous boundary sits inside the content string.

    Kept from version to version while the finding and the content string stay the same
    (an edit elsewhere in the file moves neither)."""
    ref = finding.ref
    analysis = document.analysis
    if ref is None or ref.document is None:
        return []
    content = analysis.content_map(ref.document)
    cached = document.related.get(id(finding))
    if cached is None or cached[0] is not finding or cached[1] is not content or cached[2] != ls.encoding:
        cached = (finding, content, ls.encoding, _occurrence_locations(ls, document, finding))
    document.related_next[id(finding)] = cached
    return cached[3]


def _occurrence_locations(ls: SourceCheckServer, document: OpenDocument, finding: Finding) -> list[types.DiagnosticRelatedInformation]:
    ref = finding.ref
    analysis = document.analysis
    assert ref is not None and ref.document is not None
    boundary = ref.start if finding.path[-2:-1] == ("start",) else ref.end
    if boundary is None:
        return []
    line = ref.document.lines[boundary.line - 1]
    related = []
    for index, column in enumerate(boundary.occurrences):
        begin = ref.document.offset(boundary.line, column)
        extent = analysis.content_extent(ref.document, begin, begin + len(boundary.str))
        if extent is None:
            continue
        context = visible(line[max(0, column - 15) : column + len(boundary.str) + 15])
        related.append(
            types.DiagnosticRelatedInformation(
                location=types.Location(uri=document.uri, range=lsp_range(analysis.span(*extent, ls.encoding))),
                message=f"occurrence {index + 1} of {boundary.occurrence_count}, column {column + 1}: …{shorten(context, 60)}…",
            )
        )
    return related


MAX_DIAGNOSTICS = 1000
"""Diagnostics sent per file; past that an editor only slows down (the CLI lists them all)."""


def too_large(ls: SourceCheckServer, document: OpenDocument) -> types.Diagnostic:
    limit = ls.settings.max_file_size_mb
    size = len(document.text) / 1_000_000
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        message=f"this file holds {size:.0f} million characters, more than sourcecheck.maxFileSizeMB ({limit}); it is not checked. Raise the limit or check it with the sourcecheck command",
        severity=types.DiagnosticSeverity.Warning,
        code="file-too-large",
        source="sourcecheck",
    )


def diagnostics_for(ls: SourceCheckServer, document: OpenDocument) -> list[types.Diagnostic]:
    with no_garbage_collection():  # thousands of diagnostics, no garbage: see analysis.py
        return _diagnostics_for(ls, document)


def _diagnostics_for(ls: SourceCheckServer, document: OpenDocument) -> list[types.Diagnostic]:
    if document.too_large(ls.settings.max_file_size_mb):
        ours = document.uri.endswith(SESSION_SUFFIX) or looks_like_session(document.text[:100_000])
        return [too_large(ls, document)] if ours else []
    if not document.is_session:
        return []
    analysis = document.analysis
    found = []
    if len(analysis.findings) > MAX_DIAGNOSTICS:
        found.append(types.Diagnostic(
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            message=f"{len(analysis.findings)} findings; the first {MAX_DIAGNOSTICS} are shown. Run `sourcecheck` on this file for all of them",
            severity=types.DiagnosticSeverity.Information,
            code="too-many-findings",
            source="sourcecheck",
        ))
    document.related_next = {}
    for finding in analysis.findings[:MAX_DIAGNOSTICS]:
        diagnostic = types.Diagnostic(
            range=lsp_range(analysis.finding_span(finding, ls.encoding)),
            message=finding.message,
            severity=SEVERITIES[finding.severity],
            code=finding.code,
            source="sourcecheck",
        )
        if finding.code == "boundary-ambiguous":
            diagnostic.related_information = occurrence_locations(ls, document, finding)
        found.append(diagnostic)
    document.related, document.related_next = document.related_next, {}  # only what is still shown
    return found


def publish(ls: SourceCheckServer, document: OpenDocument) -> None:
    version = document.version
    if not document.is_session and document.uri not in ls.published:
        return  # other JSON files hear nothing from us
    items = diagnostics_for(ls, document)
    ls.published.add(document.uri)
    # Publish only if this is still the newest version: an old result never follows a new one.
    if ls.documents.get(document.uri) is document and document.version == version:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=document.uri, diagnostics=items, version=version))


@guarded()
def publish_if_current(ls: SourceCheckServer, document: OpenDocument, version: int) -> None:
    if ls.documents.get(document.uri) is document and document.version == version:
        publish(ls, document)  # also clears them if the file stopped being a session


def choose_mode(ls: SourceCheckServer) -> None:
    """Register pull diagnostics only for clients that ask for them (called at initialize)."""
    if not ls.pull_diagnostics:
        return

    @ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(identifier="sourcecheck", inter_file_dependencies=False, workspace_diagnostics=False))
    @guarded(types.RelatedFullDocumentDiagnosticReport(items=[]))
    def pull(ls: SourceCheckServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        document = ls.documents.get(params.text_document.uri)
        if document is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        result_id = f"{id(document)}:{document.version}"
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=diagnostics_for(ls, document), result_id=result_id)


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    def did_open(ls: SourceCheckServer, params: types.DidOpenTextDocumentParams) -> None:
        document = ls.documents.get(params.text_document.uri)
        if document is not None and not ls.pull_diagnostics:
            publish(ls, document)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: SourceCheckServer, params: types.DidChangeTextDocumentParams) -> None:
        document = ls.documents.get(params.text_document.uri)
        if document is not None and not ls.pull_diagnostics:
            # Let edits already waiting be read first: work for a superseded version is dropped.
            asyncio.get_running_loop().call_later(0.001, publish_if_current, ls, document, document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: SourceCheckServer, params: types.DidCloseTextDocumentParams) -> None:
        if not ls.pull_diagnostics and params.text_document.uri in ls.published:
            ls.published.discard(params.text_document.uri)
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

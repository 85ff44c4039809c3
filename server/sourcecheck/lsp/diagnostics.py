"""Diagnostics: every finding of RULES.md on the exact JSON value, as you type.

Clients that can pull diagnostics (``textDocument/diagnostic``) get them by pull, the
others by push; never both, or an editor shows each twice. An ambiguous boundary lists
every occurrence in ``relatedInformation``, pointing into the document's ``content``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from ..analysis import Analysis, looks_like_session, no_garbage_collection
from ..display import shorten, visible
from ..positions import Encoding, Position, Span
from ..session import Finding, Severity
from ..syntax import StringMap
from .documents import SESSION_SUFFIX, OpenDocument
from .server import SourceCheckServer, guarded

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


Wire = dict[str, Any]
"""A diagnostic in its JSON form, as sent (see ``SourceCheckProtocol._send_data``)."""


@dataclass(slots=True)
class Sent:
    """A finding's diagnostic as last built, and what it was built from."""

    finding: Finding
    extent: tuple[int, int]
    content: StringMap | None  # the content string's escape map, for related locations
    wire: Wire
    encoded: str  # ``wire`` as JSON text (ASCII)


class Diagnostics(list[Wire]):
    """A document's diagnostics, with the JSON text of the list (``encoded``) written from
    each diagnostic's own, kept from version to version: the server sends that text as it
    is (see ``SourceCheckProtocol._send_data``) instead of encoding a thousand of them again."""

    encoded: str = "[]"


@dataclass(slots=True)
class WireCache:
    """The diagnostics built for one analysis of a document, by finding.

    The next version's analysis knows the edit it came from (``Analysis.derived``); a
    finding it kept, whose line and column the edit cannot have moved, keeps its JSON as
    it is. A one-character edit in a session with a thousand findings then builds one
    or two diagnostics, not a thousand."""

    analysis: int  # the analysis's serial number
    encoding: Encoding
    sent: dict[int, Sent] = field(default_factory=dict)


def wire_range(span: Span) -> Wire:
    return {"start": {"line": span.start.line, "character": span.start.character}, "end": {"line": span.end.line, "character": span.end.character}}


def occurrence_locations(ls: SourceCheckServer, document: OpenDocument, finding: Finding) -> list[Wire]:
    """Where each occurrence of an ambiguous boundary sits inside the content string."""
    ref = finding.ref
    analysis = document.analysis
    if ref is None or ref.document is None:
        return []
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
        related.append({
            "location": {"uri": document.uri, "range": wire_range(analysis.span(*extent, ls.encoding))},
            "message": f"occurrence {index + 1} of {boundary.occurrence_count}, column {column + 1}: …{shorten(context, 60)}…",
        })
    return related


MAX_DIAGNOSTICS = 1000
"""Diagnostics sent per file; past that an editor only slows down (the CLI lists them all)."""


def note(code: str, message: str, severity: types.DiagnosticSeverity) -> Wire:
    """A diagnostic about the whole file, at its start."""
    return {"range": wire_range(Span(Position(0, 0), Position(0, 0))), "message": message, "severity": int(severity), "code": code, "source": "sourcecheck"}


def too_large(ls: SourceCheckServer, document: OpenDocument) -> Wire:
    limit = ls.settings.max_file_size_mb
    size = len(document.source) / 1_000_000
    message = f"this file holds {size:.0f} million characters, more than sourcecheck.maxFileSizeMB ({limit}); it is not checked. Raise the limit or check it with the sourcecheck command"
    return note("file-too-large", message, types.DiagnosticSeverity.Warning)


def diagnostics_for(ls: SourceCheckServer, document: OpenDocument) -> Diagnostics:
    with no_garbage_collection(freeze=True):  # kept until the next version: see analysis.py
        pairs = _diagnostics_for(ls, document)
    found = Diagnostics(wire for wire, _ in pairs)
    found.encoded = "[" + ",".join(encoded for _, encoded in pairs) + "]"
    return found


def _diagnostics_for(ls: SourceCheckServer, document: OpenDocument) -> list[tuple[Wire, str]]:
    """Each diagnostic and its JSON text."""
    if document.too_large(ls.settings.max_file_size_mb):
        ours = document.uri.endswith(SESSION_SUFFIX) or looks_like_session(document.source[:100_000])
        return [_with_json(too_large(ls, document))] if ours else []
    if not document.is_session:
        return []
    analysis = document.analysis
    found = []
    if len(analysis.findings) > MAX_DIAGNOSTICS:
        message = f"{len(analysis.findings)} findings; the first {MAX_DIAGNOSTICS} are shown. Run `sourcecheck` on this file for all of them"
        found.append(_with_json(note("too-many-findings", message, types.DiagnosticSeverity.Information)))
    old = document.wire_cache
    derived = analysis.derived
    if old is None or old.encoding is not ls.encoding:
        kept: dict[int, Sent] = {}
    elif old.analysis == analysis.serial or (derived is not None and derived.previous == old.analysis):
        kept = old.sent
    else:
        kept = {}
    cache = WireCache(analysis.serial, ls.encoding)
    placed = Placement(analysis, old is not None and old.analysis == analysis.serial)
    for finding in analysis.findings[:MAX_DIAGNOSTICS]:
        extent = analysis.extent(finding)
        content = analysis.content_map(finding.ref.document) if finding.code == "boundary-ambiguous" and finding.ref is not None and finding.ref.document is not None else None
        previous = kept.get(id(finding))
        if previous is not None and previous.finding is finding and previous.content is content and placed.unmoved(previous.extent, extent):
            sent = Sent(finding, extent, content, previous.wire, previous.encoded)
        else:
            wire = {"range": wire_range(analysis.span(*extent, ls.encoding)), "message": finding.message, "severity": int(SEVERITIES[finding.severity]), "code": finding.code, "source": "sourcecheck"}
            if finding.code == "boundary-ambiguous":
                wire["relatedInformation"] = occurrence_locations(ls, document, finding)
            sent = Sent(finding, extent, content, wire, json.dumps(wire))
        cache.sent[id(finding)] = sent
        found.append((sent.wire, sent.encoded))
    document.wire_cache = cache
    return found


def _with_json(wire: Wire) -> tuple[Wire, str]:
    return wire, json.dumps(wire)


class Placement:
    """Whether an extent of the text the cache was built for is at the same line and
    columns in this analysis's text, found with a few comparisons per extent."""

    def __init__(self, analysis: Analysis, same_analysis: bool) -> None:
        self.same = same_analysis
        self.derived = derived = analysis.derived
        # After the edit, lines keep their numbers if no line break changed, and columns
        # are kept from the line after the one the edit ends on.
        self.next_line = -1
        if derived is not None and derived.breaks_kept:
            lines = analysis.lines
            line = lines.line_of(derived.end + derived.delta)
            self.next_line = lines.starts[line + 1] if line + 1 < lines.line_count else -1

    def unmoved(self, was: tuple[int, int], now: tuple[int, int]) -> bool:
        derived = self.derived
        if self.same or derived is None:
            return self.same and was == now
        if now[1] <= derived.start:
            return was == now  # before the edit: nothing before it changed
        return self.next_line >= 0 and now[0] >= self.next_line and derived.moved(was) == now


async def publish(ls: SourceCheckServer, document: OpenDocument) -> None:
    """Push the diagnostics of the document's current version, once it is analysed; nothing
    if an edit outdates it meanwhile (that edit's own push follows): an old result never
    follows a new one."""
    version = document.version
    if not document.too_large(ls.settings.max_file_size_mb) and not await ls.analysed(document):
        return
    if ls.documents.get(document.uri) is not document or document.version != version:
        return
    if not document.is_session and document.uri not in ls.published:
        return  # other JSON files hear nothing from us
    items = diagnostics_for(ls, document)
    ls.published.add(document.uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=document.uri, diagnostics=items, version=version))


@guarded()
async def publish_if_current(ls: SourceCheckServer, document: OpenDocument, version: int) -> None:
    if ls.documents.get(document.uri) is document and document.version == version:
        await publish(ls, document)  # also clears them if the file stopped being a session


def choose_mode(ls: SourceCheckServer) -> None:
    """Register pull diagnostics only for clients that ask for them (called at initialize)."""
    if not ls.pull_diagnostics:
        return

    @ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(identifier="sourcecheck", inter_file_dependencies=False, workspace_diagnostics=False))
    @guarded(types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def pull(ls: SourceCheckServer, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        uri = params.text_document.uri
        while (document := ls.documents.get(uri)) is not None and not document.too_large(ls.settings.max_file_size_mb):
            if await ls.analysed(document) and ls.documents.get(uri) is document:
                break  # else an edit came meanwhile: the newest version is the one to report
        if document is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        result_id = f"{id(document)}:{document.version}"
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=diagnostics_for(ls, document), result_id=result_id)


def register(server: SourceCheckServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded()
    async def did_open(ls: SourceCheckServer, params: types.DidOpenTextDocumentParams) -> None:
        document = ls.documents.get(params.text_document.uri)
        if document is not None and not ls.pull_diagnostics:
            await publish(ls, document)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded()
    def did_change(ls: SourceCheckServer, params: types.DidChangeTextDocumentParams) -> None:
        document = ls.documents.get(params.text_document.uri)
        if document is not None and not ls.pull_diagnostics:
            # Let edits already waiting be read first: work for a superseded version is dropped.
            version = document.version
            asyncio.get_running_loop().call_later(0.001, lambda: ls.spawn(publish_if_current(ls, document, version)))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded()
    def did_close(ls: SourceCheckServer, params: types.DidCloseTextDocumentParams) -> None:
        if not ls.pull_diagnostics and params.text_document.uri in ls.published:
            ls.published.discard(params.text_document.uri)
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

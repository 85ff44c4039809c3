"""Diagnostics: every finding of docs/rules.md on the exact JSON value, as you type.

Clients that can pull diagnostics (``textDocument/diagnostic``) get them by pull, the
others by push; never both, or an editor shows each twice (the server decides which). An
ambiguous boundary lists every occurrence in ``relatedInformation``, pointing into the
document's ``content``. Each diagnostic's JSON is written once and kept while an edit
cannot have moved it (see :mod:`..wire`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lsprotocol import types

from ...core.accept import claim_text
from ...core.analysis import Analysis
from ...core.display import shorten, visible
from ...core.driftsaid import REF_CHANGED, diagnostic_said, document_said
from ...core.incremental import Derivation, Placement
from ...core.jsonlex import StringMap
from ...core.occurrences import MAX_OCCURRENCES, more_than
from ...core.positions import Encoding, LineTable, Span
from ...core.session import Severity, Violation
from ..app import View
from ..runtime import COLLECTOR
from ..wire import Shifted, Wire, WrittenDiagnostics, dumps

SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}
MAX_DIAGNOSTICS = 1000
"""Diagnostics sent per file; past that an editor only slows down (the CLI lists them all)."""


@dataclass(slots=True)
class Sent:
    """A finding's diagnostic as last built, and what it was built from."""

    finding: Violation
    content: StringMap | None  # the content string's escape map, for related locations
    wire: Wire | Shifted  # shifted: moved by whole lines since it was built
    encoded: str  # ``wire`` as JSON text (ASCII)


@dataclass(slots=True)
class WireCache:
    """The diagnostics built for one analysis of a document, by finding.

    The next version's analysis knows the edit it came from (``Analysis.derived``); a
    finding it kept, whose line and column the edit cannot have moved, keeps its JSON as
    it is. A one-character edit in a session with a thousand findings then builds one
    or two diagnostics, not a thousand."""

    analysis: int  # the analysis's serial number
    encoding: Encoding
    lines: LineTable  # of the text the diagnostics were built for (asked its line count after an edit)
    extents: Mapping[int, tuple[int, int]]  # of its findings, by identity (the analysis's own)
    sent: dict[int, Sent] = field(default_factory=dict)


def wire_range(span: Span) -> Wire:
    return {
        "start": {"line": span.start.line, "character": span.start.character},
        "end": {"line": span.end.line, "character": span.end.character},
    }


MAX_RELATED = 20
"""Occurrences of an ambiguous boundary shown as related locations, at most (200 boundaries
of a text found 1,000 times each made a 48 MB publish)."""


def occurrence_locations(view: View, finding: Violation) -> list[Wire]:
    """Where the first occurrences of an ambiguous boundary sit inside the content string."""
    ref = finding.ref
    analysis = view.analysis
    if ref is None or ref.document is None:
        return []
    boundary = ref.start if finding.path[-2:-1] == ("start",) else ref.end
    if boundary is None:
        return []
    line = ref.document.lines[boundary.line - 1]
    related = []
    count = f"more than {MAX_OCCURRENCES:,}" if more_than(boundary.occurrence_count) else boundary.occurrence_count
    for index, column in enumerate(boundary.occurrences[:MAX_RELATED]):
        begin = ref.document.offset(boundary.line, column)
        extent = analysis.content_extent(ref.document, begin, begin + len(boundary.str))
        if extent is None:
            continue
        context = visible(line[max(0, column - 15) : column + len(boundary.str) + 15])
        related.append(
            {
                "location": {"uri": view.uri, "range": wire_range(analysis.span(*extent, view.encoding))},
                "message": f"occurrence {index + 1} of {count}, column {column + 1}: …{shorten(context, 60)}…",
            }
        )
    return related


def note(code: str, message: str, severity: types.DiagnosticSeverity) -> tuple[Wire, str]:
    """A diagnostic about the whole file, at its start, with its JSON text."""
    start = {"line": 0, "character": 0}
    wire: Wire = {
        "range": {"start": start, "end": start},
        "message": message,
        "severity": int(severity),
        "code": code,
        "source": "sourcecheck",
    }
    return wire, dumps(wire)


def too_large(characters: int, limit_mb: int) -> WrittenDiagnostics:
    """The one diagnostic of a session file past ``sourcecheck.maxFileSizeMB``."""
    message = (
        f"this file holds {characters / 1_000_000:.0f} million characters, more than sourcecheck.maxFileSizeMB "
        f"({limit_mb}); "
        "it is not checked. Raise the limit or check it with the sourcecheck command"
    )
    return WrittenDiagnostics.of([note("file-too-large", message, types.DiagnosticSeverity.Warning)])


def diagnostics(view: View) -> WrittenDiagnostics:
    """The diagnostics of a view, reusing those of the document's previous version that
    the edit cannot have moved (kept in ``view.memo``)."""
    with COLLECTOR.building():  # kept until the next version: see runtime.py
        return WrittenDiagnostics.of(_diagnostics(view))


def report(view: View, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    """A pull report: unchanged when the client has this version's already."""
    result_id = f"{view.analysis.serial}:{view.encoding.value}:{view.drift_version}"
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=diagnostics(view), result_id=result_id)


def _diagnostics(view: View) -> list[tuple[Wire | Shifted, str]]:
    """Each diagnostic and its JSON text."""
    analysis = view.analysis
    found: list[tuple[Wire | Shifted, str]] = []
    if len(analysis.findings) > MAX_DIAGNOSTICS:
        message = (
            f"{len(analysis.findings)} findings; the first {MAX_DIAGNOSTICS} are shown. Run `sourcecheck` on "
            "this file for all of them"
        )
        found.append(note("too-many-findings", message, types.DiagnosticSeverity.Information))
    old = view.memo.wire if isinstance(view.memo.wire, WireCache) else None
    derived = analysis.derived
    if old is None or old.encoding is not view.encoding:
        kept: dict[int, Sent] = {}
    elif old.analysis == analysis.serial or (derived is not None and derived.previous == old.analysis):
        kept = old.sent
    else:
        kept = {}
    cache = WireCache(analysis.serial, view.encoding, analysis.lines, analysis.extents)
    placed = Placement(
        analysis.derived,
        analysis.lines,
        old is not None and old.analysis == analysis.serial,
        old.lines.line_count if old is not None else -1,
    )
    # A thousand findings go through this loop on every keystroke: what it calls is bound once.
    extents, origin_of, kept_get, was_at = analysis.extents, analysis.origins.get, kept.get, old.extents if old else {}
    lines_moved, sent_now = placed.lines_moved, cache.sent
    for finding in analysis.findings[:MAX_DIAGNOSTICS]:
        extent = extents[id(finding)]
        content = _content_map(analysis, finding) if finding.code == "boundary-ambiguous" else None
        origin = origin_of(id(finding), finding)  # the previous version's finding, if it is one
        previous = kept_get(id(origin))
        moved = (
            lines_moved(was_at[id(origin)], extent)
            if previous is not None and previous.finding is origin and previous.content is content
            else None
        )
        if moved == 0:
            assert previous is not None
            # the very diagnostic sent before: nothing about it changed
            sent = previous if previous.finding is finding else Sent(finding, content, previous.wire, previous.encoded)
        elif (
            moved is not None
            and previous is not None
            # Its related locations (an ambiguous boundary's, placed in its content), stay where
            # they were when the content ends before the edit (an annotation moved after the
            # documents); a diagnostic without a content has none.
            and (content is None or before_edit(content, derived))
        ):
            sent = _shifted(previous, finding, moved)  # whole lines moved
        else:
            wire: Wire = {
                "range": wire_range(analysis.span(*extent, view.encoding)),
                "message": visible(finding.message),
                "severity": int(SEVERITIES[finding.severity]),
                "code": finding.code,
                "source": "sourcecheck",
            }
            if finding.code == "boundary-ambiguous":
                wire["relatedInformation"] = occurrence_locations(view, finding)
            sent = Sent(finding, content, wire, dumps(wire))
        sent_now[id(finding)] = sent
        found.append((sent.wire, sent.encoded))
    view.memo.wire = cache
    found += drift_diagnostics(view)
    return found


def drift_diagnostics(view: View) -> list[tuple[Wire, str]]:
    """What the session's documents beside their files say (see ``core/resync.py``): on a
    document's ``path`` when its file changed or cannot be read, on each ref whose text changed."""
    drift = view.drift
    if drift is None or drift.analysis is not view.analysis or not drift.on_disk:
        return []
    found: list[tuple[Wire, str]] = []

    def add(start: int, end: int, code: str, message: str, severity: types.DiagnosticSeverity) -> None:
        wire: Wire = {
            "range": wire_range(view.analysis.span(start, end, view.encoding)),
            "message": visible(message),
            "severity": int(severity),
            "code": code,
            "source": "sourcecheck",
        }
        found.append((wire, dumps(wire)))

    for document in drift.documents:
        said = document_said(document)
        node = view.analysis.node(document.document.json_path + ("path",))
        if said is None or node is None:
            continue
        code, message, warning = said
        severity = types.DiagnosticSeverity.Warning if warning else types.DiagnosticSeverity.Information
        add(node.start, node.end, code, message, severity)
        for ref in document.changed_refs:
            at = view.analysis.node(ref.path)
            if at is not None:
                add(
                    at.start,
                    at.end,
                    REF_CHANGED,
                    diagnostic_said(document, ref, claim_text(ref.ref)),
                    types.DiagnosticSeverity.Warning,
                )
    return found


def before_edit(content: StringMap, derived: Derivation | None) -> bool:
    """Whether a content string ends before the edit that made this version."""
    return derived is not None and content.raw_offset(content.length) < derived.start


def _shifted(previous: Sent, finding: Violation, lines: int) -> Sent:
    """A diagnostic ``lines`` lines down (up, if negative), its columns kept: only the range
    of its JSON text is written again (it comes first, as :func:`wire_range` and
    ``json.dumps`` write it, and ends where its message starts); its related locations, if
    any, are kept as they were. Each Enter typed above a thousand findings moves them all, so
    the range is written by :func:`range_json` (two and a half times as fast as
    ``json.dumps``) and its JSON value is made only when read (:class:`Shifted`)."""
    wire = previous.wire
    if isinstance(wire, Shifted):
        base = wire.base
        start_line, start_character = wire.start_line + lines, wire.start_character
        end_line, end_character = wire.end_line + lines, wire.end_character
    else:
        base = wire
        start, end = wire["range"]["start"], wire["range"]["end"]
        start_line, start_character = start["line"] + lines, start["character"]
        end_line, end_character = end["line"] + lines, end["character"]
    encoded = previous.encoded
    return Sent(
        finding,
        previous.content,
        Shifted(base, start_line, start_character, end_line, end_character),
        range_json(start_line, start_character, end_line, end_character) + encoded[encoded.index(_MESSAGE) :],
    )


_MESSAGE = ', "message": '  # what follows a diagnostic's range in its JSON text (a range holds only numbers)


def range_json(start_line: int, start_character: int, end_line: int, end_character: int) -> str:
    """``{"range": ...}`` of a diagnostic as ``json.dumps`` writes it, without its closing
    brace: how the JSON text of every diagnostic starts."""
    return (
        f'{{"range": {{"start": {{"line": {start_line}, "character": {start_character}}}, '
        f'"end": {{"line": {end_line}, "character": {end_character}}}}}'
    )


def _content_map(analysis: Analysis, finding: Violation) -> StringMap | None:
    """The escape map the related locations of an ambiguous boundary were placed with."""
    if finding.ref is None or finding.ref.document is None:
        return None
    return analysis.content_map(finding.ref.document)

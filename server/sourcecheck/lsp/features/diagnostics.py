"""Diagnostics: every finding of docs/rules.md on the exact JSON value, as you type.

Clients that can pull diagnostics (``textDocument/diagnostic``) get them by pull, the
others by push; never both, or an editor shows each twice (the server decides which). An
ambiguous boundary lists every occurrence in ``relatedInformation``, pointing into the
document's ``content``. Each diagnostic's JSON is written once and kept while an edit
cannot have moved it (see :mod:`..wire`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, count
from operator import is_not, itemgetter

from lsprotocol import types

from ...core.accept import claim_text
from ...core.analysis import Analysis
from ...core.display import shorten, visible
from ...core.driftsaid import REF_CHANGED, diagnostic_said, document_said
from ...core.incremental import Derivation, Placement
from ...core.jsonlex import StringMap
from ...core.jsonnodes import MovedOut, Node
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
    """The diagnostics built for one analysis of a document, in the order of its findings.

    The next version's analysis knows the edit it came from (``Analysis.derived``); a
    finding it kept, whose line and column the edit cannot have moved, keeps its JSON as
    it is. A one-character edit in a session with a thousand findings then builds one
    or two diagnostics, not a thousand; and the findings before the edit and those on the
    lines after it, the same objects in the same order, are taken as a run (see
    :func:`_spliced`), so that the cost follows what the edit changed."""

    analysis: int  # the analysis's serial number
    encoding: Encoding
    lines: LineTable  # of the text the diagnostics were built for (asked its line count after an edit)
    extents: Mapping[int, tuple[int, int]]  # of its findings, by identity (the analysis's own)
    findings: list[Violation]  # the analysis's, in order, and their extents in that order
    in_order: Sequence[tuple[int, int]]
    sents: list[Sent]  # the diagnostic of each of the first MAX_DIAGNOSTICS
    wires: list[Wire | Shifted]  # of each sent: its value, and its JSON text
    texts: list[str]
    documents: Node | None  # the documents array (its every content), and where it ends then
    documents_end: int

    def by_finding(self, start: int, stop: int) -> dict[int, Sent]:
        """The diagnostics of findings ``[start, stop)`` by their finding's identity (made in C)."""
        return dict(zip(map(id, self.findings[start:stop]), self.sents[start:stop]))  # noqa: B905 (past the first 1,000: none)


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
        wires, texts = _diagnostics(view)
        return WrittenDiagnostics(wires, f"[{', '.join(texts)}]")


def report(view: View, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    """A pull report: unchanged when the client has this version's already."""
    result_id = f"{view.analysis.serial}:{view.encoding.value}:{view.drift_version}"
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=diagnostics(view), result_id=result_id)


def _diagnostics(view: View) -> tuple[list[Wire | Shifted], list[str]]:
    """Each diagnostic, and its JSON text."""
    analysis = view.analysis
    wires: list[Wire | Shifted] = []
    texts: list[str] = []
    if len(analysis.findings) > MAX_DIAGNOSTICS:
        message = (
            f"{len(analysis.findings)} findings; the first {MAX_DIAGNOSTICS} are shown. Run `sourcecheck` on "
            "this file for all of them"
        )
        wire, text = note("too-many-findings", message, types.DiagnosticSeverity.Information)
        wires.append(wire)
        texts.append(text)
    old = view.memo.wire if isinstance(view.memo.wire, WireCache) else None
    derived = analysis.derived
    if old is not None and old.encoding is not view.encoding:
        old = None
    if old is not None and old.analysis != analysis.serial and (derived is None or derived.previous != old.analysis):
        old = None
    shown = analysis.findings[:MAX_DIAGNOSTICS]
    placed = Placement(
        derived,
        analysis.lines,
        old is not None and old.analysis == analysis.serial,
        old.lines.line_count if old is not None else -1,
    )
    runs = _spliced(old, analysis, placed) if old is not None and old.analysis != analysis.serial else None
    if runs is None:
        sents = _built(view, shown, old, old.by_finding(0, len(old.sents)) if old is not None else {}, placed)
        shown_wires, shown_texts = [sent.wire for sent in sents], [sent.encoded for sent in sents]
    else:
        assert old is not None
        before, middle_end, after, count_after, lines = runs
        # Between the runs, and after the second: built, from the old diagnostics between them.
        kept = old.by_finding(before, after)
        middle = _built(view, shown[before:middle_end], old, kept, placed)
        rest = _built(view, shown[middle_end + count_after :], old, kept, placed)
        end = after + count_after
        if lines:  # moved by whole lines, their related locations where they were
            taken = [_shifted(sent, sent.finding, lines) for sent in old.sents[after:end]]
            taken_wires, taken_texts = [sent.wire for sent in taken], [sent.encoded for sent in taken]
        else:  # as they were: slices
            taken, taken_wires, taken_texts = old.sents[after:end], old.wires[after:end], old.texts[after:end]
        sents = old.sents[:before] + middle + taken + rest
        shown_wires = [*old.wires[:before], *(s.wire for s in middle), *taken_wires, *(s.wire for s in rest)]
        shown_texts = [*old.texts[:before], *(s.encoded for s in middle), *taken_texts, *(s.encoded for s in rest)]
    documents = _documents(analysis)
    view.memo.wire = WireCache(
        analysis.serial,
        view.encoding,
        analysis.lines,
        analysis.extents,
        analysis.findings,
        analysis.extents_in_order,
        sents,
        shown_wires,
        shown_texts,
        documents,
        documents.end if documents is not None else -1,
    )
    wires += shown_wires
    texts += shown_texts
    for wire, text in drift_diagnostics(view):
        wires.append(wire)
        texts.append(text)
    return wires, texts


def _built(
    view: View, findings: list[Violation], old: WireCache | None, kept: dict[int, Sent], placed: Placement
) -> list[Sent]:
    """The diagnostics of ``findings``, each taken from the previous version's (``old``, by
    finding: ``kept``) when the edit cannot have changed it, moved by whole lines when that is
    all it did, else built."""
    if not findings:
        return []
    analysis, derived = view.analysis, view.analysis.derived
    sents: list[Sent] = []
    # A thousand findings may go through this loop on an edit: what it calls is bound once.
    extents, origin_of, kept_get, was_at = analysis.extents, analysis.origins.get, kept.get, old.extents if old else {}
    lines_moved, add = placed.lines_moved, sents.append
    for finding in findings:
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
            add(previous if previous.finding is finding else Sent(finding, content, previous.wire, previous.encoded))
        elif (
            moved is not None
            and previous is not None
            # Its related locations (an ambiguous boundary's, placed in its content), stay where
            # they were when the content ends before the edit (an annotation moved after the
            # documents); a diagnostic without a content has none.
            and (content is None or before_edit(content, derived))
        ):
            add(_shifted(previous, finding, moved))  # whole lines moved
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
            add(Sent(finding, content, wire, dumps(wire)))
    return sents


_START = itemgetter(0)


def _spliced(old: WireCache, analysis: Analysis, placed: Placement) -> tuple[int, int, int, int, int] | None:
    """After an edit, the runs of diagnostics that the previous version's list gives as they
    were, as ``(before, middle_end, after, count, lines)``: the first ``before`` of both lists
    (findings that end before the edit, the same objects: the same lines and columns); and
    from the new list's ``middle_end`` on, ``count`` diagnostics that are the old list's from
    ``after`` on (the same objects, on the lines after the edit's: moved ``lines`` lines,
    their columns kept). The others, between and after, are built (:func:`_built`). None when
    neither run holds anything (the list is then built whole, which gives the same). Found by
    bisection and in C: the cost follows what the edit changed, not the findings around it."""
    derived = analysis.derived
    if derived is None:
        return None
    new, previous, sents = analysis.findings, old.findings, old.sents
    start, end, delta = derived.start, derived.end, derived.delta
    # The findings that end before the edit (their extents unchanged).
    before = min(derived.ending_before(old.in_order), len(new), len(sents))
    before = next(compress(count(), map(is_not, new[:before], previous[:before])), before)
    # The findings on the lines after the edit's: moved by the edit's characters (and lines).
    lines, next_line = placed.line_delta, placed.next_line
    middle_end, after, count_after = len(new), len(previous), 0
    if lines is not None and next_line >= 0:
        # as many as are on those lines, of the last ones that are the same objects in both (in C)
        same = min(len(new), len(previous))
        same = next(compress(count(), map(is_not, reversed(new), reversed(previous))), same)
        first = bisect_left(old.in_order, max(end, next_line - delta), key=_START)
        tail = min(len(previous) - first, same, len(new) - before)
        if tail > 0:
            middle_end, after = len(new) - tail, len(previous) - tail
            count_after = max(0, min(tail, MAX_DIAGNOSTICS - middle_end, len(sents) - after))
    if not before and not count_after:
        return None
    # An ambiguous boundary's related locations sit in a document's content: taken as they were
    # when every content ends before the edit; else only while that content's escape map is the
    # same (the content unedited and unmoved), and, moved by whole lines, while it ends before.
    if old.documents is not None and old.documents_end <= start and _documents(analysis) is old.documents:
        return before, middle_end, after, count_after, lines or 0
    for sent in sents[:before]:
        if sent.content is not None and _content_map(analysis, sent.finding) is not sent.content:
            return None
    for sent in sents[after : after + count_after]:
        content = sent.content
        if content is not None and (
            _content_map(analysis, sent.finding) is not content or (lines and not before_edit(content, derived))
        ):
            return None
    return before, middle_end, after, count_after, lines or 0


def _documents(analysis: Analysis) -> Node | None:
    """The node of the session's documents array (the same object while an edit after it
    leaves it be); None when there is none, or the analysis's tree went to a later version."""
    try:
        return analysis.tree.node_at_path(("documents",)) if analysis.tree.root is not None else None
    except MovedOut:
        return None


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

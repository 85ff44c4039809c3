"""What the review report shows, as plain data: documents, claims, sources, their findings.

Everything the page's script needs is here, computed once from an :class:`Analysis`:

- each document's text with its **segments**: the maximal stretches over which the set of
  claim spans, cited source spans and uncited runs covering a character does not change;
- each claim (one per item of ``annotations``, in file order) with its verdict, its span,
  where it sits (document line, session line), its sources and the words of it they do not
  have (``core/unsupported.py``);
- each source with its polarity, confidence, whether it counts, its span and its findings.

Offsets sent to the page are in UTF-16 code units (what a JavaScript string counts), not in
code points as in the core: a character outside the BMP is two units.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from ..core.analysis import Analysis
from ..core.display import HIDDEN_CHARACTERS
from ..core.explain import ASIDE
from ..core.session import CheckedRef, Document, Path, Session, Violation
from ..core.unsupported import said
from ..core.verdicts import VERDICTS, WEAK, ClaimVerdict, Summary, counts, percent, valid_confidence, valid_polarity

# Segment kinds: the claim verdict that shows (the most worrying one when claims overlap),
# in the low three bits, then flags.
SHOWN = {"supported": 1, "unverified": 2, "contested": 3, "refuted": 4}
UNCITED = 8
CITED_SUPPORTS = 16
CITED_REFUTES = 32
CITED_OTHER = 64  # a resolved source whose polarity is not valid

LETTER = {"supported": "S", "contested": "C", "refuted": "R", "unverified": "U", "unresolved": "X"}
"""Each verdict's letter, in the margin and the legend."""
HIDDEN_CLASS = HIDDEN_CHARACTERS
"""The characters ``visible()`` escapes, as the body of a regular expression's class, the same
in Python and in the script's (``u``) one (which shows each as an escape; the page's data
holds none raw: json_for_script writes each as an escape)."""

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class Units:
    """Code point offsets of one text as UTF-16 offsets."""

    __slots__ = ("astral",)

    def __init__(self, text: str) -> None:
        self.astral = [m.start() for m in _ASTRAL.finditer(text)]

    def __call__(self, offset: int) -> int:
        return offset + bisect_left(self.astral, offset) if self.astral else offset


@dataclass(slots=True)
class Message:
    severity: str
    code: str
    text: str
    line: int  # 1-based line in the session file

    def as_json(self) -> list[Any]:
        return [self.severity, self.code, self.text, self.line]


@dataclass(slots=True)
class DocumentData:
    index: int
    document: Document
    claimed: bool  # the path of at least one claim
    cited_spans: int = 0  # resolved sources into it
    claims: int = 0  # claims into it
    uncited_characters: int = 0
    uncited_share: str = ""
    segments: list[list[Any]] = field(default_factory=list)


@dataclass(slots=True)
class ClaimData:
    index: int  # the annotation's index in ``annotations``
    verdict: ClaimVerdict
    ref: CheckedRef | None
    doc: int  # document index, -1 when the claim names no document of the session
    span: tuple[int, int] | None  # UTF-16 offsets in its document
    doc_line: int  # the document line it starts on (0: nowhere to show it)
    session_line: int
    sources: list[int] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    unsupported: str | None = None  # "not in its sources: every, workload", when some are not


@dataclass(slots=True)
class SourceData:
    index: int
    claim: int
    ref: CheckedRef
    doc: int
    span: tuple[int, int] | None
    doc_line: int
    session_line: int
    polarity: str | None
    polarity_written: str | None  # what was written, when it is not a valid polarity
    confidence: int | float | None
    confidence_written: str | None
    counts: bool
    messages: list[Message] = field(default_factory=list)


@dataclass(slots=True)
class FailingRef:
    """A ref with at least one error, for the summary's table."""

    claim: int
    source: int | None  # index among its annotation's sources; None: the claim
    path: str | None
    messages: list[Message]


@dataclass(slots=True)
class Review:
    name: str
    summary: Summary
    documents: list[DocumentData]
    claims: list[ClaimData]
    sources: list[SourceData]
    failing: list[FailingRef]
    other: list[Message]  # errors and warnings not about one ref
    errors: int
    warnings: int
    hints: int

    def order(self) -> list[int]:
        """Claims in reading order: by document and place, then those shown nowhere."""
        located = sorted(
            (c for c in self.claims if c.doc >= 0 and c.doc_line),
            key=lambda c: (c.doc, c.doc_line, c.span[0] if c.span else -1, c.index),
        )
        return [c.index for c in located] + [c.index for c in self.claims if not (c.doc >= 0 and c.doc_line)]


def written(value: Any) -> str:
    """A JSON value as written, short."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


@dataclass
class _Messages:
    """The findings of a session as the report shows them: by the ref (or else the annotation)
    whose value holds them, the rest apart, and how many of each severity."""

    by_ref: dict[Path, list[Message]] = field(default_factory=dict)
    by_annotation: dict[int, list[Message]] = field(default_factory=dict)
    other: list[Message] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0
    hints: int = 0


def _messages(analysis: Analysis) -> _Messages:
    found = _Messages()
    lines, session = analysis.lines, analysis.session
    for finding in analysis.findings:
        severity = finding.severity.value
        found.errors += severity == "error"
        found.warnings += severity == "warning"
        found.hints += severity == "hint"
        message = Message(severity, finding.code, finding.message, lines.line_of(analysis.extent(finding)[0]) + 1)
        owner = owner_of(finding, session)
        if owner is not None:
            found.by_ref.setdefault(owner, []).append(message)
        elif finding.path[:1] == ("annotations",) and len(finding.path) >= 2 and isinstance(finding.path[1], int):
            found.by_annotation.setdefault(finding.path[1], []).append(message)
        elif severity != "hint":
            found.other.append(message)
    return found


def _source(
    analysis: Analysis,
    ref: CheckedRef,
    index: int,
    number: int,
    place: tuple[int, tuple[int, int] | None, int],
    item_line: int,
) -> SourceData:
    """What the report shows of source ``number`` of annotation ``index``."""
    extent = analysis.tree.locate(("annotations", index, *ref.tail))
    polarity = valid_polarity(ref.polarity)
    confidence = valid_confidence(ref.confidence)
    return SourceData(
        number,
        index,
        ref,
        *place,
        analysis.lines.line_of(extent[0]) + 1 if extent is not None else item_line,
        polarity,
        None if polarity is not None else written(ref.polarity),
        confidence,
        None if confidence is not None else written(ref.confidence),
        counts(ref),
        [],
    )


def build(analysis: Analysis, name: str) -> Review:
    session = analysis.session
    summary = analysis.summary
    documents = [DocumentData(i, d, False) for i, d in enumerate(session.documents)]
    index_of = {d.path: i for i, d in enumerate(session.documents)}
    units = [Units(d.content) for d in session.documents]
    coverage = {c.document.path: c for c in summary.coverage}
    for data in documents:
        cov = coverage.get(data.document.path)
        if cov is not None:
            data.claimed = True
            data.uncited_characters = cov.uncited_characters
            data.uncited_share = percent(cov.uncited_share)
    found = _messages(analysis)
    by_ref, by_annotation = found.by_ref, found.by_annotation
    items = analysis.annotation_items()
    claims: list[ClaimData] = []
    sources: list[SourceData] = []
    failing: list[FailingRef] = []
    for index, verdict in enumerate(summary.verdicts):
        annotation = session.annotation_at(index)
        item_line = analysis.lines.line_of(items[index].start) + 1 if index < len(items) else 1
        claim_ref = annotation.claim if annotation is not None else None
        doc, span, doc_line = place_of(claim_ref, index_of, units)
        claim = ClaimData(index, verdict, claim_ref, doc, span, doc_line, item_line)
        missing = analysis.unsupported.of(("annotations", index))
        claim.unsupported = said(missing) if missing else None
        claim_path = ("annotations", index, "claim")
        claim.messages = by_annotation.get(index, []) + (by_ref.get(claim_path, []) if claim_ref else [])
        if doc >= 0:
            documents[doc].claims += 1
        if claim_ref is not None:
            errs = [m for m in by_ref.get(claim_path, []) if m.severity == "error"]
            if errs:
                failing.append(FailingRef(index, None, text_or_none(claim_ref.doc_path), errs))
        elif annotation is None:
            failing.append(
                FailingRef(index, None, None, [m for m in by_annotation.get(index, []) if m.severity == "error"])
            )
        for number, ref in enumerate(annotation.sources if annotation is not None else []):
            source = _source(analysis, ref, index, len(sources), place_of(ref, index_of, units), item_line)
            source.messages = by_ref.get(("annotations", index, *ref.tail), [])
            if source.span is not None:
                documents[source.doc].cited_spans += 1
            errs = [m for m in source.messages if m.severity == "error"]
            if errs:
                failing.append(FailingRef(index, number, text_or_none(ref.doc_path), errs))
            claim.sources.append(source.index)
            sources.append(source)
        claims.append(claim)
    _segment(documents, claims, sources, coverage, units)
    return Review(
        name, summary, documents, claims, sources, failing, found.other, found.errors, found.warnings, found.hints
    )


def _segment(
    documents: list[DocumentData],
    claims: list[ClaimData],
    sources: list[SourceData],
    coverage: dict[str, Any],
    units: list[Units],
) -> None:
    """Each document's marked stretches, from the claims and sources that cite it."""
    claims_in: list[list[ClaimData]] = [[] for _ in documents]
    sources_in: list[list[SourceData]] = [[] for _ in documents]
    for claim in claims:
        if claim.span is not None:
            claims_in[claim.doc].append(claim)
    for source in sources:
        if source.span is not None:
            sources_in[source.doc].append(source)
    for data in documents:
        data.segments = segments(
            claims_in[data.index], sources_in[data.index], coverage.get(data.document.path), units[data.index]
        )


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def owner_of(finding: Violation, session: Session) -> Path | None:
    """The path of the ref a finding is about: its own, or the innermost ref holding its value."""
    if finding.ref is not None:
        return session.ref_path(finding.ref)
    path = finding.path
    for length in range(len(path), 0, -1):
        if session.ref_at_path(path[:length]) is not None:
            return path[:length]
    return None


def place_of(
    ref: CheckedRef | None, index_of: dict[str, int], units: list[Units]
) -> tuple[int, tuple[int, int] | None, int]:
    """A ref's document index (-1: none), its span in UTF-16 offsets (None: it does not
    resolve) and the document line where it starts (0: none to show, e.g. out of range)."""
    if ref is None or not isinstance(ref.doc_path, str) or ref.doc_path not in index_of:
        return -1, None, 0
    doc = index_of[ref.doc_path]
    if ref.valid and ref.span is not None and ref.start is not None:
        unit = units[doc]
        return doc, (unit(ref.span[0]), unit(ref.span[1])), ref.start.line
    document = ref.document
    line = ref.start.line if ref.start is not None else 0
    if document is None or not 1 <= line <= len(document.lines):
        line = 0
    return doc, None, line


def segments(claims: list[ClaimData], sources: list[SourceData], coverage: Any, unit: Units) -> list[list[Any]]:
    """``[start, end, kind, claims, sources]`` for each stretch of one document with marks,
    in order, offsets in UTF-16 units; ``claims`` and ``sources`` (those with a span in the
    document) as index lists."""
    # (offset, 0 end / 1 start, what: 0 claim / 1 source / 2 uncited, index, kind)
    events: list[tuple[int, int, int, int, int]] = []
    for claim in claims:
        assert claim.span is not None
        shown = SHOWN.get(claim.verdict.verdict, 0)
        events += [(claim.span[0], 1, 0, claim.index, shown), (claim.span[1], 0, 0, claim.index, shown)]
    for source in sources:
        assert source.span is not None
        polarity = source.polarity
        flag = CITED_SUPPORTS if polarity == "supports" else CITED_REFUTES if polarity == "refutes" else CITED_OTHER
        events += [(source.span[0], 1, 1, source.index, flag), (source.span[1], 0, 1, source.index, flag)]
    if coverage is not None:
        for n, run in enumerate(coverage.runs):
            events += [(unit(run.start), 1, 2, n, UNCITED), (unit(run.end), 0, 2, n, UNCITED)]
    events.sort()
    found: list[list[Any]] = []
    active: tuple[dict[int, int], dict[int, int], dict[int, int]] = ({}, {}, {})
    on_claims, on_sources, uncited = active
    at = 0
    for offset, starts, what, index, kind in events:
        if offset > at and (on_claims or on_sources or uncited):
            shown = max(on_claims.values(), default=0)
            for flag in on_sources.values():
                shown |= flag
            if uncited:
                shown |= UNCITED
            found.append([at, offset, shown, sorted(on_claims), sorted(on_sources)])
        at = offset
        if starts:
            active[what][index] = kind
        else:
            active[what].pop(index, None)
    return found


def shared() -> dict[str, Any]:
    """What the script shares with this side, from here only (``D.k`` in the script)."""
    return {
        "hidden": HIDDEN_CLASS,
        "letters": [LETTER[v] for v in VERDICTS],
        "shown": [next((v for v, n in SHOWN.items() if n == k), "") for k in range(max(SHOWN.values()) + 1)],
        "uncited": UNCITED,
        "supports": CITED_SUPPORTS,
        "refutes": CITED_REFUTES,
        "other": CITED_OTHER,
        "weak": WEAK,
        "aside": ASIDE,
    }


def script_data(review: Review, editor: bool) -> dict[str, Any]:
    """The JSON the page's script reads."""
    return {
        "name": review.name,
        "editor": editor,
        "k": shared(),
        "verdicts": list(VERDICTS),
        "docs": [
            {"p": d.document.path, "t": d.document.content, "c": d.claimed, "s": d.segments} for d in review.documents
        ],
        "claims": [
            [
                c.doc,
                list(c.span) if c.span else None,
                VERDICTS.index(c.verdict.verdict),
                c.doc_line,
                c.session_line,
                c.sources,
                c.verdict.support_strength,
                c.verdict.refute_strength,
                c.verdict.weak,
                [m.as_json() for m in c.messages],
                c.ref.doc_path if c.ref is not None and isinstance(c.ref.doc_path, str) else None,
                c.unsupported,
            ]
            for c in review.claims
        ],
        "sources": [
            [
                s.claim,
                s.doc,
                list(s.span) if s.span else None,
                s.doc_line,
                s.session_line,
                s.polarity,
                s.polarity_written,
                s.confidence,
                s.confidence_written,
                s.counts,
                [m.as_json() for m in s.messages],
                s.ref.doc_path if isinstance(s.ref.doc_path, str) else None,
            ]
            for s in review.sources
        ],
        "order": review.order(),
    }

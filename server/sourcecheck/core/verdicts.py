"""Verdicts and coverage, as docs/rules.md defines them for reviewers.

A source **counts** when it resolves and its ``polarity`` and ``confidence`` are valid. An
annotation's verdict, from its counted sources: ``unresolved`` (the claim does not
resolve), ``unverified`` (no source counts), ``supported``, ``refuted`` or ``contested``
(both sides). A side's strength is the highest confidence among its counted sources; below
0.3 it is weak. A document is cited when it is the ``path`` of at least one claim; its
uncited text is every maximal run of its characters covered by no resolved claim span,
leaving out runs made only of whitespace.

Computed once per analysis and read by everything that shows them: the CLI's summary and
``--json``, the editor's lenses and hovers, the review report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .session import Annotation, CheckedRef, Document, Path, Session, pointer

VERDICTS = ("supported", "contested", "refuted", "unverified", "unresolved")
WEAK = 0.3
"""A side whose strength is below this is weak (the skill says such sources are usually omitted)."""


def valid_polarity(value: Any) -> str | None:
    return value if isinstance(value, str) and value in ("supports", "refutes") else None


def valid_confidence(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value if 0 <= value <= 1 else None


def counts(source: CheckedRef) -> bool:
    """Whether a source counts: it resolves, with a valid polarity and confidence."""
    return (
        source.valid and valid_polarity(source.polarity) is not None and valid_confidence(source.confidence) is not None
    )


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """What an annotation's counted sources say of its claim."""

    path: Path  # the annotation's JSON path
    verdict: str
    supports: int
    refutes: int
    support_strength: int | float | None
    refute_strength: int | float | None

    @property
    def weak(self) -> bool:
        """Supported, or refuted, only by weak sources (its winning side is below 0.3)."""
        if self.verdict == "supported":
            return self.support_strength is not None and self.support_strength < WEAK
        if self.verdict == "refuted":
            return self.refute_strength is not None and self.refute_strength < WEAK
        return False

    def as_json(self) -> dict[str, Any]:
        return {
            "pointer": pointer(self.path),
            "verdict": self.verdict,
            "supports": self.supports,
            "refutes": self.refutes,
            "support_strength": self.support_strength,
            "refute_strength": self.refute_strength,
        }


def verdict_of(annotation: Annotation | None, path: Path) -> ClaimVerdict:
    """The verdict of an annotation (None: an item of ``annotations`` that is no object)."""
    claim = annotation.claim if annotation is not None else None
    supports: list[int | float] = []
    refutes: list[int | float] = []
    for source in annotation.sources if annotation is not None else ():
        # counts(source), written out: every annotation of a large session goes through here
        if not source.valid:
            continue
        polarity = source.polarity
        if polarity == "supports" or polarity == "refutes":
            if not isinstance(polarity, str):
                continue
            confidence = valid_confidence(source.confidence)
            if confidence is not None:
                (supports if polarity == "supports" else refutes).append(confidence)
    if claim is None or not claim.valid:
        verdict = "unresolved"
    elif supports and refutes:
        verdict = "contested"
    elif supports:
        verdict = "supported"
    elif refutes:
        verdict = "refuted"
    else:
        verdict = "unverified"
    return ClaimVerdict(
        path, verdict, len(supports), len(refutes), max(supports, default=None), max(refutes, default=None)
    )


def annotation_items(value: Any) -> list[Any] | None:
    """The items of the session's ``annotations`` array, when it is one."""
    annotations = value.get("annotations") if isinstance(value, dict) else None
    return annotations if isinstance(annotations, list) else None


def verdicts(session: Session, value: Any) -> list[ClaimVerdict]:
    """One verdict per item of ``annotations``, in file order (an item that is no object is
    an annotation whose claim cannot resolve: ``unresolved``)."""
    items = annotation_items(value)
    if items is None:
        return []
    of_items = session.annotation_items()
    return [
        verdict_of(of_items[index] if index < len(of_items) else None, ("annotations", index))
        for index in range(len(items))
    ]


@dataclass(frozen=True, slots=True)
class UncitedRun:
    """A stretch of a document's text: content offsets ``[start, end)``."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class DocumentCoverage:
    """How much of a cited document no resolved claim covers."""

    document: Document
    runs: tuple[UncitedRun, ...]

    @property
    def characters(self) -> int:
        return len(self.document.content)

    @property
    def uncited_characters(self) -> int:
        return sum(run.end - run.start for run in self.runs)

    @property
    def uncited_share(self) -> float:
        return self.uncited_characters / self.characters if self.characters else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.document.path,
            "characters": self.characters,
            "uncited_characters": self.uncited_characters,
            "runs": [
                {"start": place(self.document, run.start), "end": place(self.document, run.end)} for run in self.runs
            ],
        }


def place(document: Document, offset: int) -> dict[str, int]:
    """A content offset as docs/rules.md's span coordinates: 1-based line, 0-based column in
    code points."""
    line = document.line_of_offset(offset)
    return {"line": line, "column": offset - document.line_starts[line - 1]}


def coverage(session: Session) -> list[DocumentCoverage]:
    """The uncited text of every cited document, in document order."""
    claims = [annotation.claim for annotation in session.annotations if annotation.claim is not None]
    cited = {claim.doc_path for claim in claims if isinstance(claim.doc_path, str)}
    found = []
    for document in session.documents:
        if document.path not in cited:
            continue
        spans = sorted(
            claim.span for claim in claims if claim.valid and claim.span is not None and claim.document is document
        )
        runs = []
        at = 0
        for start, end in [*spans, (len(document.content), len(document.content))]:
            if start > at:
                text = document.content[at:start]
                if text.strip():
                    runs.append(UncitedRun(at, start))
            at = max(at, end)
        found.append(DocumentCoverage(document, tuple(runs)))
    return found


def span_json(ref: CheckedRef) -> dict[str, Any]:
    """The additions docs/rules.md makes to a valid ref in ``--json``: its path and span."""
    assert ref.valid and ref.document is not None and ref.span is not None
    return {
        "path": ref.document.path,
        "start": place(ref.document, ref.span[0]),
        "end": place(ref.document, ref.span[1]),
    }


@dataclass(frozen=True, slots=True)
class Summary:
    """A session at a glance: claims by verdict, weak support, the uncited share per document."""

    verdicts: tuple[ClaimVerdict, ...]
    coverage: tuple[DocumentCoverage, ...]

    def count(self, verdict: str) -> int:
        return sum(1 for v in self.verdicts if v.verdict == verdict)

    @property
    def weakly_supported(self) -> int:
        return sum(1 for v in self.verdicts if v.verdict == "supported" and v.weak)

    def line(self) -> str:
        """``14 claims: 11 supported, 1 contested, 1 refuted, 1 unverified; 2 supported only
        weakly; 23% of article uncited``."""
        total = len(self.verdicts)
        if not total:
            return "no claims"
        parts = [f"{self.count(v)} {v}" for v in VERDICTS if self.count(v)]
        text = f"{total} claim{'s' if total != 1 else ''}: " + ", ".join(parts)
        if self.weakly_supported:
            text += f"; {self.weakly_supported} supported only weakly"
        shares = [f"{percent(c.uncited_share)} of {c.document.path} uncited" for c in self.coverage]
        return text + ("; " + ", ".join(shares) if shares else "")


def percent(share: float) -> str:
    """A share as a whole percentage, never rounded to 0% or 100% when it is not."""
    value = round(share * 100)
    if value == 0 and share > 0:
        return "<1%"
    if value == 100 and share < 1:
        return ">99%"
    return f"{value}%"


def summarize(session: Session, value: Any) -> Summary:
    return Summary(tuple(verdicts(session, value)), tuple(coverage(session)))

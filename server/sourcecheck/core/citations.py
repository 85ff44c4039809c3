"""A cited file seen from its sessions: which claims and sources of which sessions cite which
of its text, at their places in the file's text as it is now (the editor's buffer, being
written), and what its edits did to them.

The file (an article, a source) is a document of each session that cites it; the session
holds the text its author cited. When the file's text is the session's, each ref stands where
it resolves; when the writer has edited it since, each is carried across the edit by the core
of ``sync`` (``resync.plan``): kept or moved (it follows), edited, deleted. Pure: the language
server asks, per open file and version, and shows the answer (``lsp/features/article.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .analysis import Analysis
from .filestate import FileContent
from .resync import Alignments, Drift, RefDrift, RefState, plan
from .session import CheckedRef, Path, pointer
from .verdicts import valid_confidence

Role = Literal["claim", "source"]


@dataclass(frozen=True, slots=True)
class Other:
    """The other side of a citation: a claim's source, or a source's claim."""

    role: Role
    path: str | None  # the document it cites
    text: str | None  # what it cites (None: it does not resolve)
    polarity: str | None = None  # a source's
    confidence: float | None = None


@dataclass(frozen=True, slots=True)
class CitedSpan:
    """One ref of one session into the file, where it stands in the file's text now."""

    session: str  # the session's name (its URI, for the server)
    ref: CheckedRef  # in the session's analysis
    role: Role
    state: RefState  # kept (its text stands as cited), moved, edited, deleted
    span: tuple[int, int] | None  # in the file's text now (None: its text was deleted)
    was: str  # what it cites in the session
    now: str | None  # what stands at its place now
    verdict: str  # its annotation's
    annotation: Path  # its annotation's (its own is this and the ref's tail)
    others: tuple[Other, ...]  # a claim: its sources; a source: its claim
    drift: RefDrift | None = None  # what the edit did (None: the file's text is the session's)

    @property
    def pointer(self) -> str:
        return pointer(self.annotation + self.ref.tail)

    @property
    def changed(self) -> bool:
        return self.state == "edited" or self.state == "deleted"


def _others(ref: CheckedRef) -> tuple[Other, ...]:
    annotation = ref.annotation_link()
    if annotation is None:
        return ()
    if ref.is_source:
        claim = annotation.claim
        return (Other("claim", claim.doc_path, claim.text if claim.valid else None),) if claim is not None else ()
    return tuple(
        Other(
            "source",
            source.doc_path,
            source.text if source.valid else None,
            source.polarity if isinstance(source.polarity, str) else None,
            float(c) if (c := valid_confidence(source.confidence)) is not None else None,
        )
        for source in annotation.sources
    )


def cited_in(
    session: str, analysis: Analysis, path: str, text: str, alignments: Alignments | None = None
) -> tuple[list[CitedSpan], Drift | None]:
    """The refs of ``analysis`` (the session ``session``) into its document ``path``, where
    they stand in ``text`` (the file as it is now), and what the change from the session's
    text did (the plan of a sync to it; None: ``text`` is the session's)."""
    document = analysis.session.by_path.get(path)
    if document is None:
        return [], None
    verdicts = {v.path: v.verdict for v in analysis.summary.verdicts}
    place = analysis.session.annotation_path
    refs = [ref for ref in analysis.session.refs if ref.doc_path == path and ref.document is document]
    if document.content == text:
        found = [
            CitedSpan(
                session,
                ref,
                "source" if ref.is_source else "claim",
                "kept",
                ref.span,
                ref.text,
                ref.text,
                verdicts.get(at := place(ref.annotation), "unresolved"),
                at,
                _others(ref),
            )  # fmt: skip
            for ref in refs
            if ref.valid and ref.span is not None and ref.text is not None
        ]
        return found, None
    drift = plan(analysis, {path: FileContent(text)}, alignments)
    changed = drift.document(path)
    if changed is None:
        return [], drift
    found = []
    for carried in changed.refs:
        ref = carried.ref
        if carried.was is None or carried.state in ("unread", "unresolved"):
            continue
        found.append(
            CitedSpan(
                session,
                ref,
                "source" if ref.is_source else "claim",
                carried.state,
                carried.where if carried.state != "deleted" else None,
                carried.was,
                carried.now,
                verdicts.get(at := place(ref.annotation), "unresolved"),
                at,
                _others(ref),
                carried,
            )  # fmt: skip
        )
    return found, drift


def at(cited: Iterable[CitedSpan], offset: int) -> list[CitedSpan]:
    """The citations whose span holds ``offset`` (its end included: the cursor after a word)."""
    return [c for c in cited if c.span is not None and c.span[0] <= offset <= c.span[1]]


def claims_citing(cited: Iterable[CitedSpan], span: tuple[int, int]) -> list[CitedSpan]:
    """The sources citing exactly ``span``: a passage's citing claims, one per source."""
    return [c for c in cited if c.role == "source" and c.span == span]


def verdict_said(cited: CitedSpan) -> str:
    """A claim's verdict for its hint: ``supported · 2 sources``, ``refuted``, ``unverified``."""
    counted = [o for o in cited.others if o.role == "source" and o.text is not None and o.confidence is not None]
    if cited.verdict in ("unverified", "unresolved") or not counted:
        return cited.verdict
    return f"{cited.verdict} · {len(counted)} source{'s' if len(counted) != 1 else ''}"


__all__ = ["CitedSpan", "Other", "at", "cited_in", "claims_citing", "verdict_said"]

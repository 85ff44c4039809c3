"""What to tell a person about a ref, an annotation or a document, as plain data.

The functions here decide what is said (the cited text, why a ref fails, a verdict, how
much of a document is cited); an edge decides how it looks: a hover renders the
:class:`Text` blocks as markdown or plain text (``lsp/markup.py``), a lens uses the title.
Document text in :class:`Code` and :class:`Block` is untrusted and must be shown as text.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from .analysis import Analysis
from .display import plural, visible
from .session import Boundary, CheckedRef, Document, Path
from .unsupported import said
from .verdicts import ClaimVerdict, DocumentCoverage, percent, valid_polarity

POLARITY_MARK = {"supports": "✓", "refutes": "✗"}
ASIDE = "a word check of its supporting sources: where to look, not a verdict"
"""What :func:`describe_unsupported`'s words are, said beside them."""
WINDOW = 80
"""Characters of a long document line shown around the place of interest."""


# --- a tiny document model ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Code:
    """Untrusted text shown inline, as code (a path, a boundary string)."""

    text: str


@dataclass(frozen=True, slots=True)
class Strong:
    """Our own words, emphasised."""

    text: str


@dataclass(frozen=True, slots=True)
class Plain:
    """Prose that may quote untrusted values (a finding's message): shown escaped."""

    text: str


Inline = str | Code | Strong | Plain
"""A piece of a paragraph: a ``str`` is our own prose."""


@dataclass(frozen=True, slots=True)
class Para:
    parts: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class Block:
    """Untrusted text shown as a block, line breaks kept (cited text, a marked line)."""

    text: str


@dataclass(frozen=True, slots=True)
class Rule:
    """A separator."""


Text = list[Para | Block | Rule]


def para(*parts: Inline) -> Para:
    return Para(parts)


# --- refs ----------------------------------------------------------------------------


def _width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def marked_line(line: str, columns: list[int], length: int) -> str:
    """The line (a window of it, if long) and under it ``^`` beneath each occurrence."""
    focus = columns[0] if columns else 0
    left = max(0, min(focus - WINDOW // 4, len(line) - WINDOW)) if len(line) > WINDOW else 0
    right = min(len(line), left + WINDOW)
    marked = {c for start in columns for c in range(start, start + length)}
    shown, marks = [], []
    for index in range(left, right):
        piece = visible(line[index])
        shown.append(piece)
        marks.append(("^" if index in marked else " ") * _width(piece))
    prefix = "…" if left else ""
    suffix = "…" if right < len(line) else ""
    text = prefix + "".join(shown) + suffix
    if not columns:
        return text
    return text + "\n" + " " * len(prefix) + "".join(marks).rstrip()


def where(ref: CheckedRef) -> str:
    """``line 3`` or ``lines 3–5``."""
    assert ref.start is not None and ref.end is not None
    return f"line {ref.start.line}" if ref.start.line == ref.end.line else f"lines {ref.start.line}–{ref.end.line}"


def polarity_of(ref: CheckedRef) -> str | None:
    """The source's polarity when it is a valid one (it may be any JSON value at all)."""
    return valid_polarity(ref.polarity)


def confidence_of(ref: CheckedRef) -> int | float | None:
    """The source's confidence when it is a number (it may be any JSON value at all)."""
    value: Any = ref.confidence
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def ref_errors(analysis: Analysis, ref: CheckedRef) -> list[str]:
    """The messages of the errors found on a ref."""
    return [f.message for f in analysis.findings if f.ref is ref and f.severity.value == "error"]


def describe_source(source: CheckedRef) -> Text:
    polarity = polarity_of(source)
    mark = POLARITY_MARK.get(polarity or "", "?")
    confidence = confidence_of(source)
    head = f"{mark} {polarity or 'no valid polarity'} · confidence {confidence if confidence is not None else '?'}"
    if source.valid:
        return [para(head, " · ", Code(source.doc_path or ""), f", {where(source)}"), Block(source.text or "")]
    return [para(head, " · ", Code(source.doc_path or "?"), " · does not resolve")]


def describe_ref(analysis: Analysis, ref: CheckedRef, part: Path) -> Text:
    """A ref as a hover tells it, ``part`` being the path of what is pointed at inside it
    (``("start", "line")``, ``("path",)``, or ``()`` for the ref itself)."""
    out: Text = []
    role = "source" if ref.is_source else "claim"
    if part[-1:] == ("line",) and ref.document is not None:
        boundary = ref.start if part[0] == "start" else ref.end
        if boundary is not None and 1 <= boundary.line <= len(ref.document.lines):
            out += [
                para(f"line {boundary.line} of ", Code(ref.document.path), ":"),
                Block(ref.document.lines[boundary.line - 1]),
            ]
    if ref.valid:
        out += [para(Strong(role), " · ", Code(ref.doc_path or ""), f", {where(ref)}"), Block(ref.text or "")]
        if not ref.is_source:
            out += describe_unsupported(analysis, ref)
    else:
        out.append(para(Strong(f"{role} does not resolve")))
        out += [para("• ", Plain(message)) for message in ref_errors(analysis, ref)]
        for boundary in (ref.start, ref.end):
            out += describe_failed_boundary(ref, boundary)
    if ref.is_source:
        claim = ref.annotation.claim
        out.append(Rule())
        verb = polarity_of(ref) or "is cited for"
        if claim is not None and claim.valid:
            out += [
                para(f"this source {verb} the claim in ", Code(claim.doc_path or ""), f", {where(claim)}:"),
                Block(claim.text or ""),
            ]
        else:
            out.append(para(f"this source {verb} a claim that does not resolve"))
    else:
        sources = ref.annotation.sources
        if sources:
            out.append(Rule())
            supports = sum(1 for s in sources if s.polarity == "supports")
            refutes = sum(1 for s in sources if s.polarity == "refutes")
            out.append(
                para(f"{len(sources)} source{'s' if len(sources) != 1 else ''}: {supports} supports, {refutes} refutes")
            )
            for source in sources:
                out += describe_source(source)
    return out


def describe_unsupported(analysis: Analysis, claim: CheckedRef) -> Text:
    """The words of a claim its supporting sources' cited text does not have, said as the
    aid it is (``core/unsupported.py``); nothing when there are none."""
    found = analysis.unsupported.of(analysis.session.annotation_path(claim.annotation))
    if not found:
        return []
    return [para(Plain(said(found)), f" ({ASIDE})")]


def describe_failed_boundary(ref: CheckedRef, boundary: Boundary | None) -> Text:
    document = ref.document
    if boundary is None or document is None or not 1 <= boundary.line <= len(document.lines) or boundary.resolved:
        return []
    side = boundary.side
    found = f", {boundary.occurrence_count} occurrences of " if boundary.occurrence_count > 1 else ", no occurrence of "
    return [
        para(f"`{side}` line {boundary.line} of ", Code(document.path), found, Code(boundary.str), ":"),
        Block(marked_line(document.lines[boundary.line - 1], boundary.occurrences, len(boundary.str))),
    ]


def lines_said(document: Document) -> str:
    """How many lines a person counts in ``document``: ``199 lines`` for content ending with a
    line break (the empty line a ref may name after it is not counted), ``empty`` for none."""
    if not document.content:
        return "empty"
    count = len(document.lines) - (1 if document.content.endswith("\n") else 0)
    return plural(count, "line")


def describe_document(analysis: Analysis, doc_path: str) -> Text:
    document = analysis.session.by_path.get(doc_path)
    if document is None:
        return []
    refs = analysis.refs_into(document)
    claims = sum(1 for r in refs if not r.is_source)
    out: Text = [
        para(Strong("document"), " ", Code(document.path), f" · {lines_said(document)}"),
        para(f"cited by {plural(len(refs), 'ref')} ({claims} claims, {len(refs) - claims} sources)"),
    ]
    coverage = coverage_of(analysis, document)
    if coverage is not None:
        out.append(para(uncited_sentence(coverage)))
    return out


# --- annotations and documents -------------------------------------------------------


def verdict_title(verdict: ClaimVerdict) -> str:
    """An annotation's verdict and the counted sources it comes from (docs/rules.md):
    ``supported: 2 supports (max 0.95)``, ``supported only weakly: 1 supports (max 0.2)``,
    ``contested: 1 supports (max 0.8) · 2 refutes (max 0.9)``, ``unverified: no source
    counts``, ``unresolved: the claim does not resolve``."""
    if verdict.verdict == "unresolved":
        return "unresolved: the claim does not resolve"
    if verdict.verdict == "unverified":
        return "unverified: no source counts"
    sides = (
        ("supports", verdict.supports, verdict.support_strength),
        ("refutes", verdict.refutes, verdict.refute_strength),
    )
    parts = [
        f"{count} {polarity} (max {strength:g})"
        for polarity, count, strength in sides
        if count and strength is not None
    ]
    name = f"{verdict.verdict} only weakly" if verdict.weak else verdict.verdict
    return f"{name}: " + " · ".join(parts)


def citations_title(analysis: Analysis, document: Document) -> str:
    """``cited by 4 refs``: the claims and sources whose ``path`` is the document."""
    return "cited by " + plural(len(analysis.refs_into(document)), "ref")


def coverage_of(analysis: Analysis, document: Document) -> DocumentCoverage | None:
    """The uncited text of a document (None: no claim cites it)."""
    return next((found for found in analysis.summary.coverage if found.document is document), None)


def uncited_title(coverage: DocumentCoverage) -> str:
    """``3 uncited passages (62%)``: the runs no resolved claim covers, and their share."""
    return f"{plural(len(coverage.runs), 'uncited passage')} ({percent(coverage.uncited_share)})"


def listed_from(content: str, start: int, end: int) -> int:
    """Where a list of places shows the uncited run ``[start, end)`` of ``content`` from: its
    start, unless what the run holds of that line has no letter or digit (the "." after a
    claim's last word: the list would show the cited sentence's line as the passage), then
    the first line of the run that has one, from its first character that is not a space. A
    run with no letter or digit anywhere is shown from its start."""
    at = start
    while at < end:
        line_end = content.find("\n", at, end)
        stop = end if line_end < 0 else line_end
        if any(ch.isalnum() for ch in content[at:stop]):
            if at == start:
                return start
            while content[at] in " \t":
                at += 1
            return at
        if line_end < 0:
            break
        at = line_end + 1
    return start


def uncited_sentence(coverage: DocumentCoverage) -> str:
    """``62% of its text is cited by no claim (3 passages)``."""
    if not coverage.runs:
        return "all of its text is cited by claims"
    return (
        f"{percent(coverage.uncited_share)} of its text is cited by no claim ({plural(len(coverage.runs), 'passage')})"
    )

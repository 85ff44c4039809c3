"""What a reader finds in a response, and what importing it made: plain, frozen data.

A reader (one module per format) turns a response into :class:`Cited`: the answer, each
cited segment of it (:class:`Segment`) with its citations (:class:`Citation`), each a
:class:`Pointer` saying where the provider says the cited text is, in which
:class:`Source`, counted in which unit. ``placing.py`` turns that into a session, and says
what it did in an :class:`ImportReport`: each citation placed (:class:`Placed`, with the
mismatch when its offsets held other text), each one that could not be placed
(:class:`LeftOut`, with why), and notes (what was trimmed, the placeholder confidence).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..core.display import shorten, visible
from .units import Unit


def said(text: str, width: int = 60) -> str:
    """A text (a title, a quote) in a message: as JSON writes a string (``\\n`` for a line
    break), cut when long, hidden and bidirectional characters escaped."""
    return visible(json.dumps(shorten(text, width), ensure_ascii=False))


def named(path: str) -> str:
    """A session path in a message: in backticks, as the other commands name paths."""
    return "`" + visible(shorten(path, 60)) + "`"


@dataclass(frozen=True, slots=True)
class Source:
    """A document citations point into, as the response (or its request) names it.

    ``text``: its text, when the response or request carries it whole (offsets count in it).
    ``fallback``: a text to make a document of when nothing else stands for it (a retrieved
    chunk, a document's snippet). ``names``: what a ``--document`` may be called to stand for
    it (its title, URL, file name). ``filename``: what to call it in the session. ``label``:
    how messages name it."""

    key: str
    label: str
    filename: str
    text: str | None = None
    fallback: str | None = None
    names: tuple[str, ...] = ()
    uri: str | None = None


@dataclass(frozen=True, slots=True)
class Pointer:
    """Where a response says a cited text is: ``start`` and ``end`` in ``unit`` (None: not
    given), the text it quotes (``quoted``; None: the offsets alone say), ``whole`` for a
    citation of the whole document (Cohere names documents, not spans), and ``page``, the
    (1-based) page a PDF citation starts on, to prefer among several occurrences in a text
    whose pages are split by form feeds (as ``pdftotext`` writes them)."""

    source: Source | None
    start: int | None = None
    end: int | None = None
    unit: Unit = "code points"
    quoted: str | None = None
    whole: bool = False
    page: int | None = None


ANSWER_KEY = Source("answer", "the answer", "answer.md")
"""The answer, as claims point into it (its text is :attr:`Cited.answer`'s)."""


def answer_source(text: str) -> Source:
    """The answer as a source: what the claims of a model's response point into."""
    return Source(ANSWER_KEY.key, ANSWER_KEY.label, ANSWER_KEY.filename, text=text)


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation of a segment: its place in the response (``where``), what it points at,
    and what the response says of it. ``why_not``: why it cannot be placed whatever is given
    (the reader knows: a citation of the model's own plan, say)."""

    where: str
    at: Pointer | None
    confidence: float | None = None
    polarity: str = "supports"
    why_not: str | None = None


@dataclass(frozen=True, slots=True)
class Segment:
    """A cited segment of the answer (or, in Web Annotations, a target span): the claim."""

    where: str
    claim: Pointer
    citations: tuple[Citation, ...]
    group: str | None = None  # segments of one group become one annotation (w3c)


@dataclass(frozen=True, slots=True)
class Cited:
    """What a reader found in a response: the ``answer`` (None when the claims are in given
    documents, as Web Annotations have them), its segments, what it could not use, named, and
    notes for a person."""

    format: str
    answer: Source | None
    segments: tuple[Segment, ...]
    left_out: tuple[LeftOut, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Placed:
    """A citation placed: where it is in the response, its claim's text, and the source made
    of it (``pointer`` in the session, ``path`` and ``line`` of the text it cites). ``mismatch``:
    its offsets held other text, said with both (it was placed by its text); ``trimmed``: what
    was cut off its ends."""

    where: str
    claim: str
    path: str
    line: int
    text: str
    pointer: str
    mismatch: str | None = None
    trimmed: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The citation as ``import --json`` writes it."""
        return {
            "where": self.where,
            "claim": self.claim,
            "path": self.path,
            "line": self.line,
            "text": self.text,
            "pointer": self.pointer,
            "mismatch": self.mismatch,
            "trimmed": self.trimmed,
        }


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Offsets that did not hold the text they cite: where in the response, whether of a
    ``claim`` or a ``source``, the text as placed (by its text alone) and both, said."""

    where: str
    of: str  # "claim" or "source"
    text: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """The mismatch as ``import --json`` writes it."""
        return {"where": self.where, "of": self.of, "text": self.text, "message": self.message}


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A citation (or an annotation) that could not be placed: where it is in the response,
    why, and what it quotes and claims where known."""

    where: str
    reason: str
    claim: str | None = None
    text: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The citation as ``import --json`` writes it."""
        return {"where": self.where, "reason": self.reason, "claim": self.claim, "text": self.text}


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What importing a response did: the citations ``placed``, the claims and sources whose
    offsets held other text (``mismatched``: placed by their text, warnings), the citations
    ``left_out`` with why, ``notes`` for a person, and ``findings``: what checking the session
    said (warnings and hints; a session is never made with an error)."""

    format: str
    answer: str | None
    placed: tuple[Placed, ...]
    left_out: tuple[LeftOut, ...]
    notes: tuple[str, ...]
    mismatched: tuple[Mismatch, ...] = ()
    findings: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """1 when a citation could not be placed, else 0 (mismatches are warnings)."""
        return 1 if self.left_out else 0

    def to_json(self) -> dict[str, Any]:
        """The report as ``import --json`` prints it."""
        return {
            "format": self.format,
            "exit_code": self.exit_code,
            "answer": self.answer,
            "placed": [placed.to_json() for placed in self.placed],
            "mismatched": [mismatch.to_json() for mismatch in self.mismatched],
            "left_out": [left.to_json() for left in self.left_out],
            "notes": list(self.notes),
            "findings": list(self.findings),
        }


@dataclass(frozen=True, slots=True)
class Given:
    """A document given to the import (``--document PATH``): its session path, its content
    (LF line breaks) and its ``file:`` URI when it is a file."""

    path: str
    content: str
    uri: str | None = None


__all__ = [
    "ANSWER_KEY",
    "named",
    "said",
    "answer_source",
    "Citation",
    "Cited",
    "Given",
    "ImportReport",
    "LeftOut",
    "Mismatch",
    "Placed",
    "Pointer",
    "Segment",
    "Source",
]

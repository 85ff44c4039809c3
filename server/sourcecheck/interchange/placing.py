"""Citations placed in their documents and made a session (docs/rules.md, ``import``).

Every format's reader gives :class:`~.model.Cited`; :func:`build` does the rest, the same for
all of them:

- Each source becomes a document of the session: the text the response (or its request)
  carries, under the path of a ``--document`` with the same content, else a name made from
  its title; a source with no text of its own is the ``--document`` named like it (title,
  URL, file name), else its fallback text (a chunk, a snippet), else it cannot be placed.
- Each pointer is checked: where the provider's offsets (in its unit) hold the text it
  quotes, the span is there. Where they do not, the span is placed by its text alone: exactly
  once in the document; else the occurrence nearest the offsets; else not at all. The
  mismatch is said with both texts.
- A span that begins or ends with whitespace holding a line break (which a ref cannot start
  or end on) is trimmed, and that is said; one left empty cannot be placed.
- The ref is made as the cite actions make it (``core/refs.cite``: the shortest boundary
  strings unique on their lines).
- Each segment with a placed citation is an annotation: its claim and a ``supports`` (or, from
  Web Annotations, ``refutes``) source per citation, with the provider's confidence or the
  placeholder :data:`~.core.queries.DEFAULT_CONFIDENCE`, which the notes name.

Nothing is dropped unnamed: every citation is placed or listed with why. Pure: no file is
read here (the documents come in as :class:`~.model.Given`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from ..core.queries import DEFAULT_CONFIDENCE
from ..core.refs import Boundaries, Uncitable, cite, nearest_line
from ..core.session import Document
from .model import (
    Citation,
    Cited,
    Given,
    ImportReport,
    LeftOut,
    Mismatch,
    Placed,
    Pointer,
    Segment,
    Source,
    named,
    said,
)
from .units import UNITS, Measured, line_breaks_normalized, normalized

ANSWER = "answer.md"
"""The session path of the answer, unless named."""


# --- documents ---------------------------------------------------------------------------


@dataclass
class Doc:
    """A document of the session being made, and what placing needs of it: ``raw``, the text
    the provider counted offsets in (before line breaks were normalized), and its measures."""

    path: str
    content: str
    raw: str
    shift: Callable[[int], int]  # an offset in raw (code points) -> the same place in content
    document: Document
    measured: Measured
    own: bool = False  # made of a source's fallback text (the span is all of it)
    used: bool = False


def make_doc(path: str, raw: str, own: bool = False) -> Doc:
    content, shift = normalized(raw)
    return Doc(path, content, raw, shift, Document(path, content, ()), Measured(raw), own)


_NOT_IN_NAMES = re.compile(r"[^\w.\- ]+")


def file_name(name: str) -> str:
    """A name (a title, a URL) as a session path: one file name, letters, digits, ``.``,
    ``_`` and ``-``, with ``.txt`` when it has no extension."""
    name = name.strip()
    if "://" in name:
        name = name.split("://", 1)[1].rstrip("/").rsplit("/", 1)[-1] or name
    name = _NOT_IN_NAMES.sub("-", name).strip(" .-").replace(" ", "-")
    name = re.sub(r"-{2,}", "-", name)[:80].strip("-") or "document"
    return name if re.search(r"\.[A-Za-z0-9]{1,5}$", name) else name + ".txt"


def given_names(given: Given) -> set[str]:
    """What a ``--document`` answers to: its path, file name, file name without extension, URI."""
    base = given.path.rsplit("/", 1)[-1]
    names = {given.path, base, base.rsplit(".", 1)[0]}
    if given.uri:
        names.add(given.uri)
    return names


def source_names(source: Source) -> set[str]:
    """What a source may be called: its names, and for a URL its last part, with and without
    its extension."""
    names = {name for name in source.names if name}
    for name in list(names):
        if "://" in name:
            last = unquote(urlsplit(name).path.rstrip("/").rsplit("/", 1)[-1])
            if last:
                names.update({last, last.rsplit(".", 1)[0]})
    return names


# --- placing one pointer -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Located:
    """Where a pointer was placed in a document's content, and what was said of it."""

    start: int
    end: int
    mismatch: str | None = None


def occurrences(content: str, text: str) -> list[int]:
    found, at = [], content.find(text)
    while at >= 0 and text:
        found.append(at)
        at = content.find(text, at + 1)
    return found


def offsets_held(doc: Doc, pointer: Pointer) -> tuple[int, int] | None:
    """The content span the pointer's offsets name (None: none given, or they fall outside
    the text or inside a character)."""
    if pointer.start is None or pointer.end is None:
        return None
    first = doc.measured.code_point(pointer.start, pointer.unit)
    last = doc.measured.code_point(pointer.end, pointer.unit)
    if first is None or last is None or first > last:
        return None
    return doc.shift(first), doc.shift(last)


def held_text(doc: Doc, pointer: Pointer) -> str:
    """What the pointer's offsets hold, said for a person."""
    assert pointer.start is not None and pointer.end is not None
    size = doc.measured.size(pointer.unit)
    if not (0 <= pointer.start <= pointer.end <= size):
        return f"lie outside the text, which has {size} {pointer.unit}"
    span = offsets_held(doc, pointer)
    if span is None:
        return f"fall inside a character (counted in {pointer.unit})"
    return f"hold {said(doc.content[span[0] : span[1]])}"


def other_unit(doc: Doc, pointer: Pointer, quoted: str) -> str:
    """``; they hold it counted in UTF-16 code units``, when another unit would have been right."""
    assert pointer.start is not None and pointer.end is not None
    for unit in UNITS:
        if unit != pointer.unit and doc.measured.holds(pointer.start, pointer.end, unit, quoted):
            return f"; they hold it counted in {unit}"
    return ""


def place(doc: Doc, pointer: Pointer) -> Located | str:
    """Where ``pointer`` is in ``doc`` (docs/rules.md: the offsets where they hold the quoted text,
    else the text alone, once, else nearest the offsets), or why it cannot be placed."""
    if pointer.whole or (doc.own and pointer.quoted is not None and pointer.start is None):
        return Located(0, len(doc.content))
    held = offsets_held(doc, pointer)
    quoted = line_breaks_normalized(pointer.quoted) if pointer.quoted is not None else None
    if held is not None and (quoted is None or doc.content[held[0] : held[1]] == quoted):
        return Located(*held)
    if quoted is None:
        return f"its offsets {pointer.start}-{pointer.end} ({pointer.unit}) {held_text(doc, pointer)}"
    if not quoted:
        return "it quotes no text"
    found = occurrences(doc.content, quoted)
    why = None
    if pointer.start is not None and pointer.end is not None:
        why = (
            f"its offsets {pointer.start}-{pointer.end} ({pointer.unit}) {held_text(doc, pointer)}, not the "
            f"cited text {said(quoted)}{other_unit(doc, pointer, pointer.quoted or '')}"
        )
    if not found:
        near = nearest_line(doc.document, quoted)
        hint = f"; the nearest line is {near[0]}: {said(near[1])}" if near else ""
        return (why + ", and " if why else "") + f"the cited text {said(quoted)} is not in {named(doc.path)}{hint}"
    chosen = choose(doc, pointer, found)
    if chosen is None:
        lines = ", ".join(str(doc.document.line_of_offset(at)) for at in found[:10])
        return (
            f"the cited text {said(quoted)} occurs {len(found)} times in {named(doc.path)} (lines {lines}) and nothing "
            "says which"
        )
    line = doc.document.line_of_offset(chosen)
    if why is not None:
        how = "the only place" if len(found) == 1 else f"the nearest of its {len(found)} places to the offsets"
        why += f"; placed by its text, at {how} (line {line})"
    return Located(chosen, chosen + len(quoted), why)


def choose(doc: Doc, pointer: Pointer, found: list[int]) -> int | None:
    """The occurrence to take: the only one, else the one nearest the offsets (or the start of
    the page the pointer names, pages split by form feeds), the earlier on a tie; None when
    nothing says which."""
    if len(found) == 1:
        return found[0]
    if pointer.start is not None:
        near = doc.shift(doc.measured.nearest_code_point(pointer.start, pointer.unit))
    elif pointer.page is not None and "\f" in doc.content:
        near = sum(len(page) + 1 for page in doc.content.split("\f")[: max(pointer.page - 1, 0)])
    else:
        return None
    return min(found, key=lambda at: (abs(at - near), at))


def trim(content: str, span: Located) -> tuple[int, int, str | None]:
    """The span without the whitespace holding a line break at either end (a ref cannot start
    or end on one), and what was cut, said (None: nothing)."""
    start, end = span.start, span.end
    head = re.match(r"\s*", content[start:end])
    lead = head.group() if head else ""
    if "\n" in lead:
        start += len(lead)
    tail = re.search(r"\s*$", content[start:end])
    trail = tail.group() if tail else ""
    if "\n" in trail:
        end -= len(trail)
    cut = [f"{said(part, 20)} from its {side}" for part, side in ((lead, "start"), (trail, "end")) if "\n" in part]
    return start, end, ("trimmed " + " and ".join(cut)) if cut else None


# --- the session ---------------------------------------------------------------------------


@dataclass
class Pending:
    """An annotation to be: its claim, and its index once a source of it is placed."""

    claim: dict[str, Any]
    doc: Doc
    index: int | None = None


@dataclass
class Builder:
    """One import in the making: the documents so far, the annotations, what was said."""

    cited: Cited
    given: Sequence[Given]
    answer_path: str
    docs: dict[str, Doc] = field(default_factory=dict)  # by source key
    made: dict[str, Doc] = field(default_factory=dict)  # by session path, every one made
    paths: dict[str, Doc] = field(default_factory=dict)  # by session path, in order of use
    annotations: list[dict[str, Any]] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)
    mismatched: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    placeholders: int = 0
    placeholder: float = DEFAULT_CONFIDENCE  # a source's confidence when the response gives none
    unwritten: int = 0  # cited segments none of whose citations could be placed
    groups: dict[str, Pending] = field(default_factory=dict)

    def free_path(self, name: str) -> str:
        taken = set(self.made) | {given.path for given in self.given} | {self.answer_path}
        path, number = name, 1
        while path in taken:
            number += 1
            stem, dot, extension = name.rpartition(".")
            path = f"{stem}-{number}.{extension}" if dot else f"{name}-{number}"
        return path

    def by_name(self, source: Source) -> Given | str | None:
        names = source_names(source)
        matches = [given for given in self.given if names & given_names(given)]
        if len(matches) > 1:
            listed = ", ".join(named(given.path) for given in matches)
            return f"{len(matches)} --document files are named like {source.label}: {listed}; give one"
        return matches[0] if matches else None

    def resolve(self, source: Source) -> Doc | str:
        """The session document of ``source``, or why there is none."""
        known = self.docs.get(source.key)
        if known is not None:
            return known
        match = self.by_name(source)
        if isinstance(match, str):
            return match
        if source.text is not None:
            doc = self.of_text(source, match)
        elif match is not None:
            doc = self.doc_at(match.path, match.content)
        elif source.fallback is not None:
            doc = self.doc_at(self.free_path(file_name(source.filename)), source.fallback, own=True)
        else:
            return f"{source.label} has no text here: give it with --document FILE, the file named like " + " or ".join(
                said(name) for name in sorted(source_names(source))[:3] or ["its title"]
            )
        self.docs[source.key] = doc
        return doc

    def of_text(self, source: Source, match: Given | None) -> Doc:
        assert source.text is not None
        content = normalized(source.text)[0]
        same = next((given for given in self.given if given.content == content), None)
        if same is None and match is not None:
            self.notes.append(
                f"--document {named(match.path)} is named like {source.label}, but its text is not the one the "
                "response cites: the response's text is used"
            )
        path = same.path if same is not None else self.free_path(file_name(source.filename))
        return self.doc_at(path, source.text)

    def doc_at(self, path: str, raw: str, own: bool = False) -> Doc:
        """The document at ``path``: the one made before, else a new one of ``raw``."""
        doc = self.made.get(path)
        if doc is None:
            doc = self.made[path] = make_doc(path, raw, own)
        return doc

    def ref(self, doc: Doc, pointer: Pointer) -> tuple[dict[str, Any], str, int, str | None, str | None] | str:
        """The ref of ``pointer`` in ``doc``: (ref, its text, its line, the mismatch said, the
        trimming said), or why it cannot be placed."""
        span = place(doc, pointer)
        if isinstance(span, str):
            return span
        start, end, trimmed = trim(doc.content, span)
        if start >= end:
            return "it cites only whitespace"
        made = cite(doc.document, start, end)
        if isinstance(made, Uncitable):
            return f"no ref can cite {said(doc.content[start:end])} in {named(doc.path)}: {made.reason}"
        assert isinstance(made, Boundaries)
        return made.as_json(), doc.content[start:end], made.start_line, span.mismatch, trimmed

    def confidence(self, citation: Citation) -> float:
        value = citation.confidence
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            if 0 <= value <= 1:
                return value
            self.notes.append(f"{citation.where}: its confidence {value} is outside [0, 1]; the placeholder is used")
        self.placeholders += 1
        return self.placeholder

    def segment(self, segment: Segment) -> None:
        claim = self.claim(segment)
        if isinstance(claim, str):
            for citation in segment.citations:
                self.left_out.append(
                    LeftOut(citation.where, f"its claim cannot be placed: {claim}", None, quote(citation))
                )
            return
        claim_ref, claim_text, claim_doc = claim
        pending = self.pending_for(segment, claim_ref, claim_doc)
        for citation in segment.citations:
            self.citation(citation, pending, claim_text)
        if pending.index is None and segment.citations:
            self.unwritten += 1

    def claim(self, segment: Segment) -> tuple[dict[str, Any], str, Doc] | str:
        if segment.claim.source is None:
            return "the response names no document for it"
        doc = self.resolve(segment.claim.source)
        if isinstance(doc, str):
            return doc
        made = self.ref(doc, segment.claim)
        if isinstance(made, str):
            return made
        ref, text, _, mismatch, trimmed = made
        if mismatch:
            self.mismatched.append(Mismatch(segment.where, "claim", text, mismatch))
        if trimmed:
            self.notes.append(f"{segment.where}: the claim {said(text)}: {trimmed}")
        return ref, text, doc

    def pending_for(self, segment: Segment, claim: dict[str, Any], doc: Doc) -> Pending:
        """The annotation a segment's citations go into: a new one, or (Web Annotations of one
        group, with the same claim) the group's."""
        known = self.groups.get(segment.group) if segment.group is not None else None
        if known is not None and known.claim == claim:
            return known
        pending = Pending(claim, doc)
        if segment.group is not None:
            self.groups[segment.group] = pending
        return pending

    def annotation_index(self, pending: Pending) -> int:
        """The index of the pending annotation in the session, written at its first source."""
        if pending.index is None:
            self.use(pending.doc)
            self.annotations.append({"claim": pending.claim, "sources": []})
            pending.index = len(self.annotations) - 1
        return pending.index

    def citation(self, citation: Citation, pending: Pending, claim_text: str) -> None:
        reason = self.citation_reason(citation)
        made = reason if reason is not None else self.citation_ref(citation)
        if isinstance(made, str):
            self.left_out.append(LeftOut(citation.where, made, claim_text, quote(citation)))
            return
        ref, text, line, mismatch, trimmed, doc = made
        index = self.annotation_index(pending)
        sources = self.annotations[index]["sources"]
        source = {**ref, "polarity": citation.polarity, "confidence": self.confidence(citation)}
        same = next(
            (k for k, other in enumerate(sources) if other | {"confidence": 0} == source | {"confidence": 0}), None
        )
        if same is not None:
            self.notes.append(f"{citation.where}: cites the span another citation of this claim cites; kept once")
            pointer = f"/annotations/{index}/sources/{same}"
        else:
            sources.append(source)
            pointer = f"/annotations/{index}/sources/{len(sources) - 1}"
        self.use(doc)
        self.placed.append(Placed(citation.where, claim_text, doc.path, line, text, pointer, mismatch, trimmed))
        if mismatch:
            self.mismatched.append(Mismatch(citation.where, "source", text, mismatch))

    def citation_reason(self, citation: Citation) -> str | None:
        if citation.at is None or citation.at.source is None:
            return citation.why_not or "the response says nothing of where its text is"
        if citation.why_not is not None and self.by_name(citation.at.source) is None:
            return citation.why_not
        return None

    def citation_ref(self, citation: Citation) -> tuple[dict[str, Any], str, int, str | None, str | None, Doc] | str:
        assert citation.at is not None and citation.at.source is not None
        doc = self.resolve(citation.at.source)
        if isinstance(doc, str):
            return doc
        made = self.ref(doc, citation.at)
        if isinstance(made, str):
            return made
        return (*made, doc)

    def use(self, doc: Doc) -> None:
        if not doc.used:
            doc.used = True
            self.paths[doc.path] = doc

    def session(self) -> dict[str, Any]:
        return {
            "documents": [{"path": doc.path, "content": doc.content} for doc in self.paths.values()],
            "annotations": self.annotations,
        }


def quote(citation: Citation) -> str | None:
    return citation.at.quoted if citation.at is not None else None


def answer_place(content: str, given: Sequence[Given], wanted: str) -> tuple[str, str | None]:
    """The answer's path: that of a ``--document`` holding the answer's text, else the one
    wanted, else (a ``--document`` of that path holds other text) one beside it; and what to
    say of it."""
    same = next((g for g in given if g.content == content), None)
    if same is not None:
        return same.path, None
    if any(g.path == wanted for g in given):
        stem, dot, extension = wanted.rpartition(".")
        number = 2
        while any(g.path == f"{stem}-{number}.{extension}" if dot else f"{wanted}-{number}" for g in given):
            number += 1
        path = f"{stem}-{number}.{extension}" if dot else f"{wanted}-{number}"
        return path, f"--document {named(wanted)} is not the answer's text, so the answer is {named(path)}"
    return wanted, None


def build(
    cited: Cited, given: Sequence[Given], answer: str = ANSWER, placeholder: float = DEFAULT_CONFIDENCE
) -> tuple[dict[str, Any], ImportReport]:
    """The session ``cited`` makes with the documents ``given``, and the report of what was
    placed, what was placed by its text (a mismatch) and what could not be placed; a source
    whose response gives no confidence gets ``placeholder``."""
    notes: list[str] = []
    if cited.answer is not None:
        answer, said_of_it = answer_place(normalized(cited.answer.text or "")[0], given, answer)
        notes += [said_of_it] if said_of_it else []
    builder = Builder(cited, given, answer)
    builder.placeholder = placeholder
    if cited.answer is not None:  # the answer is a document of the session, cited or not
        builder.use(builder.docs.setdefault(cited.answer.key, builder.doc_at(answer, cited.answer.text or "")))
    for segment in cited.segments:
        builder.segment(segment)
    session = builder.session()
    notes = list(cited.notes) + notes + builder.notes
    if builder.placeholders:
        notes.append(
            f"{builder.placeholders} of the sources {'has' if builder.placeholders == 1 else 'have'} the placeholder "
            f"confidence {placeholder:g} (the response gives none): judge each and write your own"
        )
    unused = [g.path for g in given if g.path not in builder.paths]
    if unused:
        notes.append(
            "no citation points into --document " + ", ".join(map(named, unused)) + "; not added to the session"
        )
    dropped = builder.unwritten
    if dropped:
        notes.append(
            f"{dropped} cited segment{'s' if dropped != 1 else ''} of the answer {'have' if dropped != 1 else 'has'} "
            "no citation that could be placed, so no annotation (listed above)"
        )
    answer_path = answer if cited.answer is not None else None
    left_out = cited.left_out + tuple(builder.left_out)
    report = ImportReport(
        cited.format, answer_path, tuple(builder.placed), left_out, tuple(notes), tuple(builder.mismatched)
    )
    return session, report


__all__ = ["ANSWER", "build", "file_name", "place", "said", "trim"]

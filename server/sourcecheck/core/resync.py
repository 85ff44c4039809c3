"""Re-anchoring: carrying refs across a change of their documents (docs/rules.md, "`sync`").

A session is a snapshot: its documents are what its author read. When a document's file
has changed, each ref into it is

- **kept**: the characters it cites survive the change together, as whole words where they
  were whole words (text added or removed beside them on their lines does not matter). It is
  re-anchored to where they are now, found by aligning the old content with the new as a
  diff does (``align.py``): a copy of the text elsewhere is never taken for it. Its lines are
  updated; its boundary strings stay where they are still unique on their lines, else they
  are made again, the shortest unique ones (as the cite actions make them);
- **moved** (kept too): its exact text is no longer at the aligned place, but occurs exactly
  once in the text the change inserted (the passage was cut and pasted elsewhere);
- **edited**: its place now holds its text edited: at least half of its characters (spaces
  aside) still stand there, aligned. ``now`` is exactly the aligned new text (see
  :func:`aligned_text`): never widened to the rest of its line;
- **deleted**: less than that is left at its place. It is never re-pointed at other text,
  not even at what is left of it (the last word of a deleted line, say).

A changed ref (edited or deleted) whose exact text still stands elsewhere in the new content
(more than once in inserted text, or in text that was there before: a copy) lists those
places, for a person to choose one. Everything here is pure: :func:`plan` takes the analysis
of the session and what reading each document's file gave; ``accept.py`` turns a plan into
edits of the session's text, ``driftsaid.py`` says it. Reading the files is ``disk.py``'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from .align import Alignment, align
from .analysis import Analysis
from .filestate import FileContent, FileState, Unreadable
from .occurrences import occurrences
from .refs import Boundaries, cite
from .session import CheckedRef, Document, Path, pointer

MAX_PLACES = 20
"""Places of a changed ref's text listed at most (how many there are is said)."""
MAX_OCCURRENCES = 1000
"""Occurrences of a ref's text looked at, at most, in a new content (a text found more often
than this is found too often to be where a passage moved)."""
DELETED = 0.5
"""Below this share of its characters (spaces aside) left at its place, a ref was deleted."""

RefState = Literal["kept", "moved", "edited", "deleted", "unread", "unresolved"]
"""``unread``: a ref into a document whose file could not be read; ``unresolved``: a ref that
did not resolve before the change (left as it is)."""


@dataclass(frozen=True, slots=True)
class TextPlace:
    """Where a text stands in a new content: its offset, its line, and the coordinates that
    would cite it there (None: no boundary is unique there)."""

    offset: int
    line: int
    anchor: Boundaries | None


@dataclass(frozen=True, slots=True)
class RefDrift:
    """What a change of its document does to a ref."""

    ref: CheckedRef  # in the analysis of the session as it is
    path: Path  # the ref's JSON path in that session
    state: RefState
    was: str | None  # the text it cites in the session (None: it did not resolve)
    now: str | None  # the text at its place in the new content (kept, moved: ``was``); None: deleted
    anchor: Boundaries | None  # coordinates that cite ``now`` in the new content; None: none can
    reason: str | None = None  # why a ref whose text survived cannot be carried (no unique boundary)
    places: tuple[TextPlace, ...] = ()  # a changed ref: where its exact text stands in the new content
    place_count: int = 0  # how many such places there are (``places`` lists MAX_PLACES at most)
    at: int | None = None  # a deleted ref: the new content's offset where its text was
    between: bool = False  # a deleted ref: its lines went whole (``at`` is between two lines)
    where: tuple[int, int] | None = None  # kept, moved, edited: the new content's offsets of ``now``

    @property
    def pointer(self) -> str:
        return pointer(self.path)

    @property
    def changed(self) -> bool:
        """Its text was edited or deleted (a person judges it before it is accepted)."""
        return self.state == "edited" or self.state == "deleted"

    @property
    def kept(self) -> bool:
        return self.state == "kept" or self.state == "moved"

    @property
    def moves(self) -> bool:
        """Whether carrying it over changes its coordinates."""
        ref, anchor = self.ref, self.anchor
        if anchor is None or ref.start is None or ref.end is None:
            return False
        return (anchor.start_line, anchor.start_str, anchor.end_line, anchor.end_str) != (
            ref.start.line,
            ref.start.str,
            ref.end.line,
            ref.end.str,
        )


def _place(document: Document, start: int, end: int, ref: CheckedRef) -> tuple[Boundaries | None, str | None]:
    """The coordinates citing ``[start, end)`` of ``document``: the ref's own boundary strings
    where they are still unique on their new lines at that place, else the shortest unique
    ones. None, with the reason, when no boundary can be made unique."""
    assert ref.start is not None and ref.end is not None
    lines = document.lines
    first, last = document.line_of_offset(start), document.line_of_offset(end - 1)
    start_column = start - lines.starts[first - 1]
    end_column = end - lines.starts[last - 1]
    start_line, end_line = lines[first - 1], lines[last - 1]
    start_str, end_str = ref.start.str, ref.end.str
    keeps_start = bool(start_str.strip()) and occurrences(start_line, start_str) == ([start_column], 1)
    keeps_end = bool(end_str.strip()) and occurrences(end_line, end_str) == ([end_column - len(end_str)], 1)
    if keeps_start and keeps_end:
        return Boundaries(document.path, first, start_str, last, end_str), None
    made = cite(document, start, end)
    if not isinstance(made, Boundaries):
        return None, made.reason
    return (
        Boundaries(
            document.path,
            first,
            start_str if keeps_start else made.start_str,
            last,
            end_str if keeps_end else made.end_str,
        ),
        None,
    )


_INSIDE_A_WORD = re.compile(r"\w\w")


def word_edge(text: str, at: int) -> bool:
    """Whether ``at`` is not inside a word of ``text`` (letters, digits or ``_`` on both sides)."""
    return at <= 0 or at >= len(text) or _INSIDE_A_WORD.match(text, at - 1) is None


def _same_edges(old: str, start: int, end: int, new: str, begin: int, finish: int) -> bool:
    """Whether ``new[begin:finish]`` is as whole a word (or words) as ``old[start:end]`` was:
    ``A`` does not survive in ``After``."""
    return word_edge(old, start) == word_edge(new, begin) and word_edge(old, end) == word_edge(new, finish)


_WORD = re.compile(r"\w+")
_WORD_CHARACTER = re.compile(r"\w")
_SENTENCE_END = re.compile(r"[.!?;:]+\s+")


def _surviving_share(alignment: Alignment, old: str, start: int, end: int) -> float:
    """The share of the old ``[start, end)``'s characters (spaces aside) that survive: a word
    counts with the letters of it that survive when more than half of them do (``optional`` in
    ``optionally``), else not at all (two letters of ``immutable`` found in ``After``)."""
    survivors = alignment.surviving(start, end)
    if not survivors:
        return 0.0
    alive = bytearray(end - start)
    for a, _, n in survivors:
        alive[a - start : a - start + n] = b"\x01" * n
    total = kept = 0
    at = start
    for word in _WORD.finditer(old, start, end):
        for i in range(at, word.start()):  # marks between words
            if not old[i].isspace():
                total += 1
                kept += alive[i - start]
        size, left = word.end() - word.start(), sum(alive[word.start() - start : word.end() - start])
        total += size
        kept += left if left * 2 > size else 0
        at = word.end()
    for i in range(at, end):
        if not old[i].isspace():
            total += 1
            kept += alive[i - start]
    if not total:  # spaces only
        return sum(n for *_, n in survivors) / (end - start)
    return kept / total


def aligned_text(alignment: Alignment, old: str, new: str, start: int, end: int) -> tuple[int, int] | None:
    """The new text at the place of the old ``[start, end)``, edited: from its first
    surviving character to its last, with what replaced its first (last) characters when
    that replaced them alone (the old text between the survivors before and in it lies inside
    it; else what stands there also replaced text outside it, and is left out); finished to
    whole words where it was whole words; without spaces or line breaks at its ends. None
    when less than :data:`DELETED` of it survives there (it was deleted)."""
    survivors = alignment.surviving(start, end)
    if not survivors or _surviving_share(alignment, old, start, end) < DELETED:
        return None
    (first_old, begin, _), (last_old, last_new, last_size) = survivors[0], survivors[-1]
    finish = last_new + last_size
    if first_old > start:
        gap_old, gap_new = alignment.before(first_old)
        if gap_old >= start:
            begin = gap_new
    if last_old + last_size < end:
        gap_old, gap_new = alignment.after(last_old + last_size, len(old))
        if gap_old <= end:
            finish = gap_new
    while word_edge(old, start) and not word_edge(new, begin):
        begin -= 1
    while word_edge(old, end) and not word_edge(new, finish):
        finish += 1
    while begin < finish and new[begin].isspace():
        begin += 1
    while finish > begin and new[finish - 1].isspace():
        finish -= 1
    # starting with a word where it did: the end of the sentence before it, which the diff
    # may take for the end of one deleted from the ref (". Each entry is"), is left out
    if _WORD_CHARACTER.match(old, start):
        ending = _SENTENCE_END.match(new, begin, finish)
        if ending is not None:
            begin = ending.end()
    return (begin, finish) if begin < finish else None


def _places(old: str, start: int, end: int, new: Document, alignment: Alignment) -> tuple[list[int], list[int]]:
    """Where the old ``[start, end)`` stands whole in the new content (as whole words where it
    was): the offsets in inserted text, and those in text that was there before (a copy)."""
    text, content = old[start:end], new.content
    inserted: list[int] = []
    before: list[int] = []
    at = content.find(text)
    looked = 0
    while at >= 0 and looked < MAX_OCCURRENCES:
        looked += 1
        if _same_edges(old, start, end, content, at, at + len(text)):
            (inserted if alignment.inserted(at, at + len(text), content) else before).append(at)
        at = content.find(text, at + 1)
    if at >= 0:  # found too often to tell where it went
        return [], sorted(inserted + before)
    return inserted, before


def carry(ref: CheckedRef, at: Path, alignment: Alignment, new: Document) -> RefDrift:
    """What becomes of a resolved ref (at ``at`` in its session) when its document's content
    becomes ``new``'s."""
    assert ref.span is not None and ref.text is not None and ref.document is not None
    was, old, content = ref.text, ref.document.content, new.content
    start, end = ref.span
    moved = alignment.moved(start, end)
    if moved is not None and _same_edges(old, start, end, content, *moved):
        anchor, reason = _place(new, *moved, ref)
        if anchor is not None:
            return RefDrift(ref, at, "kept", was, was, anchor, where=moved)
        return RefDrift(ref, at, "edited", was, was, None, f"its text is still there, but {reason}", where=moved)
    place = aligned_text(alignment, old, content, start, end)
    if place is not None and content[place[0] : place[1]] == was:  # its very text, aligned in pieces
        anchor, reason = _place(new, *place, ref)
        if anchor is not None:
            return RefDrift(ref, at, "kept", was, was, anchor, where=place)
        return RefDrift(ref, at, "edited", was, was, None, f"its text is still there, but {reason}", where=place)
    inserted, before = _places(old, start, end, new, alignment)
    found = sorted(inserted + before)
    if len(inserted) == 1:
        anchor, reason = _place(new, inserted[0], inserted[0] + len(was), ref)
        there = (inserted[0], inserted[0] + len(was))
        if anchor is not None:
            return RefDrift(ref, at, "moved", was, was, anchor, where=there)
        line = new.line_of_offset(inserted[0])
        return RefDrift(
            ref, at, "edited", was, was, None, f"its text moved to line {line}, but {reason}",
            (TextPlace(inserted[0], line, None),), 1, where=there,
        )  # fmt: skip
    places = tuple(
        TextPlace(offset, new.line_of_offset(offset), _place(new, offset, offset + len(was), ref)[0])
        for offset in found[:MAX_PLACES]
    )
    if place is None:
        where = alignment.before(start)[1]
        first, last = old.rfind("\n", 0, start) + 1, old.find("\n", end)
        between = not alignment.surviving(first, len(old) if last < 0 else last)
        return RefDrift(ref, at, "deleted", was, None, None, None, places, len(found), where, between)
    anchor, reason = _place(new, *place, ref)
    return RefDrift(
        ref, at, "edited", was, content[place[0] : place[1]], anchor, reason, places, len(found), where=place
    )


# --- what happens to each document ---------------------------------------------------------


DocumentState = Literal["same", "changed", "missing", "unreadable"]


@dataclass(frozen=True, slots=True)
class DocumentDrift:
    """A document of the session beside its file."""

    document: Document
    state: DocumentState
    file: FileState
    refs: tuple[RefDrift, ...] = ()  # every ref into it (changed or not read: what becomes of each)

    @property
    def changed_refs(self) -> list[RefDrift]:
        return [ref for ref in self.refs if ref.changed]

    @property
    def kept_refs(self) -> list[RefDrift]:
        return [ref for ref in self.refs if ref.kept]

    @property
    def moving(self) -> int:
        """Kept refs whose coordinates change (re-anchored)."""
        return sum(1 for ref in self.refs if ref.kept and ref.moves)

    @property
    def unresolved(self) -> int:
        """Refs into it that did not resolve before (left as they are)."""
        return sum(1 for ref in self.refs if ref.state == "unresolved")

    @property
    def held(self) -> list[RefDrift]:
        """Edited refs that no boundary can cite in the new content: accepting the change would
        leave their coordinates to resolve against other text, so it is held back until a
        person settles them (removes the source, or changes the line)."""
        return [ref for ref in self.refs if ref.state == "edited" and ref.anchor is None]

    @property
    def all_kept(self) -> bool:
        """Changed, and every citation of it survives (it can be brought up to date silently)."""
        return self.state == "changed" and not self.changed_refs

    @property
    def content(self) -> str | None:
        return self.file.content if isinstance(self.file, FileContent) else None


@dataclass(frozen=True, slots=True)
class Drift:
    """Every document of a session beside its file (documents without a file state given
    are left out)."""

    analysis: Analysis
    documents: tuple[DocumentDrift, ...]

    @property
    def up_to_date(self) -> bool:
        """Every document equals its file."""
        return all(d.state == "same" for d in self.documents)

    @property
    def on_disk(self) -> bool:
        """Whether the session's documents come from files (at least one of them was read):
        a session written by hand, whose paths name no file, is not told of missing files."""
        return any(isinstance(d.file, FileContent) for d in self.documents)

    def document(self, path: str) -> DocumentDrift | None:
        return next((d for d in self.documents if d.document.path == path), None)

    def updated(self, accept: bool | frozenset[str] = False) -> list[DocumentDrift]:
        """The documents a sync brings up to date: those whose citations all survive, and
        those accepted (``accept``: every changed one, or the paths named) but for those held
        back (see :attr:`DocumentDrift.held`)."""
        return [
            d
            for d in self.documents
            if d.state == "changed"
            and (
                d.all_kept
                or (not d.held and (accept is True or (isinstance(accept, frozenset) and d.document.path in accept)))
            )
        ]


Carried = dict[int, tuple[object, tuple[int, int], RefDrift]]
"""What carrying refs across one change gave, by the identity of each ref's JSON value (kept
with it, and with its span): the same ref in the next version of the session (an edit
elsewhere) is not carried again."""
Alignments = dict[tuple[int, int], tuple[str, str, Alignment, Carried]]
"""Alignments made before, by the identities of their old and new contents (with the contents,
so that an identity reused by another string is never taken for it), and the refs carried."""


def plan(
    analysis: Analysis, files: Mapping[str, FileState], alignments: Alignments | None = None, list_unread: bool = True
) -> Drift:
    """What bringing each document of ``analysis`` (by path, as refs resolve against them) up
    to date with ``files[path]`` does to it and to the refs into it. ``alignments`` keeps the
    alignment of each changed content from one call to the next (the editor asks on every
    version of the session); without ``list_unread``, the refs into a file that could not be
    read are not listed (the editor, on every keystroke, says only that it is not read)."""
    refs_into: dict[str, list[CheckedRef]] | None = None
    found = []
    used: set[tuple[int, int]] = set()
    for path, document in analysis.session.by_path.items():
        file = files.get(path)
        if file is None:
            continue
        if isinstance(file, FileContent) and (file.content is document.content or file.content == document.content):
            found.append(DocumentDrift(document, "same", file))
            continue
        if isinstance(file, Unreadable) and not list_unread:
            found.append(DocumentDrift(document, "missing" if file.missing else "unreadable", file))
            continue
        if refs_into is None:  # only when some document changed: a walk over every ref
            refs_into = {}
            for ref in analysis.session.refs:
                if ref.document is not None and ref.doc_path is not None:
                    refs_into.setdefault(ref.doc_path, []).append(ref)
        refs = refs_into.get(path, [])
        if isinstance(file, Unreadable):
            unread = tuple(
                RefDrift(
                    ref,
                    analysis.session.ref_path(ref),
                    "unread" if ref.valid else "unresolved",
                    ref.text if ref.valid else None,
                    None,
                    None,
                )
                for ref in refs
            )
            found.append(DocumentDrift(document, "missing" if file.missing else "unreadable", file, unread))
        else:
            found.append(_changed(document, file, refs, analysis.session.ref_path, alignments, used))
    if alignments is not None:  # those of contents no longer compared go
        for key in [key for key in alignments if key not in used]:
            del alignments[key]
    return Drift(analysis, tuple(found))


def _changed(
    document: Document,
    file: FileContent,
    refs: list[CheckedRef],
    ref_path: Callable[[CheckedRef], Path],
    alignments: Alignments | None,
    used: set[tuple[int, int]],
) -> DocumentDrift:
    key = (id(document.content), id(file.content))
    used.add(key)
    known = alignments.get(key) if alignments is not None else None
    if known is not None and known[0] is document.content and known[1] is file.content:
        alignment, before = known[2], known[3]
    else:
        alignment, before = align(document.content, file.content), {}
    new = Document(document.path, file.content, document.json_path)
    now: Carried = {}
    carried = []
    for ref in refs:
        at = ref_path(ref)
        if not ref.valid or ref.span is None:
            carried.append(RefDrift(ref, at, "unresolved", None, None, None))
            continue
        cached = before.get(id(ref.raw))
        if cached is not None and cached[0] is ref.raw and cached[1] == ref.span:
            found = cached[2]
            if found.ref is not ref or found.path != at:  # the same ref, elsewhere in the file now
                found = RefDrift(
                    ref, at, found.state, found.was, found.now, found.anchor, found.reason, found.places,
                    found.place_count, found.at, found.between, found.where,
                )  # fmt: skip
        else:
            found = carry(ref, at, alignment, new)
        now[id(ref.raw)] = (ref.raw, ref.span, found)
        carried.append(found)
    if alignments is not None:
        alignments[key] = (document.content, file.content, alignment, now)
    return DocumentDrift(document, "changed", file, tuple(carried))


__all__ = [
    "Alignment",
    "DocumentDrift",
    "Drift",
    "FileContent",
    "FileState",
    "TextPlace",
    "RefDrift",
    "Unreadable",
    "align",
    "aligned_text",
    "carry",
    "plan",
    "word_edge",
]

"""The model of a checked session: documents, annotations, refs, sources and findings.

A document and a finding carry the JSON path of the value they came from, so that a caller
can find its place in the file. An annotation and its refs do not: an annotation is the same
object wherever it moves in the array (a new one typed before ten thousand others moves none
of them), and its place is the session's to say (:meth:`Session.ref_path`,
:meth:`Session.annotation_path`); a ref knows its place in its annotation (``tail``).
Nothing here knows about files, positions or editors.
"""

from __future__ import annotations

import weakref
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import compress
from typing import Any, TypeVar, cast, overload

from .lineindex import LineIndex
from .nearmiss import NearMiss, Survey
from .nearmiss import Side as Side
from .occurrences import MAX_OCCURRENCES, occurrences
from .positions import line_starts

T = TypeVar("T")

Path = tuple[str | int, ...]


def pointer(path: Path) -> str:
    """The RFC 6901 JSON pointer of a path (``/annotations/0/claim/start/str``)."""
    if not path:
        return ""
    if len(path) == 4 and path[2] == "sources" and path[0] == "annotations":  # a source's (30,000 a --json)
        index, source = path[1], path[3]
        if type(index) is int and type(source) is int:
            return f"/annotations/{index}/sources/{source}"
    joined = "/".join(map(str, path))
    if "~" not in joined and joined.count("/") == len(path) - 1:  # no part holds a ~ or a /
        return "/" + joined
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    HINT = "hint"


@dataclass(frozen=True, slots=True)
class Mention:
    """Another value a finding's message names (the first of two duplicates): as
    ``placeholder`` (a part of the message that needs no position, "source 1 of this
    annotation") until whoever knows the file's lines writes ``template`` instead, with the
    line of the value at ``path`` ("the source on line {line}")."""

    placeholder: str
    path: Path
    template: str


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule, on the JSON value at ``path``."""

    code: str
    severity: Severity
    message: str
    path: Path
    ref: CheckedRef | None = None  # the ref it is about, for boundary findings
    extent: tuple[int, int] | None = None  # set for findings that are not on a value
    mentions: tuple[Mention, ...] = ()  # other values the message names, by line once known

    @property
    def pointer(self) -> str:
        return pointer(self.path)


def with_lines(finding: Violation, line_of: Callable[[Path], int | None]) -> Violation:
    """The finding with each value its message mentions named by its line in the file
    (``line_of`` gives the 1-based line of the value at a path, None if it is nowhere)."""
    message = finding.message
    for mention in finding.mentions:
        line = line_of(mention.path)
        if line is not None:
            message = message.replace(mention.placeholder, mention.template.format(line=line), 1)
    return finding if message == finding.message else replace(finding, message=message)


class Lines(Sequence[str]):
    """A document's lines, ``content.split("\n")``, each sliced from the content when asked
    for: a list of them would hold a second copy of every document."""

    __slots__ = ("content", "starts")

    def __init__(self, content: str) -> None:
        self.content = content
        self.starts = line_starts(content)

    def __len__(self) -> int:
        return len(self.starts)

    def end(self, index: int) -> int:
        """The content offset just past line ``index`` (0-based), before its break."""
        return self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.content)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.starts)))]
        if index < 0:
            index += len(self.starts)
        if not 0 <= index < len(self.starts):
            raise IndexError("line index out of range")
        return self.content[self.starts[index] : self.end(index)]


LONG_LINE = 4096
"""Lines from this long up have the occurrences of their boundaries kept (a search of such a
line costs more than keeping what it found)."""
INDEX_AFTER = 8
"""Strings looked for on one long line before it is indexed (``lineindex.py``)."""


@dataclass(slots=True)
class Document:
    """A document of the session; its lines are ``content.split("\\n")``."""

    path: str
    content: str
    json_path: Path
    _lines: Lines | None = None
    carriage_return: bool | None = None  # whether the content holds a \r, once known
    _survey: Survey | None = None  # near misses looked for, kept
    _placed: dict[tuple[int, str, int, str], Any] | None = None  # placements of broken refs, kept
    _found: dict[tuple[int, str], tuple[list[int], int]] | None = None  # occurrences on long lines, kept
    _indexes: dict[int, int | LineIndex] | None = None  # a long line's LineIndex (or lookups so far)

    @property
    def lines(self) -> Lines:
        if self._lines is None:
            self._lines = Lines(self.content)
        return self._lines

    @property
    def line_starts(self) -> list[int]:
        """The content offset where each line starts (index 0 is line 1)."""
        return self.lines.starts

    def offset(self, line: int, column: int) -> int:
        """Content offset of a 1-based line and a 0-based column on it."""
        return self.line_starts[line - 1] + column

    def line_of_offset(self, offset: int) -> int:
        """The 1-based line holding a content offset."""
        return bisect_right(self.line_starts, offset)

    def occurrences(self, line: int, needle: str) -> tuple[list[int], int]:
        """Where ``needle`` occurs on line ``line`` (see ``occurrences.py``): on a long line,
        looked for once per document, however many boundaries name it (a thousand refs to
        `eta` on one 2 MB line cost one search, not a thousand)."""
        text = self.lines[line - 1]
        if len(text) < LONG_LINE:
            return occurrences(text, needle)
        if self._found is None:
            self._found, self._indexes = {}, {}
        key = (line, needle)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._looked_for(line, text, needle)
        return list(found[0]), found[1]

    def _looked_for(self, line: int, text: str, needle: str) -> tuple[list[int], int]:
        """A long line searched, or asked of its index once a few strings were looked for on it
        (building it costs a few scans of the line; each string then costs its own length)."""
        assert self._indexes is not None
        index = self._indexes.get(line, 0)
        if isinstance(index, int):  # strings looked for on it so far
            if index + 1 < INDEX_AFTER:
                self._indexes[line] = index + 1
                return occurrences(text, needle)
            index = self._indexes[line] = LineIndex(text)
        if index.absent(needle):
            return [], 0
        placed = index.find_all(needle, MAX_OCCURRENCES)
        return placed if placed is not None else occurrences(text, needle)

    def near_misses(self, line: int, needle: str, side: Side) -> list[NearMiss]:
        """What ``needle``, not on line ``line``, was meant to be (see ``nearmiss.py``), looked
        for once per document: the check's message and its fix ask alike."""
        return self.survey().near_misses(line, needle, side)

    def candidates(self, line: int, needle: str, side: Side) -> list[NearMiss]:
        """Every place of every kind ``needle`` may have meant (``nearmiss.py``), for a repair
        of its ref as a whole; each line around it searched once for all of them."""
        return self.survey().candidates(line, needle, side)

    def placed(self, start: Boundary, end: Boundary, work: Callable[[], T]) -> T:
        """What ``work`` finds of a ref's boundaries (placing.py's placements), found once per
        document for every ref whose boundaries are these: each of a ref's findings asks."""
        if self._placed is None:
            self._placed = {}
        key = (start.line, start.str, end.line, end.str)
        if key not in self._placed:
            self._placed[key] = work()
        return cast(T, self._placed[key])

    def survey(self) -> Survey:
        if self._survey is None:
            self._survey = Survey(self.lines)
        return self._survey


@dataclass(slots=True)
class Boundary:
    """``start`` or ``end`` of a ref, and where its ``str`` was found on its line."""

    line: int
    str: str
    side: Side  # its path is its ref's and this (see Session.boundary_path)
    occurrences: list[int] = field(default_factory=list)  # columns, counted overlapping
    occurrence_count: int = 0

    @property
    def resolved(self) -> bool:
        return self.occurrence_count == 1

    @property
    def column(self) -> int:
        """Column of the first character of the unique occurrence."""
        return self.occurrences[0]


@dataclass(slots=True)
class CheckedRef:
    """A claim or a source: a span of a document named by path and two boundaries."""

    # Its path in its annotation: ("claim",) or ("sources", index); its path in the file is
    # the session's to say (Session.ref_path), as an annotation moves in the array.
    tail: Path
    # A weak link back: an annotation holds its refs, and no cycle may keep a whole
    # analysis alive after the editor has moved on (reference counting frees it at once).
    annotation_link: weakref.ReferenceType[Annotation]
    raw: Any
    doc_path: str | None = None
    start: Boundary | None = None
    end: Boundary | None = None
    document: Document | None = None
    valid: bool = False
    # Content offsets of the resolved span, end exclusive (its text: ``text``).
    span: tuple[int, int] | None = None
    # Source-only metadata, as written (None when missing).
    polarity: Any = None
    confidence: Any = None

    @property
    def text(self) -> str | None:
        """The cited text, once resolved: sliced from the content when asked for (thirty
        thousand slices of a content holding an emoji took ~11 ms of opening a large session,
        for the few refs a request shows)."""
        span, document = self.span, self.document
        return document.content[span[0] : span[1]] if span is not None and document is not None else None

    @property
    def annotation(self) -> Annotation:
        annotation = self.annotation_link()
        assert annotation is not None, "a ref outlived its annotation"
        return annotation

    @property
    def is_source(self) -> bool:
        return self.tail[0] == "sources"

    @property
    def well_formed(self) -> bool:
        return self.start is not None and self.end is not None

    def moved(self, annotation: Annotation, document: Document | None) -> CheckedRef:
        """This ref, as checked, in another annotation object, resolved in ``document`` (the
        same document at another place in the file): what ``dataclasses.replace`` does, five
        times faster. Its boundaries are shared: a boundary does not know where it is (see
        :meth:`Session.boundary_path`)."""
        return CheckedRef(
            self.tail,
            weakref.ref(annotation),
            self.raw,
            self.doc_path,
            self.start,
            self.end,
            document,
            self.valid,
            self.span,
            self.polarity,
            self.confidence,
        )

    @property
    def coordinates(self) -> tuple[Any, ...]:
        """What makes two sources of one annotation the same (duplicate-source): a well-formed
        source's path and boundaries."""
        assert self.start is not None and self.end is not None
        return (self.doc_path, self.start.line, self.start.str, self.end.line, self.end.str)


# The slots the boundaries of a ref are kept in (a ResolvedRef reads them through properties).
_START_SLOT, _END_SLOT = CheckedRef.__dict__["start"], CheckedRef.__dict__["end"]


class ResolvedRef(CheckedRef):
    """A ref the check resolved in one go (see ``rules.valid_ref``): each boundary's ``str``
    found once on its line, at ``columns`` (start, end). Its :class:`Boundary` objects are
    made from its JSON value when one is first read (``columns`` is None from then on): a
    large session's 30,000 refs took two boundaries and two lists each, some 10 ms of
    opening it, for the few a request reads."""

    __slots__ = ("columns",)

    def __init__(
        self,
        tail: Path,
        annotation_link: weakref.ReferenceType[Annotation],
        raw: Any,
        doc_path: str,
        document: Document,
        span: tuple[int, int],
        polarity: Any,
        confidence: Any,
        columns: tuple[int, int] | None,
        boundaries: tuple[Boundary | None, Boundary | None] = (None, None),
    ) -> None:
        """``boundaries``: those made already (when ``columns`` is None)."""
        self.tail = tail
        self.annotation_link = annotation_link
        self.raw = raw
        self.doc_path = doc_path
        self.document = document
        self.valid = True
        self.span = span
        self.polarity = polarity
        self.confidence = confidence
        self.columns = columns
        if columns is None:  # else its boundary slots stay empty until one is read
            _START_SLOT.__set__(self, boundaries[0])
            _END_SLOT.__set__(self, boundaries[1])

    def _make_boundaries(self) -> None:
        columns = self.columns
        assert columns is not None
        start, end = self.raw["start"], self.raw["end"]
        _START_SLOT.__set__(self, Boundary(start["line"], start["str"], "start", [columns[0]], 1))
        _END_SLOT.__set__(self, Boundary(end["line"], end["str"], "end", [columns[1]], 1))
        self.columns = None

    @property
    def start(self) -> Boundary | None:
        if self.columns is not None:
            self._make_boundaries()
        boundary: Boundary | None = _START_SLOT.__get__(self, ResolvedRef)
        return boundary

    @start.setter
    def start(self, boundary: Boundary | None) -> None:
        if self.columns is not None:
            self._make_boundaries()
        _START_SLOT.__set__(self, boundary)

    @property
    def end(self) -> Boundary | None:
        if self.columns is not None:
            self._make_boundaries()
        boundary: Boundary | None = _END_SLOT.__get__(self, ResolvedRef)
        return boundary

    @end.setter
    def end(self, boundary: Boundary | None) -> None:
        if self.columns is not None:
            self._make_boundaries()
        _END_SLOT.__set__(self, boundary)

    @property
    def coordinates(self) -> tuple[Any, ...]:
        """See :attr:`CheckedRef.coordinates`: read off its JSON value, its boundaries not made."""
        start, end = self.raw["start"], self.raw["end"]
        return (self.doc_path, start["line"], start["str"], end["line"], end["str"])

    def moved(self, annotation: Annotation, document: Document | None) -> CheckedRef:
        """See :meth:`CheckedRef.moved`: its boundaries shared once made, else made when read."""
        # It resolved in a document (at another place in the file now).
        assert document is not None and self.doc_path is not None and self.span is not None
        columns = self.columns
        return ResolvedRef(
            self.tail,
            weakref.ref(annotation),
            self.raw,
            self.doc_path,
            document,
            self.span,
            self.polarity,
            self.confidence,
            columns,
            (None, None) if columns is not None else (_START_SLOT.__get__(self), _END_SLOT.__get__(self)),
        )


@dataclass(slots=True, weakref_slot=True, eq=False)
class Annotation:
    """An annotation of the array: the same object wherever it moves in it (its index is the
    session's to say, :meth:`Session.index_of`), compared by identity."""

    claim: CheckedRef | None = None
    sources: list[CheckedRef] = field(default_factory=list)


@dataclass(slots=True)
class Session:
    """A session with its documents, annotations and every ref in file order."""

    documents: list[Document] = field(default_factory=list)
    by_path: dict[str, Document] = field(default_factory=dict)
    annotations: list[Annotation] = field(default_factory=list)
    refs: list[CheckedRef] = field(default_factory=list)
    shape: str = "spec"  # "spec" ({documents, annotations}) or "cli" ({session, annotations})
    # Of each item of the annotations array, 1 if it is an annotation (an object), else 0;
    # None when every item is one (an annotation's index is then its place in the list).
    present: list[int] | None = None
    _indexes: dict[int, int] | None = None  # each annotation's index in the array, by identity, once asked
    _items: list[Annotation | None] | None = None  # the annotation of each item, once asked (see present)

    def index_of(self, annotation: Annotation) -> int:
        """The index in the annotations array of an annotation of this session."""
        indexes = self._indexes
        if indexes is None:
            # Made in C, once per version that is asked: 11,000 annotations in 0.5 ms.
            present = self.present
            positions = range(len(self.annotations)) if present is None else compress(range(len(present)), present)
            indexes = self._indexes = dict(zip(map(id, self.annotations), positions, strict=True))
        return indexes[id(annotation)]

    def annotation_items(self) -> Sequence[Annotation | None]:
        """The annotation of each item of the annotations array (None: no object there)."""
        if self.present is None:
            return self.annotations
        if self._items is None:
            annotations = iter(self.annotations)
            self._items = [next(annotations) if present else None for present in self.present]
        return self._items

    def annotation_at(self, index: int) -> Annotation | None:
        """The annotation at ``index`` of the annotations array (None: no object there)."""
        items = self.annotation_items()
        return items[index] if 0 <= index < len(items) else None

    def annotation_at_path(self, path: Path) -> Annotation | None:
        """The annotation whose JSON path is ``path`` (``("annotations", 3)``), if any."""
        if len(path) != 2 or path[0] != "annotations" or type(path[1]) is not int:
            return None
        return self.annotation_at(path[1])

    def annotation_path(self, annotation: Annotation) -> Path:
        """The JSON path of an annotation of this session (``("annotations", 3)``)."""
        return ("annotations", self.index_of(annotation))

    def ref_path(self, ref: CheckedRef) -> Path:
        """The JSON path of a ref of this session (``("annotations", 3, "sources", 0)``)."""
        return ("annotations", self.index_of(ref.annotation), *ref.tail)

    def ref_pointer(self, ref: CheckedRef) -> str:
        """The JSON pointer of a ref of this session (``/annotations/3/sources/0``): what
        ``pointer(ref_path(ref))`` gives, written at once (``--json`` writes 30,000)."""
        tail = ref.tail
        index = self.index_of(ref.annotation)
        if len(tail) == 1:
            return f"/annotations/{index}/{tail[0]}"
        return f"/annotations/{index}/{tail[0]}/{tail[1]}"

    def boundary_path(self, ref: CheckedRef, boundary: Boundary) -> Path:
        """The JSON path of one of a ref's boundaries (``(..., "claim", "start")``)."""
        return ("annotations", self.index_of(ref.annotation), *ref.tail, boundary.side)

    def ref_at_path(self, path: Path) -> CheckedRef | None:
        """The ref whose JSON path is ``path``, if any."""
        if len(path) < 3 or path[0] != "annotations" or type(path[1]) is not int:
            return None
        annotation = self.annotation_at(path[1])
        if annotation is None:
            return None
        if path[2:] == ("claim",):
            return annotation.claim
        if len(path) == 4 and path[2] == "sources" and type(path[3]) is int and 0 <= path[3] < len(annotation.sources):
            source = annotation.sources[path[3]]
            return source if source.tail == path[2:] else None
        return None

"""What is at a place in a session file: the questions editor features ask of an analysis.

Each answer is plain data (offsets, model objects, strings), computed from the analysis of
one text; nothing is parsed again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .analysis import Analysis
from .jsonnodes import JString
from .session import CheckedRef, Document, Path
from .verdicts import valid_confidence


def document_path_at(analysis: Analysis, offset: int) -> str | None:
    """The path of the document whose ``path`` (key or value) in the documents array is at
    ``offset``, when it names a document of the session."""
    place = analysis.place_at(offset)
    if place is None or len(place.path) < 3 or place.path[-1] != "path" or place.path[-3] != "documents":
        return None
    value = getattr(analysis.node(place.path), "value", None)
    return value if isinstance(value, str) and value in analysis.session.by_path else None


def path_under_cursor(analysis: Analysis, offset: int) -> tuple[str, JString] | None:
    """The document path at ``offset``, in the documents array or in a ref, and its string
    node (what a rename renames)."""
    place = analysis.place_at(offset)
    if place is None or not place.path or place.path[-1] != "path":
        return None
    node = analysis.node(place.path)
    if not isinstance(node, JString) or node.value not in analysis.session.by_path:
        return None
    if analysis.ref_at(offset) is None and document_path_at(analysis, offset) is None:
        return None
    return node.value, node


def enclosing_ref(analysis: Analysis, offset: int) -> tuple[CheckedRef | None, str | None]:
    """The ref whose value holds ``offset`` and the side (``start``/``end``) it is in."""
    place = analysis.place_at(offset)
    path: Path = place.path if place else ()
    ref_at_path = analysis.session.ref_at_path
    for length in range(len(path), 0, -1):
        ref = ref_at_path(path[:length])
        if ref is not None:
            side = path[length] if len(path) > length and path[length] in ("start", "end") else None
            return ref, side if isinstance(side, str) else None
    return None, None


def written_document(analysis: Analysis, ref: CheckedRef | None) -> Document | None:
    """The document a ref names as written (while it is being typed, maybe unresolved)."""
    if ref is None or not isinstance(ref.raw, dict):
        return None
    path = ref.raw.get("path")
    return analysis.session.by_path.get(path) if isinstance(path, str) else None


def written_line(ref: CheckedRef, side: str) -> int | None:
    """The ``line`` a ref's boundary names as written, if it is an integer."""
    boundary = ref.raw.get(side) if isinstance(ref.raw, dict) else None
    number = boundary.get("line") if isinstance(boundary, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


_KEY_BEFORE = re.compile(r'"(path|polarity|str|line)"\s*:\s*("(?:[^"\\]|\\.)*|-?\d*)$')


@dataclass(frozen=True, slots=True)
class Typing:
    """A value being typed after a key, on the cursor's line: which key, what is typed so
    far, and the offsets a completion replaces (inside the quotes when it is a string)."""

    key: str
    typed: str
    quoted: bool
    start: int
    end: int


def typing_at(analysis: Analysis, offset: int) -> Typing | None:
    """The value being typed at ``offset`` after ``"path"``, ``"polarity"``, ``"str"`` or
    ``"line"``. Read from the text of the cursor's line, so that it works in half-typed JSON
    (the tree says where values are only once they are written)."""
    text, lines = analysis.source, analysis.lines
    line = lines.line_of(offset)
    line_start, line_end = lines.starts[line], lines.line_end(line)
    match = _KEY_BEFORE.search(text[line_start:offset])
    if match is None:
        return None
    key, typed = match.group(1), match.group(2) or ""
    quoted = typed.startswith('"')
    start, end = offset - len(typed), offset
    if quoted:
        start += 1
        rest = text[offset:line_end]
        i = 0
        while i < len(rest) and rest[i] != '"':
            i += 2 if rest[i] == "\\" else 1
        end = offset + min(i, len(rest))
    return Typing(key, typed, quoted, start, end)


def annotation_being_written(analysis: Analysis, last_edit: int | None) -> int | None:
    """The index of the annotation a writer is working on: the one holding the place they
    last edited, else the last one without a source that resolves, else the last one."""
    annotations = analysis.session.annotations
    if not annotations:
        return None
    if last_edit is not None:
        around = analysis.annotations_between(last_edit, last_edit)
        if around:
            return around[0]
    for annotation in reversed(annotations):
        if not any(source.valid for source in annotation.sources):
            return analysis.session.index_of(annotation)
    return analysis.session.index_of(annotations[-1])


DEFAULT_CONFIDENCE = 0.7
"""A new source's confidence in a session without one: a reputable secondary source."""


def last_confidence(analysis: Analysis, index: int | None) -> int | float:
    """The confidence the writer gave the source before a new one: the last of annotation
    ``index``, else the last in the session; :data:`DEFAULT_CONFIDENCE` in a session without one."""
    annotation = analysis.session.annotation_at(index) if index is not None else None
    for group in ([*annotation.sources] if annotation is not None else [], analysis.session.refs):
        for ref in reversed(group):
            if ref.is_source and (value := valid_confidence(ref.confidence)) is not None:
                return value
    return DEFAULT_CONFIDENCE


def content_selection(analysis: Analysis, start: int, end: int) -> tuple[Document, int, int] | None:
    """The document and content offsets ``[start, end)`` that a selection of the session
    file's text ``[start, end)`` covers, when it lies inside one ``content`` string."""
    if end <= start:
        return None
    first = analysis.document_at(start)
    last = analysis.document_at(end - 1)
    if first is None or last is None or first[0] is not last[0]:
        return None
    return first[0], first[1], last[1] + 1


_LINE_WORDS_BEFORE = re.compile(r'"line"\s*:\s*([^\s",:{}\[\]]+)$')


def line_words_at(analysis: Analysis, offset: int) -> Typing | None:
    """Words typed where a ``line`` number goes (``"line": cat``): what line completion
    replaces with the number of a line whose text they are in. Read from the cursor's line,
    as :func:`typing_at` reads it."""
    line = analysis.lines.line_of(offset)
    match = _LINE_WORDS_BEFORE.search(analysis.source[analysis.lines.starts[line] : offset])
    if match is None:
        return None
    return Typing("line", match.group(1), False, offset - len(match.group(1)), offset)

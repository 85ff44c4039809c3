"""Re-anchoring: carrying refs across a change of their documents (RULES.md, "`sync`").

A session is a snapshot: its documents are what its author read. When a document's file
has changed, each ref into it is either

- **kept**: the text it cites survives the change. It is re-anchored to the place that
  text moved to, found by aligning the old content with the new as a diff does (lines
  first, then words and characters within the lines that changed), so that a copy of the
  text elsewhere is never taken for it. Its lines are updated; its boundary strings stay
  where they are still unique on their lines, else they are made again, the shortest
  unique ones (as the cite actions make them);
- **changed**: its text was edited or deleted. What now stands at its place (the aligned
  text) is found when there is some, with the coordinates that would cite it, for a
  person to judge: a changed ref is never carried over silently.

Everything here is pure: :func:`plan` takes the analysis of the session and what reading
each document's file gave, and says what happens to every document and ref;
:func:`edits` turns a plan into replacements of the session's text (the CLI writes them,
the editor offers them as code actions). Reading the files is ``disk.py``'s business.
"""

from __future__ import annotations

import difflib
import re
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal

from .analysis import Analysis
from .display import shorten, visible
from .jsonlex import encode_string
from .occurrences import occurrences
from .refs import Boundaries, cite
from .session import Document, Ref, pointer

MAX_CHARACTER_DIFF = 200
"""The longest word that is aligned character by character when it replaces another."""

_TOKENS = re.compile(r"\w+|[^\w\s]")
"""The words of a line and each mark between them; the spaces between are compared apart."""
MAX_EXACT_TOKENS = 5000
"""Words in a run of changed lines above which the word alignment lets difflib skip the most
frequent ones (its "autojunk" heuristic): the exact alignment costs quadratic time there."""


# --- alignment -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Alignment:
    """Where the characters of an old content are in the new one: runs of equal text,
    ``(old start, new start, length)``, in increasing order on both sides, never touching
    (adjacent runs are one)."""

    runs: tuple[tuple[int, int, int], ...]
    new_length: int

    def moved(self, start: int, end: int) -> tuple[int, int] | None:
        """Where the old characters ``[start, end)`` are in the new content, when all of them
        survive together (one run holds them); None when any was edited or deleted."""
        index = bisect_right(self.runs, start, key=_old_start) - 1
        if index < 0:
            return None
        old, new, length = self.runs[index]
        if end > old + length:
            return None
        return new + start - old, new + end - old

    def aligned(self, start: int, end: int) -> tuple[int, int]:
        """The new content's range at the place of the old ``[start, end)``: from just after
        the last character before it that survives (or its own first, if it survives) to just
        before the first character after it that survives (or after its own last)."""
        runs = self.runs
        index = bisect_right(runs, start, key=_old_start) - 1
        if index >= 0 and start < runs[index][0] + runs[index][2]:
            begin = runs[index][1] + start - runs[index][0]
        else:
            begin = runs[index][1] + runs[index][2] if index >= 0 else 0
        index = bisect_right(runs, end - 1, key=_old_start) - 1
        if index >= 0 and end - 1 < runs[index][0] + runs[index][2]:
            finish = runs[index][1] + end - runs[index][0]
        else:
            finish = runs[index + 1][1] if index + 1 < len(runs) else self.new_length
        return begin, max(begin, finish)


def _old_start(run: tuple[int, int, int]) -> int:
    return run[0]


_LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")


def align(old: str, new: str) -> Alignment:
    """Align two contents as a diff does: lines first (each with its line break, as diff
    compares them); within a run of changed lines, words (and the spaces and marks between
    them); an edited word, character by character."""
    runs: list[tuple[int, int, int]] = []
    old_lines, new_lines = _LINES.findall(old), _LINES.findall(new)
    old_starts = [0, *accumulate(map(len, old_lines))]
    new_starts = [0, *accumulate(map(len, new_lines))]
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _add(runs, old_starts[i1], new_starts[j1], old_starts[i2] - old_starts[i1])
        elif tag == "replace":
            _align_words(runs, old, new, old_starts[i1], old_starts[i2], new_starts[j1], new_starts[j2])
    return Alignment(tuple(runs), len(new))


def _add(runs: list[tuple[int, int, int]], old: int, new: int, length: int) -> None:
    if length <= 0:
        return
    if runs:
        last_old, last_new, last_length = runs[-1]
        if last_old + last_length == old and last_new + last_length == new:
            runs[-1] = (last_old, last_new, last_length + length)
            return
    runs.append((old, new, length))


def _align_words(
    runs: list[tuple[int, int, int]], old: str, new: str, old_begin: int, old_end: int, new_begin: int, new_end: int
) -> None:
    """Align a run of changed lines: either as one text, word by word (a paragraph reflowed,
    words edited across lines), or line with most similar line (lines edited among others
    deleted or inserted); whichever aligns more characters. Either way only what aligns the
    same lines edited is kept (see :func:`_edited_lines_only`)."""
    old_lines, new_lines = _line_ranges(old, old_begin, old_end), _line_ranges(new, new_begin, new_end)
    joined = _joined_runs(old, new, old_lines, new_lines)
    paired = _paired_runs(old, new, old_lines, new_lines)
    best = paired if sum(n for _, _, n in paired) > sum(n for _, _, n in joined) else joined
    for run in best:
        _add(runs, *run)


def _line_ranges(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """The (start, end) of each line of ``text[begin:end]``, without its line break."""
    found, at = [], begin
    while True:
        stop = text.find("\n", at, end)
        if stop < 0:
            found.append((at, end))
            return found
        found.append((at, stop))
        at = stop + 1


MAX_ROUNDS = 12
"""Times a run of changed lines is aligned again as one text, each time without its line that
aligned least (a line deleted or inserted among edited ones can draw their words to itself)."""


def _joined_runs(
    old: str, new: str, old_lines: list[tuple[int, int]], new_lines: list[tuple[int, int]]
) -> list[tuple[int, int, int]]:
    """Align a run of changed lines as one text, word by word (see :func:`_word_runs`),
    leaving out, one at a time, the line with the least of its characters aligned while it
    is below :data:`EDITED`; then keep what aligns lines that are the same lines edited."""
    for _ in range(MAX_ROUNDS):
        found = _word_runs(old, new, old_lines, new_lines)
        pieces = _cut_at_breaks(found, old, new)
        shares_old = _line_shares(old, old_lines, [(a, n) for a, _, n in pieces])
        shares_new = _line_shares(new, new_lines, [(b, n) for _, b, n in pieces])
        worst = min(
            [(share, 0, line) for line, share in shares_old.items()]
            + [(share, 1, line) for line, share in shares_new.items()],
            default=None,
        )
        if worst is None or worst[0] >= EDITED:
            break
        if worst[1] == 0:
            old_lines = [line for line in old_lines if line[0] != worst[2]]
        else:
            new_lines = [line for line in new_lines if line[0] != worst[2]]
    return _edited_lines_only(_word_runs(old, new, old_lines, new_lines), old, new, old_lines, new_lines)


MAX_PAIRS = 400
"""Line pairs of a run of changed lines compared for similarity at most (else it is aligned as one text)."""
SIMILAR = 0.5
"""The similarity of their words from which two lines count as one line edited."""


def _paired_runs(
    old: str,
    new: str,
    old_lines: list[tuple[int, int]],
    new_lines: list[tuple[int, int]],
    ends: tuple[int, int] | None = None,
) -> list[tuple[int, int, int]]:
    """Align the most similar pair of lines word by word, then the lines before it and after it
    in the same way, as ``difflib.Differ`` pairs the lines of a replaced run (which ends at
    ``ends``, old and new: by default where the last of these lines do)."""
    if not old_lines or not new_lines or len(old_lines) * len(new_lines) > MAX_PAIRS:
        return []
    words_old = [_TOKENS.findall(old, a, b) for a, b in old_lines]
    words_new = [_TOKENS.findall(new, a, b) for a, b in new_lines]
    best, pair = SIMILAR, None
    for i, a in enumerate(words_old):
        for j, b in enumerate(words_new):
            matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
            if matcher.real_quick_ratio() > best and matcher.quick_ratio() > best and matcher.ratio() > best:
                best, pair = matcher.ratio(), (i, j)
    if pair is None:
        return []
    i, j = pair
    (a0, a1), (b0, b1) = old_lines[i], new_lines[j]
    middle = _edited_lines_only(_word_runs(old, new, [(a0, a1)], [(b0, b1)]), old, new, [(a0, a1)], [(b0, b1)])
    old_end, new_end = ends or (old_lines[-1][1], new_lines[-1][1])
    if a1 < old_end and b1 < new_end:
        # the line break after the pair: one follows each line but the run's last (a pair
        # of lines after it, empty ones say, may have been paired first)
        middle.append((a1, b1, 1))
    return (
        _paired_runs(old, new, old_lines[:i], new_lines[:j], (old_end, new_end))
        + middle
        + _paired_runs(old, new, old_lines[i + 1 :], new_lines[j + 1 :], (old_end, new_end))
    )


def _word_runs(
    old: str, new: str, old_lines: list[tuple[int, int]], new_lines: list[tuple[int, int]]
) -> list[tuple[int, int, int]]:
    """Align the words of some lines of ``old`` with those of some lines of ``new``, in order:
    each word with the spaces before it when they are the same; one word for another
    ("optionally" for "optional") character by character."""
    if not old_lines or not new_lines:
        return []
    old_tokens = [(m.start(), m.group()) for a, b in old_lines for m in _TOKENS.finditer(old, a, b)]
    new_tokens = [(m.start(), m.group()) for a, b in new_lines for m in _TOKENS.finditer(new, a, b)]
    old_begin, old_end, new_begin, new_end = old_lines[0][0], old_lines[-1][1], new_lines[0][0], new_lines[-1][1]
    found: list[tuple[int, int, int]] = []
    # Every word counts (no "junk" heuristic) unless the run is long enough for it to cost.
    autojunk = max(len(old_tokens), len(new_tokens)) > MAX_EXACT_TOKENS
    matcher = difflib.SequenceMatcher(None, [t for _, t in old_tokens], [t for _, t in new_tokens], autojunk)

    def gap_before(tokens: list[tuple[int, str]], index: int, begin: int) -> int:
        return tokens[index - 1][0] + len(tokens[index - 1][1]) if index > 0 else begin

    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                (a, word), (b, _) = old_tokens[i1 + k], new_tokens[j1 + k]
                gap_old, gap_new = gap_before(old_tokens, i1 + k, old_begin), gap_before(new_tokens, j1 + k, new_begin)
                if old[gap_old:a] == new[gap_new:b]:
                    _add(found, gap_old, gap_new, a - gap_old)
                _add(found, a, b, len(word))
            # and the spaces after its last word, when they are the same
            a, b = gap_before(old_tokens, i2, old_begin), gap_before(new_tokens, j2, new_begin)
            a_end = old_tokens[i2][0] if i2 < len(old_tokens) else old_end
            b_end = new_tokens[j2][0] if j2 < len(new_tokens) else new_end
            if old[a:a_end] == new[b:b_end]:
                _add(found, a, b, a_end - a)
        elif tag == "replace" and i2 - i1 == j2 - j1 == 1:
            (a_begin, a_word), (b_begin, b_word) = old_tokens[i1], new_tokens[j1]
            if max(len(a_word), len(b_word)) <= MAX_CHARACTER_DIFF:
                characters = difflib.SequenceMatcher(None, a_word, b_word, autojunk=False)
                for a, b, size in characters.get_matching_blocks():
                    _add(found, a_begin + a, b_begin + b, size)
    return found


EDITED = 0.5
"""The share of a line's words that must align for it to count as the same line edited; below
it, a line is taken as deleted (or, on the new side, as new), so that a sentence rewritten
whole never lends one of its words to a ref that cited the old one."""


def _cut_at_breaks(found: list[tuple[int, int, int]], old: str, new: str) -> list[tuple[int, int, int]]:
    """The runs of ``found`` cut at the old and the new line breaks."""
    pieces: list[tuple[int, int, int]] = []
    for a, b, size in found:
        while size > 0:
            stop = min(size, _to_break(old, a, a + size), _to_break(new, b, b + size))
            pieces.append((a, b, stop))
            a, b, size = a + stop, b + stop, size - stop
    return pieces


def _edited_lines_only(
    found: list[tuple[int, int, int]],
    old: str,
    new: str,
    old_lines: list[tuple[int, int]],
    new_lines: list[tuple[int, int]],
) -> list[tuple[int, int, int]]:
    """The runs of ``found`` (cut at line breaks) whose old line and new line both have at
    least :data:`EDITED` of their characters aligned."""
    pieces = _cut_at_breaks(found, old, new)
    shares_old = _line_shares(old, old_lines, [(a, n) for a, _, n in pieces])
    shares_new = _line_shares(new, new_lines, [(b, n) for _, b, n in pieces])
    return [
        (a, b, n)
        for a, b, n in pieces
        if shares_old.get(old.rfind("\n", 0, a) + 1, 0.0) >= EDITED
        and shares_new.get(new.rfind("\n", 0, b) + 1, 0.0) >= EDITED
    ]


def _to_break(text: str, start: int, end: int) -> int:
    """How many characters from ``start`` up to and including the next line break (before ``end``)."""
    at = text.find("\n", start, end)
    return end - start if at < 0 else at + 1 - start


_WORD = re.compile(r"\w+")


def _line_shares(text: str, lines: list[tuple[int, int]], matched: list[tuple[int, int]]) -> dict[int, float]:
    """For each of ``lines`` (by its start), the share of its words (letters and digits) that
    lie whole in the ``matched`` (start, length) pieces; a line without words counts as whole."""
    pieces = sorted(matched)
    starts = [a for a, _ in pieces]
    shares: dict[int, float] = {}
    for start, stop in lines:
        words = [(m.start(), m.end()) for m in _WORD.finditer(text, start, stop)]
        if not words:
            shares[start] = 1.0
            continue
        whole = 0
        for a, b in words:
            index = bisect_right(starts, a) - 1
            whole += index >= 0 and pieces[index][0] + pieces[index][1] >= b
        shares[start] = whole / len(words)
    return shares


# --- what happens to each ref ------------------------------------------------------------

RefState = Literal["kept", "changed"]


@dataclass(frozen=True, slots=True)
class RefDrift:
    """What a change of its document does to a ref that resolved before it."""

    ref: Ref  # in the analysis of the session as it is
    state: RefState
    was: str  # the text it cites in the session
    now: str | None  # the text at its place in the new content (kept: ``was``); None: deleted
    anchor: Boundaries | None  # coordinates that cite ``now`` in the new content; None: none can
    reason: str | None = None  # why a ref whose text survived cannot be carried (no unique boundary)

    @property
    def pointer(self) -> str:
        return pointer(self.ref.json_path)

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


def _place(document: Document, start: int, end: int, ref: Ref) -> tuple[Boundaries | None, str | None]:
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
    keeps_start = occurrences(start_line, start_str) == ([start_column], 1)
    keeps_end = occurrences(end_line, end_str) == ([end_column - len(end_str)], 1)
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


def _word_edge(text: str, at: int) -> bool:
    """Whether ``at`` is not inside a word of ``text`` (letters, digits or ``_`` on both sides)."""
    return at <= 0 or at >= len(text) or _INSIDE_A_WORD.match(text, at - 1) is None


def carry(ref: Ref, alignment: Alignment, new: Document) -> RefDrift:
    """What becomes of a resolved ref when its document's content becomes ``new``'s. Its text
    must survive whole, and as whole words where it was (``A`` does not survive in ``After``)."""
    assert ref.span is not None and ref.text is not None and ref.document is not None
    was, old, content = ref.text, ref.document.content, new.content
    start, end = ref.span
    moved = alignment.moved(start, end)
    if (
        moved is not None
        and _word_edge(old, start) == _word_edge(content, moved[0])
        and _word_edge(old, end) == _word_edge(content, moved[1])
    ):
        anchor, reason = _place(new, *moved, ref)
        if anchor is not None:
            return RefDrift(ref, "kept", was, was, anchor)
        return RefDrift(ref, "changed", was, was, None, f"its text is still there, but {reason}")
    # What stands at its place now, as whole words where it was whole words.
    begin, finish = moved if moved is not None else alignment.aligned(start, end)
    while _word_edge(old, start) and not _word_edge(content, begin):
        begin -= 1
    while _word_edge(old, end) and not _word_edge(content, finish):
        finish += 1
    while begin < finish and content[begin] == "\n":
        begin += 1
    while finish > begin and content[finish - 1] == "\n":
        finish -= 1
    if begin >= finish:
        return RefDrift(ref, "changed", was, None, None)
    anchor, reason = _place(new, begin, finish, ref)
    if content[begin:finish] == was:  # its very text stands at its place, aligned in pieces
        if anchor is not None:
            return RefDrift(ref, "kept", was, was, anchor)
        return RefDrift(ref, "changed", was, was, None, f"its text is still there, but {reason}")
    return RefDrift(ref, "changed", was, content[begin:finish], anchor)


# --- what happens to each document ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FileContent:
    """A document's file, read: its content as a document's (LF line breaks), and what
    normalizing it changed (None: nothing)."""

    content: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A document's file that could not be read, and why (said for a person)."""

    reason: str


FileState = FileContent | Unreadable
DocumentState = Literal["same", "changed", "unreadable"]


@dataclass(frozen=True, slots=True)
class DocumentDrift:
    """A document of the session beside its file."""

    document: Document
    state: DocumentState
    file: FileState
    refs: tuple[RefDrift, ...] = ()  # the resolved refs into it, when it changed
    unresolved: int = 0  # refs into it that did not resolve before (left as they are)

    @property
    def changed_refs(self) -> list[RefDrift]:
        return [ref for ref in self.refs if ref.state == "changed"]

    @property
    def kept_refs(self) -> list[RefDrift]:
        return [ref for ref in self.refs if ref.state == "kept"]

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

    def updated(self, accept: bool) -> list[DocumentDrift]:
        """The documents a sync brings up to date: those whose citations all survive, or with
        ``accept`` every one whose file could be read."""
        return [d for d in self.documents if d.state == "changed" and (accept or d.all_kept)]


Carried = dict[int, tuple[object, tuple[int, int], RefDrift]]
"""What carrying refs across one change gave, by the identity of each ref's JSON value (kept
with it, and with its span): the same ref in the next version of the session (an edit
elsewhere) is not carried again."""
Alignments = dict[tuple[int, int], tuple[str, str, Alignment, Carried]]
"""Alignments made before, by the identities of their old and new contents (with the contents,
so that an identity reused by another string is never taken for it), and the refs carried."""


def plan(analysis: Analysis, files: Mapping[str, FileState], alignments: Alignments | None = None) -> Drift:
    """What bringing each document of ``analysis`` (by path, as refs resolve against them) up
    to date with ``files[path]`` does to it and to the refs into it. ``alignments`` keeps the
    alignment of each changed content from one call to the next (the editor asks on every
    version of the session)."""
    refs_into: dict[str, list[Ref]] | None = None
    found = []
    used: set[tuple[int, int]] = set()
    for path, document in analysis.session.by_path.items():
        file = files.get(path)
        if file is None:
            continue
        if isinstance(file, Unreadable):
            found.append(DocumentDrift(document, "unreadable", file))
        elif file.content is document.content or file.content == document.content:
            found.append(DocumentDrift(document, "same", file))
        else:
            if refs_into is None:  # only when some document changed: a walk over every ref
                refs_into = {}
                for ref in analysis.session.refs:
                    if ref.document is not None and ref.doc_path is not None:
                        refs_into.setdefault(ref.doc_path, []).append(ref)
            found.append(_changed(document, file, refs_into.get(path, []), alignments, used))
    if alignments is not None:  # those of contents no longer compared go
        for key in [key for key in alignments if key not in used]:
            del alignments[key]
    return Drift(analysis, tuple(found))


def _changed(
    document: Document, file: FileContent, refs: list[Ref], alignments: Alignments | None, used: set[tuple[int, int]]
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
        if not ref.valid or ref.span is None:
            continue
        cached = before.get(id(ref.raw))
        if cached is not None and cached[0] is ref.raw and cached[1] == ref.span:
            found = cached[2]
            if found.ref is not ref:  # the same ref, elsewhere in the file now
                found = RefDrift(ref, found.state, found.was, found.now, found.anchor, found.reason)
        else:
            found = carry(ref, alignment, new)
        now[id(ref.raw)] = (ref.raw, ref.span, found)
        carried.append(found)
    if alignments is not None:
        alignments[key] = (document.content, file.content, alignment, now)
    unresolved = sum(1 for ref in refs if not (ref.valid and ref.span is not None))
    return DocumentDrift(document, "changed", file, tuple(carried), unresolved)


# --- what to tell a person ------------------------------------------------------------------

DOCUMENT_CHANGED = "source-changed"
DOCUMENT_UNREADABLE = "source-unreadable"
REF_CHANGED = "cited-text-changed"
"""The codes of what the editor says of drift (diagnostics, not findings: the check of a
session's text knows nothing of files)."""


def _named(path: str) -> str:
    return "`" + visible(shorten(path, 80)) + "`"


def _refs(count: int) -> str:
    return f"{count} ref{'s' if count != 1 else ''}"


def _quoted(text: str | None) -> str:
    return '"' + visible(shorten(text, 60)) + '"' if text is not None else "nothing (deleted)"


def document_said(drift: DocumentDrift) -> tuple[str, str, bool] | None:
    """What to say of a document beside its file: (code, message, whether it is a warning
    rather than information); None when it equals its file."""
    name = _named(drift.document.path)
    if isinstance(drift.file, Unreadable):
        return (
            DOCUMENT_UNREADABLE,
            f"the file of {name} is not read: {visible(drift.file.reason)}; this document is kept as it is",
            "outside" in drift.file.reason,
        )
    if drift.state != "changed":
        return None
    kept, changed = len(drift.kept_refs), len(drift.changed_refs)
    moving = sum(1 for ref in drift.kept_refs if ref.moves)
    moves = f"{_refs(kept)} {'keeps its' if kept == 1 else 'keep their'} text" + (
        f" ({moving} re-anchored)" if moving else ""
    )
    if not changed:
        message = (
            f"the file of {name} has changed on disk: {moves}; sync the document to bring it up to date (the quick "
            "fix re-anchors them)"
        )
        return DOCUMENT_CHANGED, message, False
    message = (
        f"the file of {name} has changed on disk: {moves}, {_refs(changed)} {'cites' if changed == 1 else 'cite'} "
        "text that changed; the session still cites the text as it was: judge the changed refs, then accept the new "
        "text"
    )
    return DOCUMENT_CHANGED, message, True


def ref_said(drift: DocumentDrift, ref: RefDrift) -> str:
    """What to say of a ref whose text changed on disk: what it cited, what stands there now."""
    message = (
        f"this ref cites text of {_named(drift.document.path)} that changed on disk: was {_quoted(ref.was)}, now "
        f"{_quoted(ref.now)}"
    )
    return message + (f" ({visible(ref.reason)})" if ref.reason is not None else "")


# --- the session's text --------------------------------------------------------------------

TextEdit = tuple[int, int, str]
"""Replace ``[start, end)`` of the session's text with a string."""


def document_edits(analysis: Analysis, drift: DocumentDrift, accept: bool) -> list[TextEdit]:
    """The replacements that bring one document up to date in the session's text: its
    ``content``, and the coordinates of each ref carried over (with ``accept``, each changed
    ref too, to the aligned text, when some can be cited there)."""
    content = drift.content
    node = analysis.content_node(drift.document)
    if content is None or node is None:
        return []
    found: list[TextEdit] = [(node.start, node.end, encode_string(content))]
    for ref in drift.refs:
        if ref.anchor is None or not ref.moves or (ref.state == "changed" and not accept):
            continue
        found += _ref_edits(analysis, ref)
    return found


def _ref_edits(analysis: Analysis, drift: RefDrift) -> list[TextEdit]:
    ref, anchor = drift.ref, drift.anchor
    assert anchor is not None and ref.start is not None and ref.end is not None
    found: list[TextEdit] = []
    for side, boundary, line, text in (
        ("start", ref.start, anchor.start_line, anchor.start_str),
        ("end", ref.end, anchor.end_line, anchor.end_str),
    ):
        for key, old, new in (("line", boundary.line, line), ("str", boundary.str, text)):
            if old == new:
                continue
            node = analysis.node(ref.json_path + (side, key))
            if node is not None:
                found.append((node.start, node.end, str(new) if key == "line" else encode_string(str(new))))
    return found


def edits(drift: Drift, accept: bool = False) -> list[TextEdit]:
    """Every replacement of the session's text a sync makes (non-overlapping, in order)."""
    found = [edit for document in drift.updated(accept) for edit in document_edits(drift.analysis, document, accept)]
    return sorted(found)


def applied(text: str, replacements: list[TextEdit]) -> str:
    """``text`` with non-overlapping replacements made."""
    pieces, at = [], 0
    for start, end, new in sorted(replacements):
        pieces += [text[at:start], new]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


__all__ = [
    "Alignment",
    "Drift",
    "DocumentDrift",
    "FileContent",
    "RefDrift",
    "Unreadable",
    "align",
    "applied",
    "carry",
    "document_edits",
    "edits",
    "plan",
]

"""Every fix of a finding, as data: edits of the file's text, a message, an applicability.

One place for the editor's quick fixes, ``sourcecheck --fix`` and the ``fix`` /
``suggestions`` of ``--json`` (docs/rules.md, "`--fix`, and fixes in `--json`"):

- **safe**: the repaired ref cites what the mistaken one evidently meant: the same characters
  but for quote style, letter case or runs of whitespace, found once on the named line; a
  polarity written in another case or form (``support``); a number written as a string
  (``"0.9"``, ``"3"``); a path that matches exactly one document but for case or extension;
  CRLF content normalized; the session shape repaired without dropping anything;
- **unsafe**: anything that guesses: a line off by one or two, a trailing period dropped,
  an occurrence chosen, ``95`` read as ``0.95``, a key renamed, an annotation removed.

A finding with one repair has a *fix*; one with several (which occurrence was meant?) has
*suggestions* and no fix. Every fix that moves a boundary to another line or changes its
string says, in its message, the text the ref would then cite; only a safe fix is ever
preferred. Each fix replaces only the values it fixes (or moves or removes whole items).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Literal, Protocol

from .analysis import Analysis
from .brokenstrings import missing_opening_quote, opening_quote_message
from .display import title_quote, visible
from .extend import Extension, extensions, span_resolves
from .jsonlex import encode_string, escape_lone_surrogates
from .jsonnodes import JArray, JObject, JString
from .meant import confidence_meant, confidence_text, polarity_word
from .messages import misspellings, stem
from .nearmiss import NearMiss, lines_holding_once
from .occurrences import occurrences
from .refs import Boundaries, resolves_to
from .schema import fields_of
from .session import Document, Finding, Path, Ref, Side

Applicability = Literal["safe", "unsafe"]
TITLE_WIDTH = 60


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the file's text ``[start, end)`` with ``text``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """One repair of a finding."""

    title: str  # what it does, quoting the exact replacement and, for a ref, what it then cites
    edits: tuple[Edit, ...]
    applicability: Applicability = "unsafe"

    @property
    def safe(self) -> bool:
        return self.applicability == "safe"


def apply(text: str, edits: Sequence[Edit]) -> str:
    """The text with non-overlapping edits applied."""
    pieces, at = [], 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        pieces += [text[at : edit.start], edit.text]
        at = edit.end
    pieces.append(text[at:])
    return "".join(pieces)


def _quoted(text: str, width: int = TITLE_WIDTH) -> str:
    return title_quote(text, width)


class Spanned(Protocol):
    """A value's place in the file's text."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Extent:
    start: int
    end: int


def _value(analysis: Analysis, path: Path) -> Extent | None:
    """Where the value at ``path`` is in the text, found without decoding its item again (a
    large session's ``--json`` asks this of a thousand findings)."""
    found = analysis.tree.locate(path)
    return Extent(*found) if found is not None else None


def _replace(node: Spanned | None, text: str) -> tuple[Edit, ...]:
    return (Edit(node.start, node.end, text),) if node is not None else ()


def _cites(ref: Ref, start: tuple[int, str], end: tuple[int, str]) -> str | None:
    """The text ``ref`` would cite with these (line, str) boundaries (None: it would not resolve)."""
    if ref.document is None or ref.doc_path is None:
        return None
    return resolves_to(ref.document, Boundaries(ref.doc_path, start[0], start[1], end[0], end[1]))


def _cite_note(text: str | None) -> str:
    return f": cites {_quoted(text)}" if text is not None else ""


def _boundaries(ref: Ref, side: str, line: int, text: str) -> tuple[tuple[int, str], tuple[int, str]]:
    """The ref's (line, str) boundaries with one of them replaced."""
    assert ref.start is not None and ref.end is not None
    start = (line, text) if side == "start" else (ref.start.line, ref.start.str)
    end = (line, text) if side == "end" else (ref.end.line, ref.end.str)
    return start, end


# --- boundaries --------------------------------------------------------------------------


def extension_title(extension: Extension) -> str:
    new = _quoted(extension.new_str, TITLE_WIDTH // 2)
    if extension.span_text is not None:
        return f"Extend {extension.side} to {new}{_cite_note(extension.span_text)}"
    return f"Extend {extension.side} to {new} (occurrence {extension.occurrence}, column {extension.column + 1})"


def extend_boundary(analysis: Analysis, finding: Finding) -> list[Fix]:
    """One extension per occurrence the author can mean (which one: only they know)."""
    if finding.ref is None:
        return []
    found = extensions(finding.ref, str(finding.path[-2]))
    node = _value(analysis, finding.path)
    return [Fix(extension_title(e), _replace(node, encode_string(e.new_str))) for e in found]


def _side_of(finding: Finding) -> Side:
    return "start" if finding.path[-2] == "start" else "end"


def not_found(analysis: Analysis, finding: Finding) -> list[Fix]:
    """The text the boundary was meant to be (core/nearmiss.py): on its line, written with
    other quotes, case or spacing (safe when found once), or without what a model adds; or
    on a line either side (a line off by one or two). A boundary is moved to another line
    alone only when the other one resolves, so that what the ref would cite is known; when
    neither does, the whole ref is moved, both lines by as much (see :func:`shifted_ref`)."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    side = _side_of(finding)
    boundary, other = (ref.start, ref.end) if side == "start" else (ref.end, ref.start)
    if not other.resolved:
        # Neither boundary resolves: the strings found as written on lines as far off as each
        # other say the ref's lines are off (what it would cite is known); else only what
        # guesses nothing (the same characters but for quotes, case, spacing) is offered.
        shifted = shifted_ref(analysis, ref)
        if shifted:
            return shifted
    fixes = []
    for miss in document_near_misses(ref.document, boundary.line, boundary.str, side):
        if not other.resolved and not miss.safe:
            continue
        start, end = _boundaries(ref, side, miss.line, miss.text)
        cited = _cites(ref, start, end)
        if other.resolved and cited is None:
            continue  # it would run backward, or resolve nowhere: not a repair
        edits: tuple[Edit, ...] = ()
        if miss.text != boundary.str:
            edits += _replace(_value(analysis, ref.boundary_path(boundary) + ("str",)), encode_string(miss.text))
        if miss.line != boundary.line:
            edits += _replace(_value(analysis, ref.boundary_path(boundary) + ("line",)), str(miss.line))
        if miss.line == boundary.line:
            title = f"Write {_quoted(miss.text, 40)}, the line's exact text{_cite_note(cited)}"
        elif miss.text == boundary.str:
            title = f"Move {side} to line {miss.line}, where {_quoted(miss.text, 30)} is unique{_cite_note(cited)}"
        else:
            title = f"Move {side} to line {miss.line} as {_quoted(miss.text, 30)}{_cite_note(cited)}"
        fixes.append(Fix(title, edits, "safe" if miss.safe else "unsafe"))
    if not fixes and not other.resolved:
        fixes = shifted_ref(analysis, ref)
    return fixes


def shifted_ref(analysis: Analysis, ref: Ref) -> list[Fix]:
    """A ref whose two lines are off by as much (one or two, up or down): moved whole, where
    it then resolves (what it would cite is known, so the repair can be judged)."""
    assert ref.start is not None and ref.end is not None and ref.document is not None
    fixes = []
    for delta in (-1, 1, -2, 2):
        start, end = (ref.start.line + delta, ref.start.str), (ref.end.line + delta, ref.end.str)
        cited = _cites(ref, start, end)
        if cited is None:
            continue
        edits = (
            *_replace(_value(analysis, ref.boundary_path(ref.start) + ("line",)), str(start[0])),
            *_replace(_value(analysis, ref.boundary_path(ref.end) + ("line",)), str(end[0])),
        )
        where = f"lines {start[0]}-{end[0]}" if start[0] != end[0] else f"line {start[0]}"
        fixes.append(
            Fix(f"Move the ref to {where} ({abs(delta)} {'down' if delta > 0 else 'up'}){_cite_note(cited)}", edits)
        )
    return fixes


def document_near_misses(document: Document, line: int, needle: str, side: Side) -> list[NearMiss]:
    """:func:`~.nearmiss.near_misses` of a document's line, kept with the document (the check's
    message and the fix ask the same)."""
    return document.near_misses(line, needle, side)


def line_out_of_range(analysis: Analysis, finding: Finding) -> list[Fix]:
    """A line number past the document: the lines where ``str`` occurs exactly once, when the
    other boundary resolves (so that what the ref would cite is known)."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    side = _side_of(finding)
    boundary, other = (ref.start, ref.end) if side == "start" else (ref.end, ref.start)
    if not other.resolved:
        return shifted_ref(analysis, ref)
    fixes = []
    document = ref.document
    for line in lines_holding_once(document.content, document.line_starts, boundary.str):
        cited = _cites(ref, *_boundaries(ref, side, line, boundary.str))
        if cited is None:
            continue
        node = _value(analysis, ref.boundary_path(boundary) + ("line",))
        title = f"Move {side} to line {line}, where {_quoted(boundary.str, 30)} is unique{_cite_note(cited)}"
        fixes.append(Fix(title, _replace(node, str(line))))
    return fixes


def lines_reversed(analysis: Analysis, finding: Finding) -> list[Fix]:
    """``start.line`` after ``end.line``: the boundaries swapped whole, or their lines, when
    that gives a ref that resolves."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    start, end = ref.start, ref.end
    nodes = [_value(analysis, ref.boundary_path(b) + (key,)) for b in (start, end) for key in ("line", "str")]
    if any(node is None for node in nodes):
        return []
    start_line, start_str, end_line, end_str = nodes
    fixes = []
    cited = _cites(ref, (end.line, end.str), (start.line, start.str))
    if cited is not None:
        edits = (
            *_replace(start_line, str(end.line)),
            *_replace(start_str, encode_string(end.str)),
            *_replace(end_line, str(start.line)),
            *_replace(end_str, encode_string(start.str)),
        )
        fixes.append(Fix(f"Swap the start and end boundaries{_cite_note(cited)}", edits))
    cited = _cites(ref, (end.line, start.str), (start.line, end.str))
    if cited is not None:
        edits = (*_replace(start_line, str(end.line)), *_replace(end_line, str(start.line)))
        fixes.append(Fix(f"Swap the start and end lines{_cite_note(cited)}", edits))
    return fixes


def swap_boundaries(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Start and end written the wrong way round on one line: each gets the other's string."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    cited = _cites(ref, (ref.start.line, ref.end.str), (ref.end.line, ref.start.str))
    start_node = _value(analysis, ref.boundary_path(ref.start) + ("str",))
    end_node = _value(analysis, ref.boundary_path(ref.end) + ("str",))
    if cited is None or start_node is None or end_node is None:
        return []
    edits = (
        Edit(start_node.start, start_node.end, encode_string(ref.end.str)),
        Edit(end_node.start, end_node.end, encode_string(ref.start.str)),
    )
    return [Fix(f"Swap the start and end strings{_cite_note(cited)}", edits)]


# --- source metadata -----------------------------------------------------------------------


def right_polarity(analysis: Analysis, finding: Finding) -> list[Fix]:
    if finding.path[-1] != "polarity" or finding.ref is None:
        return []
    meant = polarity_word(finding.ref.polarity)
    if meant is None:
        return []
    word, evident = meant
    edits = _replace(_value(analysis, finding.path), encode_string(word))
    return [Fix(f'Change polarity to "{word}"', edits, "safe" if evident else "unsafe")]


def right_confidence(analysis: Analysis, finding: Finding) -> list[Fix]:
    if finding.path[-1] != "confidence" or finding.ref is None:
        return []
    meant = confidence_meant(finding.ref.confidence)
    if meant is None:
        return []
    number, guess = meant
    written = confidence_text(number)
    title = f"Change confidence to {written}" + (f" ({guess})" if guess else "")
    return [Fix(title, _replace(_value(analysis, finding.path), written), "unsafe" if guess else "safe")]


# --- documents and paths ---------------------------------------------------------------------


def normalize_content(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Content with ``\\n`` only (safe for CRLF, which keeps every line); a lone ``\\r``
    splits its line, so the refs after it are renumbered to keep their text (unsafe)."""
    node = analysis.node(finding.path)
    if not isinstance(node, JString):
        return []
    content = node.value
    lone_cr = bool(re.search(r"\r(?!\n)", content))
    edits = [Edit(node.start, node.end, encode_string(content.replace("\r\n", "\n").replace("\r", "\n")))]
    document = next((d for d in analysis.session.documents if d.json_path == finding.path[:-1]), None)
    if document is not None and lone_cr:  # the document refs resolve against (not a later duplicate)
        lines = document.lines
        lone = [len(re.findall(r"\r(?!\n|$)", line)) for line in lines]
        before = [0, *accumulate(lone)]
        for ref in analysis.refs_into(document):
            for boundary in (ref.start, ref.end):
                if boundary is None or not 1 <= boundary.line <= len(lines) or "\r" in boundary.str:
                    continue
                line = lines[boundary.line - 1]
                column = boundary.occurrences[0] if boundary.occurrences else 0
                shift = before[boundary.line - 1] + len(re.findall(r"\r(?!\n|$)", line[:column]))
                target = _value(analysis, ref.boundary_path(boundary) + ("line",))
                if shift and target is not None:
                    edits.append(Edit(target.start, target.end, str(boundary.line + shift)))
    kind = "CR (the refs after each renumbered)" if lone_cr else "CRLF"
    return [Fix(f"Normalize {kind} line breaks to \\n", tuple(edits), "unsafe" if lone_cr else "safe")]


def near_path(analysis: Analysis, finding: Finding) -> list[Fix]:
    """The document the unknown path meant, under which the ref resolves: one that matches
    but for case or extension (safe when it is the only one), or one spelled alike (unsafe;
    for a source, never its claim's own document)."""
    ref = finding.ref
    if ref is None or ref.doc_path is None or ref.start is None or ref.end is None:
        return []
    by_path = analysis.session.by_path
    start, end = (ref.start.line, ref.start.str), (ref.end.line, ref.end.str)
    evident = [p for p in by_path if p.lower() == ref.doc_path.lower() or stem(p) == stem(ref.doc_path)]
    close = [p for p in difflib.get_close_matches(ref.doc_path, list(by_path), n=3, cutoff=0.6) if p not in evident]
    claim = ref.annotation.claim if ref.is_source else None
    if claim is not None:  # a source is not guessed to be its claim's own document (a self-citation)
        close = [p for p in close if p != claim.doc_path]
    node = _value(analysis, finding.path)
    fixes = []
    for path in evident + close:
        if not span_resolves(by_path[path].lines, start, end):
            continue
        cited = resolves_to(by_path[path], Boundaries(path, *start, *end))
        safe = path in evident and len(evident) == 1
        fixes.append(
            Fix(
                f"Change path to {_quoted(path)}{_cite_note(cited)}",
                _replace(node, encode_string(path)),
                "safe" if safe else "unsafe",
            )
        )
    return fixes


# --- keys and shape --------------------------------------------------------------------------


def rename_key(analysis: Analysis, finding: Finding) -> list[Fix]:
    """A misspelled key (``polarty``) renamed to the one it misspells (a guess: unsafe)."""
    if finding.code == "unknown-field":
        parent, typo = finding.path[:-1], finding.path[-1]
        wanted = None
    else:
        parent, typo = finding.path, None
        wanted = {"bad-polarity": "polarity", "bad-confidence": "confidence"}.get(finding.code)
        if wanted is None:
            return []
    known = fields_of(parent, analysis.session.shape)
    value = _plain_value(analysis, parent)
    if known is None or not isinstance(value, dict):
        return []
    typos = misspellings(value, known)  # (read off the plain value: the item's nodes are made only for a typo)
    if wanted is not None:
        typo = typos.get(wanted)
    else:
        wanted = next((key for key, found in typos.items() if found == typo), None)
    if typo is None or wanted is None or not isinstance(typo, str):
        return []
    node = analysis.node(parent)
    member = node.member(typo) if isinstance(node, JObject) else None
    if member is None:
        return []
    edit = Edit(member.key.start, member.key.end, encode_string(wanted))
    return [Fix(f"Rename {_quoted(typo, 30)} to {_quoted(wanted, 30)}", (edit,))]


def _plain_value(analysis: Analysis, path: Path) -> Any:
    """The plain JSON value at ``path`` (None where there is none)."""
    value: Any = analysis.value
    for part in path:
        if isinstance(value, dict) and isinstance(part, str):
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return None
    return value


def _member_span(text: str, parent: JObject, key: str) -> tuple[int, int] | None:
    """The text of a member of an object with the comma that separates it from its neighbour."""
    members = parent.members
    index = next((i for i, m in enumerate(members) if m.key.value == key), None)
    if index is None or members[index].value is None:
        return None
    member = members[index]
    value = member.value
    assert value is not None
    if index + 1 < len(members):
        return member.key.start, members[index + 1].key.start
    if index > 0:
        previous = members[index - 1].value
        if previous is None:
            return None
        return previous.end, value.end
    return member.key.start, value.end


def _indent_of(text: str, at: int) -> str:
    """The whitespace that begins the line holding offset ``at``."""
    start = text.rfind("\n", 0, at) + 1
    match = re.match(r"[ \t]*", text[start:at])
    return match.group() if match else ""


def _indent_unit(text: str) -> str:
    unit = re.search(r"\n([ \t]+)\S", text)
    return unit.group(1) if unit else "  "


def _reindented(text: str, start: int, end: int, indent: str) -> str:
    """The value at ``[start, end)`` with its lines after the first moved to begin at ``indent``
    where the value's own first line began."""
    value = text[start:end]
    old = _indent_of(text, start)
    lines = value.split("\n")
    return "\n".join([lines[0]] + [indent + line[len(old) :] if line.startswith(old) else line for line in lines[1:]])


def nested_annotations(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Annotations written inside ``session`` (``{"session": {"documents": [...],
    "annotations": [...]}}``): moved to the top level, after any already there (safe: nothing
    is dropped)."""
    root = analysis.node(())
    inner = analysis.node(("session",))
    nested = analysis.node(("session", "annotations"))
    if not isinstance(root, JObject) or not isinstance(inner, JObject) or not isinstance(nested, JArray):
        return []
    text = analysis.text
    removal = _member_span(text, inner, "annotations")
    if removal is None or not nested.items:
        return []
    top = root.member("annotations")
    if top is not None and not isinstance(top.value, JArray):
        return []
    edits = [Edit(*removal, "")]
    # The items as they are written, each moved to the indentation of the top level's items.
    at = top.value if top is not None and isinstance(top.value, JArray) else inner
    indent = _indent_of(text, at.start) + _indent_unit(text)
    moved = [_reindented(text, item.start, item.end, indent) for item in nested.items]
    compact = "\n" not in text[root.start : root.end]
    newline = "\r\n" if "\r\n" in text else "\n"
    glue = ", " if compact else "," + newline + indent
    if top is not None and isinstance(top.value, JArray) and top.value.items:
        last = top.value.items[-1]
        edits.append(Edit(last.end, last.end, glue + glue.join(moved)))
    else:
        written = (
            "[" + ", ".join(moved) + "]"
            if compact
            else ("[" + newline + indent + glue.join(moved) + newline + _indent_of(text, at.start) + "]")
        )
        if top is not None and isinstance(top.value, JArray):
            edits.append(Edit(top.value.start, top.value.end, written))
        else:
            edits.append(Edit(inner.end, inner.end, ', "annotations": ' + written))
    count = len(nested.items)
    title = f"Move the {count} annotation{'s' if count != 1 else ''} written inside `session` to the top level"
    return [Fix(title, tuple(edits), "safe")]


def shape_or_rename(analysis: Analysis, finding: Finding) -> list[Fix]:
    if finding.path == ("session", "annotations"):
        return nested_annotations(analysis, finding)
    return rename_key(analysis, finding)


def invalid_field(analysis: Analysis, finding: Finding) -> list[Fix]:
    """A line written as a string of digits (``"3"``: safe) or as a whole float (``3.0``);
    annotations written inside ``session`` with none at the top level."""
    if finding.path == () and analysis.node(("session", "annotations")) is not None:
        return nested_annotations(analysis, finding)
    if finding.path[-1:] != ("line",):
        return []
    node = _value(analysis, finding.path)
    value = _plain_value(analysis, finding.path)
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]+\s*", value) and int(value) > 0:
        return [Fix(f"Write the line as a number: {int(value)}", _replace(node, str(int(value))), "safe")]
    if isinstance(value, float) and value.is_integer() and value > 0:
        return [Fix(f"Write the line as an integer: {int(value)}", _replace(node, str(int(value))))]
    return []


# --- annotations ------------------------------------------------------------------------------


def _first_unique_word(document: Document, max_lines: int = 200) -> tuple[int, str] | None:
    """The first word of the document unique on its line, and its line (1-based)."""
    for number, line in enumerate(document.lines[:max_lines], start=1):
        for word in re.finditer(r"\w+", line):
            if occurrences(line, word.group())[1] == 1:
                return number, word.group()
    return None


def _layout(value: Any, text: str, at: int, compact: bool) -> str:
    """``value`` as JSON to write at offset ``at``, laid out as the file around it is."""
    if compact:
        return escape_lone_surrogates(json.dumps(value, ensure_ascii=False))
    line_start = text.rfind("\n", 0, at) + 1
    here = re.match(r"[ \t]*", text[line_start:at])
    indent = here.group() if here else ""
    unit = re.search(r"\n([ \t]+)\S", text)
    newline = "\r\n" if "\r\n" in text else "\n"
    written = escape_lone_surrogates(json.dumps(value, ensure_ascii=False, indent=unit.group(1) if unit else "  "))
    return (newline + indent).join(written.split("\n"))


def add_source(analysis: Analysis, finding: Finding) -> list[Fix]:
    """An annotation with no sources gets a source to fill in: a ref into another document
    than its claim's that resolves (its first unique word), "supports", confidence 0.5."""
    array = analysis.node(finding.path)
    item = analysis.node(finding.path[:-1])
    if not isinstance(array, JArray) or array.items or item is None:
        return []
    annotation = analysis.annotations_by_path.get(finding.path[:-1])
    claim_path = annotation.claim.doc_path if annotation is not None and annotation.claim is not None else None
    for document in [d for d in analysis.session.documents if d.path != claim_path]:
        found = _first_unique_word(document)
        if found is not None:
            break
    else:
        return []  # no other document: a source in the claim's own would be a self-citation
    line, word = found
    boundary = {"line": line, "str": word}
    source = {
        "path": document.path,
        "start": boundary,
        "end": dict(boundary),
        "polarity": "supports",
        "confidence": 0.5,
    }
    text = analysis.text
    compact = "\n" not in text[item.start : array.start]
    written = _layout([source], text, array.start, compact)
    title = f"Add a source to fill in (from {_quoted(document.path, 30)}, line {line}: {_quoted(word, 20)})"
    return [Fix(title, (Edit(array.start, array.end, written),))]


def remove_item(analysis: Analysis, path: tuple[Any, ...]) -> tuple[Edit, ...]:
    """Delete the array item at ``path`` with the comma that separates it."""
    array = analysis.node(path[:-1])
    index = path[-1]
    if not isinstance(array, JArray) or not isinstance(index, int) or not 0 <= index < len(array.items):
        return ()
    items = array.items
    item = items[index]
    if len(items) == 1:
        return (Edit(array.start + 1, array.end - 1, ""),)
    if index + 1 < len(items):
        return (Edit(item.start, items[index + 1].start, ""),)
    return (Edit(items[index - 1].end, item.end, ""),)


def no_sources(analysis: Analysis, finding: Finding) -> list[Fix]:
    removal = remove_item(analysis, finding.path[:-1])
    removed = [Fix("Remove this annotation (it has no sources)", removal)] if removal else []
    return add_source(analysis, finding) + removed


def repeated_source(analysis: Analysis, finding: Finding) -> list[Fix]:
    """A source that repeats another's coordinates: removed (its polarity and confidence with it)."""
    removal = remove_item(analysis, finding.path)
    return [Fix("Remove this repeated source", removal)] if removal else []


def opening_quote(analysis: Analysis, finding: Finding) -> list[Fix]:
    """A string written without its opening quote (`Rich",`): quoted. Safe: the value is
    the text between the two places, as typed, and nothing else could be meant."""
    start, end = analysis.extent(finding)
    text = analysis.text
    if missing_opening_quote(text, start) != end or finding.message != opening_quote_message(text[start : end - 1]):
        return []
    written = encode_string(text[start : end - 1])
    return [Fix(f"Add the opening quote: `{visible(written)}`", (Edit(start, end, written),), "safe")]


Fixer = Callable[[Analysis, Finding], list[Fix]]


def with_rename(right: Fixer) -> Fixer:
    """A fixer of a polarity or confidence value that also renames a misspelled key."""

    def fixes(analysis: Analysis, finding: Finding) -> list[Fix]:
        return right(analysis, finding) + rename_key(analysis, finding)

    return fixes


FIXERS: dict[str, Fixer] = {
    "boundary-ambiguous": extend_boundary,
    "boundary-not-found": not_found,
    "line-out-of-range": line_out_of_range,
    "lines-reversed": lines_reversed,
    "boundary-order": swap_boundaries,
    "bad-polarity": with_rename(right_polarity),
    "bad-confidence": with_rename(right_confidence),
    "non-lf-content": normalize_content,
    "unknown-path": near_path,
    "unknown-field": shape_or_rename,
    "invalid-field": invalid_field,
    "empty-sources": no_sources,
    "duplicate-source": repeated_source,
    "invalid-json": opening_quote,
}


def repairs(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Every repair of a finding (none when none is right), each with its applicability."""
    fixer = FIXERS.get(finding.code)
    return [fix for fix in fixer(analysis, finding) if fix.edits] if fixer else []


def fix_of(analysis: Analysis, finding: Finding) -> tuple[Fix | None, list[Fix]]:
    """The finding's fix when it has one repair, else its suggestions (docs/rules.md)."""
    found = repairs(analysis, finding)
    return (found[0], []) if len(found) == 1 else (None, found)


REACH = {"empty-sources": 1}
"""Findings whose repairs are offered from anywhere in the value a few steps up their path
(an annotation without sources: from anywhere in the annotation, not only its ``[]``)."""


def reach(analysis: Analysis, finding: Finding) -> tuple[int, int]:
    """Where a cursor finds a finding's repairs: its extent, or the value :data:`REACH` names."""
    up = REACH.get(finding.code)
    if up and len(finding.path) > up:
        node = analysis.node(finding.path[:-up])
        if node is not None:
            return node.start, node.end
    return analysis.extent(finding)


def preferred(fixes: list[Fix]) -> Fix | None:
    """The repair an editor may apply by default: the only one, and safe."""
    return fixes[0] if len(fixes) == 1 and fixes[0].safe else None


@dataclass(frozen=True, slots=True)
class Fixed:
    """What ``--fix`` made of a text: the text, and the fixes applied, round by round."""

    text: str
    applied: tuple[tuple[str, str, str], ...]  # (code, pointer, title)

    @property
    def changed(self) -> bool:
        return bool(self.applied)


MAX_ROUNDS = 10


def fixed(text: str, unsafe: bool = False) -> Fixed:
    """``text`` with its fixes applied (the safe ones; with ``unsafe``, the unsafe ones too),
    round after round until none applies: each round applies every fix that overlaps none
    applied before it in that round, then the text is checked again."""
    applied: list[tuple[str, str, str]] = []
    for _ in range(MAX_ROUNDS):
        analysis = Analysis(text)
        chosen: list[Edit] = []
        for finding in analysis.findings:
            fix, _ = fix_of(analysis, finding)
            if fix is None or not (fix.safe or unsafe):
                continue
            if any(e.start < c.end and c.start < e.end or e.start == c.start for e in fix.edits for c in chosen):
                continue  # next round
            chosen.extend(fix.edits)
            applied.append((finding.code, finding.pointer, fix.title))
        if not chosen:
            break
        text = apply(text, chosen)
    return Fixed(text, tuple(applied))


__all__ = [
    "Applicability",
    "Edit",
    "Fix",
    "Fixed",
    "apply",
    "confidence_meant",
    "fix_of",
    "fixed",
    "polarity_word",
    "preferred",
    "repairs",
]

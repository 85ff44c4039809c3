"""Every fix of a finding, as data: edits of the file's text, a message, an applicability.

One place for the editor's quick fixes, ``sourcecheck --fix`` and the ``fix`` /
``suggestions`` of ``--json`` (docs/rules.md, "`--fix`, and fixes in `--json`"):

- **safe**: the repaired ref cites what the mistaken one evidently meant: the same characters
  but for quote style, letter case or runs of whitespace, found once on the named line; a
  polarity written in another case or form (``support``); a number written as a string
  (``"0.9"``, ``"3"``); a path that matches exactly one document but for case or a missing or
  added extension (never another one: ``law.2`` is not ``law.1``); CRLF content normalized (a
  boundary that ends in ``\\r`` with it); the session shape repaired without dropping or
  repeating anything;
- **unsafe**: anything that guesses: a line off by one or two, a trailing period dropped,
  an occurrence chosen, ``95`` read as ``0.95``, a key renamed, an annotation removed.

A finding with one repair has a *fix*; one with several (which occurrence was meant?) has
*suggestions* and no fix. Every fix that moves a boundary to another line or changes its
string says, in its message, the text the ref would then cite; only a safe fix is ever
preferred. Each fix replaces only the values it fixes (or moves or removes whole items).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Literal, Protocol

from .analysis import Analysis
from .brokenstrings import missing_opening_quote, opening_quote_message
from .display import title_quote, visible
from .edits import TextEdit, apply
from .extend import Extension, extensions, span_resolves
from .insert import indent_unit, newline_of, written
from .jsonlex import encode_string
from .jsonnodes import JArray, JObject, JString
from .meant import confidence_meant, confidence_text, polarity_word
from .messages import misspellings, reversed_repairs, same_but_case_or_extension, wraps_a_session
from .occurrences import occurrences
from .placing import RefPlacement, carried_by, own_fix, placements, state
from .refs import Boundaries, resolves_to
from .schema import fields_of
from .session import CheckedRef, Document, Path, Side, Violation

Applicability = Literal["safe", "unsafe"]
TITLE_WIDTH = 60


@dataclass(frozen=True, slots=True)
class Repair:
    """One repair of a finding."""

    title: str  # what it does, quoting the exact replacement and, for a ref, what it then cites
    edits: tuple[TextEdit, ...]
    applicability: Applicability = "unsafe"

    @property
    def safe(self) -> bool:
        return self.applicability == "safe"


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
    found = analysis.locate(path)
    return Extent(*found) if found is not None else None


def _replace(node: Spanned | None, text: str) -> tuple[TextEdit, ...]:
    return (TextEdit(node.start, node.end, text),) if node is not None else ()


def _cites(ref: CheckedRef, start: tuple[int, str], end: tuple[int, str]) -> str | None:
    """The text ``ref`` would cite with these (line, str) boundaries (None: it would not resolve)."""
    if ref.document is None or ref.doc_path is None:
        return None
    return resolves_to(ref.document, Boundaries(ref.doc_path, start[0], start[1], end[0], end[1]))


def _cite_note(text: str | None) -> str:
    """``: cites "…"``, with both ends of the text (alternatives differ at their ends)."""
    return f": cites {title_quote(text, TITLE_WIDTH, ends=True)}" if text is not None else ""


def _boundaries(ref: CheckedRef, side: str, line: int, text: str) -> tuple[tuple[int, str], tuple[int, str]]:
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


def extend_boundary(analysis: Analysis, finding: Violation) -> list[Repair]:
    """One extension per occurrence the author can mean (which one: only they know)."""
    if finding.ref is None:
        return []
    found = extensions(finding.ref, _side_of(finding))
    node = _value(analysis, finding.path)
    return [Repair(extension_title(e), _replace(node, encode_string(e.new_str))) for e in found]


def _side_of(finding: Violation) -> Side:
    return "start" if finding.path[-2] == "start" else "end"


def not_found(analysis: Analysis, finding: Violation) -> list[Repair]:
    """The text the boundary was meant to be (core/nearmiss.py): on its line, written with
    other quotes, case or spacing (safe when found once: its one repair, alone); else the ref
    repaired as a whole (core/placing.py): this boundary's candidates (its line's text
    written otherwise, the lines around it) with the other boundary as it resolves, moved
    with it, or repaired too, wherever the ref then resolves running forward. A fix that
    repairs both boundaries is carried by the first one's finding only."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    side = _side_of(finding)
    boundary, other = (ref.start, ref.end) if side == "start" else (ref.end, ref.start)
    evident = own_fix(ref.document, boundary)
    if evident is not None:
        start, end = _boundaries(ref, side, evident.line, evident.text)
        cited = _cites(ref, start, end)
        if state(other, ref.document) == "resolved" and cited is None:
            return []  # it would run backward: not a repair
        edits = _replace(
            _value(analysis, analysis.session.boundary_path(ref, boundary) + ("str",)), encode_string(evident.text)
        )
        title = f"Write {_quoted(evident.text, 40)}, the line's exact text{_cite_note(cited)}"
        return [Repair(title, edits, "safe")]
    return placed(analysis, ref, side)


def placed(analysis: Analysis, ref: CheckedRef, side: Side) -> list[Repair]:
    """The fixes of a ref's best placements that the finding on its ``side`` carries."""
    fixes = []
    for placement in placements(ref):
        if carried_by(ref, placement) != side:
            continue
        edits: tuple[TextEdit, ...] = ()
        for part in placement.moved:
            boundary = ref.start if part.side == "start" else ref.end
            assert boundary is not None
            path = analysis.session.boundary_path(ref, boundary)
            if part.text != boundary.str:
                edits += _replace(_value(analysis, path + ("str",)), encode_string(part.text))
            if part.line != boundary.line:
                edits += _replace(_value(analysis, path + ("line",)), str(part.line))
        fixes.append(Repair(placement_title(ref, placement), edits, "safe" if placement.safe else "unsafe"))
    return fixes


def placement_title(ref: CheckedRef, placement: RefPlacement) -> str:
    """What a placement's fix does, each boundary it changes by its new line and string, and
    the text the ref then cites."""
    assert ref.start is not None and ref.end is not None
    note = _cite_note(placement.cited)
    moved = placement.moved
    if len(moved) == 2 and all(p.text == b.str for p, b in zip(moved, (ref.start, ref.end), strict=True)):
        first, last = moved
        delta = first.line - ref.start.line
        if last.line - ref.end.line == delta:
            where = f"lines {first.line}-{last.line}" if first.line != last.line else f"line {first.line}"
            return f"Move the ref to {where} ({abs(delta)} {'down' if delta > 0 else 'up'}){note}"
    if len(moved) == 1:
        part = moved[0]
        boundary = ref.start if part.side == "start" else ref.end
        assert boundary is not None
        if part.line == boundary.line:
            return f"Write {_quoted(part.text, 40)}, the line's exact text{note}"
        if part.text == boundary.str:
            return f"Move {part.side} to line {part.line}, where {_quoted(part.text, 30)} is unique{note}"
        return f"Move {part.side} to line {part.line} as {_quoted(part.text, 30)}{note}"
    said, verb = [], "Write"
    for part in moved:
        boundary = ref.start if part.side == "start" else ref.end
        line = f" to line {part.line}" if part.line != boundary.line else ""
        text = f" as {_quoted(part.text, 30)}" if part.text != boundary.str else ""
        said.append(f"{part.side}{line}{text}")
        verb = "Move" if line else verb
    return f"{verb} {' and '.join(said)}{note}"


def line_out_of_range(analysis: Analysis, finding: Violation) -> list[Repair]:
    """A line number past the document: the lines where ``str`` occurs exactly once, the ref
    placed as a whole (see :func:`not_found`)."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    return placed(analysis, ref, _side_of(finding))


def lines_reversed(analysis: Analysis, finding: Violation) -> list[Repair]:
    """``start.line`` after ``end.line``: each repair :func:`~.messages.reversed_repairs`
    finds (the boundaries swapped whole, their lines, or one moved to the other's line)."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    written = ((ref.start.line, ref.start.str), (ref.end.line, ref.end.str))
    fixes = []
    for said, (start, end) in reversed_repairs(ref, ref.document):
        edits: tuple[TextEdit, ...] = ()
        for boundary, (line, text), (old_line, old_text) in zip(
            (ref.start, ref.end), (start, end), written, strict=True
        ):
            path = analysis.session.boundary_path(ref, boundary)
            if line != old_line:
                edits += _replace(_value(analysis, path + ("line",)), str(line))
            if text != old_text:
                edits += _replace(_value(analysis, path + ("str",)), encode_string(text))
        title = said[0].upper() + said[1:].replace(" (their lines and strings)", "").split(" (start on")[0]
        fixes.append(Repair(f"{title}{_cite_note(_cites(ref, start, end))}", edits))
    return fixes


def swap_boundaries(analysis: Analysis, finding: Violation) -> list[Repair]:
    """Start and end written the wrong way round on one line: each gets the other's string."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    cited = _cites(ref, (ref.start.line, ref.end.str), (ref.end.line, ref.start.str))
    start_node = _value(analysis, analysis.session.boundary_path(ref, ref.start) + ("str",))
    end_node = _value(analysis, analysis.session.boundary_path(ref, ref.end) + ("str",))
    if cited is None or start_node is None or end_node is None:
        return []
    edits = (
        TextEdit(start_node.start, start_node.end, encode_string(ref.end.str)),
        TextEdit(end_node.start, end_node.end, encode_string(ref.start.str)),
    )
    return [Repair(f"Swap the start and end strings{_cite_note(cited)}", edits)]


# --- source metadata -----------------------------------------------------------------------


def right_polarity(analysis: Analysis, finding: Violation) -> list[Repair]:
    if finding.path[-1] != "polarity" or finding.ref is None:
        return []
    meant = polarity_word(finding.ref.polarity)
    if meant is None:
        return []
    word, evident = meant
    edits = _replace(_value(analysis, finding.path), encode_string(word))
    return [Repair(f'Change polarity to "{word}"', edits, "safe" if evident else "unsafe")]


def right_confidence(analysis: Analysis, finding: Violation) -> list[Repair]:
    if finding.path[-1] != "confidence" or finding.ref is None:
        return []
    meant = confidence_meant(finding.ref.confidence)
    if meant is None:
        return []
    number, guess = meant
    written = confidence_text(number)
    title = f"Change confidence to {written}" + (f" ({guess})" if guess else "")
    return [Repair(title, _replace(_value(analysis, finding.path), written), "unsafe" if guess else "safe")]


# --- documents and paths ---------------------------------------------------------------------


def normalize_content(analysis: Analysis, finding: Violation) -> list[Repair]:
    """Content with ``\\n`` only (safe for CRLF, which keeps every line); a lone ``\\r``
    splits its line, so the refs after it are renumbered to keep their text (unsafe)."""
    node = analysis.node(finding.path)
    if not isinstance(node, JString):
        return []
    content = node.value
    lone_cr = bool(re.search(r"\r(?!\n)", content))
    edits = [TextEdit(node.start, node.end, encode_string(content.replace("\r\n", "\n").replace("\r", "\n")))]
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
                target = _value(analysis, analysis.session.boundary_path(ref, boundary) + ("line",))
                if shift and target is not None:
                    edits.append(TextEdit(target.start, target.end, str(boundary.line + shift)))
    kind = "CR (the refs after each renumbered)" if lone_cr else "CRLF"
    cut = _without_cr(analysis, document) if document is not None and not lone_cr else []
    title = f"Normalize {kind} line breaks to \\n"
    if cut:
        title += f", and the {len(cut)} boundary string{'s' if len(cut) != 1 else ''} ending in \\r without it"
    edits += cut
    return [Repair(title, tuple(edits), "unsafe" if lone_cr else "safe")]


def _without_cr(analysis: Analysis, document: Document) -> list[TextEdit]:
    """The boundaries into a document that end in the ``\r`` of a CRLF line break, written
    without it (the normalized content has none), where what is left is unique on its line."""
    edits: list[TextEdit] = []
    for ref in analysis.refs_into(document):
        for boundary in (ref.start, ref.end):
            if boundary is None or not boundary.str.endswith("\r") or "\r" in boundary.str[:-1]:
                continue
            if not 1 <= boundary.line <= len(document.lines) or not boundary.str[:-1]:
                continue
            line = document.lines[boundary.line - 1]
            if not line.endswith("\r") or occurrences(line[:-1], boundary.str[:-1])[1] != 1:
                continue
            target = _value(analysis, analysis.session.boundary_path(ref, boundary) + ("str",))
            edits += _replace(target, encode_string(boundary.str[:-1]))
    return edits


def near_path(analysis: Analysis, finding: Violation) -> list[Repair]:
    """The document the unknown path meant, under which the ref resolves: one that matches
    but for case or a missing or added extension (safe when it is the only one), or one
    spelled alike, or for a source whose path is like none, the session's only document other
    than its claim's (unsafe; for a source, never its claim's own document)."""
    ref = finding.ref
    if ref is None or ref.doc_path is None or ref.start is None or ref.end is None:
        return []
    by_path = analysis.session.by_path
    start, end = (ref.start.line, ref.start.str), (ref.end.line, ref.end.str)
    evident = [p for p in by_path if same_but_case_or_extension(p, ref.doc_path)]
    close = [p for p in difflib.get_close_matches(ref.doc_path, list(by_path), n=3, cutoff=0.6) if p not in evident]
    claim = ref.annotation.claim if ref.is_source else None
    if claim is not None:  # a source is not guessed to be its claim's own document (a self-citation)
        close = [p for p in close if p != claim.doc_path]
        others = [p for p in by_path if p != claim.doc_path]
        if not evident and not close and len(others) == 1:
            close = others  # the session's only other document: where a source can be (a guess)
    node = _value(analysis, finding.path)
    fixes = []
    for path in evident + close:
        if not span_resolves(by_path[path].lines, start, end):
            continue
        cited = resolves_to(by_path[path], Boundaries(path, *start, *end))
        safe = path in evident and len(evident) == 1
        fixes.append(
            Repair(
                f"Change path to {_quoted(path)}{_cite_note(cited)}",
                _replace(node, encode_string(path)),
                "safe" if safe else "unsafe",
            )
        )
    return fixes


# --- keys and shape --------------------------------------------------------------------------


def rename_key(analysis: Analysis, finding: Violation) -> list[Repair]:
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
    edit = TextEdit(member.key.start, member.key.end, encode_string(wanted))
    return [Repair(f"Rename {_quoted(typo, 30)} to {_quoted(wanted, 30)}", (edit,))]


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


def _reindented(text: str, start: int, end: int, indent: str) -> str:
    """The value at ``[start, end)`` with its lines after the first moved to begin at ``indent``
    where the value's own first line began."""
    value = text[start:end]
    old = _indent_of(text, start)
    lines = value.split("\n")
    return "\n".join([lines[0]] + [indent + line[len(old) :] if line.startswith(old) else line for line in lines[1:]])


def nested_annotations(analysis: Analysis, finding: Violation) -> list[Repair]:
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
    edits = [TextEdit(*removal, "")]
    # The items as they are written, each moved to the indentation of the top level's items.
    at = top.value if top is not None and isinstance(top.value, JArray) else inner
    indent = _indent_of(text, at.start) + (indent_unit(text) or "  ")
    moved = [_reindented(text, item.start, item.end, indent) for item in nested.items]
    compact = "\n" not in text[root.start : root.end]
    newline = "\r\n" if "\r\n" in text else "\n"
    glue = ", " if compact else "," + newline + indent
    if top is not None and isinstance(top.value, JArray) and top.value.items:
        last = top.value.items[-1]
        edits.append(TextEdit(last.end, last.end, glue + glue.join(moved)))
    else:
        written = (
            "[" + ", ".join(moved) + "]"
            if compact
            else ("[" + newline + indent + glue.join(moved) + newline + _indent_of(text, at.start) + "]")
        )
        if top is not None and isinstance(top.value, JArray):
            edits.append(TextEdit(top.value.start, top.value.end, written))
        else:
            edits.append(TextEdit(inner.end, inner.end, ', "annotations": ' + written))
    count = len(nested.items)
    title = f"Move the {count} annotation{'s' if count != 1 else ''} written inside `session` to the top level"
    return [Repair(title, tuple(edits), "safe")]


def unwrapped(analysis: Analysis, finding: Violation) -> list[Repair]:
    """A session written as the one member of a wrapper (``{"result": {"documents": [...],
    "annotations": [...]}}``, as an API's response holds it): the wrapper removed, the session
    moved out as it is written (safe: nothing but the wrapper's key is dropped)."""
    root = analysis.node(())
    if not isinstance(root, JObject) or len(root.members) != 1 or len(finding.path) != 1:
        return []
    inner = root.members[0].value
    if not isinstance(inner, JObject) or not wraps_a_session(_plain_value(analysis, finding.path)):
        return []
    text = analysis.text
    written = _reindented(text, inner.start, inner.end, _indent_of(text, root.start))
    title = f"Move the session out of {_quoted(str(finding.path[0]), 30)} (the wrapper removed, nothing else)"
    return [Repair(title, (TextEdit(root.start, root.end, written),), "safe")]


def shape_or_rename(analysis: Analysis, finding: Violation) -> list[Repair]:
    if finding.path == ("session", "annotations"):
        return nested_annotations(analysis, finding)
    return unwrapped(analysis, finding) or rename_key(analysis, finding)


def invalid_field(analysis: Analysis, finding: Violation) -> list[Repair]:
    """A line written as a string of digits (``"3"``: safe) or as a whole float (``3.0``);
    annotations written inside ``session`` with none at the top level."""
    if finding.path == () and analysis.node(("session", "annotations")) is not None:
        # One fix for one mistake: where `annotations` inside `session` has a finding of its
        # own, that finding carries the move (applying both would move them twice).
        if any(f.code == "unknown-field" and f.path == ("session", "annotations") for f in analysis.findings):
            return []
        return nested_annotations(analysis, finding)
    if finding.path[-1:] != ("line",):
        return []
    node = _value(analysis, finding.path)
    value = _plain_value(analysis, finding.path)
    if isinstance(value, str) and re.fullmatch(r"\s*[0-9]+\s*", value) and int(value) > 0:
        return [Repair(f"Write the line as a number: {int(value)}", _replace(node, str(int(value))), "safe")]
    if isinstance(value, float) and value.is_integer() and value > 0:
        return [Repair(f"Write the line as an integer: {int(value)}", _replace(node, str(int(value))))]
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
        return written(value, None, "")
    line_start = text.rfind("\n", 0, at) + 1
    here = re.match(r"[ \t]*", text[line_start:at])
    return written(value, indent_unit(text) or "  ", here.group() if here else "", newline_of(text))


def add_source(analysis: Analysis, finding: Violation) -> list[Repair]:
    """An annotation with no sources gets a source to fill in: a ref into another document
    than its claim's that resolves (its first unique word), "supports", confidence 0.5."""
    array = analysis.node(finding.path)
    item = analysis.node(finding.path[:-1])
    if not isinstance(array, JArray) or array.items or item is None:
        return []
    annotation = analysis.session.annotation_at_path(finding.path[:-1])
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
    return [Repair(title, (TextEdit(array.start, array.end, written),))]


def remove_item(analysis: Analysis, path: tuple[Any, ...]) -> tuple[TextEdit, ...]:
    """Delete the array item at ``path`` with the comma that separates it."""
    array = analysis.node(path[:-1])
    index = path[-1]
    if not isinstance(array, JArray) or not isinstance(index, int) or not 0 <= index < len(array.items):
        return ()
    items = array.items
    item = items[index]
    if len(items) == 1:
        return (TextEdit(array.start + 1, array.end - 1, ""),)
    if index + 1 < len(items):
        return (TextEdit(item.start, items[index + 1].start, ""),)
    return (TextEdit(items[index - 1].end, item.end, ""),)


def no_sources(analysis: Analysis, finding: Violation) -> list[Repair]:
    removal = remove_item(analysis, finding.path[:-1])
    removed = [Repair("Remove this annotation (it has no sources)", removal)] if removal else []
    return add_source(analysis, finding) + removed


def repeated_source(analysis: Analysis, finding: Violation) -> list[Repair]:
    """A source that repeats another's coordinates: removed (its polarity and confidence with it)."""
    removal = remove_item(analysis, finding.path)
    return [Repair("Remove this repeated source", removal)] if removal else []


def opening_quote(analysis: Analysis, finding: Violation) -> list[Repair]:
    """A string written without its opening quote (`Rich",`): quoted. Safe: the value is
    the text between the two places, as typed, and nothing else could be meant."""
    start, end = analysis.extent(finding)
    text = analysis.text
    if missing_opening_quote(text, start) != end or finding.message != opening_quote_message(text[start : end - 1]):
        return []
    quoted = encode_string(text[start : end - 1])
    return [Repair(f"Add the opening quote: `{visible(quoted)}`", (TextEdit(start, end, quoted),), "safe")]


Fixer = Callable[[Analysis, Violation], list[Repair]]


def with_rename(right: Fixer) -> Fixer:
    """A fixer of a polarity or confidence value that also renames a misspelled key."""

    def fixes(analysis: Analysis, finding: Violation) -> list[Repair]:
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


def repairs(analysis: Analysis, finding: Violation) -> list[Repair]:
    """Every repair of a finding (none when none is right), each with its applicability."""
    fixer = FIXERS.get(finding.code)
    return [fix for fix in fixer(analysis, finding) if fix.edits] if fixer else []


def fix_of(analysis: Analysis, finding: Violation) -> tuple[Repair | None, list[Repair]]:
    """The finding's fix when it has one repair, else its suggestions (docs/rules.md)."""
    found = repairs(analysis, finding)
    return (found[0], []) if len(found) == 1 else (None, found)


REACH = {"empty-sources": 1}
"""Findings whose repairs are offered from anywhere in the value a few steps up their path
(an annotation without sources: from anywhere in the annotation, not only its ``[]``)."""


def reach(analysis: Analysis, finding: Violation) -> tuple[int, int]:
    """Where a cursor finds a finding's repairs: its extent, or the value :data:`REACH` names."""
    up = REACH.get(finding.code)
    if up and len(finding.path) > up:
        node = analysis.node(finding.path[:-up])
        if node is not None:
            return node.start, node.end
    return analysis.extent(finding)


def preferred(fixes: list[Repair]) -> Repair | None:
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
    applied before it in that round, then the text is checked again. An unsafe fix is applied
    only in a round with no safe one: it guesses from the text the safe fixes leave (a ref
    whose start a safe fix re-cases on the wrong line is then moved whole, not stretched)."""
    applied: list[tuple[str, str, str]] = []
    for _ in range(MAX_ROUNDS):
        analysis = Analysis(text)
        found = [(finding, fix_of(analysis, finding)[0]) for finding in analysis.findings]
        chosen: list[TextEdit] = []
        for safe in (True, False) if unsafe else (True,):
            for finding, fix in found:
                if fix is None or fix.safe != safe:
                    continue
                if any(e.start < c.end and c.start < e.end or e.start == c.start for e in fix.edits for c in chosen):
                    continue  # next round
                chosen.extend(fix.edits)
                applied.append((finding.code, finding.pointer, fix.title))
            if chosen:
                break
        if not chosen:
            break
        text = apply(text, chosen)
    return Fixed(text, tuple(applied))


__all__ = [
    "Applicability",
    "Repair",
    "Fixed",
    "confidence_meant",
    "fix_of",
    "fixed",
    "polarity_word",
    "preferred",
    "repairs",
]

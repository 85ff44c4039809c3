"""Quick fixes for findings, as edits of the file's text: pure, no editor involved.

Each fix is offered only where it is right:
- ``boundary-ambiguous``: extend the boundary until it is unique (one fix per occurrence);
- ``boundary-not-found``: the line holds the string with typographic quotes, other spaces,
  dashes or case: the line's exact text; the string is unique on a line within 3 of the
  one named: move there;
- ``boundary-order``: swap the two boundary strings, when the ref then resolves;
- ``bad-polarity``: a near miss (``support``, ``Supports``, ``refute``): the right word;
- ``bad-confidence``: a number written as a string, a value just outside [0, 1] by rounding,
  or one that reads as a percentage (``95`` → ``0.95``, never preferred: it is a guess);
- ``non-lf-content``: normalize the content's line breaks to ``\\n``;
- ``unknown-path``: a near miss of a document's path: that path;
- ``unknown-field`` (and the missing key it misspells): rename the key;
- ``empty-sources``: add a source to fill in, or remove the annotation (neither preferred:
  both change what the session says).

A fix is marked preferred only when it is the only one and does not change what the
session means beyond the finding (a guessed confidence or a removal never is).
"""

from __future__ import annotations

import difflib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any

from .analysis import Analysis
from .display import shorten, visible
from .fixes import Extension, extensions, preferred, span_resolves
from .rules import POLARITIES, fields_of, misspellings, near_miss, occurrences, show_exact
from .session import Document, Finding
from .syntax import JArray, JObject, JString, Node, encode_string, escape_lone_surrogates

NEARBY_LINES = 3
TITLE_WIDTH = 60


@dataclass(frozen=True)
class Edit:
    """Replace the file's text ``[start, end)`` with ``text``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    preferred: bool = False


def apply(text: str, edits: tuple[Edit, ...] | list[Edit]) -> str:
    """The text with non-overlapping edits applied."""
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: edit.start] + edit.text + text[edit.end :]
    return text


def _quoted(text: str, width: int = TITLE_WIDTH) -> str:
    return '"' + visible(shorten(text, width)) + '"'


def _replace(node: Node | None, text: str) -> tuple[Edit, ...]:
    return (Edit(node.start, node.end, text),) if node is not None else ()


def extension_title(extension: Extension) -> str:
    new = visible(shorten(extension.new_str, TITLE_WIDTH // 2))
    if extension.span_text is not None:
        return f'Extend {extension.side} to "{new}": cites {_quoted(extension.span_text)}'
    return f'Extend {extension.side} to "{new}" (occurrence {extension.occurrence}, column {extension.column + 1})'


def extend_boundary(analysis: Analysis, finding: Finding) -> list[Fix]:
    if finding.ref is None:
        return []
    found = extensions(finding.ref, str(finding.path[-2]))
    best = preferred(found)
    node = analysis.node(finding.path)
    return [Fix(extension_title(e), _replace(node, encode_string(e.new_str)), e is best) for e in found]


def move_to_nearby_line(analysis: Analysis, finding: Finding) -> list[Fix]:
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    side = finding.path[-2]
    boundary = ref.start if side == "start" else ref.end
    other = ref.end if side == "start" else ref.start
    lines = ref.document.lines
    candidates = []
    for n in sorted(
        range(boundary.line - NEARBY_LINES, boundary.line + NEARBY_LINES + 1), key=lambda n: (abs(n - boundary.line), n)
    ):
        if n == boundary.line or not 1 <= n <= len(lines) or occurrences(lines[n - 1], boundary.str)[1] != 1:
            continue
        start_line = n if side == "start" else other.line
        end_line = other.line if side == "start" else n
        if start_line > end_line and ref.start.line <= ref.end.line:
            continue  # the move would reverse the ref
        if other.resolved and not span_resolves(lines, (start_line, ref.start.str), (end_line, ref.end.str)):
            continue  # the span would run backward
        candidates.append(n)
    node = analysis.node(ref.boundary_path(boundary) + ("line",))
    return [
        Fix(
            f"Move {side} to line {n}, where {_quoted(boundary.str, 30)} is unique",
            _replace(node, str(n)),
            len(candidates) == 1,
        )
        for n in candidates
    ]


def exact_text(analysis: Analysis, finding: Finding) -> list[Fix]:
    """The line's own text for a boundary written with typed quotes for typographic ones
    (or a space for a non-breaking one, a hyphen for a dash, another case)."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    side = finding.path[-2]
    boundary, other = (ref.start, ref.end) if side == "start" else (ref.end, ref.start)
    lines = ref.document.lines
    if not 1 <= boundary.line <= len(lines):
        return []
    line = lines[boundary.line - 1]
    near = near_miss(line, boundary.str)
    if near is None or occurrences(line, near[0])[1] != 1:
        return []
    actual = near[0]
    if other.resolved:
        start = (ref.start.line, actual if side == "start" else ref.start.str)
        end = (ref.end.line, actual if side == "end" else ref.end.str)
        if not span_resolves(lines, start, end):
            return []
    node = analysis.node(finding.path)
    title = f"Write the line's exact text: {show_exact(shorten(actual, 40))[1:-1]}"
    return [Fix(title, _replace(node, encode_string(actual)))]


def not_found(analysis: Analysis, finding: Finding) -> list[Fix]:
    fixes = exact_text(analysis, finding) + move_to_nearby_line(analysis, finding)
    return [replace(fix, preferred=len(fixes) == 1) for fix in fixes]


def swap_boundaries(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Start and end written the wrong way round: each boundary gets the other's string."""
    ref = finding.ref
    if ref is None or ref.document is None or ref.start is None or ref.end is None:
        return []
    lines = ref.document.lines
    start, end = (ref.start.line, ref.end.str), (ref.end.line, ref.start.str)
    if not span_resolves(lines, start, end):
        return []
    start_node = analysis.node(ref.boundary_path(ref.start) + ("str",))
    end_node = analysis.node(ref.boundary_path(ref.end) + ("str",))
    if start_node is None or end_node is None:
        return []
    begin = occurrences(lines[start[0] - 1], start[1])[0][0]
    finish = occurrences(lines[end[0] - 1], end[1])[0][0] + len(end[1])
    if start[0] == end[0]:
        cited = lines[start[0] - 1][begin:finish]
    else:
        cited = "\n".join([lines[start[0] - 1][begin:], *lines[start[0] : end[0] - 1], lines[end[0] - 1][:finish]])
    edits = (
        Edit(start_node.start, start_node.end, encode_string(ref.end.str)),
        Edit(end_node.start, end_node.end, encode_string(ref.start.str)),
    )
    return [Fix(f"Swap the start and end strings: cites {_quoted(cited)}", edits, True)]


def polarity_word(value: object) -> str | None:
    """The polarity a near miss most likely meant."""
    if not isinstance(value, str):
        return None
    word = value.strip().lower()
    if word in POLARITIES:
        return word
    for polarity in POLARITIES:
        if word and (polarity.startswith(word[:6]) or word.startswith(polarity[:-1])):
            return polarity
    close = difflib.get_close_matches(word, POLARITIES, n=1, cutoff=0.6)
    return close[0] if close else None


def right_polarity(analysis: Analysis, finding: Finding) -> list[Fix]:
    if finding.path[-1] != "polarity" or finding.ref is None:
        return []
    word = polarity_word(finding.ref.polarity)
    return (
        [Fix(f'Change polarity to "{word}"', _replace(analysis.node(finding.path), encode_string(word)), True)]
        if word
        else []
    )


def confidence_meant(value: object) -> tuple[float, bool] | None:
    """The confidence that was meant, and whether that is a guess: "0.9" → 0.9, "80%" → 0.8,
    1.0000001 → 1 are not; 95 → 0.95 is (95 reads as a percentage, but only the writer knows).
    A value from 1 to 2 (1.5) reads as nothing: no confidence is meant by it."""
    if isinstance(value, str):
        written = value.strip()
        try:
            number = float(written.rstrip("%"))
        except ValueError:
            return None
        if written.endswith("%"):
            return (round(number / 100, 6), False) if 0 <= number <= 100 else None
        value = number
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if 0 <= value <= 1:
        return value, False
    if -0.01 < value < 0 or 1 < value < 1.01:  # out of range by rounding
        return min(1.0, max(0.0, value)), False
    if 2 <= value <= 100:  # reads as a percentage
        return round(value / 100, 6), True
    return None


def confidence_number(value: object) -> float | None:
    """The confidence that was meant: 95 → 0.95, "0.9" → 0.9, 1.0000001 → 1."""
    meant = confidence_meant(value)
    return meant[0] if meant is not None else None


def right_confidence(analysis: Analysis, finding: Finding) -> list[Fix]:
    if finding.path[-1] != "confidence" or finding.ref is None:
        return []
    meant = confidence_meant(finding.ref.confidence)
    if meant is None:
        return []
    number, guessed = meant
    written = f"{number:g}" if number not in (0, 1) else str(int(number))
    title = f"Change confidence to {written}" + (" (if it was a percentage)" if guessed else "")
    return [Fix(title, _replace(analysis.node(finding.path), written), not guessed)]


def normalize_content(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Content with ``\n`` only; the lines of refs into it follow a lone ``\r`` that splits a line."""
    node = analysis.node(finding.path)
    if not isinstance(node, JString):
        return []
    content = node.value
    edits = [Edit(node.start, node.end, encode_string(content.replace("\r\n", "\n").replace("\r", "\n")))]
    document = next((d for d in analysis.session.documents if d.json_path == finding.path[:-1]), None)
    if document is not None:  # the document refs resolve against (not a later duplicate)
        lines = document.lines
        # A lone CR splits its line: count them, before each line and within it.
        lone = [len(re.findall(r"\r(?!\n|$)", line)) for line in lines]
        before = [0, *accumulate(lone)]
        for ref in analysis.refs_into(document):
            for boundary in (ref.start, ref.end):
                if boundary is None or not 1 <= boundary.line <= len(lines) or "\r" in boundary.str:
                    continue
                line = lines[boundary.line - 1]
                column = boundary.occurrences[0] if boundary.occurrences else 0
                shift = before[boundary.line - 1] + len(re.findall(r"\r(?!\n|$)", line[:column]))
                target = analysis.node(ref.boundary_path(boundary) + ("line",))
                if shift and target is not None:
                    edits.append(Edit(target.start, target.end, str(boundary.line + shift)))
    return [Fix("Normalize line breaks to \\n", tuple(edits), True)]


def near_path(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Document paths close to the unknown one, under which the ref resolves."""
    ref = finding.ref
    if ref is None or ref.doc_path is None or ref.start is None or ref.end is None:
        return []
    by_path = analysis.session.by_path
    close = difflib.get_close_matches(ref.doc_path, list(by_path), n=3, cutoff=0.6)
    close += [p for p in by_path if p.lower() == ref.doc_path.lower() and p not in close]
    start, end = (ref.start.line, ref.start.str), (ref.end.line, ref.end.str)
    fitting = [path for path in close if span_resolves(by_path[path].lines, start, end)]
    node = analysis.node(finding.path)
    return [
        Fix(f"Change path to {_quoted(path)}", _replace(node, encode_string(path)), len(fitting) == 1)
        for path in fitting
    ]


def rename_key(analysis: Analysis, finding: Finding) -> list[Fix]:
    """A misspelled key (``polarty``) renamed to the one it misspells: offered on the
    ``unknown-field`` of the key and on the finding that the right key is missing."""
    if finding.code == "unknown-field":
        parent, typo = finding.path[:-1], finding.path[-1]
        wanted = None
    else:
        parent, typo = finding.path, None
        wanted = {"bad-polarity": "polarity", "bad-confidence": "confidence"}.get(finding.code)
        if wanted is None:
            return []
    known = fields_of(parent, analysis.session.shape)
    node = analysis.node(parent)
    if known is None or not isinstance(node, JObject):
        return []
    keys: dict[str, Any] = {member.key.value: True for member in node.members}
    typos = misspellings(keys, known)
    if wanted is not None:
        typo = typos.get(wanted)
    else:
        wanted = next((key for key, found in typos.items() if found == typo), None)
    if typo is None or wanted is None or not isinstance(typo, str):
        return []
    member = node.member(typo)
    if member is None:
        return []
    edit = Edit(member.key.start, member.key.end, encode_string(wanted))
    return [Fix(f"Rename {_quoted(typo, 30)} to {_quoted(wanted, 30)}", (edit,), True)]


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
    """An annotation with no sources gets a source skeleton to fill in: a ref into a
    document that resolves (its first unique word), "supports", confidence 0.5."""
    array = analysis.node(finding.path)
    item = analysis.node(finding.path[:-1])
    if not isinstance(array, JArray) or array.items or item is None:
        return []
    annotation = analysis.annotations_by_path.get(finding.path[:-1])
    claim_path = annotation.claim.doc_path if annotation is not None and annotation.claim is not None else None
    documents = analysis.session.documents
    for document in [d for d in documents if d.path != claim_path] + [d for d in documents if d.path == claim_path]:
        found = _first_unique_word(document)
        if found is not None:
            break
    else:
        return []
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


def remove_annotation(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Delete the annotation whose sources are empty, with the comma that separates it."""
    array = analysis.node(finding.path[:-2])
    if not isinstance(array, JArray):
        return []
    index = finding.path[-2]
    items = array.items
    if not isinstance(index, int) or not 0 <= index < len(items):
        return []
    item = items[index]
    if len(items) == 1:
        edit = Edit(array.start + 1, array.end - 1, "")
    elif index + 1 < len(items):
        edit = Edit(item.start, items[index + 1].start, "")
    else:
        edit = Edit(items[index - 1].end, item.end, "")
    return [Fix("Remove this annotation (it has no sources)", (edit,))]


def no_sources(analysis: Analysis, finding: Finding) -> list[Fix]:
    return add_source(analysis, finding) + remove_annotation(analysis, finding)


Fixer = Callable[[Analysis, Finding], list[Fix]]


def with_rename(right: Fixer) -> Fixer:
    """A fixer of a polarity or confidence value that also renames a misspelled key."""

    def fixes(analysis: Analysis, finding: Finding) -> list[Fix]:
        return right(analysis, finding) + rename_key(analysis, finding)

    return fixes


FIXERS = {
    "boundary-ambiguous": extend_boundary,
    "boundary-not-found": not_found,
    "boundary-order": swap_boundaries,
    "bad-polarity": with_rename(right_polarity),
    "bad-confidence": with_rename(right_confidence),
    "non-lf-content": normalize_content,
    "unknown-path": near_path,
    "unknown-field": rename_key,
    "empty-sources": no_sources,
}


def quick_fixes(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Every fix offered for a finding (none when no fix is right)."""
    fixer = FIXERS.get(finding.code)
    return [fix for fix in fixer(analysis, finding) if fix.edits] if fixer else []

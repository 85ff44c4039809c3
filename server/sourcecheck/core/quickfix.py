"""Quick fixes for findings, as edits of the file's text: pure, no editor involved.

Each fix is offered only where it is right:
- ``boundary-ambiguous``: extend the boundary until it is unique (one fix per occurrence);
- ``boundary-not-found``: the string is unique on a line within 3 of the one named: move there;
- ``bad-polarity``: a near miss (``support``, ``Supports``, ``refute``): the right word;
- ``bad-confidence``: a percentage (``95`` → ``0.95``), a number written as a string, or a
  value just outside [0, 1] by rounding;
- ``non-lf-content``: normalize the content's line breaks to ``\\n``;
- ``unknown-path``: a near miss of a document's path: that path;
- ``empty-sources``: remove the annotation.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from itertools import accumulate

from .analysis import Analysis
from .display import shorten, visible
from .fixes import Extension, extensions, preferred, span_resolves
from .rules import POLARITIES, occurrences
from .session import Finding
from .syntax import JArray, JString, Node, encode_string

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
    node = analysis.node(boundary.json_path + ("line",))
    return [
        Fix(
            f"Move {side} to line {n}, where {_quoted(boundary.str, 30)} is unique",
            _replace(node, str(n)),
            len(candidates) == 1,
        )
        for n in candidates
    ]


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


def confidence_number(value: object) -> float | None:
    """The confidence that was meant: 95 → 0.95, "0.9" → 0.9, 1.0000001 → 1."""
    if isinstance(value, str):
        try:
            value = float(value.strip().rstrip("%")) / (100 if value.strip().endswith("%") else 1)
        except ValueError:
            return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if 0 <= value <= 1:
        return value
    if -0.01 < value < 0 or 1 < value < 1.01:  # out of range by rounding
        return min(1.0, max(0.0, value))
    if 1 < value <= 100:  # a percentage
        return round(value / 100, 6)
    return None


def right_confidence(analysis: Analysis, finding: Finding) -> list[Fix]:
    if finding.path[-1] != "confidence" or finding.ref is None:
        return []
    number = confidence_number(finding.ref.confidence)
    if number is None:
        return []
    written = f"{number:g}" if number not in (0, 1) else str(int(number))
    return [Fix(f"Change confidence to {written}", _replace(analysis.node(finding.path), written), True)]


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
                target = analysis.node(boundary.json_path + ("line",))
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
    return [Fix("Remove this annotation (it has no sources)", (edit,), True)]


FIXERS = {
    "boundary-ambiguous": extend_boundary,
    "boundary-not-found": move_to_nearby_line,
    "bad-polarity": right_polarity,
    "bad-confidence": right_confidence,
    "non-lf-content": normalize_content,
    "unknown-path": near_path,
    "empty-sources": remove_annotation,
}


def quick_fixes(analysis: Analysis, finding: Finding) -> list[Fix]:
    """Every fix offered for a finding (none when no fix is right)."""
    fixer = FIXERS.get(finding.code)
    return [fix for fix in fixer(analysis, finding) if fix.edits] if fixer else []

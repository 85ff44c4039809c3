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
from dataclasses import dataclass

from .analysis import Analysis
from .display import shorten, visible
from .fixes import Extension, extensions, preferred
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
    if extension.forward is False:
        return f'Extend {extension.side} to "{new}" (occurrence {extension.occurrence}: the span would run backward)'
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
    if ref is None or ref.document is None:
        return []
    boundary = ref.start if finding.path[-2] == "start" else ref.end
    if boundary is None:
        return []
    lines = ref.document.lines
    candidates = sorted(
        (n for n in range(boundary.line - NEARBY_LINES, boundary.line + NEARBY_LINES + 1) if n != boundary.line and 1 <= n <= len(lines)),
        key=lambda n: (abs(n - boundary.line), n),
    )
    node = analysis.node(boundary.json_path + ("line",))
    return [
        Fix(f"Move {boundary.json_path[-1]} to line {n}, where {_quoted(boundary.str, 30)} is unique", _replace(node, str(n)), len(candidates) == 1)
        for n in candidates
        if occurrences(lines[n - 1], boundary.str)[1] == 1
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
    return [Fix(f'Change polarity to "{word}"', _replace(analysis.node(finding.path), encode_string(word)), True)] if word else []


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
    if 1 < value <= 100:
        return round(value / 100, 6)
    if -0.01 < value < 0 or 1 < value < 1.01:
        return min(1.0, max(0.0, value))
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
    node = analysis.node(finding.path)
    if not isinstance(node, JString):
        return []
    normalized = node.value.replace("\r\n", "\n").replace("\r", "\n")
    return [Fix("Normalize line breaks to \\n", (Edit(node.start, node.end, encode_string(normalized)),), True)]


def near_path(analysis: Analysis, finding: Finding) -> list[Fix]:
    ref = finding.ref
    if ref is None or ref.doc_path is None:
        return []
    paths = [d.path for d in analysis.session.documents]
    close = difflib.get_close_matches(ref.doc_path, paths, n=3, cutoff=0.6)
    close += [p for p in paths if p.lower() == ref.doc_path.lower() and p not in close]
    node = analysis.node(finding.path)
    return [Fix(f"Change path to {_quoted(path)}", _replace(node, encode_string(path)), i == 0 and len(close) == 1) for i, path in enumerate(close)]


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

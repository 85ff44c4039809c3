"""How findings say things: values and documents named for a person, the misspelling a key
may be, and what to say of a ref that does not resolve (its lines the wrong way round, a line
past its document, a boundary not on its line: what it was meant to be, from core/nearmiss.py).
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

from .display import visible
from .extend import span_resolves
from .jsonlex import escape_lone_surrogates
from .jsonnodes import absent_by_syntax
from .nearmiss import best_part, lines_holding_once
from .occurrences import MAX_OCCURRENCES
from .session import Boundary, CheckedRef, Document, Path


def show(value: Any, limit: int = 60) -> str:
    """A value as JSON, shortened, for a message (`"the"`, `1.0`, `true`)."""
    text = escape_lone_surrogates(json.dumps(value, ensure_ascii=False))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return "`" + visible(text) + "`"


def name(doc_path: str) -> str:
    """A document path for a message: `report`."""
    return "`" + visible(doc_path) + "`"


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def times(count: int) -> str:
    if count > MAX_OCCURRENCES:
        return f"more than {MAX_OCCURRENCES:,} times"
    return "once" if count == 1 else "twice" if count == 2 else f"{count} times"


def misspellings(value: dict[str, Any], known: tuple[str, ...]) -> dict[str, str]:
    """{a key of ``known`` that ``value`` lacks: the unknown key of ``value`` that looks like a
    misspelling of it} (``polarty`` for ``polarity``, ``Confidence`` for ``confidence``)."""
    unknown = [key for key in value if key not in known]
    if not unknown:
        return {}
    missing = [key for key in known if key not in value and not absent_by_syntax(value, key)]
    found: dict[str, str] = {}
    for key in unknown:
        close = [k for k in missing if k == key.strip().lower()] or difflib.get_close_matches(
            key, missing, n=1, cutoff=0.6
        )
        if close and close[0] not in found:
            found[close[0]] = key
    return found


def misspelled_as(value: dict[str, Any], key: str, known: tuple[str, ...]) -> str:
    """`` (`polarty` looks like a misspelling of it)`` when a key of ``value`` looks like ``key``."""
    typo = misspellings(value, known).get(key)
    return f" (`{visible(typo)}` looks like a misspelling of it; rename that key)" if typo is not None else ""


_UNUSUAL_SPACE = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")


def show_exact(text: str, limit: int = 60) -> str:
    """:func:`show`, with every space but the plain one written as an escape: a
    non-breaking space must not look like the space it is not."""
    return _UNUSUAL_SPACE.sub(lambda m: f"\\u{ord(m.group()):04x}", show(text, limit))


def stem(path: str) -> str:
    """A path without its extension (``notes.txt`` → ``notes``), in lower case."""
    head, dot, tail = path.rpartition(".")
    return (head if dot and "/" not in tail and head else path).lower()


def same_but_case_or_extension(path: str, written: str) -> bool:
    """Whether ``written`` names the document ``path`` but for letter case or an extension
    missing or added (``notes`` for ``notes.md``, ``notes.md.md``), never another extension or
    suffix: ``law.2`` is not ``law.1``, ``spec-v1.1`` is not ``spec-v1.0`` (docs/rules.md)."""
    path, written = path.lower(), written.lower()
    return path == written or stem(path) == written or path == stem(written)


def wraps_a_session(value: Any) -> bool:
    """Whether a value is a session of either shape (a response's ``{"result": {...}}``)."""
    return isinstance(value, dict) and bool({"documents", "session"} & value.keys())


def item_number(path: Path) -> int:
    """The 1-based number of the array item at ``path``, for a message."""
    return path[-1] + 1 if isinstance(path[-1], int) else 1


def and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


Coordinates = tuple[tuple[int, str], tuple[int, str]]


def reversed_repairs(ref: CheckedRef, document: Document) -> list[tuple[str, Coordinates]]:
    """The repairs of a ref whose start line comes after its end line that give a ref that
    resolves, each said for a person with its (line, str) boundaries: the boundaries swapped
    (lines and strings), the line numbers swapped, or one boundary moved to the other's line
    (a line number written wrong; its string is there too)."""
    assert ref.start is not None and ref.end is not None
    start, end = ref.start, ref.end
    options: list[tuple[str, Coordinates]] = [
        ("swap the start and end boundaries (their lines and strings)", ((end.line, end.str), (start.line, start.str))),
        (
            f"swap the two line numbers (start on line {end.line}, end on line {start.line})",
            ((end.line, start.str), (start.line, end.str)),
        ),
        (f"write {start.line} for `end.line`", ((start.line, start.str), (start.line, end.str))),
        (f"write {end.line} for `start.line`", ((end.line, start.str), (end.line, end.str))),
    ]
    return [(said, where) for said, where in options if span_resolves(document.lines, *where)]


def reversed_lines(ref: CheckedRef, document: Document) -> str:
    """What to say of a ref whose start line comes after its end line: what gives a ref that
    resolves, if anything does (several: each is a suggested fix); else where each string is."""
    assert ref.start is not None and ref.end is not None
    start, end = ref.start, ref.end
    said = f"`start.line` {start.line} comes after `end.line` {end.line}; a ref runs forward"
    repairs = reversed_repairs(ref, document)
    if len(repairs) == 1:
        return said + ": " + repairs[0][0]
    if repairs:
        return said + ": " + " or ".join(what for what, _ in repairs) + ", as meant (each is a suggested fix)"
    places = []
    for boundary in (start, end):
        holding = lines_holding_once(document.content, document.line_starts, boundary.str)
        where = f"line {and_list([str(n) for n in holding])}" if holding else "no line"
        places.append(f"`{boundary.side}.str` {show(boundary.str)} is unique on {where}")
    return said + "; swapping them gives no ref that resolves: fix the lines (" + "; ".join(places) + ")"


def out_of_range(boundary: Boundary, document: Document) -> str:
    """What to say of a line past the document: its line count, and where ``str`` is."""
    count = len(document.lines)
    last = " (the last is the empty line after its final line break)" if count > 1 and not document.lines[-1] else ""
    said = (
        f"`{boundary.side}.line` {boundary.line} is outside {name(document.path)}, which has {count} "
        f"line{'s' if count != 1 else ''} (1 to {count}){last}"
    )
    holding = lines_holding_once(document.content, document.line_starts, boundary.str)
    if len(holding) == 1:
        return said + f"; {show(boundary.str)} occurs once on line {holding[0]}: write {holding[0]}"
    if holding:
        return said + f"; {show(boundary.str)} occurs once on lines {and_list([str(n) for n in holding])}: write one"
    return said + f"; {show(boundary.str)} is on none of its lines"


def not_found(boundary: Boundary, document: Document, line: str) -> str:
    """What to say of a boundary string that is not on its line: what it was meant to be,
    as the exact replacement (core/nearmiss.py), or the named line's text."""
    where = f"on line {boundary.line} of {name(document.path)}"
    said = f"{show_exact(boundary.str)} does not occur {where}"
    misses = document.near_misses(boundary.line, boundary.str, boundary.side)
    if len(misses) == 1:
        miss = misses[0]
        if miss.line == boundary.line and miss.text != boundary.str:
            return f"{said}, but {show_exact(miss.text)} does: {miss.why}. Write {show_exact(miss.text)}"
        if miss.text == boundary.str:
            return f"{said}; it occurs once on line {miss.line}: write {miss.line} for `{boundary.side}.line`"
        return (
            f"{said}; line {miss.line} has {show_exact(miss.text)} ({miss.why}): write {miss.line} for "
            f"`{boundary.side}.line` and {show_exact(miss.text)} for `{boundary.side}.str`"
        )
    if misses:
        options = and_list(
            [
                f"{show_exact(m.text)} on line {m.line}" + (f" ({m.why})" if m.line == boundary.line else "")
                for m in misses[:4]
            ]
        )
        return f"{said}; it may be {options}: write the one meant"
    if "\n" in boundary.str:
        return (
            f"{said}: `str` holds a line break, but a boundary lies on one line; write the part of it on line "
            f"{boundary.line} (and put the rest's line in the other boundary)"
        )
    shown = visible(best_part(line, boundary.str)) if line else ""
    text = f", which reads `{shown}`" if shown else ", which is empty"
    return f"{said}{text}; check the line number and the exact text (matching is exact, case and accents included)"

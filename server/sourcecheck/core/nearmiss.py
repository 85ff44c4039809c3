"""Near misses: the text a boundary string was meant to be, found the way people and models miss.

A boundary that does not occur on its line was usually meant to be text that is there, written
otherwise. What is looked for, in this order (the first kind that finds anything is the answer):

1. on the named line, the same characters but for quote style (typographic or typed), letter
   case or runs of whitespace (a space for a tab, one for two): the meant text, evidently
   (**safe** to write in its place when it is found once);
2. on the named line, the string without what models add or drop: a leading or trailing space
   or period, markdown emphasis, code or link markup (``**bold**``, `` `code` ``,
   ``[text](url)``), ``...`` for ``…``, a hyphen for a dash (a guess: **unsafe**);
3. a string that holds a line break, or a line wrapped and joined by a space: the part of it on
   the named line, when the line before or after it holds the rest (unsafe);
4. on the two lines either side, the string itself, or written as in 1 (a line off by one or
   two: unsafe).

Each is searched with one regular expression over the original line (the needle made
tolerant, not the line rewritten), so a match is a span of the line as it is, at the cost of
one scan; lines longer than :data:`MAX_LINE` are searched for the string itself only.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Side = Literal["start", "end"]

MAX_LINE = 100_000
"""Characters of a line above which no near miss is looked for on it (a scan per boundary)."""
NEARBY = 2
"""Lines either side of the named one where a boundary is looked for."""

QUOTES_SINGLE = "'\u2018\u2019\u201a\u201b\u2032\u2039\u203a`\u00b4"
QUOTES_DOUBLE = '"\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb'
_SPACE = r"[\s\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+"
_MARKUP = r"(?:[*_~`]|\]\([^)\s]*\)|\[)*"  # emphasis, code, a link's brackets and address


@dataclass(frozen=True, slots=True)
class NearMiss:
    """Text of a line that a boundary string was meant to be."""

    line: int  # 1-based
    column: int  # of its first character
    text: str  # exactly as the line has it
    safe: bool  # only quote style, case or whitespace differ, on the named line, found once
    why: str  # what differs, for a person


DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"


def _char_pattern(ch: str, loose: bool) -> str:
    if ch in QUOTES_SINGLE:
        return f"[{re.escape(QUOTES_SINGLE)}]"
    if ch in QUOTES_DOUBLE:
        return f"[{re.escape(QUOTES_DOUBLE)}]"
    if loose and ch in DASHES:
        return f"[{re.escape(DASHES)}]"
    return re.escape(ch)


def _pattern(needle: str, markup: bool) -> re.Pattern[str] | None:
    """A needle as a case-insensitive pattern that takes any quote style and any run of
    whitespace for one (and, with ``markup``, markdown markup around its words)."""
    parts: list[str] = []
    for piece in re.split(f"({_SPACE})", needle):
        if not piece:
            continue
        if re.fullmatch(_SPACE, piece):
            parts.append((_MARKUP + _SPACE + _MARKUP) if markup else _SPACE)
        else:
            parts.append("".join(_char_pattern(ch, markup) for ch in piece))
    if not parts:
        return None
    body = "".join(parts)
    if markup:
        body = body.replace(re.escape("..."), "(?:\\.\\.\\.|…)").replace("…", "(?:\\.\\.\\.|…)")
    try:
        return re.compile(body, re.IGNORECASE)
    except re.error:  # pragma: no cover - every piece is escaped
        return None


def tolerant(text: str) -> re.Pattern[str] | None:
    """``text`` as a pattern that takes any quote style, letter case and run of whitespace (a
    line break too) for its own: what the check calls the same text written otherwise."""
    return _pattern(text, markup=False)


def _unique(line: str, text: str) -> bool:
    first = line.find(text)
    return first >= 0 and line.find(text, first + 1) < 0


def _matches(pattern: re.Pattern[str], line: str, limit: int = 3) -> list[re.Match[str]]:
    """Up to ``limit`` matches of ``pattern`` on ``line`` (starting at different places)."""
    found: list[re.Match[str]] = []
    at = 0
    while len(found) < limit:
        match = pattern.search(line, at)
        if match is None or not match.group():
            break
        found.append(match)
        at = match.start() + 1
    return found


_ONE_QUOTE = str.maketrans(dict.fromkeys(QUOTES_SINGLE + QUOTES_DOUBLE, "'"))
_TYPED = set("'\"`")
_NAMES = {
    " ": "a space",
    "\t": "a tab",
    "\u00a0": "a non-breaking space (U+00A0)",
    "\u202f": "a narrow non-breaking space (U+202F)",
}


def _name(space: str) -> str:
    if len(space) > 1:
        return f"{len(space)} spaces" if set(space) == {" "} else "several spaces"
    return _NAMES.get(space) or f"U+{ord(space):04X}"


def _differences(written: str, actual: str) -> str:
    """What differs between a boundary as written and the line's text it was meant to be (both
    alike but for quotes, case and whitespace), said as a person would notice it."""
    said = []
    quotes = QUOTES_SINGLE + QUOTES_DOUBLE
    typed, theirs = [ch for ch in written if ch in quotes], [ch for ch in actual if ch in quotes]
    if typed != theirs:
        shown = " ".join(dict.fromkeys(theirs))
        mine = " ".join(dict.fromkeys(typed))
        if all(ch not in _TYPED for ch in theirs) and all(ch in _TYPED for ch in typed):
            said.append(f"typographic quotes ({shown}) where `str` has typed ones ({mine})")
        else:
            said.append(f"quotes ({shown}) where `str` has {mine}")
    for mine, theirs_space in dict.fromkeys(zip(re.findall(_SPACE, written), re.findall(_SPACE, actual), strict=False)):
        if mine != theirs_space:
            said.append(f"{_name(theirs_space)} where `str` has {_name(mine)}")
    plain_written = re.sub(_SPACE, " ", written).translate(_ONE_QUOTE)
    plain_actual = re.sub(_SPACE, " ", actual).translate(_ONE_QUOTE)
    if plain_written != plain_actual:
        said.append("letters in another case")
    return "the line has " + ", ".join(said[:3]) if said else "the line has it written otherwise"


def _loosely(written: str, actual: str) -> str:
    """What differs between a boundary and the line's text beyond quotes, case and spacing."""
    said = []
    if re.sub(r"[^*_`~\[\]()]", "", actual) != re.sub(r"[^*_`~\[\]()]", "", written):
        said.append("markdown markup")
    if ("…" in actual) != ("…" in written):
        said.append("an ellipsis written as " + ("one character" if "…" in actual else "three dots"))
    if [ch for ch in actual if ch in DASHES] != [ch for ch in written if ch in DASHES]:
        said.append("other dashes")
    return "the line has " + (" and ".join(said) or "it written otherwise")


def _on_line(lines: Sequence[str], number: int, needle: str, markup: bool) -> list[tuple[int, str]]:
    """(column, text) of the places on line ``number`` that ``needle`` may have meant."""
    if not 1 <= number <= len(lines) or len(lines[number - 1]) > MAX_LINE:
        return []
    pattern = _pattern(needle, markup)
    if pattern is None:
        return []
    line = lines[number - 1]
    return [(m.start(), m.group()) for m in _matches(pattern, line) if m.group() != needle]


def _trimmed(needle: str) -> list[tuple[str, str]]:
    """The needle without what a model adds to it: a space or period at an end, markup."""
    found = []
    stripped = needle.strip()
    if stripped != needle and stripped:
        found.append((stripped, "`str` has a space at its " + ("end" if needle.endswith(" ") else "start")))
    without = stripped.rstrip(".")
    if without != stripped and without:
        found.append((without, "`str` has a period at its end that the line has not there"))
    plain = re.sub(r"\*\*|__|[*_`~]", "", stripped)
    if plain != stripped and plain:
        found.append((plain, "`str` has markdown markup the line has not"))
    return found


def near_misses(lines: Sequence[str], number: int, needle: str, side: Side) -> list[NearMiss]:
    """What a boundary string ``needle`` that does not occur on line ``number`` (1-based) of
    ``lines`` was meant to be: the candidates of the first kind that finds any (see the
    module's docstring), each once, nearest line first."""
    if not needle or not 1 <= number <= len(lines):
        return []
    line = lines[number - 1]
    # 1. quote style, case, whitespace, on the named line
    found = _on_line(lines, number, needle, markup=False)
    if found:
        safe = len(found) == 1 and _unique(line, found[0][1])
        return [NearMiss(number, c, t, safe, _differences(needle, t)) for c, t in found]
    # 2. what models add or drop, on the named line
    found_loose: list[NearMiss] = []
    for variant, why in [(needle, ""), *_trimmed(needle)]:
        if why.startswith("`str` has a period") and any(n.why.startswith("`str` has a space") for n in found_loose):
            continue  # the line has the period: only the space was added
        for column, text in _on_line(lines, number, variant, markup=True) or (
            [(line.find(variant), variant)] if variant != needle and _unique(line, variant) else []
        ):
            if _unique(line, text) and all(n.text != text for n in found_loose):
                if why.startswith("`str` has a space") and (line.startswith(text) or line.endswith(text)):
                    edge = "ends" if line.endswith(text) and needle[-1:].isspace() else "starts"
                    why = f"{why}, where line {number} {edge}"
                found_loose.append(NearMiss(number, column, text, False, why or _loosely(variant, text)))
    if found_loose:
        return found_loose
    # 3. a line break written in the string, or a wrapped line joined by a space
    broken = _across_lines(lines, number, needle, side)
    if broken:
        return broken
    # 4. the lines either side
    near: list[NearMiss] = []
    for other in sorted(range(number - NEARBY, number + NEARBY + 1), key=lambda n: (abs(n - number), n)):
        if other == number or not 1 <= other <= len(lines):
            continue
        text = lines[other - 1]
        if _unique(text, needle):
            near.append(NearMiss(other, text.find(needle), needle, False, f"it is on line {other}"))
            continue
        for column, meant in _on_line(lines, other, needle, markup=False)[:1]:
            if _unique(text, meant):
                near.append(NearMiss(other, column, meant, False, f"it is on line {other}, written otherwise"))
    return near


def _across_lines(lines: Sequence[str], number: int, needle: str, side: Side) -> list[NearMiss]:
    """The part of ``needle`` on line ``number`` when it runs across a line break: written as
    one (``\\n``) or as the space that joined a wrapped line."""
    line = lines[number - 1]
    found: list[NearMiss] = []
    for at in [m.start() for m in re.finditer(r"\n| ", needle)]:
        before, after = needle[:at].rstrip(), needle[at + 1 :].lstrip()
        if not before or not after:
            continue
        why = (
            "`str` holds a line break, but a boundary lies on one line"
            if needle[at] == "\n"
            else "the text goes on on the next line there, and a boundary lies on one line"
        )
        # The start of a span lies on the line it starts on: the part before the break.
        if side == "start" and line.rstrip().endswith(before) and number < len(lines):
            if lines[number].lstrip().startswith(after) and _unique(line, before):
                found.append(NearMiss(number, line.rstrip().rfind(before), before, False, why))
        # The end of a span lies on the line it ends on: the part after the break.
        if side == "end" and line.lstrip().startswith(after) and number > 1:
            if lines[number - 2].rstrip().endswith(before) and _unique(line, after):
                if needle[at] != "\n":
                    why = "the text begins on the line before, and a boundary lies on one line"
                found.append(NearMiss(number, line.find(after), after, False, why))
    return found[:1]


def lines_holding_once(content: str, starts: Sequence[int], text: str, limit: int = 5) -> list[int]:
    """The lines (1-based) of ``content`` (its lines starting at ``starts``) on which ``text``
    occurs exactly once: at most ``limit`` of them, from the first 50 occurrences."""
    if not text or "\n" in text:
        return []
    found: list[int] = []
    at, seen = content.find(text), 0
    while at >= 0 and seen < 50 and len(found) < limit:
        line = bisect_right(starts, at)
        begin = starts[line - 1]
        end = starts[line] - 1 if line < len(starts) else len(content)
        first = content.find(text, begin, end)
        if line not in found and content.find(text, first + 1, end) < 0:
            found.append(line)
        at = content.find(text, max(at + 1, end))  # on to the next line
        seen += 1
    return found


def best_part(line: str, needle: str, width: int = 60) -> str:
    """The part of ``line`` around where it is most like ``needle`` (its longest run of
    characters in common), at most ``width`` characters, with ``…`` where it was cut."""
    if len(line) <= width:
        return line
    if len(line) > MAX_LINE:  # looked for at no cost per boundary: its start
        return line[:width] + "…"
    probe = needle[:200]
    best, where = 0, 0
    for size in range(min(len(probe), 40), 2, -1):  # the longest piece of the needle on the line
        for start in range(0, len(probe) - size + 1, max(1, size // 2)):
            at = line.find(probe[start : start + size])
            if at >= 0:
                best, where = size, at
                break
        if best:
            break
    begin = max(0, min(where - width // 3, len(line) - width))
    return ("…" if begin else "") + line[begin : begin + width] + ("…" if begin + width < len(line) else "")


__all__ = ["MAX_LINE", "NEARBY", "NearMiss", "best_part", "lines_holding_once", "near_misses", "tolerant"]

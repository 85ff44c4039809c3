"""Near misses: the text a boundary string was meant to be, found the way people and models miss.

A boundary that does not occur on its line was usually meant to be text that is there, written
otherwise. What is looked for, in this order (the first kind that finds anything is the answer):

1. on the named line, the same characters but for quote style (typographic or typed), letter
   case or runs of whitespace (a space for a tab, one for two): the meant text, evidently
   (**safe** to write in its place when it is found once);
2. on the named line, the string without what models add or drop or write otherwise: a
   leading or trailing space or period (a period for the line's ``!`` or ``:``), markdown
   emphasis, code or link markup (``**bold**``, `` `code` ``, ``[text](url)``), ``...`` for
   ``…``, other punctuation (a hyphen or a dash for another, ``--`` for ``—``, a hyphen for a
   space as in ``C extensions`` for ``C-extensions``, a comma dropped or added) (a guess:
   **unsafe**);
3. a string that holds a line break, or a line wrapped and joined by a space: the part of it on
   the named line, when the line before or after it holds the rest (unsafe);
4. on the lines around it (:data:`NEARBY` either side), nearest first: the string itself, or
   written as in 1, or as in 2 (a line off: unsafe).

Each is searched with one regular expression over the original line (the needle made
tolerant, not the line rewritten), so a match is a span of the line as it is, at the cost of
one scan; lines longer than :data:`MAX_LINE` are searched for the string itself only. A match
starts and ends where the string does, on a word boundary (``"is"`` is not the end of
``"This"``), and takes in the markup it would otherwise start or end inside.

:func:`near_misses` gives the candidates of the first kind that finds any (what a message
says); :func:`candidates` gives those of every kind, each with how much it guesses
(:attr:`NearMiss.rank`), for a repair of a whole ref (core/placing.py).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

Side = Literal["start", "end"]

MAX_LINE = 100_000
"""Characters of a line above which no near miss is looked for on it (a scan per boundary)."""
NEARBY = 8
"""Lines either side of the named one where a boundary is looked for (nearest first)."""
SCAN_BUDGET = 200_000
"""Characters of the lines around the named one searched at most for one boundary."""

QUOTES_SINGLE = "'\u2018\u2019\u201a\u201b\u2032\u2039\u203a`\u00b4"
QUOTES_DOUBLE = '"\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb'
_SPACE = r"\s+"  # (in a str pattern, every character str.isspace() takes: U+00A0, U+3000...)
_MARKUP = r"(?:[*_~`]|\]\([^)\s]*\)|\[)*"  # emphasis, code, a link's brackets and address


@dataclass(frozen=True, slots=True)
class NearMiss:
    """Text of a line that a boundary string was meant to be."""

    line: int  # 1-based
    column: int  # of its first character
    text: str  # exactly as the line has it
    safe: bool  # only quote style, case or whitespace differ, on the named line, found once
    why: str  # what differs, for a person
    rank: int = 0  # how much it guesses: 0 the string itself, 1 quotes, case or spacing, 2 more, 3 a line break


DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212"


_FLAT = str.maketrans({**dict.fromkeys(QUOTES_SINGLE.replace("`", ""), "'"), **dict.fromkeys(QUOTES_DOUBLE, '"')})
"""Quotes written as one of each kind (the backtick kept: it is markup too), a character for a
character: a line so written is searched with a pattern of plain characters (a class of ten
quotes, of characters past U+00FF, costs ``re.compile`` a table of 65,536 each time it is in
a pattern) and its matches are at the columns of the line as it is."""
_FLAT_LOOSE = {**_FLAT, **dict.fromkeys(map(ord, DASHES), "-")}
"""Quotes and dashes so written, for the patterns that take any dash for another."""


def _char_pattern(ch: str, loose: bool, flat: bool) -> str:
    if ch in QUOTES_SINGLE:
        return "['`]" if flat else f"[{re.escape(QUOTES_SINGLE)}]"
    if ch in QUOTES_DOUBLE:
        return '"' if flat else f"[{re.escape(QUOTES_DOUBLE)}]"
    if loose and ch in DASHES:
        return "\\-" if flat else f"[{re.escape(DASHES)}]"
    return re.escape(ch)


def _dash_run(flat: bool) -> str:
    return "\\-{1,3}" if flat else f"[{re.escape(DASHES)}]{{1,3}}"


def _loose_space(flat: bool) -> str:
    """A space as models rewrite it: a comma added before it, a hyphen or a dash for it."""
    return f"{_MARKUP}(?:,?{_SPACE}|(?:{_SPACE})?{_dash_run(flat)}(?:{_SPACE})?){_MARKUP}"


def _loose_piece(piece: str, flat: bool) -> str:
    """A word of the needle with other punctuation taken for its own: any dash (or ``--``, or a
    space) for a dash, a comma dropped."""
    parts = []
    for run in re.findall(f"[{re.escape(DASHES)}]+|.", piece):
        if run[0] in DASHES:
            parts.append(f"(?:{_dash_run(flat)}|{_SPACE})")
        elif run == ",":
            parts.append(",?")
        else:
            parts.append(_char_pattern(run, True, flat))
    return "".join(parts)


@lru_cache(maxsize=1024)
def _pattern(needle: str, markup: bool, flat: bool = True) -> re.Pattern[str] | None:
    """A needle as a case-insensitive pattern that takes any quote style and any run of
    whitespace for one (and, with ``markup``, markdown markup around its words and other
    punctuation: see :func:`_loose_piece`); compiled once per needle (a boundary's is asked
    for on every line around it). With ``flat``, a pattern of a line written with
    :data:`_FLAT` (:data:`_FLAT_LOOSE` with ``markup``): the same matches, built at a tenth
    of the cost."""
    parts: list[str] = []
    for piece in re.split(f"({_SPACE})", needle):
        if not piece:
            continue
        if re.fullmatch(_SPACE, piece):
            parts.append(_loose_space(flat) if markup else _SPACE)
        else:
            parts.append(
                _loose_piece(piece, flat) if markup else "".join(_char_pattern(ch, False, flat) for ch in piece)
            )
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
    return _pattern(text, markup=False, flat=False)


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
    dashes_written = re.findall(f"[{re.escape(DASHES)}]+", written)
    dashes_actual = re.findall(f"[{re.escape(DASHES)}]+", actual)
    if dashes_actual != dashes_written:
        shown = " ".join(dict.fromkeys(dashes_actual))
        said.append(
            f"a dash ({shown}) where `str` has " + (" ".join(dict.fromkeys(dashes_written)) or "a space")
            if dashes_actual
            else "a space where `str` has " + " ".join(dict.fromkeys(dashes_written))
        )
    if written.count(",") != actual.count(","):
        said.append(
            "a comma where `str` has none" if actual.count(",") > written.count(",") else "no comma where `str` has one"
        )
    return "the line has " + (" and ".join(said) or "it written otherwise")


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _on_word_boundaries(line: str, start: int, end: int, needle: str) -> bool:
    """Whether ``line[start:end]`` starts and ends where its words do, as ``needle`` does (a
    needle that starts with a letter is not meant to start inside a word of the line; one that
    starts with a dash, not at the space before it)."""
    if start > 0 and _word(needle[:1] or " ") and _word(line[start - 1]) and _word(line[start]):
        return False
    if line[start].isspace() != needle[:1].isspace() or line[end - 1].isspace() != needle[-1:].isspace():
        return False
    return not (end < len(line) and _word(needle[-1:] or " ") and _word(line[end - 1]) and _word(line[end]))


_MARK_RUN = re.compile(r"\*+|(?<!\w)_+|_+(?!\w)|`+|~+")


def _runs(text: str, mark: str) -> int:
    return sum(1 for m in _MARK_RUN.finditer(text) if m.group()[0] == mark)


def _with_markup(line: str, start: int, end: int, needle: str) -> tuple[int, int]:
    """``[start, end)`` widened to take in the markup it would start or end inside where
    ``needle`` does not: an emphasis or code mark whose twin is just outside it (``**Bold**
    text``, not ``Bold** text``), a link's ``[`` or its ``](address)``."""
    text = line[start:end]
    for mark in "*_`~":
        if _runs(text, mark) % 2 == _runs(needle, mark) % 2:
            continue
        if start > 0 and line[start - 1] == mark:
            while start > 0 and line[start - 1] == mark:
                start -= 1
        elif end < len(line) and line[end] == mark:
            while end < len(line) and line[end] == mark:
                end += 1
    text = line[start:end]
    if "](" in text and "[" not in text[: text.index("](")] and start > 0 and line[start - 1] == "[":
        start -= 1 if "](" not in needle else 0
    text = line[start:end]
    opened = text.rfind("[")
    if opened >= 0 and "]" not in text[opened:] and line.startswith("](", end) and "[" not in needle:
        close = line.find(")", end)
        if close >= 0:
            end = close + 1
    return start, end


_QUOTE_CLASS = f"[{re.escape(QUOTES_SINGLE + QUOTES_DOUBLE)}]"
_LITERAL = re.compile(f"{_SPACE}|{_QUOTE_CLASS}")
_LITERAL_LOOSE = re.compile(f"{_SPACE}|{_QUOTE_CLASS}|[{re.escape(DASHES)},]|\\.\\.\\.|…")


@lru_cache(maxsize=4096)
def _pieces(needle: str, markup: bool) -> tuple[str, ...]:
    """The runs of ``needle`` that any match of its pattern (:func:`_pattern`) holds as they
    are, but for case: what lies between its spaces and quotes (and, with ``markup``, its
    dashes, commas and ellipses, which the pattern takes written otherwise)."""
    return tuple(piece for piece in (_LITERAL_LOOSE if markup else _LITERAL).split(needle.lower()) if piece)


def _may_match(lowered: str, needle: str, markup: bool) -> bool:
    """Whether every piece of ``needle`` (:func:`_pieces`) is on the line (``lowered``, as
    ``str.lower`` writes it): what its pattern needs to match, checked before the pattern is
    compiled or run (most lines around a boundary hold none of it; a boundary whose string
    was written with a character its line has not needs no pattern at all)."""
    return all(piece in lowered for piece in _pieces(needle, markup))


_PUNCTUATION = "!?:;,"
_WRAPPED = re.compile(r"(\*\*|__|[*_`~])(.+)\1")
_MARKS = re.compile(r"\*\*|__|[*_`~]")


def _trimmed(needle: str, line: str) -> list[tuple[str, str]]:
    """The needle without what a model adds to it or writes otherwise: a space at an end, a
    period at its end (or a period for the line's ``!``, ``:``...), markup."""
    found = []
    stripped = needle.strip()
    if stripped != needle and stripped:
        found.append((stripped, "`str` has a space at its " + ("end" if needle.endswith(" ") else "start")))
    without = stripped.rstrip(".")
    if without != stripped and without:
        other = [without + mark for mark in _PUNCTUATION if _unique(line, without + mark)]
        if len(other) == 1 and not _unique(line, stripped):
            found.append((other[0], f"the line has `{other[0][-1]}` where `str` has a period"))
        else:
            found.append((without, "`str` has a period at its end that the line has not there"))
    unwrapped = stripped
    while (wrapped := _WRAPPED.fullmatch(unwrapped)) is not None:
        unwrapped = wrapped.group(2)
    plain = _MARKS.sub("", stripped)
    for variant in dict.fromkeys([unwrapped, plain]):
        if variant != stripped and variant:
            found.append((variant, "`str` has markdown markup the line has not"))
    return found


class Survey:
    """The near misses of one document's lines, each search made once: a boundary's message
    (:meth:`near_misses`) and its ref's repair (:meth:`candidates`) ask for the same lines
    around it, and so do the refs of one line (a document holds one, core/session.py)."""

    __slots__ = ("_flat", "_lines", "_lowered", "_memo", "_places", "_text")

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = lines
        self._lowered: dict[int, str] = {}
        self._flat: dict[tuple[int, bool], str] = {}
        self._memo: dict[tuple[object, ...], list[NearMiss]] = {}
        self._text: dict[int, str] = {}
        self._places: dict[tuple[int, str, bool, str | None], list[tuple[int, str]]] = {}

    def _line(self, number: int) -> str:
        """Line ``number`` (1-based), sliced from the document once (``Lines`` slices it anew
        each time it is asked: a boundary's message and its ref's repair ask 16 lines each)."""
        text = self._text.get(number)
        if text is None:
            text = self._text[number] = self._lines[number - 1]
        return text

    def _flattened(self, number: int, markup: bool) -> str:
        """Line ``number`` as :func:`_pattern`'s patterns read it (``flat``)."""
        flat = self._flat.get((number, markup))
        if flat is None:
            flat = self._flat[number, markup] = self._line(number).translate(_FLAT_LOOSE if markup else _FLAT)
        return flat

    def _lower(self, number: int) -> str:
        lowered = self._lowered.get(number)
        if lowered is None:
            lowered = self._lowered[number] = self._line(number).lower()
        return lowered

    def _on_line(self, number: int, needle: str, markup: bool, written: str | None = None) -> list[tuple[int, str]]:
        key = (number, needle, markup, written)
        found = self._places.get(key)
        if found is None:
            found = self._places[key] = self._places_on(number, needle, markup, written)
        return found

    def _places_on(self, number: int, needle: str, markup: bool, written: str | None) -> list[tuple[int, str]]:
        """(column, text) of the places on line ``number`` that ``needle`` may have meant:
        those on word boundaries as the needle is, where any is (else those inside words: a
        string written as a prefix); with ``markup``, with the markup it starts or ends inside
        where the string as ``written`` does not."""
        lines = self._lines
        if not 1 <= number <= len(lines) or len(line := self._line(number)) > MAX_LINE:
            return []
        if not _may_match(self._lower(number), needle, markup):
            return []
        pattern = _pattern(needle, markup)
        if pattern is None:
            return []
        matches = [m.span() for m in _matches(pattern, self._flattened(number, markup))]
        whole = [(start, end) for start, end in matches if _on_word_boundaries(line, start, end, needle)]
        found: list[tuple[int, str]] = []
        for start, end in whole or matches:  # inside words only where nothing is on their boundaries
            if markup:
                start, end = _with_markup(line, start, end, needle if written is None else written)
            if line[start:end] != needle and all(column != start for column, _ in found):
                found.append((start, line[start:end]))
        return found

    def written_otherwise(self, number: int, needle: str) -> list[str]:
        """Every text of line ``number`` that is ``needle`` but for quotes, case and spacing
        (:func:`tolerant`'s matches, one after another), the needle itself among them."""
        pattern = _pattern(needle, False)
        if pattern is None or not _may_match(self._lower(number), needle, False):
            return []
        line = self._line(number)
        return [line[m.start() : m.end()] for m in pattern.finditer(self._flattened(number, False))]

    def _remembered(self, key: tuple[object, ...], work: Callable[[], list[NearMiss]]) -> list[NearMiss]:
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = work()
        return found

    def _loose_on_line(self, number: int, needle: str) -> list[NearMiss]:
        """Kind 2 (see the module's docstring): what models add, drop or write otherwise."""
        return self._remembered(("loose", number, needle), lambda: self._loose(number, needle))

    def _loose(self, number: int, needle: str) -> list[NearMiss]:
        line = self._line(number)
        found: list[NearMiss] = []
        for variant, why in [(needle, ""), *_trimmed(needle, line)]:
            if why.startswith("`str` has a period") and any(n.why.startswith("`str` has a space") for n in found):
                continue  # the line has the period: only the space was added
            exact = variant != needle and _unique(line, variant)  # only what was added is wrong: evident
            for column, text in (
                [(line.find(variant), variant)] if exact else self._on_line(number, variant, True, needle)
            ):
                # (a part of a candidate already found, at its column, is not another one: the
                # string without its period where the line has the period after what was meant)
                if _unique(line, text) and all(
                    n.text != text and not (n.column == column and n.text.startswith(text)) for n in found
                ):
                    if why.startswith("`str` has a space") and (line.startswith(text) or line.endswith(text)):
                        edge = "ends" if line.endswith(text) and needle[-1:].isspace() else "starts"
                        why = f"{why}, where line {number} {edge}"
                    found.append(NearMiss(number, column, text, False, why or _loosely(variant, text), 2))
        return found

    def _tolerant_on_line(self, number: int, needle: str) -> list[NearMiss]:
        """Kind 1: the same characters but for quotes, case and spacing (safe when found once)."""
        return self._remembered(("tolerant", number, needle), lambda: self._tolerant(number, needle))

    def _tolerant(self, number: int, needle: str) -> list[NearMiss]:
        found = self._on_line(number, needle, markup=False)
        if not found:
            return []
        line = self._line(number)
        pattern = _pattern(needle, False)
        everywhere = (
            len(_matches(pattern, self._flattened(number, False))) if pattern is not None else 0
        )  # mid-word too
        safe = len(found) == 1 and everywhere == 1 and _unique(line, found[0][1])
        return [NearMiss(number, c, t, safe, _differences(needle, t), 1) for c, t in found]

    def _elsewhere(self, number: int, needle: str, every: bool) -> list[NearMiss]:
        """Kind 4: on the lines around ``number``, nearest first: the string itself, else
        written as kind 1 finds it, else as kind 2 does (with ``every``: each of them, not only
        the first kind found on a line)."""
        return self._remembered(("elsewhere", number, needle, every), lambda: self._around(number, needle, every))

    def _around(self, number: int, needle: str, every: bool) -> list[NearMiss]:
        lines = self._lines
        near: list[NearMiss] = []
        budget = SCAN_BUDGET
        around = sorted(range(number - NEARBY, number + NEARBY + 1), key=lambda n: (abs(n - number), n))
        for other in around:
            if other == number or not 1 <= other <= len(lines):
                continue
            text = self._line(other)
            budget -= len(text)
            if budget < 0:
                break
            exact = _unique(text, needle)
            if exact:
                near.append(NearMiss(other, text.find(needle), needle, False, f"it is on line {other}", 0))
                if not every:
                    continue
            written = [(c, m) for c, m in self._on_line(other, needle, markup=False) if _unique(text, m)]
            for column, meant in written[: 2 if every else 1]:
                near.append(NearMiss(other, column, meant, False, f"it is on line {other}, written otherwise", 1))
            if every and not written and not exact:
                for miss in self._loose_on_line(other, needle)[:1]:
                    near.append(
                        NearMiss(other, miss.column, miss.text, False, f"it is on line {other}, written otherwise", 2)
                    )
        return near

    def near_misses(self, number: int, needle: str, side: Side) -> list[NearMiss]:
        """What a boundary string ``needle`` that does not occur on line ``number`` (1-based)
        was meant to be: the candidates of the first kind that finds any (see the module's
        docstring), each once, nearest line first."""
        if not needle or not 1 <= number <= len(self._lines):
            return []
        return (
            self._tolerant_on_line(number, needle)
            or self._loose_on_line(number, needle)
            or _across_lines(self._lines, number, needle, side)
            or self._elsewhere(number, needle, every=False)
            or [miss for miss in self._elsewhere(number, needle, every=True) if miss.rank == 2]
        )

    def candidates(self, number: int, needle: str, side: Side) -> list[NearMiss]:
        """Every place of every kind a boundary string may have meant (not only the first
        kind's: a ref with two mistakes is repaired as a whole from these, core/placing.py),
        nearest first and each once: the named line's, then the lines around it."""
        if not needle or not 1 <= number <= len(self._lines):
            return []
        return self._remembered(("candidates", number, needle, side), lambda: self._every(number, needle, side))

    def _every(self, number: int, needle: str, side: Side) -> list[NearMiss]:
        found = [
            *self._tolerant_on_line(number, needle),
            *self._loose_on_line(number, needle),
            *_across_lines(self._lines, number, needle, side),
            *self._elsewhere(number, needle, every=True),
        ]
        unique: dict[tuple[int, int, str], NearMiss] = {}
        for miss in found:
            unique.setdefault((miss.line, miss.column, miss.text), miss)
        return list(unique.values())


def near_misses(lines: Sequence[str], number: int, needle: str, side: Side) -> list[NearMiss]:
    """:meth:`Survey.near_misses` of ``lines`` asked once."""
    return Survey(lines).near_misses(number, needle, side)


def candidates(lines: Sequence[str], number: int, needle: str, side: Side) -> list[NearMiss]:
    """:meth:`Survey.candidates` of ``lines`` asked once."""
    return Survey(lines).candidates(number, needle, side)


_BREAK_OR_SPACE = re.compile(r"\n| ")


def _across_lines(lines: Sequence[str], number: int, needle: str, side: Side) -> list[NearMiss]:
    """The part of ``needle`` on line ``number`` when it runs across a line break: written as
    one (``\\n``) or as the space that joined a wrapped line."""
    line = lines[number - 1]
    found: list[NearMiss] = []
    for at in [m.start() for m in _BREAK_OR_SPACE.finditer(needle)]:
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
                found.append(NearMiss(number, line.rstrip().rfind(before), before, False, why, 3))
        # The end of a span lies on the line it ends on: the part after the break.
        if side == "end" and line.lstrip().startswith(after) and number > 1:
            if lines[number - 2].rstrip().endswith(before) and _unique(line, after):
                if needle[at] != "\n":
                    why = "the text begins on the line before, and a boundary lies on one line"
                found.append(NearMiss(number, line.find(after), after, False, why, 3))
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


__all__ = [
    "MAX_LINE",
    "NEARBY",
    "NearMiss",
    "Survey",
    "best_part",
    "candidates",
    "lines_holding_once",
    "near_misses",
    "tolerant",
]

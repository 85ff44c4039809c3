"""Strings as writers break them, read as the strings they were meant to be: a string pasted
with its line breaks, a `"` meant as text (`"say "hi" now"`), one never closed (it ends at
its line), one in single quotes. A part of the parser (:class:`~.syntax.Parser` is a
:class:`StringRecovery`), apart because it is read only when a string is broken.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .jsonlex import (
    ESCAPE,
    SIMPLE_ESCAPES,
    after_ws,
    control_message,
    decode_lenient,
    is_escaped,
    string_body_end,
    visible_token,
)
from .jsonnodes import JString

AFTER_STRING = frozenset(' \t\r\n,:]}"/')
"""What may follow the closing quote of a string. Anything else (`"say "hi" now"`) suggests
that the quote was meant as part of the text."""
_STRUCTURAL = frozenset(",:]}\r\n")
_CLOSE_SCAN = re.compile(r'["{}\[\]\n\r]')
_QUOTE_OR_BRACKET = re.compile(r'["{}\[\]]')

_OPENLESS = re.compile(r'[^"\\{}\[\]:,\n\r]{1,1000}(?="[ \t]*(?:[,}\]\r\n]|$))')
"""The text of a value written without its opening quote (`Rich",`): up to a `"` that ends
it, on its line, holding no quote, backslash, bracket, colon or comma (so what follows a
bare word is never read past the next one, and its length is bounded: linear cost)."""


def missing_opening_quote(text: str, pos: int) -> int:
    """Where the value at ``pos`` ends, past its closing quote, when it is a string that
    lacks only its opening `"`; -1 when it is not one."""
    match = _OPENLESS.match(text, pos)
    return match.end() + 1 if match else -1


def opening_quote_message(value: str) -> str:
    """What to say of a string written without its opening quote."""
    return f'this string has no opening `"`: write `"{visible_token(value)}"`'


@dataclass(slots=True)
class _BrokenScan:
    """What reading a broken string has found so far."""

    key: bool  # the string is a key
    inner: list[int] = field(default_factory=list)  # quotes meant as text
    in_text: bool = False  # past a quote meant as text
    breaks: int = 0  # raw line breaks (`\r\n` counts once)
    first_break: int = -1
    closes_at: int = -1  # a string that goes on over line breaks closes at this quote
    controls: list[int] = field(default_factory=list)  # raw control characters


class StringRecovery:
    """The parser's reading of broken strings; the parser supplies the text and its issues."""

    text: str
    n: int
    _unclosed: int

    def issue(self, start: int, end: int, message: str) -> None:
        raise NotImplementedError

    def eof_issue(self, message: str) -> None:
        raise NotImplementedError

    def first_on_line(self, pos: int) -> bool:
        raise NotImplementedError

    def fits_close(self, quote: int, key: bool) -> bool:
        """Whether what follows the `"` at ``quote`` is what follows a key (`:`) or a value."""
        after = quote + 1
        while after < self.n and self.text[after] in " \t":
            after += 1
        if after >= self.n:
            return not key
        ch = self.text[after]
        return ch == ":" if key else ch in ",]}\r\n"

    def closes_later(self, at: int, key: bool) -> int:
        """The `"` later on this line that would close a string begun before ``at`` (one
        whose closing quote was meant as text); -1 when there is none. The search stops at
        a bracket that closes what is around the string: the value ends there at the latest."""
        text = self.text
        depth = 0
        for match in _CLOSE_SCAN.finditer(text, at):
            ch, quote = match.group(), match.start()
            if ch == '"':
                if is_escaped(text, quote):
                    continue
                after = quote + 1
                while after < self.n and text[after] in " \t":
                    after += 1
                if after >= self.n or text[after] in _STRUCTURAL:
                    return quote if self.fits_close(quote, key) else -1
            elif ch in "{[":
                depth += 1
            elif ch in "}]":
                depth -= 1
                if depth < 0:
                    return -1
            else:  # the end of the line
                return -1
        return -1

    def continuation(self, at: int, key: bool) -> int:
        """Where a string with a raw line break at ``at`` closes, when it was typed (or
        pasted) over several lines; -1 when it was never closed and ends at its line. As in
        :meth:`closes_later`, a bracket that closes what is around the string ends the search."""
        text = self.text
        after = after_ws(text, at)
        if after < self.n and text[after] in "{}]":
            return -1  # a line that starts with a bracket: the JSON goes on there
        depth = 0
        for match in _QUOTE_OR_BRACKET.finditer(text, at):
            ch, quote = match.group(), match.start()
            if ch in "{[":
                depth += 1
                continue
            if ch in "}]":
                depth -= 1
                if depth < 0:
                    return -1
                continue
            if is_escaped(text, quote):
                continue
            if self.fits_close(quote, key):
                return quote
            if self.first_on_line(quote):
                return -1  # a line that starts with a string: the JSON goes on there
            # Otherwise a quote in the text (`said "hi" to`): the string goes on.
        return -1

    def broken_string(self, pos: int, key: bool) -> tuple[JString, int]:
        """A string with a raw control character or line break, a bad escape, a `"` meant as
        text, or no closing quote: one issue for each kind of mistake in it.

        A JSON string cannot hold a raw line break, so a string that is not closed ends at
        its line, and the rest of the file keeps its meaning; one that closes on a later line
        as a value would (text pasted with its line breaks) is read as one string.
        """
        text, i = self.text, pos + 1
        scan = _BrokenScan(key)
        end = None
        while i < self.n:
            ch = text[i]
            if ch == '"':
                end = self._quote_in_string(scan, i)
                if end is not None:
                    break
            elif ch == "\n" or ch == "\r":
                if not self._break_in_string(scan, i):
                    end = self._unclosed = i
                    break
            elif ch == "\\":
                i += self._escape_in_string(i)
                continue
            elif ch < " ":
                scan.controls.append(i)
            i += 1
        if end is None:
            end = i
            self.eof_issue('the file ends inside a string; add the closing `"`')
        self._report_broken(scan)
        return JString(pos, end, decode_lenient(text[pos + 1 : string_body_end(text, pos, end)])), end

    def _quote_in_string(self, scan: _BrokenScan, i: int) -> int | None:
        """The end of the string when the `"` at ``i`` closes it; None when it is a quote of
        the text (recorded in ``scan``)."""
        text, key = self.text, scan.key
        if i >= scan.closes_at:  # (before it: in text that goes on over lines, a quote of the text)
            if scan.in_text:  # past a quote meant as text: the string ends at a quote that fits
                if self.fits_close(i, key):
                    return i + 1
            elif i + 1 >= self.n or text[i + 1] in AFTER_STRING or self.closes_later(i + 1, key) < 0:
                return i + 1
            scan.in_text = True
        scan.inner.append(i)
        return None

    def _break_in_string(self, scan: _BrokenScan, i: int) -> bool:
        """Whether the string goes on past the raw line break at ``i`` (text pasted with its
        line breaks, closing on a later line); when it does not, it is never closed, and ends
        at its line (reported)."""
        if scan.closes_at < i:
            scan.closes_at = self.continuation(i, scan.key)
        if scan.closes_at < 0:
            # Where the quote goes: the end of the line (the string itself is the rules' to judge).
            self.issue(i, i, 'this string is never closed; add the closing `"` at the end of its line')
            return False
        if self.text[i] == "\n" or not self.text.startswith("\n", i + 1):
            scan.breaks += 1
            scan.first_break = i if scan.first_break < 0 else scan.first_break
        return True

    def _escape_in_string(self, i: int) -> int:
        """The length of the escape at ``i`` in a string, reported when it is not JSON's."""
        text = self.text
        escape = ESCAPE.match(text, i)
        assert escape is not None  # a backslash starts an escape, maybe a bad one
        piece = escape.group()
        if piece[1:] in ("\n", "\r"):
            piece = "\\"  # the line break is the loop's to judge
        if piece == "\\u":
            digits = re.match(r'[^"\\\s]{0,4}', text[i + 2 : i + 6])
            shown = text[i : i + 2 + (len(digits.group()) if digits else 0)]
            self.issue(i, i + len(shown), f"`{visible_token(shown)}`: a \\u escape needs four hex digits")
        elif not (len(piece) in (6, 12) or (len(piece) == 2 and piece[1] in SIMPLE_ESCAPES)):
            shown = piece if len(piece) == 2 else "\\"
            self.issue(
                i,
                i + len(shown),
                f"`{visible_token(shown)}` is not a JSON escape; write `\\\\` for a backslash",
            )
        return len(piece)

    def _report_broken(self, scan: _BrokenScan) -> None:
        """One issue for each kind of mistake ``scan`` found in a string."""
        if scan.breaks:
            self.issue(
                scan.first_break,
                scan.first_break + 1,
                f"this string goes on over {scan.breaks + 1} lines, but a JSON string cannot hold a raw line break: "
                "write each one as `\\n`",
            )
        if scan.inner:
            inner = scan.inner
            several = f" ({len(inner)} of them)" if len(inner) > 1 else ""
            self.issue(
                inner[0],
                inner[-1] + 1,
                f'a `"` inside a string ends it: write each quote that is part of the text as `\\"`{several}',
            )
        if scan.controls:
            self.issue(scan.controls[0], scan.controls[0] + 1, control_message(self.text, scan.controls))

    def single_quoted(self, pos: int) -> tuple[JString | None, int]:
        """A string in single quotes: read as the string it was meant to be, and reported.
        A `'` that does not close on its line is a stray character, not a string."""
        text, i = self.text, pos + 1
        while i < self.n and text[i] not in "'\n\r":
            i += 2 if text[i] == "\\" else 1
        if i >= self.n or text[i] != "'":
            self.issue(pos, pos + 1, "expected a value, found `'`; JSON strings are in double quotes")
            return None, pos + 1
        end = i + 1
        self.issue(pos, end, 'JSON strings and keys are in double quotes (`"`), not single quotes')
        return JString(pos, end, decode_lenient(text[pos + 1 : string_body_end(text, pos, end)])), end

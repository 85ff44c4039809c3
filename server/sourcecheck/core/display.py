"""Showing untrusted document text safely: nothing invisible, nothing that reorders text.

Document text, file names, paths and keys reach terminals, CI annotations, SARIF viewers,
hovers, hints, the outline and the report. Control characters could move a terminal's
cursor or set its title; bidirectional overrides (U+202E) could make a span read as
something it is not; zero-width and tag characters (U+E0000 to U+E007F) can carry text no
reader sees; lone surrogates cannot even be encoded. :func:`visible` is the one function
every output passes such text through: all of them are shown as escapes.
"""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HIDDEN = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 and C1 controls but tab, LF
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u3164\uffa0"  # soft hyphen, fillers, invisibles
    "\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb"  # bidi marks, zero widths, separators
    "\ud800-\udfff"  # lone surrogates
    "\U000e0000-\U000e007f"  # tags (invisible; they can spell text no reader sees)
)
HIDDEN_CHARACTERS = _HIDDEN
"""What :func:`visible` escapes, as the body of a regular expression's character class."""
_ESCAPE_ONE_LINE = re.compile(f"[{_HIDDEN}\\n\\r\\t]")
_ESCAPE_KEEP_LINES = re.compile(f"[{_HIDDEN}\\r]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class EscapingParser(argparse.ArgumentParser):
    """An argument parser whose every message (usage, errors, help) goes through
    :func:`visible`: an error echoes the argument it could not read, and an argument may hold
    anything (``sourcecheck $'--\\e]0;X\\a'`` sets no terminal's title)."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            super()._print_message(visible(message, keep_newlines=True), file)


def visible(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every invisible or reordering character written as an escape."""
    pattern = _ESCAPE_KEEP_LINES if keep_newlines else _ESCAPE_ONE_LINE
    return pattern.sub(_escape, text)


def both_ends(text: str, width: int) -> str:
    """At most about ``width`` characters showing where ``text`` starts and where it ends, with
    `` … `` for what is left out between (``relieving … methods``), cut at spaces when near."""
    if width <= 0 or len(text) <= width:
        return text
    half = max(1, (width - 3) // 2)
    return _joined_ends(text[:half], text[-half:], half)


def _joined_ends(head: str, tail: str, half: int) -> str:
    """A text's start and end (each at most ``half`` long) joined by `` … ``, each cut at a
    space when one is near the cut."""
    space = head.rfind(" ")
    if space >= half // 2:
        head = head[:space]
    space = tail.find(" ")
    if 0 <= space <= half // 2:
        tail = tail[space + 1 :]
    return head.rstrip() + " … " + tail.lstrip()


def title_quote(text: str, width: int, ends: bool = False) -> str:
    """``text`` in double quotes for a title: cut to about ``width`` characters (its start, or
    with ``ends`` both ends), a quote or backslash in it escaped as JSON escapes them (``")``
    shows as ``"\\")"``, not as ``"")"``), and invisible characters made visible."""
    cut = both_ends(text, width) if ends else shorten(text, width)
    return '"' + _shown(cut) + '"'


def quote_within(text: str, width: int) -> str:
    """``text`` in double quotes, as :func:`title_quote` writes it (a quote or backslash
    escaped as JSON escapes them, invisible characters made visible), in about ``width``
    characters of what is shown, escapes counted: both of its ends (:func:`both_ends`) from
    :data:`ENDS` characters up, its start below; never cut inside an escape."""
    if width <= 0:
        return '"' + _shown(text) + '"'
    if len(text) <= width and len(whole := _shown(text)) <= width:
        return '"' + whole + '"'
    if width < ENDS:
        return '"' + _fitting(text[:width], width - 1) + '…"'
    half = max(1, (width - 3) // 2)
    return '"' + _joined_ends(_fitting(text[:half], half), _fitting(text[-half:][::-1], half, reverse=True), half) + '"'


ENDS = 9
"""The narrowest width :func:`quote_within` shows both ends in (``col … 7%)``)."""


def _shown(text: str) -> str:
    """``text`` as a quoted title shows it: a quote or backslash escaped, nothing invisible."""
    return visible(text.replace("\\", "\\\\").replace('"', '\\"'))


def _fitting(text: str, width: int, reverse: bool = False) -> str:
    """The shown characters of ``text`` (reversed: of its end, given reversed) that fit in
    ``width``, each character's escape whole."""
    shown: list[str] = []
    used = 0
    for character in text:
        piece = _shown(character)
        if used + len(piece) > width:
            break
        shown.append(piece)
        used += len(piece)
    return "".join(reversed(shown) if reverse else shown)


def shorten(text: str, width: int) -> str:
    """At most ``width`` characters, with ``…`` where text was cut."""
    if width <= 0 or len(text) <= width:
        return text
    return text[: max(width - 1, 0)] + "…"


_HIDDEN_ANYWHERE = re.compile(f"[{_HIDDEN}\u2028\u2029]")


def json_escape(match: re.Match[str]) -> str:
    """The matched character as a JSON ``\\u`` escape (an astral one as its surrogate pair)."""
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_visible(text: str) -> str:
    """JSON text with every character :func:`visible` escapes written as a ``\\u`` escape: the
    same JSON value, safe to show in a terminal (in JSON such a character can only be inside a
    string, where an escape means the character itself)."""
    return _HIDDEN_ANYWHERE.sub(json_escape, text)


def plural(count: int, word: str, words: str | None = None) -> str:
    """A count and its noun, for a person: ``1 ref``, ``4 refs``, ``1,200 annotations``,
    ``2 analyses`` (``words``: the plural where it is not ``word`` + s)."""
    return f"{count:,} {word if count == 1 else (words or word + 's')}"

"""Showing untrusted document text safely: nothing invisible, nothing that reorders text.

Document text reaches terminals, hovers and hints. Control characters could move a
terminal's cursor; bidirectional overrides (U+202E) could make a span read as something
it is not; lone surrogates cannot even be encoded. All of them are shown as escapes.
"""

from __future__ import annotations

import re

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_HIDDEN = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 and C1 controls but tab, LF
    "\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff"  # bidi marks, zero widths, separators
    "\ud800-\udfff"  # lone surrogates
)
_ESCAPE_ONE_LINE = re.compile(f"[{_HIDDEN}\\n\\r\\t]")
_ESCAPE_KEEP_LINES = re.compile(f"[{_HIDDEN}\\r]")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every invisible or reordering character written as an escape."""
    pattern = _ESCAPE_KEEP_LINES if keep_newlines else _ESCAPE_ONE_LINE
    return pattern.sub(_escape, text)


def shorten(text: str, width: int) -> str:
    """At most ``width`` characters, with ``…`` where text was cut."""
    if width <= 0 or len(text) <= width:
        return text
    return text[: max(width - 1, 0)] + "…"

"""JSON's lexical level: whitespace, the tokens, strings and their escapes (offsets in a
string's value mapped to the text and back), and how to name a character or token in a
message. Used by the parser (:mod:`.syntax`) and by what reads values off the text.
"""

from __future__ import annotations

import json
import operator
import re
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate, islice, repeat

from .display import json_visible
from .jsonnodes import JString
from .text import Text

WS = re.compile(r"[ \t\n\r]*")


def after_ws(text: str, pos: int) -> int:
    """The offset past the JSON whitespace at ``pos``."""
    match = WS.match(text, pos)
    assert match is not None  # `*` matches the empty string too
    return match.end()


# Possessive: a string that does not close must fail fast, not backtrack for ever.
STRING = re.compile(r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"')
NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
# One escape decodes to one code point; a valid surrogate pair is one escape.
ESCAPE = re.compile(r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.|\Z)", re.S)
SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
LITERALS = {"true": True, "false": False, "null": None}
NOT_JSON_WORDS = {
    "NaN": "`NaN` is not JSON; write a number or null",
    "Infinity": "`Infinity` is not JSON; write a number or null",
    "True": "`True` is not JSON; write `true`",
    "False": "`False` is not JSON; write `false`",
    "None": "`None` is not JSON; write `null`",
    "undefined": "`undefined` is not JSON; write `null`",
}


# --- string offsets ----------------------------------------------------------------


class StringMap:
    """Maps offsets in a string's decoded value to offsets in the JSON text.

    Every escape (``\\n``, ``\\"``, ``\\u00e9``, a surrogate pair ``\\ud83d\\ude80``) decodes
    to exactly one code point, so the map is a sorted list of escapes.
    """

    __slots__ = ("body_start", "length", "_line_starts", "_escapes")

    def __init__(
        self, text: str | Text, node: JString, line_starts: Sequence[int] | None = None, newlines_only: bool = False
    ) -> None:
        """The map of ``node``, a string of ``text``; ``line_starts``, if given, are where
        the lines of its value start (``line_starts(node.value)``): when every escape of the
        string is a ``\\n`` (how a document's content is mostly written; ``newlines_only``:
        known to be), the map is read off them, without looking for its escapes (13 contents
        of a 12 MB session, 44,000 escapes: 13 ms, then under 2)."""
        self.body_start = start = node.start + 1
        body_end = string_body_end(text, node.start, node.end)
        self._escapes: tuple[list[int], list[int], list[int]] | None = None
        self._line_starts = None
        if line_starts is not None and (
            newlines_only or _newlines_only(text, start, body_end, node.value, len(line_starts) - 1)
        ):
            self._line_starts = line_starts
            self.length = len(node.value)
            return
        # Without a Python-level loop: a content string holds tens of thousands of escapes.
        escapes = list(ESCAPE.finditer(text[start:body_end]))
        at = list(map(re.Match.start, escapes))
        raw_len = list(map(operator.sub, map(re.Match.end, escapes), at))
        # Each escape before one shortens the decoded text by its length less one.
        removed = list(accumulate(map(operator.sub, raw_len, repeat(1)), initial=0))
        self._escapes = (list(map(operator.sub, at, removed)), list(map(operator.add, at, repeat(start))), raw_len)
        self.length = body_end - start - removed[-1]

    @property
    def escapes(self) -> tuple[list[int], list[int], list[int]]:
        """Where each escape is, in order: its decoded offsets, its text offsets and its lengths."""
        if self._escapes is None:
            starts = self._line_starts
            assert starts is not None
            count = len(starts) - 1
            decoded_at = list(map(operator.sub, islice(starts, 1, None), repeat(1)))  # each \n
            self._escapes = (
                decoded_at,
                list(map(operator.add, decoded_at, range(self.body_start, self.body_start + count))),
                [2] * count,
            )
        return self._escapes

    def raw_offset(self, decoded: int) -> int:
        """The text offset where the decoded character at ``decoded`` is written."""
        starts = self._line_starts
        if starts is not None:  # one more for each \n before it
            return self.body_start + decoded + bisect_right(starts, decoded) - 1
        decoded_at, raw_at, raw_len = self.escapes
        i = bisect_right(decoded_at, decoded) - 1
        if i < 0:
            return self.body_start + decoded
        if decoded_at[i] == decoded:
            return raw_at[i]
        return raw_at[i] + raw_len[i] + (decoded - decoded_at[i] - 1)

    def decoded_offset(self, raw: int) -> int:
        """The decoded offset of the character written at (or spanning) text offset ``raw``."""
        decoded_at, raw_at, raw_len = self.escapes
        index = bisect_right(raw_at, raw) - 1
        if index < 0:
            return raw - self.body_start
        escape_end = raw_at[index] + raw_len[index]
        if raw < escape_end:
            return decoded_at[index]
        return decoded_at[index] + 1 + (raw - escape_end)

    def raw_range(self, start: int, end: int) -> tuple[int, int]:
        """The text extent of the decoded characters ``[start, end)``."""
        return self.raw_offset(start), self.raw_offset(end)


def _newlines_only(text: str | Text, start: int, end: int, value: str, newlines: int) -> bool:
    """Whether the string body ``text[start:end]``, whose value ``value`` holds ``newlines``
    line breaks, writes each of them as ``\\n`` and has no other escape. Each escape holds
    at least one backslash and, but for a lone one at the end, is longer than the character
    it gives; with no raw line break in the body, each of the value's breaks is one escape.
    So a body holding as many backslashes as the value has breaks, and longer than the value
    by as many characters, holds exactly those escapes, each two characters long: ``\\n``."""
    if end - start != len(value) + newlines:
        return False
    if isinstance(text, str):
        return text.count("\\", start, end) == newlines and text.find("\n", start, end) < 0
    body = text[start:end]
    return body.count("\\") == newlines and "\n" not in body


def decode_lenient(body: str) -> str:
    """Decode a string body that may hold bad escapes: each escape gives one code point."""
    return ESCAPE.sub(_decode_escape, body)


def _decode_escape(match: re.Match[str]) -> str:
    escape = match.group()
    if len(escape) == 12:
        high, low = int(escape[2:6], 16), int(escape[8:12], 16)
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    if len(escape) == 6:
        return chr(int(escape[2:], 16))
    if len(escape) == 1:
        return "\\"
    return SIMPLE_ESCAPES.get(escape[1], escape[1])


def encode_string(value: str) -> str:
    """A JSON string literal for ``value``, safe to write into a file.

    Non-ASCII text stays readable; control, invisible and reordering characters are written
    as escapes (the same value, but no raw bidi override lands in a session: see display.py),
    lone surrogates too (a lone surrogate cannot be written raw in UTF-8).
    """
    return json_visible(escape_lone_surrogates(json.dumps(value, ensure_ascii=False)))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(json_text: str) -> str:
    """JSON text with each lone surrogate written as a ``\\uXXXX`` escape (same value; UTF-8
    cannot hold it raw). Only strings can hold one, so the escape is always in a string."""
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json_text)


def describe_char(ch: str) -> str:
    """A character named so that a reader can see it, even when it is invisible."""
    if ch == "":
        return "the end of the file"
    if ch.isprintable() and ch not in " \u00a0":
        return f"`{ch}`"
    return f"U+{ord(ch):04X}"


def is_escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd number of backslashes."""
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def bad_number(token: str) -> str:
    """What is wrong with a token that starts like a number and is not one."""
    shown = f"`{visible_token(token)}`"
    body = token.lstrip("+-")
    sign = token[: len(token) - len(body)]
    if body in ("Infinity", "NaN", "inf", "nan", "infinity"):
        return f"{shown} is not JSON (a `{sign or '-'}` must be followed by digits); write a number or null"
    if not body:
        return f"{shown} must be followed by digits"
    if len(sign) > 1 or (sign == "+" and not NUMBER.fullmatch(body)):
        return f"{shown} is not a JSON number"
    if sign == "+":
        return f"{shown} is not a JSON number: JSON has no `+` sign; write `{body}`"
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", body):
        return f"{shown} is not a JSON number: write it in decimal, `{sign}{int(body, 16)}`"
    if re.fullmatch(r"0[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?", body):
        fixed = body.lstrip("0")
        fixed = "0" + fixed if not fixed or fixed[0] in ".eE" else fixed
        return f"{shown} is not a JSON number: it has a leading zero; write `{sign}{fixed}`"
    if body.startswith(".") and NUMBER.fullmatch("0" + body):
        return f"{shown} is not a JSON number: write `{sign}0{body}`"
    if re.fullmatch(r"[0-9]+\.", body):
        return (
            f"{shown} is not a JSON number: a `.` must be followed by digits; write `{token[:-1]}` or `{sign}{body}0`"
        )
    if re.fullmatch(r"(?:0|[1-9][0-9]*)(?:\.[0-9]+)?[eE][-+]?", body):
        return f"{shown} is not a JSON number: an exponent needs digits after `{body[body.lower().index('e') :]}`"
    return f"{shown} is not a JSON number"


def visible_token(token: str, limit: int = 40) -> str:
    """A token for a message: control characters named, long ones shortened."""
    shown = "".join(ch if ch.isprintable() else f"\\u{ord(ch):04x}" for ch in token[:limit])
    return shown + ("…" if len(token) > limit else "")


def string_body_end(text: str | Text, start: int, end: int) -> int:
    """Where the text of the string ``[start, end)`` ends: before its closing quote, if it has one."""
    return end - 1 if end - start >= 2 and text[end - 1] == text[start] else end


def control_message(text: str, at: list[int]) -> str:
    """What to say of the raw control characters of one string, at ``at``."""
    first = text[at[0]]
    if all(text[i] == "\t" for i in at):
        what = "a raw tab" if len(at) == 1 else f"{len(at)} raw tabs"
        return f"{what} (a control character) in a string; write each as `\\t`"
    several = f" (and {len(at) - 1} more)" if len(at) > 1 else ""
    return f"a raw control character (U+{ord(first):04X}) in a string{several}; write it as `\\u{ord(first):04x}`"


def quoted_key(key: str) -> str:
    return "`" + json.dumps(key, ensure_ascii=False) + "`"

"""JSON text as the CLI writes it, by orjson's C encoder where that gives the same bytes.

The text is what ``json.dumps(value, ensure_ascii=False, indent=2)`` writes (``indent``)
or ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` (one line, for JSON
Lines), each lone surrogate then written as a ``\\uXXXX`` escape (UTF-8 cannot hold it),
and every invisible or reordering character too (``display.json_visible``: the same value,
safe in a terminal), as UTF-8 bytes. Such a character is looked for in orjson's bytes
(:data:`HIDDEN_BYTES`, the same characters in UTF-8, a test checks every one); the rare
text holding one is escaped as ``json_visible`` escapes it. orjson writes the same bytes
for every value but three kinds, which go to ``json`` instead:

* a float that is not finite (orjson writes ``null``, ``json`` ``NaN``) or whose size is
  below 1e-4 but not 0 (orjson ``1e-7`` or ``0.00001``, ``json`` ``1e-07`` and ``1e-05``):
  looked for in the value before encoding, unless the caller knows it holds none;
* an integer outside 64 bits, and a string holding a lone surrogate: orjson refuses them.

Python's own encoder with an indent is its pure-Python one: the 13 MB report of a 12 MB
session took it 1.4 s, orjson 50 ms. Without orjson (the VS Code extension bundles only
pure-Python packages) every value goes to ``json``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any

from .display import json_visible
from .jsonlex import escape_lone_surrogates

HIDDEN_BYTES = re.compile(
    b"[\\x00-\\x08\\x0b-\\x1f\\x7f]"  # C0 controls but tab and LF, DEL
    b"|\\xc2[\\x80-\\x9f\\xad]"  # C1 controls, soft hyphen
    b"|\\xcd\\x8f|\\xd8\\x9c|\\xe1\\x85[\\x9f\\xa0]|\\xe1\\x9e[\\xb4\\xb5]|\\xe1\\xa0\\x8e"  # invisibles, fillers
    b"|\\xe3\\x85\\xa4|\\xef\\xbe\\xa0"  # Hangul fillers
    b"|\\xe2\\x80[\\x8b-\\x8f\\xa8-\\xae]|\\xe2\\x81[\\xa0-\\xaf]"  # zero widths, bidi, separators
    b"|\\xef\\xbb\\xbf|\\xef\\xbf[\\xb9-\\xbb]"  # byte order mark, annotation characters
    b"|\\xf3\\xa0[\\x80\\x81][\\x80-\\xbf]"  # tags, U+E0000 to U+E007F
)
"""The characters ``display.json_visible`` escapes, in UTF-8 (lone surrogates have none)."""

_orjson_dumps: Callable[..., bytes] | None
_orjson_loads: Callable[[bytes], Any] | None
try:
    from orjson import OPT_INDENT_2, JSONEncodeError
    from orjson import dumps as _orjson_dumps
    from orjson import loads as _orjson_loads
except ImportError:  # pragma: no cover - an install without the optional speed-up
    _orjson_dumps = _orjson_loads = None
    OPT_INDENT_2 = 0

    class JSONEncodeError(TypeError):  # type: ignore[no-redef]
        """Never raised: there is no orjson to raise it."""


def plain_float(value: float) -> bool:
    """Whether orjson writes ``value`` as ``json`` does (``repr``): 0, or a finite size
    from 1e-4 up."""
    return value == 0 or 1e-4 <= abs(value) < math.inf


def plain_floats(value: Any) -> bool:
    """Whether every float in ``value`` (dicts, lists and tuples, all the way down) is
    :func:`plain_float`."""
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict:
            item = item.values()
        elif kind is not list and kind is not tuple:
            if kind is float and not plain_float(item):
                return False
            continue
        for child in item:
            kind = type(child)
            if kind is dict or kind is list or kind is tuple:
                push(child)
            elif kind is float and not plain_float(child):
                return False
    return True


_LEAD_BYTES = re.compile(b"[\\x00-\\x08\\x0b-\\x1f\\x7f\\xc2\\xcd\\xd8\\xe1\\xe2\\xe3\\xef\\xf3]")
"""The first bytes of what :data:`HIDDEN_BYTES` matches: a plain character class, which the
regular expression engine scans ten times faster than the alternation itself."""


def has_hidden(data: bytes) -> bool:
    """Whether UTF-8 ``data`` holds a character :data:`HIDDEN_BYTES` matches (the candidates
    found by their first byte, each then matched)."""
    match = HIDDEN_BYTES.match
    return any(match(data, lead.start()) is not None for lead in _LEAD_BYTES.finditer(data))


def dumps(value: Any, indent: bool = True, floats_plain: bool = False) -> bytes:
    """``value`` as JSON text in UTF-8: indented by two spaces (``indent``), else on one
    line without spaces. ``floats_plain``: the caller knows every float in it is
    :func:`plain_float` (the value is not searched for others)."""
    if _orjson_dumps is not None and (floats_plain or plain_floats(value)):
        try:
            data = _orjson_dumps(value, option=OPT_INDENT_2 if indent else 0)
        except JSONEncodeError:  # an integer past 64 bits, a lone surrogate
            pass
        else:
            if not has_hidden(data):
                return data
            return json_visible(data.decode("utf-8")).encode("utf-8")
    return python_dumps(value, indent).encode("utf-8")


def compact(value: Any) -> bytes | None:
    """``value`` as compact JSON text in UTF-8, by orjson; None where orjson is not installed
    or does not write it (a lone surrogate, an integer past 64 bits, nesting past 255): for
    counting what is written, not for output (its floats are not ``json``'s)."""
    if _orjson_dumps is None:
        return None
    try:
        return _orjson_dumps(value)
    except JSONEncodeError:
        return None


def python_dumps(value: Any, indent: bool = True) -> str:
    """What :func:`dumps` writes, by ``json`` alone (as text)."""
    if indent:
        text = json.dumps(value, ensure_ascii=False, indent=2)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return json_visible(escape_lone_surrogates(text))


def copied(value: Any, finite: bool = False) -> Any:
    """A copy of a JSON value (its containers copied; dicts and lists come back as dicts
    and lists, tuples as lists). ``finite``: the caller knows it holds no NaN or infinity;
    then orjson makes the copy, through its text (a small report's in a quarter of the
    time), where it can (an integer past 64 bits, a lone surrogate: it cannot)."""
    if finite and _orjson_dumps is not None and _orjson_loads is not None:
        try:
            return _orjson_loads(_orjson_dumps(value))
        except JSONEncodeError:
            pass
    return _copied(value)


def _copied(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [_copied(item) for item in value]
    return value


def finite_floats(value: Any) -> bool:
    """Whether no float in ``value`` is NaN or infinite (orjson writes them as null)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif kind is float and not math.isfinite(item):
            return False
    return True


def nested(text: bytes, depth: int) -> bytes:
    """Indented JSON text of a value, as it is written ``depth`` levels inside another
    indented value (its first line where that value puts it): the only line breaks in such
    text are between tokens (a string writes its own as ``\\n``)."""
    return text.replace(b"\n", b"\n" + b"  " * depth)


__all__ = ["copied", "dumps", "finite_floats", "nested", "plain_float", "plain_floats", "python_dumps"]

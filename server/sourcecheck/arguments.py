"""What the Python API (api.py) accepts, checked before it starts: each wrong argument
raises saying what is accepted, in words, and what to pass instead.

- ``TypeError`` for an argument of a type the function does not take (naming the types it
  does take), and for a ``str`` that is a path where JSON text is meant: a ``str`` is always
  text, and one naming an existing ``*.json`` / ``*.jsonl`` file says to pass a
  ``pathlib.Path``; ``check_lines`` never reads a ``str`` or ``bytes`` one character at a
  time as if it were lines.
- ``ValueError`` for a value out of its range: a verdict ``fail_on`` does not know, a
  position encoding LSP does not name, a size not above 0, and a parsed value that cannot be
  written as JSON text (it contains itself, is nested deeper than :data:`MAX_DEPTH`, holds an
  integer of more digits than Python writes) rather than looping, a ``RecursionError`` or
  Python's bare message.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any, cast

from .core.display import visible
from .core.jsontext import dumps, plain_float
from .core.positions import Encoding
from .core.session import pointer
from .disk import ReadRefused, read_bytes
from .disk import decode as decode_bytes
from .inputs import Checked, is_jsonl, shown_name

MAX_DEPTH = 500
"""How deep a parsed value may nest (a session nests six levels; the encoders recurse)."""
JSON_SUFFIXES = (".json", ".jsonl")
_CONTAINERS = (dict, list, tuple)
_LEAVES = (str, int, float, bool, type(None))


def words(names: Iterable[str], last: str = "or") -> str:
    """``a, b or c``."""
    listed = list(names)
    return listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} {last} {listed[-1]}"


def source_kind(function: str, source: object, accepted: str) -> str:
    """What ``source`` is for ``check``: ``text``, ``bytes``, ``path`` or
    ``value``; raises ``TypeError`` for anything else, and for a ``str`` naming a file."""
    if isinstance(source, str):
        if _names_a_file(source):
            meant = "sourcecheck.check_lines" if source.lower().endswith(".jsonl") else function
            raise TypeError(
                f"{function} reads a str as JSON text, never as a path, and {source!r} names a file: "
                f"pass pathlib.Path({source!r}) to {meant} to read that file"
            )
        return "text"
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "bytes"
    if isinstance(source, os.PathLike):
        return "path"
    if isinstance(source, (dict, list)):
        return "value"
    raise TypeError(f"{function} takes {accepted}, not {type(source).__name__}")


SOURCES = "JSON text (str), bytes, a path (pathlib.Path) or a parsed session (a dict)"
"""What ``check`` and ``fix`` take, in words."""


def source_text(source: object, name: str | None, max_size_mb: int, function: str) -> tuple[str, str | Checked]:
    """The name of a source for ``check`` and ``fix`` and its text, or the check of what
    could not be read (it says why); raises as :func:`source_kind` does, and ``ValueError``
    for a JSON Lines path."""
    kind = source_kind(function, source, SOURCES)
    if kind == "text":
        return name or "<stdin>", cast(str, source)
    if kind == "bytes":
        shown = name or "<stdin>"
        try:
            return shown, decode_bytes(bytes(cast(bytes, source)), "save it as UTF-8")
        except ReadRefused as refusal:
            return shown, Checked(shown, unreadable=refusal.reason)
    if kind == "path":
        path = os.fsdecode(os.fspath(cast("os.PathLike[str]", source)))
        if is_jsonl(path):
            instead = "sourcecheck.check_lines" if function == "sourcecheck.check" else "sourcecheck --fix on the file"
            raise ValueError(f"{path} holds JSON Lines, one session per line: use {instead}")
        shown = name or shown_name(path)
        try:
            return shown, decode_bytes(read_bytes(path, max_size_mb), "save it as UTF-8")
        except ReadRefused as refusal:
            return shown, Checked(shown, unreadable=refusal.reason)
    return name or "<stdin>", value_text(cast("dict[str, Any]", source), function)


def value_text(value: Any, function: str) -> str:
    """The JSON text of a parsed value (``text_of``), after :func:`json_value` says it has one."""
    plain = json_value(value, function)
    return dumps(value, indent=True, floats_plain=plain).decode("utf-8")


def _names_a_file(text: str) -> bool:
    """Whether a text is the name of an existing ``*.json`` or ``*.jsonl`` file."""
    if len(text) > 4096 or "\n" in text or not text.strip().lower().endswith(JSON_SUFFIXES):
        return False
    try:
        return os.path.isfile(text.strip())
    except (OSError, ValueError):  # a NUL in it, say
        return False


def lines_source(source: object) -> None:
    """Raise ``TypeError`` unless ``check_lines`` can read ``source``: a path, or an
    iterable of lines (never a ``str`` or ``bytes``, whose items are characters)."""
    if isinstance(source, os.PathLike):
        return
    if isinstance(source, (str, bytes, bytearray, memoryview)):
        if isinstance(source, str):
            instead = f"for a file pass pathlib.Path({source[:60]!r}), for JSON Lines in memory pass text.splitlines()"
        else:
            instead = "for JSON Lines in memory pass data.splitlines()"
        raise TypeError(
            f"sourcecheck.check_lines takes a path (pathlib.Path) or an iterable of lines, not one "
            f"{type(source).__name__}, whose items are characters: {instead}; for one session use sourcecheck.check"
        )
    if isinstance(source, dict):
        raise TypeError(
            "sourcecheck.check_lines takes a path or an iterable of lines, not a dict: a dict is one session "
            "(use sourcecheck.check), or pass a list of them"
        )
    if not isinstance(source, Iterable):
        raise TypeError(
            "sourcecheck.check_lines takes a path (pathlib.Path) or an iterable of lines (a file, a list of str, "
            f"bytes or parsed dicts), not {type(source).__name__}"
        )


def line_item(number: int, item: object) -> str | bytes | dict[str, Any] | list[Any]:
    """One item of the lines ``check_lines`` reads: text, bytes, or a parsed session."""
    if isinstance(item, (str, bytes, dict, list)):
        return item
    if isinstance(item, (bytearray, memoryview)):
        return bytes(item)
    raise TypeError(
        f"sourcecheck.check_lines: item {number} is {type(item).__name__}; each line is a str, bytes or a "
        "parsed session (a dict)"
    )


def verdicts(fail_on: object, known: Iterable[str]) -> frozenset[str]:
    """The verdicts ``fail_on`` names: one name (``"contested"``, or several with commas, as
    ``--fail-on`` takes them) or an iterable of names."""
    accepted = sorted(known)
    if isinstance(fail_on, str):
        names = [part.strip() for part in fail_on.split(",") if part.strip()]
    elif isinstance(fail_on, Iterable) and not isinstance(fail_on, (bytes, dict)):
        names = list(fail_on)
        wrong = [name for name in names if not isinstance(name, str)]
        if wrong:
            raise TypeError(f"fail_on names verdicts as str ({words(accepted)}), not {type(wrong[0]).__name__}")
    else:
        raise TypeError(
            f"fail_on takes a verdict's name or several in a list ({words(accepted)}), not {type(fail_on).__name__}"
        )
    unknown = [name for name in names if name not in accepted]
    if unknown:
        raise ValueError(
            f"fail_on takes {words(accepted)} (one name, or several in a list), not {words(map(repr, unknown), 'and')}"
        )
    return frozenset(names)


def encoding(value: object) -> Encoding:
    """A position encoding as LSP names it: ``"utf-8"``, ``"utf-16"`` or ``"utf-32"``."""
    for known in Encoding:
        if value == known.value:
            return known
    names = words([repr(e.value) for e in Encoding])
    raise ValueError(f"position_encoding is {names} (as LSP names them), not {value!r}")


def size_limit(max_size_mb: object) -> int:
    if isinstance(max_size_mb, bool) or not isinstance(max_size_mb, int):
        raise TypeError(f"max_size_mb is a whole number of MB, not {type(max_size_mb).__name__}")
    if max_size_mb <= 0:
        raise ValueError(f"max_size_mb is a number of MB above 0, not {max_size_mb}")
    return max_size_mb


def name_of(name: object) -> str | None:
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name is a str (what the report calls the input) or None, not {type(name).__name__}")
    return name


def flag(what: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{what} is True or False, not {type(value).__name__}")
    return value


def json_value(value: Any, function: str) -> bool:
    """Raise unless ``value`` can be written as JSON text, saying where and why not: a value
    that contains itself, one nested deeper than :data:`MAX_DEPTH`, an integer of more
    digits than Python writes, a key or a value JSON cannot hold. Walked without recursion;
    what ``json.dumps`` accepts passes (tuples, and int, float, bool or None keys). Returns
    whether every float in it is one ``jsontext.dumps`` may write fast (``plain_float``)."""
    plain = True
    # Each entry: the value, its depth, and the entry it is in with its key (for the path);
    # a container's exit is an entry of _EXIT, to take it off the path.
    stack: list[tuple[Any, int, Any, Any]] = [(value, 0, None, None)]
    on_path: dict[int, tuple[Any, int, Any, Any]] = {}
    pop, push = stack.pop, stack.append
    while stack:
        entry = pop()
        item, depth = entry[0], entry[1]
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if item is _EXIT:
            del on_path[depth]
        elif kind is dict or kind is list or kind is tuple or isinstance(item, _CONTAINERS):
            ident = id(item)
            if ident in on_path:
                raise ValueError(
                    f"{function}: the value contains itself (the container at {_where(entry)} is the one at "
                    f"{_where(on_path[ident])}), so it has no JSON text; pass a copy without the cycle"
                )
            if depth >= MAX_DEPTH:
                raise ValueError(
                    f"{function}: the value is nested more than {MAX_DEPTH} levels deep (at {_where(entry)}); a "
                    "session nests a few levels: pass JSON text (a str) to check what nests deeper"
                )
            on_path[ident] = entry
            push((_EXIT, ident, None, None))
            if isinstance(item, dict):
                for key, child in item.items():
                    if not isinstance(key, _LEAVES):
                        raise TypeError(
                            f"{function}: a key at {_where(entry)} is of type {type(key).__name__}; JSON keys are str "
                            "(int, float, bool and None are written as str)"
                        )
                    push((child, depth + 1, entry, key))
            else:
                for index, child in enumerate(item):
                    push((child, depth + 1, entry, index))
        elif isinstance(item, float):
            plain = plain and plain_float(item)
        elif isinstance(item, int):
            if item.bit_length() > 14_000:  # (4,300 digits: Python's limit by default)
                _digits(item, entry, function)
        elif not isinstance(item, _LEAVES):
            raise TypeError(
                f"{function}: the value at {_where(entry)} is of type {kind.__name__}, which JSON cannot hold; "
                "a parsed session holds dicts, lists, str, int, float, bool and None"
            )
    return plain


_EXIT = object()


def _path(entry: tuple[Any, int, Any, Any]) -> list[Any]:
    keys = []
    while entry[2] is not None:
        keys.append(entry[3])
        entry = entry[2]
    return keys[::-1]


def _where(entry: tuple[Any, int, Any, Any]) -> str:
    found = visible(pointer(tuple(_path(entry))))
    return repr(found if len(found) <= 80 else found[:40] + "…" + found[-30:]) if found else "the top"


def _digits(number: int, entry: tuple[Any, int, Any, Any], function: str) -> None:
    try:
        str(number)
    except ValueError:
        raise ValueError(
            f"{function}: the integer at {_where(entry)} has more digits than Python writes as text "
            "(sys.get_int_max_str_digits()); JSON text of it would not be read back either: write it as a str"
        ) from None


__all__ = [
    "MAX_DEPTH",
    "SOURCES",
    "encoding",
    "flag",
    "json_value",
    "line_item",
    "lines_source",
    "name_of",
    "size_limit",
    "source_kind",
    "source_text",
    "value_text",
    "verdicts",
    "words",
]

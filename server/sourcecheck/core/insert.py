"""New JSON written into a session the way the file is already written.

A cite action adds an annotation to ``annotations`` or a source to an annotation's
``sources``: the value is written with the file's indentation (its unit, and the depth of
the array it goes in), or compactly on one line when the file is compact, and the edit
keeps the JSON valid whether the array is empty, has items, or is missing altogether.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .analysis import Analysis
from .edits import TextEdit
from .jsonlex import escape_lone_surrogates
from .jsonnodes import JArray, JObject, Node
from .text import Text

_INDENTED = re.compile(r"\n([ \t]+)\S")


Insertion = TextEdit
"""An insertion is an edit (``edits.TextEdit``): ``[start, end)`` of the file replaced by ``text``."""


def indent_unit(text: str | Text) -> str | None:
    """The file's indentation step (two spaces, four, a tab), or None for a compact file."""
    found = _INDENTED.search(str(text)[:200_000])
    if found is None:
        return None
    whitespace = found.group(1)
    return "\t" if whitespace.startswith("\t") else " " * min(len(whitespace), 8)


def line_indent(text: str | Text, offset: int) -> str | None:
    """The whitespace before ``offset`` on its line, when only whitespace is there."""
    start = str(text).rfind("\n", 0, offset) + 1
    before = text[start:offset]
    return before if not before.strip() else None


def written(value: Any, unit: str | None, indent: str, newline: str = "\n") -> str:
    """``value`` as JSON: indented by ``unit`` from ``indent`` (its lines broken by
    ``newline``), or compact: the one writer of JSON as the file writes it."""
    if unit is None:
        return escape_lone_surrogates(json.dumps(value, ensure_ascii=False, separators=(", ", ": ")))
    body = escape_lone_surrogates(json.dumps(value, ensure_ascii=False, indent=unit))
    return body.replace("\n", newline + indent)


def newline_of(text: str | Text) -> str:
    """The file's line break: ``\r\n`` where it has one, else ``\n``."""
    return "\r\n" if "\r\n" in str(text)[:200_000] else "\n"


def into_array(analysis: Analysis, array: JArray, value: Any) -> Insertion:
    """Append ``value`` to ``array``, written as the file is written."""
    text = analysis.source
    unit = indent_unit(text)
    nl = newline_of(text)
    if array.items:
        last = array.items[-1]
        indent = line_indent(text, array.items[0].start)
        if unit is None or indent is None:  # items side by side on one line
            return Insertion(last.end, last.end, ", " + written(value, None, ""))
        return Insertion(last.end, last.end, "," + nl + indent + written(value, unit, indent, nl))
    outer = line_indent(text, array.start)
    if outer is None:
        outer = _indent_of_line(text, array.start)
    if unit is None:
        return Insertion(array.start, array.end, "[" + written(value, None, "") + "]")
    indent = outer + unit
    return Insertion(array.start, array.end, "[" + nl + indent + written(value, unit, indent, nl) + nl + outer + "]")


def into_object(analysis: Analysis, target: JObject, key: str, value: Any) -> Insertion:
    """Add the member ``key: value`` at the end of ``target`` (which has no such key)."""
    text = analysis.source
    unit = indent_unit(text)
    nl = newline_of(text)
    member = json.dumps(key) + ": "
    if target.members:
        last = target.members[-1]
        end = (last.value or last.key).end
        indent = line_indent(text, target.members[0].key.start)
        if unit is None or indent is None:
            return Insertion(end, end, ", " + member + written(value, None, ""))
        return Insertion(end, end, "," + nl + indent + member + written(value, unit, indent, nl))
    outer = line_indent(text, target.start) or _indent_of_line(text, target.start)
    if unit is None:
        return Insertion(target.start, target.end, "{" + member + written(value, None, "") + "}")
    indent = outer + unit
    return Insertion(
        target.start, target.end, "{" + nl + indent + member + written(value, unit, indent, nl) + nl + outer + "}"
    )


def _indent_of_line(text: str | Text, offset: int) -> str:
    start = str(text).rfind("\n", 0, offset) + 1
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip(" \t"))]


def annotations_array(analysis: Analysis) -> JArray | None:
    node = analysis.node(("annotations",))
    return node if isinstance(node, JArray) else None


def new_annotation(analysis: Analysis, annotation: dict[str, Any]) -> Insertion | None:
    """Add an annotation at the end of ``annotations`` (None: the file has no such array)."""
    array = annotations_array(analysis)
    return into_array(analysis, array, annotation) if array is not None else None


def new_source(analysis: Analysis, index: int, source: dict[str, Any]) -> Insertion | None:
    """Add a source to annotation ``index`` (its ``sources`` array, made if missing)."""
    item: Node | None = analysis.node(("annotations", index))
    if not isinstance(item, JObject):
        return None
    sources = analysis.node(("annotations", index, "sources"))
    if isinstance(sources, JArray):
        return into_array(analysis, sources, source)
    if item.member("sources") is not None:
        return None  # `sources` is there but not an array: the writer fixes that first
    return into_object(analysis, item, "sources", [source])

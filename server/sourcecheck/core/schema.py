"""The session format's shape, in one place: the keys of each kind of object (in the order
they are written), which object has which, the arrays whose items are decoded lazily, and
what the parser may assume of a session to recover as its writer meant (:data:`SESSION`).

The JSON grammar (:mod:`.syntax`) knows nothing of sessions: what it may assume is passed in.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .jsonnodes import Path
from .syntax import Hints, Stop, Tree, parse

DOCUMENT_KEYS = ("path", "content")
ANNOTATION_KEYS = ("claim", "sources")
REF_KEYS = ("path", "start", "end")
SOURCE_KEYS = REF_KEYS + ("polarity", "confidence")
BOUNDARY_KEYS = ("line", "str")
TOP_KEYS = {"spec": ("documents", "annotations"), "cli": ("session", "annotations")}
"""The top-level keys of each shape, in the order messages list them."""

ELEMENT_ARRAYS: frozenset[Path] = frozenset({("documents",), ("annotations",), ("session", "documents")})
"""The arrays whose items are decoded fast and lazily expanded."""

_DOCUMENT_FIELDS = frozenset(DOCUMENT_KEYS)
_ANNOTATION_FIELDS = frozenset(ANNOTATION_KEYS)
_REF_FIELDS = frozenset(REF_KEYS)
_SOURCE_FIELDS = frozenset(SOURCE_KEYS)
_BOUNDARY_FIELDS = frozenset(BOUNDARY_KEYS)


def schema_fields(path: Path) -> frozenset[str] | None:
    """The keys the format defines for the object at ``path``; None where it defines none."""
    if not path:
        return frozenset({"documents", "annotations", "session"})
    if path == ("session",):
        return frozenset({"documents"})
    if len(path) == 2 and path[0] == "documents" or len(path) == 3 and path[:2] == ("session", "documents"):
        return _DOCUMENT_FIELDS if isinstance(path[-1], int) else None
    if path[0] != "annotations" or len(path) < 2 or not isinstance(path[1], int):
        return None
    rest = path[2:]
    if not rest:
        return _ANNOTATION_FIELDS
    if rest == ("claim",):
        return _REF_FIELDS
    if len(rest) == 2 and rest[0] == "sources" and isinstance(rest[1], int):
        return _SOURCE_FIELDS
    if rest[-1] in ("start", "end") and (
        len(rest) == 2 and rest[0] == "claim" or len(rest) == 3 and rest[0] == "sources"
    ):
        return _BOUNDARY_FIELDS
    return None


_FIELDS_BY_SET = {
    frozenset(keys): keys for keys in (DOCUMENT_KEYS, ANNOTATION_KEYS, REF_KEYS, SOURCE_KEYS, BOUNDARY_KEYS)
}


def fields_of(path: Path, shape: str = "spec") -> tuple[str, ...] | None:
    """The keys the checker allows in the object at ``path`` of a session of this shape
    ("spec" or "cli"), in the order its messages list them; None where it allows any."""
    if not path:
        return TOP_KEYS["cli"] if shape == "cli" else TOP_KEYS["spec"]
    if path == ("session",):
        return ("documents",)
    fields = schema_fields(path)
    return _FIELDS_BY_SET.get(fields) if fields is not None else None


ANNOTATION_AHEAD = re.compile(r'\{[ \t\n\r]*"(?:claim|sources)"[ \t\n\r]*:')
"""The start of an annotation (its first key is `claim` or `sources`)."""


def item_name(array: Path) -> str:
    """What an item of the element array at ``array`` is called in messages."""
    return "annotation" if array == ("annotations",) else "document"


SESSION = Hints(
    element_arrays=ELEMENT_ARRAYS,
    fields=schema_fields,
    item_start=ANNOTATION_AHEAD,
    inner_array="sources",
    lead_key="claim",
    counted_arrays=frozenset({("annotations",)}),
    item_names=item_name,
)
"""What the parser may assume of a session: its arrays of documents and annotations (each
annotation's objects made in C, its keys counted), the keys of its objects, and that an
annotation met inside ``sources`` (first on a line, or as its first or last source) means
that ``sources`` was left open."""


SESSION_PARSED_WHOLE = replace(SESSION, decode_items=False)
""":data:`SESSION` with every item parsed by the parser (the careful twin of lazy items)."""


def parse_session(text: str, stop: Stop | None = None, decode_items: bool = True) -> Tree:
    """:func:`~.syntax.parse` of a session's text, with what it may assume of one (:data:`SESSION`;
    without ``decode_items``, every item parsed with its positions)."""
    return parse(text, stop, SESSION if decode_items else SESSION_PARSED_WHOLE)

"""Citations where they are made: other formats read as sessions, and sessions written as them.

    sourcecheck import anthropic|gemini|cohere|w3c RESPONSE [--request FILE] [--document PATH]... -o SESSION
    sourcecheck export w3c SESSION [-o OUT]

:data:`FORMATS` is the one table of them: a format is one module (``anthropic.py``,
``gemini.py``, ``cohere.py``, ``w3c.py``) and one row here. A module's ``read(wire,
request)`` turns a response (``wire.py``: JSON, or a stream of server-sent events) into the
citations it holds (``model.Cited``); ``placing.build`` makes the session of them, the same
for every format (documents, refs made as the cite actions make them, offsets checked in the
format's unit, mismatches placed by text and said). A format that can also be written has a
``write``. Everything here is pure: files are read and written by the command
(``cli/importing.py``) and the Python API (``api.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.analysis import Analysis
from ..core.display import visible
from ..core.positions import Encoding
from ..core.queries import DEFAULT_CONFIDENCE
from . import anthropic, cohere, gemini, w3c
from .model import Cited, Given, ImportReport
from .placing import ANSWER, build
from .wire import NotAResponse, Wire, parse


@dataclass(frozen=True, slots=True)
class Format:
    """A format: its name, what it is called in a sentence, what it is (for ``--help``), how to read it (a response and,
    where the format needs one, its request, into citations) and, for one that can be
    written, how to write a session as it (a parsed session, the base URI of its documents
    and its name, into the value to write)."""

    name: str
    title: str
    summary: str
    read: Callable[[Wire, Any], Cited]
    write: Callable[[dict[str, Any] | str, str, str], dict[str, Any]] | None = None


FORMATS: Mapping[str, Format] = {
    "anthropic": Format(
        "anthropic",
        "an Anthropic response",
        "an Anthropic Messages API response (JSON or its event stream); --request FILE gives its documents",
        anthropic.read,
    ),
    "gemini": Format(
        "gemini",
        "a Gemini response",
        "a Gemini generateContent response (JSON, its event stream or a JSON array of chunks)",
        gemini.read,
    ),
    "cohere": Format(
        "cohere", "a Cohere response", "a Cohere v2 chat response (JSON or its event stream)", cohere.read
    ),
    "w3c": Format("w3c", "Web Annotations", "W3C Web Annotations (one, a list, or a collection)", w3c.read, w3c.write),
}
"""Every format, by name: a new one is a module and a row here. ``import`` reads each;
``export`` writes those with a ``write``."""

READABLE = tuple(FORMATS)
WRITABLE = tuple(name for name, found in FORMATS.items() if found.write is not None)


def import_text(
    name: str,
    response: str,
    request: Any = None,
    given: Sequence[Given] = (),
    answer: str = ANSWER,
) -> tuple[dict[str, Any], ImportReport]:
    """The session a response (its text) makes, with its request (a parsed value, or None)
    and the documents given; raises :class:`~.wire.NotAResponse` for a response that is not one."""
    return import_wire(name, parse(response), request, given, answer)


def import_wire(
    name: str,
    wire: Wire,
    request: Any = None,
    given: Sequence[Given] = (),
    answer: str = ANSWER,
    placeholder: float = DEFAULT_CONFIDENCE,
) -> tuple[dict[str, Any], ImportReport]:
    """:func:`import_text` of a response already parsed (``placeholder``: the confidence of a
    source the response gives none for)."""
    return build(FORMATS[name].read(wire, request), given, answer, placeholder)


class Unmade(ValueError):
    """A session that was made with an error of its own: never written (an internal check)."""


def checked(text: str, report: ImportReport) -> ImportReport:
    """The report with what checking the session (its text) says: its warnings and hints,
    each ``LINE:COL: severity[code] message``. Raises :class:`Unmade` for an error."""
    analysis = Analysis(text)
    errors = [finding for finding in analysis.findings if finding.severity.value == "error"]
    if errors:
        raise Unmade(
            f"the session made has {errors[0].code} ({visible(errors[0].message)}) at {errors[0].pointer}, so it "
            "is not written"
        )
    found: list[str] = []
    for finding in analysis.findings:
        span = analysis.finding_span(finding, Encoding.UTF32)
        found.append(
            f"{span.start.line + 1}:{span.start.character + 1}: {finding.severity.value}[{finding.code}] "
            f"{visible(finding.message)}"
        )
    return replace(report, findings=tuple(found))


__all__ = [
    "Unmade",
    "checked",
    "ANSWER",
    "FORMATS",
    "READABLE",
    "WRITABLE",
    "Format",
    "Given",
    "ImportReport",
    "NotAResponse",
    "import_text",
    "import_wire",
    "parse",
]

"""Diagnostics on the wire, written once.

A session with a thousand findings is resent whole after every edit (LSP has no partial
update). Encoding a thousand diagnostics again took as long as checking the edit, so each
diagnostic's JSON text is written once and kept while the edit cannot have moved it
(:mod:`.features.diagnostics`); a message carrying a :class:`WrittenDiagnostics` list goes
out with that text in place of the list, and is otherwise exactly what pygls would send.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import uuid
from collections.abc import Callable, Sequence
from typing import Any, overload

import attrs
from cattrs import Converter
from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError
from pygls.protocol import default_converter

log = logging.getLogger("sourcecheck")

Wire = dict[str, Any]
"""A diagnostic in its JSON form, as sent."""

# json.dumps's own C encoder, made once: what json.dumps does for each value, less the
# Python around it (2 of the 8 microseconds of a diagnostic; a thousand are written on
# opening a large session). The same text: the compact-less separators and ASCII escapes.
_C_ENCODER = getattr(json.encoder, "c_make_encoder", None)
_ENCODER = (
    _C_ENCODER(
        None, json.JSONEncoder().default, json.encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True
    )
    if _C_ENCODER is not None
    else None
)


def dumps(value: Wire) -> str:
    """``json.dumps(value)`` (the value holds no cycle)."""
    return "".join(_ENCODER(value, 0)) if _ENCODER is not None else json.dumps(value)


# Stands for the list while the rest of the message is encoded; unique to this process,
# so no text of the message can hold it.
_PLACEHOLDER = f"sourcecheck-diagnostics-{uuid.uuid4().hex}"
_QUOTED_PLACEHOLDER = json.dumps(_PLACEHOLDER)


class Shifted:
    """A diagnostic's JSON value moved by whole lines since it was made (``base``), its range
    now ``start_line``, ``start_character``, ``end_line``, ``end_character``: made a dict only
    when read. Each Enter typed above a thousand findings moves them all, and the wire's text
    is what goes out; the value is for whoever reads the list as LSP objects."""

    __slots__ = ("base", "start_line", "start_character", "end_line", "end_character")

    def __init__(self, base: Wire, start_line: int, start_character: int, end_line: int, end_character: int) -> None:
        self.base = base
        self.start_line, self.start_character = start_line, start_character
        self.end_line, self.end_character = end_line, end_character

    def value(self) -> Wire:
        wire = self.base.copy()
        wire["range"] = {
            "start": {"line": self.start_line, "character": self.start_character},
            "end": {"line": self.end_line, "character": self.end_character},
        }
        return wire


def value_of(item: Wire | Shifted) -> Wire:
    """A diagnostic's JSON value, made if it was moved."""
    return item.value() if isinstance(item, Shifted) else item


class WrittenDiagnostics(Sequence[types.Diagnostic]):
    """A document's diagnostics, kept as JSON values (``items``: some of them
    :class:`Shifted`, made when read) with the JSON text of the whole list (``encoded``). Read
    as a sequence it gives lsprotocol ``Diagnostic`` objects (structured when asked for), so
    that anything but the wire sees what LSP says it is."""

    __slots__ = ("items", "encoded")

    def __init__(self, items: Sequence[Wire | Shifted] = (), encoded: str = "[]") -> None:
        self.items = list(items)
        self.encoded = encoded

    @classmethod
    def of(cls, pairs: Sequence[tuple[Wire | Shifted, str]]) -> WrittenDiagnostics:
        """From each diagnostic and its JSON text, joined as ``json.dumps`` joins a list (so
        the message is byte for byte what pygls would send)."""
        return cls([wire for wire, _ in pairs], "[" + ", ".join(text for _, text in pairs) + "]")

    @property
    def wires(self) -> list[Wire]:
        """Each diagnostic's JSON value, as sent."""
        return [value_of(item) for item in self.items]

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: int) -> types.Diagnostic: ...
    @overload
    def __getitem__(self, index: slice) -> list[types.Diagnostic]: ...
    def __getitem__(self, index: int | slice) -> types.Diagnostic | list[types.Diagnostic]:
        if isinstance(index, slice):
            return [_diagnostic(value_of(item)) for item in self.items[index]]
        return _diagnostic(value_of(self.items[index]))


_CONVERTER: Converter = default_converter()  # type: ignore[no-untyped-call]  # pygls leaves it unannotated


def _diagnostic(wire: Wire) -> types.Diagnostic:
    diagnostic: types.Diagnostic = _CONVERTER.structure(wire, types.Diagnostic)
    return diagnostic


def encode_with_written_diagnostics(data: Any, serialize: Callable[[Any], Any]) -> str | None:
    """The JSON body of a message that carries written diagnostics (a pull report or a
    publish notification), or None for any other message. The message is turned into
    JSON values as pygls does (``serialize``), with the written text in the list's place."""
    result = getattr(data, "result", None)
    params = getattr(data, "params", None)
    if isinstance(result, types.RelatedFullDocumentDiagnosticReport) and isinstance(result.items, WrittenDiagnostics):
        written, outer, inner = result.items.encoded, "result", "items"
        data = attrs.evolve(data, result=attrs.evolve(result, items=[]))
    elif isinstance(params, types.PublishDiagnosticsParams) and isinstance(params.diagnostics, WrittenDiagnostics):
        written, outer, inner = params.diagnostics.encoded, "params", "diagnostics"
        data = attrs.evolve(data, params=attrs.evolve(params, diagnostics=[]))
    else:
        return None
    message = serialize(data)
    message[outer][inner] = _PLACEHOLDER
    return json.dumps(message, default=serialize).replace(_QUOTED_PLACEHOLDER, written, 1)


def send(protocol: Any, body: str) -> None:
    """Write a JSON body as pygls's ``_send_data`` does (headers, errors and all)."""
    if protocol.writer is None:
        log.error("unable to send data: no transport")
        return
    try:
        data = body.encode(protocol.CHARSET)
        if protocol._include_headers:  # the length in bytes (pygls counts characters: its bodies are ASCII)
            content_type = f"{protocol.CONTENT_TYPE}; charset={protocol.CHARSET}"
            data = (
                f"Content-Length: {len(data)}\r\nContent-Type: {content_type}\r\n\r\n".encode(protocol.CHARSET) + data
            )
        result = protocol.writer.write(data)
        if inspect.isawaitable(result):
            asyncio.ensure_future(result)
    except BrokenPipeError:
        log.error("the editor closed the connection while diagnostics were being sent")
        raise
    except Exception as error:  # as pygls does: reported, never fatal
        log.error("sending diagnostics failed: %s", error)
        protocol._server._report_server_error(error, JsonRpcInternalError)

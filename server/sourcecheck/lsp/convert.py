"""Between the core's offsets and spans and lsprotocol's positions and ranges."""

from __future__ import annotations

from lsprotocol import types

from ..positions import Encoding, Position, Span

ENCODINGS = {
    types.PositionEncodingKind.Utf8: Encoding.UTF8,
    types.PositionEncodingKind.Utf16: Encoding.UTF16,
    types.PositionEncodingKind.Utf32: Encoding.UTF32,
}


def encoding_of(kind: str | None) -> Encoding:
    return ENCODINGS.get(kind, Encoding.UTF16)  # type: ignore[arg-type]


def lsp_range(span: Span) -> types.Range:
    return types.Range(
        start=types.Position(line=span.start.line, character=span.start.character),
        end=types.Position(line=span.end.line, character=span.end.character),
    )


def core_position(position: types.Position) -> Position:
    return Position(position.line, position.character)

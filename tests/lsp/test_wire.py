"""Diagnostics whose JSON is written once (:mod:`sourcecheck.lsp.wire`) go out as exactly the
bytes pygls would send for the same message with ordinary lsprotocol diagnostics: the same
body, the same headers, the same behaviour when the editor has gone away."""

from __future__ import annotations

import json
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lsprotocol import types
from pygls.protocol import JsonRPCProtocol
from pygls.protocol.json_rpc import JsonRPCResponseMessage

from sourcecheck.lsp import wire
from sourcecheck.lsp.features import diagnostics as diagnostics_feature
from sourcecheck.lsp.server import build_server
from sourcecheck.lsp.wire import WrittenDiagnostics

URI = "file:///home/ana/my%20notes/a%25b c.sourcecheck.json"  # an escaped space and %, and a raw space


class Collected:
    """A writer that keeps what it is given."""

    def __init__(self, fail: type[Exception] | None = None) -> None:
        self.data = bytearray()
        self.fail = fail

    def write(self, data: bytes) -> None:
        if self.fail is not None:
            raise self.fail("the editor went away")
        self.data += data

    def close(self) -> None:
        pass


@pytest.fixture
def protocol():
    server = build_server()
    server.protocol.set_writer(Collected())
    yield server.protocol
    server.executor.shutdown(wait=False)


def at(line: int, start: int, end: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end))


def lsp_diagnostics() -> list[types.Diagnostic]:
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=URI, range=at(4, 20 + i, 23 + i)),
            message=f"occurrence {i + 1} of 2: …café «中文» 🚀…",
        )
        for i in range(2)
    ]
    return [
        types.Diagnostic(
            range=at(3, 2, 9),
            message='"str" is ambiguous: «naïve» occurs twice — \u202e \x1b \\ "',
            severity=types.DiagnosticSeverity.Warning,
            code="boundary-ambiguous",
            source="sourcecheck",
            related_information=related,
        ),
        types.Diagnostic(
            range=at(0, 0, 0),
            message="𝔘𝔫𝔦𝔠𝔬𝔡𝔢 outside the BMP",
            severity=types.DiagnosticSeverity.Error,
            code="invalid-json",
            source="sourcecheck",
        ),
    ]


def written(protocol: JsonRPCProtocol, items: list[types.Diagnostic]) -> WrittenDiagnostics:
    """The diagnostics as the server keeps them: each one's JSON value and text."""
    pairs = []
    for item in items:
        value = protocol._converter.unstructure(item)
        pairs.append((value, json.dumps(value)))
    return WrittenDiagnostics.of(pairs)


def publish(protocol: JsonRPCProtocol, items: list[types.Diagnostic] | WrittenDiagnostics) -> object:
    """The notification as pygls's ``notify`` builds it."""
    params = types.PublishDiagnosticsParams(uri=URI, diagnostics=items, version=7)
    message_type = protocol.get_message_type(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return message_type(method=types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params=params, jsonrpc="2.0")


def pull_answer(items: list[types.Diagnostic] | WrittenDiagnostics) -> object:
    """The answer to a pull request as pygls's ``_send_response`` builds it."""
    return JsonRPCResponseMessage(
        id=12, result=types.RelatedFullDocumentDiagnosticReport(items=items, result_id="41:utf-16"), jsonrpc="2.0"
    )


def pygls_body(protocol: JsonRPCProtocol, message: object) -> str:
    return json.dumps(message, default=protocol._serialize_message)


@pytest.mark.parametrize("build", [publish, lambda protocol, items: pull_answer(items)], ids=["publish", "pull"])
def test_a_message_with_written_diagnostics_is_encoded_as_pygls_would(protocol, build):
    items = lsp_diagnostics()
    encoded = wire.encode_with_written_diagnostics(
        build(protocol, written(protocol, items)), protocol._serialize_message
    )
    expected = pygls_body(protocol, build(protocol, items))
    assert encoded == expected
    assert '"relatedInformation"' in encoded and "%20" in encoded and "a%25b c" in encoded
    assert encoded.isascii()  # non-ASCII text is escaped, as pygls escapes it


@pytest.mark.parametrize("build", [publish, lambda protocol, items: pull_answer(items)], ids=["publish", "pull"])
def test_no_diagnostics_written_or_not(protocol, build):
    empty = WrittenDiagnostics()
    assert wire.encode_with_written_diagnostics(build(protocol, empty), protocol._serialize_message) == pygls_body(
        protocol, build(protocol, [])
    )


def test_the_server_s_own_written_diagnostics_are_the_same_json(protocol):
    """The features write each diagnostic's keys in their own order: the same JSON value as
    pygls's, not the same bytes (JSON objects are unordered)."""
    message = "this file holds 200 million characters, more than sourcecheck.maxFileSizeMB (64); «ü»"
    items = diagnostics_feature.WrittenDiagnostics.of(
        [diagnostics_feature.note("file-too-large", message, types.DiagnosticSeverity.Warning)]
    )
    ordinary = types.Diagnostic(
        range=at(0, 0, 0),
        message=message,
        severity=types.DiagnosticSeverity.Warning,
        code="file-too-large",
        source="sourcecheck",
    )
    encoded = wire.encode_with_written_diagnostics(publish(protocol, items), protocol._serialize_message)
    assert json.loads(encoded) == json.loads(pygls_body(protocol, publish(protocol, [ordinary])))


def test_other_messages_are_left_to_pygls(protocol):
    unchanged = JsonRPCResponseMessage(
        id=3, result=types.RelatedUnchangedDocumentDiagnosticReport(result_id="41:utf-16"), jsonrpc="2.0"
    )
    for message in (
        publish(protocol, lsp_diagnostics()),
        pull_answer(lsp_diagnostics()),
        unchanged,
        {"jsonrpc": "2.0", "id": None},
    ):
        assert wire.encode_with_written_diagnostics(message, protocol._serialize_message) is None


@pytest.mark.parametrize("build", [publish, lambda protocol, items: pull_answer(items)], ids=["publish", "pull"])
def test_the_bytes_written_are_pygls_s_headers_and_all(protocol, build):
    items = lsp_diagnostics()
    protocol._send_data(build(protocol, written(protocol, items)))
    ours = bytes(protocol.writer.data)
    protocol.set_writer(Collected())
    JsonRPCProtocol._send_data(protocol, build(protocol, items))
    assert ours == bytes(protocol.writer.data)
    assert (
        ours.startswith(b"Content-Length: ")
        and b"\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{" in ours
    )


def test_the_content_length_counts_bytes(protocol):
    body = json.dumps({"jsonrpc": "2.0", "method": "x", "params": "café 中文 🚀"}, ensure_ascii=False)
    wire.send(protocol, body)
    header, _, payload = bytes(protocol.writer.data).partition(b"\r\n\r\n")
    assert header.split(b"\r\n")[0] == b"Content-Length: %d" % len(body.encode("utf-8"))
    assert payload.decode("utf-8") == body and len(payload) > len(body)


def test_without_headers_only_the_body_is_written(protocol):
    protocol.set_writer(Collected(), include_headers=False)
    wire.send(protocol, '{"a": 1}')
    assert bytes(protocol.writer.data) == b'{"a": 1}'


def test_a_broken_pipe_is_raised_as_pygls_raises_it(protocol):
    protocol.set_writer(Collected(fail=BrokenPipeError))
    with pytest.raises(BrokenPipeError):
        JsonRPCProtocol._send_data(protocol, {"jsonrpc": "2.0", "method": "x"})
    with pytest.raises(BrokenPipeError):
        wire.send(protocol, '{"jsonrpc": "2.0", "method": "x"}')
    with pytest.raises(BrokenPipeError):
        protocol._send_data(publish(protocol, written(protocol, lsp_diagnostics())))


def test_another_write_error_is_reported_not_raised(protocol, caplog):
    protocol.set_writer(Collected(fail=OSError))
    with caplog.at_level(logging.ERROR, logger="sourcecheck"):
        wire.send(protocol, "{}")
    assert any("the editor went away" in record.getMessage() for record in caplog.records)


def test_without_a_transport_nothing_is_written(protocol, caplog):
    protocol.writer = None
    with caplog.at_level(logging.ERROR, logger="sourcecheck"):
        wire.send(protocol, "{}")
    assert "no transport" in caplog.text


WIRE_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=16,
)


@given(WIRE_VALUES)
def test_a_diagnostic_is_written_as_json_dumps_writes_it(value):
    """Byte for byte (NaN, non-ASCII text, lone surrogates included), by json's C encoder."""
    assert wire._ENCODER is not None
    assert wire.dumps({"range": value}) == json.dumps({"range": value})

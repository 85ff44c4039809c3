"""The server reads each message body with orjson where that means what json.loads reads,
else with json.loads (lsp/stdio.py): whatever the body, the same value or the same error;
and its frames however LSP lets a client write their headers (tests/e2e/test_protocol.py
has the frames it cannot read, over real stdio)."""

from __future__ import annotations

import io
import itertools
import json
import os
import socket

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sourcecheck.lsp import stdio

LONE_SURROGATES = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
STRINGS = st.text(st.one_of(st.characters(), LONE_SURROGATES), max_size=12)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | STRINGS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(STRINGS, inner, max_size=4),
    max_leaves=20,
)


def same(a: object, b: object) -> bool:
    """Equal, types included (1 is not 1.0), NaN equal to NaN."""
    return repr(a) == repr(b)


@given(VALUES, st.booleans())
def test_a_body_means_what_json_loads_reads(value, ascii_only):
    try:
        body = json.dumps(value, ensure_ascii=ascii_only).encode()
    except UnicodeEncodeError:  # a lone surrogate is written as an escape only
        body = json.dumps(value).encode()
    assert same(stdio.decode(body), json.loads(body))


@pytest.mark.parametrize(
    "body",
    [
        b'{"id": 123456789012345678901234567890}',  # orjson: a float
        b'{"version": 18446744073709551616}',
        b'{"a": "\\ud800"}',  # a lone surrogate: orjson refuses it
        b"[NaN, Infinity, -Infinity]",
        b"[1e400]",
        b"\xef\xbb\xbf[1]",  # a byte order mark
        "[1]".encode("utf-16"),
        b'{"a": 1, "a": 2}',
        b'{"line": 0.5}',
    ],
)
def test_what_orjson_reads_otherwise_is_read_as_json_reads_it(body):
    assert same(stdio.decode(body), json.loads(body))


@pytest.mark.parametrize("body", [b"not json at all", b'{"a": 1', b'{"a": "\x80"}', b"[1] x", b""])
def test_a_body_that_is_not_json_fails_as_json_loads_fails(body):
    with pytest.raises(Exception) as expected:
        json.loads(body)
    with pytest.raises(type(expected.value)) as raised:
        stdio.decode(body)
    assert str(raised.value) == str(expected.value)  # the -32700 answer quotes it


def test_the_big_message_of_an_opening_is_read_by_orjson(monkeypatch):
    text = json.dumps({"documents": [{"path": "a", "content": 'x "y"\n' * 1000}], "annotations": []})
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"text": text, "version": 1}})
    monkeypatch.setattr(json, "loads", None)  # reading it with json would fail
    assert stdio.decode(body.encode())["params"]["text"] == text
    assert stdio.fast_loads is orjson.loads  # installed with the package


def test_without_orjson_every_body_is_read_by_json(monkeypatch):
    monkeypatch.setattr(stdio, "fast_loads", None)
    assert same(stdio.decode(b'{"id": 123456789012345678901234567890}'), {"id": 123456789012345678901234567890})
    assert stdio.decode(b'{"a": [1, "b"]}') == {"a": [1, "b"]}


@pytest.mark.skipif(not hasattr(__import__("fcntl"), "F_GETPIPE_SZ"), reason="pipe sizes are Linux's")
def test_the_servers_pipes_hold_a_megabyte_each_way():
    import fcntl

    read_end, write_end = os.pipe()
    with open(read_end, "rb") as stdin, open(write_end, "wb") as stdout:
        before = fcntl.fcntl(stdin.fileno(), fcntl.F_GETPIPE_SZ)
        stdio.widen(stdin)
        stdio.widen(stdout)  # the same pipe: asked once more, and still a megabyte
        assert before < stdio.BUFFER_BYTES == fcntl.fcntl(stdin.fileno(), fcntl.F_GETPIPE_SZ)


def test_a_socket_is_widened_and_a_file_is_left_as_it_is(tmp_path):
    ours, theirs = socket.socketpair()
    with ours, theirs:
        before = ours.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)
        with open(ours.fileno(), "rb", closefd=False) as stream:
            stdio.widen(stream)
        assert ours.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) > before
        ours.sendall(b"still open")  # the duplicate closed, not the stream's own descriptor
        assert theirs.recv(16) == b"still open"
    with open(tmp_path / "file", "wb") as file:
        stdio.widen(file)  # not a pipe or a socket: nothing to do, nothing raised
        file.write(b"written")
    assert (tmp_path / "file").read_bytes() == b"written"


# -- frames: headers as the LSP base protocol allows them


@st.composite
def frames(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """One message framed as some client may write it: (the bytes, its body)."""
    body = draw(st.binary(max_size=40))
    end = draw(st.sampled_from([b"\r\n", b"\n"]))
    name = draw(st.sampled_from([b"Content-Length", b"content-length", b"CONTENT-LENGTH", b"Content-length"]))
    space = draw(st.sampled_from([b"", b" ", b"  ", b"\t"]))
    digits = b"0" * draw(st.integers(0, 2)) + b"%d" % len(body)
    lines = [name + b":" + space + digits + draw(st.sampled_from([b"", b" "])) + end]
    for header in draw(
        st.lists(st.sampled_from([b"Content-Type: application/vscode-jsonrpc; charset=utf-8", b"X-A: b"]))
    ):
        lines.insert(draw(st.integers(0, len(lines))), header + draw(st.sampled_from([b"\r\n", b"\n"])))
    return b"".join(lines) + end + body, body


@given(st.lists(frames(), max_size=5), st.integers(0, 2))
def test_messages_framed_as_lsp_allows_are_read_back(messages, blank_lines):
    stream = io.BytesIO(b"\r\n" * blank_lines + b"".join(data for data, _ in messages))
    reader = stdio.Frames(stream)
    assert [reader.next_body() for _ in messages] == [body for _, body in messages]
    assert reader.next_body() is None  # the end, between messages


@given(st.lists(frames(), min_size=1, max_size=4), st.data())
def test_a_stream_cut_anywhere_gives_its_whole_messages_then_ends_or_says_why(messages, data):
    """Never a half message, never another error: the end between two messages, or
    BrokenStream (the server then exits, saying why)."""
    written = b"".join(frame for frame, _ in messages)
    boundaries = {0, *itertools.accumulate(len(frame) for frame, _ in messages)}
    cut = data.draw(st.integers(0, len(written)))
    reader = stdio.Frames(io.BytesIO(written[:cut]))
    read: list[bytes] = []
    try:
        while (body := reader.next_body()) is not None:
            read.append(body)
    except stdio.BrokenStream:
        assert cut not in boundaries
    else:
        assert cut in boundaries
    assert read == [body for _, body in messages][: len(read)]

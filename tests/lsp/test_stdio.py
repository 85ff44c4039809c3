"""The server reads each message body with orjson where that means what json.loads reads,
else with json.loads (lsp/stdio.py): whatever the body, the same value or the same error."""

from __future__ import annotations

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

"""The protocol's rules, over the real server's stdin and stdout: every request gets exactly
one answer (its result, or the JSON-RPC error that says why), a notification that cannot be
handled gets none, nothing leaves a traceback on stderr, and the server goes on answering;
frames are read as the LSP base protocol allows, and one that cannot be read past ends the
server with status 1 and a line saying why (never alive but deaf).

The client here is raw bytes, nothing of pygls: what the server reads is exactly what each
test writes, broken messages included.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter
from typing import Any

import pytest
from lsprotocol import types

from sourcecheck.lsp.server import build_server
from tests.support.lsp_support import FIXTURES

READ_TIMEOUT = 10.0
URI = "file:///work/spec-example.sourcecheck.json"
TEXT = (FIXTURES / "spec-example.sourcecheck.json").read_text(encoding="utf-8")
MISSING = object()
CLAIM_START = next(i for i, line in enumerate(TEXT.splitlines()) if line.strip() == '"str": "I"')  # a line with a hover


class Raw:
    """The server in a process, and a JSON-RPC client of it that writes what it is given.

    Every message the server writes is kept (:attr:`seen`); :meth:`finish` ends the session
    and checks what the protocol promises about all of them."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sourcecheck.lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[Any] = []
        self.sent_ids: list[Any] = []
        self.next_id = 0
        self.stderr_chunks: list[bytes] = []
        self.readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self.readers:
            reader.start()

    # -- the wire

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if not line or length is None:
                self.inbox.put(None)
                return
            message = json.loads(stream.read(length))
            self.seen.append(message)
            self.inbox.put(message)

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        while chunk := self.process.stderr.read1(65536):
            self.stderr_chunks.append(chunk)

    @property
    def stderr(self) -> str:
        return b"".join(self.stderr_chunks).decode("utf-8", "replace")

    def write(self, body: bytes, header: bytes = b"Content-Length: %d\r\n\r\n") -> None:
        """One framed message of exactly these bytes (``header`` holds the length's ``%d``)."""
        self.write_bytes(header % len(body) + body)

    def write_bytes(self, data: bytes) -> None:
        """Exactly these bytes, framed or not."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def close_stdin(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()

    def send(self, message: Any) -> None:
        self.write(json.dumps(message).encode())

    def request(self, method: str, params: Any = MISSING, **fields: Any) -> int:
        """Send a request (without a ``params`` field if none is given); its id."""
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, **fields}
        if params is not MISSING:
            message["params"] = params
        self.send(message)
        self.sent_ids.append(self.next_id)
        return self.next_id

    def notify(self, method: str, params: Any = MISSING) -> None:
        self.send({"jsonrpc": "2.0", "method": method, **({} if params is MISSING else {"params": params})})

    def answer(self, msg_id: Any) -> dict[str, Any]:
        """The server's answer to ``msg_id`` (a null id: the next answer without one)."""
        deadline = time.monotonic() + READ_TIMEOUT
        while True:
            try:
                message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(
                    f"no answer to {msg_id!r} within {READ_TIMEOUT} s; stderr:\n{self.stderr[-3000:]}"
                ) from None
            assert message is not None, f"the server ended before answering {msg_id!r}; stderr:\n{self.stderr[-3000:]}"
            if "method" in message and "id" in message:  # a request of the server's: answered empty
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "method" not in message and message.get("id") == msg_id:
                return message

    def call(self, method: str, params: Any = MISSING, **fields: Any) -> dict[str, Any]:
        return self.answer(self.request(method, params, **fields))

    def error_code(self, method: str, params: Any = MISSING, **fields: Any) -> int:
        response = self.call(method, params, **fields)
        assert "result" not in response, response
        return response["error"]["code"]

    # -- a session

    def initialize(self, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.call(types.INITIALIZE, {"processId": None, "rootUri": None, "capabilities": capabilities or {}})[
            "result"
        ]
        self.notify(types.INITIALIZED, {})
        return result

    def open(self, uri: str = URI, text: str = TEXT) -> None:
        self.notify(
            types.TEXT_DOCUMENT_DID_OPEN,
            {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}},
        )

    def hover(self, line: Any = CLAIM_START, character: Any = 18, uri: str = URI) -> dict[str, Any]:
        return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}

    def wait(self, timeout: float = READ_TIMEOUT) -> int:
        """The process's exit code, once it has ended by itself."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server did not end within {timeout} s; stderr:\n{self.stderr[-3000:]}") from None

    def finish(self, shutdown: bool = True) -> int:
        """End the session (``shutdown`` if asked, ``exit``) and check the whole of it: every
        request answered exactly once, nothing answered that was not asked, no traceback."""
        if shutdown:
            assert self.call(types.SHUTDOWN) == {"jsonrpc": "2.0", "id": self.next_id, "result": None}
        self.notify(types.EXIT)
        code = self.wait()
        for reader in self.readers:
            reader.join(READ_TIMEOUT)
        answers = Counter(m["id"] for m in self.seen if "method" not in m and m.get("id") is not None)
        assert answers == Counter(self.sent_ids), f"answers by id: {answers}, requests: {self.sent_ids}"
        assert "Traceback" not in self.stderr, self.stderr
        return code

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(READ_TIMEOUT)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture
def raw():
    server = Raw()
    yield server
    server.close()


def assert_answers_normally(raw: Raw) -> None:
    """A valid hover after whatever went before gets a hover, not an error."""
    response = raw.call(types.TEXT_DOCUMENT_HOVER, raw.hover())
    assert "error" not in response and response["result"]["contents"]["value"], response


def test_requests_whose_params_do_not_fit_are_answered_invalid_params(raw):
    raw.initialize()
    raw.open()
    hover = raw.hover()
    assert raw.error_code(types.TEXT_DOCUMENT_HOVER, {"textDocument": hover["textDocument"]}) == -32602
    assert raw.error_code(types.TEXT_DOCUMENT_HOVER, raw.hover(line="x")) == -32602
    assert raw.error_code(types.TEXT_DOCUMENT_HOVER, None) == -32602
    assert raw.error_code(types.TEXT_DOCUMENT_HOVER) == -32602  # no params field at all
    assert raw.error_code(types.TEXT_DOCUMENT_DEFINITION, {"textDocument": hover["textDocument"]}) == -32602
    missing = raw.call(types.TEXT_DOCUMENT_HOVER, {"textDocument": hover["textDocument"]})["error"]["message"]
    assert "position" in missing  # the answer says what is wrong
    assert_answers_normally(raw)
    assert raw.finish() == 0
    (line,) = [line for line in raw.stderr.splitlines() if "invalid value for type, expected int" in line]
    assert "textDocument/hover" in line and "$.params.position.line" in line


def test_unknown_methods_are_answered_method_not_found(raw):
    raw.initialize()
    raw.open()
    assert raw.error_code("sourcecheck/noSuchThing") == -32601  # no params field: legal in JSON-RPC
    assert raw.error_code("sourcecheck/noSuchThing", {"a": 1}) == -32601
    assert raw.error_code("$/noSuchThing", None) == -32601
    raw.notify("sourcecheck/noSuchNotification")  # a notification is never answered
    assert_answers_normally(raw)
    assert raw.finish() == 0


def test_notifications_whose_params_do_not_fit_are_dropped_with_one_line(raw):
    raw.initialize()
    raw.open()
    raw.notify(types.TEXT_DOCUMENT_DID_CHANGE, {"textDocument": {"uri": URI, "version": 2}})  # no contentChanges
    raw.notify(types.TEXT_DOCUMENT_DID_CHANGE, None)
    raw.notify(types.TEXT_DOCUMENT_DID_OPEN)
    raw.notify(types.CANCEL_REQUEST, {"no": "id"})
    assert_answers_normally(raw)
    assert raw.finish() == 0
    assert raw.stderr.count("textDocument/didChange, ignored: invalid params") == 2


def test_messages_that_are_no_requests_are_answered_invalid_request(raw):
    raw.initialize()
    raw.open()
    for body in (
        [],
        5,
        "hover",
        {"jsonrpc": "2.0"},
        {"jsonrpc": "2.0", "id": {"a": 1}, "method": "textDocument/hover"},
        {"jsonrpc": "2.0", "id": True, "method": "x"},
    ):
        raw.send(body)
        answer = raw.answer(None)  # no id to answer to: null
        assert answer["error"]["code"] == -32600, (body, answer)
    for body in (
        {"jsonrpc": "1.0", "id": "old", "method": types.TEXT_DOCUMENT_HOVER, "params": raw.hover()},
        {"jsonrpc": "2.0", "id": 70, "method": 3},
    ):
        raw.send(body)
        raw.sent_ids.append(body["id"])
        assert raw.answer(body["id"])["error"]["code"] == -32600, body
    assert_answers_normally(raw)
    assert raw.finish() == 0


def test_a_body_that_is_not_json_is_answered_parse_error_and_reading_goes_on(raw):
    raw.initialize()
    raw.open()
    bodies = (b'{"jsonrpc": "2.0", "id": 99, "method": ', b'{"jsonrpc": "2.0", "method": "\x80"}', b"not json at all")
    for body in bodies:
        raw.write(body)
        answer = raw.answer(None)
        assert answer["error"]["code"] == -32700 and answer["id"] is None, answer
    assert_answers_normally(raw)
    assert raw.finish() == 0
    assert raw.stderr.count("Unable to handle message") == len(bodies)  # one line each


def test_a_body_that_is_not_json_leaves_no_traceback_and_reading_goes_on(raw):
    raw.initialize()
    raw.open()
    raw.write(b"not json at all")
    assert_answers_normally(raw)
    assert raw.finish() == 0
    assert "Unable to handle message: JSONDecodeError" in raw.stderr


def test_the_lifecycle_rules(raw):
    assert raw.error_code(types.TEXT_DOCUMENT_HOVER, raw.hover()) == -32002  # before initialize
    assert raw.error_code(types.SHUTDOWN) == -32002
    raw.open()  # a notification before initialize is dropped
    raw.initialize()
    symbols = {"textDocument": {"uri": URI}}
    assert raw.call(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, symbols)["result"] == []  # the early didOpen was dropped
    raw.open()
    assert raw.call(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, symbols)["result"]
    assert raw.call(types.SHUTDOWN)["result"] is None
    assert raw.error_code(types.TEXT_DOCUMENT_HOVER, raw.hover()) == -32600  # after shutdown
    assert raw.error_code(types.SHUTDOWN) == -32600
    assert raw.finish(shutdown=False) == 0  # exit after shutdown: 0


def test_exit_without_shutdown_ends_with_1(raw):
    raw.initialize()
    raw.open()
    assert raw.finish(shutdown=False) == 1


def test_exit_with_params_still_ends_the_process(raw):
    raw.initialize()
    raw.call(types.SHUTDOWN)
    raw.notify(types.EXIT, {})  # exit has no params: whatever comes along is ignored
    assert raw.wait() == 0  # stdin still open: exit alone ends the process


def test_the_editor_closing_stdin_ends_the_server_with_0(raw):
    raw.initialize()
    raw.open()
    raw.close_stdin()  # no shutdown, no exit: the editor went away, nothing failed
    assert raw.wait() == 0
    assert "Traceback" not in raw.stderr and " ERROR" not in raw.stderr, raw.stderr


def test_the_server_ends_at_once_when_stdin_closes_during_a_long_analysis(raw):
    raw.initialize()
    # Some 30,000 annotations that each break a rule: seconds of analysis in the worker.
    text = json.dumps({"documents": [], "annotations": [{"claim": {"n": n}} for n in range(30_000)]})
    raw.open(text=text)
    time.sleep(0.5)  # the analysis is under way
    raw.close_stdin()
    closed = time.monotonic()
    assert raw.wait() == 0
    assert time.monotonic() - closed < 2.0, "the server waited for the analysis to finish before ending"


# -- framing: headers as the LSP base protocol allows them, and frames that cannot be read


@pytest.mark.parametrize(
    "header",
    [
        b"content-length: %d\r\n\r\n",  # header names are case-insensitive
        b"Content-Length: %d\n\n",  # a line may end with \n alone
        b"CONTENT-LENGTH: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\r\n",
        b"content-type: application/vscode-jsonrpc; charset=utf-8\r\nX-Whatever: 1\r\nContent-length: %d\r\n\r\n",
        b"Content-Length:%d\r\n\r\n",  # no space after the colon
        b"Content-Length: \t%d  \r\n\r\n",
    ],
    ids=["lowercase", "lf-only", "uppercase-mixed-ends", "unknown-headers-first", "no-space", "spaces-around"],
)
def test_frames_the_base_protocol_allows_are_read(raw, header):
    raw.initialize()
    raw.open()
    message_id = raw.next_id = raw.next_id + 1
    request = {"jsonrpc": "2.0", "id": message_id, "method": types.TEXT_DOCUMENT_HOVER, "params": raw.hover()}
    raw.write(json.dumps(request).encode(), header)
    raw.sent_ids.append(message_id)
    assert raw.answer(message_id)["result"]["contents"]["value"]
    assert_answers_normally(raw)  # and the stream is still in step
    assert raw.finish() == 0


def test_an_empty_body_is_answered_parse_error_and_reading_goes_on(raw):
    raw.initialize()
    raw.open()
    raw.write(b"")
    assert raw.answer(None)["error"]["code"] == -32700
    assert_answers_normally(raw)
    assert raw.finish() == 0


HOVER_BODY = json.dumps({"jsonrpc": "2.0", "id": 500, "method": types.TEXT_DOCUMENT_HOVER, "params": {}}).encode()
BROKEN_FRAMES = {
    # name: (bytes written after a working session, whether stdin is closed after them, reason in the log)
    "no-content-length": (
        b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + HOVER_BODY,
        False,
        "without Content-Length",
    ),
    "length-a-word": (b"Content-Length: ten\r\n\r\n" + HOVER_BODY, False, "Content-Length is not a number: 'ten'"),
    "length-negative": (b"Content-Length: -5\r\n\r\n" + HOVER_BODY, False, "Content-Length is not a number: '-5'"),
    "length-exponent": (b"Content-Length: 1e3\r\n\r\n" + HOVER_BODY, False, "Content-Length is not a number"),
    "length-absurd": (b"Content-Length: 100000000000\r\n\r\n" + HOVER_BODY, False, "'100000000000' is past the limit"),
    "length-5000-digits": (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n", False, "is past the limit"),
    "length-past-512-MiB": (b"Content-Length: 536870913\r\n\r\n{}", False, "past the limit of 536870912 bytes"),
    "lengths-that-differ": (
        b"Content-Length: %d\r\nContent-Length: 3\r\n\r\n%s" % (len(HOVER_BODY), HOVER_BODY),
        False,
        "two Content-Length headers that differ",
    ),
    "length-too-short": (b"Content-Length: 5\r\n\r\n" + HOVER_BODY, False, "not a header line: 'nrpc\""),
    "no-header-at-all": (HOVER_BODY + b"\r\n\r\n", False, 'not a header line: \'{"jsonrpc"'),
    "endless-header-line": (b"Content-Length" + b" " * 20_000, False, "headers run past 8192 bytes"),
    "body-cut-short-at-eof": (
        b"Content-Length: 1000\r\n\r\n" + HOVER_BODY[:10],
        True,
        "ended 10 bytes into a message of 1000",
    ),
    # The limit itself is read (a body that size is waited for): here it ends after 2 bytes.
    "length-512-MiB-cut-short": (
        b"Content-Length: 536870912\r\n\r\n{}",
        True,
        "ended 2 bytes into a message of 536870912",
    ),
    "headers-cut-short-at-eof": (b"Content-Length: 10\r\n", True, "the input ended inside a message's headers"),
}


@pytest.mark.parametrize("name", BROKEN_FRAMES)
def test_a_frame_that_cannot_be_read_ends_the_server_with_1_and_says_why(raw, name):
    """Not deaf while alive: the server answers the message after, or it ends (the editor
    then starts it again), with the reason in one line of stderr and of the editor's log."""
    data, then_close, reason = BROKEN_FRAMES[name]
    raw.initialize()
    raw.open()
    assert_answers_normally(raw)
    raw.write_bytes(data)
    if then_close:
        raw.close_stdin()
    else:  # a well-formed message after the broken one: never answered as if all were well
        raw.send({"jsonrpc": "2.0", "id": 501, "method": types.TEXT_DOCUMENT_HOVER, "params": raw.hover()})
    assert raw.wait(5.0) == 1
    for reader in raw.readers:
        reader.join(READ_TIMEOUT)
    assert "Traceback" not in raw.stderr and "MemoryError" not in raw.stderr, raw.stderr
    (line,) = [line for line in raw.stderr.splitlines() if "cannot be read any more" in line]
    assert reason in line, line
    told = [m["params"]["message"] for m in raw.seen if m.get("method") == types.WINDOW_LOG_MESSAGE]
    assert any(reason in message for message in told), told
    assert 501 not in [m.get("id") for m in raw.seen]


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads the server's memory from /proc")
def test_ten_thousand_edits_that_change_nothing_keep_memory_flat(raw):
    raw.initialize()
    raw.open()
    symbols = {"textDocument": {"uri": URI}}
    at = {"start": {"line": 4, "character": 20}, "end": {"line": 4, "character": 20}}  # inside "Hello"
    after = {"start": {"line": 4, "character": 20}, "end": {"line": 4, "character": 21}}
    version = 1

    def edits(count: int) -> None:
        nonlocal version
        for _ in range(count // 2):
            for change in ({"range": at, "text": "x"}, {"range": after, "text": ""}):
                version += 1
                raw.notify(
                    types.TEXT_DOCUMENT_DID_CHANGE,
                    {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]},
                )
        assert raw.call(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, symbols)["result"]  # every edit read and applied

    edits(1000)  # warm: caches, the allocator's arenas
    before = rss_kb(raw.process.pid)
    edits(10_000)
    grown_mb = (rss_kb(raw.process.pid) - before) / 1024
    assert grown_mb < 15, f"RSS grew by {grown_mb:.1f} MB over 10,000 edits"
    assert raw.finish() == 0


class Collected:
    """A writer that keeps what the protocol writes."""

    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass


async def test_no_future_is_kept_for_a_handled_notification():
    server = build_server()
    protocol = server.protocol
    protocol.set_writer(Collected())

    def message(method: str, params: Any, msg_id: int | None = None) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "method": method, "params": params, **({} if msg_id is None else {"id": msg_id})}

    try:
        protocol.handle_message(message(types.INITIALIZE, {"capabilities": {}}, 1))
        protocol.handle_message(message(types.INITIALIZED, {}))
        protocol.handle_message(
            message(
                types.TEXT_DOCUMENT_DID_OPEN,
                {"textDocument": {"uri": URI, "languageId": "json", "version": 1, "text": TEXT}},
            )
        )
        for version in range(2, 202):
            change = {"range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 1}}, "text": ""}
            protocol.handle_message(
                message(
                    types.TEXT_DOCUMENT_DID_CHANGE,
                    {"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]},
                )
            )
            protocol.handle_message(
                message(
                    types.WORKSPACE_DID_CHANGE_CONFIGURATION,
                    {"settings": {"sourcecheck": {"inlayHints": version % 2 == 0}}},
                )
            )
            protocol.handle_message(message(types.SET_TRACE, {"value": "off"}))
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert len(protocol._request_futures) == 0, protocol._request_futures
        assert (
            b'"id": 1, "result": {"capabilities"' in protocol.writer.data
            or b'"result": {"capabilities"' in protocol.writer.data
        )
    finally:
        for task in list(server.tasks):
            task.cancel()
        await asyncio.sleep(0)
        server.documents.stop_all()
        server.executor.shutdown(wait=False)


def test_a_refused_rename_is_an_error_answer_not_an_internal_error(raw):
    raw.initialize()
    raw.open()
    line = next(i for i, text in enumerate(TEXT.splitlines()) if '"path": "a"' in text)
    column = TEXT.splitlines()[line].index('"a"') + 1
    position = {"textDocument": {"uri": URI}, "position": {"line": line, "character": column}}
    response = raw.call(types.TEXT_DOCUMENT_RENAME, {**position, "newName": "b"})
    assert response["error"]["code"] == -32803 and "'b' already exists" in response["error"]["message"]
    assert_answers_normally(raw)
    assert raw.finish() == 0
    assert "internal error" not in raw.stderr.lower() and " ERROR" not in raw.stderr, raw.stderr

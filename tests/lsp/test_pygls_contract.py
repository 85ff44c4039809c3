"""What the server relies on in pygls beyond its documented API, pinned.

lsp/protocol.py, lsp/stdio.py, lsp/wire.py, lsp/server.py and lsp/main.py override or call
pygls internals: ``_execute_handler``, ``_send_handler_result``, ``_send_data``, the
``structure_message`` object hook of pygls's reading loop (still pygls's over TCP),
``lsp_exit``'s status, ``_stop_event``, ``thread_pool``, ``_request_futures``, ... Each is
checked here to exist with the signature the code expects and, where that is cheap, to do
what the code assumes. pyproject.toml pins pygls to the versions this passes with: widen the
pin only once it passes with the new one.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import attrs
import pygls.exceptions as exceptions
import pygls.io_
import pygls.protocol.json_rpc
import pygls.protocol.language_server
import pygls.server
import pytest
from lsprotocol import types
from pygls.feature_manager import FeatureManager
from pygls.lsp._base_server import BaseLanguageServer
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage
from pygls.server import JsonRPCServer

from sourcecheck.lsp import protocol as our_protocol
from sourcecheck.lsp.protocol import SourceCheckProtocol, takes_no_params
from sourcecheck.lsp.server import SourceCheckServer, build_server


def shape(function: Any) -> str:
    """A signature without its annotations: names, kinds and simple defaults."""
    parts = []
    star_written = False
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind is parameter.KEYWORD_ONLY and not star_written:
            parts.append("*")
            star_written = True
        prefix = {parameter.VAR_POSITIONAL: "*", parameter.VAR_KEYWORD: "**"}.get(parameter.kind, "")
        star_written |= parameter.kind is parameter.VAR_POSITIONAL
        default = parameter.default
        if default is parameter.empty:
            suffix = ""
        elif default is None or type(default) in (bool, int, str):
            suffix = f"={default!r}"
        else:
            suffix = "=..."
        parts.append(f"{prefix}{parameter.name}{suffix}")
    return ", ".join(parts)


SIGNATURES = [
    # lsp/protocol.py: overridden
    (JsonRPCProtocol, "__init__", "self, server, converter"),
    (LanguageServerProtocol, "__init__", "self, server, converter"),
    (JsonRPCProtocol, "structure_message", "self, data"),
    (JsonRPCProtocol, "handle_message", "self, message"),
    (JsonRPCProtocol, "_execute_handler", "self, msg_id, handler, callback, args=None, kwargs=None"),
    (JsonRPCProtocol, "_send_handler_result", "self, future, *, msg_id"),
    (JsonRPCProtocol, "_send_data", "self, data"),
    (LanguageServerProtocol, "lsp_initialize", "self, params"),
    (LanguageServerProtocol, "lsp_text_document__did_open", "self, params"),
    (LanguageServerProtocol, "lsp_text_document__did_change", "self, params"),
    (LanguageServerProtocol, "lsp_text_document__did_close", "self, params"),
    # lsp/protocol.py, lsp/wire.py: called
    (JsonRPCProtocol, "_send_response", "self, msg_id, result=None, error=None"),
    (JsonRPCProtocol, "_serialize_message", "self, data"),
    (JsonRPCProtocol, "set_writer", "self, writer, include_headers=True"),
    (LanguageServerProtocol, "get_message_type", "self, method"),
    (LanguageServerProtocol, "lsp_exit", "self, *args"),
    (LanguageServerProtocol, "lsp_shutdown", "self, *args"),
    (JsonRPCServer, "_report_server_error", "self, error, source"),
    (pygls.protocol.language_server, "lsp_method", "method_name"),
    (pygls.protocol, "default_converter", ""),
    # lsp/stdio.py, lsp/main.py, lsp/server.py: the server
    (
        LanguageServer,
        "__init__",
        "self, name, version, text_document_sync_kind=..., notebook_document_sync=None, *args, **kwargs",
    ),
    (BaseLanguageServer, "__init__", "self, protocol_cls=..., converter_factory=..., max_workers=None"),
    (JsonRPCServer, "report_server_error", "self, error, source"),
    (JsonRPCServer, "shutdown", "self"),
    (JsonRPCServer, "start_io", "self, stdin=None, stdout=None"),
    (JsonRPCServer, "start_tcp", "self, host, port"),
    (LanguageServer, "feature", "self, feature_name, options=None"),
    (FeatureManager, "feature", "self, feature_name, options=None"),
    (LanguageServer, "text_document_publish_diagnostics", "self, params"),
    (LanguageServer, "window_log_message", "self, params"),
    (LanguageServer, "workspace_configuration_async", "self, params"),
    (LanguageServer, "workspace_inlay_hint_refresh_async", "self, params"),
    (LanguageServer, "workspace_code_lens_refresh_async", "self, params"),
    (LanguageServer, "workspace_semantic_tokens_refresh_async", "self, params"),
    (LanguageServer, "workspace_text_document_content_refresh_async", "self, params"),
    (pygls.io_.StdoutWriter, "__init__", "self, stdout"),
    (pygls.io_.StdoutWriter, "write", "self, data"),
    (pygls.io_.StdoutWriter, "close", "self"),
    (pygls.io_, "run_async", "stop_event, reader, protocol, logger=None, error_handler=None"),
    # lsp/protocol.py, lsp/app.py: the errors answered
    (exceptions.JsonRpcException, "__init__", "self, message=None, code=None, data=None"),
    (exceptions.JsonRpcException, "to_response_error", "self"),
    (exceptions.JsonRpcMethodNotFound, "of", "method"),
]


@pytest.mark.parametrize(
    "owner, name, expected", SIGNATURES, ids=[f"{owner.__name__}.{name}" for owner, name, _ in SIGNATURES]
)
def test_each_internal_the_server_relies_on_has_the_signature_it_expects(owner, name, expected):
    function = getattr(owner, name, None)
    assert function is not None, f"pygls has no {owner.__name__}.{name} any more"
    assert shape(function) == expected


def overridden(ours: type, theirs: type) -> list[str]:
    return [
        name
        for name, value in vars(ours).items()
        if callable(value) and name != "__init__" and callable(getattr(theirs, name, None))
    ]


def test_every_method_the_server_overrides_exists_in_pygls_with_the_same_signature():
    """An override whose pygls original was renamed or reshaped is never called, or is
    called with what it does not take."""
    pairs = [(SourceCheckProtocol, LanguageServerProtocol), (SourceCheckServer, LanguageServer)]
    names = {ours: overridden(ours, theirs) for ours, theirs in pairs}
    assert {"_execute_handler", "_send_handler_result", "_send_data", "structure_message", "handle_message"} <= set(
        names[SourceCheckProtocol]
    )
    assert {"start_io", "report_server_error"} <= set(names[SourceCheckServer])
    for ours, theirs in pairs:
        for name in names[ours]:
            assert shape(getattr(ours, name)) == shape(getattr(theirs, name)), f"{ours.__name__}.{name}"


def test_our_lsp_methods_replace_pygls_builtin_ones(server):
    """pygls registers a builtin handler for each method of its protocol that carries a
    ``method_name``; ours replace its own under the same names (were pygls's renamed, both
    would be registered and either could win)."""
    ours = {name: f for name, f in vars(SourceCheckProtocol).items() if hasattr(f, "method_name")}
    assert set(ours) == {
        "lsp_initialize",
        "lsp_text_document__did_open",
        "lsp_text_document__did_change",
        "lsp_text_document__did_close",
    }
    for name, function in ours.items():
        assert getattr(LanguageServerProtocol, name).method_name == function.method_name
        assert server.protocol.fm.builtin_features[function.method_name].__func__ is function
    assert inspect.isgeneratorfunction(LanguageServerProtocol.lsp_initialize)  # we `yield from` it


class Collected:
    """A writer that keeps what is written."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closed = False

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        self.closed = True

    def messages(self) -> list[dict[str, Any]]:
        found, data = [], bytes(self.data)
        while data:
            head, _, rest = data.partition(b"\r\n\r\n")
            match = re.search(rb"Content-Length: (\d+)", head)
            assert match is not None, head
            length = int(match.group(1))
            found.append(json.loads(rest[:length]))
            data = rest[length:]
        return found


@pytest.fixture
def server():
    server = build_server()
    yield server
    for task in list(server.tasks):
        task.cancel()
    server.documents.stop_all()
    server.executor.shutdown(wait=False)


def message(method: str, params: Any = None, msg_id: int | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params, **({} if msg_id is None else {"id": msg_id})}


def test_the_state_the_server_reads_and_writes_is_there(server):
    protocol = server.protocol
    assert server._stop_event is None and server._thread_pool is None  # stdio.py sets the first
    assert isinstance(server.thread_pool, ThreadPoolExecutor)  # the frames are read in it
    assert protocol._server is server
    assert protocol._request_futures == {} and protocol._result_types == {}
    assert protocol._shutdown is False
    assert protocol.writer is None and protocol._include_headers is False
    writer = Collected()
    protocol.set_writer(writer)
    assert protocol.writer is writer and protocol._include_headers is True  # wire.py writes headers then
    assert (protocol.VERSION, protocol.CHARSET, protocol.CONTENT_TYPE) == ("2.0", "utf-8", "application/vscode-jsonrpc")
    assert hasattr(protocol._converter, "structure")
    builtin, features = protocol.fm.builtin_features, protocol.fm.features
    assert isinstance(builtin, dict) and isinstance(features, dict)
    assert {types.INITIALIZE, types.SHUTDOWN, types.EXIT, types.TEXT_DOCUMENT_DID_OPEN} <= set(builtin)
    assert types.TEXT_DOCUMENT_HOVER in features  # registered by build_server, by method


def test_message_types_come_from_lsprotocol(server):
    protocol = server.protocol
    assert protocol.get_message_type(types.TEXT_DOCUMENT_HOVER) is types.HoverRequest
    assert protocol.get_message_type("sourcecheck/noSuchThing") is None
    # protocol.py drops whatever params a client sends with these (exit always ends the process)
    assert takes_no_params(protocol.get_message_type(types.SHUTDOWN))
    assert takes_no_params(protocol.get_message_type(types.EXIT))
    assert not takes_no_params(protocol.get_message_type(types.TEXT_DOCUMENT_HOVER))
    assert [f.name for f in attrs.fields(JsonRPCNotification)] == ["method", "jsonrpc", "params"]
    assert [f.name for f in attrs.fields(JsonRPCRequestMessage)] == ["id", "method", "jsonrpc", "params"]
    assert [f.name for f in attrs.fields(JsonRPCResponseMessage)] == ["id", "jsonrpc", "result"]


@pytest.mark.parametrize(
    "error, code",
    [
        (exceptions.JsonRpcParseError, -32700),
        (exceptions.JsonRpcInvalidRequest, -32600),
        (exceptions.JsonRpcMethodNotFound, -32601),
        (exceptions.JsonRpcInvalidParams, -32602),
        (exceptions.JsonRpcInternalError, -32603),
        (exceptions.JsonRpcServerNotInitialized, -32002),
    ],
)
def test_the_errors_answered_have_json_rpc_s_codes(error, code):
    assert error("why").code == code
    answer = error("why").to_response_error()
    assert isinstance(answer, types.ResponseError) and (answer.code, answer.message) == (code, "why")


async def test_execute_handler_keeps_the_future_of_an_async_or_generator_handler_under_its_id(server):
    """protocol.py's ``_execute_handler`` finds the future pygls just kept, to drop it once
    done; a plain function's handler has none kept."""
    protocol = server.protocol
    done: list[Any] = []

    async def coroutine() -> int:
        return 1

    def generator() -> Any:
        return 2
        yield

    def plain() -> int:
        return 3

    LanguageServerProtocol._execute_handler(protocol, "a", coroutine, done.append)
    assert isinstance(protocol._request_futures["a"], asyncio.Future)
    LanguageServerProtocol._execute_handler(protocol, "b", generator, done.append)
    assert isinstance(protocol._request_futures["b"], Future)
    LanguageServerProtocol._execute_handler(protocol, "c", plain, done.append)
    assert "c" not in protocol._request_futures
    await asyncio.sleep(0.01)
    assert sorted(future.result() for future in done) == [1, 2, 3]
    assert set(protocol._request_futures) == {"a", "b"}  # pygls keeps them: ours drops them


async def test_a_request_is_answered_through_send_handler_result_by_its_id(server, monkeypatch):
    protocol = server.protocol
    protocol.set_writer(Collected())
    calls: list[Any] = []
    monkeypatch.setattr(protocol, "_send_handler_result", lambda future, *, msg_id: calls.append(msg_id))
    protocol.handle_message(message(types.INITIALIZE, {"capabilities": {}}, 7))
    await asyncio.sleep(0.05)
    assert calls == [7]


async def test_exit_ends_with_lsp_s_status_after_closing_the_writer(server):
    """stdio.py reads ``exit``'s status off the SystemExit that pygls's ``lsp_exit`` raises."""
    protocol = server.protocol
    writer = Collected()
    protocol.set_writer(writer)
    with pytest.raises(SystemExit) as early:
        protocol.handle_message(message(types.EXIT))
    assert early.value.code == 1 and writer.closed
    protocol.handle_message(message(types.INITIALIZE, {"capabilities": {}}, 1))
    protocol.handle_message(message(types.SHUTDOWN, None, 2))
    for _ in range(50):
        await asyncio.sleep(0.01)
        if protocol._shutdown:  # set by pygls's lsp_shutdown (main.py reads it over TCP)
            break
    assert protocol._shutdown is True
    with pytest.raises(SystemExit) as after:
        protocol.handle_message(message(types.EXIT))
    assert after.value.code == 0


def test_shutting_the_server_down_sets_the_stop_event_and_stops_the_thread_pool(server):
    server._stop_event = stop = threading.Event()
    pool = server.thread_pool
    server.shutdown()
    assert stop.is_set()
    with pytest.raises(RuntimeError):
        pool.submit(print)


def test_report_server_error_is_what_pygls_reports_through(server, monkeypatch):
    seen: list[Any] = []
    monkeypatch.setattr(server, "report_server_error", lambda error, source: seen.append((error, source)))
    error = ValueError("x")
    server._report_server_error(error, exceptions.JsonRpcInternalError)
    assert seen == [(error, exceptions.JsonRpcInternalError)]


def test_the_stdout_writer_flushes_each_message_and_closes_the_stream():
    class Stream:
        def __init__(self) -> None:
            self.events: list[Any] = []

        def write(self, data: bytes) -> None:
            self.events.append(data)

        def flush(self) -> None:
            self.events.append("flush")

        def close(self) -> None:
            self.events.append("close")

    stream = Stream()
    writer = pygls.io_.StdoutWriter(stream)  # type: ignore[arg-type]
    writer.write(b"abc")
    writer.close()
    assert stream.events == [b"abc", "flush", "close"]


class LinesReader:
    """What pygls's loop reads from (an asyncio.StreamReader over TCP)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    async def readline(self) -> bytes:
        line, newline, self.data = self.data.partition(b"\n")
        return line + newline

    async def readexactly(self, n: int) -> bytes:
        body, self.data = self.data[:n], self.data[n:]
        return body


async def test_pygls_s_loop_hands_our_protocol_each_message_unstructured(server):
    """Over TCP the messages are read by pygls's loop, with ``structure_message`` as the
    JSON object hook: ours leaves each object as it is, so that protocol.py answers a
    request whose params do not fit (pygls's hook raised inside json.loads: no answer)."""
    writer = Collected()
    server.protocol.set_writer(writer)
    bodies = [
        message(types.INITIALIZE, {"capabilities": {}}, 1),
        message(types.TEXT_DOCUMENT_HOVER, {"textDocument": {"uri": "file:///a"}}, 2),  # no position
    ]
    data = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(b), b) for b in (json.dumps(m).encode() for m in bodies))
    await pygls.io_.run_async(threading.Event(), LinesReader(data), server.protocol, logging.getLogger("test"))
    for _ in range(50):
        await asyncio.sleep(0.01)
        answers = {m.get("id"): m for m in writer.messages()}
        if 2 in answers:
            break
    assert "capabilities" in answers[1]["result"]
    assert answers[2]["error"]["code"] == -32602


def test_pygls_logs_under_pygls_names():
    """main.py keeps the records of loggers named ``pygls.*`` to one line each."""
    for module in (pygls.protocol.json_rpc, pygls.protocol.language_server, pygls.server):
        assert module.logger.name.startswith("pygls."), module.__name__  # pygls.server's: its TCP loop's
    assert our_protocol.log.name == "sourcecheck"

"""pygls's LSP protocol, with the reading of messages, the text synchronisation and the
sending of diagnostics ours.

- Every request gets exactly one answer (:meth:`SourceCheckProtocol.handle_message`): pygls
  structures a message inside ``json.loads``'s object hook, where a failure only reaches the
  log (with a traceback) and the request is never answered. Here the message is structured
  whole, after reading, and a request that cannot be is answered with the JSON-RPC error
  that says why; so is a request before ``initialize`` or after ``shutdown``, as LSP asks.
- ``didOpen`` / ``didChange`` / ``didClose`` go straight to the server's documents (not to
  pygls's workspace, whose line splitting is not LSP's) and are plain functions.
- No future outlives its handler (:meth:`SourceCheckProtocol._execute_handler`): pygls kept
  one for every notification handled by a generator or a coroutine, which grew memory on
  every edit.
- A message carrying diagnostics whose JSON text is already written goes out as that text
  (see :mod:`.wire`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Generator
from concurrent.futures import Future
from typing import Any, Protocol

import attrs
from cattrs import transform_error
from cattrs.errors import BaseValidationError
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcMethodNotFound,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, MsgId
from pygls.protocol.language_server import lsp_method

from . import wire
from .app import VIEW_SCHEME, RequestRefused

log = logging.getLogger("sourcecheck")


class DocumentHost(Protocol):
    """What the protocol hands the editor's text to (the server)."""

    def opened(self, params: types.DidOpenTextDocumentParams) -> None: ...
    def changed(self, params: types.DidChangeTextDocumentParams) -> None: ...
    def closed(self, params: types.DidCloseTextDocumentParams) -> None: ...


class SourceCheckProtocol(LanguageServerProtocol):
    _server: Any  # a LanguageServer that is also a DocumentHost

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Set when the request is read (pygls's ``_shutdown`` only once it is answered).
        self._initialize_seen = False
        self._shutdown_seen = False

    # -- reading

    def structure_message(self, data: dict[str, Any]) -> dict[str, Any]:
        """Leave each JSON object as it is: :meth:`handle_message` structures the message
        whole, where a failure can be answered. (Also, an object inside the params that
        happens to have a ``jsonrpc`` key is no longer taken for a message.)"""
        return data

    def handle_message(self, message: Any) -> None:
        """Answer or dispatch one message as read (any JSON value), so that a request gets
        exactly one answer: -32600 when it is no JSON-RPC request or comes after
        ``shutdown``, -32002 before ``initialize``, -32601 for an unknown method, -32602
        when its params do not fit the method, else its handler's. A notification that
        cannot be handled is logged in one line and dropped; before ``initialize`` and
        after ``shutdown`` every notification but ``exit`` is dropped."""
        if not isinstance(message, dict):
            if hasattr(message, "jsonrpc"):  # structured already, by a caller other than pygls's reader
                super().handle_message(message)
            else:
                self._refuse(None, JsonRpcInvalidRequest(f"not a JSON-RPC message: a JSON {type(message).__name__}"))
            return
        if "method" not in message and "id" in message and ("result" in message or "error" in message):
            self._take_response(message)
            return
        method, msg_id, is_request = message.get("method"), message.get("id"), "id" in message
        if message.get("jsonrpc") != self.VERSION or not isinstance(method, str) or (is_request and not is_id(msg_id)):
            self._refuse(
                msg_id if is_id(msg_id) else None,
                JsonRpcInvalidRequest("not a JSON-RPC 2.0 request (jsonrpc, method or id missing or wrong)"),
            )
            return
        if not is_request:
            if method != types.EXIT and (not self._initialize_seen or self._shutdown_seen):
                log.debug("%s ignored: the server is %s", method, "shut down" if self._shutdown_seen else "not started")
                return
        elif self._shutdown_seen:
            self._refuse(msg_id, JsonRpcInvalidRequest(f"{method}: the server is shut down"))
            return
        elif not self._initialize_seen and method != types.INITIALIZE:
            self._refuse(msg_id, JsonRpcServerNotInitialized(f"{method}: the server is not initialized yet"))
            return
        elif method not in self.fm.builtin_features and method not in self.fm.features:
            log.info("%s: no such method", method)
            self._refuse(msg_id, JsonRpcMethodNotFound.of(method))
            return
        message_type = self.get_message_type(method) or (JsonRPCRequestMessage if is_request else JsonRPCNotification)
        if "params" not in message or takes_no_params(message_type):
            message = {**message, "params": None}  # JSON-RPC lets a message leave params out
        try:
            structured = self._converter.structure(message, message_type)
        except Exception as error:
            reason = describe(error)
            log.warning(
                "%s%s: invalid params: %s", method, f" (request {msg_id!r})" if is_request else ", ignored", reason
            )
            if is_request:
                self._refuse(msg_id, JsonRpcInvalidParams(f"invalid params: {reason}"))
            return
        self._initialize_seen |= method == types.INITIALIZE
        self._shutdown_seen |= method == types.SHUTDOWN
        super().handle_message(structured)

    def _take_response(self, message: dict[str, Any]) -> None:
        """The editor's answer to a request of ours. One that does not structure fails the
        request (pygls left it waiting for ever)."""
        msg_id = message["id"]
        # Dropped on an error answer too (pygls kept it).
        result_type = self._result_types.pop(msg_id, None) if is_id(msg_id) else None
        try:
            structured = self._converter.structure(
                message, types.ResponseErrorMessage if "error" in message else result_type or JsonRPCResponseMessage
            )
        except Exception as error:
            reason = describe(error)
            log.warning("the editor's answer to %r is unreadable: %s", msg_id, reason)
            future = self._request_futures.pop(msg_id, None) if is_id(msg_id) else None
            if future is not None and not future.done():
                future.set_exception(JsonRpcInternalError(f"unreadable answer: {reason}"))
            return
        super().handle_message(structured)

    def answer_unreadable(self, error: Exception) -> bool:
        """Answer a message body that is not JSON (or not UTF-8) with -32700 and ``"id":
        null``, as JSON-RPC asks; False if ``error`` is not that. The reading loop
        (stdio.py's, and pygls's over TCP) does not give the protocol such a body: it hands
        the decoding error to the server's ``report_server_error``, which has to call this."""
        if not isinstance(error, json.JSONDecodeError | UnicodeDecodeError):
            return False
        self._refuse(None, JsonRpcParseError(f"the message is not JSON: {error}"))
        return True

    def _refuse(self, msg_id: MsgId | None, error: JsonRpcException) -> None:
        """Answer a request with an error. lsprotocol's response leaves out a null id, which
        JSON-RPC requires when the request's id is unknown, so that one is written here."""
        if msg_id is None:
            self._send_data(
                {"jsonrpc": self.VERSION, "id": None, "error": {"code": error.code, "message": error.message}}
            )
        else:
            self._send_response(msg_id, error=error.to_response_error())

    # -- handlers

    def _execute_handler(
        self,
        msg_id: MsgId,
        handler: Any,
        callback: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls's, but the future kept for ``msg_id`` is dropped once done. pygls drops
        only a request's (when answering it); a notification's, and each step of a
        generator handler's (random ids), stayed for ever. The entry is dropped from the
        event loop, never inside the done callback: pygls's shutdown cancels the futures
        while it iterates over them."""
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is None:
            return
        loop = asyncio.get_running_loop()

        def forget(done: Any) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(self._forget, msg_id, done)

        future.add_done_callback(forget)

    def _forget(self, msg_id: MsgId, future: Any) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, types.InitializeResult]:
        """pygls's, and the document view's URI scheme: pygls builds every capability but
        ``workspace.textDocumentContent`` (LSP 3.18) from the registered features."""
        result = yield from super().lsp_initialize(params)
        workspace = result.capabilities.workspace
        if workspace is not None and types.WORKSPACE_TEXT_DOCUMENT_CONTENT in self.fm.features:
            workspace.text_document_content = types.TextDocumentContentOptions(schemes=[VIEW_SCHEME])
        return result

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        self._server.opened(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._server.changed(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self._server.closed(params)

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        """pygls's, but an expected refusal is answered without a traceback in the log."""
        if not future.cancelled() and isinstance(future.exception(), RequestRefused):
            self._request_futures.pop(msg_id, None)
            refusal = future.exception()
            assert isinstance(refusal, RequestRefused)
            self._send_response(msg_id, error=refusal.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    # -- sending

    def _send_data(self, data: Any) -> None:
        encoded = wire.encode_with_written_diagnostics(data, self._serialize_message)
        if encoded is None:
            super()._send_data(data)
            return
        wire.send(self, encoded)


def is_id(value: Any) -> bool:
    """A request id as LSP has them: an integer or a string (JSON's true is no integer)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def takes_no_params(message_type: type) -> bool:
    """Whether the method has no params (``shutdown``, ``exit``): whatever a client sends
    along for them is ignored, so that ``exit`` always ends the process."""
    params = attrs.fields_dict(message_type).get("params") if attrs.has(message_type) else None
    return params is not None and params.type is type(None)


def describe(error: Exception) -> str:
    """A structuring error in one line: where each value went wrong."""
    if isinstance(error, BaseValidationError):
        return "; ".join(transform_error(error))
    return f"{type(error).__name__}: {error}"

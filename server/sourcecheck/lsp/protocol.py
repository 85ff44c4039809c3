"""pygls's LSP protocol, with the text synchronisation and the sending of diagnostics ours.

- ``didOpen`` / ``didChange`` / ``didClose`` go straight to the server's documents (not to
  pygls's workspace, whose line splitting is not LSP's) and are plain functions: pygls keeps
  a future for every notification handled by a generator, which grew memory on every edit.
- A message carrying diagnostics whose JSON text is already written goes out as that text
  (see :mod:`.wire`).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any, Protocol

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from . import wire
from .app import Refused


class DocumentHost(Protocol):
    """What the protocol hands the editor's text to (the server)."""

    def opened(self, params: types.DidOpenTextDocumentParams) -> None: ...
    def changed(self, params: types.DidChangeTextDocumentParams) -> None: ...
    def closed(self, params: types.DidCloseTextDocumentParams) -> None: ...


class SourceCheckProtocol(LanguageServerProtocol):
    _server: Any  # a LanguageServer that is also a DocumentHost

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> None:  # type: ignore[override]
        self._server.opened(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> None:  # type: ignore[override]
        self._server.changed(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> None:  # type: ignore[override]
        self._server.closed(params)

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        """pygls's, but an expected refusal is answered without a traceback in the log."""
        if not future.cancelled() and isinstance(future.exception(), Refused):
            self._request_futures.pop(msg_id, None)
            refusal = future.exception()
            assert isinstance(refusal, Refused)
            self._send_response(msg_id, error=refusal.to_response_error())
            return
        super()._send_handler_result(future, msg_id=msg_id)

    def _send_data(self, data: Any) -> None:
        encoded = wire.encode_with_written_diagnostics(data, self._serialize_message)
        if encoded is None:
            super()._send_data(data)
            return
        wire.send(self, encoded)

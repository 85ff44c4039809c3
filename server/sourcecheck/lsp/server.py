"""Builds the language server from its feature modules and starts it.

    sourcecheck-ls            LSP over stdio (``--stdio`` is accepted: clients append it)
    sourcecheck-ls --tcp      LSP over TCP, for debugging (``--host``, ``--port``)
    python -m sourcecheck.lsp
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import functools
import inspect
import json
import logging
import os
import sys
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import attrs
from lsprotocol import types
from pygls.exceptions import JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .. import __version__
from ..analysis import Analysis, Cancelled
from ..positions import Encoding
from ..text import Text
from .config import Settings
from .convert import core_position, encoding_of
from .documents import DocumentStore, OpenDocument

log = logging.getLogger("sourcecheck")
READY_TIMEOUT = 5.0
"""Seconds a request waits for the analysis of a big file before it is answered empty
(``SOURCECHECK_READY_TIMEOUT`` overrides it, for tests)."""
F = TypeVar("F", bound=Callable[..., Any])


class SourceCheckProtocol(LanguageServerProtocol):
    """pygls's protocol, with text synchronisation done by our own :class:`DocumentStore`."""

    _server: SourceCheckServer

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams):  # type: ignore[override]
        self._server.documents.open(params.text_document)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):  # type: ignore[override]
        self._server.documents.change(params, self._server.encoding)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    def _send_data(self, data: Any) -> None:
        """pygls's, but a list of diagnostics whose JSON text is already written (see
        ``diagnostics.Diagnostics``) goes into the message as that text: encoding a
        thousand diagnostics again on every keystroke took as long as checking the edit."""
        found = _written_diagnostics(data)
        if found is None or self.writer is None:
            super()._send_data(data)
            return
        message, key, written = found
        try:
            placeholder = f'"{key}": []'
            body = json.dumps(message, default=self._serialize_message)  # ASCII: one char, one byte
            body = body.replace(placeholder, f'"{key}": {written}', 1)
            header = f"Content-Length: {len(body)}\r\nContent-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            result = self.writer.write(((header if self._include_headers else "") + body).encode(self.CHARSET))
            if inspect.isawaitable(result):
                asyncio.ensure_future(result)
        except Exception as error:  # as pygls does: reported, never fatal
            log.exception("sending diagnostics failed")
            self._server._report_server_error(error, JsonRpcInternalError)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):  # type: ignore[override]
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None
        self._server.documents.close(params.text_document.uri)


def _written_diagnostics(data: Any) -> tuple[Any, str, str] | None:
    """For a message carrying diagnostics with their JSON text: the message with an empty
    list in their place, the key of that list and the text."""
    from .diagnostics import Diagnostics

    result = getattr(data, "result", None)
    if isinstance(result, types.RelatedFullDocumentDiagnosticReport) and isinstance(result.items, Diagnostics):
        return attrs.evolve(data, result=attrs.evolve(result, items=[])), "items", result.items.encoded
    params = getattr(data, "params", None)
    if isinstance(params, types.PublishDiagnosticsParams) and isinstance(params.diagnostics, Diagnostics):
        return attrs.evolve(data, params=attrs.evolve(params, diagnostics=[])), "diagnostics", params.diagnostics.encoded
    return None


class SourceCheckServer(LanguageServer):
    """The server's state: open documents and what was negotiated with the client."""

    def __init__(self) -> None:
        super().__init__(
            "sourcecheck",
            __version__,
            protocol_cls=SourceCheckProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.documents = DocumentStore()
        self.encoding: Encoding = Encoding.UTF16
        self.pull_diagnostics = False
        self.markdown = True
        self.document_changes = False
        self.published: set[str] = set()  # URIs holding pushed diagnostics
        self.settings = Settings()
        # One thread for full analyses: they are called off when outdated, so one suffices.
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sourcecheck-analysis")
        self.tasks: set[asyncio.Task[Any]] = set()  # held here: the event loop keeps tasks only weakly
        self.ready_timeout = float(os.environ.get("SOURCECHECK_READY_TIMEOUT") or READY_TIMEOUT)  # tests shorten it

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def analysed(self, document: OpenDocument, timeout: float | None = None) -> bool | None:
        """Wait for the analysis of the document's current text: True once it is made,
        False if an edit outdated that text meanwhile, None if ``timeout`` ran out.

        A full analysis of a big file (on opening it, or after an edit that broke the JSON)
        is made in a worker thread, so that the server goes on reading messages meanwhile:
        an edit calls off the analysis of the text it replaces, and a request waits for
        one analysis of the newest text at most, never for a queue of outdated ones."""
        state = document.start(self.executor)
        if not isinstance(state, Future):
            return True
        source = document.source
        try:
            analysis = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(state)), timeout)
        except Cancelled:
            return False
        except TimeoutError:
            loop = asyncio.get_running_loop()
            state.add_done_callback(lambda future: loop.call_soon_threadsafe(self._late, document, source, future))
            return None
        document.adopt(source, analysis)
        return document.source is source

    def _late(self, document: OpenDocument, source: Text, future: Future[Analysis]) -> None:
        """A full analysis that a request gave up waiting for is done: take it, and have
        the editor ask again for the hints and lenses it got none of."""
        if future.exception() is not None or self.documents.get(document.uri) is not document:
            return
        document.adopt(source, future.result())
        if document.source is source:
            self.spawn(self.refresh_views())

    async def refresh_views(self) -> None:
        """Ask the client to fetch inlay hints and code lenses again, if it can."""
        workspace = self.client_capabilities.workspace
        try:
            if workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support:
                await self.workspace_inlay_hint_refresh_async(None)
            if workspace and workspace.code_lens and workspace.code_lens.refresh_support:
                await self.workspace_code_lens_refresh_async(None)
        except Exception as error:
            log.warning("the client did not refresh hints or lenses: %s", error)

    async def ready_session(self, uri: str) -> OpenDocument | None:
        """The open session at ``uri``, its current version analysed (see :meth:`analysed`).
        None if it is closed, not a session, past the size limit or not analysed within
        :data:`READY_TIMEOUT` (the editor is then asked to fetch hints and lenses again)."""
        timeout = self.ready_timeout
        while True:
            document = self.documents.get(uri)
            if document is None or document.too_large(self.settings.max_file_size_mb):
                return None
            done = await self.analysed(document, timeout)
            if done is None:
                return None
            if done and self.documents.get(uri) is document:
                return document if document.is_session else None

    def offset(self, document: OpenDocument, position: types.Position) -> int:
        return document.lines.offset(core_position(position), self.encoding)

    def report_server_error(self, error: Exception, source: Any) -> None:
        # Errors go to the log, never to a pop-up in the user's face.
        log.error("internal error (%s): %s", getattr(source, "__name__", source), error)


def guarded(fallback: Any = None) -> Callable[[F], F]:
    """Run a handler so that a failure is logged and answered with ``fallback``, never fatal."""

    def decorate(handler: F) -> F:
        if inspect.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await handler(*args, **kwargs)
                except Exception:
                    log.exception("%s failed", handler.__name__)
                    return fallback

            return async_wrapper  # type: ignore[return-value]

        @functools.wraps(handler)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except Exception:
                log.exception("%s failed", handler.__name__)
                return fallback

        return wrapper  # type: ignore[return-value]

    return decorate


class ClientLogHandler(logging.Handler):
    """Sends log records to the client's log (``window/logMessage``)."""

    LEVELS = {logging.ERROR: types.MessageType.Error, logging.WARNING: types.MessageType.Warning, logging.INFO: types.MessageType.Info}

    def __init__(self, server: LanguageServer) -> None:
        super().__init__(logging.INFO)
        self.server = server

    def emit(self, record: logging.LogRecord) -> None:
        try:
            kind = self.LEVELS.get(record.levelno, types.MessageType.Log)
            self.server.window_log_message(types.LogMessageParams(type=kind, message=self.format(record)))
        except Exception:  # the transport may be gone; stderr still has it
            pass


def build_server() -> SourceCheckServer:
    from . import actions, completion, config, diagnostics, hints, hover, lens, navigation, rename, status, symbols

    server = SourceCheckServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: SourceCheckServer, params: types.InitializeParams) -> None:
        caps = params.capabilities
        ls.encoding = encoding_of(ls.workspace.position_encoding)
        text = caps.text_document
        formats = text.hover.content_format if text and text.hover else None
        ls.markdown = formats is None or types.MarkupKind.Markdown in formats
        ls.pull_diagnostics = bool(text and text.diagnostic)
        edit = caps.workspace.workspace_edit if caps.workspace else None
        ls.document_changes = bool(edit and edit.document_changes)
        diagnostics.choose_mode(ls)
        log.info("sourcecheck %s: %s positions, %s diagnostics", __version__, ls.encoding.value, "pull" if ls.pull_diagnostics else "push")

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: SourceCheckServer, params: None) -> None:
        ls.documents.stop_all()  # else exiting waits for the worker to finish an analysis

    diagnostics.register(server)
    hover.register(server)
    actions.register(server)
    status.register(server)
    config.register(server)
    hints.register(server)
    navigation.register(server)
    completion.register(server)
    rename.register(server)
    symbols.register(server)
    lens.register(server)
    return server


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sourcecheck-ls", description="The SourceCheck language server: live checking of SourceCheck sessions.")
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    parser.add_argument("--tcp", action="store_true", help="listen for one client over TCP instead, for debugging")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (default 2087)")
    parser.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"), help="how much to log to stderr and the client")
    parser.add_argument("--version", action="version", version=f"sourcecheck-ls {__version__}")
    return parser


def keep_large_blocks() -> None:
    """Let glibc's malloc reuse freed large blocks instead of returning them to the system.

    Each edit of a big session makes a new text (48 MB for 12 million characters with an
    emoji among them). By default glibc maps every block over 32 MB afresh and unmaps it on
    free, and touching the new pages costs twice the copy itself. A no-op elsewhere."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 1 << 30)
    mallopt(m_trim_threshold, 1 << 30)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if sys.platform == "linux":
        keep_large_blocks()
    # A full analysis runs in a worker thread; the thread serving requests gets the
    # interpreter back within a fraction of a millisecond rather than five.
    sys.setswitchinterval(0.0002)
    # stdout carries the protocol: every log line goes to stderr (and the client's log).
    logging.basicConfig(stream=sys.stderr, level=args.log_level, format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)
    server = build_server()
    client_log = ClientLogHandler(server)
    client_log.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(client_log)
    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return 0

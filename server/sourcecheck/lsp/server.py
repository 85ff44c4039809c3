"""The language server, assembled in one place from one table of features.

:data:`FEATURES` lists every LSP method the server answers: the document features (each
``f(view, params)``, see :mod:`.app`) and the few handlers about the server itself
(initialize, shutdown, settings, pulled diagnostics). :func:`build_server` registers each
entry through one guard: it waits for the analysis of the document's newest version,
answers the entry's fallback when there is nothing to answer about, and isolates a feature
that fails (one line in the log, the fallback as answer, the server goes on).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import os
import pathlib
import re
import sys
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from ..core.analysis import Analysis, Cancelled
from ..core.positions import LineTable
from ..core.text import Text
from ..version import __version__
from .app import VIEW_SCHEME, Client, Feature, Handler, RequestRefused, Shown, View, parse_view_uri
from .features import (
    actions,
    cite,
    completion,
    diagnostics,
    document_view,
    drift,
    hints,
    hover,
    lens,
    navigation,
    rename,
    review,
    status,
    symbols,
)
from .features import article as features_article
from .files import Disk, guarded
from .protocol import SourceCheckProtocol
from .runtime import COLLECTOR
from .settings import Settings
from .stdio import serve
from .sync import DocumentStore, OpenDocument
from .wire import WrittenDiagnostics
from .workspaces import Workspace

log = logging.getLogger("sourcecheck")
READY_TIMEOUT = 5.0
"""Seconds a request waits for the analysis of a big file before it is answered empty
(``SOURCECHECK_READY_TIMEOUT`` overrides it, for tests)."""
IDLE_CHECK_SECONDS = 1.0
LINES_LATER = 0.05
"""Seconds after a full analysis is taken before its text's line table is made (see LineTable)."""
REFRESH_DELAY = 0.3
"""Seconds without an edit of a session before its open document views are refreshed."""


class SourceCheckServer(LanguageServer):
    """The server's state: open documents, the client as negotiated, the settings."""

    def __init__(self) -> None:
        super().__init__(
            "sourcecheck",
            __version__,
            protocol_cls=SourceCheckProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.documents = DocumentStore()
        self.client = Client()
        self.settings = Settings()
        self.published: set[str] = set()  # URIs holding pushed diagnostics
        # One thread for full analyses: they are called off when outdated, so one suffices.
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sourcecheck-analysis")
        # The files of the sessions' documents (drift): read, indexed and polled off the loop.
        self.disk = Disk(
            self.documents, lambda: self.settings.max_file_size_mb, self.spawn, self.drift_changed, self.watch
        )
        self.watched: set[str] = set()  # session folders the client was asked to watch
        # The workspace's sessions, open or not, and the files they cite (workspaces.py).
        self.project = Workspace(self.documents, self.spawn, self.publish_closed, self.unpublish, self.refresh_articles)
        self.article_refresh: asyncio.TimerHandle | None = None
        # One for requests that take long (the review of a big session), off the event loop.
        self.slow_requests = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sourcecheck-slow")
        self.told: dict[str, Analysis] = {}  # each pulled session's analysis the workspace was told of
        self.tasks: set[asyncio.Task[Any]] = set()  # held here: the event loop keeps tasks only weakly
        self.refreshes: dict[str, asyncio.TimerHandle] = {}  # document views to refresh, by session
        self.ready_timeout = float(os.environ.get("SOURCECHECK_READY_TIMEOUT") or READY_TIMEOUT)  # tests shorten it

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background."""
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # -- the editor's text (called by the protocol)

    def opened(self, params: types.DidOpenTextDocumentParams) -> None:
        COLLECTOR.touch()
        document = self.documents.open(params.text_document)
        self.project.taken(document.uri)
        if not self.client.pull_diagnostics:
            self.spawn(guarded_call("publishing diagnostics", self.publish(document)))

    def changed(self, params: types.DidChangeTextDocumentParams) -> None:
        COLLECTOR.touch()
        document = self.documents.change(params, self.client.encoding)
        if document is not None:
            self.refresh_shown_soon(document.uri)
        if document is not None and not self.client.pull_diagnostics:
            # Let edits already waiting be read first: work for a superseded version is dropped.
            version = document.version
            asyncio.get_running_loop().call_later(
                0.001,
                lambda: self.spawn(guarded_call("publishing diagnostics", self.publish_if_current(document, version))),
            )

    def refresh_shown_soon(self, session_uri: str) -> None:
        """After an edit of a session, have the editor fetch its open document views again
        (their text and marks), once typing pauses."""
        if not any(
            shown is not None and shown[0] == session_uri for shown in map(parse_view_uri, self.documents.uris())
        ):
            return
        pending = self.refreshes.pop(session_uri, None)
        if pending is not None:
            pending.cancel()
        loop = asyncio.get_running_loop()
        self.refreshes[session_uri] = loop.call_later(
            REFRESH_DELAY,
            lambda: self.spawn(guarded_call("refreshing document views", self.refresh_shown(session_uri))),
        )

    async def refresh_shown(self, session_uri: str) -> None:
        """Ask the editor to fetch the text (LSP 3.18 ``workspace/textDocumentContent/refresh``;
        sent to any client that opened a view, which it did knowing the scheme) and the
        marks of the session's open document views again, and the session's inlay hints: the
        edit may be one the server made from a view (a cite), which an editor applies to the
        session without fetching its hints again (Neovim asks for those of the buffer it is in,
        the view)."""
        self.refreshes.pop(session_uri, None)
        for uri in self.documents.uris():
            shown = parse_view_uri(uri)
            if shown is not None and shown[0] == session_uri:
                try:
                    await self.workspace_text_document_content_refresh_async(
                        types.TextDocumentContentRefreshParams(uri=uri)
                    )
                except Exception as error:
                    log.debug("the client did not refresh %s: %s", uri, error)
        workspace = self.client_capabilities.workspace
        if workspace and workspace.semantic_tokens and workspace.semantic_tokens.refresh_support:
            try:
                await self.workspace_semantic_tokens_refresh_async(None)
            except Exception as error:
                log.debug("the client did not refresh semantic tokens: %s", error)
        await self.refresh_hints()

    def closed(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        document = self.documents.get(uri)
        if document is not None:
            self.disk.closed(document)
            if document.named_session:
                self.project.closed(uri)
        self.project.forget(uri)
        self.told.pop(uri, None)
        self.documents.close(uri)
        if not self.client.pull_diagnostics and uri in self.published:
            self.published.discard(uri)
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # -- analyses

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

            def done(future: Future[Analysis]) -> None:
                if not loop.is_closed():  # else the server has stopped meanwhile
                    loop.call_soon_threadsafe(self._late, document, source, future)

            state.add_done_callback(done)
            return None
        document.adopt(source, analysis)
        # Its first positions are counted without the line table (see LineTable): the table
        # is made in the worker once they are out, before an edit or a request needs it.
        asyncio.get_running_loop().call_later(LINES_LATER, self.in_worker, analysis.lines.complete)
        return document.source is source

    def in_worker(self, work: Callable[[], object]) -> None:
        """Run ``work`` in the worker thread, unless the server is stopping."""
        try:
            self.executor.submit(work)
        except RuntimeError:  # the executor was shut down: nothing is waiting for it
            pass

    def _late(self, document: OpenDocument, source: Text, future: Future[Analysis]) -> None:
        """A full analysis that a request gave up waiting for is done: take it, and have
        the editor ask again for the hints and lenses it got none of."""
        if future.cancelled() or future.exception() is not None or self.documents.get(document.uri) is not document:
            return
        document.adopt(source, future.result())
        if document.source is source:
            self.spawn(self.refresh_views())

    async def refresh_views(self) -> None:
        """Ask the client to fetch inlay hints and code lenses again, if it can."""
        await self.refresh_hints()
        workspace = self.client_capabilities.workspace
        try:
            if workspace and workspace.code_lens and workspace.code_lens.refresh_support:
                await self.workspace_code_lens_refresh_async(None)
        except Exception as error:
            log.warning("the client did not refresh lenses: %s", error)

    async def refresh_hints(self) -> None:
        """Ask the client to fetch inlay hints again (``workspace/inlayHint/refresh``), if it can."""
        workspace = self.client_capabilities.workspace
        try:
            if workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support:
                await self.workspace_inlay_hint_refresh_async(None)
        except Exception as error:
            log.warning("the client did not refresh hints: %s", error)

    async def ready_session(self, uri: str, wait: bool = False) -> OpenDocument | None:
        """The open session at ``uri``, its current version analysed (see :meth:`analysed`).
        None if it is closed, not a session, past the size limit or (unless ``wait``) not
        analysed within :data:`READY_TIMEOUT` (the editor is then asked to fetch hints and
        lenses again)."""
        while True:
            document = self.documents.get(uri)
            if document is None or document.too_large(self.settings.max_file_size_mb):
                return None
            done = await self.analysed(document, None if wait else self.ready_timeout)
            if done is None:
                return None
            if done and self.documents.get(uri) is document:
                return document if document.is_session else None

    async def view(self, uri: str, wait: bool = False) -> View | None:
        """The view of the newest version of the session at ``uri`` (see :meth:`ready_session`)."""
        document = await self.ready_session(uri, wait)
        return self.view_of(document) if document is not None else None

    def view_of(self, document: OpenDocument) -> View:
        """The view of a document's current version (its analysis made if need be), with its
        documents beside their files when those were read."""
        analysis = document.analysis
        drift = document.disk.drift(analysis) if document.disk is not None else None
        return View(
            document.uri,
            document.version,
            analysis,
            self.client,
            self.settings,
            document.memo,
            drift,
            document.disk.version if document.disk is not None and drift is not None else 0,
            self.project,
        )

    async def shown(self, uri: str, session_uri: str, path: str) -> Shown | None:
        """A document of the session at ``session_uri``, as its document view shows it."""
        view = await self.view(session_uri)
        document = view.analysis.session.by_path.get(path) if view is not None else None
        if view is None or document is None:
            return None
        return Shown(uri, view, document, LineTable(document.content))

    # -- diagnostics, pushed

    async def publish(self, document: OpenDocument) -> None:
        """Push the diagnostics of the document's current version, once it is analysed;
        nothing if an edit outdates it meanwhile (that edit's own push follows): an old
        result never follows a new one."""
        version = document.version
        uri = document.uri
        items: Sequence[types.Diagnostic]
        if document.too_large(self.settings.max_file_size_mb):
            if not document.looks_like_session():
                return
            items = diagnostics.too_large(len(document.source), self.settings.max_file_size_mb)
        else:
            if not await self.analysed(document):
                return
            if self.documents.get(uri) is not document or document.version != version:
                return
            if document.is_session:
                self.disk.wanted(document)
                self.session_changed(document)
                await self.disk.drift_ready(document)
                if self.documents.get(uri) is not document or document.version != version:
                    return
            view = self.view_of(document) if document.is_session else None
            article = self.article_of(document) if view is None else None
            if view is None and article is None and uri not in self.published:
                return  # other files hear nothing from us
            if article is not None:
                items = features_article.diagnostics(article)
            else:
                items = diagnostics.diagnostics(view) if view is not None else WrittenDiagnostics()
        self.published.add(uri)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=version)
        )

    def publish_closed(self, uri: str, analysis: Analysis) -> None:
        """Push the diagnostics of a session of the workspace that is not open (its file's)."""
        view = View(uri, 0, analysis, self.client, self.settings)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics.diagnostics(view))
        )

    def unpublish(self, uri: str) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def article_of(self, document: OpenDocument) -> Any:
        """The open file seen from the sessions citing it (``features/article.py``), if any cite it."""
        if document.is_view or document.looks_like_session():
            return None
        return self.project.article(document, self.client)

    def session_changed(self, document: OpenDocument) -> None:
        """A session's newest analysis: the workspace knows it, and the open files it cites
        show it (their hints and diagnostics, once typing pauses)."""
        self.project.opened(document, document.analysis)
        if self.article_refresh is None:
            self.article_refresh = asyncio.get_running_loop().call_later(
                REFRESH_DELAY, lambda: self.spawn(guarded_call("refreshing cited files", self.refresh_articles()))
            )

    async def refresh_articles(self) -> None:
        """Show the open cited files' hints and diagnostics again (after a session changed)."""
        self.article_refresh = None
        articles = 0
        for uri in self.documents.uris():
            document = self.documents.get(uri)
            if document is None or self.article_of(document) is None:
                continue
            articles += 1
            if not self.client.pull_diagnostics:
                await self.publish(document)
        if not articles:  # nothing to show again: asking the editor to refresh would only churn
            return
        if self.client.pull_diagnostics and self.client.diagnostic_refresh:
            try:
                await self.workspace_diagnostic_refresh_async(None)
            except Exception as error:
                log.debug("the client did not refresh diagnostics: %s", error)
        await self.refresh_views()

    async def publish_if_current(self, document: OpenDocument, version: int) -> None:
        if self.documents.get(document.uri) is document and document.version == version:
            await self.publish(document)  # also clears them if the file stopped being a session

    # -- the files of the sessions' documents (drift: files.py)

    async def drift_changed(self, document: OpenDocument) -> None:
        """Show the session's drift: push its diagnostics again, or ask a pulling client to pull."""
        if not self.client.pull_diagnostics:
            await self.publish(document)
        elif self.client.diagnostic_refresh:
            try:
                await self.workspace_diagnostic_refresh_async(None)
            except Exception as error:
                log.debug("the client did not refresh diagnostics: %s", error)

    def watch(self, folder: str) -> None:
        """Ask the client to tell of files changing in a session's folder (once per folder),
        where it can be asked (dynamic registration of ``workspace/didChangeWatchedFiles``)."""
        if folder in self.watched or not self.client.watch_files:
            return
        self.watched.add(folder)
        pattern: str | types.RelativePattern = (
            types.RelativePattern(base_uri=pathlib.Path(folder).as_uri(), pattern="**/*")
            if self.client.relative_patterns
            else f"{glob_escape(folder)}/**/*"
        )
        registration = types.Registration(
            id=f"sourcecheck-files-{len(self.watched)}",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=pattern)]
            ),
        )
        self.spawn(
            guarded_call(
                "asking to watch files",
                self.client_register_capability_async(types.RegistrationParams(registrations=[registration])),
            )
        )

    async def collect_when_idle(self) -> None:
        """Run the runtime's due full collection once the editor is idle (see runtime.py)."""
        while True:
            await asyncio.sleep(IDLE_CHECK_SECONDS)
            if COLLECTOR.due and COLLECTOR.idle():
                COLLECTOR.collect_if_due()

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio, the messages read by our loop (see stdio.py); a frame that cannot
        be read past ends the process with its status (main.py calls ``serve`` itself)."""
        status = serve(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer)
        if status:
            raise SystemExit(status)

    def report_server_error(self, error: Exception, source: Any) -> None:
        if isinstance(self.protocol, SourceCheckProtocol) and self.protocol.answer_unreadable(error):
            return  # a body that is not JSON: answered -32700
        # Errors go to the log, one line each, never to a pop-up in the user's face.
        log.error("%s: %s", getattr(source, "__name__", source), error)


guarded_call = guarded


# -- handlers about the server itself


def on_initialize(ls: SourceCheckServer, params: types.InitializeParams) -> None:
    ls.client = Client.negotiated(params.capabilities, ls.workspace.position_encoding)
    ls.project.initialize(params)
    window = params.capabilities.window
    if window is not None and window.work_done_progress:
        ls.project.progress = partial(report_progress, ls)
    for entry in FEATURES:
        if entry.when is not None and entry.when(ls.client):
            ls.feature(entry.method, entry.options)(guard(ls, entry))
    log.info(
        "sourcecheck %s: %s positions, %s diagnostics",
        __version__,
        ls.client.encoding.value,
        "pull" if ls.client.pull_diagnostics else "push",
    )


async def report_progress(ls: SourceCheckServer, kind: str, message: str, percentage: int | None) -> None:
    """The workspace's scan, as the client shows work in progress (``$/progress``)."""
    token = "sourcecheck-workspace"
    if kind == "begin":
        try:
            await ls.work_done_progress.create_async(token)
        except Exception as error:
            log.debug("the client refused a progress token: %s", error)
            return
        ls.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="SourceCheck", message=message, percentage=0)
        )
    elif kind == "report":
        ls.work_done_progress.report(token, types.WorkDoneProgressReport(message=message, percentage=percentage))
    else:
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))


async def on_initialized(ls: SourceCheckServer, params: types.InitializedParams) -> None:
    ls.spawn(ls.collect_when_idle())
    ls.spawn(ls.disk.poll())
    ls.spawn(guarded_call("indexing the workspace", ls.project.scan()))
    ls.spawn(guarded_call("looking at the workspace's sessions", ls.project.look()))
    await ask_settings(ls)


def on_shutdown(ls: SourceCheckServer, params: None) -> None:
    ls.documents.stop_all()  # else exiting waits for the worker to finish an analysis
    ls.disk.stop()
    ls.project.stop()


async def on_configuration(ls: SourceCheckServer, params: types.DidChangeConfigurationParams) -> None:
    pushed = params.settings.get("sourcecheck") if isinstance(params.settings, dict) else None
    if pushed is not None:  # clients that send the settings along
        await apply_settings(ls, Settings.from_client(pushed))
    else:
        await ask_settings(ls)


async def apply_settings(ls: SourceCheckServer, settings: Settings) -> None:
    if settings == ls.settings:
        return
    ls.settings = settings
    log.info("settings: %s", settings)
    await ls.refresh_views()


async def ask_settings(ls: SourceCheckServer) -> None:
    workspace = ls.client_capabilities.workspace
    if not (workspace and workspace.configuration):
        return
    try:
        answer = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section="sourcecheck")])
        )
    except Exception as error:  # an old or odd client: keep what we have
        log.warning("could not read the sourcecheck settings: %s", error)
        return
    await apply_settings(ls, Settings.from_client(answer[0] if answer else None))


def on_files_changed(ls: SourceCheckServer, params: types.DidChangeWatchedFilesParams) -> None:
    for change in params.changes:
        ls.disk.file_changed(change.uri)
        ls.project.file_changed(change.uri)


def on_saved(ls: SourceCheckServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.disk.file_changed(params.text_document.uri)
    ls.project.file_changed(params.text_document.uri)


def glob_escape(path: str) -> str:
    """A folder's path as a glob pattern's literal start (its glob characters in brackets)."""
    return re.sub(r"([*?\[\]{}])", r"[\1]", path)


async def pull_diagnostics(
    ls: SourceCheckServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    """Diagnostics for a client that asks for them: those of the newest version, waited for."""
    uri = params.text_document.uri
    document = ls.documents.get(uri)
    if document is not None and document.too_large(ls.settings.max_file_size_mb):
        items = (
            diagnostics.too_large(len(document.source), ls.settings.max_file_size_mb)
            if document.looks_like_session()
            else WrittenDiagnostics()
        )
        return types.RelatedFullDocumentDiagnosticReport(items=items)
    if document is not None:
        article = ls.article_of(document)
        if article is not None:
            return types.RelatedFullDocumentDiagnosticReport(items=features_article.diagnostics(article))
    view = await ls.view(uri, wait=True)  # diagnostics are worth waiting for
    if view is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    opened = ls.documents.get(uri)
    if opened is not None:
        ls.disk.wanted(opened)
        if opened.is_session and ls.told.get(opened.uri) is not opened.analysis:
            # the workspace learns its newest analysis once: a pull after a refresh the
            # change asked for must not ask again (VS Code would pull and fetch lenses forever)
            ls.told[opened.uri] = opened.analysis
            ls.session_changed(opened)
        if opened.disk is not None and opened.disk.reading is not None:  # a file changed: say so once read
            await ls.disk.ready(opened)
        await ls.disk.drift_ready(opened)
        view = await ls.view(uri, wait=True)
        if view is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
    return diagnostics.report(view, params)


EMPTY_REPORT = types.RelatedFullDocumentDiagnosticReport(items=[])


def workspace_diagnostics(
    ls: SourceCheckServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    """The problems of every session of the workspace not open (an open one's are its
    document's pull): a full report for each the client has not seen as it is now, an
    unchanged one for the others; answered at once (VS Code asks again two seconds later)."""
    project = ls.project
    project.pulled_from_now()
    previous = {each.uri: each.value for each in params.previous_result_ids}
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    for indexed, result_id in project.closed_sessions():
        if previous.get(indexed.uri) == result_id:
            items.append(
                types.WorkspaceUnchangedDocumentDiagnosticReport(result_id=result_id, uri=indexed.uri, version=None)
            )
            continue
        analysis = indexed.analysis
        found: Sequence[types.Diagnostic] = []
        if analysis is not None and analysis.is_session:
            found = diagnostics.diagnostics(View(indexed.uri, 0, analysis, ls.client, ls.settings))
        items.append(
            types.WorkspaceFullDocumentDiagnosticReport(
                uri=indexed.uri, version=None, items=list(found), result_id=result_id
            )
        )
    items += [
        types.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=None, items=[]) for uri in project.take_gone()
    ]
    return types.WorkspaceDiagnosticReport(items=items)


NOT_OPEN = (
    "This is a document of a SourceCheck session that is not open (or not a session any more): open the session file."
)


def lens_uri(params: Any) -> str | None:
    data = getattr(params, "data", None)
    uri = data.get("uri") if isinstance(data, dict) else None
    return uri if isinstance(uri, str) else None


def together(*functions: Callable[[View, Any], list[Any]]) -> Callable[[View, Any], list[Any]]:
    """One feature answering with what several give (quick fixes and cite actions)."""

    def answer(view: View, params: Any) -> list[Any]:
        return [item for function in functions for item in function(view, params)]

    return answer


FEATURES: list[Feature[Any, Any] | Handler[Any, Any]] = [
    Handler(types.INITIALIZE, on_initialize),
    Handler(types.INITIALIZED, on_initialized),
    Handler(types.SHUTDOWN, on_shutdown),
    Handler(types.WORKSPACE_DID_CHANGE_CONFIGURATION, on_configuration),
    Handler(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, on_files_changed),
    Handler(types.TEXT_DOCUMENT_DID_SAVE, on_saved, None, types.SaveOptions(include_text=False)),
    Handler(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        pull_diagnostics,
        EMPTY_REPORT,
        types.DiagnosticOptions(identifier="sourcecheck", inter_file_dependencies=False, workspace_diagnostics=True),
        when=lambda client: client.pull_diagnostics,
    ),
    Handler(
        types.WORKSPACE_DIAGNOSTIC,
        workspace_diagnostics,
        types.WorkspaceDiagnosticReport(items=[]),
        when=lambda client: client.pull_diagnostics,
    ),
    Feature(
        types.TEXT_DOCUMENT_HOVER,
        hover.hover,
        shown=document_view.hover,
        article=features_article.hover,
        cursor=lambda params: params.position,
    ),
    Feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        together(actions.code_actions, drift.drift_actions, cite.in_session),
        [],
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll, cite.KIND]
        ),
        shown=cite.in_view,
        article=features_article.code_actions,
        cursor=lambda params: params.range.start,
    ),
    Feature(
        types.TEXT_DOCUMENT_COMPLETION,
        completion.complete,
        completion.NOTHING,
        types.CompletionOptions(trigger_characters=['"', ":", "{"]),
    ),
    Feature(types.TEXT_DOCUMENT_DEFINITION, navigation.definition, article=features_article.definition),
    Handler(types.WORKSPACE_SYMBOL, lambda ls, params: ls.project.symbols(params.query, ls.client), []),
    Feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, navigation.highlight, [], cursor=lambda params: params.position),
    Feature(types.TEXT_DOCUMENT_REFERENCES, navigation.references, []),
    Feature(types.TEXT_DOCUMENT_PREPARE_RENAME, rename.prepare_rename),
    Feature(types.TEXT_DOCUMENT_RENAME, rename.rename, None, types.RenameOptions(prepare_provider=True)),
    Feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, symbols.document_symbols, []),
    Feature(
        types.TEXT_DOCUMENT_CODE_LENS,
        lens.code_lenses,
        [],
        types.CodeLensOptions(resolve_provider=True),
        needs=lambda settings: settings.code_lens,
    ),
    Feature(types.CODE_LENS_RESOLVE, lens.resolve, uri=lens_uri, echo=True),
    Feature(
        types.TEXT_DOCUMENT_INLAY_HINT,
        hints.inlay_hints,
        [],
        types.InlayHintOptions(resolve_provider=False),
        needs=lambda settings: settings.inlay_hints,
        article=features_article.inlay_hints,
    ),
    Feature(status.SUMMARY, status.summary, None, uri=status.uri_of),
    Feature(review.REVIEW, review.review, None, uri=status.uri_of, off_loop=True),
    Feature(
        types.WORKSPACE_TEXT_DOCUMENT_CONTENT,
        None,
        types.TextDocumentContentResult(text=NOT_OPEN),
        uri=lambda params: getattr(params, "uri", None),
        shown=document_view.content,
    ),
    Feature(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        None,
        types.SemanticTokens(data=[]),
        types.SemanticTokensRegistrationOptions(
            legend=document_view.LEGEND,
            full=True,
            document_selector=[types.TextDocumentFilterScheme(scheme=VIEW_SCHEME)],
        ),
        shown=document_view.semantic_tokens,
    ),
    Feature(document_view.DOCUMENTS, document_view.documents, [], uri=status.uri_of),
]


def guard(ls: SourceCheckServer, entry: Feature[Any, Any] | Handler[Any, Any]) -> Callable[[Any], Awaitable[Any]]:
    """The handler pygls calls for an entry: the one wrapper every entry goes through."""
    method = entry.method

    async def handler(params: Any) -> Any:
        COLLECTOR.touch()
        try:
            if isinstance(entry, Handler):
                result = entry.function(ls, params)
                return await result if inspect.isawaitable(result) else result
            uri = entry.uri(params)
            shown = parse_view_uri(uri) if uri is not None else None
            if shown is not None:
                if entry.shown is None:
                    return entry.fallback
                found = await ls.shown(uri or "", *shown)
                return entry.shown(found, params) if found is not None else entry.fallback
            opened = ls.documents.get(uri) if uri is not None else None
            if entry.article is not None and opened is not None:
                article = ls.article_of(opened)
                if article is not None:
                    return entry.article(article, params)
            view = await ls.view(uri) if uri is not None else None
            if view is None or entry.function is None or (entry.needs is not None and not entry.needs(view.settings)):
                return params if entry.echo else entry.fallback
            if entry.cursor is not None:
                view.saw_cursor(entry.cursor(params))
            if entry.off_loop:  # other requests are served meanwhile; a cancelled one is not waited for
                return await asyncio.get_running_loop().run_in_executor(ls.slow_requests, entry.function, view, params)
            return entry.function(view, params)
        except RequestRefused as refusal:
            log.info("%s refused: %s", method, refusal)
            raise
        except Exception as error:
            log.error("%s failed: %s: %s", method, type(error).__name__, error)
            log.debug("traceback", exc_info=True)
            return params if isinstance(entry, Feature) and entry.echo else entry.fallback

    handler.__name__ = handler.__qualname__ = f"sourcecheck {method}"
    return handler


def build_server() -> SourceCheckServer:
    """A server with every entry of :data:`FEATURES` registered (those that depend on the
    client's capabilities once it has said what they are, at ``initialize``)."""
    server = SourceCheckServer()
    for entry in FEATURES:
        if entry.when is None:
            server.feature(entry.method, entry.options)(guard(server, entry))
    return server

"""The workspace in the server: its sessions indexed (``sessions.py``), the problems of those
not open published, claims found across sessions, and a cited file's view of them
(``features/article.py``), kept by :class:`Workspace` for the server.

The scan runs once the editor is initialized, in a worker thread (reading and analysing each
session file), with progress where the client shows it; a session file changed on disk (an
event, a save, a look at the stamps every few seconds) is read again, and what depends on it
is refreshed: its published diagnostics, the open cited files' hints and diagnostics.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pathlib
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lsprotocol import types

from .. import disk
from ..core.analysis import Analysis
from ..core.citations import CitedSpan, cited_in
from ..core.display import both_ends, visible
from ..core.resync import Alignments
from .app import Client, lsp_range
from .features.article import Article, CitingSession
from .files import fs_path
from .sessions import Indexed, SessionIndex, folders_of, read_session
from .sync import DocumentStore, OpenDocument

log = logging.getLogger("sourcecheck")

LOOK_SECONDS = 3.0
"""Seconds between looks at the stamps of the workspace's session files."""
MAX_SYMBOLS = 200


class Workspace:
    """The workspace's sessions, for the server (which owns the editor's documents)."""

    def __init__(
        self,
        documents: DocumentStore,
        spawn: Callable[[Any], None],
        publish: Callable[[str, Analysis], None],
        unpublish: Callable[[str], None],
        refresh: Callable[[], Awaitable[None]],
    ) -> None:
        self.documents = documents
        self.spawn = spawn
        self.publish = publish  # a closed session's diagnostics (uri, its file's analysis)
        self.unpublish = unpublish
        self.refresh = refresh  # the open cited files' hints and diagnostics
        self.index = SessionIndex()
        self.reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sourcecheck-workspace")
        self.published: set[str] = set()  # session URIs whose file's diagnostics are published
        # The client pulls the workspace's diagnostics (workspace/diagnostic, VS Code): nothing
        # is pushed from its first pull on. What it was told of each session is a result id:
        # the file's stamp and how many times it was closed in the editor (its document pull
        # forgotten then, the client needs the file's again).
        self.pulled = False
        self.closings: dict[str, int] = {}
        self.gone: set[str] = set()  # session URIs dropped since the last pull (told empty once)
        self._articles: dict[str, tuple[Any, Article]] = {}
        self._alignments: dict[tuple[str, str], Alignments] = {}
        self.progress: Callable[[str, str, int | None], Awaitable[None]] | None = None

    # -- the scan

    def initialize(self, params: types.InitializeParams) -> None:
        self.index.folders = folders_of(params)

    async def scan(self) -> None:
        """Index every session under the workspace folders (in the worker thread) and publish
        the diagnostics of those that are not open."""
        loop = asyncio.get_running_loop()
        paths = await loop.run_in_executor(self.reader, self.index.discover)
        if not paths:
            return
        say = self.progress
        if say is not None and len(paths) > 20:
            await say("begin", f"indexing {len(paths)} sessions", 0)
        for count, path in enumerate(paths, 1):
            indexed = await loop.run_in_executor(self.reader, read_session, path, self.index.limit_mb)
            self.index.put(indexed)
            self._published(indexed.uri, indexed.analysis)
            if say is not None and len(paths) > 20 and count % 20 == 0:
                await say("report", f"{count} of {len(paths)} sessions", round(100 * count / len(paths)))
        if say is not None and len(paths) > 20:
            await say("end", f"{len(paths)} sessions indexed", None)
        await self.refresh()

    def _published(self, uri: str, analysis: Analysis | None) -> None:
        if self.documents.get(uri) is not None or self.pulled:  # open: the editor's text is what counts
            return
        if analysis is not None and analysis.is_session:
            self.publish(uri, analysis)
            self.published.add(uri)
        elif uri in self.published:
            self.unpublish(uri)
            self.published.discard(uri)

    async def look(self) -> None:
        """Read again the session files whose stamps changed, about every LOOK_SECONDS."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(LOOK_SECONDS)
            changed = await loop.run_in_executor(self.reader, self.index.changed_stamps)
            for path in changed:
                await self.reread(path)

    async def reread(self, path: str) -> None:
        loop = asyncio.get_running_loop()
        indexed = await loop.run_in_executor(self.reader, read_session, path, self.index.limit_mb)
        if indexed.stamp is None:
            self.index.drop(path)
            if self.pulled:
                self.gone.add(indexed.uri)
            if indexed.uri in self.published:
                self.unpublish(indexed.uri)
                self.published.discard(indexed.uri)
        else:
            self.index.put(indexed)
            self._published(indexed.uri, indexed.analysis)
        await self.refresh()

    def file_changed(self, uri: str) -> None:
        """A file event: a session file of the workspace is read again."""
        path = fs_path(uri)
        if path is None or not path.endswith((".sourcecheck.json",)):
            return
        path = os.path.abspath(path)
        if path in self.index.sessions or any(path.startswith(f + os.sep) for f in self.index.folders):
            self.spawn(self.reread(path))

    # -- the editor's sessions

    def opened(self, document: OpenDocument, analysis: Analysis) -> None:
        """A session open in the editor, at its newest analysis."""
        path = fs_path(document.uri)
        if path is None:
            return
        self.index.opened(os.path.abspath(path), analysis)
        self.taken(document.uri)

    def taken(self, uri: str) -> None:
        """A file open in the editor: its problems are the editor's text's to show now, the
        file's published ones are taken back (a client that pulls would show both)."""
        if uri in self.published:
            self.unpublish(uri)
            self.published.discard(uri)

    def closed(self, uri: str) -> None:
        path = fs_path(uri)
        if path is None:
            return
        path = os.path.abspath(path)
        self.index.closed(path)
        self.closings[uri] = self.closings.get(uri, 0) + 1
        indexed = self.index.sessions.get(path)
        if indexed is not None:
            self.spawn(self.reread(path))

    # -- the workspace's diagnostics, pulled

    def pulled_from_now(self) -> None:
        """The client pulls the workspace's diagnostics: what was pushed is taken back (it
        would show twice), and nothing is pushed again."""
        if self.pulled:
            return
        self.pulled = True
        for uri in sorted(self.published):
            self.unpublish(uri)
        self.published.clear()

    def closed_sessions(self) -> list[tuple[Indexed, str]]:
        """Every indexed session not open in the editor, with its result id."""
        found = []
        for indexed in list(self.index.sessions.values()):
            if self.documents.get(indexed.uri) is None:
                found.append((indexed, f"{indexed.stamp}/{self.closings.get(indexed.uri, 0)}"))
        return found

    def take_gone(self) -> list[str]:
        """The sessions dropped since the last pull (deleted files), each told once."""
        gone, self.gone = sorted(self.gone), set()
        return gone

    # -- a cited file

    def article(self, document: OpenDocument, client: Client) -> Article | None:
        """The file open as ``document`` seen from the sessions citing it (None: none does),
        made once per version of it and of each citing session."""
        path = fs_path(document.uri)
        if path is None or document.is_view:
            return None
        citing = self.index.citing_file(path)
        if not citing:
            return None
        text = disk.normalized(document.text)[0]
        key = (document.version, client, tuple((p, id(self.index.analysis(p))) for p, _ in citing))
        known = self._articles.get(document.uri)
        if known is not None and known[0] == key:
            return known[1]
        cited: list[CitedSpan] = []
        sessions: dict[str, CitingSession] = {}
        for session_path, document_path in citing:
            analysis = self.index.analysis(session_path)
            if analysis is None:
                continue
            uri = pathlib.Path(session_path).as_uri()
            alignments = self._alignments.setdefault((session_path, document_path), {})
            found, drift = cited_in(uri, analysis, document_path, text, alignments)
            editor = self.documents.get(uri)
            sessions[uri] = CitingSession(
                uri, os.path.basename(session_path), analysis, editor.version if editor else None, document_path, drift
            )
            cited += found
        made = Article(document.uri, document.version, text, client, tuple(cited), sessions)
        self._articles[document.uri] = (key, made)
        return made

    def forget(self, uri: str) -> None:
        self._articles.pop(uri, None)

    # -- across sessions

    def symbols(self, query: str, client: Client) -> list[types.WorkspaceSymbol]:
        """Claims of every session whose text holds ``query`` (case aside)."""
        wanted = query.casefold()
        found: list[types.WorkspaceSymbol] = []
        for path, analysis in self.index.all():
            uri = pathlib.Path(path).as_uri()
            for annotation in analysis.session.annotations:
                claim = annotation.claim
                if claim is None or not claim.valid or claim.text is None or wanted not in claim.text.casefold():
                    continue
                node = analysis.node(analysis.session.ref_path(claim))
                if node is None:
                    continue
                found.append(
                    types.WorkspaceSymbol(
                        name=visible(both_ends(claim.text, 80)),
                        kind=types.SymbolKind.String,
                        location=types.Location(
                            uri=uri, range=lsp_range(analysis.span(node.start, node.end, client.encoding))
                        ),
                        container_name=visible(os.path.basename(path)),
                    )
                )
                if len(found) >= MAX_SYMBOLS:
                    return found
        return found

    def claims_citing(self, session_uri: str, doc_path: str, span: tuple[int, int], client: Client) -> list[Any]:
        """The claims of every other session whose sources cite text of the same file overlapping
        ``span`` (offsets in the session's document, when that equals the other's)."""
        here = fs_path(session_uri)
        if here is None:
            return []
        real = os.path.realpath(os.path.join(os.path.dirname(here), doc_path))
        found = []
        for other_path, other_doc in sorted(self.index.citing.get(real, {}).items()):
            if os.path.abspath(other_path) == os.path.abspath(here):
                continue
            analysis = self.index.analysis(other_path)
            if analysis is None:
                continue
            uri = pathlib.Path(other_path).as_uri()
            for ref in analysis.session.refs:
                if not (ref.is_source and ref.doc_path == other_doc and ref.valid and ref.span is not None):
                    continue
                if ref.span[0] < span[1] and span[0] < ref.span[1]:
                    claim = ref.annotation.claim
                    node = analysis.node(analysis.session.ref_path(claim)) if claim is not None else None
                    if node is not None:
                        found.append(
                            types.Location(
                                uri=uri, range=lsp_range(analysis.span(node.start, node.end, client.encoding))
                            )
                        )
        return found

    def stop(self) -> None:
        self.reader.shutdown(wait=False, cancel_futures=True)


__all__ = ["Workspace"]

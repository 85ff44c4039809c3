"""The server's files on disk: the files of the open sessions' documents, read, watched and
polled off the event loop, and the drift state of each open session beside them.

- :class:`SessionFiles` is one open session's files as last read (what ``disk.document_file``
  gave for each document's path: only files inside the session's folder, symlinks resolved),
  their stamps (modification time, size, inode), the paths waiting to be read again, and the
  drift of each version of the session beside them (``core/resync.plan``, made once per
  version and read of the files, the alignments of changed contents kept).
- :class:`Disk` is the server's one reader of files: a thread of its own, so that the event
  loop never waits for a disk; an index from a file's path (as the session names it, and
  its real path, links resolved) to the open sessions whose documents it is, so that an
  event naming 200 files costs 200 lookups, whatever the number of documents; a stat of
  every open session's files about once a second (a file changed by another program is seen
  without the editor's help: Neovim, ``git pull``, ``sed -i``).

Events are coalesced: a file event marks the paths it names to be read again, and each
session has one read under way at most, which reads what was marked meanwhile when it is
done. What is held is one content per document's file (and the one being read), never one
per event. What the drift says is ``core/driftsaid.py``'s; the server pushes or asks to pull
the session's diagnostics again when it changes (:attr:`Disk.changed`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import pathlib
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from .. import disk
from ..core.analysis import Analysis
from ..core.filestate import FileContent, FileState
from ..core.resync import Alignments, Drift, plan
from .sync import DocumentStore, OpenDocument

log = logging.getLogger("sourcecheck")

POLL_SECONDS = 1.0
"""Seconds between looks at the stamps of the open sessions' files."""
FILES_TIMEOUT = 2.0
"""Seconds a request for a session's diagnostics waits for the read of its files under way."""

Stamp = tuple[int, int, int]


def fs_path(uri: str) -> str | None:
    """The file system path of a ``file:`` URI (None for another scheme)."""
    parts = urlsplit(uri)
    if parts.scheme != "file":
        return None
    return url2pathname(unquote(parts.path)) if parts.path else None


def session_folder(uri: str) -> str | None:
    """The folder a session on disk is in (its documents' paths start there); None for a
    buffer that is no file (untitled, a document view)."""
    path = fs_path(uri)
    return os.path.dirname(path) if path is not None else None


def stamp(folder: str, path: str) -> Stamp | None:
    """What tells that a document's file changed without reading it: its modification time,
    size and inode (None: it is not there, or its name leaves the folder)."""
    if disk.outside_reason(path) is not None:
        return None
    try:
        found = os.stat(os.path.join(folder, path))
    except (OSError, ValueError):
        return None
    return found.st_mtime_ns, found.st_size, found.st_ino


@dataclass
class SessionFiles:
    """One open session's document files, as last read, and its drift beside them."""

    folder: str
    files: Mapping[str, FileState] = field(default_factory=dict)  # replaced whole when one changes
    version: int = 0  # counts the reads that changed something
    stamps: dict[str, Stamp | None] = field(default_factory=dict)
    dirty: set[str] = field(default_factory=set)  # paths to read (again)
    reading: asyncio.Event | None = None  # set when the read under way is done
    indexed: frozenset[str] = frozenset()  # the document paths in the Disk's index
    real: dict[str, str] = field(default_factory=dict)  # each path's real file, as last read
    documents: frozenset[str] = frozenset()  # the session's document paths when last looked at
    uncited: frozenset[str] = frozenset()  # those no ref cited then (never read)
    _drift: tuple[int, int, Drift] | None = field(default=None, repr=False)
    _alignments: Alignments = field(default_factory=dict, repr=False)

    def drift(self, analysis: Analysis) -> Drift | None:
        """The session's documents beside their files, as made for this version of the
        session and read of its files (None: not made yet, or no file read): never made
        here, on the event loop (aligning a large changed file takes a while; see
        :meth:`Disk.drift_ready`)."""
        known = self._drift
        if known is not None and known[0] == analysis.serial and known[1] == self.version:
            return known[2]
        return None

    def drift_of(self, analysis: Analysis, files: Mapping[str, FileState], version: int) -> Drift:
        """The drift of ``analysis`` beside ``files`` (read ``version``), made once (also in
        the reader thread, so that the event loop finds it made)."""
        known = self._drift
        if known is not None and known[0] == analysis.serial and known[1] == version:
            return known[2]
        if not any(isinstance(state, FileContent) for state in files.values()):
            drift = Drift(analysis, ())  # no file of it read: a session not written from files hears nothing
        else:
            drift = plan(analysis, files, self._alignments, list_unread=False)
        self._drift = (analysis.serial, version, drift)
        return drift


Entry = tuple[str, str]
"""An open session's URI and one of its documents' paths."""


class Disk:
    """The server's reader of document files, its index of them, and its poll."""

    def __init__(
        self,
        documents: DocumentStore,
        limit_mb: Callable[[], int],
        spawn: Callable[[Coroutine[Any, Any, Any]], None],
        changed: Callable[[OpenDocument], Awaitable[None]],
        watch: Callable[[str], None] = lambda folder: None,
    ) -> None:
        self.documents = documents
        self.limit_mb = limit_mb
        self.spawn = spawn
        self.changed = changed  # show a session's new drift (push, or ask to pull)
        self.watch = watch  # ask the editor to tell of files changing in a folder
        self.reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sourcecheck-files")
        self.index: dict[str, set[Entry]] = {}  # a file's path (as named, and real) -> its entries

    # -- which files

    def wanted(self, document: OpenDocument) -> None:
        """Read the files of a session's documents that were not read yet (on opening it, or
        once a document is added), in the background; keep the index of its paths current."""
        folder = session_folder(document.uri)
        if folder is None:
            return
        files = document.disk
        if files is None:
            files = document.disk = SessionFiles(folder)
        session = document.analysis.session
        documents = frozenset(session.by_path)
        if documents == files.documents and files.indexed | files.uncited == documents:
            return  # the same documents, each known cited or not (a keystroke in an annotation, say)
        cited = {ref.doc_path for ref in session.refs if ref.doc_path is not None}
        paths = frozenset(path for path in documents if path in cited)  # a document cited by nothing: never read
        files.documents, files.uncited = documents, documents - paths
        if paths != files.indexed:
            self._reindex(document.uri, files, paths)
        missing = [path for path in paths if path not in files.files and path not in files.dirty]
        if missing:
            files.dirty.update(missing)
            self.read_soon(document)

    def _reindex(self, uri: str, files: SessionFiles, paths: frozenset[str]) -> None:
        for path in files.indexed - paths:
            self._unindex(uri, files, path)
        for path in paths - files.indexed:
            if disk.outside_reason(path) is None:
                self.index.setdefault(os.path.normpath(os.path.join(files.folder, path)), set()).add((uri, path))
        files.indexed = paths
        if any(path not in paths for path in files.files):
            files.files = {path: state for path, state in files.files.items() if path in paths}

    def _unindex(self, uri: str, files: SessionFiles, path: str) -> None:
        for key in {os.path.normpath(os.path.join(files.folder, path)), files.real.pop(path, None)}:
            if key is not None and key in self.index:
                self.index[key].discard((uri, path))
                if not self.index[key]:
                    del self.index[key]

    def closed(self, document: OpenDocument) -> None:
        """A session closed: its paths leave the index."""
        files = document.disk
        if files is not None:
            self._reindex(document.uri, files, frozenset())

    def file_changed(self, uri: str) -> None:
        """A file changed on disk (an event, or a save): mark it to be read again for each
        open session one of whose documents it is (one lookup, whatever their number)."""
        path = fs_path(uri)
        if path is None:
            return
        for session_uri, document_path in list(self.index.get(os.path.normpath(path), ())):
            document = self.documents.get(session_uri)
            if document is not None and document.disk is not None:
                document.disk.dirty.add(document_path)
                self.read_soon(document)

    # -- reading

    def read_soon(self, document: OpenDocument) -> None:
        """Read the session's marked files in the background, unless a read is under way
        (that read takes them when it is done): one read per session at a time."""
        files = document.disk
        if files is None or files.reading is not None or not files.dirty:
            return
        files.reading = asyncio.Event()
        self.spawn(guarded("reading document files", self._read(document, files)))

    async def ready(self, document: OpenDocument) -> None:
        """Wait (a little, at most) for a read of the session's files under way."""
        files = document.disk
        if files is not None and files.reading is not None:
            try:
                await asyncio.wait_for(files.reading.wait(), FILES_TIMEOUT)
            except TimeoutError:
                log.info("reading the files of %s takes long; answering without them", document.uri)

    async def drift_ready(self, document: OpenDocument) -> None:
        """Make the drift of the session's analysed version beside its files, in the reader
        thread, if it is not made yet (before its diagnostics are pushed or pulled)."""
        files, analysis = document.disk, document.analysed
        if files is None or not files.files or analysis is None or files.drift(analysis) is not None:
            return
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self.reader, files.drift_of, analysis, files.files, files.version)

    async def _read(self, document: OpenDocument, files: SessionFiles) -> None:
        done = files.reading
        loop = asyncio.get_running_loop()
        try:
            self.watch(files.folder)
            while files.dirty and self.documents.get(document.uri) is document:
                paths = sorted(files.dirty)
                files.dirty.clear()
                buffers = {path: self.open_buffer(files.folder, path) for path in paths}
                limit = self.limit_mb()
                states, reals = await loop.run_in_executor(
                    self.reader, _read_files, files.folder, paths, buffers, limit, fs_path(document.uri)
                )
                if self.documents.get(document.uri) is not document:
                    return
                for path, (when, real) in reals.items():
                    files.stamps[path] = when
                    self._index_real(document.uri, files, path, real)
                merged = {**files.files, **states}
                if merged == files.files:
                    continue
                version = files.version + 1
                analysis = document.analysed  # the version analysed now, if any: its drift made off the loop
                if analysis is not None:
                    await loop.run_in_executor(self.reader, files.drift_of, analysis, merged, version)
                files.files, files.version = merged, version
                if any(isinstance(state, FileContent) for state in merged.values()):
                    await self.changed(document)
        finally:
            files.reading = None
            if done is not None:
                done.set()

    def _index_real(self, uri: str, files: SessionFiles, path: str, real: str | None) -> None:
        old = files.real.get(path)
        if old == real:
            return
        if old is not None and old != os.path.normpath(os.path.join(files.folder, path)) and old in self.index:
            self.index[old].discard((uri, path))
            if not self.index[old]:
                del self.index[old]
        if real is None:
            files.real.pop(path, None)
            return
        files.real[path] = real
        self.index.setdefault(real, set()).add((uri, path))

    def open_buffer(self, folder: str, path: str) -> FileState | None:
        """A document's file as the editor has it open (its text, maybe unsaved), if it does."""
        if disk.outside_reason(path) is not None:
            return None
        buffer = self.documents.get(pathlib.Path(os.path.normpath(os.path.join(folder, path))).as_uri())
        if buffer is None or buffer.is_session:
            return None
        content, note = disk.normalized(buffer.text)
        return FileContent(content, note)

    # -- the poll

    async def poll(self) -> None:
        """Look at the stamps of every open session's files about once a second (in the
        reader thread) and read again those that changed: a file changed by another program
        shows without the editor's help."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            for uri in self.documents.uris():
                document = self.documents.get(uri)
                files = document.disk if document is not None else None
                if document is None or files is None or not files.stamps or files.reading is not None:
                    continue
                known = dict(files.stamps)
                changed = await loop.run_in_executor(self.reader, _changed_stamps, files.folder, known)
                if changed and self.documents.get(uri) is document:
                    files.dirty.update(changed)
                    self.read_soon(document)

    def stop(self) -> None:
        self.reader.shutdown(wait=False, cancel_futures=True)


def _read_files(
    folder: str, paths: list[str], buffers: Mapping[str, FileState | None], limit_mb: int, session: str | None = None
) -> tuple[dict[str, FileState], dict[str, tuple[Stamp | None, str | None]]]:
    """In the reader thread: each file's state (its open buffer's, if the editor has one),
    and its stamp and real path (taken before it is read: a change while it is read shows at
    the next poll)."""
    states: dict[str, FileState] = {}
    reals: dict[str, tuple[Stamp | None, str | None]] = {}
    for path in paths:
        real = None
        if disk.outside_reason(path) is None:
            real = os.path.realpath(os.path.join(folder, path))
        reals[path] = (stamp(folder, path), real)
        states[path] = buffers.get(path) or disk.document_file(folder, path, limit_mb, session=session)
    return states, reals


def _changed_stamps(folder: str, known: Mapping[str, Stamp | None]) -> list[str]:
    """In the reader thread: the paths whose stamp is not the one known."""
    return [path for path, was in known.items() if stamp(folder, path) != was]


async def guarded(what: str, work: Awaitable[Any]) -> Any:
    """Await background work so that a failure is logged, never fatal."""
    try:
        return await work
    except Exception as error:
        log.error("%s failed: %s: %s", what, type(error).__name__, error)
        log.debug("traceback", exc_info=True)
        return None


__all__ = ["Disk", "FILES_TIMEOUT", "POLL_SECONDS", "SessionFiles", "fs_path", "guarded", "session_folder", "stamp"]

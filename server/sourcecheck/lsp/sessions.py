"""The workspace's sessions: every session under the editor's workspace folders, open or not,
analysed off the event loop, and which files each cites.

What the CLI's ``sourcecheck .`` checks (``workspace.py``: ``*.sourcecheck.json`` under the
folders, ``.gitignore`` and the configuration honoured) is indexed here: for each session its
analysis (the editor's, while it is open; else the file's, read bounded), and for each file a
session cites (by its real path, as ``sync`` reads it) the sessions citing it. The server
publishes the diagnostics of sessions that are not open (the problems panel lists the whole
workspace), answers workspace symbols and references across sessions, and shows a cited
file's claims and sources in it (``features/article.py``).

A session file that changes on disk (an event, a save, or the look at the files' stamps every
few seconds) is read and analysed again; the scan of a large folder reports its progress.
"""

from __future__ import annotations

import logging
import os
import pathlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .. import disk, workspace
from ..core.analysis import Analysis

log = logging.getLogger("sourcecheck")

MAX_SESSIONS = 5000
"""Sessions indexed at most (the rest are named in the log)."""

Stamp = tuple[int, int, int]


@dataclass
class Indexed:
    """A session file of the workspace, as last read from disk."""

    path: str  # absolute
    uri: str
    stamp: Stamp | None
    analysis: Analysis | None  # None: it could not be read (why: ``refused``)
    refused: str | None = None


def _stamp(path: str) -> Stamp | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size, found.st_ino


def read_session(path: str, limit_mb: int) -> Indexed:
    """A session file read (bounded) and analysed, or why it is not (in a worker thread)."""
    uri = pathlib.Path(path).as_uri()
    stamp = _stamp(path)
    try:
        data = disk.read_bytes(path, limit_mb)
        text = disk.decode(data, "a session is UTF-8 JSON")
    except disk.ReadRefused as refusal:
        return Indexed(path, uri, stamp, None, refusal.reason)
    return Indexed(path, uri, stamp, Analysis(text))


def cited_files(session_path: str, analysis: Analysis) -> dict[str, str]:
    """The files a session's documents are, by their real path: ``{real path: document path}``
    (only paths that name a file inside the session's folder, as ``sync`` reads them)."""
    folder = os.path.dirname(session_path)
    found: dict[str, str] = {}
    for path in analysis.session.by_path:
        if disk.outside_reason(path) is None and disk.hidden_reason(path) is None:
            found[os.path.realpath(os.path.join(folder, path))] = path
    return found


class SessionIndex:
    """The sessions under the workspace folders and the files they cite (kept by the
    server, its reads made in a worker thread)."""

    def __init__(self) -> None:
        self.folders: list[str] = []
        self.sessions: dict[str, Indexed] = {}  # by absolute path
        self.open: dict[str, Analysis] = {}  # the sessions open in the editor, by absolute path
        self.citing: dict[str, dict[str, str]] = {}  # a cited file's real path -> {session path: document path}
        self._cites: dict[str, dict[str, str]] = {}  # a session's path -> its cited files (as in citing)
        self._documents: dict[str, frozenset[str]] = {}  # a session's path -> its document paths then
        self.limit_mb = disk.MAX_SIZE_MB

    def discover(self) -> list[str]:
        """The session files under the folders (in a worker thread): the CLI's walk."""
        if not self.folders:
            return []
        try:
            found = [os.path.abspath(f.path) for f in workspace.sessions(self.folders, workspace.Configs())]
        except workspace.ConfigError as error:
            log.warning("the workspace's configuration is not used: %s", error)
            found = [
                os.path.abspath(f.path) for f in workspace.sessions(self.folders, workspace.Configs(isolated=True))
            ]
        if len(found) > MAX_SESSIONS:
            log.warning("%d sessions in the workspace; the first %d are indexed", len(found), MAX_SESSIONS)
        return found[:MAX_SESSIONS]

    def put(self, indexed: Indexed) -> None:
        self.sessions[indexed.path] = indexed
        if indexed.path not in self.open:
            self._recite(indexed.path, indexed.analysis)

    def drop(self, path: str) -> None:
        self.sessions.pop(path, None)
        if path not in self.open:
            self._recite(path, None)

    def opened(self, path: str, analysis: Analysis) -> None:
        """A session open in the editor, at its newest analysis (its documents may be edited)."""
        if self.open.get(path) is analysis:
            return
        self.open[path] = analysis
        self._recite(path, analysis)

    def closed(self, path: str) -> None:
        self.open.pop(path, None)
        indexed = self.sessions.get(path)
        self._recite(path, indexed.analysis if indexed is not None else None)

    def _recite(self, path: str, analysis: Analysis | None) -> None:
        documents = frozenset(analysis.session.by_path) if analysis is not None and analysis.is_session else None
        if documents is not None and self._documents.get(path) == documents:
            return  # the same documents: the same files (a keystroke in an annotation)
        self._documents.pop(path, None)
        if documents is not None:
            self._documents[path] = documents
        for real in self._cites.pop(path, {}):
            holders = self.citing.get(real)
            if holders is not None:
                holders.pop(path, None)
                if not holders:
                    del self.citing[real]
        if analysis is None or not analysis.is_session:
            return
        cites = cited_files(path, analysis)
        self._cites[path] = cites
        for real, document in cites.items():
            self.citing.setdefault(real, {})[path] = document

    def analysis(self, path: str) -> Analysis | None:
        """A session's analysis: the editor's while it is open, else its file's."""
        if path in self.open:
            return self.open[path]
        indexed = self.sessions.get(path)
        return indexed.analysis if indexed is not None else None

    def citing_file(self, file_path: str) -> list[tuple[str, str]]:
        """The sessions citing a file: ``(session path, document path)``, in a stable order."""
        real = os.path.realpath(file_path)
        return sorted(self.citing.get(real, {}).items())

    def changed_stamps(self) -> list[str]:
        """The indexed session files whose stamps changed (in a worker thread)."""
        return [path for path, indexed in list(self.sessions.items()) if _stamp(path) != indexed.stamp]

    def all(self) -> Iterable[tuple[str, Analysis]]:
        """Every session's newest analysis, by path."""
        paths = sorted(set(self.sessions) | set(self.open))
        for path in paths:
            analysis = self.analysis(path)
            if analysis is not None and analysis.is_session:
                yield path, analysis


def folders_of(params: Any) -> list[str]:
    """The workspace's folders, from ``initialize``'s parameters."""
    from urllib.parse import unquote, urlsplit
    from urllib.request import url2pathname

    uris = [folder.uri for folder in getattr(params, "workspace_folders", None) or []]
    if not uris and getattr(params, "root_uri", None):
        uris = [params.root_uri]
    found = []
    for uri in uris:
        parts = urlsplit(uri)
        if parts.scheme == "file" and parts.path:
            found.append(os.path.abspath(url2pathname(unquote(parts.path))))
    return found


__all__ = ["Indexed", "MAX_SESSIONS", "SessionIndex", "cited_files", "folders_of", "read_session"]

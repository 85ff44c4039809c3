"""Open documents: their text kept in step with the editor, and one analysis per version.

An edit replaces the document's text and forgets its analysis; the next analysis is made
incrementally from the previous one when the edit allows (on the spot: it is quick), else
in full, in the worker thread for a big file (called off by the next edit).

The server keeps its own text rather than pygls's workspace copy, because that copy finds
lines with ``str.splitlines`` (which also breaks at U+2028 and friends) and would apply an
editor's edits at the wrong place in a session holding such characters.
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from lsprotocol import types

from ..core.analysis import Analysis, looks_like_session
from ..core.incremental import merged
from ..core.positions import Encoding, LineTable, Position
from ..core.text import Text
from .app import VIEW_SCHEME, DocumentMemo
from .runtime import COLLECTOR

if TYPE_CHECKING:
    from .files import SessionFiles

SESSION_SUFFIX = ".sourcecheck.json"
_SURROGATE = re.compile("[\ud800-\udfff]")


def pair_surrogates(text: str) -> str:
    """``text`` with each high surrogate that is followed by a low one joined into one
    character, as in the client's UTF-16 text; lone halves stay."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


@dataclass
class Work:
    """A full analysis of ``source`` being made in the worker thread."""

    source: Text
    future: Future[Analysis]
    stop: threading.Event


@dataclass
class OpenDocument:
    uri: str
    version: int
    source: Text  # the text, kept as pieces between edits (see text.py)
    _lines: LineTable | None = field(default=None, repr=False)
    _analysis: Analysis | None = field(default=None, repr=False)
    # The analysis before the last edit and that edit, to analyse the new text incrementally.
    _pending: tuple[Analysis, tuple[int, int, str]] | None = field(default=None, repr=False)
    _work: Work | None = field(default=None, repr=False)
    # What features keep from one version to the next (the diagnostics last built).
    memo: DocumentMemo = field(default_factory=DocumentMemo, repr=False)
    # Its documents' files as last read and its drift beside them (a session on disk; files.py).
    disk: SessionFiles | None = field(default=None, repr=False)

    @property
    def analysed(self) -> Analysis | None:
        """This version's analysis if it is made already (None: it is not, and is not made here)."""
        return self._analysis

    @property
    def text(self) -> str:
        return str(self.source)

    @property
    def lines(self) -> LineTable:
        if self._lines is None:
            self._lines = LineTable(self.text)
        return self._lines

    @property
    def analysis(self) -> Analysis:
        """The analysis of this version, computed on first use and shared by every feature.

        Handlers reach it through ``SourceCheckServer.ready_session``, which waits for a
        long one without holding up the server; here it is made on the spot if need be."""
        if self._analysis is None and self._quick() is None:
            work = self._work
            if work is not None and work.source is self.source and not work.future.cancelled():
                self.adopt(work.source, work.future.result())
            else:
                self.adopt(self.source, build(self.source, self.lines, None))
        assert self._analysis is not None
        return self._analysis

    def _quick(self) -> Analysis | None:
        """The analysis made incrementally from the previous version's, when the edit allows."""
        if self._analysis is None and self._pending is not None:
            previous, edit = self._pending
            self._pending = None
            with COLLECTOR.building():  # see runtime.py
                self._analysis = Analysis.incremental(self.source, previous, edit, lines=self.lines)
        return self._analysis

    def start(self, executor: Executor) -> Analysis | Future[Analysis]:
        """This version's analysis if it is at hand or quick to make; else the future of a
        full one, made in ``executor`` (started once per version)."""
        analysis = self._analysis or self._quick()
        if analysis is not None:
            return analysis
        if self._work is None or self._work.source is not self.source:
            stop = threading.Event()
            self._work = Work(self.source, executor.submit(build, self.source, self._lines, stop), stop)
        return self._work.future

    def adopt(self, source: Text, analysis: Analysis) -> None:
        """Take an analysis made for ``source``, if that is still this document's text."""
        if source is self.source and self._analysis is None:
            self._analysis = analysis
            if self._lines is None:
                self._lines = analysis.lines

    def too_large(self, limit_mb: int) -> bool:
        """Past the size limit a file is not checked at all (one diagnostic says so)."""
        return len(self.source) > limit_mb * 1_000_000

    @property
    def named_session(self) -> bool:
        """Named ``*.sourcecheck.json`` (by its path: a document view's URI carries the
        session's URI in its query, and is never a session itself)."""
        return not self.is_view and urlsplit(self.uri).path.endswith(SESSION_SUFFIX)

    @property
    def is_view(self) -> bool:
        return self.uri.startswith(VIEW_SCHEME + ":")

    def looks_like_session(self) -> bool:
        """Whether the text may be a session, judged from its start without analysing it."""
        return self.named_session or (not self.is_view and looks_like_session(self.source[:100_000]))

    @property
    def is_session(self) -> bool:
        """Ours to check: a ``*.sourcecheck.json`` file or JSON with the session shape
        (found by analysing it: never ask this of a file past the size limit)."""
        if self.named_session:
            return True
        return not self.is_view and looks_like_session(self.text) and self.analysis.is_session

    def apply(self, change: types.TextDocumentContentChangeEvent, encoding: Encoding) -> None:
        if self._work is not None:  # its text is about to be outdated: stop working on it
            self._work.stop.set()
            self._work = None
        previous = self._analysis
        if isinstance(change, types.TextDocumentContentChangePartial):
            lines = self.lines
            start = lines.offset(Position(change.range.start.line, change.range.start.character), encoding)
            end = max(start, lines.offset(Position(change.range.end.line, change.range.end.character), encoding))
            self.source = self.source.edited(start, end, change.text)
            if _SURROGATE.search(self.source[max(0, start - 1) : start + len(change.text) + 1]):
                # Halves of a surrogate pair may have met: the client's text holds one
                # character there, and so must ours. Rare enough to start afresh.
                self.source = Text(pair_surrogates(self.text))
                self._lines = None
                self._pending = None
                self._analysis = None
                return
            self._lines = lines.patched(self.source, start, end, change.text)
            self.memo.last_edit = start + len(change.text)
            # Several edits since the last analysis are replayed as one: the range they span.
            if previous is not None:
                self._pending = (previous, (start, end, change.text))
            elif self._pending is not None:
                self._pending = (self._pending[0], merged(self._pending[1], (start, end, change.text), self.source))
        else:
            self.source = Text(change.text)
            self._lines = None
            self._pending = None
        self._analysis = None


def build(source: Text, lines: LineTable | None, stop: threading.Event | None) -> Analysis:
    """A full analysis of ``source`` (in the worker thread, or on the spot)."""
    with COLLECTOR.building():  # see runtime.py
        text = str(source)
        return Analysis(text, lines=lines or LineTable(text), stop=stop)


class DocumentStore:
    """The documents the editor has open, by URI."""

    def __init__(self) -> None:
        self._documents: dict[str, OpenDocument] = {}

    def open(self, item: types.TextDocumentItem) -> OpenDocument:
        document = OpenDocument(item.uri, item.version, Text(item.text))
        self._documents[item.uri] = document
        return document

    def change(self, params: types.DidChangeTextDocumentParams, encoding: Encoding) -> OpenDocument | None:
        document = self._documents.get(params.text_document.uri)
        if document is None:
            return None
        for change in params.content_changes:
            document.apply(change, encoding)
        document.version = params.text_document.version
        return document

    def close(self, uri: str) -> None:
        document = self._documents.pop(uri, None)
        if document is not None and document._work is not None:
            document._work.stop.set()

    def get(self, uri: str) -> OpenDocument | None:
        return self._documents.get(uri)

    def uris(self) -> list[str]:
        return list(self._documents)

    def stop_all(self) -> None:
        """Call off every analysis in progress (the server is shutting down)."""
        for document in self._documents.values():
            if document._work is not None:
                document._work.stop.set()

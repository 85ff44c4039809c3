"""What every feature sees, and the one shape every feature has.

- :class:`Client`: what was negotiated with the editor at ``initialize`` (position
  encoding, markdown, pull diagnostics, versioned edits, snippets), fixed for the session.
- :class:`View`: one version of one document, immutable: its analysis, the client, the
  settings, and the position helpers that turn the core's offsets into LSP ranges (and back).
- :class:`Feature`: an entry of the server's feature table (``server.FEATURES``): the LSP
  method, its options, the function ``f(view, params) -> result`` and the answer to give
  when there is no view or the function fails.

Nothing here imports a feature; features import this module and the core only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote, unquote, urlsplit

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from ..core.analysis import Analysis
from ..core.jsonnodes import Node
from ..core.positions import Encoding, LineTable, Position, Span
from ..core.resync import Drift
from ..core.session import Document
from .settings import Settings

ENCODINGS: dict[str, Encoding] = {
    types.PositionEncodingKind.Utf8.value: Encoding.UTF8,
    types.PositionEncodingKind.Utf16.value: Encoding.UTF16,
    types.PositionEncodingKind.Utf32.value: Encoding.UTF32,
}

P = TypeVar("P")
R = TypeVar("R")


class RequestRefused(JsonRpcException):
    """A request that cannot be done as asked (a rename to a name that exists): answered
    with an error that says why (LSP's RequestFailed), logged as an expected refusal."""

    CODE = -32803


@dataclass(frozen=True, slots=True)
class Client:
    """What the editor said it can do, read once at ``initialize``."""

    encoding: Encoding = Encoding.UTF16
    markdown: bool = True  # hovers may be markdown
    pull_diagnostics: bool = False  # the client asks for diagnostics (else they are pushed)
    document_changes: bool = False  # edits may name the document version they are for
    snippets: bool = False  # completion items may be snippets
    watch_files: bool = False  # the server may ask to hear of files changing (didChangeWatchedFiles)
    relative_patterns: bool = False  # ... with patterns relative to a folder
    diagnostic_refresh: bool = False  # the server may ask a pulling client to pull again
    snippet_edits: bool = False  # a workspace edit may hold snippets (LSP 3.18), typed over in place

    @classmethod
    def negotiated(cls, capabilities: types.ClientCapabilities, position_encoding: str | None) -> Client:
        text = capabilities.text_document
        formats = text.hover.content_format if text and text.hover else None
        completion = text.completion.completion_item if text and text.completion else None
        workspace = capabilities.workspace
        edit = workspace.workspace_edit if workspace else None
        watched = workspace.did_change_watched_files if workspace else None
        refresh = workspace.diagnostics if workspace else None
        return cls(
            encoding=ENCODINGS.get(str(position_encoding), Encoding.UTF16),
            markdown=formats is None or types.MarkupKind.Markdown in formats,
            pull_diagnostics=bool(text and text.diagnostic),
            document_changes=bool(edit and edit.document_changes),
            snippets=bool(completion and completion.snippet_support),
            watch_files=bool(watched and watched.dynamic_registration),
            relative_patterns=bool(watched and watched.relative_pattern_support),
            diagnostic_refresh=bool(refresh and refresh.refresh_support),
            snippet_edits=bool(edit and edit.document_changes and edit.snippet_edit_support),
        )


def lsp_position(position: Position) -> types.Position:
    return types.Position(line=position.line, character=position.character)


def lsp_range(span: Span) -> types.Range:
    return types.Range(start=lsp_position(span.start), end=lsp_position(span.end))


@dataclass(slots=True)
class DocumentMemo:
    """What a feature keeps for a document from one version to the next (the diagnostics
    last built, so that the next version rebuilds only those an edit moved). Owned by the
    document, never by an analysis: analyses are immutable."""

    wire: Any = None
    last_edit: int | None = None  # where the writer last edited (an offset of the newest text)
    # Where the editor's cursor was last seen in an annotation, as its requests there told
    # (hover, document highlight, code action): (the version it was seen in, an offset).
    cursor: tuple[int, int] | None = None
    review: tuple[int, Any] | None = None  # the review page made last, by its analysis's serial


@dataclass(frozen=True, slots=True)
class View:
    """One version of one document, as every feature sees it."""

    uri: str
    version: int
    analysis: Analysis
    client: Client = field(default_factory=Client)
    settings: Settings = field(default_factory=Settings)
    memo: DocumentMemo = field(default_factory=DocumentMemo)
    # Its documents beside their files (for a session on disk whose files were read), or None,
    # and how many times those files were read with a change (part of a pull report's id).
    drift: Drift | None = None
    drift_version: int = 0
    # The workspace's other sessions (lsp/workspaces.py), for what crosses sessions; None in a test.
    elsewhere: Any = None

    @classmethod
    def of(
        cls,
        text: str,
        *,
        client: Client | None = None,
        settings: Settings | None = None,
        uri: str = "file:///test.sourcecheck.json",
        version: int = 1,
    ) -> View:
        """A view of ``text`` analysed on the spot: what a feature's unit test starts from."""
        return cls(uri, version, Analysis(text), client or Client(), settings or Settings())

    @property
    def text(self) -> str:
        return self.analysis.text

    def saw_cursor(self, position: types.Position | None) -> None:
        """Remember that the editor's cursor is at ``position`` of this version, when that is
        in an annotation (the one a cite from a document view then adds its source to)."""
        if position is None:
            return
        offset = self.offset(position)
        if self.analysis.annotations_between(offset, offset):
            self.memo.cursor = (self.version, offset)

    @property
    def cursor(self) -> int | None:
        """Where the cursor was last seen in an annotation in this version (an edit since
        makes it unknown: the place edited is then the best guess, ``memo.last_edit``)."""
        seen = self.memo.cursor
        return seen[1] if seen is not None and seen[0] == self.version else None

    @property
    def encoding(self) -> Encoding:
        return self.client.encoding

    def offset(self, position: types.Position) -> int:
        """The text offset of an editor position (clamped to the text, as LSP asks)."""
        return self.analysis.lines.offset(Position(position.line, position.character), self.client.encoding)

    def position(self, offset: int) -> types.Position:
        return lsp_position(self.analysis.lines.position(offset, self.client.encoding))

    def range(self, start: int, end: int) -> types.Range:
        """The editor range of the text offsets ``[start, end)``."""
        return lsp_range(self.analysis.span(start, end, self.client.encoding))

    def node_range(self, node: Node) -> types.Range:
        return self.range(node.start, node.end)

    def location(self, start: int, end: int) -> types.Location:
        return types.Location(uri=self.uri, range=self.range(start, end))

    def workspace_edit(self, edits: Sequence[tuple[int, int, str]]) -> types.WorkspaceEdit:
        """Replacements of text offsets, for this version of the document when the client
        can tell versions apart (it then drops an edit made for a text that moved on)."""
        text_edits = [types.TextEdit(range=self.range(start, end), new_text=text) for start, end, text in edits]
        if self.client.document_changes:
            identifier = types.OptionalVersionedTextDocumentIdentifier(uri=self.uri, version=self.version)
            return types.WorkspaceEdit(
                document_changes=[types.TextDocumentEdit(text_document=identifier, edits=text_edits)]
            )
        return types.WorkspaceEdit(changes={self.uri: text_edits})

    def snippet_edit(self, start: int, end: int, snippet: str) -> types.WorkspaceEdit:
        """A replacement of the offsets ``[start, end)`` by a snippet (its placeholders typed over
        where the client puts them), for a client that takes snippets in edits."""
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=self.uri, version=self.version)
        edit = types.SnippetTextEdit(range=self.range(start, end), snippet=types.StringValue(value=snippet))
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=identifier, edits=[edit])])


VIEW_SCHEME = "sourcecheck"
"""The URI scheme of a document view: ``sourcecheck:/<document path>?<session URI>``."""


def view_uri(session_uri: str, path: str) -> str:
    """The URI under which a document of the session at ``session_uri`` is shown as text."""
    return f"{VIEW_SCHEME}:/{quote(path, safe='/')}?{quote(session_uri, safe='')}"


def parse_view_uri(uri: str) -> tuple[str, str] | None:
    """The session URI and the document path a view URI names (None: not a view URI)."""
    if not uri.startswith(VIEW_SCHEME + ":"):
        return None
    parts = urlsplit(uri)
    session = unquote(parts.query)
    if session.startswith("session="):
        session = session[len("session=") :]
    path = unquote(parts.path)[1:] if parts.path.startswith("/") else unquote(parts.path)
    return (session, path) if session else None


@dataclass(frozen=True, slots=True)
class Shown:
    """A document of a session shown as text of its own (the document view): its lines are
    the lines refs count, and positions in it are positions in that text."""

    uri: str
    view: View  # the session's
    document: Document
    lines: LineTable  # of the document's content

    @property
    def client(self) -> Client:
        return self.view.client

    def offset(self, position: types.Position) -> int:
        """The content offset of a position in the view."""
        return self.lines.offset(Position(position.line, position.character), self.client.encoding)

    def range(self, start: int, end: int) -> types.Range:
        """The view's range of the content offsets ``[start, end)``."""
        return lsp_range(self.lines.span(start, end, self.client.encoding))


def text_document_uri(params: Any) -> str | None:
    """The URI of the document a request is about (``params.textDocument.uri``)."""
    document = getattr(params, "text_document", None)
    uri = getattr(document, "uri", None)
    return uri if isinstance(uri, str) else None


@dataclass(frozen=True)
class Feature(Generic[P, R]):
    """One entry of the feature table.

    ``function(view, params)`` answers a request about one session file; the server finds
    the view (waiting for the analysis of the newest version) and answers ``fallback`` when
    there is none (the file is closed, not a session, too large) or when the function fails.
    ``shown(shown, params)`` answers the same request about a document view (a URI of
    :data:`VIEW_SCHEME`), with the view of the session it shows.
    ``needs`` names the setting that turns the feature off (answered with ``fallback``),
    ``when`` the client capability without which the feature is not registered at all.
    """

    method: str
    function: Callable[[View, P], R] | None
    fallback: R | None = None
    options: Any = None
    uri: Callable[[Any], str | None] = text_document_uri
    needs: Callable[[Settings], bool] | None = None
    when: Callable[[Client], bool] | None = None
    shown: Callable[[Shown, P], R] | None = None  # the same request about a document view
    article: Callable[[Any, P], R] | None = None  # the same request about a file sessions cite
    echo: bool = False  # with no view, answer with the params themselves (a lens to resolve)
    off_loop: bool = False  # made in a thread of its own (long: the review of a big session)
    # Where a request of this kind tells the cursor is (``View.saw_cursor``), for a cite target.
    cursor: Callable[[P], types.Position | None] | None = None


@dataclass(frozen=True)
class Handler(Generic[P, R]):
    """An entry of the feature table that is about the server, not one document
    (``initialize``, ``shutdown``, settings): ``function(server, params)``, awaited."""

    method: str
    function: Callable[[Any, P], Awaitable[R] | R]
    fallback: R | None = None
    options: Any = None
    when: Callable[[Client], bool] | None = None

"""Driving the real server over stdio as an editor would, for the end-to-end tests."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
PROFILES = ["visual-studio-code", "neovim@v0.11"]


def make_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every publishDiagnostics with its version."""
    features = dict(DEFAULT_CLIENT_FEATURES)

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published.append(params)  # type: ignore[attr-defined]

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish

    def refresh(client: LanguageClient, params: None) -> None:
        client.refreshes += 1  # type: ignore[attr-defined]

    def refresh_hints(client: LanguageClient, params: None) -> None:
        client.refreshes += 1  # type: ignore[attr-defined]
        client.hint_refreshes += 1  # type: ignore[attr-defined]

    features[types.WORKSPACE_INLAY_HINT_REFRESH] = refresh_hints
    features[types.WORKSPACE_CODE_LENS_REFRESH] = refresh
    features[types.WORKSPACE_SEMANTIC_TOKENS_REFRESH] = refresh

    def refresh_content(client: LanguageClient, params: types.TextDocumentContentRefreshParams) -> None:
        client.content_refreshes.append(params.uri)  # type: ignore[attr-defined]

    features[types.WORKSPACE_TEXT_DOCUMENT_CONTENT_REFRESH] = refresh_content

    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    features[types.CLIENT_REGISTER_CAPABILITY] = register
    client = LanguageClient(converter_factory=default_converter)
    client.registrations = []  # type: ignore[attr-defined]
    client.published = []  # type: ignore[attr-defined]
    client.refreshes = 0  # type: ignore[attr-defined]
    client.hint_refreshes = 0  # type: ignore[attr-defined]
    client.content_refreshes = []  # type: ignore[attr-defined]
    register_lsp_features(client, features)
    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "sourcecheck.lsp"], client_factory=make_client)


def paired(text: str) -> str:
    """The text as an editor holds it: UTF-16, where surrogate halves that meet are one character."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class Editor:
    """One client session: open, change, ask, with positions in the negotiated encoding."""

    def __init__(self, client: LanguageClient, result: types.InitializeResult) -> None:
        self.client = client
        self.encoding = result.capabilities.position_encoding or "utf-16"
        self.capabilities = result.capabilities
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}

    @property
    def pull(self) -> bool:
        return self.capabilities.diagnostic_provider is not None

    def open(self, uri: str, text: str) -> None:
        self.texts[uri], self.versions[uri] = text, 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text))
        )

    async def close_all(self) -> None:
        """Close every document this editor opened, and wait until the server has taken it
        in (a request is answered only after the notifications before it)."""
        for uri in self.texts:
            self.client.text_document_did_close(
                types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
        await self.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri="file:///flush.json"),
                position=types.Position(line=0, character=0),
            )
        )
        self.client.published.clear()  # type: ignore[attr-defined]
        self.texts.clear()

    def replace_all(self, uri: str, text: str) -> None:
        self.texts[uri] = paired(text)
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def edit(self, uri: str, start: int, end: int, new_text: str) -> None:
        """An incremental change of the offsets [start, end)."""
        text = self.texts[uri]
        rng = types.Range(start=self.position(text, start), end=self.position(text, end))
        self.texts[uri] = paired(text[:start] + new_text + text[end:])
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text=new_text)],
            )
        )

    # -- positions, computed independently of the server's code

    def position(self, text: str, offset: int) -> types.Position:
        before = text[:offset]
        line = before.count("\n") + before.count("\r") - before.count("\r\n")
        last_break = max(before.rfind("\n"), before.rfind("\r"))
        column_text = before[last_break + 1 :]
        return types.Position(line=line, character=self.units(column_text))

    def units(self, text: str) -> int:
        if self.encoding == "utf-8":
            return len(text.encode("utf-8", "surrogatepass"))
        if self.encoding == "utf-32":
            return len(text)
        return len(text.encode("utf-16-le", "surrogatepass")) // 2

    def offset(self, text: str, position: types.Position) -> int:
        starts = [0]
        i = 0
        while i < len(text):
            if text[i] == "\r" and text[i + 1 : i + 2] == "\n":
                starts.append(i + 2)
                i += 2
                continue
            if text[i] in "\r\n":
                starts.append(i + 1)
            i += 1
        start = starts[position.line]
        offset = start
        while self.units(text[start:offset]) < position.character:
            offset += 1
        return offset

    def range_text(self, uri: str, rng: types.Range) -> str:
        text = self.texts[uri]
        return text[self.offset(text, rng.start) : self.offset(text, rng.end)]

    def range_of(self, uri: str, start: int, end: int) -> types.Range:
        text = self.texts[uri]
        return types.Range(start=self.position(text, start), end=self.position(text, end))

    # -- requests

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        if self.pull:
            report = await self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
            return list(report.items)
        version = self.versions[uri]
        for _ in range(400):
            for params in reversed(self.client.published):  # type: ignore[attr-defined]
                if params.uri == uri and params.version == version:
                    return list(params.diagnostics)
            await asyncio.sleep(0.01)
        raise AssertionError(f"no diagnostics published for {uri} version {version}")

    async def hover(self, uri: str, offset: int) -> types.Hover | None:
        position = self.position(self.texts[uri], offset)
        return await self.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
        )

    async def code_actions(
        self, uri: str, rng: types.Range, diagnostics: list[types.Diagnostic]
    ) -> list[types.CodeAction]:
        result = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=rng,
                context=types.CodeActionContext(diagnostics=diagnostics),
            )
        )
        return [a for a in result or [] if isinstance(a, types.CodeAction)]

    def apply(self, uri: str, edit: types.WorkspaceEdit) -> None:
        """Apply a workspace edit as the editor would, then tell the server (full text)."""
        if edit.document_changes:
            (change,) = edit.document_changes
            assert change.text_document.version == self.versions[uri], "edit computed for another version"
            edits = change.edits
        else:
            edits = edit.changes[uri]
        text = self.texts[uri]
        spans = sorted(
            ((self.offset(text, e.range.start), self.offset(text, e.range.end), e.new_text) for e in edits),
            reverse=True,
        )
        for start, end, new in spans:
            text = text[:start] + new + text[end:]
        self.replace_all(uri, text)


def value_at(root: Any, pointer: str) -> Any:
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        root = root[int(part)] if isinstance(root, list) else root[part]
    return root


def single_claim(path: str, content: str, start: str, end: str) -> dict[str, Any]:
    """A session whose one claim cites line 1 of ``content`` from ``start`` to ``end``."""
    return {
        "documents": [{"path": path, "content": content}, {"path": "e", "content": "ok"}],
        "annotations": [
            {
                "claim": {"path": path, "start": {"line": 1, "str": start}, "end": {"line": 1, "str": end}},
                "sources": [
                    {
                        "path": "e",
                        "start": {"line": 1, "str": "ok"},
                        "end": {"line": 1, "str": "ok"},
                        "polarity": "supports",
                        "confidence": 1,
                    }
                ],
            }
        ],
    }


def session_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


class started:
    """``async with started(capabilities) as editor``: a server for one custom client."""

    def __init__(self, capabilities: types.ClientCapabilities, folder: Any = None) -> None:
        self.capabilities = capabilities
        self.folder = folder  # a workspace folder (a pathlib.Path), if the editor opened one

    async def __aenter__(self) -> Editor:
        self.client = await SERVER.start()
        folders = (
            [types.WorkspaceFolder(uri=self.folder.as_uri(), name=self.folder.name)]
            if self.folder is not None
            else None
        )
        result = await self.client.initialize_session(
            types.InitializeParams(capabilities=self.capabilities, workspace_folders=folders)
        )
        return Editor(self.client, result)

    async def __aexit__(self, *exc: object) -> None:
        await self.client.shutdown_session()
        await self.client.stop()

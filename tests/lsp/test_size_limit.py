"""The size limit holds whatever a file is named: past it, nothing is analysed."""

import asyncio
from unittest.mock import patch

from lsprotocol import types

from sourcecheck.lsp import sync
from sourcecheck.lsp.server import SourceCheckServer, pull_diagnostics
from sourcecheck.lsp.settings import Settings

BIG = '{"documents": [{"path": "a", "content": "' + "x" * 2_100_000 + '"}], "annotations": []}'


def opened(server: SourceCheckServer, uri: str, text: str) -> sync.OpenDocument:
    return server.documents.open(types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text))


def never_analysed(*args: object, **kwargs: object) -> None:
    raise AssertionError("a file past the size limit was analysed")


def test_a_big_session_not_named_like_one_gets_one_diagnostic_and_no_analysis():
    server = SourceCheckServer()
    server.settings = Settings(max_file_size_mb=1)
    sent: list[types.PublishDiagnosticsParams] = []
    document = opened(server, "file:///big.json", BIG)
    with (
        patch.object(sync, "build", never_analysed),
        patch.object(sync.Analysis, "incremental", never_analysed),
        patch.object(server, "text_document_publish_diagnostics", sent.append),
    ):
        asyncio.run(server.publish(document))
        report = asyncio.run(
            pull_diagnostics(
                server,
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri="file:///big.json")),
            )
        )
        assert asyncio.run(server.view("file:///big.json")) is None
    [published] = sent
    assert [d.code for d in published.diagnostics] == ["file-too-large"]
    assert [d.code for d in report.items] == ["file-too-large"]  # type: ignore[union-attr]


def test_a_big_json_file_that_is_no_session_hears_nothing():
    server = SourceCheckServer()
    server.settings = Settings(max_file_size_mb=1)
    sent: list[types.PublishDiagnosticsParams] = []
    document = opened(server, "file:///data.json", '{"rows": [' + ",".join(["1"] * 1_100_000) + "]}")
    with (
        patch.object(sync, "build", never_analysed),
        patch.object(server, "text_document_publish_diagnostics", sent.append),
    ):
        asyncio.run(server.publish(document))
    assert sent == []

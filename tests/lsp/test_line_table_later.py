"""Opening a file: its first diagnostics are placed before its line table is made, and the
table is made in the worker right after, before an edit or a request needs it."""

import asyncio
from pathlib import Path

from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.lsp.server import SourceCheckServer, pull_diagnostics

URI = "file:///later.sourcecheck.json"
BROKEN = Path(__file__).resolve().parents[2] / "fixtures" / "broken" / "boundary-ambiguous.sourcecheck.json"


def test_the_line_table_is_made_in_the_worker_once_the_first_diagnostics_are_out():
    text = BROKEN.read_text(encoding="utf-8")
    server = SourceCheckServer()

    async def scenario() -> tuple[types.DocumentDiagnosticReport, bool, bool]:
        server.documents.open(types.TextDocumentItem(uri=URI, language_id="json", version=1, text=text))
        report = await pull_diagnostics(
            server, types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
        )
        document = server.documents.get(URI)
        assert document is not None
        before = document.lines._starts is not None
        await asyncio.sleep(0.3)  # LINES_LATER, then the worker
        return report, before, document.lines._starts is not None

    try:
        report, made_before, made_after = asyncio.run(scenario())
    finally:
        server.executor.shutdown(wait=True)
    assert not made_before, "the first diagnostics needed no line table"
    assert made_after
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    # Placed as the complete table places them (related locations inside the content too).
    complete = Analysis(text)
    complete.lines.complete()
    expected = {
        (f.code, complete.span(*complete.extent(f)).start.line, complete.span(*complete.extent(f)).start.character)
        for f in complete.findings
    }
    assert expected and {(d.code, d.range.start.line, d.range.start.character) for d in report.items} == expected

"""Live diagnostics over LSP: every finding on its exact value, push or pull, in order."""

import asyncio
import json

import pytest
from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from tests.support.lsp_support import FIXTURES, session_text, value_at

BROKEN = sorted((FIXTURES / "broken").glob("*.json"))
SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "hint": types.DiagnosticSeverity.Hint,
}


@pytest.mark.parametrize("path", BROKEN, ids=[p.name.split(".")[0] for p in BROKEN])
async def test_every_finding_code_is_a_diagnostic_on_its_exact_value(editor, path):
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    editor.open(uri, text)
    diagnostics = await editor.diagnostics(uri)
    expected = Analysis(text).findings
    assert sorted(d.code for d in diagnostics) == sorted(f.code for f in expected)
    assert path.name.split(".")[0] in {d.code for d in diagnostics}
    root = None if "invalid-json" in path.name else json.loads(text)
    for diagnostic, finding in zip(diagnostics, expected, strict=True):
        assert diagnostic.source == "sourcecheck"
        assert diagnostic.severity == SEVERITY[finding.severity.value]
        assert diagnostic.message == finding.message
        if root is not None and finding.code != "duplicate-key":
            # The range covers exactly the JSON value the finding's pointer names.
            assert json.loads(editor.range_text(uri, diagnostic.range)) == value_at(root, finding.pointer)


async def test_the_ambiguous_boundary_lists_every_occurrence_inside_the_content_string(editor):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    uri = path.as_uri()
    editor.open(uri, path.read_text(encoding="utf-8"))
    (diagnostic,) = await editor.diagnostics(uri)
    assert (
        diagnostic.message
        == '`"the"` occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique'
    )
    related = diagnostic.related_information
    assert [r.message.split(":")[0] for r in related] == ["occurrence 1 of 2, column 5", "occurrence 2 of 2, column 9"]
    for info in related:
        assert info.location.uri == uri
        assert editor.range_text(uri, info.location.range) == "the"
    # They are the 2nd and 3rd "the" of the content's second line, not of the file.
    text = editor.texts[uri]
    line_two = text.index("The the the end.")
    assert editor.offset(text, related[0].location.range.start) == line_two + 4


async def test_related_locations_map_through_escapes(editor):
    content = 'é"x"🚀 "x" é'
    value = {
        "documents": [{"path": "d", "content": content}],
        "annotations": [
            {"claim": {"path": "d", "start": {"line": 1, "str": '"x"'}, "end": {"line": 1, "str": "é"}}, "sources": []}
        ],
    }
    text = json.dumps(value, ensure_ascii=True)  # every non-ASCII character written as \\uXXXX
    uri = "file:///escapes.sourcecheck.json"
    editor.open(uri, text)
    diagnostics = await editor.diagnostics(uri)
    ambiguous = [d for d in diagnostics if d.code == "boundary-ambiguous"]
    assert len(ambiguous) == 2
    for diagnostic in ambiguous:
        for info in diagnostic.related_information:
            raw = editor.range_text(uri, info.location.range)
            assert json.loads('"' + raw + '"') in ('"x"', "é")


async def test_push_or_pull_never_both(editor, client):
    uri = "file:///p.sourcecheck.json"
    editor.open(uri, (FIXTURES / "broken" / "unknown-path.sourcecheck.json").read_text())
    diagnostics = await editor.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["unknown-path"]
    if editor.pull:
        assert client.capabilities.text_document.diagnostic is not None
        assert client.published == []
    else:
        assert client.capabilities.text_document.diagnostic is None
        assert [p.version for p in client.published] == [1]


async def test_diagnostics_follow_every_edit_and_never_go_back_in_version(editor, client):
    uri = "file:///v.sourcecheck.json"
    text = (FIXTURES / "orbit-article.sourcecheck.json").read_text()
    editor.open(uri, text)
    assert await editor.diagnostics(uri) == []
    at = editor.texts[uri].index('"str": "cuts"') + len('"str": "cut')
    for ch in "xyz":  # typing inside a ref: each keystroke changes the verdict text
        editor.edit(uri, at, at, ch)
        at += 1
    diagnostics = await editor.diagnostics(uri)
    assert [d.code for d in diagnostics] == ["boundary-not-found"]
    assert '`"cutxyzs"`' in diagnostics[0].message
    if not editor.pull:
        versions = [p.version for p in client.published if p.uri == uri]
        assert versions == sorted(versions) and versions[-1] == editor.versions[uri]


async def test_diagnostics_are_cleared_on_close(editor, client):
    uri = "file:///c.sourcecheck.json"
    editor.open(uri, (FIXTURES / "broken" / "unknown-path.sourcecheck.json").read_text())
    await editor.diagnostics(uri)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    if not editor.pull:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        assert list(client.diagnostics[uri]) == []


async def test_other_json_files_get_nothing(editor, client):
    uri = "file:///project/package.json"
    text = '{"name": "x", "version": "1.0.0", "dependencies": {"a": "1"}, "annotations": 3}'
    editor.open(uri, text)
    editor.edit(uri, 1, 1, " ")
    if editor.pull:
        assert await editor.diagnostics(uri) == []
    assert await editor.hover(uri, 3) is None
    assert client.published == []


async def test_any_json_file_with_the_session_shape_is_checked(editor):
    uri = "file:///project/notes.json"
    editor.open(uri, (FIXTURES / "broken" / "unknown-path.sourcecheck.json").read_text())
    assert [d.code for d in await editor.diagnostics(uri)] == ["unknown-path"]


async def test_half_typed_json_shows_where_it_breaks_and_checks_what_parsed(editor):
    path = FIXTURES / "broken" / "unknown-path.sourcecheck.json"
    full = path.read_text()
    cut = full.index('"polarity"')  # as if the author is still typing the source
    uri = "file:///half.sourcecheck.json"
    editor.open(uri, full[:cut])
    diagnostics = await editor.diagnostics(uri)
    codes = [d.code for d in diagnostics]
    assert "invalid-json" in codes and "unknown-path" in codes
    broken = next(d for d in diagnostics if d.code == "invalid-json")
    assert broken.range.start == editor.position(editor.texts[uri], cut)


async def test_a_syntax_error_is_reported_where_it_is(editor):
    uri = "file:///t.sourcecheck.json"
    text = session_text({"documents": [], "annotations": []}).replace("[]\n}", "[],\n}")
    editor.open(uri, text)
    (diagnostic,) = await editor.diagnostics(uri)
    assert diagnostic.code == "invalid-json" and "trailing comma" in diagnostic.message
    assert editor.range_text(uri, diagnostic.range) == ","


async def test_the_status_summary_counts_refs_and_failures(editor, client):
    path = FIXTURES / "broken" / "unknown-path.sourcecheck.json"
    editor.open(path.as_uri(), path.read_text())
    answer = await client.protocol.send_request_async("sourcecheck/summary", {"uri": path.as_uri()})
    assert (answer.refs, answer.resolved, answer.failing, answer.errors, answer.warnings) == (2, 1, 1, 1, 0)
    editor.open("file:///x/package.json", '{"name": "x"}')
    assert await client.protocol.send_request_async("sourcecheck/summary", {"uri": "file:///x/package.json"}) is None


async def test_nothing_is_published_for_a_closed_document(editor, client):
    uri = "file:///gone.sourcecheck.json"
    editor.open(uri, (FIXTURES / "broken" / "unknown-path.sourcecheck.json").read_text())
    await editor.diagnostics(uri)
    editor.edit(uri, 0, 0, " ")
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await asyncio.sleep(0.2)
    if not editor.pull:
        published = [p for p in client.published if p.uri == uri]
        # The close clears them, and nothing for the closed document comes after it.
        assert list(published[-1].diagnostics) == [] and published[-1].version is None

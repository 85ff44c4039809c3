"""Driven as an editor would, on generated sessions: diagnostics, hovers and fixes all agree."""

import asyncio

import pytest

from bench.sessiongen import generate
from sourcecheck.core.analysis import Analysis
from tests.support.oracle import judge


@pytest.mark.parametrize("seed", range(4))
async def test_diagnostics_hovers_and_fixes_on_random_sessions(editor, seed):
    generated = generate(seed, documents=2, lines=8, annotations=12, broken=0.3)
    text = generated.text()
    uri = f"file:///random-{seed}.sourcecheck.json"
    editor.open(uri, text)
    diagnostics = await editor.diagnostics(uri)
    expected = judge(text)
    assert sorted(d.code for d in diagnostics) == sorted(code for code, _ in expected["findings"])

    # Every valid ref shows its resolved text when hovered on its start string.
    analysis = Analysis(text)
    for ref in analysis.session.refs:
        if ref.valid:
            node = analysis.node(analysis.session.ref_path(ref) + ("start", "str"))
            hover = await editor.hover(uri, node.start + 1)
            assert ref.text in hover.contents.value or "…" in hover.contents.value

    # Every ambiguous boundary that can be fixed gets fixes, and each one works.
    for diagnostic in [d for d in diagnostics if d.code == "boundary-ambiguous"]:
        actions = await editor.code_actions(uri, diagnostic.range, [diagnostic])
        pointer = next(
            f.pointer
            for f in analysis.findings
            if f.code == "boundary-ambiguous" and editor.range_of(uri, *analysis.extent(f)) == diagnostic.range
        )
        finding = next(f for f in analysis.findings if f.pointer == pointer)
        side = finding.path[-2]
        boundary = getattr(finding.ref, side)
        for action in actions:
            (edit,) = (
                action.edit.document_changes[0].edits if action.edit.document_changes else action.edit.changes[uri]
            )
            new_text = (
                editor.texts[uri][: editor.offset(editor.texts[uri], edit.range.start)]
                + edit.new_text
                + editor.texts[uri][editor.offset(editor.texts[uri], edit.range.end) :]
            )
            fixed = Analysis(new_text)
            assert pointer not in {f.pointer for f in fixed.findings}, action.title
            new_boundary = getattr(fixed.session.ref_at_path(analysis.session.ref_path(finding.ref)), side)
            # The span did not move: the kept edge sits on one of the old occurrences.
            kept_edge = new_boundary.column if side == "start" else new_boundary.column + len(new_boundary.str)
            old_edges = {c if side == "start" else c + len(boundary.str) for c in boundary.occurrences}
            assert kept_edge in old_edges


async def test_edits_during_a_long_analysis_end_in_the_newest_versions_diagnostics(editor):
    """A big file is analysed in the server's worker thread; edits arriving meanwhile call
    that work off. Breaking and mending the JSON over and over, without waiting, must end
    with exactly the diagnostics of the final text, and a hover must be answered."""
    text = generate(11, documents=3, lines=40, annotations=1500, broken=0.2).text(indent=2)
    uri = "file:///long.sourcecheck.json"
    editor.open(uri, text)
    at = text.index('"str": "', text.index('"annotations"')) + len('"str": "')
    # A quote in a string breaks the JSON: each of these needs a full analysis but the last.
    for start, end, piece in [(at, at, '"'), (at, at + 1, ""), (at, at, "x"), (at, at, '"'), (at, at + 1, "")]:
        editor.edit(uri, start, end, piece)
    assert editor.texts[uri] == text[:at] + "x" + text[at:]
    hover = await editor.hover(uri, at + 1)
    final = editor.texts[uri]
    diagnostics = await editor.diagnostics(uri)
    expected = Analysis(final)
    assert sorted((d.code, d.range.start.line) for d in diagnostics) == sorted(
        (f.code, expected.finding_span(f).start.line) for f in expected.findings
    )
    assert hover is not None


async def test_hints_asked_for_before_a_long_analysis_is_done_come_with_a_refresh():
    """A request that waited too long for a big file's analysis is answered empty; once the
    analysis is done, the server asks the editor to fetch hints and lenses again."""
    import sys

    from lsprotocol import types
    from pytest_lsp import ClientServerConfig

    from tests.support.lsp_support import Editor, make_client

    config = ClientServerConfig(
        server_command=[sys.executable, "-m", "sourcecheck.lsp"],
        client_factory=make_client,
        server_env={"SOURCECHECK_READY_TIMEOUT": "0.000001"},
    )
    client = await config.start()
    try:
        capabilities = types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(
                inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
            )
        )
        editor = Editor(client, await client.initialize_session(types.InitializeParams(capabilities=capabilities)))
        text = generate(12, documents=3, lines=40, annotations=3000, broken=0.1).text(indent=2)
        uri = "file:///late.sourcecheck.json"
        editor.open(uri, text)
        whole = types.Range(start=types.Position(line=0, character=0), end=editor.position(text, len(text)))
        params = types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=whole)
        assert not await client.text_document_inlay_hint_async(params)  # not analysed in time
        for _ in range(500):
            if client.refreshes:  # type: ignore[attr-defined]
                break
            await asyncio.sleep(0.01)
        assert client.refreshes == 1  # type: ignore[attr-defined]
        assert await client.text_document_inlay_hint_async(params)  # now at hand
    finally:
        await client.shutdown_session()
        await client.stop()

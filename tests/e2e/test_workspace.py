"""The workspace in the editor: a folder of two sessions citing article.md, opened with the
folder as the workspace. The problems of a session not open are published; article.md shows
its claims' verdicts and its sources' citing claims; editing a claimed sentence is said on the
spot and the session follows with one action; claims are found across sessions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from tests.support.lsp_support import session_text, started

ARTICLE = "Orbit starts in 40 ms. It never drops a frame.\nThe scheduler is new.\n"
NOTES = "Cold start takes 40 ms on the test phone.\nFrames were dropped under load.\n"
PROFILES = ["visual-studio-code", "neovim@v0.11"]


def ref(path: str, line: int, start: str, end: str) -> dict:
    return {"path": path, "start": {"line": line, "str": start}, "end": {"line": line, "str": end}}


def source(path: str, line: int, start: str, end: str, polarity: str = "supports") -> dict:
    return {**ref(path, line, start, end), "polarity": polarity, "confidence": 0.9}


def folder_of_sessions(folder: Path) -> None:
    """article.md and notes.txt; a.sourcecheck.json: one claim supported, one refuted;
    b.sourcecheck.json (broken: a boundary not found): one claim citing the same note."""
    (folder / ".git").mkdir()
    (folder / "article.md").write_text(ARTICLE)
    (folder / "notes.txt").write_text(NOTES)
    documents = [{"path": "article.md", "content": ARTICLE}, {"path": "notes.txt", "content": NOTES}]
    a = {
        "documents": documents,
        "annotations": [
            {"claim": ref("article.md", 1, "Orbit", "ms."), "sources": [source("notes.txt", 1, "Cold", "ms")]},
            {
                "claim": ref("article.md", 1, "It never", "frame."),
                "sources": [source("notes.txt", 2, "Frames", "load.", "refutes")],
            },
        ],
    }
    b = {
        "documents": documents,
        "annotations": [
            {"claim": ref("article.md", 2, "The scheduler", "new."), "sources": [source("notes.txt", 1, "Cold", "ms")]},
            {"claim": ref("article.md", 2, "nowhere", "new."), "sources": [source("notes.txt", 1, "Cold", "ms")]},
        ],
    }
    (folder / "a.sourcecheck.json").write_text(session_text(a))
    (folder / "b.sourcecheck.json").write_text(session_text(b))


async def until(check, tries: int = 300):
    for _ in range(tries):
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError("never came")


def open_markdown(editor, uri: str, text: str) -> None:
    editor.texts[uri], editor.versions[uri] = text, 1
    editor.client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="markdown", version=1, text=text))
    )


async def article_diagnostics(editor, uri: str) -> list[types.Diagnostic]:
    if editor.pull:
        return await editor.diagnostics(uri)
    published = [p for p in editor.client.published if p.uri == uri]
    return list(published[-1].diagnostics) if published else []


@pytest.mark.parametrize("profile", PROFILES)
async def test_the_problems_of_sessions_not_open_are_published(tmp_path, profile):
    folder_of_sessions(tmp_path)
    async with started(client_capabilities(profile), tmp_path) as editor:
        uri = (tmp_path / "b.sourcecheck.json").as_uri()

        async def published():
            return [p for p in editor.client.published if p.uri == uri and p.diagnostics]

        (found,) = (await until(published))[-1:]
        assert [d.code for d in found.diagnostics] == ["boundary-not-found"]

        # Opened, its problems are the editor's: the file's are taken back, shown once (VS Code
        # shows pushed and pulled diagnostics side by side: the problem twice, one stale).
        editor.open(uri, (tmp_path / "b.sourcecheck.json").read_text())

        async def taken_back():
            last = [p for p in editor.client.published if p.uri == uri and p.version is None][-1]
            return not last.diagnostics

        await until(taken_back)
        assert [d.code for d in await editor.diagnostics(uri)] == ["boundary-not-found"]


@pytest.mark.parametrize("profile", PROFILES)
async def test_the_article_shows_verdicts_and_citing_claims_and_follows_an_edit(tmp_path, profile):
    folder_of_sessions(tmp_path)
    async with started(client_capabilities(profile), tmp_path) as editor:
        uri = (tmp_path / "article.md").as_uri()
        await until(lambda: asyncio.sleep(0, [p for p in editor.client.published if "b.sourcecheck" in p.uri]))
        open_markdown(editor, uri, ARTICLE)

        async def hints():
            return await editor.client.text_document_inlay_hint_async(
                types.InlayHintParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    range=types.Range(types.Position(0, 0), types.Position(3, 0)),
                )
            )

        labels = sorted(str(h.label).strip() for h in await until(hints))
        assert (
            labels
            == ["refuted · 1 source", "supported · 1 source", "supported · 1 source", "unresolved"][: len(labels)]
        )
        assert "refuted · 1 source" in labels and "supported · 1 source" in labels

        diagnostics = await until(lambda: article_diagnostics(editor, uri))
        (refuted,) = [d for d in diagnostics if "refuted" in d.message]
        assert refuted.severity == types.DiagnosticSeverity.Information
        assert refuted.message.startswith('claim "It never drops a frame." is refuted in `a.sourcecheck.json`')

        hover = await editor.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 3))
        )
        assert hover is not None and "a.sourcecheck.json" in hover.contents.value
        assert "Cold start takes 40 ms" in hover.contents.value
        definition = await editor.client.text_document_definition_async(
            types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 3))
        )
        (where,) = definition
        assert where.uri == (tmp_path / "a.sourcecheck.json").as_uri()

        # A source passage shows how many claims cite it.
        notes = (tmp_path / "notes.txt").as_uri()
        open_markdown(editor, notes, NOTES)

        async def notes_hints():
            return await editor.client.text_document_inlay_hint_async(
                types.InlayHintParams(
                    text_document=types.TextDocumentIdentifier(uri=notes),
                    range=types.Range(types.Position(0, 0), types.Position(3, 0)),
                )
            )

        assert sorted(str(h.label).strip() for h in await until(notes_hints)) == [
            "cited by 1 claim",  # a's refuting source
            "cited by 3 claims",  # a's supporting source and b's two
        ]

        # The writer edits the claimed sentence: said on the spot, and the session follows.
        edited = ARTICLE.replace("It never drops a frame.", "It never drops a single frame.")
        editor.versions[uri] += 1
        editor.texts[uri] = edited
        editor.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=editor.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        )

        async def changed():
            found = await article_diagnostics(editor, uri)
            return [d for d in found if d.severity == types.DiagnosticSeverity.Warning]

        (warning,) = await until(changed)
        assert "this edit changes the text a claim of `a.sourcecheck.json` cites" in warning.message
        assert 'was "It never drops a frame.", now "It never drops a single frame."' in warning.message
        actions = await editor.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=warning.range,
                context=types.CodeActionContext(diagnostics=[warning]),
            )
        )
        titles = [a.title for a in actions]
        assert "Accept this text in `a.sourcecheck.json` (1 changed ref re-anchored or removed)" in titles
        (accept,) = [a for a in actions if a.title.startswith("Accept this text in `a.")]
        edit = accept.edit.document_changes[0] if accept.edit.document_changes else None
        changes = edit.edits if edit is not None else accept.edit.changes[(tmp_path / "a.sourcecheck.json").as_uri()]
        session = (tmp_path / "a.sourcecheck.json").read_text()
        text = apply_edits(session, changes)
        data = json.loads(text)
        assert data["documents"][0]["content"] == edited
        from sourcecheck.core.analysis import Analysis

        cited = [r.text for r in Analysis(text).session.refs]
        assert "It never drops a single frame." in cited


def apply_edits(text: str, edits) -> str:
    from sourcecheck.core.positions import Encoding, LineTable, Position

    lines = LineTable(text)
    spans = sorted(
        (
            lines.offset(Position(e.range.start.line, e.range.start.character), Encoding.UTF16),
            lines.offset(Position(e.range.end.line, e.range.end.character), Encoding.UTF16),
            e.new_text,
        )
        for e in edits
    )
    out, at = [], 0
    for start, end, new in spans:
        out += [text[at:start], new]
        at = end
    return "".join(out + [text[at:]])


@pytest.mark.parametrize("profile", PROFILES)
async def test_claims_are_found_across_sessions_and_a_source_passage_lists_every_claim_citing_it(tmp_path, profile):
    folder_of_sessions(tmp_path)
    async with started(client_capabilities(profile), tmp_path) as editor:
        await until(lambda: asyncio.sleep(0, [p for p in editor.client.published if "b.sourcecheck" in p.uri]))

        async def symbols():
            return await editor.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="scheduler"))

        (found,) = await until(symbols)
        assert found.name == "The scheduler is new." and found.location.uri.endswith("b.sourcecheck.json")
        uri = (tmp_path / "a.sourcecheck.json").as_uri()
        text = (tmp_path / "a.sourcecheck.json").read_text()
        editor.open(uri, text)
        line = next(i for i, row in enumerate(text.split("\n")) if '"str": "Cold"' in row)
        references = await editor.client.text_document_references_async(
            types.ReferenceParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line, text.split("\n")[line].index("Cold")),
                context=types.ReferenceContext(include_declaration=False),
            )
        )
        where = sorted((Path(r.uri).name if "://" not in r.uri else r.uri.rsplit("/", 1)[1]) for r in references)
        assert where == ["a.sourcecheck.json", "b.sourcecheck.json", "b.sourcecheck.json"]


async def test_a_client_that_pulls_the_workspace_s_diagnostics_is_told_each_change_once(tmp_path):
    """A client that pulls asks for the workspace's problems (workspace/diagnostic: VS Code's
    language client every two seconds; pytest-lsp's Neovim profile pulls, its VS Code one not):
    each session not open is reported in full once, then unchanged until its file changes;
    what was pushed before its first pull is taken back, so nothing shows twice."""
    folder_of_sessions(tmp_path)
    async with started(client_capabilities("neovim@v0.11"), tmp_path) as editor:
        assert editor.capabilities.diagnostic_provider.workspace_diagnostics
        b = (tmp_path / "b.sourcecheck.json").as_uri()

        async def pull(previous=()):
            return await editor.client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=list(previous))
            )

        async def indexed():
            return [p for p in editor.client.published if p.uri == b and p.diagnostics]

        await until(indexed)  # pushed while no pull had come
        first = {item.uri: item for item in (await pull()).items}
        assert [d.code for d in first[b].items] == ["boundary-not-found"]
        assert not [p for p in editor.client.published if p.uri == b][-1].diagnostics  # taken back
        ids = [types.PreviousResultId(uri=uri, value=item.result_id) for uri, item in first.items()]
        again = {item.uri: item for item in (await pull(ids)).items}
        assert all(isinstance(item, types.WorkspaceUnchangedDocumentDiagnosticReport) for item in again.values())

        fixed = json.loads((tmp_path / "b.sourcecheck.json").read_text())
        fixed["annotations"].pop()  # the broken claim gone
        (tmp_path / "b.sourcecheck.json").write_text(session_text(fixed))
        editor.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=b, type=types.FileChangeType.Changed)])
        )

        async def told_fixed():
            report = {item.uri: item for item in (await pull(ids)).items}[b]
            return isinstance(report, types.WorkspaceFullDocumentDiagnosticReport) and not report.items

        await until(told_fixed)
        assert not [p for p in editor.client.published if p.uri == b][-1].diagnostics  # never pushed again

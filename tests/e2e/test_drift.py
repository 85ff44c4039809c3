"""Drift seen in the editor: a source file changed on disk while its session is open.

The server reads the files of a session's documents (as ``sourcecheck sync`` does); when
one changes (``workspace/didChangeWatchedFiles``, or ``didSave``), it says on the document's
``path`` what that does to its refs and on each changed ref what it cited and what stands
there now, and offers the sync (or the acceptance) as an edit of the session buffer.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from tests.support.lsp_support import session_text

NOTES = "# Notes\n\nThe flag is optional for new projects.\nIt was added in version 2.\nSee the changelog.\n"
ARTICLE = "The flag is optional; it came in version 2.\n"
DRIFT_CODES = ("source-changed", "source-unreadable", "cited-text-changed")


def ref(path: str, line: int, start: str, end: str) -> dict:
    return {"path": path, "start": {"line": line, "str": start}, "end": {"line": line, "str": end}}


def on_disk(folder: Path) -> tuple[str, str]:
    """A session saved in ``folder`` beside its two files; its URI and text."""
    (folder / "notes.txt").write_text(NOTES)
    (folder / "article.md").write_text(ARTICLE)
    source = {"polarity": "supports", "confidence": 0.9}
    text = session_text(
        {
            "documents": [{"path": "article.md", "content": ARTICLE}, {"path": "notes.txt", "content": NOTES}],
            "annotations": [
                {
                    "claim": ref("article.md", 1, "The flag", "optional"),
                    "sources": [{**ref("notes.txt", 3, "The flag", "optional"), **source}],
                },
                {
                    "claim": ref("article.md", 1, "came", "version 2"),
                    "sources": [{**ref("notes.txt", 4, "added", "version 2"), **source}],
                },
            ],
        }
    )
    session = folder / "s.sourcecheck.json"
    session.write_text(text)
    return session.as_uri(), text


def tell(editor, path: Path) -> None:
    """The editor's file watcher saw ``path`` change."""
    editor.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
        )
    )


async def drift_diagnostics(editor, uri: str, wanted: int) -> list[types.Diagnostic]:
    """The session's drift diagnostics, once there are ``wanted`` of them (pushed ones may
    come a moment after the notification, after the file is read)."""
    found: list[types.Diagnostic] = []
    for _ in range(300):
        if editor.pull:
            everything = await editor.diagnostics(uri)
        else:
            published = [p for p in editor.client.published if p.uri == uri]
            everything = list(published[-1].diagnostics) if published else []
        found = [d for d in everything if d.code in DRIFT_CODES]
        if len(found) == wanted:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"wanted {wanted} drift diagnostics, have {[d.message for d in found]}")


def cited(text: str) -> list[str | None]:
    return [r.text for r in Analysis(text).session.refs]


async def test_a_line_added_on_disk_is_shown_and_the_sync_re_anchors_every_ref(editor, tmp_path):
    uri, text = on_disk(tmp_path)
    editor.open(uri, text)
    assert await drift_diagnostics(editor, uri, 0) == []
    before = cited(text)

    (tmp_path / "notes.txt").write_text("A line added at the top.\n" + NOTES)
    tell(editor, tmp_path / "notes.txt")
    (diagnostic,) = await drift_diagnostics(editor, uri, 1)
    assert diagnostic.code == "source-changed" and diagnostic.severity == types.DiagnosticSeverity.Information
    assert diagnostic.message.startswith(
        "the file of `notes.txt` has changed on disk: 2 refs into it keep their text (2 re-anchored)"
    )
    assert editor.range_text(uri, diagnostic.range) == '"notes.txt"'

    (action,) = [a for a in await editor.code_actions(uri, diagnostic.range, [diagnostic]) if "Sync" in a.title]
    assert action.title == "Sync `notes.txt` with its file (re-anchor 2 refs)" and action.is_preferred
    editor.apply(uri, action.edit)
    after = editor.texts[uri]
    assert cited(after) == before  # every ref cites what it cited, at its new place
    assert json.loads(after)["documents"][1]["content"] == "A line added at the top.\n" + NOTES
    assert await drift_diagnostics(editor, uri, 0) == []


async def test_a_cited_line_edited_on_disk_is_flagged_with_was_and_now_until_accepted(editor, tmp_path):
    uri, text = on_disk(tmp_path)
    editor.open(uri, text)
    await drift_diagnostics(editor, uri, 0)
    (tmp_path / "notes.txt").write_text(NOTES.replace("optional", "required"))
    editor.client.text_document_did_save(  # the file saved in the editor (didSave)
        types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=(tmp_path / "notes.txt").as_uri())
        )
    )
    found = await drift_diagnostics(editor, uri, 2)
    document, changed = sorted(found, key=lambda d: d.code != "source-changed")
    assert document.severity == types.DiagnosticSeverity.Warning
    assert "1 ref into it keeps its text, 1 ref cites text that was edited" in document.message
    assert changed.code == "cited-text-changed"
    assert 'this ref (claim "The flag is optional") cites text of `notes.txt`' in changed.message
    assert changed.message.endswith('was "The flag is optional", now "The flag is required"')
    assert json.loads(editor.range_text(uri, changed.range))["start"] == {"line": 3, "str": "The flag"}

    actions = await editor.code_actions(uri, changed.range, [changed])
    (accept,) = [a for a in actions if a.title.startswith("Accept the new text")]
    assert accept.title == "Accept the new text of `notes.txt`: 1 ref re-anchored to edited text"
    assert not accept.is_preferred  # a person judges the claim again
    editor.apply(uri, accept.edit)
    assert "The flag is required" in cited(editor.texts[uri])
    assert await drift_diagnostics(editor, uri, 0) == []


async def test_a_link_leaving_the_session_folder_is_refused_and_named(editor, tmp_path):
    (tmp_path / "work").mkdir()
    uri, text = on_disk(tmp_path / "work")
    (tmp_path / "secret").write_text("TOKEN=hunter2\n")
    os.remove(tmp_path / "work" / "notes.txt")
    os.symlink("../secret", tmp_path / "work" / "notes.txt")
    editor.open(uri, text)
    (diagnostic,) = await drift_diagnostics(editor, uri, 1)
    assert diagnostic.code == "source-unreadable" and diagnostic.severity == types.DiagnosticSeverity.Warning
    assert "outside the session's folder" in diagnostic.message and "hunter2" not in diagnostic.message


async def test_fix_all_syncs_every_document_whose_refs_keep_their_text(editor, tmp_path):
    uri, text = on_disk(tmp_path)
    editor.open(uri, text)
    await drift_diagnostics(editor, uri, 0)
    (tmp_path / "notes.txt").write_text("New first line.\n" + NOTES)
    tell(editor, tmp_path / "notes.txt")
    await drift_diagnostics(editor, uri, 1)
    result = await editor.client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=editor.range_of(uri, 0, 0),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    (action,) = result
    assert action.kind == types.CodeActionKind.SourceFixAll
    editor.apply(uri, action.edit)
    assert cited(editor.texts[uri]) == cited(text)


async def test_a_session_whose_documents_have_no_files_hears_nothing_of_drift(editor, tmp_path):
    text = session_text({"documents": [{"path": "article", "content": "Claim."}], "annotations": []})
    uri = (tmp_path / "s.sourcecheck.json").as_uri()
    editor.open(uri, text)
    assert [d for d in await editor.diagnostics(uri) if d.code in DRIFT_CODES] == []


async def test_a_client_that_can_be_asked_is_asked_to_watch_the_session_folder(editor, tmp_path):
    uri, text = on_disk(tmp_path)
    editor.open(uri, text)
    await drift_diagnostics(editor, uri, 0)
    for _ in range(100):
        asked = [
            r
            for r in editor.client.registrations
            if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES and str(tmp_path) in json.dumps(r.register_options)
        ]
        if asked or not editor.client.init_capabilities_watch:
            break
        await asyncio.sleep(0.02)
    if editor.client.init_capabilities_watch:  # VS Code: dynamic registration of watchers
        (registration,) = asked  # once for the folder
        (watcher,) = registration.register_options["watchers"]
        assert watcher["globPattern"] == f"{tmp_path}/**/*"
    else:  # Neovim 0.11 on Linux cannot be asked: its plugin tells of saved files
        assert asked == []


async def test_a_file_changed_by_another_program_is_seen_without_an_event_or_an_edit(editor, tmp_path):
    """Neovim on Linux cannot be asked to watch files, and hears nothing of a file another
    program changes (`sed -i`, `git pull`); nor does VS Code of a file outside its workspace.
    The server looks at the stamps of the open sessions' files about once a second by itself,
    and shows the change with nothing typed: pushed, or the pulling client asked to pull."""
    uri, text = on_disk(tmp_path)
    editor.open(uri, text)
    assert await drift_diagnostics(editor, uri, 0) == []
    (tmp_path / "notes.txt").write_text("A line added by another program.\n" + NOTES)
    (diagnostic,) = await drift_diagnostics(editor, uri, 1)  # within the wait: no notification sent
    assert diagnostic.code == "source-changed"


async def test_a_cited_passage_moved_on_disk_is_followed_and_one_deleted_is_removed_never_re_pointed(editor, tmp_path):
    """A cited paragraph moved 14 lines down is followed (the same text at its new line); a
    cited sentence deleted from the middle of its line is not given its neighbour's text: its
    source is removed by the action that says so, and the claim is left for a person."""
    filler = "".join(f"Filler line {i} says nothing in particular.\n" for i in range(14))
    notes = "Intro.\nRich is a library.\nThe Console wraps text. Hello World is printed.\n" + filler
    (tmp_path / "notes.txt").write_text(notes)
    (tmp_path / "article.md").write_text(ARTICLE)
    source = {"polarity": "supports", "confidence": 0.9}
    text = session_text(
        {
            "documents": [{"path": "article.md", "content": ARTICLE}, {"path": "notes.txt", "content": notes}],
            "annotations": [
                {
                    "claim": ref("article.md", 1, "The flag", "optional"),
                    "sources": [{**ref("notes.txt", 2, "Rich", "library."), **source}],
                },
                {
                    "claim": ref("article.md", 1, "came", "version 2"),
                    "sources": [{**ref("notes.txt", 3, "The Console", "wraps text."), **source}],
                },
            ],
        }
    )
    (tmp_path / "s.sourcecheck.json").write_text(text)
    uri = (tmp_path / "s.sourcecheck.json").as_uri()
    editor.open(uri, text)
    await drift_diagnostics(editor, uri, 0)
    moved = "Intro.\nHello World is printed.\n" + filler + "Rich is a library.\n"
    (tmp_path / "notes.txt").write_text(moved)
    tell(editor, tmp_path / "notes.txt")
    document, deleted = sorted(await drift_diagnostics(editor, uri, 2), key=lambda d: d.code != "source-changed")
    assert "1 ref into it keeps its text (1 moved), 1 ref cites text that was deleted" in document.message
    assert 'was "The Console wraps text.", now deleted (it stood in line 2 "Hello World is printed.")' in (
        deleted.message
    )
    actions = await editor.code_actions(uri, deleted.range, [deleted])
    titles = [a.title for a in actions]
    assert "Remove this source (its text was deleted)" in titles
    assert "Accept the new text of `notes.txt`: 1 source removed (text deleted), 1 more re-anchored" in titles
    (accept,) = [a for a in actions if a.title.startswith("Accept")]
    editor.apply(uri, accept.edit)
    after = Analysis(editor.texts[uri])
    texts = {after.session.ref_path(r): r.text for r in after.session.refs}
    assert texts[("annotations", 0, "sources", 0)] == "Rich is a library."  # followed to its new line
    assert json.loads(editor.texts[uri])["annotations"][0]["sources"][0]["start"]["line"] == 17
    assert json.loads(editor.texts[uri])["annotations"][1]["sources"] == []  # removed, never re-pointed
    assert await drift_diagnostics(editor, uri, 0) == []


async def test_a_passage_pasted_twice_is_cited_at_the_place_a_person_chooses(editor, tmp_path):
    uri, text = on_disk(tmp_path)
    editor.open(uri, text)
    await drift_diagnostics(editor, uri, 0)
    line = "The flag is optional for new projects.\n"
    pasted = NOTES.replace(line, "") + "Also:\n" + line + "Again:\n" + line
    (tmp_path / "notes.txt").write_text(pasted)
    tell(editor, tmp_path / "notes.txt")
    found = await drift_diagnostics(editor, uri, 2)
    (changed,) = [d for d in found if d.code == "cited-text-changed"]
    assert "its exact text stands elsewhere now (2 places, lines 6, 8): choose one to cite" in changed.message
    titles = [a.title for a in await editor.code_actions(uri, changed.range, [changed])]
    assert titles[:3] == [
        "Remove this source (its text was deleted)",
        "Cite it at line 6 and sync `notes.txt`",
        "Cite it at line 8 and sync `notes.txt`",
    ]
    (chosen,) = [a for a in await editor.code_actions(uri, changed.range, [changed]) if "line 8" in a.title]
    editor.apply(uri, chosen.edit)
    after = json.loads(editor.texts[uri])
    assert after["documents"][1]["content"] == pasted
    assert after["annotations"][0]["sources"][0]["start"]["line"] == 8
    assert cited(editor.texts[uri]) == cited(text)  # the same texts, at the places chosen
    assert await drift_diagnostics(editor, uri, 0) == []


async def test_a_missing_source_file_is_a_warning_naming_the_refs_into_it(editor, tmp_path):
    uri, text = on_disk(tmp_path)
    os.remove(tmp_path / "notes.txt")
    editor.open(uri, text)
    (diagnostic,) = await drift_diagnostics(editor, uri, 1)
    assert diagnostic.code == "source-unreadable" and diagnostic.severity == types.DiagnosticSeverity.Warning
    assert "no such file in the session's folder" in diagnostic.message

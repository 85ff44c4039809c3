"""The extend-until-unique quick fix: offered, applied, and the span stays put."""

import json

from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from tests.support.lsp_support import FIXTURES, session_text


def ambiguous_session(line: str, start: str, end: str) -> str:
    return session_text(
        {
            "documents": [{"path": "doc", "content": "first line\n" + line}, {"path": "src", "content": "evidence"}],
            "annotations": [
                {
                    "claim": {"path": "doc", "start": {"line": 2, "str": start}, "end": {"line": 2, "str": end}},
                    "sources": [
                        {
                            "path": "src",
                            "start": {"line": 1, "str": "evidence"},
                            "end": {"line": 1, "str": "evidence"},
                            "polarity": "supports",
                            "confidence": 0.9,
                        }
                    ],
                }
            ],
        }
    )


async def fixes_for(editor, uri, text, code="boundary-ambiguous"):
    editor.open(uri, text)
    diagnostics = [d for d in await editor.diagnostics(uri) if d.code == code]
    assert diagnostics
    return diagnostics[0], await editor.code_actions(uri, diagnostics[0].range, [diagnostics[0]])


async def test_one_fix_per_occurrence_titled_with_the_span_it_gives(editor):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    diagnostic, actions = await fixes_for(editor, path.as_uri(), path.read_text())
    assert [a.title for a in actions] == [
        'Extend start to "the the": cites "the the end"',
        'Extend start to "the end": cites "the end"',
    ]
    assert all(a.kind == types.CodeActionKind.QuickFix and list(a.diagnostics) == [diagnostic] for a in actions)
    assert not any(a.is_preferred for a in actions)  # both spans run forward: only the author knows


async def test_applying_a_fix_makes_the_boundary_unique_and_keeps_the_span(editor):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    uri = path.as_uri()
    _, actions = await fixes_for(editor, uri, path.read_text())
    before = editor.texts[uri]
    editor.apply(uri, actions[1].edit)
    assert await editor.diagnostics(uri) == []
    after = editor.texts[uri]
    # Only the str value changed, byte for byte.
    start = before.index('"the"')
    assert after[:start] == before[:start] and after[start:].replace('"the end"', '"the"', 1) == before[start:]
    assert Analysis(after).session.refs[0].text == "the end"


async def test_the_only_fix_whose_span_runs_forward_is_offered_but_not_preferred(editor):
    text = ambiguous_session("an apple, then a pear, then a plum", "then", "pear")
    _, actions = await fixes_for(editor, "file:///pref.sourcecheck.json", text)
    # The second "then" comes after "pear": a span from it would run backward, so it is no fix;
    # the other chooses what the ref cites, which only the writer can: never preferred.
    assert [a.title for a in actions] == ['Extend start to "then a pear": cites "then a pear"']
    assert [a.is_preferred for a in actions] == [None]


async def test_fixes_are_offered_from_the_cursor_on_str_without_a_diagnostic(editor):
    text = ambiguous_session("an apple, then a pear, then a plum", "then", "pear")
    uri = "file:///cursor.sourcecheck.json"
    editor.open(uri, text)
    at = text.index('"then"') + 2
    rng = editor.range_of(uri, at, at)
    actions = await editor.code_actions(uri, rng, [])
    assert [a.title for a in actions] == ['Extend start to "then a pear": cites "then a pear"']


async def test_the_new_string_is_correctly_json_escaped(editor):
    text = ambiguous_session('say "hi" to 🚀 and "hi" to 中文', '"hi"', "中文")
    uri = "file:///esc.sourcecheck.json"
    _, actions = await fixes_for(editor, uri, text)
    assert len(actions) == 2
    editor.apply(uri, actions[1].edit)
    assert await editor.diagnostics(uri) == []
    root = json.loads(editor.texts[uri])
    assert root["annotations"][0]["claim"]["start"]["str"] == '"hi" to 中文'
    assert Analysis(editor.texts[uri]).session.refs[0].text == '"hi" to 中文'


async def test_end_boundaries_grow_to_the_left(editor):
    text = ambiguous_session("red apple, green apple, blue sky", "green", "apple")
    uri = "file:///end.sourcecheck.json"
    _, actions = await fixes_for(editor, uri, text)
    # "red apple" ends before "green" starts: no span from it, so only one fix.
    assert [a.title for a in actions] == ['Extend end to "green apple": cites "green apple"']
    assert not any(a.is_preferred for a in actions)
    editor.apply(uri, actions[0].edit)
    assert await editor.diagnostics(uri) == []


async def test_edits_name_the_version_they_were_computed_for(editor, client):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    _, actions = await fixes_for(editor, path.as_uri(), path.read_text())
    edit = actions[0].edit
    if client.capabilities.workspace.workspace_edit and client.capabilities.workspace.workspace_edit.document_changes:
        assert edit.document_changes[0].text_document.version == 1
    else:
        assert path.as_uri() in edit.changes


async def test_no_fix_for_an_occurrence_that_cannot_be_made_unique(editor):
    text = ambiguous_session("abab", "ab", "b")
    _, actions = await fixes_for(editor, "file:///none.sourcecheck.json", text)
    assert [a.title for a in actions] == ['Extend start to "abab" (occurrence 1, column 1)']


async def test_every_kind_of_quick_fix_is_offered_and_works_over_lsp(editor):
    from tests.support.helpers import crafted

    uri = "file:///all-fixes.sourcecheck.json"
    editor.open(uri, session_text(crafted()))
    for code in [
        "bad-polarity",
        "bad-confidence",
        "unknown-path",
        "non-lf-content",
        "boundary-not-found",
        "empty-sources",
    ]:
        diagnostics = [d for d in await editor.diagnostics(uri) if d.code == code]
        assert diagnostics, code
        actions = await editor.code_actions(uri, diagnostics[0].range, [diagnostics[0]])
        assert actions, code
        before = len(diagnostics)
        editor.apply(uri, actions[0].edit)
        after = [d for d in await editor.diagnostics(uri) if d.code == code]
        assert len(after) == before - 1, (code, actions[0].title)
    remaining = {d.code for d in await editor.diagnostics(uri)}
    assert not remaining & {"unknown-path", "non-lf-content", "empty-sources"}

"""Citing a selection writes a ref that resolves to exactly the selected text, into JSON that
stays valid and keeps the file's own formatting; a selection that cannot be cited gets a
reason and no edit."""

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from sourcecheck.cli.main import main as cli
from sourcecheck.core.analysis import Analysis
from sourcecheck.lsp.app import Client, View
from sourcecheck.lsp.features.cite import actions, in_session

WORDS = ["the", "the", "a", "cat", "中文", "🚀", "é", "aa", "\\", '"', "\t", "x y", "end."]
line_text = st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join)
content = st.lists(line_text, min_size=1, max_size=4).map("\n".join).filter(bool)


def apply(text: str, edit: types.WorkspaceEdit, view: View) -> str:
    (edits,) = edit.changes.values()
    for change in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start, end = view.offset(change.range.start), view.offset(change.range.end)
        text = text[:start] + change.new_text + text[end:]
    return text


def formatted(value: object, indent: int | None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


@settings(max_examples=250)
@given(st.lists(content, min_size=2, max_size=3), st.integers(0, 2), st.data(), st.sampled_from([None, 2, 4]))
def test_every_cite_action_writes_a_ref_that_resolves_to_exactly_the_selection(contents, which, data, indent):
    documents = [{"path": f"doc{i}", "content": text} for i, text in enumerate(contents)]
    claim = {
        "path": "doc1",
        "start": {"line": 1, "str": contents[1][:1] or "x"},
        "end": {"line": 1, "str": contents[1][:1] or "x"},
    }
    session = {
        "documents": documents,
        "annotations": data.draw(st.sampled_from([[], [{"claim": claim, "sources": []}]])),
    }
    text = formatted(session, indent)
    view = View.of(text, client=Client(encoding=data.draw(st.sampled_from(list(Client().encoding.__class__)))))
    document = view.analysis.session.documents[which % len(contents)]
    start = data.draw(st.integers(0, len(document.content) - 1))
    end = data.draw(st.integers(start + 1, min(len(document.content), start + 30)))
    found = actions(view, document, start, end)
    if len(found) == 1 and found[0].disabled is not None:
        assert found[0].edit is None and found[0].disabled.reason
        return
    assert found, "a citable selection gets at least the new-annotation action"
    for action in found:
        new_text = apply(text, action.edit, view)
        value = json.loads(new_text)  # valid JSON
        assert new_text == formatted(value, indent)  # written as the file is written
        analysis = Analysis(new_text)
        before = {view.analysis.session.ref_path(r) for r in view.analysis.session.refs}
        (added,) = [r for r in analysis.session.refs if analysis.session.ref_path(r) not in before]
        assert added.valid and added.doc_path == document.path and added.text == document.content[start:end]


def test_a_session_is_written_from_nothing_with_new_and_the_cite_actions_only(tmp_path: Path, capsys, monkeypatch):
    (tmp_path / "article.md").write_text(
        "# Orbit\n\nOrbit cuts cold starts by 37%.\nThe scheduler never drops a frame.\n"
    )
    (tmp_path / "notes.txt").write_text("cold start p50: 820ms -> 517ms (-37%)\nframes dropped under load: 3/min\n")
    monkeypatch.chdir(tmp_path)
    assert cli(["new", "article.md", "notes.txt", "-o", "s.sourcecheck.json"]) == 0
    text = (tmp_path / "s.sourcecheck.json").read_text()
    wanted = [
        ("cuts cold starts by 37%", "(-37%)", "supports"),
        ("never drops a frame", "frames dropped under load: 3/min", "refutes"),
    ]
    for claim_text, source_text, polarity in wanted:
        view = View.of(text)
        article, notes = view.analysis.session.documents
        at = article.content.index(claim_text)
        (new,) = [a for a in actions(view, article, at, at + len(claim_text)) if "new annotation" in a.title]
        text = apply(text, new.edit, view)
        view = View.of(text)
        at = notes.content.index(source_text)
        (source,) = [
            a for a in actions(view, notes, at, at + len(source_text)) if f"a source that {polarity}" in a.title
        ]
        text = apply(text, source.edit, view)
    analysis = Analysis(text)
    assert analysis.exit_code == 0
    cited = [(r.text, r.polarity) for r in analysis.session.refs]
    assert cited == [
        ("cuts cold starts by 37%", None),
        ("(-37%)", "supports"),
        ("never drops a frame", None),
        ("frames dropped under load: 3/min", "refutes"),
    ]


def test_citing_inside_the_session_files_content_string_maps_escapes_back_to_characters():
    session = {
        "documents": [{"path": "a", "content": 'say "hi"\tthere\nnext'}, {"path": "b", "content": "ok"}],
        "annotations": [],
    }
    text = formatted(session, 2)
    view = View.of(text)
    start = text.index('\\"hi')  # the escape of the first quote, in the file
    end = text.index("there") + len("there")
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=view.uri),
        range=types.Range(start=view.position(start), end=view.position(end)),
        context=types.CodeActionContext(diagnostics=[]),
    )
    (new,) = [a for a in in_session(view, params) if "new annotation" in a.title]
    claim = Analysis(apply(text, new.edit, view)).session.refs[0]
    assert claim.valid and claim.text == '"hi"\tthere'


def three_without_sources() -> str:
    claims = ("one", "two", "three")
    return formatted(
        {
            "documents": [{"path": "a", "content": "one two three"}, {"path": "b", "content": "four five"}],
            "annotations": [
                {
                    "claim": {"path": "a", "start": {"line": 1, "str": word}, "end": {"line": 1, "str": word}},
                    "sources": [],
                }
                for word in claims
            ],
        },
        2,
    )


def source_titles(view: View) -> list[str]:
    b = view.analysis.session.by_path["b"]
    return [a.title for a in actions(view, b, 0, 4) if "as a source that supports" in a.title]


def test_a_source_goes_to_the_annotation_at_the_cursor_else_the_last_edited_said_in_the_title():
    text = three_without_sources()
    view = View.of(text)
    view.memo.last_edit = text.index('"str": "one"')  # the writer edited the first annotation
    assert source_titles(view) == [
        'Cite "four" as a source that supports "one" (last edited), confidence 0.7 (a placeholder)'
    ]
    view.saw_cursor(view.position(text.index('"str": "two"')))  # then hovered the second one
    assert source_titles(view) == [
        'Cite "four" as a source that supports "two" (at the cursor), confidence 0.7 (a placeholder)'
    ]
    view.saw_cursor(view.position(text.index('"content"')))  # a place in no annotation changes nothing
    assert source_titles(view)[0].startswith('Cite "four" as a source that supports "two" (at the cursor)')
    edited = View(view.uri, view.version + 1, view.analysis, memo=view.memo)  # an edit since: the place edited
    assert source_titles(edited)[0].startswith('Cite "four" as a source that supports "one" (last edited)')
    view.memo.last_edit = view.memo.cursor = None  # else: the last one without a source
    assert source_titles(view)[0].startswith(
        'Cite "four" as a source that supports "three" (the last without a source)'
    )


LONG = "relieving you from the drudgery of repeated manual checking methods"


def two_annotations(confidence: object) -> dict:
    source = {"path": "a", "start": {"line": 1, "str": "one"}, "end": {"line": 1, "str": "one"}}
    return {
        "documents": [{"path": "a", "content": "one two three"}, {"path": "b", "content": LONG + "\nfour five"}],
        "annotations": [
            {
                "claim": {"path": "b", "start": {"line": 2, "str": "four"}, "end": {"line": 2, "str": "five"}},
                "sources": [{**source, "polarity": "supports", "confidence": confidence}],
            },
            {
                "claim": {"path": "a", "start": {"line": 1, "str": "two"}, "end": {"line": 1, "str": "two"}},
                "sources": [],
            },
        ],
    }


def test_a_cite_title_shows_both_ends_of_a_long_selection():
    view = View.of(formatted(two_annotations(0.9), 2))
    b = view.analysis.session.by_path["b"]
    titles = [a.title for a in actions(view, b, 0, len(LONG))]
    assert titles[0] == 'Cite "relieving you … checking methods" as the claim of a new annotation'


def test_a_new_sources_confidence_is_the_placeholder_its_title_names_never_another_sources():
    view = View.of(formatted(two_annotations(0.25), 2))  # a weak source just written
    b = view.analysis.session.by_path["b"]
    (supports, _) = [a for a in actions(view, b, 0, 9) if "as a source" in a.title]
    assert supports.title.endswith(", confidence 0.7 (a placeholder)")
    after = Analysis(apply(view.text, supports.edit, view))
    assert after.session.annotations[1].sources[0].confidence == 0.7  # not the 0.25 of the source before


def test_a_client_that_takes_snippets_types_over_the_confidence():
    view = View.of(formatted(two_annotations(0.25), 2), client=Client(document_changes=True, snippet_edits=True))
    b = view.analysis.session.by_path["b"]
    (supports, _) = [a for a in actions(view, b, 0, 9) if "as a source" in a.title]
    assert "confidence" not in supports.title  # the placeholder is in the edit, selected
    ((change,),) = [c.edits for c in supports.edit.document_changes]
    assert isinstance(change, types.SnippetTextEdit)
    assert '"confidence": ${1:0.7}' in change.snippet.value
    written = change.snippet.value.replace("${1:0.7}", "0.7").replace("\\$", "$").replace("\\}", "}")
    assert json.loads("{" + written.strip().rstrip(",").split("{", 1)[1].rsplit("}", 1)[0] + "}")["confidence"] == 0.7

"""Renaming a document's path, as a function of a view: every ref follows, or it is refused."""

import json

import pytest
from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.lsp.app import RequestRefused
from sourcecheck.lsp.features.rename import prepare_rename, rename
from tests.support.views import (
    URI,
    apply_workspace_edit,
    at,
    doc,
    fixture,
    per_encoding,
    range_text,
    same_for_every_encoding,
    view_of,
)

ORBIT = fixture("orbit-article")
ONE_LINE = json.dumps(json.loads(ORBIT), ensure_ascii=False)


def rename_at(view, position, new_name):
    return rename(view, types.RenameParams(text_document=doc(view.uri), position=position, new_name=new_name))


def prepare_at(view, position):
    return prepare_rename(view, types.PrepareRenameParams(text_document=doc(view.uri), position=position))


def test_renaming_a_document_path_moves_every_ref_with_it_and_changes_nothing_else():
    view = view_of(ORBIT)
    edit = rename_at(view, at(view, '"path": "release-notes"', 10), "notes-2.4")
    renamed = apply_workspace_edit(ORBIT, edit)
    assert renamed.count('"notes-2.4"') == 4 and '"release-notes"' not in renamed
    assert renamed.replace('"notes-2.4"', '"release-notes"') == ORBIT
    assert Analysis(renamed).findings == []


def test_renaming_from_a_ref_renames_the_document_too():
    view = view_of(ORBIT)
    edit = rename_at(view, at(view, '"path": "release-notes"', 10, after='"annotations"'), "notes")
    renamed = json.loads(apply_workspace_edit(ORBIT, edit))
    assert [d["path"] for d in renamed["documents"]] == ["article", "notes", "发布说明", "forum/thread-42"]


def test_a_rename_onto_an_existing_name_is_refused_with_a_message_naming_it():
    view = view_of(ORBIT)
    with pytest.raises(RequestRefused) as refused:
        rename_at(view, at(view, '"path": "release-notes"', 10), "发布说明")
    assert "'发布说明'" in refused.value.message and "already exists" in refused.value.message
    assert refused.value.code == -32803  # RequestFailed: the editor shows the message


def test_a_new_name_with_quotes_and_backslashes_is_written_as_a_json_string():
    view = view_of(ORBIT)
    name = 'a "q" \\ 🚀'
    renamed = json.loads(apply_workspace_edit(ORBIT, rename_at(view, at(view, '"path": "forum/thread-42"', 10), name)))
    assert renamed["documents"][3]["path"] == name
    assert renamed["annotations"][1]["sources"][2]["path"] == name


def test_a_rename_after_emoji_and_cjk_lands_on_every_path_in_every_encoding():
    def renamed(encoding):
        view = view_of(ONE_LINE, encoding=encoding)
        return apply_workspace_edit(ONE_LINE, rename_at(view, at(view, '"path": "发布说明"', 10), "说明🚀"), encoding)

    expected = ONE_LINE.replace('"发布说明"', '"说明🚀"')
    assert expected.count('"说明🚀"') == 4
    assert per_encoding(renamed) == same_for_every_encoding(expected)


def test_the_rename_is_versioned_when_the_client_tells_versions_apart():
    view = view_of(ORBIT, document_changes=True, version=42)
    edit = rename_at(view, at(view, '"path": "release-notes"', 10), "notes")
    (change,) = edit.document_changes
    assert (change.text_document.uri, change.text_document.version, len(change.edits)) == (URI, 42, 4)
    assert edit.changes is None
    plain = rename_at(view_of(ORBIT, version=42), at(view, '"path": "release-notes"', 10), "notes")
    assert plain.document_changes is None and len(plain.changes[URI]) == 4


def test_prepare_rename_selects_the_name_inside_its_quotes_in_every_encoding():
    def prepared(encoding):
        view = view_of(ONE_LINE, encoding=encoding)
        answer = prepare_at(view, at(view, '"path": "发布说明"', 10, after='"annotations"'))
        return answer.placeholder, range_text(ONE_LINE, answer.range, encoding)

    assert per_encoding(prepared) == same_for_every_encoding(("发布说明", "发布说明"))


def test_nothing_to_rename_away_from_a_path_or_on_a_path_naming_no_document():
    view = view_of(ORBIT)
    assert prepare_at(view, at(view, '"content"', 2)) is None
    assert rename_at(view, at(view, '"str": "cuts"', 9), "x") is None
    broken = view_of(fixture("broken/unknown-path"))
    assert prepare_at(broken, at(broken, '"reprot"', 2)) is None
    assert rename_at(view, at(view, '"path": "release-notes"', 10), "release-notes") is None  # the same name


def test_renaming_a_duplicated_path_renames_the_document_under_the_cursor():
    text = fixture("broken/duplicate-path")  # documents 2 and 3 are both "report"
    view = view_of(text)
    third = view.analysis.node(("documents", 2, "path"))
    position = view.position(third.start + 2)
    prepared = prepare_at(view, position)
    assert range_text(text, prepared.range) == "report"  # prepare offers the name under the cursor
    renamed = json.loads(apply_workspace_edit(text, rename_at(view, position, "report-2")))
    assert renamed["documents"][2]["path"] == "report-2"
    assert renamed["documents"][1]["path"] == "report"  # the document refs resolve against keeps its name
    assert renamed["annotations"] == json.loads(text)["annotations"]

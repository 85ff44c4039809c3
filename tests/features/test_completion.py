"""Completion, as a function of a view: what to write for path, polarity, line and str."""

import json

from lsprotocol import types

from sourcecheck.lsp.features.completion import complete
from tests.support.views import (
    apply_edits,
    doc,
    per_encoding,
    position_of,
    range_of,
    range_text,
    same_for_every_encoding,
    session_text,
    view_of,
)


def completion_session(claim_start=None, indent=2, content="intro\nthe cat and the dog and the cow"):
    start = {"line": 2, "str": "x"} if claim_start is None else claim_start
    return session_text(
        {
            "documents": [{"path": "article", "content": content}, {"path": "report", "content": "evidence here"}],
            "annotations": [
                {
                    "claim": {"path": "article", "start": start, "end": {"line": 2, "str": "cow"}},
                    "sources": [
                        {
                            "path": "report",
                            "start": {"line": 1, "str": "evidence"},
                            "end": {"line": 1, "str": "here"},
                            "polarity": "supports",
                            "confidence": 0.9,
                        }
                    ],
                }
            ],
        },
        indent,
    )


def items_at(view, offset):
    result = complete(
        view,
        types.CompletionParams(text_document=doc(view.uri), position=position_of(view.text, offset, view.encoding)),
    )
    assert result.is_incomplete is False
    return result.items


def after(text, needle, start_at=0):
    return text.index(needle, start_at) + len(needle)


def test_str_completion_offers_the_shortest_unique_strings_at_word_starts():
    text = completion_session({"line": 2, "str": ""})
    items = items_at(view_of(text), after(text, '"str": "'))
    assert [i.label for i in items] == [
        "the cat",
        "cat",
        "and the dog",
        "the dog",
        "dog",
        "and the cow",
        "the cow",
        "cow",
    ]
    assert items[0].label_details.description == "column 1"
    assert items[1].documentation.value == "the cat and the dog and the cow\n    ^^^"
    assert [i.sort_text for i in items] == sorted(i.sort_text for i in items)


def test_str_completion_for_end_offers_strings_that_end_a_word():
    text = completion_session().replace('"str": "cow"', '"str": "co"')
    labels = [i.label for i in items_at(view_of(text), after(text, '"str": "c', text.index('"end"')))]
    assert "cow" in labels and "cat" in labels
    assert "the" not in labels  # it ends a word, but not uniquely
    assert "and the cow" not in labels  # starts at a word start; the end side wants a word end only


def test_a_str_items_edit_replaces_only_the_inside_of_the_quotes():
    text = completion_session().replace('"str": "cow"', '"str": "co"')
    inside = after(text, '"str": "', text.index('"end"'))
    (cow,) = [i for i in items_at(view_of(text), inside + 1) if i.label == "cow"]
    assert cow.text_edit.range == range_of(text, inside, inside + 2)
    assert cow.text_edit.new_text == "cow"
    assert json.loads(apply_edits(text, [cow.text_edit]))["annotations"][0]["claim"]["end"]["str"] == "cow"


def test_completion_works_in_half_typed_json_with_no_closing_quote():
    text = completion_session()
    half = text[: after(text, '"str": "', text.index('"annotations"'))]  # `"str": "` and nothing after it
    items = items_at(view_of(half), len(half))
    assert [i.label for i in items][:2] == ["the cat", "cat"]
    assert items[0].text_edit.range == range_of(half, len(half), len(half))
    assert items[0].text_edit.new_text == "the cat"


def test_polarity_completion_works_in_half_typed_json():
    text = completion_session()
    half = text[: text.index('"polarity": "supports"')] + '"polarity": "'
    items = items_at(view_of(half), len(half))
    assert [(i.label, i.kind) for i in items] == [
        ("supports", types.CompletionItemKind.EnumMember),
        ("refutes", types.CompletionItemKind.EnumMember),
    ]
    assert items[1].detail == "the span directly contradicts the claim"


def test_a_value_typed_without_quotes_is_completed_as_a_whole_json_string():
    text = completion_session().replace('"polarity": "supports"', '"polarity": ')
    items = items_at(view_of(text), after(text, '"polarity": '))
    assert [i.text_edit.new_text for i in items] == ['"supports"', '"refutes"']


def test_a_completed_string_is_json_escaped_inside_its_quotes():
    text = completion_session({"line": 2, "str": ""}, content='intro\nsay "hi" to me, "hi" x')
    (item,) = [i for i in items_at(view_of(text), after(text, '"str": "')) if i.label == 'hi" to']
    assert item.text_edit.new_text == 'hi\\" to'
    fixed = apply_edits(text, [item.text_edit])
    assert json.loads(fixed)["annotations"][0]["claim"]["start"]["str"] == 'hi" to'


def test_path_completion_in_a_ref_offers_every_document_with_its_size():
    text = completion_session()
    items = items_at(view_of(text), after(text, '"path": "', text.index('"sources"')))
    assert [(i.label, i.kind) for i in items] == [
        ("article", types.CompletionItemKind.File),
        ("report", types.CompletionItemKind.File),
    ]
    assert items[0].detail == "2 lines" and items[1].detail.startswith("1 line")


def test_line_completion_lists_each_line_with_its_text():
    text = completion_session()
    items = items_at(view_of(text), after(text, '"line": ', text.index('"annotations"')))
    assert [(i.label, i.label_details.description) for i in items] == [
        ("1", "intro"),
        ("2", "the cat and the dog and the cow"),
    ]


def test_no_completion_outside_a_value_being_typed():
    text = completion_session()
    assert items_at(view_of(text), after(text, '"confidence": ')) == []
    assert items_at(view_of(text), 0) == []
    assert items_at(view_of(text), after(text, '"path": "')) == []  # a document's own path: nothing to pick from


def test_completion_after_emoji_and_cjk_replaces_the_same_text_in_every_encoding():
    value = {
        "documents": [{"path": "文档🚀", "content": "intro\n🚀 said then 中文"}, {"path": "r", "content": "e"}],
        "annotations": [
            {
                "claim": {"path": "文档🚀", "start": {"line": 2, "str": "sa"}, "end": {"line": 2, "str": "中文"}},
                "sources": [],
            }
        ],
    }
    text = session_text(value, indent=None)  # one line: every value after the emoji

    def replaced(encoding):
        view = view_of(text, encoding=encoding)
        items = {i.label: i for i in items_at(view, after(text, '"str": "s'))}
        paths = {i.label: i for i in items_at(view, after(text, '"path": "文', text.index('"annotations"')))}
        picked = json.loads(apply_edits(text, [paths["r"].text_edit], encoding))["annotations"][0]["claim"]["path"]
        return (
            sorted(items),
            range_text(text, items["said"].text_edit.range, encoding),
            range_text(text, paths["文档🚀"].text_edit.range, encoding),
            picked,
        )

    assert per_encoding(replaced) == same_for_every_encoding((["said", "then", "中文"], "sa", "文档🚀", "r"))

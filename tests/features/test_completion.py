"""Completion, as a function of a view: what to write for path, polarity, line and str."""

import json

from lsprotocol import types

from sourcecheck.lsp.features.completion import complete
from tests.core.test_skeletons import expand_snippet
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
    assert [i.detail for i in items] == ["intro", "the cat and the dog and the cow"]  # what Neovim's menu shows


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


# --- skeletons, keys and lines found by their words


def accept(text, item, encoding=None):
    """The text after the editor applies an item: its edit and the comma it adds, if any."""
    edits = [item.text_edit, *(item.additional_text_edits or [])]
    return apply_edits(text, edits) if encoding is None else apply_edits(text, edits, encoding)


def labelled(items, label):
    (found,) = [i for i in items if i.label == label]
    return found


def two_items(indent=2):
    """A session with two annotations (the second cites the report for a report claim)."""
    value = json.loads(completion_session())
    second = json.loads(json.dumps(value["annotations"][0]))
    second["claim"]["path"], second["sources"][0]["path"] = "report", "article"
    second["claim"]["start"], second["claim"]["end"] = {"line": 1, "str": "evidence"}, {"line": 1, "str": "here"}
    second["sources"][0]["start"], second["sources"][0]["end"] = (
        {"line": 1, "str": "intro"},
        {"line": 1, "str": "intro"},
    )
    value["annotations"].append(second)
    return session_text(value, indent)


def test_an_annotation_is_offered_between_two_annotations_and_accepted_as_it_is_it_resolves():
    text = two_items()
    between = text.index("},\n    {", text.index('"annotations"')) + len("},\n    ")
    text = text[:between] + "\n    " + text[between:]
    at = between + len("\n    ")
    item = labelled(items_at(view_of(text), at), "annotation")
    assert item.kind == types.CompletionItemKind.Snippet
    assert item.insert_text_format == types.InsertTextFormat.PlainText
    assert item.insert_text_mode == types.InsertTextMode.AsIs
    fixed = accept(text, item)
    new = json.loads(fixed)["annotations"][1]
    assert new == {
        "claim": {"path": "article", "start": {"line": 1, "str": "intro"}, "end": {"line": 1, "str": "intro"}},
        "sources": [
            {
                "path": "report",  # not the claim's document
                "start": {"line": 1, "str": "evidence"},
                "end": {"line": 1, "str": "evidence"},
                "polarity": "supports",
                "confidence": 0.7,
            }
        ],
    }
    findings = view_of(fixed).analysis.findings
    assert [f for f in findings if f.path[:2] == ("annotations", 1)] == []  # every ref of the skeleton resolves


def test_a_skeleton_is_written_in_the_file_s_indentation():
    for unit in (4, "\t"):
        text = completion_session(indent=unit)
        pad = " " * 8 if unit == 4 else "\t\t"  # an item of annotations is two levels in
        end = text.rindex("]")  # the end of annotations
        last = text.rindex("}", 0, end) + 1
        text = text[:last] + ",\n" + pad + text[last:]
        at = last + 2 + len(pad)
        fixed = accept(text, labelled(items_at(view_of(text), at), "annotation"))
        value = json.loads(fixed)
        assert len(value["annotations"]) == 2
        assert fixed == session_text(value, unit)  # exactly as json.dumps would indent it


def test_after_the_last_annotation_the_comma_before_the_new_one_is_added():
    text = completion_session()
    end = text.rindex("]")
    last = text.rindex("}", 0, end) + 1
    text = text[:last] + "\n  " + text[last:]  # on a new line after `}`, no comma typed
    item = labelled(items_at(view_of(text), last + 3), "annotation")
    (comma,) = item.additional_text_edits
    assert comma.new_text == "," and comma.range == range_of(text, last, last)
    assert len(json.loads(accept(text, item))["annotations"]) == 2


def test_right_after_an_annotation_s_brace_the_comma_opens_the_new_one():
    text = completion_session()
    end = text.rindex("]")
    last = text.rindex("}", 0, end) + 1
    item = labelled(items_at(view_of(text), last), "annotation")
    assert item.additional_text_edits is None
    assert item.text_edit.new_text.startswith(",\n    {")  # on a line of its own, as the item before
    assert len(json.loads(accept(text, item))["annotations"]) == 2


def test_in_an_empty_annotations_array_the_annotation_goes_on_lines_of_its_own():
    text = session_text({"documents": [{"path": "a", "content": "one two"}], "annotations": []})
    at = after(text, '"annotations": [')
    fixed = accept(text, labelled(items_at(view_of(text), at), "annotation"))
    assert fixed == session_text(json.loads(fixed))
    source = json.loads(fixed)["annotations"][0]["sources"][0]
    assert source["path"] == "a" and source["start"] == {"line": 1, "str": "one"}  # the only document


def test_a_brace_typed_in_annotations_is_replaced_by_an_annotation():
    text = completion_session()
    start = after(text, '"annotations": [')
    for typed in ("{}", "{"):  # closed by the editor or not
        half = text[:start] + "\n    " + typed + text[start:]
        at = start + len("\n    {")
        item = labelled(items_at(view_of(half), at), "annotation")
        assert range_text(half, item.text_edit.range) == typed
        assert item.filter_text == "{annotation"
        assert len(json.loads(accept(half, item))["annotations"]) == 2


def test_a_word_typed_in_annotations_finds_the_annotation_and_is_replaced():
    text = completion_session()
    start = after(text, '"annotations": [')
    half = text[:start] + "\n    ann" + text[start:]
    item = labelled(items_at(view_of(half), start + len("\n    ann")), "annotation")
    assert range_text(half, item.text_edit.range) == "ann"
    assert len(json.loads(accept(half, item))["annotations"]) == 2


def test_a_source_is_offered_in_sources_citing_a_document_that_is_not_the_claim_s():
    text = completion_session()
    at = after(text, '"sources": [')
    items = items_at(view_of(text), at)
    assert [i.label for i in items] == ["source"]
    sources = json.loads(accept(text, items[0]))["annotations"][0]["sources"]
    assert sources[0]["path"] == "report" and sources[0]["confidence"] == 0.7 and len(sources) == 2


def test_a_ref_is_offered_after_claim_in_half_typed_json():
    text = completion_session()
    half = text[: after(text, '"claim": ')]  # the file ends there
    item = labelled(items_at(view_of(half), len(half)), "ref")
    assert item.text_edit.range == range_of(half, len(half), len(half))
    written = item.text_edit.new_text
    assert json.loads(written) == {
        "path": "article",
        "start": {"line": 1, "str": "intro"},
        "end": {"line": 1, "str": "intro"},
    }
    assert written.endswith("\n      }")  # closed at the depth of the claim's line


def test_a_ref_typed_before_the_next_key_gets_the_comma_between_them():
    text = completion_session()
    claim = text.index('"claim": ') + len('"claim": ')
    rest = text.index('"sources"')
    half = text[:claim] + "\n      " + text[rest:]  # `"claim": ` then, on the next line, "sources"
    item = labelled(items_at(view_of(half), claim), "ref")
    fixed = json.loads(accept(half, item))
    assert fixed["annotations"][0]["claim"]["path"] == "article"
    assert fixed["annotations"][0]["sources"][0]["path"] == "report"


def test_a_boundary_is_offered_after_start_on_the_ref_s_own_document():
    text = completion_session()
    start = text.index('"start"', text.index('"sources"'))
    end = text.index("}", start) + 1
    half = text[:start] + '"start": ' + text[end:]
    at = start + len('"start": ')
    item = labelled(items_at(view_of(half), at), "boundary")
    fixed = json.loads(accept(half, item))
    assert fixed["annotations"][0]["sources"][0]["start"] == {"line": 1, "str": "evidence"}  # the report's word


def test_snippets_only_for_a_client_that_takes_them():
    text = completion_session()
    at = after(text, '"sources": [')
    plain = items_at(view_of(text), at)[0]
    snippet = items_at(view_of(text, snippets=True), at)[0]
    assert "${" not in plain.text_edit.new_text
    assert plain.insert_text_format == types.InsertTextFormat.PlainText
    assert snippet.insert_text_format == types.InsertTextFormat.Snippet
    assert '"path": "${1:report}"' in snippet.text_edit.new_text
    assert '"polarity": "${6:supports}"' in snippet.text_edit.new_text
    assert '"confidence": ${7:0.7}' in snippet.text_edit.new_text
    expanded, _ = expand_snippet(snippet.text_edit.new_text)
    assert expanded == plain.text_edit.new_text


def test_a_snippet_escapes_what_the_snippet_grammar_reserves_in_a_path():
    text = completion_session().replace('"article"', '"a$1}\\\\b"')  # the document a$1}\b, JSON-escaped
    at = after(text, '"annotations": [')
    item = labelled(items_at(view_of(text, snippets=True), at), "annotation")
    assert '"path": "${1:a\\$1\\}\\\\\\\\b}"' in item.text_edit.new_text  # JSON's \\, then the snippet's escapes
    expanded, stops = expand_snippet(item.text_edit.new_text)
    assert stops[0] == (1, "a$1}\\\\b")
    assert json.loads(text[:at] + expanded + text[at:])["annotations"][0]["claim"]["path"] == "a$1}\\b"


def test_in_a_compact_file_a_skeleton_is_one_line():
    text = completion_session(indent=None)
    at = after(text, '"annotations": [')
    item = labelled(items_at(view_of(text), at), "annotation")
    assert "\n" not in item.text_edit.new_text and item.text_edit.new_text.endswith("}]},")
    assert len(json.loads(accept(text, item))["annotations"]) == 2


def test_key_completion_offers_only_the_keys_a_source_lacks_each_with_a_value():
    text = completion_session()
    polarity = text.index('"polarity"')
    half = text[:polarity] + text[text.index("\n", text.index('"confidence"')) :]  # no polarity, no confidence
    at = polarity
    items = items_at(view_of(half), at)
    assert [(i.label, i.kind) for i in items] == [
        ("polarity", types.CompletionItemKind.Property),
        ("confidence", types.CompletionItemKind.Property),
    ]
    assert items[0].text_edit.new_text == '"polarity": "supports"'
    assert items[1].detail == "0.7"
    fixed = json.loads(accept(half, items[1]))  # the comma after `end` comes with it
    assert fixed["annotations"][0]["sources"][0]["confidence"] == 0.7


def test_key_completion_in_a_ref_a_boundary_and_an_annotation():
    text = completion_session()
    end = text.index('"end"')
    claim_end = text.index("}", end) + 1
    no_end = text[: text.rindex(",", 0, end)] + text[claim_end:]
    at = text.rindex("}", 0, end) + 1  # right after start's `}`
    items = items_at(view_of(no_end), at)
    assert [i.label for i in items] == ["end"]
    assert json.loads(accept(no_end, items[0]))["annotations"][0]["claim"]["end"] == {"line": 1, "str": "intro"}
    line = after(text, '"line": 2')
    no_str = text[:line] + ", " + text[text.index("}", line) :]
    items = items_at(view_of(no_str), line + 2)
    assert [i.label for i in items] == ["str"]
    assert items[0].text_edit.new_text == '"str": "the cat"'  # the first unique word of the written line 2
    claim = text.index('"claim"')
    empty = text[:claim] + text[text.index('"sources"') :]
    assert [i.label for i in items_at(view_of(empty), claim)] == ["claim"]


def test_a_key_typed_in_quotes_is_replaced_by_the_key_and_its_value_in_half_typed_json():
    text = completion_session()
    polarity = text.index('"polarity"')
    half = text[:polarity] + '"pol'  # the file ends there
    items = items_at(view_of(half), len(half))
    assert [i.label for i in items] == ["polarity", "confidence"]
    assert range_text(half, items[0].text_edit.range) == '"pol'
    assert items[0].filter_text == '"polarity"'
    closed = text[:polarity] + '"pol": \n' + text[text.index('"confidence"') :]
    item = items_at(view_of(closed), polarity + 3)[0]
    assert range_text(closed, item.text_edit.range) == '"pol": '  # the colon too: the key brings its own
    assert json.loads(accept(closed, item))["annotations"][0]["sources"][0]["polarity"] == "supports"


def test_a_bare_word_where_a_key_goes_is_replaced_by_the_key():
    text = completion_session()
    text = text.replace(',\n          "confidence": 0.9', "")
    polarity = text.index('"polarity"')
    half = text[:polarity] + "conf\n          " + text[polarity:]
    items = items_at(view_of(half), polarity + 4)
    assert [i.label for i in items] == ["confidence"]  # polarity is there already
    assert json.loads(accept(half, items[0]))["annotations"][0]["sources"][0]["confidence"] == 0.7


def test_no_key_is_offered_where_a_value_goes_or_outside_annotations():
    text = completion_session().replace('"confidence": 0.9', '"confidence": ')
    assert items_at(view_of(text), after(text, '"confidence": ')) == []
    in_document = after(text, '"content": "intro\\nthe cat and the dog and the cow"')
    assert items_at(view_of(text), in_document + 1) == []
    assert items_at(view_of(text), after(text, '"path": "article"')) == []  # at the end of a value


def test_line_completion_can_be_filtered_by_the_words_of_each_line():
    text = completion_session()
    items = items_at(view_of(text), after(text, '"line": ', text.index('"annotations"')))
    assert [(i.filter_text, i.text_edit.new_text, i.sort_text) for i in items] == [
        ("1 intro", "1", "00000001"),
        ("2 the cat and the dog and the cow", "2", "00000002"),
    ]


def test_words_typed_where_a_line_number_goes_are_replaced_by_the_number_of_the_line():
    text = completion_session()
    line = text.index('"line": 2', text.index('"annotations"')) + len('"line": ')
    half = text[:line] + "dog" + text[line + 1 :]
    items = items_at(view_of(half), line + len("dog"))
    found = [i for i in items if "dog" in i.filter_text]
    assert [i.label for i in found] == ["2"]
    assert range_text(half, found[0].text_edit.range) == "dog"
    assert json.loads(accept(half, found[0]))["annotations"][0]["claim"]["start"]["line"] == 2


def test_a_list_of_one_source_is_offered_after_sources_citing_another_document_than_the_claim():
    text = completion_session()
    half = text[: after(text, '"sources": ')]  # the file ends there
    item = labelled(items_at(view_of(half), len(half)), "sources")
    (source,) = json.loads(item.text_edit.new_text)
    assert source["path"] == "report" and source["polarity"] == "supports" and source["confidence"] == 0.7
    assert source["start"] == source["end"] == {"line": 1, "str": "evidence"}

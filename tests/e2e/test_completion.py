"""Typing refs fast, end to end over LSP with both client profiles: whole skeletons, the
keys an object lacks, and a line found by a word of its text."""

import json

from lsprotocol import types
from pytest_lsp import client_capabilities

from tests.core.test_skeletons import expand_snippet
from tests.support.lsp_support import session_text, started

SESSION = {
    "documents": [
        {"path": "article", "content": "Orbit ships today.\nIt cuts cold-start latency by 37% in our tests."},
        {"path": "bench", "content": "cold start p50: 820ms -> 517ms (delta -37%)"},
    ],
    "annotations": [
        {
            "claim": {"path": "article", "start": {"line": 2, "str": "cuts"}, "end": {"line": 2, "str": "37%"}},
            "sources": [
                {
                    "path": "bench",
                    "start": {"line": 1, "str": "cold"},
                    "end": {"line": 1, "str": "-37%"},
                    "polarity": "supports",
                    "confidence": 0.95,
                }
            ],
        }
    ],
}


async def complete(editor, uri, offset):
    result = await editor.client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=editor.position(editor.texts[uri], offset)
        )
    )
    return result.items


def accepted(editor, uri, item):
    """Accept ``item`` as the editor does: expand the snippet (every placeholder kept as it
    is), apply its edit and the comma it adds, and send the new text."""
    text = editor.texts[uri]
    new_text = item.text_edit.new_text
    if item.insert_text_format == types.InsertTextFormat.Snippet:
        new_text, _ = expand_snippet(new_text)
    edits = [(item.text_edit.range, new_text)] + [(e.range, e.new_text) for e in item.additional_text_edits or []]
    spans = sorted(((editor.offset(text, r.start), editor.offset(text, r.end), t) for r, t in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    editor.replace_all(uri, text)
    return text


def labelled(items, label):
    (found,) = [i for i in items if i.label == label]
    return found


async def test_an_annotation_skeleton_accepted_is_a_new_annotation_whose_refs_all_resolve(editor):
    uri = "file:///skeleton.sourcecheck.json"
    text = session_text(SESSION)
    last = text.rindex("}", 0, text.rindex("]")) + 1  # after the one annotation, no comma typed
    text = text[:last] + "\n    " + text[last:]
    editor.open(uri, text)
    item = labelled(await complete(editor, uri, last + len("\n    ")), "annotation")
    assert item.insert_text_format == types.InsertTextFormat.Snippet  # both profiles take snippets
    assert "${1:article}" in item.text_edit.new_text
    value = json.loads(accepted(editor, uri, item))
    assert value["annotations"][1]["claim"]["start"] == {"line": 1, "str": "Orbit"}
    assert value["annotations"][1]["sources"][0]["path"] == "bench"  # not the claim's document
    assert [d.message for d in await editor.diagnostics(uri)] == []


async def test_the_keys_a_source_lacks_are_offered_and_one_accepted_completes_it(editor):
    uri = "file:///keys.sourcecheck.json"
    text = session_text(SESSION)
    polarity = text.index('"polarity"')
    text = text[:polarity] + text[text.index("\n", text.index('"confidence"')) + 1 :]  # neither is there
    text = text[:polarity] + "\n" + text[polarity:]
    editor.open(uri, text)
    items = await complete(editor, uri, polarity)
    assert [(i.label, i.kind) for i in items] == [
        ("polarity", types.CompletionItemKind.Property),
        ("confidence", types.CompletionItemKind.Property),
    ]
    accepted(editor, uri, items[0])
    at = editor.texts[uri].index("\n", editor.texts[uri].index('"polarity"'))
    editor.edit(uri, at, at, "\n          ")  # a new line after it, no comma typed
    (confidence,) = await complete(editor, uri, at + 11)  # polarity is there now: only confidence is left
    assert confidence.label == "confidence" and len(confidence.additional_text_edits) == 1
    value = json.loads(accepted(editor, uri, confidence))
    assert value["annotations"][0]["sources"][0] == {**SESSION["annotations"][0]["sources"][0], "confidence": 0.7}
    assert [d.message for d in await editor.diagnostics(uri)] == []


async def test_a_line_is_found_by_a_word_of_its_text_and_written_as_its_number(editor):
    uri = "file:///lines.sourcecheck.json"
    text = session_text(SESSION)
    line = text.index('"line": 2', text.index('"annotations"')) + len('"line": ')
    text = text[:line] + "latency" + text[line + 1 :]
    editor.open(uri, text)
    items = await complete(editor, uri, line + len("latency"))
    assert [i.label for i in items] == ["1", "2"]
    assert [i.label for i in items if "latency" in i.filter_text] == ["2"]
    assert [i.sort_text for i in items] == sorted(i.sort_text for i in items)
    found = items[1]
    assert editor.range_text(uri, found.text_edit.range) == "latency"
    value = json.loads(accepted(editor, uri, found))
    assert value["annotations"][0]["claim"]["start"] == {"line": 2, "str": "cuts"}


async def test_a_client_without_snippets_gets_plain_json_that_is_valid_as_it_is():
    capabilities = client_capabilities("neovim@v0.11")
    capabilities.text_document.completion.completion_item.snippet_support = False
    async with started(capabilities) as editor:
        uri = "file:///plain.sourcecheck.json"
        text = session_text(SESSION)
        at = text.index('"sources": [') + len('"sources": [')
        editor.open(uri, text)
        (item,) = await complete(editor, uri, at)
        assert item.label == "source"
        assert item.insert_text_format == types.InsertTextFormat.PlainText and "${" not in item.text_edit.new_text
        value = json.loads(accepted(editor, uri, item))
        assert value["annotations"][0]["sources"][0]["start"] == {"line": 1, "str": "cold"}
        assert value["annotations"][0]["sources"][0]["confidence"] == 0.7

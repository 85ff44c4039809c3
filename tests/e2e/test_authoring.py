"""Authoring and reviewing: hints, definition, highlight, references, completion, rename,
outline, code lens and configuration, end to end over LSP with both client profiles."""

import asyncio
import json

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.support.lsp_support import FIXTURES, session_text

ARTICLE = FIXTURES / "orbit-article.sourcecheck.json"


def open_article(editor):
    uri, text = ARTICLE.as_uri(), ARTICLE.read_text(encoding="utf-8")
    editor.open(uri, text)
    return uri, text


def doc_id(uri):
    return types.TextDocumentIdentifier(uri=uri)


def whole(editor, uri):
    text = editor.texts[uri]
    return editor.range_of(uri, 0, len(text))


def in_annotations(text, needle, after=0):
    return text.index(needle, text.index('"annotations"') + after)


async def hints(editor, uri, rng=None):
    return list(
        await editor.client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=doc_id(uri), range=rng or whole(editor, uri))
        )
        or []
    )


# --- inlay hints


async def test_inlay_hints_show_the_cited_text_after_each_valid_ref(editor):
    uri, text = open_article(editor)
    found = await hints(editor, uri)
    assert len(found) == 11  # every ref of the fixture resolves
    labels = [h.label for h in found]
    assert labels[0] == '"cuts cold-start latency by 37%"'
    assert labels[1] == '✓ 0.95 "cold start p50 … to 517ms (-37%)"'  # both ends of a long text
    assert labels[4] == '✓ 0.8 "Scheduler: frames … nominal load."'
    assert labels[5] == '✗ 0.9 "调度器在高负载下仍可能丢帧 ⚠️"'
    # Each sits just after its ref's closing brace.
    claim_end = text.index("}\n      },", in_annotations(text, '"claim"')) + len("}\n      }")
    assert found[0].position == editor.position(text, claim_end)


async def test_inlay_hints_cover_only_the_requested_range_and_skip_invalid_refs(editor):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    uri, text = path.as_uri(), path.read_text()
    editor.open(uri, text)
    assert [h.label for h in await hints(editor, uri)] == ['✓ 0.9 "outcome of the trial was positive"']
    first_half = editor.range_of(uri, 0, text.index('"sources"'))
    assert await hints(editor, uri, first_half) == []


async def test_inlay_hints_escape_newlines_and_control_characters(editor):
    value = {
        "documents": [{"path": "d", "content": "one\ttwo\nthree\u202e four"}, {"path": "e", "content": "x"}],
        "annotations": [
            {
                "claim": {"path": "d", "start": {"line": 1, "str": "one"}, "end": {"line": 2, "str": "four"}},
                "sources": [
                    {
                        "path": "e",
                        "start": {"line": 1, "str": "x"},
                        "end": {"line": 1, "str": "x"},
                        "polarity": "refutes",
                        "confidence": 1,
                    }
                ],
            }
        ],
    }
    uri = "file:///ctl.sourcecheck.json"
    editor.open(uri, session_text(value))
    labels = [h.label for h in await hints(editor, uri)]
    assert labels == ['"one\\ttwo\\nthree\\u202e four"', '✗ 1 "x"']


async def test_a_changed_setting_takes_effect_without_a_restart(fresh_editor):
    editor = fresh_editor
    client = editor.client
    uri, _ = open_article(editor)
    client.set_configuration({"inlayHints": {"maxLength": 10}}, section="sourcecheck")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(100):
        labels = [h.label for h in await hints(editor, uri)]
        if labels[0] == '"cut … 37%"':
            break
        await asyncio.sleep(0.02)
    assert labels[0] == '"cut … 37%"'  # 10 characters: both ends
    client.set_configuration({"inlayHints": {"enabled": False}, "codeLens": {"enabled": False}}, section="sourcecheck")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(100):
        if not await hints(editor, uri):
            break
        await asyncio.sleep(0.02)
    assert await hints(editor, uri) == []
    assert list(await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri)))) == []


# --- definition, highlight, references


async def test_go_to_definition_lands_on_the_cited_characters_through_escapes(editor, client):
    uri, text = open_article(editor)
    at = in_annotations(text, '"the new scheduler"') + 3
    location = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(uri), position=editor.position(text, at))
    )
    raw = editor.range_text(uri, location.range)
    assert raw == 'the new scheduler \\"never drops a frame\\"'
    assert json.loads('"' + raw + '"') == 'the new scheduler "never drops a frame"'
    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(text_document=doc_id(uri), position=editor.position(text, at))
    )
    assert [h.range for h in highlights] == [location.range]


async def test_definition_of_a_cjk_and_emoji_span(editor, client):
    uri, text = open_article(editor)
    at = in_annotations(text, '"调度器"') + 2
    location = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(uri), position=editor.position(text, at))
    )
    assert editor.range_text(uri, location.range) == "调度器在高负载下仍可能丢帧 ⚠️"


async def find_references(editor, uri, offset, include=True):
    return await editor.client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc_id(uri),
            position=editor.position(editor.texts[uri], offset),
            context=types.ReferenceContext(include_declaration=include),
        )
    )


async def test_references_from_a_passage_of_content_are_the_refs_citing_it(editor):
    uri, text = open_article(editor)
    at = text.index("517ms (-37%)")  # inside release-notes line 3, cited by one source
    locations = await find_references(editor, uri, at)
    assert len(locations) == 1
    assert '"cold start"' in editor.range_text(uri, locations[0].range)
    at = text.index("内存占用")  # cited by a source of annotation 2; "冷启动…37%" stops before it
    cited = [editor.range_text(uri, loc.range) for loc in await find_references(editor, uri, at)]
    assert len(cited) == 1 and '"内存"' in cited[0]


async def test_references_from_a_document_path_are_every_ref_into_it(editor):
    uri, text = open_article(editor)
    locations = await find_references(editor, uri, text.index('"path": "发布说明"') + 10)
    assert len(locations) == 3
    assert all('"发布说明"' in editor.range_text(uri, loc.range) for loc in locations)


async def test_references_from_a_claim_are_its_sources(editor):
    uri, text = open_article(editor)
    at = in_annotations(text, '"the new scheduler"')
    assert len(await find_references(editor, uri, at, include=False)) == 3
    assert len(await find_references(editor, uri, at, include=True)) == 4


# --- completion


async def complete(editor, uri, offset):
    result = await editor.client.text_document_completion_async(
        types.CompletionParams(text_document=doc_id(uri), position=editor.position(editor.texts[uri], offset))
    )
    return result.items


def completion_session(**claim_start):
    start = {"line": 2, "str": "x"}
    start.update(claim_start)
    return session_text(
        {
            "documents": [
                {"path": "article", "content": "intro\nthe cat and the dog and the cow"},
                {"path": "report", "content": "evidence here"},
            ],
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
        }
    )


async def test_str_completion_offers_the_shortest_unique_strings_at_word_starts(editor):
    uri = "file:///c.sourcecheck.json"
    text = completion_session(str="")
    editor.open(uri, text)
    at = text.index('"str": ""') + len('"str": "')
    items = await complete(editor, uri, at)
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
    assert items[0].text_edit.new_text == "the cat"
    assert items[0].text_edit.range == editor.range_of(uri, at, at)


async def test_str_completion_for_end_offers_strings_ending_a_word(editor):
    uri = "file:///e.sourcecheck.json"
    text = completion_session().replace('"str": "cow"', '"str": "co"')
    editor.open(uri, text)
    at = text.index('"str": "co"') + len('"str": "c')
    items = await complete(editor, uri, at)
    labels = [i.label for i in items]
    assert "cow" in labels and "cat" in labels and "the" not in labels
    (cow,) = [i for i in items if i.label == "cow"]
    start = text.index('"str": "co"') + len('"str": "')
    assert cow.text_edit.range == editor.range_of(uri, start, start + 2)


async def test_path_polarity_and_line_completion(editor):
    uri = "file:///p.sourcecheck.json"
    text = completion_session()
    editor.open(uri, text)
    at = in_annotations(text, '"path": "report"') + len('"path": "')
    assert [i.label for i in await complete(editor, uri, at)] == ["article", "report"]
    at = text.index('"polarity": "supports"') + len('"polarity": "')
    assert [i.label for i in await complete(editor, uri, at)] == ["supports", "refutes"]
    at = in_annotations(text, '"line": 2') + len('"line": ')
    items = await complete(editor, uri, at)
    assert [(i.label, i.label_details.description) for i in items] == [
        ("1", "intro"),
        ("2", "the cat and the dog and the cow"),
    ]


async def test_completion_works_in_half_typed_json(editor):
    uri = "file:///half.sourcecheck.json"
    text = completion_session()
    cut = in_annotations(text, '"str": "x"') + len('"str": "')
    half = text[:cut]  # the author is typing start.str of the claim; nothing after it yet
    editor.open(uri, half)
    labels = [i.label for i in await complete(editor, uri, len(half))]
    assert labels[:2] == ["the cat", "cat"]
    half_key = text[: text.index('"polarity": "supports"')] + '"polarity": "'
    editor.open("file:///half2.sourcecheck.json", half_key)
    assert [i.label for i in await complete(editor, "file:///half2.sourcecheck.json", len(half_key))] == [
        "supports",
        "refutes",
    ]


# --- rename


async def rename(editor, uri, offset, name):
    position = editor.position(editor.texts[uri], offset)
    return await editor.client.text_document_rename_async(
        types.RenameParams(text_document=doc_id(uri), position=position, new_name=name)
    )


async def test_renaming_a_document_path_moves_every_ref_with_it(editor, client):
    uri, text = open_article(editor)
    at = text.index('"path": "release-notes"') + 10
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc_id(uri), position=editor.position(text, at))
    )
    assert prepared.placeholder == "release-notes"
    assert editor.range_text(uri, prepared.range) == "release-notes"
    edit = await rename(editor, uri, at, "notes-2.4")
    editor.apply(uri, edit)
    renamed = editor.texts[uri]
    assert renamed.count('"notes-2.4"') == 4 and '"release-notes"' not in renamed
    assert renamed.replace('"notes-2.4"', '"release-notes"') == text  # nothing else changed, byte for byte
    assert await editor.diagnostics(uri) == []
    # And from a ref to it.
    at = in_annotations(renamed, '"path": "notes-2.4"') + 10
    editor.apply(uri, await rename(editor, uri, at, "notes"))
    assert editor.texts[uri].count('"notes"') == 4


async def test_renaming_onto_an_existing_path_is_refused(editor):
    uri, text = open_article(editor)
    with pytest.raises(JsonRpcException):
        await rename(editor, uri, text.index('"path": "release-notes"') + 10, "article")


# --- outline and code lens


async def test_the_outline_lists_documents_and_annotations_with_their_sources(editor, client):
    uri, _ = open_article(editor)
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc_id(uri)))
    documents, annotations = symbols
    assert (documents.name, documents.detail) == ("Documents", "4")
    assert [(d.name, d.detail) for d in documents.children] == [
        ("article", "7 lines"),
        ("release-notes", "5 lines"),
        ("发布说明", "3 lines"),
        ("forum/thread-42", "3 lines"),
    ]
    assert annotations.children[1].name == 'the new scheduler "never drops a frame"'
    assert [c.name for c in annotations.children[1].children] == [
        "supports: Scheduler: frames are never dropped under nominal load.",
        "refutes: 调度器在高负载下仍可能丢帧 ⚠️",
        "refutes: It dropped 3 frames per minute on my laptop under heavy loa…",
    ]


async def code_lenses(client, uri):
    """The lenses of a file, each resolved as an editor resolves those it shows."""
    lenses = list(await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc_id(uri))))
    return [lens if lens.command else await client.code_lens_resolve_async(lens) for lens in lenses]


def listed(editor, uri, lens):
    """The text of the session file each location of a ``sourcecheck.showReferences`` lens
    selects, read in the negotiated encoding."""
    session_uri, position, locations = lens.command.arguments
    assert session_uri == uri and position == {"line": lens.range.start.line, "character": lens.range.start.character}
    assert all(location["uri"] == uri for location in locations)
    return [
        editor.range_text(
            uri,
            types.Range(
                start=types.Position(**location["range"]["start"]), end=types.Position(**location["range"]["end"])
            ),
        )
        for location in locations
    ]


async def test_code_lens_gives_verdicts_citations_and_uncited_passages(editor, client):
    uri, text = open_article(editor)
    lenses = await code_lenses(client, uri)
    assert [lens.command.title for lens in lenses] == [
        "cited by 4 refs",
        "4 uncited passages (62%)",
        "open as text",
        "cited by 3 refs",
        "open as text",
        "cited by 3 refs",
        "open as text",
        "cited by 1 ref",
        "open as text",
        "supported: 2 supports (max 0.95)",
        "contested: 1 supports (max 0.8) · 2 refutes (max 0.9)",
        "supported: 1 supports (max 0.9)",
        "supported: 1 supports (max 0.95)",
    ]
    assert {lens.command.command for lens in lenses} == {"sourcecheck.showReferences", "sourcecheck.openDocumentView"}


async def test_code_lens_locations_select_exactly_the_refs_and_the_uncited_text(editor, client):
    value = json.loads(ARTICLE.read_text(encoding="utf-8"))
    text = json.dumps(value, ensure_ascii=False)  # one line: every location after CJK and emoji
    uri = "file:///one-line.sourcecheck.json"
    editor.open(uri, text)
    lenses = await code_lenses(client, uri)
    by_title = {lens.command.title: lens for lens in reversed(lenses)}  # the first of each title

    def citing(path):
        return [r for a in value["annotations"] for r in [a["claim"], *a["sources"]] if r["path"] == path]

    assert [json.loads(t) for t in listed(editor, uri, by_title["cited by 4 refs"])] == citing("article")
    assert [json.loads(t) for t in listed(editor, uri, by_title["cited by 1 ref"])] == citing("forum/thread-42")
    contested = by_title["contested: 1 supports (max 0.8) · 2 refutes (max 0.9)"]
    assert [json.loads(t) for t in listed(editor, uri, contested)] == value["annotations"][1]["sources"]
    article = value["documents"][0]["content"]
    uncited = by_title["4 uncited passages (62%)"]
    # in the document's view: a list shows the document's line and text, not a JSON line
    (view,) = {location["uri"] for location in uncited.command.arguments[2]}
    shown = await client.workspace_text_document_content_async(types.TextDocumentContentParams(uri=view))
    assert shown.text == article
    editor.texts[view] = shown.text
    passages = [
        editor.range_text(view, types.Range(start=types.Position(**r["start"]), end=types.Position(**r["end"])))
        for r in (location["range"] for location in uncited.command.arguments[2])
    ]
    assert passages == [
        "# Orbit 2.4: faster starts, fewer surprises 🚀\n\nOrbit 2.4 ",
        " on the reference benchmark.\nThe team says ",
        ", a claim the forum disputes.\nIn Shanghai the release notes were published as 《轨道 2.4 发布说明》 "
        "on the same day.\n",
        " for the default profile.\nSupport for the ",
    ]
    assert all(passage in article for passage in passages)


async def test_no_code_lens_carries_an_empty_command(editor, client):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    uri, text = path.as_uri(), path.read_text()
    editor.open(uri, text)
    lenses = await code_lenses(client, uri)
    assert all(lens.command is not None and lens.command.command for lens in lenses)
    assert lenses[-1].command.title == "unresolved: the claim does not resolve"
    (source,) = listed(editor, uri, lenses[-1])
    assert json.loads(source) == json.loads(text)["annotations"][0]["sources"][0]

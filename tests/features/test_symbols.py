"""The outline, as a function of a view: documents, then annotations with their sources."""

import json

from lsprotocol import types

from sourcecheck.lsp.features.symbols import document_symbols
from tests.support.views import doc, fixture, per_encoding, range_text, same_for_every_encoding, view_of

ORBIT = fixture("orbit-article")


def outline(view):
    return document_symbols(view, types.DocumentSymbolParams(text_document=doc(view.uri)))


def test_the_outline_lists_documents_with_their_line_counts():
    documents, _ = outline(view_of(ORBIT))
    assert (documents.name, documents.detail, documents.kind) == ("Documents", "4", types.SymbolKind.Module)
    assert [(d.name, d.detail, d.kind) for d in documents.children] == [
        ("article", "7 lines", types.SymbolKind.File),
        ("release-notes", "5 lines", types.SymbolKind.File),
        ("发布说明", "3 lines", types.SymbolKind.File),
        ("forum/thread-42", "3 lines", types.SymbolKind.File),
    ]


def test_a_final_line_break_ends_the_last_line_and_adds_none_to_the_count():
    text = json.dumps(
        {
            "documents": [
                {"path": "ends-with-a-break", "content": "one\ntwo\n"},
                {"path": "without", "content": "one\ntwo"},
                {"path": "nothing", "content": ""},
            ],
            "annotations": [],
        }
    )
    documents, _ = outline(view_of(text))
    assert [d.detail for d in documents.children] == ["2 lines", "2 lines", "empty"]


def test_annotations_are_named_by_their_claim_with_sources_as_children():
    _, annotations = outline(view_of(ORBIT))
    assert (annotations.name, annotations.detail) == ("Annotations", "4")
    contested = annotations.children[1]
    assert (contested.name, contested.detail, contested.kind) == (
        'the new scheduler "never drops a frame"',
        "article",
        types.SymbolKind.Event,
    )
    assert [(c.name, c.detail) for c in contested.children] == [
        ("supports: Scheduler: frames are never dropped under nominal load.", "release-notes · 0.8"),
        ("refutes: 调度器在高负载下仍可能丢帧 ⚠️", "发布说明 · 0.9"),
        (
            "refutes: It dropped 3 frames per minute on my laptop under heavy loa…",
            "forum/thread-42 · 0.4",
        ),  # shortened to 60
    ]


def test_a_ref_that_does_not_resolve_is_named_so():
    _, annotations = outline(view_of(fixture("broken/boundary-not-found")))
    (annotation,) = annotations.children
    assert [c.name for c in annotation.children] == ["supports: (does not resolve)"]


def test_symbol_ranges_select_their_json_values_in_every_encoding():
    text = json.dumps(json.loads(ORBIT), ensure_ascii=False)  # one line: every value after emoji

    def selected(encoding):
        documents, annotations = outline(view_of(text, encoding=encoding))
        names = [range_text(text, d.selection_range, encoding) for d in documents.children]
        document = json.loads(range_text(text, documents.children[2].range, encoding))["path"]
        source = json.loads(range_text(text, annotations.children[1].children[1].range, encoding))["end"]["str"]
        claim = json.loads(range_text(text, annotations.children[2].selection_range, encoding))["end"]["str"]
        return names, document, source, claim

    expected = (['"article"', '"release-notes"', '"发布说明"', '"forum/thread-42"'], "发布说明", "丢帧 ⚠️", "📉")
    assert per_encoding(selected) == same_for_every_encoding(expected)


def test_the_cli_shape_finds_documents_under_session():
    text = fixture("worked-example")
    documents, annotations = outline(view_of(text))
    assert [d.name for d in documents.children] == ["article", "bench"]
    assert range_text(text, documents.range).startswith('[\n      {\n        "path": "article"')
    assert annotations.children[0].name == "37%"

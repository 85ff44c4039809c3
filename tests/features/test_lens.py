"""Code lens, as a function of a view: a verdict above each annotation; above each document
who cites it, what no claim cites, and a way to open it as text. Every lens runs a command."""

import json

import pytest
from lsprotocol import types

from sourcecheck.lsp.app import parse_view_uri
from sourcecheck.lsp.features.lens import OPEN_VIEW, SHOW_REFERENCES, code_lenses, resolve
from tests.support.helpers import claim, session, source
from tests.support.oracle import review
from tests.support.views import (
    ENCODINGS,
    doc,
    fixture,
    per_encoding,
    position_of,
    range_text,
    session_text,
    view_of,
)

ORBIT = fixture("orbit-article")
SECOND = {"start": (3, "Confidence"), "end": (3, "high.")}  # another span of the helpers' report


def all_lenses(view):
    """Every lens, resolved as an editor resolves the ones it shows."""
    return [resolve(view, lens) for lens in code_lenses(view, types.CodeLensParams(text_document=doc(view.uri)))]


def lenses(view):
    """The verdict and document lenses (the "open as text" ones are tested on their own)."""
    return [lens for lens in all_lenses(view) if lens.command.command != OPEN_VIEW]


def titles(view):
    return [lens.command.title for lens in lenses(view)]


def titled(view, title):
    (lens,) = [lens for lens in all_lenses(view) if lens.command.title == title]
    return lens


def listed_texts(view, lens):
    """The text of the session file each location of a lens selects, read as its client would."""
    session_uri, position, locations = lens.command.arguments
    assert session_uri == view.uri and all(location["uri"] == view.uri for location in locations)
    return [range_text(view.text, types.Range(**ranged(location["range"])), view.encoding) for location in locations]


def listed_passages(view, lens, path):
    """The text of the document view of ``path`` each location of a lens selects: the
    document's own lines, as the client shows them (no JSON escapes)."""
    session_uri, position, locations = lens.command.arguments
    assert session_uri == view.uri
    assert {parse_view_uri(location["uri"]) for location in locations} == {(view.uri, path)}
    content = next(d.content for d in view.analysis.session.documents if d.path == path)
    return [range_text(content, types.Range(**ranged(location["range"])), view.encoding) for location in locations]


def ranged(rng):
    return {"start": types.Position(**rng["start"]), "end": types.Position(**rng["end"])}


def decoded(raw):
    """What a stretch of a JSON string's text says (its escapes read)."""
    return json.loads('"' + raw + '"')


def offset_in(content, place):
    """A content offset from docs/rules.md's span coordinates (1-based line, 0-based column)."""
    return sum(len(line) + 1 for line in content.split("\n")[: place["line"] - 1]) + place["column"]


def uncited_by_the_oracle(text, path):
    value = json.loads(text)
    content = next(d["content"] for d in value["documents"] if d["path"] == path)
    (found,) = [u for u in review(text)["uncited"] if u["path"] == path]
    return [content[offset_in(content, run["start"]) : offset_in(content, run["end"])] for run in found["runs"]]


def refs_citing(value, path):
    """The refs of a session value whose ``path`` is ``path``, in file order."""
    return [
        ref
        for annotation in value["annotations"]
        for ref in [annotation["claim"], *annotation["sources"]]
        if ref["path"] == path
    ]


# --- titles


def test_each_document_has_a_lens_that_opens_it_as_text():
    view = view_of(ORBIT)
    opening = [lens for lens in all_lenses(view) if lens.command.command == OPEN_VIEW]
    assert [lens.command.title for lens in opening] == ["open as text"] * 4
    assert [parse_view_uri(lens.command.arguments[0]) for lens in opening] == [
        (view.uri, path) for path in ("article", "release-notes", "发布说明", "forum/thread-42")
    ]


def test_code_lens_gives_citations_and_uncited_passages_for_documents_then_verdicts_for_annotations():
    assert titles(view_of(ORBIT)) == [
        "cited by 4 refs",
        "4 uncited passages (62%)",
        "cited by 3 refs",
        "cited by 3 refs",
        "cited by 1 ref",
        "supported: 2 supports (max 0.95)",
        "contested: 1 supports (max 0.8) · 2 refutes (max 0.9)",
        "supported: 1 supports (max 0.9)",
        "supported: 1 supports (max 0.95)",
    ]


def test_a_documents_lenses_come_in_the_order_cited_by_then_uncited_then_open_as_text():
    found = all_lenses(view_of(ORBIT))
    assert [lens.command.title for lens in found[:4]] == [
        "cited by 4 refs",
        "4 uncited passages (62%)",
        "open as text",
        "cited by 3 refs",
    ]
    assert found[0].range == found[1].range == found[2].range


@pytest.mark.parametrize(
    "sources, title",
    [
        ([source(confidence=0.2)], "supported only weakly: 1 supports (max 0.2)"),
        ([source(polarity="refutes", confidence=0.9)], "refuted: 1 refutes (max 0.9)"),
        ([source(polarity="Supports"), source(confidence=1.5, **SECOND)], "unverified: no source counts"),
        ([], "unverified: no source counts"),
    ],
)
def test_the_verdict_lens_names_the_verdict_of_the_counted_sources(sources, title):
    view = view_of(session_text(session([{"claim": claim(), "sources": sources}])))
    assert titles(view)[-1] == title


def test_a_claim_that_does_not_resolve_and_an_item_that_is_no_object_are_unresolved():
    value = session([{"claim": claim(start=(2, "the")), "sources": [source()]}, 7])
    assert titles(view_of(session_text(value)))[-2:] == ["unresolved: the claim does not resolve"] * 2


def test_a_document_nobody_cites_and_one_only_sources_cite_have_no_uncited_lens():
    value = session([{"claim": claim(), "sources": [source(polarity="refutes", confidence=0.5)]}])
    value["documents"].append({"path": "unused", "content": "a\nb"})
    assert titles(view_of(session_text(value))) == [
        "cited by 1 ref",
        "2 uncited passages (72%)",
        "cited by 1 ref",  # the report, by its source: no claim cites it, so no share of it is told
        "cited by 0 refs",
        "refuted: 1 refutes (max 0.5)",
    ]


def test_a_document_whose_every_passage_a_claim_cites_has_no_uncited_lens():
    value = session([{"claim": claim("article", (1, "The"), (3, "line.")), "sources": [source()]}])
    assert titles(view_of(session_text(value)))[:2] == ["cited by 1 ref", "cited by 1 ref"]


def test_one_uncited_passage_is_said_in_the_singular():
    value = session([{"claim": claim("article", (1, "The"), (2, "end.")), "sources": [source()]}])
    assert titles(view_of(session_text(value)))[1] == "1 uncited passage (18%)"


# --- commands


def test_no_lens_carries_an_empty_command_and_every_argument_is_plain_json():
    for text in (ORBIT, fixture("broken/boundary-ambiguous"), session_text(session([{"claim": claim()}, 7]))):
        for lens in all_lenses(view_of(text)):
            assert lens.command.command in (SHOW_REFERENCES, OPEN_VIEW)
            assert json.loads(json.dumps(lens.command.arguments)) == lens.command.arguments


def test_show_references_gets_the_session_the_lens_position_and_locations():
    view = view_of(ORBIT)
    for lens in lenses(view):
        assert lens.command.command == SHOW_REFERENCES
        session_uri, position, locations = lens.command.arguments
        assert session_uri == view.uri
        assert position == {"line": lens.range.start.line, "character": lens.range.start.character}
        for location in locations:
            assert set(location) == {"uri", "range"} and set(location["range"]) == {"start", "end"}
            assert set(location["range"]["start"]) == {"line", "character"}


def test_cited_by_lists_exactly_the_refs_citing_each_document_in_file_order():
    view = view_of(ORBIT)
    value = json.loads(ORBIT)
    cited_by = [lens for lens in lenses(view) if lens.command.title.startswith("cited by")]
    paths = [d["path"] for d in value["documents"]]
    assert [[json.loads(t) for t in listed_texts(view, lens)] for lens in cited_by] == [
        refs_citing(value, path) for path in paths
    ]


def test_uncited_passages_select_exactly_the_text_no_claim_cites():
    view = view_of(ORBIT)
    lens = titled(view, "4 uncited passages (62%)")
    passages = listed_passages(view, lens, "article")
    assert passages == uncited_by_the_oracle(ORBIT, "article")
    assert passages[0] == "# Orbit 2.4: faster starts, fewer surprises 🚀\n\nOrbit 2.4 "
    # in the view, each passage is on the document's own line: the list shows line 1, not a JSON line
    assert lens.command.arguments[2][0]["range"]["start"] == {"line": 0, "character": 0}


def test_an_uncited_passage_is_listed_from_its_first_line_holding_uncited_words():
    # "positive" ends the claim; what follows on its line is only "." (a list showing that
    # line would show the cited sentence as the uncited passage)
    view = view_of(session_text(session()))
    lens = titled(view, "2 uncited passages (72%)")
    starts = [location["range"]["start"] for location in lens.command.arguments[2]]
    assert starts == [{"line": 0, "character": 0}, {"line": 1, "character": 0}]
    assert listed_passages(view, lens, "article") == ["The report says the ", "The the the end.\nSecond line."]


def test_a_passage_of_punctuation_alone_is_listed_as_it_is():
    text = "Claim one.\n--\nClaim two."
    value = session(
        [
            {"claim": claim(start=(1, "Claim"), end=(1, "one")), "sources": [source()]},
            {"claim": claim(start=(3, "Claim"), end=(3, "two.")), "sources": [source()]},
        ],
        [{"path": "article", "content": text}, {"path": "report", "content": session()["documents"][1]["content"]}],
    )
    view = view_of(session_text(value))
    (lens,) = [lens for lens in lenses(view) if "uncited passage" in lens.command.title]
    assert listed_passages(view, lens, "article") == [".\n--\n"]


def test_uncited_passages_through_escapes_and_astral_characters_in_every_encoding():
    content = 'Tab\there "quoted" 🚀 one.\nThe claim is here.\n\\ back 中文 end\n   \nlast 😬 line'
    value = {
        "documents": [{"path": "d", "content": content}, {"path": "s", "content": "ok"}],
        "annotations": [
            {
                "claim": {"path": "d", "start": {"line": 2, "str": "claim"}, "end": {"line": 2, "str": "here"}},
                "sources": [
                    {
                        "path": "s",
                        "start": {"line": 1, "str": "ok"},
                        "end": {"line": 1, "str": "ok"},
                        "polarity": "supports",
                        "confidence": 0.7,
                    }
                ],
            }
        ],
    }
    for indent in (2, None):
        text = session_text(value, indent=indent)
        expected = uncited_by_the_oracle(text, "d")
        assert len(expected) == 2 and expected[1].startswith(".\n")
        expected[1] = expected[1][2:]  # listed from its first line with words: the "." after the claim is left

        def passages(encoding, text=text):
            view = view_of(text, encoding=encoding)
            (lens,) = [lens for lens in lenses(view) if "uncited passage" in lens.command.title]
            return listed_passages(view, lens, "d")

        assert per_encoding(passages) == {str(encoding): expected for encoding in ENCODINGS}


def test_the_verdict_lens_lists_the_annotations_sources():
    view = view_of(ORBIT)
    value = json.loads(ORBIT)
    contested = titled(view, "contested: 1 supports (max 0.8) · 2 refutes (max 0.9)")
    assert [json.loads(t) for t in listed_texts(view, contested)] == value["annotations"][1]["sources"]


def test_a_verdict_lens_lists_sources_that_do_not_count_as_well():
    sources = [source(polarity="Supports"), source("nowhere")]
    text = session_text(session([{"claim": claim(), "sources": sources}]))
    view = view_of(text)
    lens = titled(view, "unverified: no source counts")
    assert [json.loads(t) for t in listed_texts(view, lens)] == sources


def test_an_annotation_item_that_is_no_object_lists_nothing():
    view = view_of(session_text(session([{"claim": claim(), "sources": [source()]}, 7])))
    lens = all_lenses(view)[-1]
    assert lens.command.arguments[2] == [] and lens.command.command == SHOW_REFERENCES


# --- positions


def test_each_lens_sits_at_the_opening_brace_of_its_object():
    view = view_of(ORBIT)
    found = lenses(view)
    for lens in found:
        assert lens.range.start == lens.range.end
        line = ORBIT.split("\n")[lens.range.start.line]
        assert line[lens.range.start.character] == "{"
    assert found[5].range.start == position_of(ORBIT, ORBIT.index("{", ORBIT.index('"annotations"')))


def test_lens_positions_on_a_line_with_emoji_are_in_the_clients_encoding():
    text = json.dumps(json.loads(ORBIT), ensure_ascii=False)
    annotation, document = text.index("{", text.index('"annotations"')), text.index('{"path": "forum/thread-42"')

    def placed(encoding):
        found = lenses(view_of(text, encoding=encoding))
        return found[4].range.start, found[5].range.start

    assert per_encoding(placed) == per_encoding(
        lambda encoding: (position_of(text, document, encoding), position_of(text, annotation, encoding))
    )
    assert (
        len({start.character for start, _ in per_encoding(placed).values()}) == 3
    )  # the encodings do count differently here


def test_locations_after_cjk_and_emoji_select_the_same_refs_in_every_encoding():
    text = json.dumps(json.loads(ORBIT), ensure_ascii=False)  # one line: every ref after the emoji

    def listed(encoding):
        view = view_of(text, encoding=encoding)
        return [
            listed_passages(view, lens, "article") if "uncited" in lens.command.title else listed_texts(view, lens)
            for lens in lenses(view)
        ]

    found = per_encoding(listed)
    assert found["utf-16"] == found["utf-8"] == found["utf-32"]
    value = json.loads(ORBIT)
    assert [json.loads(t) for t in found["utf-8"][-3]] == value["annotations"][1]["sources"]
    assert found["utf-8"][1] == uncited_by_the_oracle(ORBIT, "article")


def test_lenses_that_list_places_find_them_only_when_resolved():
    view = view_of(ORBIT)
    unresolved = [
        lens for lens in code_lenses(view, types.CodeLensParams(text_document=doc(view.uri))) if lens.command is None
    ]
    assert (
        len(unresolved) == 4 + 1 + 4
    )  # cited-by per document, uncited for the article (the one cited), one per annotation
    assert all(lens.data["uri"] == view.uri for lens in unresolved)
    resolved = resolve(view, unresolved[0])
    assert resolved.command.command == SHOW_REFERENCES and resolved.command.title == unresolved[0].data["title"]

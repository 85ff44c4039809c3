"""Code lens, as a function of a view: a verdict above each annotation, coverage above each document."""

import json

from lsprotocol import types

from sourcecheck.lsp.app import parse_view_uri
from sourcecheck.lsp.features.lens import OPEN_VIEW, code_lenses
from tests.support.helpers import claim, session, source
from tests.support.views import doc, fixture, per_encoding, position_of, session_text, view_of

ORBIT = fixture("orbit-article")


def lenses(view):
    """The verdict and coverage lenses (the "open as text" ones are tested on their own)."""
    return [lens for lens in all_lenses(view) if lens.command.command != OPEN_VIEW]


def all_lenses(view):
    return code_lenses(view, types.CodeLensParams(text_document=doc(view.uri)))


def test_each_document_has_a_lens_that_opens_it_as_text():
    view = view_of(ORBIT)
    opening = [lens for lens in all_lenses(view) if lens.command.command == OPEN_VIEW]
    assert [lens.command.title for lens in opening] == ["open as text"] * 4
    assert [parse_view_uri(lens.command.arguments[0]) for lens in opening] == [
        (view.uri, path) for path in ("article", "release-notes", "发布说明", "forum/thread-42")
    ]


def test_code_lens_gives_coverage_for_documents_then_verdicts_for_annotations():
    assert [lens.command.title for lens in lenses(view_of(ORBIT))] == [
        "cited by 4 refs · 4 of 7 lines covered",
        "cited by 3 refs · 3 of 5 lines covered",
        "cited by 3 refs · 2 of 3 lines covered",
        "cited by 1 ref · 1 of 3 lines covered",
        "2 supports (max 0.95)",
        "contested: 1 supports (max 0.8) · 2 refutes (max 0.9)",
        "1 supports (max 0.9)",
        "1 supports (max 0.95)",
    ]


def test_each_lens_sits_at_the_opening_brace_of_its_object():
    view = view_of(ORBIT)
    found = lenses(view)
    for lens in found:
        assert lens.range.start == lens.range.end
        line = ORBIT.split("\n")[lens.range.start.line]
        assert line[lens.range.start.character] == "{"
    assert found[4].range.start == position_of(ORBIT, ORBIT.index("{", ORBIT.index('"annotations"')))


def test_lens_positions_on_a_line_with_emoji_are_in_the_clients_encoding():
    text = json.dumps(json.loads(ORBIT), ensure_ascii=False)
    annotation, document = text.index("{", text.index('"annotations"')), text.index('{"path": "forum/thread-42"')

    def placed(encoding):
        found = lenses(view_of(text, encoding=encoding))
        return found[3].range.start, found[4].range.start

    assert per_encoding(placed) == per_encoding(
        lambda encoding: (position_of(text, document, encoding), position_of(text, annotation, encoding))
    )
    assert (
        len({start.character for start, _ in per_encoding(placed).values()}) == 3
    )  # the encodings do count differently here


def test_a_document_nobody_cites_and_an_annotation_without_support():
    value = session([{"claim": claim(), "sources": [source(polarity="refutes", confidence=0.5)]}])
    value["documents"].append({"path": "unused", "content": "a\nb"})
    titles = [lens.command.title for lens in lenses(view_of(session_text(value)))]
    assert titles[2] == "cited by 0 refs · 0 of 2 lines covered"
    assert titles[3] == "1 refutes (max 0.5)"

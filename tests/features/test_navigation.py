"""Definition, highlight and references, as functions of a view."""

import json

from lsprotocol import types

from sourcecheck.lsp.features.navigation import definition, highlight, references
from tests.support.views import (
    URI,
    at,
    doc,
    fixture,
    per_encoding,
    position_of,
    range_text,
    same_for_every_encoding,
    view_of,
)

ORBIT = fixture("orbit-article")
ONE_LINE = json.dumps(json.loads(ORBIT), ensure_ascii=False)  # refs share the line of the emoji-laden contents


def definition_at(view, position):
    return definition(view, types.DefinitionParams(text_document=doc(view.uri), position=position))


def highlights_at(view, position):
    return highlight(view, types.DocumentHighlightParams(text_document=doc(view.uri), position=position))


def references_at(view, position, include=True):
    params = types.ReferenceParams(
        text_document=doc(view.uri), position=position, context=types.ReferenceContext(include_declaration=include)
    )
    return references(view, params)


def in_annotations(view, needle, plus=0):
    return at(view, needle, plus, after='"annotations"')


def test_definition_lands_on_the_cited_characters_through_escapes():
    view = view_of(ORBIT)
    location = definition_at(view, in_annotations(view, '"the new scheduler"', 3))
    assert location.uri == URI
    raw = range_text(ORBIT, location.range)
    assert raw == 'the new scheduler \\"never drops a frame\\"'
    assert json.loads('"' + raw + '"') == 'the new scheduler "never drops a frame"'


def test_definition_of_a_cjk_and_emoji_span_selects_the_same_text_in_every_encoding():
    def cited(encoding):
        view = view_of(ONE_LINE, encoding=encoding)
        return range_text(ONE_LINE, definition_at(view, in_annotations(view, '"调度器"', 2)).range, encoding)

    assert per_encoding(cited) == same_for_every_encoding("调度器在高负载下仍可能丢帧 ⚠️")


def test_a_position_after_emoji_is_read_in_the_clients_encoding():
    """The same column means different characters in each encoding: only the client's own
    reading of it lands on the claim of annotation 3 (📉 sits just before)."""

    def cited(encoding):
        position = position_of(ONE_LINE, ONE_LINE.index('"str": "📉"') + len('"str": "'), encoding)
        return range_text(ONE_LINE, definition_at(view_of(ONE_LINE, encoding=encoding), position).range, encoding)

    assert per_encoding(cited) == same_for_every_encoding("Memory use falls from 820 MB to 517 MB 📉")


def test_definition_of_a_ref_that_does_not_resolve_goes_to_its_document():
    text = fixture("broken/boundary-not-found")
    view = view_of(text)
    location = definition_at(view, at(view, '"result"', 1))
    assert range_text(text, location.range) == '"report"'
    assert location.range.start.line == text[: text.index('"path": "report"')].count("\n")


def test_definition_away_from_any_ref_gives_nothing():
    view = view_of(ORBIT)
    assert definition_at(view, types.Position(line=0, character=0)) is None
    assert definition_at(view, at(view, '"content"', 2)) is None


def test_highlight_is_the_cited_span_while_the_cursor_is_on_a_ref_that_resolves():
    view = view_of(ORBIT)
    position = in_annotations(view, '"the new scheduler"', 3)
    (found,) = highlights_at(view, position)
    assert found.kind == types.DocumentHighlightKind.Read
    assert range_text(ORBIT, found.range) == 'the new scheduler \\"never drops a frame\\"'
    assert highlights_at(view, at(view, '"content"', 2)) == []
    broken = view_of(fixture("broken/boundary-not-found"))
    assert highlights_at(broken, at(broken, '"result"', 1)) == []


def test_references_from_a_passage_of_content_are_the_refs_citing_it():
    view = view_of(ORBIT)
    (location,) = references_at(view, at(view, "517ms (-37%)"))
    assert '"cold start"' in range_text(ORBIT, location.range)
    (location,) = references_at(view, at(view, "内存占用"))  # cited from 内存, not by the span that stops at 37%
    assert '"内存"' in range_text(ORBIT, location.range)


def test_references_from_a_document_path_are_every_ref_into_it():
    view = view_of(ORBIT)
    locations = references_at(view, at(view, '"path": "发布说明"', 10))
    assert len(locations) == 3
    for location in locations:
        value = json.loads(range_text(ORBIT, location.range))
        assert value["path"] == "发布说明"


def test_references_from_a_claim_are_its_sources_and_the_claim_itself_if_asked():
    view = view_of(ORBIT)
    position = in_annotations(view, '"the new scheduler"')
    without = [json.loads(range_text(ORBIT, loc.range))["path"] for loc in references_at(view, position, include=False)]
    assert without == ["release-notes", "发布说明", "forum/thread-42"]
    assert len(references_at(view, position, include=True)) == 4


def test_references_from_a_source_are_its_claim():
    view = view_of(ORBIT)
    (location,) = references_at(view, in_annotations(view, '"str": "Scheduler"', 9))
    assert json.loads(range_text(ORBIT, location.range))["start"]["str"] == "the new scheduler"


def test_reference_locations_select_whole_refs_in_every_encoding():
    def cited(encoding):
        view = view_of(ONE_LINE, encoding=encoding)
        locations = references_at(view, at(view, '"path": "发布说明"', 10))
        return [json.loads(range_text(ONE_LINE, loc.range, encoding))["start"]["str"] for loc in locations]

    assert per_encoding(cited) == same_for_every_encoding(["冷启动", "调度器", "内存"])

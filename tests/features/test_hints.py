"""Inlay hints, as a function of a view: the cited text after each valid ref, sized by the settings."""

import json

from lsprotocol import types

from sourcecheck.lsp.features.hints import inlay_hints
from sourcecheck.lsp.settings import Settings
from tests.support.helpers import claim, session, source
from tests.support.views import doc, fixture, per_encoding, position_of, range_of, session_text, view_of, whole_range

ORBIT = fixture("orbit-article")


def hints(view, rng=None):
    return inlay_hints(view, types.InlayHintParams(text_document=doc(view.uri), range=rng or whole_range(view)))


def test_inlay_hints_show_the_cited_text_after_each_valid_ref():
    found = hints(view_of(ORBIT))
    assert len(found) == 11  # every ref of the fixture resolves
    labels = [h.label for h in found]
    assert labels[0] == '"cuts cold-start latency by 37%"'  # a source in Chinese: only numbers are compared
    assert labels[1] == '✓ 0.95 "cold start p50 … to 517ms (-37%)"'
    assert labels[5] == '✗ 0.9 "调度器在高负载下仍可能丢帧 ⚠️"'
    assert all(h.padding_left for h in found)


def test_a_hint_sits_just_after_its_refs_closing_brace():
    found = hints(view_of(ORBIT))
    claim = ORBIT.index('"claim"')
    claim_end = ORBIT.index("}\n      },", claim) + len("}\n      }")
    assert found[0].position == position_of(ORBIT, claim_end)


def test_a_long_text_shows_both_its_ends_in_the_configured_width():
    cited = "cold start p50 drops from 820ms to 517ms (-37%)"  # 47 characters: its end says how much
    for width in (9, 20, 46):
        found = hints(view_of(ORBIT, settings=Settings(inlay_max_length=width)))
        inner = found[1].label[found[1].label.index('"') + 1 : -1]
        head, tail = inner.split(" … ")
        assert cited.startswith(head) and cited.endswith(tail) and len(inner) <= width, width
        assert all(len(h.label[h.label.index('"') + 1 : h.label.rindex('"')]) <= width for h in found), width
    assert hints(view_of(ORBIT, settings=Settings(inlay_max_length=47)))[1].label == f'✓ 0.95 "{cited}"'  # fits
    assert hints(view_of(ORBIT, settings=Settings(inlay_max_length=4)))[1].label == '✓ 0.95 "col…"'  # too narrow
    assert hints(view_of(ORBIT, settings=Settings(inlay_max_length=10)))[5].label == '✗ 0.9 "调度器 … ⚠️"'


def test_a_claims_hint_names_the_words_its_sources_do_not_have_as_many_as_fit():
    value = session(
        [{"claim": claim(start=(1, "The"), end=(1, "positive")), "sources": [source()]}],
    )
    (said, _) = [h.label for h in hints(view_of(session_text(value)))]
    assert said == '"The report says the outcome was positive" · not in its sources: report, says'
    narrow = hints(view_of(session_text(value), settings=Settings(inlay_max_length=9)))[0]
    assert narrow.label == '"The … ive" · not in its sources: report, … 1 more'
    assert narrow.tooltip.value.endswith(
        "\n\nnot in its sources: report, says (a word check of its supporting sources: where to look, not a verdict)"
    )


def test_the_tooltip_holds_the_whole_cited_text():
    found = hints(view_of(ORBIT, settings=Settings(inlay_max_length=4)))
    assert found[1].tooltip.kind == types.MarkupKind.PlainText
    assert found[1].tooltip.value == "cold start p50 drops from 820ms to 517ms (-37%)"


def test_inlay_hints_escape_newlines_and_control_characters():
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
    found = hints(view_of(session_text(value)))
    assert [h.label for h in found] == ['"one\\ttwo\\nthree\\u202e four"', '✗ 1 "x"']
    assert found[0].tooltip.value == "one\ttwo\nthree\\u202e four"  # the tooltip keeps tab and line break


def test_refs_that_do_not_resolve_get_no_hint():
    assert [h.label for h in hints(view_of(fixture("broken/boundary-ambiguous")))] == [
        '✓ 0.9 "outcome of the trial was positive"'
    ]


def test_a_source_with_odd_polarity_and_confidence_shows_question_marks():
    value = session([{"claim": claim(), "sources": [source(polarity="maybe", confidence=True)]}])
    labels = [h.label for h in hints(view_of(session_text(value)))]
    assert labels == ['"outcome was positive"', '? ? "outcome of the trial was positive"']


def test_only_the_requested_range_gets_hints():
    text = fixture("broken/boundary-ambiguous")
    view = view_of(text)
    assert hints(view, range_of(text, 0, text.index('"sources"'))) == []
    (hint,) = hints(view, range_of(text, text.index('"sources"'), len(text)))
    assert hint.label.startswith("✓ 0.9")
    first = hints(view_of(ORBIT))[0]
    assert [h.label for h in hints(view_of(ORBIT), types.Range(start=first.position, end=first.position))] == [
        first.label
    ]


def test_hint_positions_after_emoji_are_in_the_clients_encoding():
    text = json.dumps(json.loads(ORBIT), ensure_ascii=False)
    claim_end = text.index("}}", text.index('{"path": "article", "start": {"line": 4')) + 2

    def fourth(encoding):
        hint = hints(view_of(text, encoding=encoding))[3]
        return hint.label[:18], hint.position

    assert per_encoding(fourth) == per_encoding(
        lambda encoding: ('"the new scheduler', position_of(text, claim_end, encoding))
    )


def test_a_quote_in_the_cited_text_is_escaped_so_that_where_it_ends_is_plain():
    value = session(
        [{"claim": claim(start=(1, "The"), end=(1, "twice")), "sources": [source()]}],
        [{"path": "article", "content": 'The board said "no" twice'}, {"path": "report", "content": "ok"}],
    )
    text = json.dumps(value)
    found = hints(view_of(text))
    assert found[0].label.startswith('"The board said \\"no\\" twice"')

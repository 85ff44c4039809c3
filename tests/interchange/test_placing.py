"""Responses written by each provider's documented schema over real prose with accents, CJK
and emoji, offsets in the provider's unit: placed exactly; wrong offsets placed by text and
reported with both texts (never imported at the wrong place); what cannot be placed named
with why; whitespace a ref cannot hold trimmed and said."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sourcecheck
from sourcecheck.interchange.units import Measured
from tests.interchange.support import annotation_texts, assert_faithful

PROSE = (
    "Le café de la gare ouvre à 6 h 30. Its owner, Zoë, says: “the croissants sell out by nine.”\n"
    "東京駅の売店は午前五時に開きます。\n"
    "The 🚆 night train arrives at 05:12 — early, they say 😴.\n"
)
ANSWER = "Zoë opens at half past six 🥐. In Tokyo the kiosk opens at five. The night train 🚆 comes at 05:12."


def units(text: str, part: str, unit: str, start: int | None = None) -> tuple[int, int]:
    """Where ``part`` is in ``text``, counted in ``unit``."""
    at = text.index(part) if start is None else start
    if unit == "code points":
        return at, at + len(part)
    codec = "utf-8" if unit == "UTF-8 bytes" else "utf-16-le"
    width = 1 if codec == "utf-8" else 2
    return len(text[:at].encode(codec)) // width, len(text[: at + len(part)].encode(codec)) // width


def anthropic_response(segments: list[tuple[str, list[dict[str, Any]]]], tail: str = "") -> dict[str, Any]:
    content = [{"type": "text", "text": text, **({"citations": cits} if cits else {})} for text, cits in segments]
    return {
        "type": "message",
        "role": "assistant",
        "content": content + ([{"type": "text", "text": tail}] if tail else []),
    }


def anthropic_request(*texts: str) -> dict[str, Any]:
    docs = [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": t}, "title": f"Doc {i}"}
        for i, t in enumerate(texts)
    ]
    return {"messages": [{"role": "user", "content": [*docs, {"type": "text", "text": "When does it open?"}]}]}


def char(
    document: str, cited: str, index: int = 0, unit: str = "code points", start: int | None = None
) -> dict[str, Any]:
    first, last = units(document, cited, unit, start)
    return {
        "type": "char_location",
        "cited_text": cited,
        "document_index": index,
        "start_char_index": first,
        "end_char_index": last,
    }


def test_anthropic_char_indices_through_accents_cjk_and_emoji() -> None:
    cited = [
        "Its owner, Zoë, says: “the croissants sell out by nine.”",
        "東京駅の売店は午前五時に開きます。",
        "The 🚆 night train arrives at 05:12",
    ]
    response = anthropic_response(
        [
            ("Zoë opens at half past six 🥐.", [char(PROSE, cited[0])]),
            (" In Tokyo the kiosk opens at five.", [char(PROSE, cited[1])]),
            (" The night train 🚆 comes at 05:12.", [char(PROSE, cited[2])]),
        ]
    )
    session, report = sourcecheck.import_citations("anthropic", response, request=anthropic_request(PROSE))
    assert_faithful(session, report)
    assert report.exit_code == 0 and not report.mismatched and not report.notes[:-1]
    assert annotation_texts(session) == [
        ("Zoë opens at half past six 🥐.", [cited[0]]),
        (" In Tokyo the kiosk opens at five.", [cited[1]]),  # a ref holds a space: kept
        (" The night train 🚆 comes at 05:12.", [cited[2]]),
    ]


def test_a_claim_keeps_the_space_a_ref_can_hold() -> None:
    """Only whitespace holding a line break is trimmed: a leading space is cited as it is."""
    response = anthropic_response(
        [("Intro.", []), (" Zoë opens early.", [char(PROSE, "Le café de la gare ouvre à 6 h 30.")])]
    )
    session, report = sourcecheck.import_citations("anthropic", response, request=anthropic_request(PROSE))
    assert annotation_texts(session) == [(" Zoë opens early.", ["Le café de la gare ouvre à 6 h 30."])]
    assert_faithful(session, report)


def test_anthropic_offsets_counted_in_utf16_are_placed_by_text_and_said() -> None:
    cited = "The 🚆 night train arrives at 05:12 — early, they say 😴."
    wrong = char(PROSE, cited, unit="UTF-16 code units")  # after the 🚆 of line 3 and nothing before: off by one
    response = anthropic_response([("The train comes early.", [wrong])])
    session, report = sourcecheck.import_citations("anthropic", response, request=anthropic_request(PROSE))
    assert_faithful(session, report)
    (placed,) = report.placed
    assert placed.text == cited and placed.line == 3
    (mismatch,) = report.mismatched
    assert mismatch.of == "source" and mismatch.text == cited
    assert "not the cited text" in mismatch.message and "counted in UTF-16 code units" in mismatch.message
    assert "placed by its text, at the only place (line 3)" in mismatch.message
    assert report.exit_code == 0  # a warning


def test_wrong_offsets_choose_the_occurrence_nearest_them() -> None:
    document = "Open at six. Closed on Sunday.\nOpen at six. Closed on Monday.\nOpen at six. Closed on Friday.\n"
    near_third = document.index("Friday") - 3  # wrong, but nearest the third "Open at six."
    citation = {
        "type": "char_location",
        "cited_text": "Open at six.",
        "document_index": 0,
        "start_char_index": near_third,
        "end_char_index": near_third + 12,
    }
    session, report = sourcecheck.import_citations(
        "anthropic", anthropic_response([("It opens at six.", [citation])]), request=anthropic_request(document)
    )
    assert_faithful(session, report)
    assert report.placed[0].line == 3
    assert "the nearest of its 3 places to the offsets (line 3)" in report.mismatched[0].message


def test_cited_text_that_is_not_there_is_never_placed() -> None:
    citation = char(PROSE, "Le café de la gare")
    citation["cited_text"] = "Le café du port"
    session, report = sourcecheck.import_citations(
        "anthropic", anthropic_response([("It opens.", [citation])]), request=anthropic_request(PROSE)
    )
    assert report.exit_code == 1 and not report.placed and session["annotations"] == []
    (left,) = report.left_out
    assert left.where == "content/0/citations/0" and left.claim == "It opens." and left.text == "Le café du port"
    assert 'hold "Le café de la gare", not the cited text "Le café du port"' in left.reason
    assert "is not in" in left.reason and "the nearest line is 1" in left.reason


def test_text_that_occurs_twice_without_offsets_is_not_guessed() -> None:
    document = "It rains. It rains.\n"
    citation = {"type": "content_block_location", "cited_text": "It rains.", "document_index": 0}  # no block indices
    session, report = sourcecheck.import_citations(
        "anthropic", anthropic_response([("Rain.", [citation])]), request=anthropic_request(document)
    )
    assert report.exit_code == 1
    assert "occurs 2 times" in report.left_out[0].reason and "nothing says which" in report.left_out[0].reason


def test_a_span_no_ref_can_cite_is_named_with_why() -> None:
    document = "ab ab ab\n"
    citation = {
        "type": "char_location",
        "cited_text": "ab",
        "document_index": 0,
        "start_char_index": 3,
        "end_char_index": 5,
    }
    session, report = sourcecheck.import_citations(
        "anthropic", anthropic_response([("ab.", [citation])]), request=anthropic_request(document)
    )
    assert report.exit_code == 1 and "no ref can cite" in report.left_out[0].reason


def test_line_breaks_at_the_ends_are_trimmed_and_said() -> None:
    document = "First line.\nSecond line.\n\nThird line.\n"
    citation = char(document, "Second line.\n\n")
    response = anthropic_response([("Intro", []), ("\n\nThe second.\n", [citation])])
    session, report = sourcecheck.import_citations("anthropic", response, request=anthropic_request(document))
    assert_faithful(session, report)
    assert annotation_texts(session) == [("The second.", ["Second line."])]
    assert report.placed[0].trimmed == 'trimmed "\\n\\n" from its end'
    assert any("the claim" in note and "trimmed" in note for note in report.notes)


def test_crlf_documents_keep_their_offsets() -> None:
    document = "Line one.\r\nLine two, café.\r\n"
    citation = char(document, "Line two, café.")
    session, report = sourcecheck.import_citations(
        "anthropic", anthropic_response([("Two.", [citation])]), request=anthropic_request(document)
    )
    assert_faithful(session, report)
    assert not report.mismatched and report.placed[0].line == 2
    assert session["documents"][1]["content"] == "Line one.\nLine two, café.\n"


def test_two_citations_of_one_span_make_one_source() -> None:
    citation = char(PROSE, "東京駅の売店は午前五時に開きます。")
    session, report = sourcecheck.import_citations(
        "anthropic", anthropic_response([("Five.", [citation, citation])]), request=anthropic_request(PROSE)
    )
    assert len(session["annotations"][0]["sources"]) == 1 and len(report.placed) == 2
    assert report.placed[0].pointer == report.placed[1].pointer
    assert any("kept once" in note for note in report.notes)


# --- Gemini: UTF-8 bytes ---------------------------------------------------------------------


def gemini_response(
    answer: str, supports: list[tuple[str, list[int], list[float] | None]], chunks: list[dict[str, Any]]
) -> dict[str, Any]:
    written = []
    for segment, indices, scores in supports:
        first, last = units(answer, segment, "UTF-8 bytes")
        entry: dict[str, Any] = {"segment": {"endIndex": last, "text": segment}, "groundingChunkIndices": indices}
        if first:
            entry["segment"]["startIndex"] = first
        if scores is not None:
            entry["confidenceScores"] = scores
        written.append(entry)
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": answer}]},
                "groundingMetadata": {"groundingChunks": chunks, "groundingSupports": written},
            }
        ]
    }


def test_gemini_bytes_through_emoji_and_cjk_with_confidences() -> None:
    chunk = {
        "retrievedContext": {
            "title": "station.txt",
            "uri": "gs://bucket/station.txt",
            "text": "東京駅の売店は午前五時に開きます。",
        }
    }
    response = gemini_response(
        ANSWER,
        [
            ("In Tokyo the kiosk opens at five.", [0], [0.93]),
            ("The night train 🚆 comes at 05:12.", [0, 0], [0.5, 0.4]),
        ],
        [chunk],
    )
    session, report = sourcecheck.import_citations("gemini", response)
    assert_faithful(session, report)
    assert [claim for claim, _ in annotation_texts(session)] == [
        "In Tokyo the kiosk opens at five.",
        "The night train 🚆 comes at 05:12.",
    ]
    assert session["annotations"][0]["sources"][0]["confidence"] == 0.93
    assert [s["confidence"] for s in session["annotations"][1]["sources"]] == [0.5]  # one span, kept once
    assert not report.mismatched and report.exit_code == 0
    # the same chunk, placed by its text in the file it came from
    session, report = sourcecheck.import_citations("gemini", response, documents={"station.txt": PROSE})
    assert_faithful(session, report)
    assert {p.path for p in report.placed} == {"station.txt"} and report.placed[0].line == 2


def test_gemini_offsets_in_code_points_are_reported_not_used() -> None:
    response = gemini_response(
        ANSWER, [("In Tokyo the kiosk opens at five.", [0], None)], [{"retrievedContext": {"text": "東京駅"}}]
    )
    segment = response["candidates"][0]["groundingMetadata"]["groundingSupports"][0]["segment"]
    start = ANSWER.index("In Tokyo")
    segment["startIndex"], segment["endIndex"] = (
        start,
        start + len("In Tokyo the kiosk opens at five."),
    )  # code points: wrong
    session, report = sourcecheck.import_citations("gemini", response)
    assert annotation_texts(session)[0][0] == "In Tokyo the kiosk opens at five."
    (mismatch,) = report.mismatched
    assert mismatch.of == "claim" and "counted in code points" in mismatch.message


def test_gemini_part_index_counts_in_its_part() -> None:
    parts = [{"text": "thinking…", "thought": True}, {"text": "Zoë 🥐 opens. "}, {"text": "Tokyo: five."}]
    segment = {
        "partIndex": 2,
        "startIndex": len(b"Tokyo: "),
        "endIndex": len(b"Tokyo: five."),
        "text": "five.",
    }
    response = {
        "candidates": [
            {
                "content": {"parts": parts},
                "groundingMetadata": {
                    "groundingChunks": [{"retrievedContext": {"text": "Opens at five."}}],
                    "groundingSupports": [{"segment": segment, "groundingChunkIndices": [0]}],
                },
            }
        ]
    }
    session, report = sourcecheck.import_citations("gemini", response)
    assert session["documents"][0]["content"] == "Zoë 🥐 opens. Tokyo: five."
    assert annotation_texts(session) == [("five.", ["Opens at five."])] and not report.mismatched


# --- Cohere: code points -------------------------------------------------------------------------


def test_cohere_code_points_through_emoji() -> None:
    answer = "The train 🚆 arrives at 05:12, and the kiosk opens at five."
    citations = []
    for part, doc in (("05:12", "doc:0"), ("opens at five", "doc:1")):
        first, last = units(answer, part, "code points")
        citations.append(
            {
                "start": first,
                "end": last,
                "text": part,
                "type": "TEXT_CONTENT",
                "sources": [{"type": "document", "id": doc, "document": {"id": doc}}],
            }
        )
    response = {"message": {"role": "assistant", "content": [{"type": "text", "text": answer}], "citations": citations}}
    request = {
        "documents": [
            "The 🚆 night train arrives at 05:12.",
            {"id": "ignored", "data": {"snippet": "unused"}},
        ]
    }
    request["documents"][1] = "東京駅の売店は午前五時に開きます。 It opens at five."
    session, report = sourcecheck.import_citations("cohere", response, request=request)
    assert_faithful(session, report)
    assert annotation_texts(session) == [
        ("05:12", ["The 🚆 night train arrives at 05:12."]),
        ("opens at five", ["東京駅の売店は午前五時に開きます。 It opens at five."]),
    ]
    assert not report.mismatched


def test_cohere_plan_citations_are_listed() -> None:
    response = {
        "message": {
            "content": [{"type": "text", "text": "Yes."}],
            "citations": [{"start": 0, "end": 4, "text": "I'll", "type": "PLAN", "sources": []}],
        }
    }
    _, report = sourcecheck.import_citations("cohere", response)
    assert report.exit_code == 1 and "plan" in report.left_out[0].reason


def test_cohere_stream_as_server_sent_events() -> None:
    events = [
        ("message-start", {"type": "message-start", "delta": {"message": {"role": "assistant"}}}),
        (
            "content-start",
            {"type": "content-start", "index": 0, "delta": {"message": {"content": {"type": "text", "text": ""}}}},
        ),
        (
            "content-delta",
            {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": "Zoë's café "}}}},
        ),
        (
            "content-delta",
            {"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": "opens at 6:30 ☕."}}}},
        ),
        (
            "citation-start",
            {
                "type": "citation-start",
                "index": 0,
                "delta": {
                    "message": {
                        "citations": {
                            "start": 11,
                            "end": 21,
                            "text": "opens at 6",
                            "type": "TEXT_CONTENT",
                            "sources": [
                                {
                                    "type": "document",
                                    "id": "d",
                                    "document": {"title": "café", "snippet": "Le café de la gare ouvre à 6 h 30."},
                                }
                            ],
                        }
                    }
                },
            },
        ),
        ("citation-end", {"type": "citation-end", "index": 0}),
        ("message-end", {"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}),
    ]
    text = "".join(f"event: {name}\ndata: {json.dumps(value, ensure_ascii=False)}\n\n" for name, value in events)
    session, report = sourcecheck.import_citations("cohere", text)
    assert_faithful(session, report)
    assert annotation_texts(session) == [("opens at 6", ["Le café de la gare ouvre à 6 h 30."])]


# --- every unit, every offset ------------------------------------------------------------------


@given(st.data())
def test_offsets_in_their_unit_always_hold(data: st.DataObject) -> None:
    """Any span of the prose, its offsets counted in any unit, converts back to itself."""
    text = PROSE
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    for unit in ("code points", "UTF-16 code units", "UTF-8 bytes"):
        first, last = units(text, text[start:end], unit, start)
        measured = Measured(text)
        assert measured.code_point(first, unit) == start and measured.code_point(last, unit) == end


@pytest.mark.parametrize("unit", ["UTF-8 bytes", "UTF-16 code units"])
def test_an_offset_inside_a_character_is_no_place(unit: str) -> None:
    measured = Measured("a🚆b")
    assert measured.code_point(2, unit) is None and measured.code_point(5 if unit == "UTF-8 bytes" else 3, unit) == 2


# --- the other Anthropic locations -------------------------------------------------------------


def test_search_results_in_tool_results_and_documents_after_them_are_counted_in_order() -> None:
    result = {
        "type": "search_result",
        "source": "https://example.org/kiosk",
        "title": "Kiosk hours",
        "content": [
            {"type": "text", "text": "The kiosk opens at five."},
            {"type": "text", "text": "It closes at ten."},
        ],
    }
    request = {
        "messages": [
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [result]}]},
            {"role": "user", "content": anthropic_request(PROSE)["messages"][0]["content"]},
        ]
    }
    search = {
        "type": "search_result_location",
        "cited_text": "The kiosk opens at five.It closes at ten.",
        "search_result_index": 0,
        "start_block_index": 0,
        "end_block_index": 2,
        "source": "https://example.org/kiosk",
    }
    response = anthropic_response(
        [("Five to ten.", [search]), (" Tokyo at five.", [char(PROSE, "東京駅の売店は午前五時に開きます。")])]
    )
    session, report = sourcecheck.import_citations("anthropic", response, request=request)
    assert_faithful(session, report)
    assert [p.text for p in report.placed] == [
        "The kiosk opens at five.\nIt closes at ten.",
        "東京駅の売店は午前五時に開きます。",
    ]
    assert [p.path for p in report.placed] == ["Kiosk-hours.txt", "Doc-0.txt"]


def test_a_web_search_result_is_placed_in_the_page_given() -> None:
    cited = {
        "type": "web_search_result_location",
        "cited_text": "opens at 6 h 30",
        "url": "https://example.org/gare",
        "title": "La gare",
        "encrypted_index": "x",
    }
    response = anthropic_response([("It opens early.", [cited])])
    _, without = sourcecheck.import_citations("anthropic", response)
    assert without.exit_code == 1 and "https://example.org/gare" in without.left_out[0].reason
    session, report = sourcecheck.import_citations(
        "anthropic", response, documents={"gare.html.txt": "Le café ouvre à 6 h 30.\n"}
    )
    assert report.exit_code == 1  # named by neither its title nor its URL's last part
    session, report = sourcecheck.import_citations("anthropic", response, documents={"gare": "Elle opens at 6 h 30.\n"})
    assert_faithful(session, report)
    assert report.placed[0].text == "opens at 6 h 30"


def test_pdf_pages_split_by_form_feeds_choose_the_cited_page() -> None:
    cited = {
        "type": "page_location",
        "cited_text": "Opening hours.",
        "document_index": 0,
        "document_title": "Guide",
        "start_page_number": 2,
        "end_page_number": 3,
    }
    pages = "Opening hours.\nPage one.\n\fOpening hours.\nPage two.\n\fOpening hours.\nPage three.\n"
    session, report = sourcecheck.import_citations(
        "anthropic", anthropic_response([("Hours.", [cited])]), documents={"Guide.txt": pages}
    )
    assert_faithful(session, report)
    assert report.placed[0].line == 3  # page two's


def test_a_citation_of_an_unknown_type_is_named() -> None:
    response = anthropic_response([("Hm.", [{"type": "audio_location", "cited_text": "x"}])])
    _, report = sourcecheck.import_citations("anthropic", response)
    assert report.exit_code == 1 and 'a citation of type "audio_location"' in report.left_out[0].reason


def test_a_document_holding_the_answer_names_it_and_one_of_its_name_does_not() -> None:
    response = anthropic_response([("Zoë opens early.", [char(PROSE, "Le café de la gare ouvre à 6 h 30.")])])
    request = anthropic_request(PROSE)
    session, _ = sourcecheck.import_citations(
        "anthropic", response, request=request, documents={"reply.md": "Zoë opens early."}
    )
    assert session["documents"][0] == {"path": "reply.md", "content": "Zoë opens early."}
    session, report = sourcecheck.import_citations(
        "anthropic", response, request=request, documents={"answer.md": "other"}
    )
    assert session["documents"][0]["path"] == "answer-2.md" and "answer-2.md" in report.notes[0]


def test_a_gemini_support_citing_no_chunk_is_named() -> None:
    response = gemini_response(ANSWER, [("In Tokyo the kiosk opens at five.", [], None)], [])
    session, report = sourcecheck.import_citations("gemini", response)
    assert report.exit_code == 1 and report.left_out[0].reason == "it names no grounding chunk"
    assert report.left_out[0].text == "In Tokyo the kiosk opens at five." and session["annotations"] == []

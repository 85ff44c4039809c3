"""Recorded responses of each provider (tests/interchange/data/README.md says where from)
import to sessions whose every ref cites exactly the cited text and whose claims are exactly
the answer's cited segments; wrong offsets are placed by text and reported; what cannot be
placed is counted and named."""

from __future__ import annotations

import json
from typing import Any

import pytest

import sourcecheck
from tests.interchange.support import annotation_texts, assert_faithful, data, request_of


def imported(fmt: str, name: str, **kwargs: Any) -> sourcecheck.Imported:
    path = data(f"{fmt}/{name}")
    kwargs.setdefault("request", request_of(f"{fmt}/{name}"))
    return sourcecheck.import_citations(fmt, path.read_text(encoding="utf-8"), **kwargs)


# --- Anthropic -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["prism-generate-text-with-text-document-citations-1.response.json", "prism-stream-with-citations-1.response.sse"],
)
def test_anthropic_plain_text_document_cites_the_cited_text(name: str) -> None:
    session, report = imported("anthropic", name)
    assert_faithful(session, report)
    assert report.exit_code == 0 and not report.mismatched and not report.left_out
    sources = [placed.text for placed in report.placed]
    assert sources == ["The grass is green. ", "The sky is blue."]  # cited_text exactly, its space too
    answer = session["documents"][0]
    assert answer["path"] == "answer.md"
    if name.endswith(".sse"):
        assert answer["content"] == (
            "Based on the provided document:\n\nThe grass is green. The sky is blue.\n\n"
            "These are the common natural colors we observe in nature for these elements of our environment."
        )
        assert [p.claim for p in report.placed] == ["The grass is green.", "The sky is blue."]
    else:
        assert answer["content"] == "According to the documents:\nThe grass is green and the sky is blue."
        assert [p.claim for p in report.placed] == ["The grass is green", "the sky is blue"]
    assert session["documents"][1]["content"] == "The grass is green. The sky is blue."


def test_anthropic_without_the_request_names_each_citation_it_cannot_place() -> None:
    session, report = imported(
        "anthropic", "prism-generate-text-with-text-document-citations-1.response.json", request=None
    )
    assert report.exit_code == 1 and not report.placed
    assert [left.where for left in report.left_out] == ["content/1/citations/0", "content/3/citations/0"]
    assert all("--document" in left.reason for left in report.left_out)
    assert session["annotations"] == [] and [d["path"] for d in session["documents"]] == ["answer.md"]


def test_anthropic_without_the_request_places_in_a_document_named_like_its_title() -> None:
    session, report = imported(
        "anthropic",
        "prism-generate-text-with-text-document-citations-1.response.json",
        request=None,
        documents={"All aboout the grass and the sky.txt": "The grass is green. The sky is blue."},
    )
    assert_faithful(session, report)
    assert report.exit_code == 0 and [p.path for p in report.placed] == ["All aboout the grass and the sky.txt"] * 2


def test_anthropic_custom_content_blocks_joined_by_line_breaks() -> None:
    session, report = imported(
        "anthropic", "prism-generate-text-with-custom-content-document-citations-1.response.json"
    )
    assert_faithful(session, report)
    assert session["documents"][1]["content"] == "The grass is green.\nThe sky is blue."
    assert [(p.text, p.line) for p in report.placed] == [("The grass is green.", 1), ("The sky is blue.", 2)]


def test_anthropic_pdf_pages_are_placed_only_in_the_text_given() -> None:
    name = "prism-generate-text-with-pdf-citations-1.response.json"
    _, without = imported("anthropic", name)
    assert without.exit_code == 1 and len(without.left_out) == 2
    assert all("PDF" in left.reason and "--document" in left.reason for left in without.left_out)
    page = "All aboout the grass and the sky\n\nThe grass is green. The sky is blue.\n"
    session, report = imported("anthropic", name, documents={"All aboout the grass and the sky.txt": page})
    assert_faithful(session, report)
    assert report.exit_code == 0 and [p.text for p in report.placed] == ["The grass is green. ", "The sky is blue."]


def test_anthropic_web_search_results_are_counted_and_named() -> None:
    session, report = imported("anthropic", "prism-generate-text-with-web-search-citations-1.response.json")
    response = json.loads(data("anthropic/prism-generate-text-with-web-search-citations-1.response.json").read_text())
    cited = [
        f"content/{i}/citations/{k}"
        for i, block in enumerate(response["content"])
        for k, _ in enumerate(block.get("citations") or [])
    ]
    assert [left.where for left in report.left_out] == cited
    assert all("web search result carries no page text" in left.reason for left in report.left_out)
    assert report.exit_code == 1 and session["annotations"] == []


def test_anthropic_cookbook_loyalty_program() -> None:
    session, report = imported("anthropic", "cookbook-loyalty.response.json")
    assert_faithful(session, report)
    response = json.loads(data("anthropic/cookbook-loyalty.response.json").read_text())
    cited = [c["cited_text"] for block in response["content"] for c in block.get("citations", [])]
    assert [p.text for p in report.placed] == cited
    claims = [block["text"] for block in response["content"] if block.get("citations")]
    assert [claim for claim, _ in annotation_texts(session)] == claims


# --- Gemini ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["pydantic-file-search.response.json", "pydantic-file-search-stream.response.sse"])
def test_gemini_file_search_chunk_is_its_own_document_or_placed_in_the_file(name: str) -> None:
    session, report = imported("gemini", name)
    assert_faithful(session, report)
    chunk = "Paris is the capital of France. The Eiffel Tower is a famous landmark in Paris."
    assert report.exit_code == 0 and [p.text for p in report.placed] == [chunk] * len(report.placed)
    assert data("gemini/pydantic-file-search.uploaded.txt").read_text() == chunk  # the file uploaded, whole


def test_gemini_file_search_claims_are_the_segments() -> None:
    session, report = imported("gemini", "pydantic-file-search.response.json")
    response = json.loads(data("gemini/pydantic-file-search.response.json").read_text())
    segments = [s["segment"]["text"] for s in response["candidates"][0]["groundingMetadata"]["groundingSupports"]]
    assert [claim for claim, _ in annotation_texts(session)] == segments


def test_gemini_offsets_count_utf8_bytes() -> None:
    """The answer has a ° (two bytes) before its segments: in bytes every offset holds its
    segment, in code points none does; the pages are given, so every citation is placed."""
    name = "pydantic-web-search.response.json"
    response = json.loads(data(f"gemini/{name}").read_text())
    metadata = response["candidates"][0]["groundingMetadata"]
    pages = {chunk["web"]["title"]: f"The page {chunk['web']['title']}." for chunk in metadata["groundingChunks"]}
    session, report = imported("gemini", name, documents=pages)
    assert_faithful(session, report)
    assert report.exit_code == 0 and not report.mismatched
    assert [claim for claim, _ in annotation_texts(session)] == [
        s["segment"]["text"] for s in metadata["groundingSupports"]
    ]
    text = response["candidates"][0]["content"]["parts"][0]["text"]
    first = metadata["groundingSupports"][0]["segment"]
    assert text[first.get("startIndex", 0) : first["endIndex"]] != first["text"]  # not code points


def test_gemini_web_pages_without_text_are_counted_and_named() -> None:
    session, report = imported("gemini", "pydantic-web-search-stream.response.sse")
    assert report.exit_code == 1 and not report.placed and len(report.left_out) == 9
    assert all("carries no page text" in left.reason for left in report.left_out)
    assert session["annotations"] == []


def test_gemini_recorded_wrong_offsets_are_placed_by_text_and_reported() -> None:
    name = "pydantic-vertex-weather.response.json"
    response = json.loads(data(f"gemini/{name}").read_text())
    metadata = response["candidates"][0]["groundingMetadata"]
    pages = {
        chunk["web"]["title"]: f"Weather today, from {chunk['web']['title']}." for chunk in metadata["groundingChunks"]
    }
    session, report = imported("gemini", name, documents=pages)
    assert_faithful(session, report)
    segments = [s["segment"]["text"] for s in metadata["groundingSupports"]]
    assert [claim for claim, _ in annotation_texts(session)] == segments  # never the text at the offsets
    wrong = [m for m in report.mismatched if m.of == "claim"]
    assert [m.where.rsplit("/", 1)[1] for m in wrong] == ["4", "5", "6", "7", "8"]
    assert [m.text for m in wrong] == segments[4:]
    assert '"*   **Humidity:** About **73% - 78%**.\\n*"' in wrong[0].message  # what the offsets hold
    assert "lie outside the text" in wrong[-1].message
    assert report.exit_code == 0


# --- Cohere ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, claims, sources",
    [
        ("langchain-documents.response.json", ["green."], ["The sky is green."]),
        ("langchain-custom-documents.response.json", ["Barack Obama."], ["Barack Obama is the founder of Cohere!"]),
        (
            "vercel-citations.response.json",
            ["Automation of tasks", "Better decision-making", "Cost reduction"],
            ["AI provides: 1. Automation of tasks 2. Better decision-making 3. Cost reduction"] * 3,
        ),
        (
            "vercel-citations.response.jsonl",
            ["automation of tasks"],
            ["AI provides: 1. Automation of tasks 2. Better decision-making 3. Cost reduction"],
        ),
    ],
)
def test_cohere_sources_cite_the_documents_text(name: str, claims: list[str], sources: list[str]) -> None:
    session, report = imported("cohere", name)
    assert_faithful(session, report)
    assert report.exit_code == 0 and not report.mismatched
    assert [claim for claim, _ in annotation_texts(session)] == claims
    assert [p.text for p in report.placed] == sources


def test_cohere_document_placed_in_the_file_named_like_its_title() -> None:
    text = "Benefits\n\nAI provides: 1. Automation of tasks 2. Better decision-making 3. Cost reduction\n"
    session, report = imported("cohere", "vercel-citations.response.json", documents={"benefits.txt": text})
    assert_faithful(session, report)
    assert {p.path for p in report.placed} == {"benefits.txt"}
    assert [d["path"] for d in session["documents"]] == ["answer.md", "benefits.txt"]
    assert session["documents"][1]["content"] == text

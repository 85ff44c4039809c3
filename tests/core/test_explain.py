"""What is told about refs, annotations and documents, as plain data for any edge to render."""

import json

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.explain import (
    Block,
    Code,
    Para,
    Plain,
    Rule,
    Strong,
    citations_title,
    coverage_of,
    describe_document,
    describe_ref,
    marked_line,
    uncited_title,
    verdict_title,
)
from tests.support.helpers import claim, session, source


def analysis_of(value: object) -> Analysis:
    return Analysis(json.dumps(value, ensure_ascii=False, indent=2))


def blocks(text: list) -> list[str]:
    return [b.text for b in text if isinstance(b, Block)]


def test_a_claim_is_told_with_its_text_and_every_source():
    analysis = analysis_of(
        session([{"claim": claim(), "sources": [source(), source(polarity="refutes", confidence=0.4)]}])
    )
    told = describe_ref(analysis, analysis.session.annotations[0].claim, ())
    assert told[0] == Para((Strong("claim"), " · ", Code("article"), ", line 1"))
    assert blocks(told) == [
        "outcome was positive",
        "outcome of the trial was positive",
        "outcome of the trial was positive",
    ]
    assert Rule() in told
    assert any(isinstance(b, Para) and "2 sources: 1 supports, 1 refutes" in b.parts for b in told)


def test_a_ref_that_fails_is_told_why_with_the_occurrences_marked():
    analysis = analysis_of(session([{"claim": claim("article", (2, "the"), (2, "end")), "sources": [source()]}]))
    told = describe_ref(analysis, analysis.session.annotations[0].claim, ("start", "str"))
    assert told[0] == Para((Strong("claim does not resolve"),))
    messages = [part.text for b in told if isinstance(b, Para) for part in b.parts if isinstance(part, Plain)]
    assert any("occurs twice" in m for m in messages)
    assert "The the the end.\n    ^^^ ^^^" in blocks(told)


def test_untrusted_text_is_kept_apart_from_our_prose():
    analysis = analysis_of(
        session(
            documents=[{"path": "a`<b>", "content": "x **y** z"}, {"path": "report", "content": "ok"}],
            annotations=[
                {"claim": claim("a`<b>", (1, "x"), (1, "z")), "sources": [source("report", (1, "ok"), (1, "ok"))]}
            ],
        )
    )
    told = describe_ref(analysis, analysis.session.refs[0], ())
    assert Code("a`<b>") in told[0].parts and Block("x **y** z") in told


def test_a_document_is_told_with_its_size_and_citations():
    analysis = analysis_of(session())
    told = describe_document(analysis, "report")
    assert told[0] == Para((Strong("document"), " ", Code("report"), " · 3 lines"))
    assert told[1] == Para(("cited by 1 ref (0 claims, 1 sources)",))
    assert describe_document(analysis, "nowhere") == []


SECOND = {"start": (3, "Confidence"), "end": (3, "high.")}  # another span of the report


@pytest.mark.parametrize(
    "sources, title",
    [
        ([source(confidence=0.95), source(confidence=0.5, **SECOND)], "supported: 2 supports (max 0.95)"),
        ([source(confidence=0.2)], "supported only weakly: 1 supports (max 0.2)"),
        (
            [source(confidence=0.8), source(polarity="refutes", confidence=0.9, **SECOND)],
            "contested: 1 supports (max 0.8) · 1 refutes (max 0.9)",
        ),
        ([source(polarity="refutes", confidence=0.9)], "refuted: 1 refutes (max 0.9)"),
        ([source(polarity="refutes", confidence=0.1)], "refuted only weakly: 1 refutes (max 0.1)"),
        ([source(confidence=1)], "supported: 1 supports (max 1)"),
        ([], "unverified: no source counts"),
        ([source(polarity="Supports"), source(confidence="high", **SECOND)], "unverified: no source counts"),
    ],
)
def test_a_verdict_title_names_the_verdict_and_the_counted_sources_it_comes_from(sources, title):
    analysis = analysis_of(session([{"claim": claim(), "sources": sources}]))
    (verdict,) = analysis.summary.verdicts
    assert verdict_title(verdict) == title


def test_only_counted_sources_are_counted_in_a_verdict_title():
    sources = [source(confidence=0.6), source(confidence=7, **SECOND), source("nowhere", confidence=0.99)]
    analysis = analysis_of(session([{"claim": claim(), "sources": sources}]))
    assert verdict_title(analysis.summary.verdicts[0]) == "supported: 1 supports (max 0.6)"


def test_a_claim_that_does_not_resolve_and_an_item_that_is_no_object_are_unresolved():
    analysis = analysis_of(session([{"claim": claim(start=(2, "the")), "sources": [source()]}, 7]))
    assert [verdict_title(v) for v in analysis.summary.verdicts] == ["unresolved: the claim does not resolve"] * 2


def test_a_document_title_counts_the_refs_citing_it_and_its_uncited_passages():
    analysis = analysis_of(session())
    article, report = analysis.session.documents
    assert citations_title(analysis, article) == "cited by 1 ref"
    coverage = coverage_of(analysis, article)
    assert coverage is not None and [(run.start, run.end) for run in coverage.runs] == [(0, 20), (40, 71)]
    assert uncited_title(coverage) == "2 uncited passages (72%)"
    assert coverage_of(analysis, report) is None  # cited by a source only


def test_a_cited_document_is_told_with_how_much_of_it_no_claim_cites():
    told = describe_document(analysis_of(session()), "article")
    assert told[2] == Para(("72% of its text is cited by no claim (2 passages)",))
    whole = session([{"claim": claim("article", (1, "The"), (3, "line.")), "sources": [source()]}])
    assert describe_document(analysis_of(whole), "article")[2] == Para(("all of its text is cited by claims",))
    assert len(describe_document(analysis_of(session()), "report")) == 2  # no claim cites it: nothing to say


def test_a_marked_line_puts_carets_under_wide_characters_at_their_width():
    assert marked_line("a 中文 b 中文", [2, 7], 2) == "a 中文 b 中文\n  ^^^^   ^^^^"

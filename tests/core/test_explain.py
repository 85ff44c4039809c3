"""What is told about refs, annotations and documents, as plain data for any edge to render."""

import json

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.explain import (
    Block,
    Code,
    Para,
    Plain,
    Rule,
    Strong,
    coverage_title,
    describe_document,
    describe_ref,
    marked_line,
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


def test_verdict_and_coverage_titles():
    analysis = analysis_of(
        session([{"claim": claim(), "sources": [source(confidence=0.95), source(polarity="refutes", confidence=0.5)]}])
    )
    assert verdict_title(analysis.session.annotations[0]) == "contested: 1 supports (max 0.95) · 1 refutes (max 0.5)"
    article = analysis.session.by_path["article"]
    assert coverage_title(analysis, article) == "cited by 1 ref · 1 of 3 lines covered"


def test_a_marked_line_puts_carets_under_wide_characters_at_their_width():
    assert marked_line("a 中文 b 中文", [2, 7], 2) == "a 中文 b 中文\n  ^^^^   ^^^^"

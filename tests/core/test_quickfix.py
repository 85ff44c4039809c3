"""Every quick fix removes its finding and adds no error: on crafted and generated sessions."""

import json
from collections import Counter

import pytest

from bench.sessiongen import generate
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.quickfix import apply, confidence_number, polarity_word, quick_fixes
from sourcecheck.core.session import Severity
from tests.support.helpers import claim, crafted, session, source


def errors(analysis, by_code=False):
    return Counter(
        f.code if by_code else (f.code, f.pointer) for f in analysis.findings if f.severity is Severity.ERROR
    )


def check_every_fix(text):
    """Apply each fix offered; return the titles, asserting the promise of each."""
    analysis = Analysis(text)
    titles = []
    for finding in analysis.findings:
        for fix in quick_fixes(analysis, finding):
            titles.append(fix.title)
            for edit in fix.edits:  # nothing but whole JSON values is replaced (or an item removed)
                if edit.text:
                    json.loads(text[edit.start : edit.end])
                    json.loads(edit.text)
            fixed = Analysis(apply(text, fix.edits))
            assert not fixed.tree.issues, fix.title  # still JSON
            if finding.code == "empty-sources":  # the pointers after it move up by one
                assert errors(fixed, True) == errors(analysis, True) - Counter({"empty-sources": 1}), fix.title
                continue
            assert (finding.code, finding.pointer) not in {(f.code, f.pointer) for f in fixed.findings}, fix.title
            assert not errors(fixed) - errors(analysis), fix.title
    return titles


@pytest.mark.parametrize("indent", [None, 2])
def test_every_kind_of_fix_on_a_crafted_session(indent):
    titles = check_every_fix(json.dumps(crafted(), ensure_ascii=False, indent=indent))
    assert (
        'Extend start to "the the": cites "the the end"' in titles
        and 'Extend start to "the end": cites "the end"' in titles
    )
    assert 'Change polarity to "supports"' in titles and "Change confidence to 0.95 (if it was a percentage)" in titles
    assert 'Change path to "report"' in titles
    assert "Change confidence to 0.9" in titles
    assert "Normalize line breaks to \\n" in titles
    assert 'Change polarity to "refutes"' in titles
    assert "Change confidence to 1" in titles
    assert "Remove this annotation (it has no sources)" in titles
    assert 'Move start to line 3, where "Confidence" is unique' in titles


def test_normalizing_a_lone_cr_renumbers_the_refs_after_it():
    text = json.dumps(crafted(), indent=2)
    analysis = Analysis(text)
    (finding,) = [f for f in analysis.findings if f.code == "non-lf-content"]
    (fix,) = quick_fixes(analysis, finding)
    fixed = Analysis(apply(text, fix.edits))
    ref = fixed.refs_by_path[("annotations", 2, "claim")]
    assert (ref.start.line, ref.end.line) == (3, 4) and ref.text == "four\nfive"


@pytest.mark.parametrize("seed", range(25))
def test_every_fix_on_generated_broken_sessions(seed):
    text = generate(seed, documents=3, lines=10, annotations=20, broken=0.35).text(indent=None if seed % 2 else 2)
    check_every_fix(text)


def test_near_misses():
    assert [polarity_word(w) for w in ["support", "Supports", "refute", "SUPPORTED", " refutes ", "maybe", 3]] == [
        "supports",
        "supports",
        "refutes",
        "supports",
        "refutes",
        None,
        None,
    ]
    assert [confidence_number(v) for v in [95, "0.9", "80%", 1.004, -0.001, 250, True, "x"]] == [
        0.95,
        0.9,
        0.8,
        1.0,
        0.0,
        None,
        None,
        None,
    ]


# --- fixes for the cases users met ------------------------------------------------------

QUOTED = [
    {"path": "article", "content": "He said ‘on the way out.’ and left.\nThe target is here.\nEnd."},
    {"path": "report", "content": "Summary\nThe outcome of the trial was positive.\nConfidence is high."},
]


def fixes_for(value, code, indent=2):
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    analysis = Analysis(text)
    (finding,) = [f for f in analysis.findings if f.code == code]
    return text, quick_fixes(analysis, finding)


def test_a_boundary_typed_with_plain_quotes_is_fixed_with_the_exact_text_of_the_line():
    value = session([{"claim": claim("article", (1, "'on the way out.'"), (1, "left")), "sources": [source()]}], QUOTED)
    text, fixes = fixes_for(value, "boundary-not-found")
    assert [(f.title, f.preferred) for f in fixes] == [('Write the line\'s exact text: "‘on the way out.’"', True)]
    fixed = Analysis(apply(text, fixes[0].edits))
    assert fixed.findings == [] and fixed.session.refs[0].text == "‘on the way out.’ and left"
    check_every_fix(text)


def test_a_start_after_its_end_is_fixed_by_swapping_the_two_strings():
    value = session([{"claim": claim("article", (2, "here"), (2, "target")), "sources": [source()]}], QUOTED)
    text, fixes = fixes_for(value, "boundary-order")
    assert [(f.title, f.preferred) for f in fixes] == [('Swap the start and end strings: cites "target is here"', True)]
    fixed = Analysis(apply(text, fixes[0].edits))
    assert fixed.findings == [] and fixed.session.refs[0].text == "target is here"
    check_every_fix(text)


def test_a_confidence_of_1_5_gets_no_fix_and_a_percentage_fix_is_never_preferred():
    assert fixes_for(session([{"claim": claim(), "sources": [source(confidence=1.5)]}]), "bad-confidence")[1] == []
    _, fixes = fixes_for(session([{"claim": claim(), "sources": [source(confidence=95)]}]), "bad-confidence")
    assert [(f.title, f.preferred) for f in fixes] == [("Change confidence to 0.95 (if it was a percentage)", False)]
    _, fixes = fixes_for(session([{"claim": claim(), "sources": [source(confidence=1.000001)]}]), "bad-confidence")
    assert [(f.title, f.preferred) for f in fixes] == [("Change confidence to 1", True)]  # rounding: no guess


@pytest.mark.parametrize("indent", [None, 2, 4])
def test_an_annotation_with_no_sources_is_offered_a_source_to_fill_in_first_and_its_removal_second(indent):
    value = session([{"claim": claim(), "sources": [source()]}, {"claim": claim(), "sources": []}])
    text, fixes = fixes_for(value, "empty-sources", indent)
    assert [(f.title, f.preferred) for f in fixes] == [
        ('Add a source to fill in (from "report", line 1: "Summary")', False),
        ("Remove this annotation (it has no sources)", False),
    ]
    added = apply(text, fixes[0].edits)
    expected = json.loads(text)
    expected["annotations"][1]["sources"] = [
        {
            "path": "report",
            "start": {"line": 1, "str": "Summary"},
            "end": {"line": 1, "str": "Summary"},
            "polarity": "supports",
            "confidence": 0.5,
        }
    ]
    assert added == json.dumps(expected, indent=indent)  # laid out as the file is
    assert Analysis(added).findings == []
    check_every_fix(text)


def test_a_misspelled_key_is_renamed_from_either_finding():
    value = session([{"claim": claim(), "sources": [source(polarity=None, polarty="supports")]}])
    text = json.dumps(value, indent=2)
    analysis = Analysis(text)
    offered = {f.code: [(x.title, x.preferred) for x in quick_fixes(analysis, f)] for f in analysis.findings}
    assert offered == {
        "bad-polarity": [('Rename "polarty" to "polarity"', True)],
        "unknown-field": [('Rename "polarty" to "polarity"', True)],
    }
    (fix,) = quick_fixes(analysis, analysis.findings[1])
    assert Analysis(apply(text, fix.edits)).findings == []
    check_every_fix(text)


def test_extending_a_boundary_finishes_the_word_it_stops_in():
    from sourcecheck.core.fixes import extend_left, extend_right

    line = "with some data and with something else"
    assert extend_right(line, 19, 4) == "with something"  # not "with s"
    line = "the end of the road and the edge"
    assert extend_right(line, 24, 3) == "the edge"  # not "the e"
    assert extend_left("one apple, the red apple", 24, 5) == "red apple"
    # A word that ends far away keeps the shortest unique string.
    assert extend_right("ab abcdefghijklmnopqrstuvwxyz", 3, 2) == "abc"

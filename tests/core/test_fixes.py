"""Every fix removes its finding and adds no error, on crafted and generated sessions; each
says what it writes and is safe only where docs/rules.md says (core/fixes.py)."""

import json
from collections import Counter

import pytest

from bench.sessiongen import generate
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.edits import apply
from sourcecheck.core.fixes import fix_of, fixed, repairs
from sourcecheck.core.meant import confidence_meant, polarity_word
from sourcecheck.core.session import Severity
from tests.support.helpers import REPORT, claim, crafted, session, source


def errors(analysis, by_code=False):
    return Counter(
        f.code if by_code else (f.code, f.pointer) for f in analysis.findings if f.severity is Severity.ERROR
    )


def check_every_fix(text):
    """Apply each fix offered; return the titles, asserting the promise of each."""
    analysis = Analysis(text)
    titles = []
    for finding in analysis.findings:
        for fix in repairs(analysis, finding):
            titles.append((fix.title, fix.applicability))
            for edit in fix.edits:  # nothing but whole JSON values is replaced (or an item removed)
                if edit.text:
                    json.loads(text[edit.start : edit.end])
                    json.loads(edit.text)
            after = Analysis(apply(text, fix.edits))
            assert not after.tree.issues, fix.title  # still JSON
            if finding.code == "empty-sources":  # the pointers after it move up by one
                assert errors(after, True) == errors(analysis, True) - Counter({"empty-sources": 1}), fix.title
                continue
            assert (finding.code, finding.pointer) not in {(f.code, f.pointer) for f in after.findings}, fix.title
            assert not errors(after) - errors(analysis), fix.title
    return titles


@pytest.mark.parametrize("indent", [None, 2])
def test_every_kind_of_fix_on_a_crafted_session(indent):
    titles = check_every_fix(json.dumps(crafted(), ensure_ascii=False, indent=indent))
    assert ('Extend start to "the the": cites "the the end"', "unsafe") in titles and (
        'Extend start to "the end": cites "the end"',
        "unsafe",
    ) in titles
    assert ('Change polarity to "supports"', "safe") in titles
    assert ("Change confidence to 0.95 (if it was a percentage)", "unsafe") in titles
    assert ('Change path to "report": cites "outcome of the trial was positive"', "unsafe") in titles  # a guess
    assert ("Change confidence to 0.9", "safe") in titles
    assert ("Normalize CR (the refs after each renumbered) line breaks to \\n", "unsafe") in titles
    assert ('Change polarity to "refutes"', "safe") in titles
    assert ("Change confidence to 1 (rounded into [0, 1])", "unsafe") in titles
    assert ("Remove this annotation (it has no sources)", "unsafe") in titles
    assert ('Move start to line 3, where "Confidence" is unique: cites "Confidence is high"', "unsafe") in titles


def test_normalizing_a_lone_cr_renumbers_the_refs_after_it():
    text = json.dumps(crafted(), indent=2)
    analysis = Analysis(text)
    (finding,) = [f for f in analysis.findings if f.code == "non-lf-content"]
    (fix,) = repairs(analysis, finding)
    assert not fix.safe  # lines are renumbered: a guess that each meant the text after a lone CR
    after = Analysis(apply(text, fix.edits))
    ref = after.session.ref_at_path(("annotations", 2, "claim"))
    assert ref is not None
    assert (ref.start.line, ref.end.line) == (3, 4) and ref.text == "four\nfive"


@pytest.mark.parametrize("seed", range(25))
def test_every_fix_on_generated_broken_sessions(seed):
    text = generate(seed, documents=3, lines=10, annotations=20, broken=0.35).text(indent=None if seed % 2 else 2)
    check_every_fix(text)


def test_what_a_polarity_or_a_confidence_was_meant_to_be_and_whether_that_is_evident():
    assert [
        polarity_word(w) for w in ["support", "Supports", "refute", "SUPPORTED", " refutes ", "suport", "maybe", 3]
    ] == [
        ("supports", True),
        ("supports", True),
        ("refutes", True),
        ("supports", True),
        ("refutes", True),
        ("supports", False),
        None,
        None,
    ]
    assert [confidence_meant(v) for v in [95, "0.9", "80%", 1.004, -0.001, 250, True, "x", "high", 1.5, 10**400]] == [
        (0.95, "if it was a percentage"),
        (0.9, None),
        (0.8, "if it was a percentage"),
        (1.0, "rounded into [0, 1]"),
        (0.0, "rounded into [0, 1]"),
        None,
        None,
        None,
        (0.9, "the band of 'high' in the spec"),
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
    return text, repairs(analysis, finding)


def test_a_boundary_typed_with_plain_quotes_is_fixed_with_the_exact_text_of_the_line():
    value = session([{"claim": claim("article", (1, "'on the way out.'"), (1, "left")), "sources": [source()]}], QUOTED)
    text, fixes = fixes_for(value, "boundary-not-found")
    assert [(f.title, f.applicability) for f in fixes] == [
        ('Write "‘on the way out.’", the line\'s exact text: cites "‘on the way out.’ and left"', "safe")
    ]
    after = Analysis(apply(text, fixes[0].edits))
    assert after.findings == [] and after.session.refs[0].text == "‘on the way out.’ and left"
    check_every_fix(text)


def test_a_start_after_its_end_is_fixed_by_swapping_the_two_strings():
    value = session([{"claim": claim("article", (2, "here"), (2, "target")), "sources": [source()]}], QUOTED)
    text, fixes = fixes_for(value, "boundary-order")
    assert [(f.title, f.applicability) for f in fixes] == [
        ('Swap the start and end strings: cites "target is here"', "unsafe")
    ]
    after = Analysis(apply(text, fixes[0].edits))
    assert after.findings == [] and after.session.refs[0].text == "target is here"
    check_every_fix(text)


def test_a_confidence_of_1_5_gets_no_fix_and_a_percentage_fix_is_never_preferred():
    assert fixes_for(session([{"claim": claim(), "sources": [source(confidence=1.5)]}]), "bad-confidence")[1] == []
    _, fixes = fixes_for(session([{"claim": claim(), "sources": [source(confidence=95)]}]), "bad-confidence")
    assert [(f.title, f.applicability) for f in fixes] == [
        ("Change confidence to 0.95 (if it was a percentage)", "unsafe")
    ]
    _, fixes = fixes_for(session([{"claim": claim(), "sources": [source(confidence=1.000001)]}]), "bad-confidence")
    assert [(f.title, f.applicability) for f in fixes] == [("Change confidence to 1 (rounded into [0, 1])", "unsafe")]
    _, fixes = fixes_for(session([{"claim": claim(), "sources": [source(confidence="0.9")]}]), "bad-confidence")
    assert [(f.title, f.applicability) for f in fixes] == [("Change confidence to 0.9", "safe")]  # only its type


@pytest.mark.parametrize("indent", [None, 2, 4])
def test_an_annotation_with_no_sources_is_offered_a_source_to_fill_in_first_and_its_removal_second(indent):
    value = session([{"claim": claim(), "sources": [source()]}, {"claim": claim(), "sources": []}])
    text, fixes = fixes_for(value, "empty-sources", indent)
    assert [(f.title, f.applicability) for f in fixes] == [
        ('Add a source to fill in (from "report", line 1: "Summary")', "unsafe"),
        ("Remove this annotation (it has no sources)", "unsafe"),
    ]
    assert fix_of(Analysis(text), Analysis(text).findings[0]) == (
        None,
        repairs(Analysis(text), Analysis(text).findings[0]),
    )
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
    offered = {f.code: [(x.title, x.applicability) for x in repairs(analysis, f)] for f in analysis.findings}
    assert offered == {
        "bad-polarity": [('Rename "polarty" to "polarity"', "unsafe")],
        "unknown-field": [('Rename "polarty" to "polarity"', "unsafe")],
    }
    (fix,) = repairs(analysis, analysis.findings[1])
    assert Analysis(apply(text, fix.edits)).findings == []
    check_every_fix(text)


def test_extending_a_boundary_finishes_the_word_it_stops_in():
    from sourcecheck.core.extend import extend_left, extend_right

    line = "with some data and with something else"
    assert extend_right(line, 19, 4) == "with something"  # not "with s"
    line = "the end of the road and the edge"
    assert extend_right(line, 24, 3) == "the edge"  # not "the e"
    assert extend_left("one apple, the red apple", 24, 5) == "red apple"
    # A word that ends far away keeps the shortest unique string.
    assert extend_right("ab abcdefghijklmnopqrstuvwxyz", 3, 2) == "abc"


def test_the_fix_loop_applies_only_fixes_of_findings_with_one_repair_and_stops():
    text = json.dumps(crafted(), ensure_ascii=False, indent=2)
    safe = fixed(text)
    codes_fixed = [code for code, _, _ in safe.applied]
    assert sorted(codes_fixed) == ["bad-confidence", "bad-polarity", "bad-polarity"]  # "0.9"; Supports, refute
    assert fixed(safe.text).applied == ()  # nothing more applies: stable
    every = fixed(text, unsafe=True)
    left = {f.code for f in Analysis(every.text).findings}
    assert "boundary-ambiguous" in left and "empty-sources" in left  # several repairs: only suggestions


def test_a_sources_unknown_path_is_never_guessed_to_be_its_claims_own_document():
    documents = [
        {"path": "notes-2024", "content": "The outcome was positive."},
        {"path": "notes-2025", "content": "The outcome was positive."},
    ]
    value = session(
        [
            {
                "claim": claim("notes-2024", (1, "outcome"), (1, "positive")),
                "sources": [source("notes-2026", (1, "outcome"), (1, "positive"))],
            }
        ],
        documents,
    )
    _, fixes = fixes_for(value, "unknown-path")
    assert [f.title for f in fixes] == ['Change path to "notes-2025": cites "outcome was positive"']


def test_a_quote_in_a_fix_title_is_escaped_as_the_json_it_writes():
    documents = [
        {"path": "article", "content": 'First.\nHe said "hi") and left.'},
        {"path": "report", "content": REPORT},
    ]
    value = session([{"claim": claim("article", (1, '")'), (2, "left.")), "sources": [source()]}], documents)
    _, fixes = fixes_for(value, "boundary-not-found")
    assert [f.title for f in fixes] == ['Move start to line 2, where "\\")" is unique: cites "\\") and left."']

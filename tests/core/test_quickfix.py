"""Every quick fix removes its finding and adds no error: on crafted and generated sessions."""

import json
from collections import Counter

import pytest

from bench.sessiongen import generate
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.quickfix import apply, confidence_number, polarity_word, quick_fixes
from sourcecheck.core.session import Severity
from tests.support.helpers import crafted


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
    assert 'Change polarity to "supports"' in titles and "Change confidence to 0.95" in titles
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

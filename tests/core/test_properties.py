"""Invariants that hold for every session: what the rules promise, checked on many."""

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bench.sessiongen import generate, unique_from, unique_to
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.positions import Encoding

alphabet = st.sampled_from(list('ab a\u0301中🚀\t"\\/') + ["the ", "aa"])
line = st.lists(alphabet, min_size=1, max_size=12).map("".join)


@given(st.lists(line, min_size=1, max_size=5), st.data())
@settings(max_examples=300)
def test_a_ref_of_substrings_unique_on_their_lines_resolves_to_exactly_its_span(lines, data):
    first = data.draw(st.integers(0, len(lines) - 1))
    last = data.draw(st.integers(first, len(lines) - 1))
    i = data.draw(st.integers(0, len(lines[first]) - 1))
    low = i + 1 if first == last else 1
    j = data.draw(st.integers(low, len(lines[last])))
    start, end = unique_from(lines[first], i), unique_to(lines[last], j)
    assume(start is not None and end is not None)
    expected = (
        lines[first][i:j] if first == last else "\n".join([lines[first][i:], *lines[first + 1 : last], lines[last][:j]])
    )
    value = {
        "documents": [{"path": "d", "content": "\n".join(lines)}, {"path": "e", "content": "x"}],
        "annotations": [
            {
                "claim": {
                    "path": "d",
                    "start": {"line": first + 1, "str": start},
                    "end": {"line": last + 1, "str": end},
                },
                "sources": [
                    {
                        "path": "e",
                        "start": {"line": 1, "str": "x"},
                        "end": {"line": 1, "str": "x"},
                        "polarity": "supports",
                        "confidence": 1,
                    }
                ],
            }
        ],
    }
    analysis = Analysis(json.dumps(value, ensure_ascii=data.draw(st.booleans())))
    ref = analysis.session.refs[0]
    assert analysis.findings == []
    assert ref.valid and ref.text == expected


def value_at(root, path):
    for part in path:
        root = root[part]
    return root


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("layout", ["indent", "minified", "crlf", "ascii"])
def test_every_finding_sits_exactly_on_the_value_its_pointer_names(seed, layout):
    generated = generate(seed, documents=2, lines=8, annotations=15, broken=0.3)
    text = json.dumps(generated.session, ensure_ascii=layout == "ascii", indent=None if layout == "minified" else 2)
    if layout == "crlf":
        text = text.replace("\n", "\r\n")
    analysis = Analysis(text)
    root = json.loads(text)
    assert analysis.findings
    for finding in analysis.findings:
        start, end = analysis.extent(finding)
        assert json.loads(text[start:end]) == value_at(root, finding.path), finding
        # The same place survives the trip through UTF-16 positions and back.
        span = analysis.finding_span(finding, Encoding.UTF16)
        assert analysis.lines.offset(span.start) == start and analysis.lines.offset(span.end) == end

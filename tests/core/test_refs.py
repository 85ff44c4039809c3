"""A ref made from a selection resolves to exactly the selected text, or says why it cannot."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.occurrences import occurrences
from sourcecheck.core.refs import Boundaries, Uncitable, cite, find_text, nearest_line, resolves_to
from sourcecheck.core.session import Document

WORDS = ["the", "the", "a", "cat", "cats", "中文", "🚀", "é", "aa", "x", "\\", '"', "\t", "  "]
line_text = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)
documents = st.lists(line_text, min_size=1, max_size=5).map("\n".join)


def selection(content: str):
    return st.tuples(st.integers(0, max(0, len(content) - 1)), st.integers(1, 40)).map(
        lambda p: (p[0], min(len(content), p[0] + p[1]))
    )


@settings(max_examples=400)
@given(st.data())
def test_a_cited_selection_resolves_to_exactly_that_text(data):
    content = data.draw(documents)
    if not content:
        return
    start, end = data.draw(selection(content))
    document = Document("doc", content, ("documents", 0))
    result = cite(document, start, end)
    if isinstance(result, Uncitable):
        assert result.reason
        impossible_here(content, start, end)
        return
    assert resolves_to(document, result) == content[start:end]
    # and the checker agrees, in a whole session written as JSON
    session = {
        "documents": [{"path": "doc", "content": content}, {"path": "src", "content": "ok"}],
        "annotations": [
            {
                "claim": result.as_json(),
                "sources": [
                    {
                        "path": "src",
                        "start": {"line": 1, "str": "ok"},
                        "end": {"line": 1, "str": "ok"},
                        "polarity": "supports",
                        "confidence": 1,
                    }
                ],
            }
        ],
    }
    analysis = Analysis(json.dumps(session, ensure_ascii=False))
    claim = analysis.session.refs[0]
    assert claim.valid and claim.text == content[start:end]


def impossible_here(content: str, start: int, end: int) -> None:
    """A selection is refused only when no boundary string could cite it."""
    if start >= end or content[start] == "\n" or content[end - 1] == "\n":
        return
    line_start = content.rfind("\n", 0, start) + 1
    line = content[line_start:].split("\n")[0]
    column = start - line_start
    start_ok = any(occurrences(line, line[column:stop])[1] == 1 for stop in range(column + 1, len(line) + 1))
    last_start = content.rfind("\n", 0, end - 1) + 1
    last = content[last_start:].split("\n")[0]
    end_column = end - last_start
    end_ok = any(occurrences(last, last[begin:end_column])[1] == 1 for begin in range(end_column - 1, -1, -1))
    assert not (start_ok and end_ok), "refused although both boundaries could be made unique"


def test_boundaries_stop_at_word_ends_and_span_lines():
    document = Document("d", "The cat sat on the mat.\nThe dog ran off.", ("documents", 0))
    start = document.content.index("cat")
    end = document.content.index("ran") + 3
    result = cite(document, start, end)
    assert result == Boundaries("d", 1, "cat", 2, "ran")


def test_a_selection_that_no_boundary_can_tell_apart_is_refused_with_a_reason():
    document = Document("d", "abcabc", ("documents", 0))
    result = cite(document, 3, 6)
    assert isinstance(result, Uncitable) and "unique on line 1" in result.reason


def test_a_selection_that_starts_at_a_line_break_is_refused():
    document = Document("d", "one\ntwo", ("documents", 0))
    result = cite(document, 3, 6)
    assert isinstance(result, Uncitable) and "line break" in result.reason


def test_text_is_found_with_its_lines_and_the_nearest_line_when_absent():
    document = Document("d", "alpha beta\ngamma beta\ndelta", ("documents", 0))
    assert [o.line for o in find_text(document, "beta")] == [1, 2]
    assert [o.line for o in find_text(document, "beta", line=2)] == [2]
    assert find_text(document, "zeta") == []
    assert nearest_line(document, "gamma bet!") == (2, "gamma beta")

"""A long line's index (core/lineindex.py, Document.occurrences): many boundaries on one long
line found as a search of it finds them, each at the cost of its own length once the line is
indexed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sourcecheck.core.lineindex import LineIndex
from sourcecheck.core.occurrences import occurrences
from sourcecheck.core.session import INDEX_AFTER, LONG_LINE, Document

WORDS = ["alpha", "beta", "eta", "zeta", "theta", "été", "中文", "x_y", "42", "a", "ab", "aba"]
MARKS = [" ", " ", ", ", ". ", "-", "—", "‘", "’", "(", ")"]


@st.composite
def long_lines(draw):
    pieces = draw(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(MARKS)), min_size=30, max_size=60))
    unit = "".join(word + mark for word, mark in pieces)
    return (unit * (LONG_LINE // len(unit) + 2))[: LONG_LINE + draw(st.integers(0, 500))]


@st.composite
def needles(draw, line):
    if draw(st.booleans()):  # a piece of the line: present
        start = draw(st.integers(0, len(line) - 2))
        return line[start : start + draw(st.integers(1, 30))]
    return draw(st.text(alphabet="".join(WORDS) + "".join(MARKS) + "q", min_size=1, max_size=20))


@settings(max_examples=150)
@given(st.data())
def test_a_long_lines_index_finds_what_a_search_finds(data):
    line = data.draw(long_lines())
    document = Document("d", "head\n" + line + "\ntail", ("documents", 0))
    asked = [data.draw(needles(line)) for _ in range(INDEX_AFTER + 12)]  # the index is made on the way
    for needle in asked + asked:  # and asked again: what was found is kept
        assert document.occurrences(2, needle) == occurrences(line, needle), needle


def test_absent_strings_are_told_by_the_vocabulary_and_present_ones_by_their_rarest_word(monkeypatch):
    line = ("alpha beta gamma delta epsilon zeta eta theta " * 50_000)[:2_000_000] + " the one rare-word here."
    index = LineIndex(line)
    assert index.absent("nowhere 7") and index.absent("missing 3 ‘x’") and index.absent("gamm delta")
    assert not index.absent("mma del") and not index.absent("eta")
    assert index.find_all("one rare-word", 1000) == ([line.index("one rare-word")], 1)
    assert index.find_all("eta", 1000) is None  # no whole word: the line is searched
    from sourcecheck.core import session

    scans = []
    monkeypatch.setattr(session, "occurrences", lambda text, needle: scans.append(needle) or occurrences(text, needle))
    document = Document("d", line, ("documents", 0))
    for i in range(2000):  # two thousand scans of 2 MB: seconds; asked of the index, none past the first few
        assert document.occurrences(1, f"nowhere {i}") == ([], 0)
    assert len(scans) == INDEX_AFTER - 1

"""core/nearmiss.py on its own: each kind of near miss from a few lines of text, and the two
shortcuts its speed rests on, checked against what they stand for: a pattern of a line with its
quotes and dashes written one way (``flat``) matches where the pattern of every quote and dash
matches the line as it is, and a line the cheap test (:func:`_may_match`) turns away holds no
match. A :class:`Survey` answers as the one-off functions do, whatever it was asked before."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sourcecheck.core import nearmiss
from sourcecheck.core.nearmiss import DASHES, QUOTES_DOUBLE, QUOTES_SINGLE, Survey, candidates, near_misses

LINES = [
    "The quick brown fox jumps over the lazy dog.",
    "It said \u201chello\u201d to the world \u2014 twice.",
    "Rich works with **Linux**, macOS and Windows!",
    "A line about C-extensions and the build.",
    "",
    "The end of it: the quick brown fox again.",
]


def kinds(needle: str, line: int, side: nearmiss.Side = "start") -> list[tuple[int, str, bool, int]]:
    return [(m.line, m.text, m.safe, m.rank) for m in near_misses(LINES, line, needle, side)]


def test_typed_quotes_for_typographic_ones_are_the_line_s_text_and_safe():
    assert kinds('said "hello"', 2) == [(2, "said \u201chello\u201d", True, 1)]


def test_letters_in_another_case_are_found_and_safe_when_once_on_the_line():
    assert kinds("QUICK brown", 1) == [(1, "quick brown", True, 1)]


def test_a_hyphen_for_a_dash_and_a_dropped_comma_are_guesses():
    assert kinds("world - twice", 2) == [(2, "world \u2014 twice", False, 2)]
    assert kinds("Linux macOS", 3) == [(3, "**Linux**, macOS", False, 2)]  # the markup taken in whole
    assert kinds("C extensions", 4) == [(4, "C-extensions", False, 2)]


def test_a_period_for_the_line_s_exclamation_mark_keeps_it():
    assert kinds("and Windows.", 3) == [(3, "and Windows!", False, 2)]


def test_a_string_on_another_line_is_found_nearest_first():
    assert kinds("lazy dog", 3) == [(1, "lazy dog", False, 0)]
    # on lines 1 and 6 alike: line 6, two lines from line 4, before line 1, three from it
    assert [m[0] for m in kinds("quick brown fox", 4)] == [6, 1]


def test_nothing_like_it_anywhere_is_no_near_miss():
    assert kinds("\u00a7nowhere\u00a7", 1) == []
    assert kinds("", 1) == []
    assert kinds("fox", 99) == []


def test_candidates_hold_every_kind_each_once():
    found = [(m.line, m.text) for m in candidates(LINES, 4, "quick brown fox", "start")]
    assert found == [(6, "quick brown fox"), (1, "quick brown fox")]
    assert len(found) == len(set(found))


def test_a_survey_answers_as_the_one_off_functions_whatever_it_was_asked_before():
    survey = Survey(LINES)
    asked = [("quick brown fox", 4, "start"), ("QUICK brown", 1, "end"), ("world - twice", 2, "start")]
    for needle, line, side in asked + asked[::-1]:
        assert survey.near_misses(line, needle, side) == near_misses(LINES, line, needle, side)
        assert survey.candidates(line, needle, side) == candidates(LINES, line, needle, side)


ALPHABET = "ab Ab" + QUOTES_SINGLE + QUOTES_DOUBLE + DASHES + ",.*_`~[]()…\u00a0\t"


def spans(pattern: re.Pattern[str] | None, line: str) -> list[tuple[int, int]]:
    return [m.span() for m in nearmiss._matches(pattern, line, limit=10)] if pattern is not None else []


@settings(max_examples=400)
@given(st.text(ALPHABET, min_size=1, max_size=8), st.text(ALPHABET, max_size=40), st.booleans())
def test_a_flat_pattern_of_a_flat_line_matches_where_the_full_pattern_matches_the_line(needle, line, markup):
    flat_line = line.translate(nearmiss._FLAT_LOOSE if markup else nearmiss._FLAT)
    assert len(flat_line) == len(line)
    full = spans(nearmiss._pattern(needle, markup, flat=False), line)
    assert spans(nearmiss._pattern(needle, markup, flat=True), flat_line) == full


@settings(max_examples=400)
@given(st.text(ALPHABET, min_size=1, max_size=8), st.text(ALPHABET, max_size=40), st.booleans())
def test_a_line_the_cheap_test_turns_away_holds_no_match(needle, line, markup):
    if not nearmiss._may_match(line.lower(), needle, markup):
        assert spans(nearmiss._pattern(needle, markup, flat=False), line) == []


def test_a_pattern_is_built_without_a_table_of_every_character():
    # (a class of quotes past U+00FF in a pattern cost re.compile a 65,536-entry table each
    # time: some 100 us a quote or a space, a fifth of a mistaken session's check)
    body = nearmiss._pattern("it\u2019s a \u201cword\u201d \u2014 or two", True).pattern
    assert not any(ord(ch) > 0xFF for ch in body.replace("…", ""))

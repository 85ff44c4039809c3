"""Extending an ambiguous boundary until it is unique, without moving the span."""

import json

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.extend import extend_left, extend_right, extensions, preferred
from tests.support.helpers import claim, session, source


def test_start_grows_right_to_the_shortest_unique_string_preferring_a_word_end():
    line = "the cat and the dog and the cow"
    assert extend_right(line, 0, 3) == "the cat"  # "the c" is unique; "the cat" ends a word 2 later
    assert extend_right(line, 12, 3) == "the dog"
    assert extend_right(line, 24, 3) == "the cow"


def test_end_grows_left_preferring_a_word_start():
    line = "one apple, two apple, red apple"
    assert extend_left(line, 9, 5) == "one apple"
    assert extend_left(line, len(line), 5) == "red apple"


def test_an_occurrence_that_cannot_be_made_unique_gets_no_extension():
    assert extend_right("abab", 2, 2) is None
    assert extend_left("abab", 2, 2) is None


def test_no_word_boundary_nearby_keeps_the_shortest():
    line = "xxxxxxxxxA xxxxxxxxxB"
    assert extend_right(line, 0, 1) == "xxxxxxxxxA"
    assert extend_right("aaaaaaaaab aaaaaaaaac", 0, 1) == "aaaaaaaaab"


def ambiguous_claim(start, end):
    text = json.dumps(session([{"claim": claim("article", start, end), "sources": [source()]}]))
    analysis = Analysis(text)
    return analysis.session.refs[0]


def test_one_extension_per_occurrence_titled_with_the_span_it_gives():
    ref = ambiguous_claim((2, "the"), (2, "end"))  # line 2: "The the the end."
    found = extensions(ref, "start")
    assert [(e.new_str, e.column, e.span_text) for e in found] == [
        ("the the", 4, "the the end"),
        ("the end", 8, "the end"),
    ]
    assert preferred(found) is None  # both give a forward span: the author must choose


def test_the_only_forward_span_is_preferred():
    ref = ambiguous_claim((1, "report"), (1, "e"))  # line 1: "The report says the outcome was positive."
    found = extensions(ref, "end")
    forward = [e for e in found if e.forward]
    assert len(found) > 1 and len(forward) > 1
    ref = ambiguous_claim((1, "positive"), (1, "o"))
    found = extensions(ref, "end")
    assert [e.forward for e in found].count(True) == 1
    assert preferred(found).span_text == "po"

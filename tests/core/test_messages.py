"""What the findings say: each message names what is wrong as the writer sees it (lines, the
text of the line, the key that was meant) and says what to do, in the cases users met."""

import json

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.rules import check
from sourcecheck.core.schema import parse_session as parse
from sourcecheck.core.syntax import to_python
from tests.support.helpers import claim, codes, session, source

DOCS = [
    {
        "path": "article",
        "content": "He said ‘on the way out.’ and left.\nA\u00a0non-breaking space.\nTabbed\ttext.\n"
        "line 4\nline 5\nThe target is here.\nEnd.",
    },
    {"path": "report", "content": "Summary\nThe outcome of the trial was positive.\nConfidence is high."},
]


def messages(value, code):
    return [f.message for f in Analysis(json.dumps(value, ensure_ascii=False, indent=2)).findings if f.code == code]


def one_claim(start, end, **source_fields):
    return session([{"claim": claim("article", start, end), "sources": [source(**source_fields)]}], DOCS)


# --- boundary-not-found ------------------------------------------------------------------


def test_a_boundary_with_typed_quotes_for_typographic_ones_says_so_not_case_and_accents():
    (message,) = messages(one_claim((1, "'on the way out.'"), (1, "left")), "boundary-not-found")
    assert message == (
        '`"\'on the way out.\'"` does not occur on line 1 of `article`, but `"‘on the way out.’"` does: the line '
        'has typographic quotes (‘ ’) where `str` has typed ones (\'). Write `"‘on the way out.’"`'
    )
    assert "case and accents" not in message


def test_a_boundary_with_a_space_for_a_non_breaking_space_says_so_and_shows_it():
    (message,) = messages(one_claim((2, "A non"), (2, "space")), "boundary-not-found")
    assert message == (
        '`"A non"` does not occur on line 2 of `article`, but `"A\\u00a0non"` does: the line has a non-breaking '
        'space (U+00A0) where `str` has a space. Write `"A\\u00a0non"`'
    )


def test_a_boundary_with_a_space_for_a_tab_says_so():
    (message,) = messages(one_claim((3, "Tabbed text"), (3, "text.")), "boundary-not-found")
    assert "the line has a tab where `str` has a space" in message


def test_a_boundary_with_a_space_after_its_lines_last_character_says_so_and_writes_it_without():
    (message,) = messages(one_claim((6, "The"), (6, "here. ")), "boundary-not-found")
    assert message == (
        '`"here. "` does not occur on line 6 of `article`, but `"here."` does: `str` has a space at its end, '
        'where line 6 ends. Write `"here."`'
    )


def test_a_boundary_with_a_space_before_its_lines_first_character_says_so():
    (message,) = messages(one_claim((7, " End"), (7, "End.")), "boundary-not-found")
    assert message == (
        '`" End"` does not occur on line 7 of `article`, but `"End"` does: `str` has a space at its start, '
        'where line 7 starts. Write `"End"`'
    )


def test_a_boundary_that_is_unique_a_line_or_two_away_says_on_which_line_it_occurs():
    (message,) = messages(one_claim((4, "target"), (6, "here")), "boundary-not-found")
    assert message == (
        '`"target"` does not occur on line 4 of `article`; it occurs once on line 6: write 6 for `start.line`'
    )


def test_a_boundary_three_lines_away_is_found_and_nine_lines_away_is_too_far_to_guess():
    (message,) = messages(one_claim((3, "target"), (6, "here")), "boundary-not-found")
    assert message == (
        '`"target"` does not occur on line 3 of `article`; it occurs once on line 6: write 6 for `start.line`'
    )
    far = [{"path": "article", "content": "Tabbed\ttext.\n" + "filler\n" * 8 + "The target is here."}, DOCS[1]]
    value = session([{"claim": claim("article", (1, "target"), (10, "here")), "sources": [source()]}], far)
    (message,) = messages(value, "boundary-not-found")
    assert message.startswith('`"target"` does not occur on line 1 of `article`, which reads `Tabbed\\ttext.`; check')


def test_a_boundary_found_nowhere_near_keeps_the_general_advice():
    (message,) = messages(one_claim((1, "nowhere"), (1, "left")), "boundary-not-found")
    assert message.endswith("check the line number and the exact text (matching is exact, case and accents included)")


# --- boundary-order ----------------------------------------------------------------------


def test_a_start_after_the_end_on_one_line_says_the_span_would_run_backwards():
    (message,) = messages(one_claim((6, "here"), (6, "target")), "boundary-order")
    assert message == (
        '`start.str` `"here"` (column 15) begins after `end.str` `"target"` ends (column 10) on line 6 of '
        "`article`: the span would run backwards. Swap the boundaries or fix them"
    )


# --- confidence --------------------------------------------------------------------------


def test_a_confidence_of_1_5_gets_no_percentage_hint():
    value = session([{"claim": claim(), "sources": [source(confidence=1.5)]}])
    assert messages(value, "bad-confidence") == [
        "`confidence` `1.5` is outside [0, 1]; a confidence is at most 1 (the most authoritative source)"
    ]


def test_a_confidence_that_reads_as_a_percentage_gets_the_hint():
    value = session([{"claim": claim(), "sources": [source(confidence=95)]}])
    assert messages(value, "bad-confidence") == [
        "`confidence` `95` is outside [0, 1]: write 0.95 (if it was a percentage)"
    ]


# --- misspelled keys ---------------------------------------------------------------------


def test_a_misspelled_polarity_says_did_you_mean_and_the_missing_polarity_names_the_misspelling():
    value = session([{"claim": claim(), "sources": [source(polarity=None, polarty="supports")]}])
    analysis = Analysis(json.dumps(value, indent=2))
    # docs/rules.md: a source with no `polarity` is bad-polarity (exit 2); the misspelled key is an
    # unknown-field warning on its value. Both stay, each saying what the other is about.
    assert [(f.code, f.pointer, f.message) for f in analysis.findings] == [
        (
            "bad-polarity",
            "/annotations/0/sources/0",
            "this source has no `polarity` (`polarty` looks like a misspelling of it; rename that key)",
        ),
        (
            "unknown-field",
            "/annotations/0/sources/0/polarty",
            '`"polarty"` is not a field of a source: did you mean `polarity`? (The fields are `path`, `start`, '
            "`end`, `polarity`, `confidence`.)",
        ),
    ]
    assert analysis.exit_code == 2


def test_a_key_like_no_missing_field_keeps_the_plain_unknown_field_message():
    value = session([{"claim": claim(), "sources": [source(note="x")]}])
    assert messages(value, "unknown-field") == [
        '`"note"` is not a field of a source; the fields are `path`, `start`, `end`, `polarity`, `confidence`. '
        "Check the spelling or remove it"
    ]


def test_other_missing_keys_name_their_misspelling_too():
    value = session(
        [{"claim": {"path": "article", "strat": {"line": 1, "str": "outcome"}, "end": {"line": 1, "str": "x"}}}]
    )
    value["annotations"][0]["sources"] = [source()]
    assert "(`strat` looks like a misspelling of it; rename that key)" in messages(value, "invalid-field")[0]


# --- messages name lines, not pointers -----------------------------------------------------


def line_lookup(text):
    """The 1-based line in ``text`` of the value at a path (what an analysis knows)."""
    tree = parse(text)

    def line_of(path):
        extent = tree.locate(path)
        return None if extent is None else text.count("\n", 0, extent[0]) + 1

    return tree, line_of


DUPLICATES = session(
    [{"claim": claim(), "sources": [source(), source()]}],
    [*session()["documents"], {"path": "report", "content": "again"}],
)


def test_a_duplicate_source_names_the_line_of_the_first_one():
    text = json.dumps(DUPLICATES, indent=2)
    tree, line_of = line_lookup(text)
    _, findings, _ = check(to_python(tree.root), line_of=line_of)
    first_line = line_of(("annotations", 0, "sources", 0))
    (message,) = [f.message for f in findings if f.code == "duplicate-source"]
    assert message == f"this source repeats the coordinates of the source on line {first_line}; remove one of them"
    (message,) = [f.message for f in findings if f.code == "duplicate-path"]
    assert f"(the first one is on line {line_of(('documents', 1))})" in message
    assert "/" not in message.replace("`report`", "")  # no JSON pointer


def test_without_lines_a_duplicate_names_the_first_one_by_its_place_not_its_pointer():
    _, findings, _ = check(DUPLICATES)
    said = {f.code: f.message for f in findings}
    assert (
        said["duplicate-source"]
        == "this source repeats the coordinates of source 1 of this annotation; remove one of them"
    )
    assert "(the first one is document 2 of the session)" in said["duplicate-path"]
    assert codes_of(findings) == [
        ("duplicate-path", "/documents/2/path"),
        ("duplicate-source", "/annotations/0/sources/1"),
    ]


def codes_of(findings):
    return [(f.code, f.pointer) for f in findings]


def test_the_cli_and_the_server_show_the_line_of_the_first_duplicate():
    text = json.dumps(DUPLICATES, indent=2)
    _, line_of = line_lookup(text)
    (finding,) = [f for f in Analysis(text).findings if f.code == "duplicate-source"]
    assert f"the source on line {line_of(('annotations', 0, 'sources', 0))}" in finding.message


def test_findings_still_sit_where_rules_md_puts_them():
    value = session([{"claim": claim(), "sources": [source(polarity=None, polarty="supports")]}])
    assert codes(Analysis(json.dumps(value))) == [
        ("bad-polarity", "/annotations/0/sources/0"),
        ("unknown-field", "/annotations/0/sources/0/polarty"),
    ]

"""Each rule of docs/rules.md, its finding code, severity, pointer and the text it resolves."""

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sourcecheck.core import syntax
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.occurrences import occurrences
from sourcecheck.core.registry import ALL_CODES, SEVERITY
from sourcecheck.core.session import Severity, pointer
from tests.support.helpers import ARTICLE, analyze, claim, codes, session, source


def refs(analysis):
    return [(r.valid, r.text) for r in analysis.session.refs]


def test_a_valid_session_resolves_every_ref_and_has_no_findings():
    a = analyze(session())
    assert a.findings == []
    assert refs(a) == [(True, "outcome was positive"), (True, "outcome of the trial was positive")]
    assert a.exit_code == 0


def test_the_spec_example_resolves_to_i_am_gpt():
    a = analyze(
        session(
            [{"claim": claim("a", (1, "I"), (1, "T")), "sources": [source("a", (1, "Hello"), (1, ","))]}],
            [{"path": "a", "content": "Hello, I am GPT\nHow are you feeling today?\nWe can talk now."}],
        )
    )
    assert a.session.refs[0].text == "I am GPT"


def test_a_multiline_ref_keeps_the_line_breaks_between_its_lines():
    a = analyze(session([{"claim": claim("report", (1, "mary"), (3, "Confidence")), "sources": [source()]}]))
    assert a.session.refs[0].text == "mary\nThe outcome of the trial was positive.\nConfidence"


def test_the_cli_shape_with_session_documents_is_accepted():
    value = session()
    value = {"session": {"documents": value["documents"]}, "annotations": value["annotations"]}
    a = analyze(value)
    assert a.findings == [] and a.session.shape == "cli"


def test_occurrences_are_counted_overlapping():
    assert occurrences("aaa", "aa") == ([0, 1], 2)
    a = analyze(
        session(
            [{"claim": claim("x", (1, "aa"), (1, "b")), "sources": [source()]}],
            [
                {"path": "x", "content": "aaab"},
                {"path": "report", "content": "Summary\nThe outcome of the trial was positive."},
            ],
        )
    )
    assert codes(a) == [("boundary-ambiguous", "/annotations/0/claim/start/str")]


@pytest.mark.parametrize(
    "start, end, expected",
    [
        ((0, "The"), (1, "positive"), [("line-out-of-range", "/annotations/0/claim/start/line")]),
        (
            (4, "The"),
            (1, "positive"),
            [
                ("line-out-of-range", "/annotations/0/claim/start/line"),
                ("lines-reversed", "/annotations/0/claim/start/line"),
            ],
        ),
        ((1, ""), (1, "positive"), [("boundary-empty", "/annotations/0/claim/start/str")]),
        ((1, "nope"), (1, "positive"), [("boundary-not-found", "/annotations/0/claim/start/str")]),
        ((2, "the"), (2, "end"), [("boundary-ambiguous", "/annotations/0/claim/start/str")]),
        (
            (2, "end"),
            (1, "e"),
            [
                ("lines-reversed", "/annotations/0/claim/start/line"),
                ("boundary-ambiguous", "/annotations/0/claim/end/str"),
            ],
        ),
        ((1, "positive"), (1, "report"), [("boundary-order", "/annotations/0/claim/start/str")]),
        ((1, "says"), (1, "says"), []),
        ((1, "ys"), (1, "says"), []),  # start inside end: its first character is not after end's last
    ],
)
def test_boundary_rules_apply_in_order_on_their_values(start, end, expected):
    a = analyze(session([{"claim": claim("article", start, end), "sources": [source()]}]))
    assert codes(a) == expected


def test_a_start_inside_the_end_boundary_resolves_from_the_start():
    a = analyze(session([{"claim": claim("article", (1, "ys"), (1, "says")), "sources": [source()]}]))
    assert a.session.refs[0].text == "ys"


def test_an_unknown_path_stops_the_ref_there():
    a = analyze(session([{"claim": claim("nowhere", (99, ""), (0, "x")), "sources": [source()]}]))
    assert codes(a) == [("unknown-path", "/annotations/0/claim/path")]


@pytest.mark.parametrize(
    "mutate, pointer",
    [
        (lambda c: c["start"].__setitem__("line", 1.0), "/annotations/0/claim/start/line"),
        (lambda c: c["start"].__setitem__("line", True), "/annotations/0/claim/start/line"),
        (lambda c: c["start"].__setitem__("line", "1"), "/annotations/0/claim/start/line"),
        (lambda c: c["end"].__setitem__("str", None), "/annotations/0/claim/end/str"),
        (lambda c: c.__setitem__("path", 3), "/annotations/0/claim/path"),
        (lambda c: c.pop("path"), "/annotations/0/claim"),
        (lambda c: c.pop("end"), "/annotations/0/claim"),
        (lambda c: c["start"].pop("str"), "/annotations/0/claim/start"),
        (lambda c: c.__setitem__("start", "1:outcome"), "/annotations/0/claim/start"),
    ],
)
def test_a_ref_of_the_wrong_shape_is_invalid_field_and_checked_no_further(mutate, pointer):
    value = session()
    mutate(value["annotations"][0]["claim"])
    value["annotations"][0]["claim"]["end"] = (
        value["annotations"][0]["claim"].get("end", {"line": 1, "str": "zzz"})
        if "end" in value["annotations"][0]["claim"]
        else None
    )
    if value["annotations"][0]["claim"]["end"] is None:
        del value["annotations"][0]["claim"]["end"]
    a = analyze(value)
    assert codes(a) == [("invalid-field", pointer)]
    assert a.session.refs[0].valid is False
    assert a.exit_code == 2


@pytest.mark.parametrize(
    "field, value, expected",
    [
        ("polarity", "support", [("bad-polarity", "/annotations/0/sources/0/polarity")]),
        ("polarity", "Supports", [("bad-polarity", "/annotations/0/sources/0/polarity")]),
        ("polarity", 1, [("bad-polarity", "/annotations/0/sources/0/polarity")]),
        ("polarity", ["supports"], [("bad-polarity", "/annotations/0/sources/0/polarity")]),
        ("confidence", 95, [("bad-confidence", "/annotations/0/sources/0/confidence")]),
        ("confidence", -0.01, [("bad-confidence", "/annotations/0/sources/0/confidence")]),
        ("confidence", "0.9", [("bad-confidence", "/annotations/0/sources/0/confidence")]),
        ("confidence", True, [("bad-confidence", "/annotations/0/sources/0/confidence")]),
        ("confidence", 0, [("low-confidence", "/annotations/0/sources/0/confidence")]),
        ("confidence", 0.29, [("low-confidence", "/annotations/0/sources/0/confidence")]),
        ("confidence", 0.3, []),
        ("confidence", 1, []),
    ],
)
def test_polarity_and_confidence(field, value, expected):
    a = analyze(session([{"claim": claim(), "sources": [source(**{field: value})]}]))
    assert codes(a) == expected


def test_missing_polarity_and_confidence_sit_on_the_source_object():
    a = analyze(session([{"claim": claim(), "sources": [source(polarity=None, confidence=None)]}]))
    assert codes(a) == [("bad-polarity", "/annotations/0/sources/0"), ("bad-confidence", "/annotations/0/sources/0")]


def test_confidence_that_is_not_finite_is_bad():
    text = json.dumps(session()).replace('"confidence": 0.9', '"confidence": 1e400')
    assert codes(Analysis(text)) == [("bad-confidence", "/annotations/0/sources/0/confidence")]


def test_annotation_level_rules():
    a = analyze(
        session(
            [
                {"claim": claim(), "sources": []},
                {"claim": claim()},
                {"sources": [source()]},
                {"claim": claim(), "sources": {}},
                7,
            ]
        )
    )
    assert codes(a) == [
        ("empty-sources", "/annotations/0/sources"),
        ("invalid-field", "/annotations/1"),
        ("invalid-field", "/annotations/2"),
        ("invalid-field", "/annotations/3/sources"),
        ("invalid-field", "/annotations/4"),
    ]


def test_warnings_never_change_the_exit_code():
    a = analyze(
        session(
            [
                {
                    "claim": claim(),
                    "sources": [
                        source("article", (1, "report"), (1, "says"), note="x"),
                        source("article", (1, "report"), (1, "says"), confidence=0.1),
                    ],
                }
            ]
        )
    )
    assert codes(a) == [
        ("self-citation", "/annotations/0/sources/0/path"),
        ("unknown-field", "/annotations/0/sources/0/note"),
        ("duplicate-source", "/annotations/0/sources/1"),
        ("self-citation", "/annotations/0/sources/1/path"),
        ("low-confidence", "/annotations/0/sources/1/confidence"),
    ]
    assert a.exit_code == 0


def test_document_rules():
    docs = [
        {"path": "article", "content": "one\r\ntwo"},
        {"path": "article", "content": "shadowed"},
        {"path": "report", "content": 3},
        {"content": "x"},
        "y",
    ]
    a = analyze(
        session(
            [{"claim": claim("article", (2, "two"), (2, "two")), "sources": [source("report", (1, "x"), (1, "x"))]}],
            docs,
        )
    )
    assert codes(a) == [
        ("non-lf-content", "/documents/0/content"),
        ("duplicate-path", "/documents/1/path"),
        ("invalid-field", "/documents/2/content"),
        ("invalid-field", "/documents/3"),
        ("invalid-field", "/documents/4"),
        ("unknown-path", "/annotations/0/sources/0/path"),
    ]
    # Resolution runs on the \n-split lines of the first document: the \r stays in the line.
    assert a.session.refs[0].text == "two"


def test_the_top_level_needs_documents_and_annotations():
    assert codes(analyze({"documents": []})) == [("invalid-field", "")]
    assert codes(analyze({"annotations": []})) == [("invalid-field", "")]
    assert codes(analyze([])) == [("invalid-field", "")]
    assert codes(analyze({"documents": [], "annotations": [], "extra": 1})) == [("unknown-field", "/extra")]
    assert codes(analyze({"session": {"documents": [], "annotations": []}, "annotations": []})) == [
        ("unknown-field", "/session/annotations")
    ]


def test_pointers_escape_slash_and_tilde():
    a = analyze({"documents": [], "annotations": [], "a/b~c": 1})
    assert codes(a) == [("unknown-field", "/a~1b~0c")]


_PARTS = st.one_of(st.integers(0, 99), st.sampled_from(["annotations", "sources", "claim", "a/b", "~", "s~1"]))


@given(st.lists(_PARTS, max_size=6))
def test_a_pointer_is_rfc_6901s_whatever_path_it_is_of(path):
    """A source's path takes a quick way (thirty thousand of them in a large --json): the same
    pointer as every other path's."""
    written = "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
    assert pointer(tuple(path)) == written


def test_duplicate_keys_warn_and_the_last_value_wins():
    text = json.dumps(session(), indent=1).replace(
        '"polarity": "supports"', '"polarity": "refutes", "polarity": "supports"'
    )
    a = Analysis(text)
    assert codes(a) == [("duplicate-key", "/annotations/0/sources/0/polarity")]
    assert a.session.refs[1].polarity == "supports"


def test_a_clean_annotation_is_not_decoded_again_to_know_that_it_holds_no_key_twice(monkeypatch):
    # The parse decodes annotations without their pairs; the check, finding one clean, says
    # how many keys it has: as many `:` in its text, and it has no key twice (see JLazy).
    text = json.dumps(session(), indent=1)
    monkeypatch.setattr(syntax, "holds_duplicates", lambda *_: pytest.fail("decoded again"))
    a = Analysis(text)
    assert codes(a) == []
    (item,) = a.tree.root.member("annotations").value.items
    assert item.has_duplicates is False and a.tree.unsure == []


def test_invalid_json_is_exit_2_and_complete_annotations_are_still_checked():
    text = json.dumps(
        session([{"claim": claim("article", (1, "nope"), (1, "positive")), "sources": [source()]}]), indent=1
    )
    text = text[: text.rindex("]")]  # cut the end off
    a = Analysis(text)
    assert [c for c, _ in codes(a)] == ["boundary-not-found", "invalid-json"]
    assert a.exit_code == 2


def test_every_code_has_a_severity_from_the_table():
    assert len(ALL_CODES) == 19
    assert SEVERITY["low-confidence"] is Severity.HINT
    assert {c for c in ALL_CODES if SEVERITY[c] is Severity.WARNING} == {
        "unknown-field",
        "duplicate-key",
        "self-citation",
        "duplicate-source",
    }


def test_messages_name_the_value_and_say_what_to_do():
    a = analyze(session([{"claim": claim("article", (2, "the"), (2, "end")), "sources": [source()]}]))
    (finding,) = a.findings
    assert (
        finding.message == '`"the"` occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique'
    )


@given(
    st.text(st.sampled_from("ab"), max_size=400)
    | st.builds(lambda n, c: c * n, st.integers(0, 3000), st.sampled_from("ab")),
    st.text(st.sampled_from("ab"), min_size=1, max_size=8),
)
def test_occurrences_are_counted_overlapping_as_a_lookahead_counts_them(line, needle):
    """Up to a thousand, the count is what the regular expression `(?=needle)` finds, one by
    one; past it, "more than a thousand" (1001), which changes no finding."""
    found, count = occurrences(line, needle)
    every = [m.start() for m in re.finditer("(?=" + re.escape(needle) + ")", line)]
    assert count == min(len(every), 1001) and found == every[:1000]


def test_a_boundary_found_more_than_a_thousand_times_says_so_and_costs_a_thousand_searches():
    line = "ababX" * 400_000  # 2 MB
    found, count = occurrences(line, "abab")
    assert len(found) == 1000 and count == 1001 and found[:2] == [0, 5]
    sources = [source("x", (1, "abab"), (1, "abab")) for _ in range(3)]
    a = analyze(
        session(
            [{"claim": claim("article", (1, "says"), (1, "says")), "sources": sources}],
            [{"path": "article", "content": ARTICLE}, {"path": "x", "content": line}],
        )
    )
    messages = [f.message for f in a.findings if f.code == "boundary-ambiguous"]
    assert len(messages) == 6 and "occurs more than 1,000 times on line 1" in messages[0]

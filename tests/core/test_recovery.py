"""Recovering from broken JSON quietly: one finding per mistake, and the rest of the file
keeps its meaning (what the cases that users saw, and a corpus of small broken texts, hold to)."""

import json
from collections import Counter

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.fixes import apply, fixed, repairs
from sourcecheck.core.schema import parse_session as parse
from sourcecheck.core.syntax import to_python
from tests.support.helpers import claim, codes, session, source


def syntax_messages(text):
    return [issue.message for issue in parse(text).issues]


def findings(text):
    analysis = Analysis(text)
    return [(f.code, f.pointer, analysis.extent(f), f.message) for f in analysis.findings]


SESSION = json.dumps(session(), indent=2)


# --- what users saw ----------------------------------------------------------------------


def test_a_content_typed_with_real_line_breaks_is_one_finding_saying_to_write_them_as_backslash_n():
    text = SESSION.replace(
        '"content": "Summary\\nThe outcome of the trial was positive.\\nConfidence is high."',
        '"content": "Summary\nThe outcome of the trial was positive.\nConfidence is high."',
    )
    assert text != SESSION
    analysis = Analysis(text)
    assert [(f.code, f.message) for f in analysis.findings] == [
        (
            "invalid-json",
            "this string goes on over 3 lines, but a JSON string cannot hold a raw line break: write each one as `\\n`",
        )
    ]
    assert analysis.extent(analysis.findings[0])[0] == text.index("Summary\n") + len("Summary")
    # The rest keeps its meaning: the document is there, every ref resolves.
    assert not any("no annotations" in f.message for f in analysis.findings)
    assert [(r.valid, r.text) for r in analysis.session.refs] == [
        (True, "outcome was positive"),
        (True, "outcome of the trial was positive"),
    ]


def test_pasted_text_with_line_breaks_and_quotes_in_it_is_still_one_string():
    text = (
        '{"documents": [{"path": "a", "content": "Line one\nLine two said "hi" to me\nLine three"}], "annotations": []}'
    )
    tree = parse(text)
    assert to_python(tree.root)["documents"][0]["content"] == 'Line one\nLine two said "hi" to me\nLine three'
    messages = [i.message for i in tree.issues]
    assert len(messages) == 2 and "raw line break" in messages[0] and '`\\"`' in messages[1]


def test_a_string_left_open_at_the_end_of_its_line_is_one_finding_and_the_next_lines_still_parse():
    text = '{"a": "oops,\n "b": 2}'
    assert syntax_messages(text) == ['this string is never closed; add the closing `"` at the end of its line']
    assert to_python(parse(text).root)["b"] == 2


def test_a_string_missing_its_opening_quote_is_one_finding_at_its_place_fixed_safely():
    text = SESSION.replace('"str": "outcome"', '"str": outcome"', 1)
    analysis = Analysis(text)
    (finding,) = analysis.findings
    assert (finding.code, finding.message) == ("invalid-json", 'this string has no opening `"`: write `"outcome"`')
    at = text.index('outcome"')
    assert analysis.extent(finding) == (at, at + len('outcome"'))
    assert analysis.value["annotations"][0]["claim"]["start"]["str"] == "outcome"  # the rest as meant: it resolves
    (fix,) = repairs(analysis, finding)
    assert (fix.title, fix.applicability) == ('Add the opening quote: `"outcome"`', "safe")
    assert apply(text, fix.edits) == SESSION
    assert fixed(text).text == SESSION


@pytest.mark.parametrize(
    ("written", "meant", "applicability"),
    [
        ('"str": Rich text"', "Rich text", "safe"),
        ('"str": don\'t" ', "don't", "safe"),
        ('"str":Rich",\n"line": 2', "Rich", "safe"),
    ],
)
def test_a_value_missing_its_opening_quote_is_read_to_its_closing_quote(written, meant, applicability):
    text = '{"a": {' + written + "\n}}"
    analysis = Analysis(text)
    (finding,) = [f for f in analysis.findings if f.code == "invalid-json"]
    assert finding.message == f'this string has no opening `"`: write `"{meant}"`'
    assert analysis.value["a"]["str"] == meant
    (fix,) = repairs(analysis, finding)
    assert fix.applicability == applicability == "safe"
    after = Analysis(apply(text, fix.edits))
    assert not after.tree.issues and after.value == analysis.value


@pytest.mark.parametrize(
    "text",
    [
        '{"path": b, "start": {"line": 1}}',  # the next quote opens a key
        '{"a": Rich}',  # no closing quote
        '{"a": Rich"x"}',  # what follows the quote is not the end of a value
        '{"a": {b: "c"}}',  # a key without quotes
        '{"a": [b c, "d"]}',  # a comma before the quote: two strings, or one? (not guessed)
    ],
)
def test_a_bare_word_without_a_closing_quote_after_it_is_not_a_string(text):
    assert not any("no opening" in message for message in syntax_messages(text))


def test_an_unescaped_quote_inside_a_string_is_one_finding_saying_to_write_backslash_quote():
    text = SESSION.replace('"str": "outcome"', '"str": "say "hi" now"', 1)
    analysis = Analysis(text)
    invalid = [f for f in analysis.findings if f.code == "invalid-json"]
    assert [f.message for f in invalid] == [
        'a `"` inside a string ends it: write each quote that is part of the text as `\\"` (2 of them)'
    ]
    assert analysis.extent(invalid[0]) == (text.index('"hi"'), text.index('"hi"') + 4)
    assert analysis.value["annotations"][0]["claim"]["start"]["str"] == 'say "hi" now'
    # What is left is about the value as meant: that text is not on line 1.
    assert codes(analysis) == [("boundary-not-found", "/annotations/0/claim/start/str"), ("invalid-json", "")]


def test_a_boundary_missing_its_closing_brace_is_one_finding_where_the_brace_goes():
    text = json.dumps(session(), indent=None).replace('"str": "outcome"}, "end"', '"str": "outcome", "end"', 1)
    analysis = Analysis(text)
    (finding,) = analysis.findings
    assert finding.code == "invalid-json"
    assert finding.message == "`start` is not closed: add `}` here, before `end` (a key of the object around `start`)"
    at = text.index('"outcome"') + len('"outcome"')
    assert analysis.extent(finding) == (at, at)
    assert [r.valid for r in analysis.session.refs] == [True, True]  # the ref reads as meant


def test_a_misplaced_key_in_valid_json_is_left_as_written():
    # Braces that balance are not second-guessed: `end` inside `start` is what the file says.
    value = session()
    ref = value["annotations"][0]["claim"]
    ref["start"]["end"] = ref.pop("end")
    assert sorted(codes(Analysis(json.dumps(value)))) == [
        ("invalid-field", "/annotations/0/claim"),
        ("unknown-field", "/annotations/0/claim/start/end"),
    ]


@pytest.mark.parametrize(
    "text, count",
    [("[1.0e-]", 1), ("[-123.123foo]", 1)],
)
def test_a_bad_number_is_one_finding(text, count):
    assert len(parse(text).issues) == count


def test_a_bad_unicode_escape_is_about_its_digits():
    assert syntax_messages('["\\u12G4"]') == ["`\\u12G4`: a \\u escape needs four hex digits"]
    assert syntax_messages('["\\u00"]') == ["`\\u00`: a \\u escape needs four hex digits"]


def test_a_value_the_parser_could_not_read_is_not_reported_again_as_missing():
    text = SESSION.replace('"confidence": 0.9', '"confidence": NaN')
    assert [(f.code, f.message) for f in Analysis(text).findings] == [
        ("invalid-json", "`NaN` is not JSON; write a number or null")
    ]
    assert Analysis(text).exit_code == 2
    for broken in ('"polarity": supports', '"polarity": ', '"polarity": 1.2.3'):
        text = SESSION.replace('"polarity": "supports"', broken)
        assert [c for c, _ in codes(Analysis(text))] == ["invalid-json"], broken
    text = json.dumps(session([{"claim": claim(), "sources": []}]), indent=2).replace(
        '"sources": []', '"sources": [NaN]'
    )
    assert [c for c, _ in codes(Analysis(text))] == ["invalid-json"]  # not also empty-sources


def test_a_value_that_is_missing_is_still_reported():
    value = session([{"claim": claim(), "sources": [source(confidence=None)]}])
    assert codes(Analysis(json.dumps(value))) == [("bad-confidence", "/annotations/0/sources/0")]


# --- a corpus of small broken texts -------------------------------------------------------

# (name, text, mistakes): texts in the manner of JSONTestSuite's n_* cases, written here.
CORPUS = [
    ("trailing garbage", '{"a": 1} x', 1),
    ("trailing object", "{} {}", 1),
    ("trailing bracket", "[1]]", 1),
    ("single quoted string", "['x']", 1),
    ("single quoted key", "{'a': 1}", 1),
    ("unquoted key", "{a: 1}", 1),
    ("unclosed array", "[1, 2", 1),
    ("unclosed nested arrays", "[[[[", 1),
    ("unclosed object", '{"a": 1', 1),
    ("unclosed string", '["abc', 1),
    ("unclosed after colon", '{"a":', 1),
    ("leading zero", "[01]", 1),
    ("leading zeros", "[-007]", 1),
    ("leading comma", "[,1]", 1),
    ("double comma", "[1,,2]", 1),
    ("trailing comma in array", "[1,]", 1),
    ("trailing comma in object", '{"a":1,}', 1),
    ("missing colon", '{"a" "b"}', 1),
    ("missing value", '{"a": }', 1),
    ("missing colon and value", '{"a"}', 1),
    ("missing comma", "[1 true]", 1),
    ("missing comma between strings", '["a" "b"]', 1),
    ("colon in array", '["a": 1]', 1),
    ("raw tab in string", '["a\tb"]', 1),
    ("raw tabs in string", '["a\tb\tc"]', 1),
    ("raw control character", '["a\x01b"]', 1),
    ("raw line break in string", '["a\nb"]', 1),
    ("bad escape", '["\\x41"]', 1),
    ("bad unicode escape", '["\\u12G4"]', 1),
    ("short unicode escape", '["\\u00"]', 1),
    ("lone surrogate escape", '["\\ud800"]', 0),
    ("NaN", "[NaN]", 1),
    ("Infinity", "[Infinity]", 1),
    ("minus Infinity", "[-Infinity]", 1),
    ("Python True", "[True]", 1),
    ("bare word", "[tru]", 1),
    ("plus sign", "[+1]", 1),
    ("leading dot", "[.5]", 1),
    ("trailing dot", "[1.]", 1),
    ("empty exponent", "[1.0e-]", 1),
    ("number with letters", "[-123.123foo]", 1),
    ("hex number", "[0x1F]", 1),
    ("line comment", '{"a": 1 // note\n}', 1),
    ("block comment", '{"a": /* x */ 1}', 1),
    ("unclosed comment", '{"a": 1} /* x', 1),
    ("deep nesting", "[" * 300 + "]" * 300, 1),
    ("deep unclosed nesting", "[" * 300, 1),
    ("truncated session", '{"documents": [{"path": "a", "content": "x"}], "annotations": [{"claim": {"pa', 1),
    ("wrong closer for object", '[{"a": 1]', 1),
    ("wrong closer for array", '{"a": [1, 2}', 1),
    ("byte order mark", '\ufeff{"a": 1}', 1),
    ("empty file", "", 1),
    ("unescaped quote", '{"a": "say "hi" now"}', 1),
    ("unclosed string before a key", '{"a": "oops,\n "b": 2}', 1),
    ("word after a value", '{"a": tru e}', 1),
    ("value where a key goes", '{"a": 1, {"b": 2}}', 1),
    ("extra closing brace in an item", '[{"a": 1}, "b": 2}]', 1),
    ("stray single quote", "[' 1]", 1),
    ("stray bracket where a key goes", '{"a": 1, [ "b": 2}', 1),
]


@pytest.mark.parametrize("name, text, mistakes", CORPUS, ids=[case[0] for case in CORPUS])
def test_each_mistake_in_broken_json_is_one_finding_and_no_range_holds_two(name, text, mistakes):
    issues = parse(text).issues
    assert len(issues) == mistakes, [i.message for i in issues]
    analysis = Analysis(text)
    syntax = [f for f in analysis.findings if f.code == "invalid-json"]
    ranges = Counter(analysis.extent(f) for f in analysis.findings)
    assert all(ranges[analysis.extent(f)] == 1 for f in syntax), findings(text)
    assert len(syntax) == mistakes <= 2
    # Nothing of the mistake reaches the rules: what they add is only that these small
    # values are no sessions (no `documents`, a key that is not a session's).
    rest = [(f.code, f.pointer) for f in analysis.findings if f.code != "invalid-json"]
    assert all(p == "" or (c == "unknown-field" and p.count("/") == 1) for c, p in rest), findings(text)


def test_the_corpus_is_of_the_size_asked_for():
    assert len(CORPUS) >= 40


@pytest.mark.parametrize("name, text, mistakes", CORPUS, ids=[case[0] for case in CORPUS])
def test_a_broken_text_inside_a_session_leaves_the_session_around_it_readable(name, text, mistakes):
    if not text or text.startswith("\ufeff") or text.count("[") > 100:
        return  # not a value that can sit inside another
    value = session()
    wrapped = json.dumps(value, indent=2)
    broken = wrapped.replace('"annotations": [', '"extra": ' + text.rstrip() + ',\n  "annotations": [', 1)
    analysis = Analysis(broken)
    if analysis.tree.issues and not any(i.end >= len(broken) - 1 for i in analysis.tree.issues):
        # The mistake stayed where it is: the annotation after it still resolves.
        assert analysis.session.refs and all(r.valid for r in analysis.session.refs), findings(broken)


# --- an annotation being typed between two others -----------------------------------------

_TYPED = json.dumps(
    session(annotations=[{"claim": claim(), "sources": [source()]}] * 3), indent=2
)  # three annotations, each on its own lines


_CLAIM = '{"claim": ' + json.dumps(claim()) + ", "


@pytest.mark.parametrize(
    ("half", "issue"),
    [
        ("{", "this annotation is not closed: add `},` here, before the next one (or finish typing it)"),
        (
            '{"claim": {"path": "article',
            'this string is never closed, nor is the annotation it is in: add `"}},` here, before the next one '
            "(or finish typing it)",
        ),
        (_CLAIM + '"sources": [', "this annotation is not closed: add `]},` here"),
        (_CLAIM + '"sources": [\n      ', "this annotation is not closed: add `]},` here"),
        ('{"claim": {"path": "article", "start": {"line": 1', "this annotation is not closed: add `}}},` here"),
    ],
)
def test_a_half_typed_annotation_before_others_is_one_issue_and_the_others_keep_their_meaning(half, issue):
    # Before the second annotation, as a writer types a new one keystroke by keystroke: the
    # annotations after it must not become part of it (as its keys or its sources).
    second = parse(_TYPED).root.member("annotations").value.items[1].start
    text = _TYPED[:second] + half + "\n    " + _TYPED[second:]
    messages = syntax_messages(text)
    assert len(messages) == 1 and messages[0].startswith(issue)
    analysis = Analysis(text)
    assert len(analysis.session.annotations) == 4
    assert [r.valid for r in analysis.session.refs if analysis.session.index_of(r.annotation) != 1] == [True] * 6
    # Nothing more is said of the half-typed one: its missing keys are on their way.
    assert [f.code for f in analysis.findings] == ["invalid-json"]

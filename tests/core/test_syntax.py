"""Parsing JSON with positions: strict about JSON, never giving up, exact through escapes."""

import json
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.jsonlex import StringMap, decode_lenient, encode_string
from sourcecheck.core.jsonnodes import JArray, JObject, JString
from sourcecheck.core.lazy import JLazy, keys_and_colons, written_colons
from sourcecheck.core.positions import line_starts
from sourcecheck.core.schema import parse_session as parse
from sourcecheck.core.syntax import Cancelled, to_python
from sourcecheck.core.text import Text


def issues(text):
    return [(i.start, i.message) for i in parse(text).issues]


def test_valid_json_has_no_issues_and_keeps_its_values():
    text = '{"a": [1, -0, 1.5e3, true, false, null, "x\\u00e9"], "b": {}}'
    tree = parse(text)
    assert tree.issues == []
    assert to_python(tree.root) == json.loads(text)


def test_every_value_knows_its_extent():
    text = '{"key": ["v", 12]}'
    tree = parse(text)
    member = tree.root.members[0]
    assert (member.key.start, member.key.end) == (1, 6)
    array = member.value
    assert isinstance(array, JArray)
    assert [(n.start, n.end) for n in array.items] == [(9, 12), (14, 16)]


@pytest.mark.parametrize(
    "text, where, words",
    [
        ('{"a": NaN}', 6, "NaN"),
        ('{"a": Infinity}', 6, "Infinity"),
        ('{"a": -Infinity}', 6, "digits"),
        ('{"a": 1, }', 7, "trailing comma"),
        ("[1, 2, ]", 5, "trailing comma"),
        ('{"a": 1 // note\n}', 8, "comments"),
        ('{"a": /* x */ 1}', 6, "comments"),
        ("{'a': 1}", 1, "double quotes"),
        ('{"a": 01}', 6, "not a JSON number"),
        ('{"a" 1}', 4, "expected `:`"),
        ('{"a": }', 6, "has no value"),
        ('{"a": "\\x"}', 7, "not a JSON escape"),
        ('{"a": "tab\there"}', 10, "control character"),
        ('{"a": 1 "b": 2}', 8, "comma is missing"),
        ("\ufeff{}", 0, "byte order mark"),
        ("", 0, "no JSON value"),
        ("  \n ", 0, "no JSON value"),
        ("{} {}", 3, "after the end"),
    ],
)
def test_what_is_not_json_is_reported_where_it_breaks(text, where, words):
    found = issues(text)
    assert found, text
    assert found[0][0] == where
    assert words in found[0][1]


ITEM = '{"claim": {"path": "a"}}'


@pytest.mark.parametrize(
    "between",
    [" // note\n", "/* note */", "\n  /* note */  ", "\n// note\n  "],
)
@pytest.mark.parametrize("array", ["annotations", "documents"])
def test_a_comment_between_the_items_of_a_session_array_is_reported_once(between, array):
    """Before the comma after an item, or after the comma: each item still decoded whole."""
    for text in (f'{{"{array}": [{ITEM}{between}, {ITEM}, {ITEM}]}}', f'{{"{array}": [{ITEM},{between}{ITEM}]}}'):
        found = issues(text)
        assert [where for where, _ in found] == [text.index("/")], text
        assert "comments" in found[0][1]
        items = parse(text).root.members[0].value.items
        assert all(isinstance(item, JLazy) for item in items) and len(items) == text.count(ITEM)
    text = f'{{"{array}": [{ITEM}{between}, ]}}'  # and a trailing comma after it: said too
    assert [(where, "trailing comma" in message) for where, message in issues(text)] == [
        (text.index("/"), False),
        (text.index(", ]"), True),
    ]


def test_parsing_stops_among_the_annotations_soon_after_it_is_called_off():
    class After:  # set once it has been asked ten times
        asked = 0

        def is_set(self):
            self.asked += 1
            return self.asked > 10

    text = '{"annotations": [' + ", ".join([ITEM] * 100) + "]}"
    with pytest.raises(Cancelled):
        parse(text, After())


def test_half_typed_json_keeps_every_complete_annotation():
    text = '{"annotations": [{"claim": 1}, {"claim": 2}, {"claim": {"path": "a", "start": {"li'
    tree = parse(text)
    assert len(tree.issues) == 1 and tree.issues[0].start == len(text)
    items = tree.root.member("annotations").value.items
    assert [to_python(i) for i in items[:2]] == [{"claim": 1}, {"claim": 2}]


def test_an_unclosed_string_ends_at_its_line_and_the_next_lines_still_parse():
    text = '{"a": "oops,\n "b": 2}'
    tree = parse(text)
    assert "never closed" in tree.issues[0].message
    assert to_python(tree.root)["b"] == 2


def test_session_arrays_are_decoded_lazily_and_expand_to_the_same_value():
    text = '{"documents": [{"path": "a", "content": "x\\ny"}], "annotations": [{"claim": {"path": "a"}}]}'
    tree = parse(text)
    lazy = tree.root.member("documents").value.items[0]
    assert isinstance(lazy, JLazy)
    expanded = tree.expand(lazy)
    assert isinstance(expanded, JObject)
    assert to_python(expanded) == lazy.value
    assert tree.node_at_path(("annotations", 0, "claim", "path")).start == text.index('"a"}}')


def test_duplicate_keys_are_found_and_the_last_one_wins():
    text = '{"annotations": [{"claim": 1, "claim": 2}], "x": {"k": 1, "k": 2}}'
    tree = parse(text)
    assert to_python(tree.root) == {"annotations": [{"claim": 2}], "x": {"k": 2}}
    assert [d.path for d in tree.duplicates] == [("x", "k")]
    lazy = tree.root.member("annotations").value.items[0]
    assert lazy.has_duplicates is None  # an annotation is decoded without its pairs: not known yet
    assert tree.holds_duplicates(lazy) and lazy.has_duplicates
    tree.expand(lazy)
    assert [d.path for d in tree.duplicates] == [("x", "k"), ("annotations", 0, "claim")]


_KEYS = st.sampled_from(["claim", "sources", "path", "str", "a:b", ":", "line"])
_SCALARS = st.one_of(st.integers(-5, 5), st.sampled_from(["", "x", "a:b", "::", "\u00e9:", "\\u003a"]))


def _written(pairs: object) -> str:
    """A JSON text of nested (key, value) pairs, keys written as given (twice, at times)."""
    if isinstance(pairs, list):
        return "{" + ", ".join(f"{json.dumps(key)}: {_written(value)}" for key, value in pairs) + "}"
    return json.dumps(pairs) if not (isinstance(pairs, str) and pairs.startswith("\\")) else f'"{pairs}"'


_OBJECTS = st.recursive(_SCALARS, lambda inner: st.lists(st.tuples(_KEYS, inner), max_size=4), max_leaves=12)


@given(st.lists(st.tuples(_KEYS, _OBJECTS), min_size=1, max_size=4))
@example([("claim", "a:b"), ("claim", 1)])  # the replaced value's `:` with the key's
@example([("a:b", [("str", "\\u003a")]), ("a:b", 1)])  # a `:` written as an escape
def test_a_lazily_decoded_item_holds_a_key_twice_as_decoding_its_pairs_finds(pairs: list[tuple[str, object]]):
    """Whether an annotation decoded without its pairs holds a key twice, told by its `:`
    (JLazy), is what decoding it again with its pairs finds, whatever its strings hold."""
    item = _written(pairs)
    tree = parse('{"documents": [], "annotations": [' + item + "]}")
    lazy = tree.root.member("annotations").value.items[0]
    assert isinstance(lazy, JLazy) and lazy.has_duplicates is None
    seen = []

    def hook(found: list[tuple[str, object]]) -> dict[str, object]:
        seen.append(len(dict(found)) != len(found))
        return dict(found)

    value = json.loads(item, object_pairs_hook=hook)
    assert tree.holds_duplicates(lazy) == any(seen)
    keys, in_strings = keys_and_colons(value)  # counted in Python where orjson is not installed
    assert written_colons(value) == keys + in_strings


def test_keys_with_escapes_are_their_decoded_names():
    tree = parse('{"pa\\u0074h": 1}')
    assert to_python(tree.root) == {"path": 1}


def test_extreme_numbers_keep_their_json_values():
    tree = parse("[1e999, -0, 0.30000000000000004, 123456789012345678901234567890]")
    assert to_python(tree.root) == [float("inf"), 0, 0.30000000000000004, 123456789012345678901234567890]


def test_deep_nesting_is_reported_not_a_crash():
    text = '{"annotations": ' + "[" * 100_000 + "]" * 100_000 + "}"
    tree = parse(text)
    assert any("nested more than" in i.message for i in tree.issues)


def test_lone_surrogate_escapes_decode_to_lone_surrogates():
    tree = parse('["\\ud800", "\\ud83d\\ude80"]')
    assert to_python(tree.root) == ["\ud800", "🚀"]


def test_encode_string_escapes_what_utf8_cannot_hold():
    assert encode_string('a"\n\ud800é') == '"a\\"\\n\\ud800é"'
    assert json.loads(encode_string("x\u2028y")) == "x\u2028y"


escaped_text = st.text(alphabet=st.sampled_from(list('ab"\\\n\t\u00e9中🚀\x01\u2028/\ud800')), max_size=30)


@given(escaped_text, st.booleans())
def test_string_offsets_map_back_through_every_kind_of_escape(value, ascii_only):
    literal = json.dumps(value, ensure_ascii=ascii_only)
    if not ascii_only:  # raw lone surrogates cannot be in a file; write them escaped
        literal = encode_string(value)
    text = '{"content": ' + literal + "}"
    node = parse(text).root.members[0].value
    assert isinstance(node, JString) and node.value == value
    mapping = StringMap(text, node)
    assert mapping.length == len(value)
    for i in range(len(value)):
        start, end = mapping.raw_range(i, i + 1)
        assert json.loads('"' + text[start:end] + '"') == value[i]
    assert mapping.raw_offset(len(value)) == node.end - 1


# Pieces of a string body as a file may write them: line breaks escaped each way, other
# escapes, raw characters (a raw line break, a lone backslash at the end: not JSON, parsed anyway).
body_pieces = st.lists(
    st.sampled_from(
        ["a", "é", "🚀", "\\n", "\\u000a", "\\u000A", '\\"', "\\\\", "\\/", "\\t", "\n", "\\ud83d\\ude80", "\\x"]
    ),
    max_size=12,
).map("".join)


# How the string ends: closed, or the file ending after a lone backslash (an escape of one
# character: the only one not longer than what it gives) or after a backslash and a quote.
endings = st.sampled_from(['"}', "\\", '\\"'])


@example("\\n", '"}', False)  # the map made from the line starts
@example("\\n", '"}', True)
@example("\\n", "\\", False)  # as many characters more as breaks, one backslash too many
@example("\\n", "\\", True)
@example("\n\\t", '"}', False)  # a raw break, and as many backslashes and characters more
@example("\n\\t", '"}', True)
@given(body_pieces, endings, st.booleans())
def test_a_string_map_from_line_starts_is_the_map_found_from_escapes(body, ending, in_pieces):
    text = '{"content": "' + body + ending
    node = parse(text).root.members[0].value
    assert isinstance(node, JString)
    source = Text(text[:15]).edited(15, 15, text[15:]) if in_pieces else text  # two pieces: not a str
    read_off, found = StringMap(source, node, line_starts(node.value)), StringMap(text, node)
    decoded, raw = range(len(node.value) + 1), range(read_off.body_start, node.end)
    assert (read_off.length, read_off.escapes) == (found.length, found.escapes)
    assert list(map(read_off.raw_offset, decoded)) == list(map(found.raw_offset, decoded))
    assert list(map(read_off.decoded_offset, raw)) == list(map(found.decoded_offset, raw))


valid_bodies = st.lists(
    st.sampled_from(["a", "é", "🚀", "\\n", "\\u000a", '\\"', "\\\\", "\\/", "\\t", "\\ud83d\\ude80"]),
    max_size=12,
).map("".join)


@example("a\\nb", True, None)
@example("a\\nb", False, 1)
@given(valid_bodies, st.booleans(), st.sampled_from([None, 1]))
def test_a_content_string_is_placed_as_the_parse_places_it(body, content_first, indent):
    value = json.loads('"' + body + '"')
    members = [f'"content": "{body}"', '"path": "p"']
    item = "{" + ", ".join(members if content_first else members[::-1]) + "}"
    text = '{"documents": [\n' + (" " * (indent or 0)) + item + "\n]}"
    path = ("documents", 0, "content")
    tree = parse(text)
    node, read_off = tree.string_at(path, value, line_starts(value))
    expected = parse(text).node_at_path(path)
    assert isinstance(node, JString) and isinstance(expected, JString)
    assert (node.start, node.end, node.value) == (expected.start, expected.end, expected.value)
    escapes = re.findall(r"\\.", body)
    # Read off the text (the item not parsed again) exactly when its only escapes are \n,
    # as the map made from the line starts takes it.
    assert read_off == all(escape == "\\n" for escape in escapes)
    assert read_off == (tree.root.member("documents").value.items[0].expanded is None)
    mapped, found = StringMap(text, node, line_starts(value), read_off), StringMap(text, expected)
    assert (mapped.length, mapped.escapes) == (found.length, found.escapes)


@given(st.text(alphabet=st.sampled_from(list('ab\\"u0dD8e9x')), max_size=20))
def test_lenient_decoding_gives_one_code_point_per_escape(body):
    decoded = decode_lenient(body)
    assert isinstance(decoded, str)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=20,
)


@given(json_values, st.sampled_from([None, 0, 2]), st.booleans())
def test_any_json_value_parses_to_what_json_loads_gives(value, indent, ascii_only):
    text = json.dumps(
        {"annotations": [value], "documents": [value], "other": value}, indent=indent, ensure_ascii=ascii_only
    )
    tree = parse(text)
    assert tree.issues == []
    assert to_python(tree.root) == json.loads(text)


@given(st.text(alphabet=st.sampled_from(list('{}[]:,"\\ \n\rtruefalsnl0123456789-.eE/*ab\ud800中🚀\x00')), max_size=80))
def test_any_text_parses_without_raising(text):
    tree = parse(text)
    assert all(0 <= issue.start <= issue.end <= len(text) for issue in tree.issues)
    if tree.root is not None:
        to_python(tree.root)


TOKENS = [
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    '"',
    "\\",
    " ",
    "\n",
    "1",
    "0.5",
    "true",
    "null",
    '"path"',
    '"documents"',
    '"annotations"',
    '"claim"',
    '"sources"',
    '"start"',
    '"end"',
    '"line"',
    '"str"',
    '"a"',
    '"content"',
    '"polarity"',
    '"confidence"',
]


@given(st.lists(st.sampled_from(TOKENS), max_size=60).map("".join))
def test_any_text_is_analysed_without_raising(text):
    from sourcecheck.core.analysis import Analysis

    analysis = Analysis(text)
    for finding in analysis.findings:
        start, end = analysis.extent(finding)
        assert 0 <= start <= end <= len(text)
        analysis.finding_span(finding)


def test_an_item_decoded_whole_is_expanded_within_its_braces_whatever_follows_it():
    """A valid document followed by the members of a broken one (its `{` deleted, its
    string holding a bad escape): the first was decoded whole; expanding it (to place a
    cursor in it, or map its content) reads only its own text, never the broken one after."""
    text = (
        '{"documents": [{"path": "article", "content": "one\\ntwo"},\n'
        '  "path": "repo\\qrt", "content": "x"}],\n "annotations": []}'
    )
    tree = parse(text)
    node = tree.node_at_path(("documents", 0))
    assert node is not None and text[node.start : node.end] == '{"path": "article", "content": "one\\ntwo"}'
    content = tree.node_at_path(("documents", 0, "content"))
    assert isinstance(content, JString) and content.value == "one\ntwo"
    analysis = Analysis(text)
    place = analysis.place_at(text.index("two"))
    assert place is not None and place.path == ("documents", 0, "content")


# The grammar knows a session only by its hints: the same session with its keys renamed
# (to names of the same lengths), parsed with the hints renamed alike, breaks in the same
# places with the same messages, renamed.
RENAMED = {"annotations": "commentarys", "sources": "origins", "claim": "words"}


def renamed(text: str, back: bool = False) -> str:
    for old, new in RENAMED.items():
        text = text.replace(new, old) if back else text.replace(old, new)
    return text


def renamed_hints():
    from dataclasses import replace

    from sourcecheck.core.schema import ELEMENT_ARRAYS, SESSION, schema_fields

    def fields(path):
        found = schema_fields(tuple(renamed(p, back=True) if isinstance(p, str) else p for p in path))
        return None if found is None else frozenset(renamed(key) for key in found)

    return replace(
        SESSION,
        element_arrays=frozenset(tuple(renamed(p) for p in path) for path in ELEMENT_ARRAYS),
        fields=fields,
        item_start=re.compile(renamed(SESSION.item_start.pattern)),
        inner_array=renamed("sources"),
        lead_key=renamed("claim"),
        counted_arrays=frozenset({(renamed("annotations"),)}),
        item_names=lambda array: "annotation" if array == (renamed("annotations"),) else "document",
    )


SOURCE = '{"path": "a.txt", "start": {"line": 1, "str": "one"}, "end": {"line": 1, "str": "one"}}'
BROKEN_SESSIONS = [
    # `sources` left open, the next annotation on a line of its own
    '{"documents": [{"path": "a.txt", "content": "one"}], "annotations": [\n'
    f'  {{"claim": "x", "sources": [{SOURCE}\n  {{"claim": "y", "sources": []}}\n]}}',
    # `sources` left open and valid JSON: the next annotations read as its sources
    '{"documents": [], "annotations": [\n'
    f'  {{"claim": "x", "sources": [{SOURCE},\n  {{"claim": "y", "sources": []}}]}}\n]}}',
    # an annotation left open before the next one, a key missing its `}` in a boundary
    '{"documents": [], "annotations": [\n'
    '  {"claim": "x", "sources": [{"path": "a.txt", "start": {"line": 1, "str": "one", "end": {"line": 1}}]\n'
    '  {"claim": "y", "sources": []}\n]}',
    # a key seen twice in a decoded annotation
    '{"documents": [], "annotations": [{"claim": "x", "claim": "y", "sources": []}]}',
]


@pytest.mark.parametrize("text", BROKEN_SESSIONS)
def test_the_grammar_knows_a_session_only_by_its_hints(text):
    from sourcecheck.core.syntax import parse as parse_with

    session, other = parse(text), parse_with(renamed(text), hints=renamed_hints())
    assert session.issues or session.unsure, "each text is broken (or may hold a key twice)"
    assert [(i.start, i.end, renamed(i.message)) for i in session.issues] == [
        (i.start, i.end, i.message) for i in other.issues
    ]
    assert [(d.path, d.key.start) for d in session.duplicates] == [
        (tuple(renamed(p) if isinstance(p, str) else p for p in d.path), d.key.start) for d in other.duplicates
    ]
    assert len(session.unsure) == len(other.unsure)
    assert renamed(json.dumps(to_python(session.root))) == json.dumps(to_python(other.root))

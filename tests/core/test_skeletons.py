"""Skeletons, pure: what a new ref points at, and a skeleton's JSON text, plain or as a snippet."""

import json
import re

import pytest

from sourcecheck.core.session import Document
from sourcecheck.core.skeletons import (
    RefTarget,
    Slot,
    annotation,
    first_word,
    item_kind,
    object_kind,
    point_in,
    snippet_escape,
    source,
    written,
)

_TABSTOP = re.compile(r"\$(\d+)|\$\{(\d+)\}|\$\{(\d+):")


def expand_snippet(snippet: str) -> tuple[str, list[tuple[int, str]]]:
    """A snippet as an editor expands it (the LSP snippet grammar, tabstops and
    placeholders, written here without the server's code): its text with every placeholder
    left as it is, and the (number, text) of each tabstop in text order. A `}` that is not
    escaped outside a placeholder fails: the server escapes every one."""
    out: list[str] = []
    stops: list[tuple[int, str]] = []
    i = 0
    placeholder: tuple[int, int] | None = None  # (number, where its text starts in out)
    while i < len(snippet):
        ch = snippet[i]
        if ch == "\\" and snippet[i + 1 : i + 2] in ("$", "}", "\\"):
            out.append(snippet[i + 1])
            i += 2
        elif ch == "$":
            match = _TABSTOP.match(snippet, i)
            assert match is not None, f"a `$` that is neither a tabstop nor escaped at {i}"
            assert placeholder is None, "a placeholder inside a placeholder"
            if match.group(3):
                placeholder = (int(match.group(3)), len(out))
            else:
                stops.append((int(match.group(1) or match.group(2)), ""))
            i = match.end()
        elif ch == "}":
            assert placeholder is not None, f"a `}}` not escaped at {i}"
            stops.append((placeholder[0], "".join(out[placeholder[1] :])))
            placeholder = None
            i += 1
        else:
            out.append(ch)
            i += 1
    assert placeholder is None, "a placeholder never closed"
    return "".join(out), stops


def document(content, path="doc"):
    return Document(path, content, ("documents", 0))


def test_a_new_ref_points_at_the_first_word_of_the_first_line_that_has_one():
    assert point_in(document("\n  ... the cat, the dog")) == RefTarget("doc", 2, "the cat")
    assert point_in(document("intro\nmore")) == RefTarget("doc", 1, "intro")


def test_the_first_word_is_extended_until_it_is_unique_on_its_line():
    assert first_word("the cat and the dog") == "the cat"
    assert first_word("  -- 37% of all") == "37"
    assert first_word("aaa") == "aaa"
    assert first_word("... !!!") is None


def test_a_document_without_a_word_or_no_document_points_at_line_one_with_an_empty_boundary():
    assert point_in(document("\n\n...")) == RefTarget("doc", 1, "")
    assert point_in(None) == RefTarget("", 1, "")


def test_a_point_on_a_given_line_takes_that_line_s_first_word():
    assert point_in(document("one\ntwo three"), 2) == RefTarget("doc", 2, "two")
    assert point_in(document("one"), 9) == RefTarget("doc", 1, "one")  # no such line: the first with a word


def test_what_the_format_puts_where():
    assert object_kind(("annotations", 0)) == "annotation"
    assert object_kind(("annotations", 0, "claim")) == "ref"
    assert object_kind(("annotations", 0, "sources", 2)) == "source"
    assert object_kind(("annotations", 0, "claim", "end")) == "boundary"
    assert object_kind(("annotations", 0, "sources", 1, "start")) == "boundary"
    assert object_kind(("documents", 0)) is None
    assert object_kind(("annotations", 0, "start")) is None
    assert item_kind(("annotations",)) == "annotation"
    assert item_kind(("annotations", 3, "sources")) == "source"
    assert item_kind(("documents",)) is None


def test_a_plain_skeleton_is_json_indented_as_asked():
    value = annotation(RefTarget("a", 1, "x"), RefTarget("b", 2, "y"))
    text = written(value, "    ", "  ", False)
    expected = {
        "claim": {"path": "a", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}},
        "sources": [
            {
                "path": "b",
                "start": {"line": 2, "str": "y"},
                "end": {"line": 2, "str": "y"},
                "polarity": "supports",
                "confidence": 0.7,
            }
        ],
    }
    assert json.loads(text) == expected
    assert text == json.dumps(expected, indent=4).replace("\n", "\n  ")


def test_a_compact_skeleton_is_one_line():
    assert written(source(RefTarget("b", 1, "y")), None, "", False) == (
        '{"path": "b", "start": {"line": 1, "str": "y"}, "end": {"line": 1, "str": "y"}, '
        '"polarity": "supports", "confidence": 0.7}'
    )


def test_a_snippet_has_a_placeholder_for_each_value_numbered_in_text_order():
    text = written(source(RefTarget("b", 3, "y")), None, "", True)
    assert text.startswith('{"path": "${1:b}", "start": {"line": ${2:3}, "str": "${3:y}"\\}')
    expanded, stops = expand_snippet(text)
    assert [number for number, _ in stops] == [1, 2, 3, 4, 5, 6, 7]
    assert [placeholder for _, placeholder in stops] == ["b", "3", "y", "3", "y", "supports", "0.7"]
    assert expanded == written(source(RefTarget("b", 3, "y")), None, "", False)


@pytest.mark.parametrize("path", ["a$b", "x}y", "back\\slash", 'quo"te', "${1:not a tabstop}", "中文🚀"])
def test_a_snippet_escapes_dollar_brace_and_backslash_so_that_it_expands_to_the_plain_json(path):
    value = {"claim": {"path": Slot(path), "start": {"line": Slot(1), "str": Slot(path)}}, "note": path}
    snippet = written(value, "\t", "", True)
    expanded, stops = expand_snippet(snippet)
    assert expanded == written(value, "\t", "", False)
    assert json.loads(expanded) == {"claim": {"path": path, "start": {"line": 1, "str": path}}, "note": path}
    assert stops[0] == (1, json.dumps(path, ensure_ascii=False)[1:-1])


def test_an_empty_placeholder_is_a_bare_tabstop():
    snippet = written({"str": Slot("")}, None, "", True)
    assert snippet == '{"str": "${1}"\\}'
    assert expand_snippet(snippet) == ('{"str": ""}', [(1, "")])


def test_snippet_escape_escapes_only_the_three_characters_the_grammar_reserves():
    assert snippet_escape("$1 {a} \\ b") == "\\$1 {a\\} \\\\ b"

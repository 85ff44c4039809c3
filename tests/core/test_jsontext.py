"""JSON text by orjson is byte for byte what json.dumps writes, whatever the value."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sourcecheck.core import display, jsontext
from sourcecheck.core.jsonlex import escape_lone_surrogates


def expected(value, indent=True):
    """What the CLI wrote before orjson: json.dumps, then each lone surrogate and each invisible
    character escaped (cli/main.py's dump_json)."""
    if indent:
        text = json.dumps(value, ensure_ascii=False, indent=2)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return display.json_visible(escape_lone_surrogates(text)).encode("utf-8")


# What orjson writes otherwise than json: tiny and non-finite floats, integers past 64
# bits, lone surrogates; and what both write alike but an encoder may get wrong (control
# characters, U+2028, U+007F, escapes, empty containers).
FLOATS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e-7, 1e-5, 9.99e-5, 1e-4, -1e-5, 0.0, -0.0, 1e16, 1e22, 5e-324, 0.30000000000000004]),
)
INTEGERS = st.one_of(st.integers(), st.sampled_from([2**63, 2**64, -(2**63) - 1, 2**64 - 1, 10**30]))
TEXT = st.text(
    st.one_of(
        st.characters(codec=None, categories=None),
        st.sampled_from(["\ud800", "\udfff", "\x00", "\x1f", "\x7f", "\u2028", '"', "\\", "\n", "\r", "\t"]),
        st.sampled_from(["\x85", "\u00ad", "\u200b", "\u202e", "\u2066", "\ufeff", "\U000e0041", "\u3164"]),
    )
)
VALUES = st.recursive(
    st.none() | st.booleans() | FLOATS | INTEGERS | TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TEXT, children, max_size=4),
    max_leaves=20,
)


@given(VALUES, st.booleans())
def test_dumps_writes_what_json_dumps_writes(value, indent):
    assert jsontext.dumps(value, indent) == expected(value, indent)


@given(VALUES, st.booleans())
def test_python_dumps_is_the_same_text(value, indent):
    assert jsontext.python_dumps(value, indent).encode("utf-8") == expected(value, indent)


def test_without_orjson_every_value_goes_to_json(monkeypatch):
    monkeypatch.setattr(jsontext, "_orjson_dumps", None)
    for value in [{"a": [1, 1e-7, "\ud800", 2**70]}, [], {"é": "🚀"}]:
        assert jsontext.dumps(value) == expected(value)


@pytest.mark.parametrize(
    "value, plain",
    [
        (0.0, True),
        (-0.0, True),
        (1e-4, True),
        (0.3, True),
        (1e300, True),
        (9.99e-5, False),
        (1e-7, False),
        (float("nan"), False),
        (float("inf"), False),
    ],
)
def test_plain_floats_are_those_orjson_writes_as_json_does(value, plain):
    assert jsontext.plain_float(value) is plain
    assert jsontext.plain_floats({"a": [1, {"b": (value,)}]}) is plain


@given(VALUES)
def test_a_value_nested_in_another_is_its_text_indented(value):
    """How the CLI writes {"exit_code": ..., "files": [...]} from each file's text."""
    assert expected([value]) == b"[\n  " + jsontext.nested(expected(value), 1) + b"\n]"
    each = b",\n    ".join(jsontext.nested(expected(v), 2) for v in (value, value))
    assert expected({"files": [value, value]}) == b'{\n  "files": [\n    ' + each + b"\n  ]\n}"


@given(VALUES)
def test_copied_is_an_equal_value_of_new_containers(value):
    copy = jsontext.copied(value, jsontext.finite_floats(value))
    assert jsontext.python_dumps(copy) == jsontext.python_dumps(value)  # equal, NaN included
    if isinstance(value, (dict, list)):
        assert copy is not value


def test_the_hidden_bytes_are_the_utf8_of_every_character_json_visible_escapes():
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue  # not in UTF-8: orjson refuses a lone surrogate, json's path escapes it
        char = chr(code)
        hidden = display.json_visible(char) != char
        assert (jsontext.HIDDEN_BYTES.search(char.encode("utf-8")) is not None) == hidden, hex(code)
        # and found by its first byte in a text around it, as dumps looks for them
        assert jsontext.has_hidden(("é ” " + char + " x").encode("utf-8")) == hidden, hex(code)

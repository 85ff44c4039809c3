"""Untrusted text shown in a given width (core/display.py): escaped, and never cut inside an escape."""

import re

from hypothesis import example, given
from hypothesis import strategies as st

from sourcecheck.core.display import quote_within

ESCAPED = re.compile(r'(?:[^\\"]|\\\\|\\"|\\[nrt]|\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|\\U[0-9a-f]{8})*')
"""A quoted text's inside: every quote and backslash escaped, every escape whole."""


def test_a_quote_in_the_text_is_escaped_and_its_width_counts_the_escape():
    assert quote_within('say "no"', 20) == '"say \\"no\\""'
    assert quote_within("a\\b", 20) == '"a\\\\b"'
    assert quote_within('He said "no" to all of it, twice', 14) == '"He … twice"'
    assert quote_within('"quoted" as it was', 6) == '"\\"quo…"'  # the narrowest: its start


@given(st.text(max_size=40), st.integers(1, 30))
@example('aaa"', 4)
@example("\u202e\u202e\u202e evil", 9)
def test_what_is_shown_fits_its_width_and_every_escape_is_whole(text: str, width: int):
    quoted = quote_within(text, width)
    assert quoted[0] == quoted[-1] == '"'
    inside = quoted[1:-1]
    assert len(inside) <= width or len(text) == 0
    for part in inside.replace(" … ", "\0").replace("…", "\0").split("\0"):
        assert ESCAPED.fullmatch(part), (part, quoted)

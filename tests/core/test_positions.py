"""Offsets <-> editor positions in UTF-8, UTF-16 and UTF-32, with LSP's line breaks."""

import re
from unittest.mock import patch

from hypothesis import given
from hypothesis import strategies as st

from sourcecheck.core import positions
from sourcecheck.core.positions import Encoding, LineTable, Position, units


def test_lines_break_at_lf_crlf_and_cr_but_not_at_unicode_separators():
    text = "a\nb\r\nc\rd\u2028e\u2029f\x85g\x0bh\x0ci"
    table = LineTable(text)
    assert table.line_count == 4
    assert [table.line_text(i) for i in range(4)] == ["a", "b", "c", "d\u2028e\u2029f\x85g\x0bh\x0ci"]


def test_columns_count_utf16_code_units_utf8_bytes_or_code_points():
    text = '{"s": "é中🚀x"}'
    table = LineTable(text)
    x = text.index("x")
    assert table.position(x, Encoding.UTF32) == Position(0, 10)
    assert table.position(x, Encoding.UTF16) == Position(0, 11)  # the rocket is a surrogate pair
    assert table.position(x, Encoding.UTF8) == Position(0, 7 + 2 + 3 + 4)


def test_a_crlf_line_ends_before_its_carriage_return():
    table = LineTable("ab\r\ncd")
    assert table.line_end(0) == 2
    assert table.position(5) == Position(1, 1)
    assert table.offset(Position(0, 99)) == 2  # clamped to the line


def test_positions_past_the_text_are_clamped():
    table = LineTable("ab\ncd")
    assert table.offset(Position(7, 0)) == 5
    assert table.offset(Position(-1, 3)) == 0
    assert table.position(99) == Position(1, 2)


def test_a_lone_surrogate_counts_as_one_unit():
    assert units("\ud800", Encoding.UTF16) == 1
    assert units("\ud800", Encoding.UTF8) == 3


text_with_everything = st.text(alphabet=st.sampled_from(list("ab \n\r\t\u2028é中🚀\U0001f600\x85")), max_size=60)


@given(text_with_everything, st.sampled_from(list(Encoding)))
def test_every_offset_round_trips_through_a_position(text, encoding):
    table = LineTable(text)
    for offset in range(len(text) + 1):
        # Offsets inside a \r\n pair are not positions an editor can name.
        if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
            continue
        assert table.offset(table.position(offset, encoding), encoding) == offset


@given(text_with_everything)
def test_line_table_agrees_with_a_plain_split(text):
    table = LineTable(text)
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    assert [table.line_text(i) for i in range(table.line_count)] == normalized.split("\n")


@given(st.text(alphabet=st.sampled_from(list("ab\r\n")), max_size=40), st.integers(1, 5))
def test_line_starts_found_a_stretch_at_a_time_never_split_a_crlf(text, stretch):
    """Line breaks are scanned in stretches (so that a request on another thread is not
    held up); where a stretch ends must not change what a line break is."""
    with patch.object(positions, "LINE_SCAN", stretch):
        assert LineTable(text).starts[:] == [0, *(m.end() for m in re.finditer("\r\n|\r|\n", text))]
        assert positions.line_starts(text) == [0, *(m.end() for m in re.finditer("\n", text))]


@given(
    st.text(alphabet=st.sampled_from(list("ab \n\t\u2028é中🚀\U0001f600\x85")), max_size=80),
    st.lists(st.integers(-3, 90), max_size=25),
    st.sampled_from(list(Encoding)),
    st.integers(1, 8),
)
def test_positions_counted_before_the_line_starts_are_found_are_the_same(text, offsets, encoding, checkpoint):
    """A table of a text without \\r counts its first positions from the offsets asked
    before, in any order (a diagnostic, then a place inside a long line before it), until
    something needs every line's start: each answer is the one the complete table gives."""
    with patch.object(positions, "CHECKPOINT", checkpoint):  # long lines (columns kept in marks)
        counted, complete = LineTable(text), LineTable(text)
        complete.complete()
        assert counted._starts is None and complete._starts is not None
        for offset, other in zip(offsets, [*offsets[1:], len(text)], strict=False):
            assert counted.position(offset, encoding) == complete.position(offset, encoding)
            assert counted.line_of(min(max(offset, 0), len(text))) == complete.line_of(min(max(offset, 0), len(text)))
            # A span on one line is counted on from its start.
            assert counted.span(offset, other, encoding) == complete.span(offset, other, encoding)
            assert counted.span(offset, offset + 2, encoding) == complete.span(offset, offset + 2, encoding)
        assert counted.line_count == complete.line_count
        assert counted._starts is None, "no answer above needed the line starts"
        position = Position(len(offsets) % 3, len(offsets))
        assert counted.offset(position, encoding) == complete.offset(position, encoding)
        assert counted.starts[:] == complete.starts[:]


def test_a_text_with_a_carriage_return_finds_its_line_starts_at_once():
    """\\r\\n and a lone \\r break lines too: such a text is never counted (see LineTable)."""
    table = LineTable("a\r\nb\rc")
    assert table._starts is not None and table.position(6) == Position(2, 1)

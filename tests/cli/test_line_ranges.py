"""A JSON Lines file in parts by byte ranges (cli/jsonl.py): each line is in exactly one part,
none read twice or lost, numbered as in the file, whatever the offsets: lines across the
boundaries, \\r\\n endings, blank lines, a last line without a newline."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sourcecheck import LineRange, check_lines, line_ranges
from sourcecheck.inputs import open_lines, read_lines

SESSION = json.dumps({"documents": [{"path": "a", "content": "Alpha beta.\n"}], "annotations": []})
BROKEN = '{"documents": ['


def lines_of(path: Path, part: LineRange) -> list[tuple[int, bytes | None]]:
    handle = open_lines(str(path))
    assert handle is not None
    with handle:
        return [(number, line) for number, line, _ in read_lines(handle, 1_000_000, part)]


def numbered(data: bytes) -> list[tuple[int, bytes]]:
    return list(enumerate(data.splitlines(keepends=True), 1))  # (no \r alone in these lines)


line = st.sampled_from([SESSION, BROKEN, "", "  ", SESSION.replace(", ", ",\t")])
ending = st.sampled_from(["\n", "\r\n"])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(line, ending), max_size=12),
    st.booleans(),
    st.lists(st.integers(0, 2_000), max_size=6),
)
def test_any_cut_points_give_each_line_once_numbered_as_in_the_file(tmp_path_factory, lines, last_open, cuts):
    data = "".join(text + end for text, end in lines)
    if last_open and lines:
        data = data.rstrip("\r\n")  # the last line without its newline
    path = tmp_path_factory.mktemp("r") / "s.jsonl"
    path.write_bytes(data.encode())
    points = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    ranges = line_ranges(path, 1) if not cuts else None
    got: list[tuple[int, bytes | None]] = []
    if ranges is None:  # arbitrary offsets: the line numbers counted as line_ranges counts them
        first = 1
        for start, stop in zip(points, points[1:], strict=False):
            part = LineRange(start, stop, first)
            found = lines_of(path, part)
            got += found
            first = found[-1][0] + 1 if found else first
    else:
        for part in ranges:
            got += lines_of(path, part)
    assert got == numbered(data.encode())


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(line, ending), min_size=1, max_size=12), st.integers(1, 400))
def test_the_parts_reports_are_the_whole_files(tmp_path_factory, lines, size):
    data = "".join(text + end for text, end in lines).encode()
    path = tmp_path_factory.mktemp("r") / "s.jsonl"
    path.write_bytes(data)
    ranges = line_ranges(path, size)
    assert [r.start for r in ranges] == sorted({r.start for r in ranges})  # none empty, in order
    assert ranges[0].start == 0 and ranges[-1].stop == len(data)
    assert all(a.stop == b.start for a, b in zip(ranges, ranges[1:], strict=False))
    whole = [r.to_json() for r in check_lines(path)]
    assert [r.to_json() for part in ranges for r in check_lines(path, part=part)] == whole


def test_a_line_longer_than_the_size_makes_its_part_longer(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"\r\n".join([SESSION.encode()] * 3) + b"\r\n" + BROKEN.encode())  # no final newline
    size = len(SESSION) // 3
    ranges = line_ranges(path, size)
    assert [(r.start, r.first_line) for r in ranges] == [
        (0, 1),
        (len(SESSION) + 2, 2),
        (2 * len(SESSION) + 4, 3),
        (3 * len(SESSION) + 6, 4),
    ]
    last = list(check_lines(path, part=ranges[-1], name="s"))
    assert [(r.line, r.findings[0].code) for r in last] == [(4, "invalid-json")]


def test_an_empty_file_has_no_parts_and_one_that_cannot_be_read_one(tmp_path):
    (tmp_path / "empty.jsonl").write_bytes(b"")
    assert line_ranges(tmp_path / "empty.jsonl", 10) == []
    (part,) = line_ranges(tmp_path / "missing.jsonl", 10)
    (report,) = check_lines(tmp_path / "missing.jsonl", part=part)
    assert report.exit_code == 2 and "missing.jsonl" in (report.error or "")


def test_what_line_ranges_and_part_do_not_take_is_refused(tmp_path):
    with pytest.raises(TypeError, match="takes a path"):
        line_ranges(str(tmp_path / "a.jsonl"), 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size is a number of bytes above 0, not 0"):
        line_ranges(tmp_path / "a.jsonl", 0)
    with pytest.raises(TypeError, match="part is a sourcecheck.LineRange of a path"):
        check_lines(["{}"], part=LineRange(0, 1))

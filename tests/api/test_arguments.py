"""The API says what it wants: a wrong argument raises TypeError or ValueError at once, saying
what is accepted and what to pass instead (arguments.py); a hostile parsed value is an error,
never a RecursionError or a traceback from deep inside."""

import json
import sys
from pathlib import Path

import pytest

from sourcecheck import FAIL_ON, check, check_lines, text_of

ROOT = Path(__file__).resolve().parents[2]
ORBIT = ROOT / "fixtures" / "orbit-article.sourcecheck.json"  # one contested annotation
EMPTY = {"documents": [], "annotations": []}


def test_a_str_naming_a_session_file_says_to_pass_a_path(tmp_path):
    path = tmp_path / "a.json"
    path.write_text(json.dumps(EMPTY))
    with pytest.raises(TypeError, match=r"pass pathlib\.Path\('.*a\.json'\) to sourcecheck\.check"):
        check(str(path))
    lines = tmp_path / "a.jsonl"
    lines.write_text(json.dumps(EMPTY) + "\n")
    with pytest.raises(TypeError, match=r"pass pathlib\.Path\('.*a\.jsonl'\) to sourcecheck\.check_lines"):
        check(str(lines))
    assert check(path).ok and check(json.dumps(EMPTY)).ok


def test_check_lines_never_reads_a_str_or_bytes_as_characters(tmp_path):
    lines = tmp_path / "a.jsonl"
    lines.write_text(json.dumps(EMPTY) + "\n")
    with pytest.raises(TypeError, match=r"not one str, whose items are characters: for a file pass pathlib\.Path"):
        check_lines(str(lines))  # raised at once, not at the first report
    with pytest.raises(TypeError, match=r"not one bytes.*data\.splitlines\(\)"):
        check_lines(lines.read_bytes())
    with pytest.raises(TypeError, match="not a dict: a dict is one session"):
        check_lines(EMPTY)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="or an iterable of lines .* not int"):
        check_lines(3)  # type: ignore[arg-type]
    assert [r.exit_code for r in check_lines(lines)] == [0]


def test_check_lines_takes_parsed_sessions_as_check_does():
    broken = json.loads(ORBIT.read_text())
    reports = list(check_lines([EMPTY, broken, json.dumps(EMPTY)], fail_on="contested"))
    assert [(r.line, r.exit_code) for r in reports] == [(1, 0), (2, 1), (3, 0)]
    assert reports[1].to_json() == {**check(broken, fail_on="contested").to_json(), "line": 2}
    with pytest.raises(TypeError, match="item 2 is int; each line is a str, bytes or a parsed session"):
        list(check_lines([EMPTY, 3]))  # type: ignore[list-item]


def test_what_check_does_not_take_names_what_it_takes():
    for wrong in (3, 2.5, None, {1, 2}):
        with pytest.raises(TypeError, match=r"takes JSON text \(str\), bytes, a path \(pathlib\.Path\) or a parsed"):
            check(wrong)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="name is a str"):
        check("{}", name=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_size_mb is a whole number"):
        check("{}", max_size_mb="64")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_size_mb is a number of MB above 0, not 0"):
        check("{}", max_size_mb=0)
    with pytest.raises(ValueError, match=r"position_encoding is 'utf-8', 'utf-16' or 'utf-32'.*not 'utf16'"):
        check("{}", position_encoding="utf16")


def test_fail_on_takes_one_name_or_several():
    assert check(ORBIT).exit_code == 0
    for one in ("contested", ["contested"], ("weak", "contested"), "weak, contested", {"contested"}):
        assert check(ORBIT, fail_on=one).exit_code == 1, one
    assert check(ORBIT, fail_on="refuted").exit_code == 0


def test_fail_on_names_what_it_takes_when_it_does_not_know_a_name():
    allowed = ", ".join(sorted(FAIL_ON)[:-1])
    with pytest.raises(ValueError, match=f"fail_on takes {allowed} or {sorted(FAIL_ON)[-1]} .* not 'dubious'$"):
        check(ORBIT, fail_on="dubious")
    with pytest.raises(ValueError, match="not 'Contested' and 'x'$"):
        check(ORBIT, fail_on=["Contested", "x"])
    with pytest.raises(TypeError, match="fail_on takes a verdict's name or several in a list .* not int"):
        check(ORBIT, fail_on=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="fail_on names verdicts as str .* not int"):
        check(ORBIT, fail_on=["contested", 1])  # type: ignore[list-item]


def test_a_value_that_contains_itself_is_an_error_saying_where():
    looped: dict = {"documents": [], "annotations": [{"id": "a"}]}
    looped["annotations"][0]["self"] = looped
    with pytest.raises(ValueError, match="the container at '/annotations/0/self' is the one at the top"):
        check(looped)
    with pytest.raises(ValueError, match="contains itself"):
        list(check_lines([looped]))
    with pytest.raises(ValueError, match="^sourcecheck.text_of: the value contains itself"):
        text_of(looped)
    shared = {"id": "x"}
    assert check({"documents": [], "annotations": [], "a": shared, "b": shared}).ok  # shared is no loop


def test_deep_nesting_is_an_error_as_a_value_and_a_finding_as_text():
    deep: list = []
    inner = deep
    for _ in range(sys.getrecursionlimit() * 10):
        inner.append([])
        inner = inner[0]
    with pytest.raises(ValueError, match="nested more than 500 levels deep .* pass JSON text"):
        check({"documents": [], "annotations": deep})
    finding = check("[" * 100_000 + "]" * 100_000).findings[0]
    assert finding.code == "invalid-field" and "not an array" in finding.message


def test_a_huge_integer_is_an_error_as_a_value_and_checked_as_text():
    with pytest.raises(ValueError, match="the integer at '/n' has more digits than Python writes as text"):
        check({**EMPTY, "n": 10**5000})
    assert check('{"documents": [], "annotations": [], "n": 1' + "0" * 5000 + "}").ok


def test_a_value_json_cannot_hold_says_where_and_what():
    with pytest.raises(TypeError, match="the value at '/annotations/0' is of type set"):
        check({"documents": [], "annotations": [{1, 2}]})
    with pytest.raises(TypeError, match="a key at the top is of type tuple"):
        check({(1, 2): 3})  # type: ignore[dict-item]

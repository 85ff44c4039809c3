"""``--fix`` and ``--diff`` as agents know them from ruff: the exit code of ``--diff``, the
fixed text of standard input on stdout, JSON Lines line by line, many files each on its own."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from unittest import mock

import pytest

from sourcecheck.cli import fixing
from sourcecheck.core.fixes import Fixed, fixed
from tests.support.command import run_main

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "fixtures" / "broken"
POLARITY = (BROKEN / "bad-polarity.sourcecheck.json").read_text(encoding="utf-8")  # one safe fix
CLEAN = (ROOT / "fixtures" / "spec-example.sourcecheck.json").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def one_line(text: str) -> str:
    return json.dumps(json.loads(text), ensure_ascii=False)


# --- --diff -------------------------------------------------------------------------


def test_diff_exits_1_when_it_would_change_something_0_when_not_and_writes_nothing():
    Path("a.json").write_text(POLARITY, encoding="utf-8")
    Path("clean.json").write_text(CLEAN, encoding="utf-8")
    code, out, err = run_main("--diff", "a.json")
    assert code == 1  # ruff's convention: changes are pending
    assert out.decode().startswith("--- a/a.json\n+++ b/a.json\n")
    assert '-          "polarity": "support",\n+          "polarity": "supports",\n' in out.decode()
    assert "ok:" not in out.decode() and "would fix 1 finding" in err  # stdout is the diff alone
    assert Path("a.json").read_text(encoding="utf-8") == POLARITY
    assert run_main("--diff", "clean.json")[:2] == (0, b"")
    assert run_main("--diff", "clean.json", "a.json")[0] == 1
    assert run_main("--diff", "missing.json")[0] == 2


def test_diff_is_refused_with_a_report_format_since_stdout_would_mix_both():
    Path("a.json").write_text(POLARITY, encoding="utf-8")
    code, out, err = run_main("--diff", "--json", "a.json")
    assert code == 2 and out == b"" and "--diff prints a unified diff" in err


def test_diff_escapes_what_could_act_on_a_terminal():
    """Issue 35 item 8: the diff's lines came from the file as they were."""
    hostile = "Bad \u202e \u200b \U000e0041 \u009b \x1b]0;X\x07 \r end."
    session = {
        "documents": [{"path": "a", "content": "The outcome was positive."}, {"path": "b", "content": "Seen."}],
        "annotations": [
            {
                "claim": {"path": "a", "start": {"line": 1, "str": "OUTCOME"}, "end": {"line": 1, "str": "positive"}},
                "sources": [{"path": "b", "start": {"line": 1, "str": "Seen."}, "end": {"line": 1, "str": "Seen."}}],
            }
        ],
    }
    text = json.dumps(session, indent=2).replace('"path": "a",', f'"path": "a", "note": "{hostile}",')
    Path("h.json").write_bytes(text.encode("utf-8"))
    code, out, _ = run_main("--diff", "h.json")
    shown = out.decode("utf-8")
    assert code == 1 and '"str": "outcome"' in shown
    for raw in ("\x1b", "\x07", "\u202e", "\u200b", "\U000e0041", "\u009b", "\r"):
        assert raw not in shown
    assert "\\u202e \\u200b \\U000e0041 \\x9b \\x1b]0;X\\x07 \\r end." in shown


def test_diff_keeps_crlf_line_endings_so_that_the_patch_applies():
    Path("a.json").write_bytes(POLARITY.replace("\n", "\r\n").encode())
    code, out, _ = run_main("--diff", "a.json")
    assert code == 1 and b'+          "polarity": "supports",\r\n' in out


# --- --fix - ------------------------------------------------------------------------


def test_fix_of_standard_input_prints_the_fixed_text_and_reports_on_stderr():
    code, out, err = run_main("--fix", "-", stdin=POLARITY.encode())
    assert out.decode() == fixed(POLARITY).text and '"polarity": "supports"' in out.decode()
    assert code == 0 and "<stdin>: fixed 1 finding" in err and "<stdin>: ok:" in err
    code, out, err = run_main("--fix", "--json", "-", stdin=POLARITY.encode())
    assert out.decode() == fixed(POLARITY).text
    report = json.loads(err[err.index("{") :])  # after the line that says what was fixed
    assert report["exit_code"] == code == 0 and [f["code"] for f in report["fixed"]] == ["bad-polarity"]


def test_fix_of_standard_input_with_nothing_to_fix_echoes_it():
    """As ruff does: the output is always the text, fixed or not."""
    for given in (CLEAN.encode(), b"{not json", b"\xff\xfe"):
        code, out, _ = run_main("--fix", "-", stdin=given)
        assert out == given and code == (0 if given == CLEAN.encode() else 2)


def test_fix_of_json_lines_on_standard_input():
    lines = (one_line(POLARITY) + "\n\n" + one_line(CLEAN) + "\n").encode()
    code, out, err = run_main("--fix", "--jsonl", "-", stdin=lines)
    assert out.decode().split("\n") == [one_line(fixed(POLARITY).text), "", one_line(CLEAN), ""]
    assert code == 0 and "line 1: bad-polarity" in err


# --- JSON Lines ---------------------------------------------------------------------


def test_fix_of_json_lines_fixes_each_line_alone_and_writes_the_file_once():
    bad_bytes = b'{"documents": "\xff"}'
    lines = [one_line(POLARITY).encode() + b"\n", b"  \n", one_line(POLARITY).encode() + b"\r\n", bad_bytes + b"\n"]
    Path("s.jsonl").write_bytes(b"".join(lines) + one_line(CLEAN).encode())  # the last line without a newline
    with mock.patch.object(fixing, "write_atomically", wraps=fixing.write_atomically) as writing:
        code, out, err = run_main("--fix", "--json", "s.jsonl")
    assert writing.call_count == 1
    written = Path("s.jsonl").read_bytes().split(b"\n")
    good = one_line(fixed(POLARITY).text).encode()
    assert written == [good, b"  ", good + b"\r", bad_bytes, one_line(CLEAN).encode()]
    reports = [json.loads(line) for line in out.decode().splitlines()]  # JSON Lines out, one per session
    assert [(r["line"], [f["code"] for f in r["fixed"]]) for r in reports] == [
        (1, ["bad-polarity"]),
        (3, ["bad-polarity"]),
        (4, []),
        (5, []),
    ]
    assert [r["exit_code"] for r in reports] == [0, 0, 2, 0] and code == 2
    assert "line 1: bad-polarity" in err and "line 3: bad-polarity" in err


def test_diff_of_json_lines_shows_the_lines_it_would_change():
    Path("s.jsonl").write_text(one_line(CLEAN) + "\n" + one_line(POLARITY) + "\n", encoding="utf-8")
    code, out, _ = run_main("--diff", "s.jsonl")
    assert code == 1 and out.decode().count("\n-{") == 1 and out.decode().count("\n+{") == 1
    assert "@@ -1,2 +1,2 @@" in out.decode()


def test_every_broken_fixture_fixed_as_a_line_of_json_lines_stays_one_line():
    """A fix may lay out what it adds on lines of their own (a moved list, an added source):
    on a line of JSON Lines it is written on that line, and means the same."""
    texts = []
    for path in sorted(BROKEN.glob("*.json")):
        with contextlib.suppress(ValueError):  # (invalid-json: not made one line)
            texts.append(one_line(path.read_text(encoding="utf-8")))
    assert len(texts) > 15
    Path("all.jsonl").write_text("".join(text + "\n" for text in texts), encoding="utf-8")
    run_main("--fix", "--unsafe-fixes", "all.jsonl")
    written = Path("all.jsonl").read_text(encoding="utf-8").split("\n")
    assert len(written) == len(texts) + 1 and written[-1] == ""
    for before, after in zip(texts, written, strict=False):
        result = fixed(before, unsafe=True).text
        try:
            meant = json.loads(result)
        except ValueError:
            assert after == before  # (not JSON: nothing applies)
            continue
        assert json.loads(after) == meant and "\n" not in after


# --- many files ---------------------------------------------------------------------


def test_fix_of_many_files_goes_on_past_one_that_cannot_be_written():
    """Issue 35 item 10: the first failed write stopped the run, the files before it fixed
    but not reported, those after it never fixed, stdout empty."""
    for name in ("a.json", "b.json", "c.json"):
        Path(name).write_text(POLARITY, encoding="utf-8")
    os.chmod("b.json", 0o444)
    code, out, err = run_main("--fix", "--json", "a.json", "b.json", "c.json")
    found = json.loads(out)  # always one JSON object
    assert code == found["exit_code"] == 2
    by_file = {f["file"]: f for f in found["files"]}
    assert (
        [f["code"] for f in by_file["a.json"]["fixed"]]
        == ["bad-polarity"]
        == [f["code"] for f in by_file["c.json"]["fixed"]]
    )
    assert by_file["b.json"]["fixed"] == [] and "read-only" in by_file["b.json"]["write_error"]
    assert by_file["b.json"]["exit_code"] == 2 and by_file["a.json"]["exit_code"] == 0
    assert [f["code"] for f in by_file["b.json"]["findings"]] == ["bad-polarity"]  # as it still is
    assert '"supports"' in Path("a.json").read_text() and '"supports"' in Path("c.json").read_text()
    assert '"support"' in Path("b.json").read_text()
    assert "b.json: is read-only" in err and "a.json: fixed 1 finding" in err and "c.json: fixed 1 finding" in err


def test_fix_of_many_files_in_human_form_reports_each():
    for name in ("a.json", "b.json"):
        Path(name).write_text(POLARITY, encoding="utf-8")
    code, out, err = run_main("--fix", "a.json", "missing.json", "b.json")
    assert code == 2 and "missing.json: no such file" in err
    assert out.decode().count(": ok: 2 refs") == 2


def test_a_fix_laid_out_on_lines_is_written_on_its_line_of_json_lines(monkeypatch):
    laid_out = '{"documents": [],\n  "annotations": [\r\n\t]}'
    monkeypatch.setattr(fixing, "fixed", lambda text, unsafe: Fixed(laid_out, (("c", "", "t"),)))
    data, applied = fixing.fix_lines(b'{"x": 1}\r\n{"y": 2}', False, 1000)
    assert data == b'{"documents": [], "annotations": [ ]}\r\n{"documents": [], "annotations": [ ]}'
    assert [line for line, *_ in applied] == [1, 2]

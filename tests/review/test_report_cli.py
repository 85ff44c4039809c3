"""``sourcecheck report SESSION [-o FILE]``: writes the page, says where, refuses what it cannot read."""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sourcecheck.cli.main import main
from sourcecheck.cli.report import default_output
from tests.review.hostile import hostile_text

ROOT = Path(__file__).resolve().parents[2]
ORBIT = ROOT / "fixtures" / "orbit-article.sourcecheck.json"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    enabled = gc.isenabled()
    yield tmp_path
    if enabled:
        gc.enable()


def sc(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_report_is_written_beside_the_session_and_its_path_is_printed(capsys):
    shutil.copy(ORBIT, "orbit.sourcecheck.json")
    code, out, err = sc(capsys, "report", "orbit.sourcecheck.json")
    assert code == 0 and out == ""
    assert err.startswith("sourcecheck: wrote orbit.sourcecheck.report.html (")
    assert "4 claims: 3 supported, 1 contested; 62% of article uncited" in err
    page = Path("orbit.sourcecheck.report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "orbit.sourcecheck.json" in page
    assert not [name for name in os.listdir(".") if name.startswith(".sourcecheck-")]  # no temporary left


def test_dash_o_chooses_the_file_and_dash_writes_to_standard_output(capsys):
    shutil.copy(ORBIT, "s.json")
    os.mkdir("out")
    code, _, err = sc(capsys, "report", "s.json", "-o", "out/../review.html")
    assert code == 0 and "wrote out/../review.html" in err and Path("review.html").exists()
    code, out, err = sc(capsys, "report", "s.json", "-o", "-")
    assert code == 0 and err == "" and out.startswith("<!DOCTYPE html>") and out.endswith("</html>\n")
    assert not Path("s.report.html").exists()


def test_a_session_with_failing_refs_is_reported_not_refused(capsys):
    Path("evil.json").write_text(hostile_text(), encoding="utf-8")
    code, _, err = sc(capsys, "report", "evil.json")
    assert code == 0 and "wrote evil.report.html" in err
    assert "\u202e" not in err  # the summary line names a path with a bidi override: shown escaped


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: None, "missing.json: no such file"),
        (lambda: os.mkdir("missing.json"), "missing.json: is a directory"),
        (lambda: Path("missing.json").write_bytes(b'{"documents": [\xff]}'), "is not UTF-8 text"),
        (lambda: Path("missing.json").write_text('{"documents": [}'), "missing.json:1:16: not valid JSON"),
        (lambda: Path("missing.json").write_text("\ufeff{}", encoding="utf-8"), "byte order mark"),
        (lambda: Path("missing.json").write_text('{"name": "x"}'), "is not a SourceCheck session"),
    ],
)
def test_an_unreadable_session_is_exit_2_with_one_line_and_nothing_written(capsys, make, reason):
    make()
    code, out, err = sc(capsys, "report", "missing.json")
    assert code == 2 and out == ""
    assert err.startswith("sourcecheck: ") and reason in err and err.count("\n") == 1
    assert not Path("missing.report.html").exists()


def test_an_output_that_cannot_be_written_is_exit_2(capsys):
    shutil.copy(ORBIT, "s.json")
    code, _, err = sc(capsys, "report", "s.json", "-o", "no/such/folder/r.html")
    assert code == 2 and "cannot write there" in err


def test_standard_input_is_read_and_the_page_goes_to_standard_output():
    result = subprocess.run(
        [sys.executable, "-m", "sourcecheck", "report", "-"], input=ORBIT.read_bytes(), capture_output=True
    )
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode("utf-8").startswith("<!DOCTYPE html>")


def test_a_file_named_report_is_checked_not_reported(capsys):
    Path("report").write_text(json.dumps({"documents": [], "annotations": []}))
    code, out, _ = sc(capsys, "report")
    assert code == 0 and out.startswith("report: ok")


def test_the_default_output_name():
    assert default_output("a/x.sourcecheck.json") == "a/x.sourcecheck.report.html"
    assert default_output("x.JSON") == "x.report.html"
    assert default_output("session") == "session.report.html"


def test_help_says_the_exit_codes(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "Exit status: 0 written, 2 the session cannot be read" in out

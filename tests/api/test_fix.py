"""sourcecheck.fix(): a session's fixes applied as ``sourcecheck --fix`` applies them (the same
core.fixes.fixed), giving the fixed text, the fixes applied and the findings left."""

import dataclasses
import io
import json
import shutil
import sys
from pathlib import Path
from unittest import mock

import pytest

import sourcecheck
from sourcecheck import AppliedFix, FixResult, check, fix
from sourcecheck.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "fixtures" / "broken"
SESSIONS = sorted((ROOT / "fixtures").glob("*.json")) + sorted(BROKEN.glob("*.json"))
POLARITY = BROKEN / "bad-polarity.sourcecheck.json"  # one safe fix


def command_fix(path: Path, *flags: str) -> tuple[int, str, dict]:
    """``sourcecheck --fix --json FLAGS PATH`` in this process: its exit code, the file
    after it and the report it prints."""
    out = io.StringIO()
    with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", io.StringIO()):
        code = main(["--fix", "--json", *flags, str(path)])
    return code, path.read_text(encoding="utf-8"), json.loads(out.getvalue())


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize("session", SESSIONS, ids=lambda p: p.name.split(".")[0])
def test_fix_is_what_the_command_writes_and_reports(tmp_path, session, unsafe):
    copy = tmp_path / session.name
    shutil.copyfile(session, copy)
    result = fix(session, unsafe)
    code, written, printed = command_fix(copy, *(["--unsafe-fixes"] if unsafe else []))
    assert result.text == written
    assert result.to_json() == printed and list(result.to_json()) == list(printed)
    assert result.report.exit_code == code
    assert result.changed == (written != session.read_text(encoding="utf-8"))


def test_unsafe_fixes_only_when_asked():
    # Safe: nothing applies (the one fix, the order of the lines, may change what is cited).
    session = BROKEN / "lines-reversed.sourcecheck.json"
    unsafe = [f for f in check(session).findings if f.fix is not None and f.fix.applicability == "unsafe"]
    safe = fix(session)
    assert unsafe and not safe.changed and safe.text == session.read_text(encoding="utf-8")
    forced = fix(session, unsafe=True)
    assert forced.changed and forced.applied[0].code == unsafe[0].code
    assert forced.applied[0].message == unsafe[0].fix.message  # type: ignore[union-attr]


def test_the_result_gives_the_text_the_fixes_and_what_is_left():
    result = fix(POLARITY.read_text(encoding="utf-8"))
    assert isinstance(result, FixResult) and result.changed
    assert result.applied == (
        AppliedFix("bad-polarity", "/annotations/0/sources/0/polarity", result.applied[0].message),
    )
    assert '"polarity": "supports"' in (result.text or "")
    assert result.findings == check(result.text or "").findings == result.report.findings
    assert result.applied[0].to_json() == {
        "code": "bad-polarity",
        "pointer": result.applied[0].pointer,
        "message": result.applied[0].message,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.text = ""  # type: ignore[misc]
    assert sourcecheck.fix is fix


def test_every_kind_of_source_is_fixed_alike():
    text = POLARITY.read_text(encoding="utf-8")
    as_text = fix(text)
    assert fix(text.encode()).text == as_text.text == fix(POLARITY).text
    value = fix(json.loads(text))  # fixed as the text text_of writes
    assert value.applied == as_text.applied and json.loads(value.text or "") == json.loads(as_text.text or "")


def test_what_cannot_be_read_has_no_text_and_says_why(tmp_path):
    result = fix(tmp_path / "missing.sourcecheck.json")
    assert result.text is None and result.applied == () and result.report.exit_code == 2
    assert "missing.sourcecheck.json" in (result.report.error or "")
    bom = fix("\ufeff" + POLARITY.read_text(encoding="utf-8"))  # not JSON as written: left as it is
    assert not bom.changed and bom.findings[0].code == "invalid-json"


def test_fix_refuses_what_check_refuses(tmp_path):
    with pytest.raises(TypeError, match="unsafe is True or False, not str"):
        fix("{}", "yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"sourcecheck\.fix takes JSON text"):
        fix(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"pass pathlib\.Path"):
        fix(str(POLARITY))
    with pytest.raises(ValueError, match="JSON Lines, one session per line: use sourcecheck --fix on the file"):
        fix(tmp_path / "a.jsonl")
    with pytest.raises(ValueError, match="fail_on takes"):
        fix("{}", fail_on="dubious")

"""The Python API: sourcecheck.check() and its typed report, against what the command prints."""

import dataclasses
import gc
import inspect
import io
import json
import pickle
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcecheck
from bench.sessiongen import generate
from sourcecheck import Edit, Finding, Fix, Point, Position, Range, Ref, Report, check, check_lines, text_of
from sourcecheck.cli.main import main
from tests.support.helpers import claim, session, source

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SESSIONS = sorted(FIXTURES.glob("*.json")) + sorted((FIXTURES / "broken").glob("*.json"))


def cli_json(*args, stdin=None):
    """What ``sourcecheck --json`` prints, parsed, and its exit code."""
    done = subprocess.run(
        [sys.executable, "-m", "sourcecheck", "--json", *map(str, args)], input=stdin, capture_output=True
    )
    return json.loads(done.stdout), done.returncode


def small(seed):
    return generate(seed, documents=2, lines=6, annotations=4, broken=0.3)


def test_check_of_each_fixture_is_what_the_command_prints():
    done = subprocess.run(
        [sys.executable, "-m", "sourcecheck", "--json", *map(str, SESSIONS)], capture_output=True, check=False
    )
    printed = json.loads(done.stdout)["files"]
    for path, expected in zip(SESSIONS, printed, strict=True):
        report = check(path)
        assert {"file": str(path), **report.to_json()} == expected, path.name
        assert check(path.read_text(encoding="utf-8")).to_json() == report.to_json()
        assert check(path.read_bytes()).to_json() == report.to_json()


def test_the_report_is_typed():
    report = check(FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json")
    assert report.exit_code == 1 and not report.ok and report.error is None
    (finding,) = report.findings
    at = Range(Position(17, 17), Position(17, 22))
    assert finding == Finding(
        "boundary-ambiguous",
        "error",
        '`"the"` occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique',
        "/annotations/0/claim/start/str",
        at,
        None,  # which occurrence was meant: two repairs, so no fix, two suggestions
        (
            Fix("unsafe", 'Extend start to "the the": cites "the the end"', (Edit(at, '"the the"'),)),
            Fix("unsafe", 'Extend start to "the end": cites "the end"', (Edit(at, '"the end"'),)),
        ),
    )
    claim_ref, source_ref = report.refs
    assert claim_ref == Ref("/annotations/0/claim", False, None)
    assert source_ref == Ref(
        "/annotations/0/sources/0", True, "outcome of the trial was positive", "report", Point(2, 4), Point(2, 37)
    )
    (verdict,) = report.annotations
    assert (verdict.verdict, verdict.supports, verdict.support_strength, verdict.weak) == ("unresolved", 1, 0.9, False)
    (coverage,) = report.uncited
    assert coverage.path == "article" and coverage.uncited_share == 1.0
    assert [(run.start, run.end) for run in coverage.runs] == [(Point(1, 0), Point(3, 24))]


def test_a_verdict_names_the_words_of_its_claim_its_sources_do_not_have():
    value = session([{"claim": claim(start=(1, "report"), end=(1, "positive")), "sources": [source()]}])
    (verdict,) = check(json.dumps(value)).annotations
    assert (verdict.verdict, verdict.unsupported_words) == ("supported", ("report", "says"))


def test_the_report_cannot_be_changed():
    report = check(FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json")
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.findings[0].code = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        report.exit_code = 0  # type: ignore[misc]
    given_out = report.to_json()
    given_out["exit_code"] = 0
    given_out["findings"].clear()
    assert report.to_json()["exit_code"] == 1 and len(report.to_json()["findings"]) == 1
    assert report.findings[0].code == "boundary-ambiguous"


def test_a_dict_is_checked_as_the_text_text_of_writes(tmp_path):
    value = session([{"claim": claim(start=(2, "the"), end=(2, "end")), "sources": [source(confidence=1e-5)]}])
    value["documents"][0]["content"] += " 🚀 \ud800"  # a lone surrogate, written as an escape
    text = text_of(value)
    assert text == json.dumps(value, ensure_ascii=False, indent=2).replace("\ud800", "\\ud800")
    report = check(value)
    assert report.to_json() == check(text).to_json()
    ambiguous = next(f for f in report.findings if f.code == "boundary-ambiguous")
    assert ambiguous.range.start == Position(text.splitlines().index('          "str": "the"'), 17)
    target = tmp_path / "written.json"
    target.write_text(text, encoding="utf-8")
    assert cli_json(target) == (report.to_json(), 1)


def test_what_cannot_be_read_is_in_the_report_not_raised(tmp_path):
    missing = check(tmp_path / "missing.json")
    assert (missing.exit_code, missing.error) == (2, f"{tmp_path / 'missing.json'}: no such file")
    assert missing.to_json() == {"exit_code": 2, "error": missing.error, "findings": [], "refs": []}
    assert missing.findings == () and missing.annotations == ()
    latin = check(b'{"documents": [], "annotations": []} \xe9')
    assert latin.error == "<stdin>: is not UTF-8 text (byte 0xe9 at offset 37, line 1); save it as UTF-8"
    assert latin.to_json() == cli_json("-", stdin=b'{"documents": [], "annotations": []} \xe9')[0]
    assert check(b"\xff", name="upload.json").error.startswith("upload.json: is not UTF-8")
    bom = check('\ufeff{"documents": [], "annotations": []}')
    assert bom.exit_code == 2 and "byte order mark" in bom.warning and "warning" not in bom.to_json()
    assert check("nonsense").findings[0].code == "invalid-json"


def test_a_str_is_text_never_a_path(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"documents": [], "annotations": []}')
    assert check(path).exit_code == 0
    assert check(str(tmp_path / "missing.json")).findings[0].code == "invalid-json"  # text, as written


def test_fail_on_is_the_commands_fail_on():
    path = FIXTURES / "orbit-article.sourcecheck.json"
    assert check(path).exit_code == 0
    assert check(path, fail_on=["contested"]).exit_code == 1 == cli_json("--fail-on", "contested", path)[1]
    with pytest.raises(ValueError, match="fail_on takes"):
        check(path, fail_on=["dubious"])


def test_what_check_does_not_take_is_refused(tmp_path):
    with pytest.raises(TypeError, match="not int"):
        check(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="check_lines"):
        check(tmp_path / "many.jsonl")


@settings(max_examples=25)
@given(st.integers(0, 10_000), st.sampled_from([None, 2]))
def test_every_part_reads_back_as_written(seed, indent):
    report = check(small(seed).text(indent))
    value = report.to_json()
    assert [f.to_json() for f in report.findings] == value["findings"]
    assert [r.to_json() for r in report.refs] == value["refs"]
    assert [v.to_json() for v in report.annotations] == value["annotations"]
    assert [c.to_json() for c in report.uncited] == value["uncited"]
    assert Report(value) == report
    assert pickle.loads(pickle.dumps(report)) == report
    assert json.loads(report.to_json_text()) == value == json.loads(report.to_json_text(indent=False))


def test_a_report_made_from_json_keeps_what_orjson_cannot_copy():
    value = check(FIXTURES / "orbit-article.sourcecheck.json").to_json()
    value["annotations"][0]["support_strength"] = float("nan")  # orjson would write null
    value["refs"][0]["text"] = "\ud800"  # orjson refuses a lone surrogate
    report = Report(value)
    copy = report.to_json()
    assert copy["annotations"][0]["support_strength"] != copy["annotations"][0]["support_strength"]  # NaN
    assert copy["refs"][0]["text"] == "\ud800" and report.refs[0].text == "\ud800"
    assert pickle.loads(pickle.dumps(report)).to_json()["refs"] == copy["refs"]


def test_a_fix_is_written_only_when_a_finding_has_one():
    edit = Edit(Range(Position(3, 10), Position(3, 19)), '"supports"')
    fix = Fix("safe", "write the polarity as `supports`", (edit,))
    bare = Finding("bad-polarity", "error", "m", "/annotations/0/sources/0/polarity", edit.range)
    assert set(bare.to_json()) == {"code", "severity", "message", "pointer", "range"}
    fixed = dataclasses.replace(bare, fix=fix)
    assert fixed.to_json()["fix"] == {
        "applicability": "safe",
        "message": "write the polarity as `supports`",
        "edits": [{"range": edit.range.to_json(), "content": '"supports"'}],
    }
    chosen = dataclasses.replace(bare, suggestions=(fix, dataclasses.replace(fix, applicability="unsafe")))
    assert [s["applicability"] for s in chosen.to_json()["suggestions"]] == ["safe", "unsafe"]
    for finding in (fixed, chosen):
        assert Finding.from_json(finding.to_json()) == finding


def test_checks_in_many_threads_at_once_are_those_made_one_by_one():
    texts = [small(seed).text(seed % 2 * 2 or None) for seed in range(40)]
    alone = [check(text).to_json() for text in texts]
    shared = check(texts[0])
    barrier = threading.Barrier(8)

    def work(offset):
        barrier.wait()
        reads = [shared.findings, shared.refs]  # one report read by all threads at once
        return [check(texts[(offset + i) % len(texts)]).to_json() for i in range(len(texts))], reads

    with ThreadPoolExecutor(8) as pool:
        for offset, (got, reads) in enumerate(pool.map(work, range(8))):
            assert got == alone[offset:] + alone[:offset]
            assert reads == [shared.findings, shared.refs]


def test_checking_leaves_the_collector_and_the_streams_as_they_were(capsys):
    assert gc.isenabled()
    check(FIXTURES / "orbit-article.sourcecheck.json")
    list(check_lines(['{"documents": [], "annotations": []}']))
    assert gc.isenabled()


def test_the_command_called_in_process_gives_the_collector_back(tmp_path, monkeypatch):
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    monkeypatch.setattr(sys, "stdout", stdout)
    assert gc.isenabled()
    assert main(["--json", str(FIXTURES / "spec-example.sourcecheck.json")]) == 0
    assert gc.isenabled()
    assert stdout.errors == "strict"
    stdout.flush()
    assert json.loads(stdout.buffer.getvalue())["exit_code"] == 0  # type: ignore[attr-defined]
    gc.disable()
    try:
        main(["--json", str(FIXTURES / "spec-example.sourcecheck.json")])
        assert not gc.isenabled()  # as the caller had it
    finally:
        gc.enable()


def test_everything_public_is_exported_typed_and_documented():
    assert (ROOT / "server" / "sourcecheck" / "py.typed").is_file()
    assert sourcecheck.__doc__
    # What dir() and completion in a REPL show: the API, not what the package imports for itself.
    listed = dir(sourcecheck)
    assert set(sourcecheck.__all__) <= set(listed) and "__version__" in listed
    assert not {"importlib", "TYPE_CHECKING", "Any", "ModuleType"} & set(listed), listed
    assert sourcecheck.check and "api" in dir(sourcecheck)  # a module imported so far is listed
    for name in sourcecheck.__all__:
        if name == "__version__":
            continue
        thing = getattr(sourcecheck, name)
        if inspect.isclass(thing) or inspect.isfunction(thing):
            assert inspect.getdoc(thing), name
        if inspect.isclass(thing):
            for member, attribute in vars(thing).items():
                if not member.startswith("_") and (callable(attribute) or isinstance(attribute, property)):
                    assert inspect.getdoc(getattr(thing, member)), f"{name}.{member}"

"""The sourcecheck command: output for people and programs, exit codes, bad input."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def run(*args, stdin=None, env=None):
    full_env = {**os.environ, **(env or {})}
    full_env.pop("NO_COLOR", None) if env is None or "NO_COLOR" not in env else None
    return subprocess.run(
        [sys.executable, "-m", "sourcecheck", *map(str, args)], input=stdin, capture_output=True, env=full_env
    )


def test_a_good_session_exits_0_with_a_summary():
    result = run(FIXTURES / "orbit-article.sourcecheck.json")
    assert result.returncode == 0
    *_, refs, claims = result.stdout.decode().splitlines()
    assert refs.endswith("ok: 11 refs: 11 resolved, 0 failed; no findings")
    assert claims.endswith("4 claims: 3 supported, 1 contested; 62% of article uncited")
    assert result.stderr == b""


def test_findings_are_clickable_file_line_col_lines_with_the_line_underlined():
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    out = run(path).stdout.decode().splitlines()
    assert out[0] == (
        f'{path}:18:18: error[boundary-ambiguous] `"the"` occurs twice on line 2 of `article` (columns 5 and 9); '
        "extend it until it is unique"
    )
    assert out[1] == '  18 |           "str": "the"'
    assert out[2] == "     |                  ^^^^^"
    assert out[-2:] == [
        f"{path}: failed: 2 refs: 1 resolved, 1 failed; 1 error",
        f"{path}: 1 claim: 1 unresolved; 100% of article uncited",
    ]


def test_json_output_is_the_rules_md_object_and_the_exit_code_matches():
    result = run("--json", FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json")
    payload = json.loads(result.stdout)
    assert result.returncode == payload["exit_code"] == 1
    assert payload["findings"] == [
        {
            "code": "boundary-ambiguous",
            "severity": "error",
            "message": '`"the"` occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique',
            "pointer": "/annotations/0/claim/start/str",
            "range": {"start": {"line": 17, "character": 17}, "end": {"line": 17, "character": 22}},
            "suggestions": [  # which occurrence was meant: several repairs, no fix (docs/rules.md)
                {
                    "applicability": "unsafe",
                    "message": f'Extend start to "{new}": cites "{cites}"',
                    "edits": [
                        {
                            "range": {"start": {"line": 17, "character": 17}, "end": {"line": 17, "character": 22}},
                            "content": f'"{new}"',
                        }
                    ],
                }
                for new, cites in (("the the", "the the end"), ("the end", "the end"))
            ],
        }
    ]
    assert payload["refs"] == [
        {"pointer": "/annotations/0/claim", "valid": False, "text": None},
        {
            "pointer": "/annotations/0/sources/0",
            "valid": True,
            "text": "outcome of the trial was positive",
            "path": "report",
            "start": {"line": 2, "column": 4},
            "end": {"line": 2, "column": 37},
        },
    ]
    assert payload["annotations"] == [
        {
            "pointer": "/annotations/0",
            "verdict": "unresolved",
            "supports": 1,
            "refutes": 0,
            "support_strength": 0.9,
            "refute_strength": None,
            "unsupported_words": None,
        }
    ]


def test_json_ranges_count_utf16_code_units():
    text = (
        '{"documents": [{"path": "🚀", "content": "x"}], "annotations": [{"claim": {"path": "🚀", "start": '
        '{"line": 1, "str": "y"}, "end": {"line": 1, "str": "x"}}, "sources": []}]}'
    )
    payload = json.loads(run("--json", "-", stdin=text.encode()).stdout)
    finding = next(f for f in payload["findings"] if f["code"] == "boundary-not-found")
    column = len(text[: text.index('"y"')].encode("utf-16-le")) // 2
    assert finding["range"]["start"] == {"line": 0, "character": column}


def test_stdin_is_read_when_no_file_or_a_dash_is_given():
    data = (FIXTURES / "spec-example.sourcecheck.json").read_bytes()
    for args in ([], ["-"]):
        result = run(*args, "--json", stdin=data)
        assert result.returncode == 0
        assert json.loads(result.stdout)["refs"][0]["text"] == "I am GPT"


def test_several_files_exit_with_the_worst():
    result = run(
        FIXTURES / "spec-example.sourcecheck.json",
        FIXTURES / "broken" / "unknown-path.sourcecheck.json",
        FIXTURES / "broken" / "bad-polarity.sourcecheck.json",
    )
    assert result.returncode == 2
    payload = json.loads(
        run(
            "--json", FIXTURES / "spec-example.sourcecheck.json", FIXTURES / "broken" / "unknown-path.sourcecheck.json"
        ).stdout
    )
    assert payload["exit_code"] == 1
    assert [f["exit_code"] for f in payload["files"]] == [0, 1]


@pytest.mark.parametrize(
    "content, reason",
    [
        (None, "no such file"),
        (b"\xff\xfe{}", "is not UTF-8"),
    ],
)
def test_unreadable_input_is_exit_2_with_one_line_and_no_traceback(tmp_path, content, reason):
    target = tmp_path / "input.json"
    if content is not None:
        target.write_bytes(content)
    for args in ([target], ["--json", target]):
        result = run(*args)
        assert result.returncode == 2
        err = result.stderr.decode()
        assert reason in err and err.count("\n") == 1 and "Traceback" not in err
    assert json.loads(run("--json", target).stdout)["exit_code"] == 2


@pytest.mark.parametrize(
    "content, reason",
    [(b"", "is empty"), (b" \n", "is empty"), (b'\xef\xbb\xbf{"documents": [], "annotations": []}', "byte order mark")],
)
def test_an_empty_file_or_a_bom_is_exit_2_with_a_reason(tmp_path, content, reason):
    target = tmp_path / "input.json"
    target.write_bytes(content)
    result = run("--json", target)
    assert result.returncode == 2
    assert reason in result.stderr.decode()
    assert "invalid-json" in {f["code"] for f in json.loads(result.stdout)["findings"]}


def test_a_lone_surrogate_in_content_does_not_crash_either_output():
    text = (
        '{"documents": [{"path": "a", "content": "x\\ud800y \\u202e z"}], "annotations": [{"claim": {"path": '
        '"a", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "y"}}, "sources": [{"path": "a", "start": '
        '{"line": 1, "str": "\\ud800"}, "end": {"line": 1, "str": "q"}, "polarity": "supports", "confidence": 1}]}]}'
    )
    result = run("--json", "-", stdin=text.encode())
    assert result.returncode == 1
    payload = json.loads(result.stdout)
    assert payload["refs"][0]["text"] == "x\ud800y"
    human = run("-", stdin=text.encode())
    assert human.returncode == 1 and b"Traceback" not in human.stderr
    assert b"\\ud800" in human.stdout  # shown escaped, not raw


def test_colour_only_on_request_or_a_terminal():
    path = FIXTURES / "broken" / "unknown-path.sourcecheck.json"
    assert b"\x1b[" not in run(path).stdout
    assert b"\x1b[" in run("--color", "always", path).stdout
    assert b"\x1b[" not in run(path, env={"NO_COLOR": "1"}).stdout


def test_version_and_help():
    assert run("--version").stdout.decode().startswith("sourcecheck ")
    assert b"Exit status" in run("--help").stdout


def test_every_broken_fixture_exits_with_its_codes_class():
    for path in sorted((FIXTURES / "broken").glob("*.json")):
        code = path.name.split(".")[0]
        payload = json.loads(run("--json", path).stdout)
        assert code in {f["code"] for f in payload["findings"]}, path.name


def test_github_format_prints_workflow_annotations():
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    result = run("--format", "github", path)
    assert result.returncode == 1
    line, notice = result.stdout.decode().splitlines()
    assert line.startswith(
        f"::error file={path},line=18,col=18,endLine=18,endColumn=23,title=sourcecheck boundary-ambiguous::"
    )
    assert (
        notice == f"::notice file={path},title=sourcecheck verdicts::1 claim: 1 unresolved; 100%25 of article uncited"
    )  # % escaped
    assert line.endswith("occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique")


def test_github_format_escapes_what_would_break_a_workflow_command(tmp_path):
    target = tmp_path / "a,b:c.json"
    target.write_text('{"documents": [], "annotations": [], "x%\\n": 1}')
    line = run("--format", "github", target).stdout.decode().strip()
    assert "file=" + str(tmp_path).replace(":", "%3A").replace(",", "%2C") + "/a%2Cb%3Ac.json" in line
    assert "::warning " in line and "%25" in line and "\n" not in line


def test_sarif_format_is_a_sarif_2_1_0_log():
    files = [
        FIXTURES / "broken" / "unknown-path.sourcecheck.json",
        FIXTURES / "broken" / "low-confidence.sourcecheck.json",
        FIXTURES / "missing.json",
    ]
    result = run("--format", "sarif", *files)
    assert result.returncode == 2
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    (run_,) = log["runs"]
    assert {r["id"] for r in run_["tool"]["driver"]["rules"]} >= {"unknown-path", "low-confidence"}
    assert [(r["ruleId"], r["level"]) for r in run_["results"]] == [
        ("unknown-path", "error"),
        ("low-confidence", "note"),
        ("unreadable", "error"),
    ]
    region = run_["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 27, "startColumn": 19, "endLine": 27, "endColumn": 27}


def test_many_files_with_jobs_keep_their_order_and_the_worst_exit(tmp_path):
    files = sorted((FIXTURES / "broken").glob("*.json"))
    one = json.loads(run("--json", "--jobs", "1", *files).stdout)
    many = json.loads(run("--json", "--jobs", "2", *files).stdout)
    assert one == many
    assert [f["file"] for f in many["files"]] == [str(f) for f in files]
    assert many["exit_code"] == 2


def test_the_pre_commit_hook_runs_sourcecheck_on_session_files():
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    assert "entry: sourcecheck" in text and "files: \\.sourcecheck\\.json$" in text and "language: python" in text


def test_fix_quotes_a_string_missing_its_opening_quote_and_says_so_without_an_empty_pointer(tmp_path):
    good = (FIXTURES / "orbit-article.sourcecheck.json").read_text(encoding="utf-8")
    broken = good.replace('"str": "cuts"', '"str": cuts"', 1)
    assert broken != good
    path = tmp_path / "s.sourcecheck.json"
    path.write_text(broken, encoding="utf-8")
    result = run("--fix", path)
    assert result.returncode == 0
    assert path.read_text(encoding="utf-8") == good
    assert '\n  invalid-json: Add the opening quote: `"cuts"`\n' in result.stderr.decode()

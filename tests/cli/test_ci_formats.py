"""The CI formats say each session's verdicts: a ``::notice`` in GitHub's, a tool execution
notification in SARIF's; the findings they carry stay as they were. SARIF's rules say what each
finding means and what to do (tests/cli/test_sarif_validation.py validates the whole log)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sourcecheck.cli.main import main
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.registry import ALL_CODES, BY_CODE, EXIT_CLASS
from sourcecheck.formats.github import github_lines, github_summary
from sourcecheck.formats.sarif import artifact_location, docs_url, sarif_log, sarif_notifications, sarif_results
from tests.support.helpers import claim, session, source

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ORBIT = FIXTURES / "orbit-article.sourcecheck.json"
AMBIGUOUS = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
ORBIT_LINE = "4 claims: 3 supported, 1 contested; 62% of article uncited"


def run(capsys, *args):
    code = main(["--jobs", "1", *map(str, args)])
    return code, capsys.readouterr().out


def no_claims(tmp_path, name="empty.sourcecheck.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"documents": [{"path": "a", "content": "x"}], "annotations": []}))
    return path


# --- GitHub


def test_github_gives_one_verdicts_notice_per_session_with_claims(capsys, tmp_path):
    empty = no_claims(tmp_path)
    code, out = run(capsys, "--format", "github", ORBIT, empty, AMBIGUOUS)
    assert code == 1
    lines = out.splitlines()
    notices = [line for line in lines if "title=sourcecheck verdicts" in line]
    assert notices == [
        f"::notice file={ORBIT},title=sourcecheck verdicts::" + ORBIT_LINE.replace("%", "%25"),
        f"::notice file={AMBIGUOUS},title=sourcecheck verdicts::1 claim: 1 unresolved; 100%25 of article uncited",
    ]


def test_the_notice_follows_the_findings_of_its_session_which_are_as_they_were(capsys):
    _, out = run(capsys, "--format", "github", AMBIGUOUS)
    finding, notice = out.splitlines()
    assert finding == github_lines(str(AMBIGUOUS), Analysis(AMBIGUOUS.read_text()))[0]
    assert finding.startswith(
        f"::error file={AMBIGUOUS},line=18,col=18,endLine=18,endColumn=23,title=sourcecheck boundary-ambiguous::"
    )
    assert notice.startswith("::notice ")


def test_a_session_without_claims_gets_no_notice(tmp_path):
    path = no_claims(tmp_path)
    assert github_summary(str(path), Analysis(path.read_text())) == []


def test_the_notice_escapes_what_would_break_a_workflow_command():
    value = session(
        [{"claim": claim("50%,\nnew: line", (1, "a"), (1, "b")), "sources": [source()]}],
        [{"path": "50%,\nnew: line", "content": "a b c"}, {"path": "report", "content": "x\nthe outcome is positive"}],
    )
    (notice,) = github_summary("a,b:c.json", Analysis(json.dumps(value)))
    assert notice.startswith("::notice file=a%2Cb%3Ac.json,title=sourcecheck verdicts::1 claim: 1 supported; ")
    assert "\n" not in notice and "50%25," in notice  # the path's newline is shown escaped, its % encoded


# --- SARIF


def sarif(capsys, *files):
    code, out = run(capsys, "--format", "sarif", *files)
    return code, json.loads(out)


def test_sarif_carries_each_sessions_verdicts_as_a_note_of_its_one_invocation(capsys, tmp_path):
    empty = no_claims(tmp_path)
    code, log = sarif(capsys, ORBIT, empty, AMBIGUOUS, tmp_path / "missing.json")
    assert code == 2
    (run_,) = log["runs"]
    (invocation,) = run_["invocations"]
    assert invocation == {
        "executionSuccessful": True,
        "toolExecutionNotifications": [
            {
                "level": "note",
                "message": {"text": ORBIT_LINE},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": ORBIT.as_uri()}}}],
            },
            {
                "level": "note",
                "message": {"text": "1 claim: 1 unresolved; 100% of article uncited"},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": AMBIGUOUS.as_uri()}}}],
            },
        ],
    }


def test_sarif_without_any_claim_has_a_successful_invocation_with_no_notification(capsys, tmp_path):
    _, log = sarif(capsys, no_claims(tmp_path))
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True, "toolExecutionNotifications": []}]


def test_the_rest_of_the_sarif_log_is_as_it_was(capsys):
    _, log = sarif(capsys, ORBIT, AMBIGUOUS)
    results = [r for path in (ORBIT, AMBIGUOUS) for r in sarif_results(str(path), Analysis(path.read_text()))]
    before = sarif_log(results)
    (run_,), (was,) = log["runs"], before["runs"]
    assert {key: value for key, value in run_.items() if key != "invocations"} == {
        key: value for key, value in was.items() if key != "invocations"
    }
    assert set(run_) == {"tool", "invocations", "originalUriBaseIds", "columnKind", "results"}
    assert {key: value for key, value in log.items() if key != "runs"} == {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
    }


def test_sarif_notifications_have_the_shape_sarif_2_1_0_requires():
    """From the schema: an invocation requires ``executionSuccessful`` (a boolean); a
    notification requires ``message``, and its ``level`` is one of none, note, warning, error."""
    notifications = sarif_notifications(str(ORBIT), Analysis(ORBIT.read_text()))
    (invocation,) = sarif_log([], notifications)["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is True
    for notification in invocation["toolExecutionNotifications"]:
        assert set(notification) <= {"locations", "message", "level", "threadId", "timeUtc", "exception"}
        assert notification["level"] in ("none", "note", "warning", "error")
        assert isinstance(notification["message"]["text"], str)


def test_sarif_and_github_from_worker_processes_say_the_same(tmp_path):
    files = [ORBIT, AMBIGUOUS, no_claims(tmp_path)]

    def command(*args):
        result = subprocess.run([sys.executable, "-m", "sourcecheck", *map(str, args)], capture_output=True)
        return result.stdout.decode()

    for fmt in ("github", "sarif"):
        assert command("--format", fmt, "--jobs", "2", *files) == command("--format", fmt, "--jobs", "1", *files)
    log = json.loads(command("--format", "sarif", "--jobs", "2", *files))
    texts = [n["message"]["text"] for n in log["runs"][0]["invocations"][0]["toolExecutionNotifications"]]
    assert texts == [ORBIT_LINE, "1 claim: 1 unresolved; 100% of article uncited"]


def test_sarif_names_files_by_uri():
    assert artifact_location("docs/a b%#é.json") == {"uri": "docs/a%20b%25%23%C3%A9.json", "uriBaseId": "%SRCROOT%"}
    assert artifact_location("./x.json") == {"uri": "x.json", "uriBaseId": "%SRCROOT%"}
    assert artifact_location("/tmp/a b.json") == {"uri": "file:///tmp/a%20b.json"}
    assert artifact_location("<stdin>") == {"uri": "stdin", "description": {"text": "standard input"}}


# --- SARIF rules

DOCS = "https://git.example.org/team/sourcecheck/blob/main/docs/rules.md"  # test input only


def rules(log):
    return {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}


def test_each_finding_code_has_a_rule_that_says_what_it_means_and_what_to_do(monkeypatch):
    monkeypatch.delenv("SOURCECHECK_DOCS_URL", raising=False)
    by_id = rules(sarif_log([]))
    assert list(by_id) == [*ALL_CODES, "fail-on", "unreadable"]
    for code, rule in by_id.items():
        entry = BY_CODE[code]
        title, meaning, fix = entry.title, entry.meaning, entry.fix
        assert rule["shortDescription"] == {"text": title + "."}
        assert rule["fullDescription"] == {"text": f"{meaning} {fix}"}
        assert set(rule["help"]) == {"text", "markdown"}
        assert meaning in rule["help"]["text"] and fix in rule["help"]["markdown"]
        assert rule["name"] != code and rule["name"].lower() != code.lower()
        assert rule["properties"]["exitCode"] == EXIT_CLASS.get(code, {"unreadable": 2, "fail-on": 1}.get(code, 0))
        assert "helpUri" not in rule  # no URL without SOURCECHECK_DOCS_URL
        for text in (title, meaning, fix):
            assert text.strip() == text and "  " not in text and text[-1] not in ",;"
        assert meaning.endswith(".") and fix.endswith(".")
    assert by_id["boundary-ambiguous"]["defaultConfiguration"] == {"level": "error"}
    assert by_id["low-confidence"]["defaultConfiguration"] == {"level": "note"}
    assert by_id["unknown-field"]["help"]["markdown"].startswith("**unknown-field** (warning, does not fail")
    assert "informationUri" not in sarif_log([])["runs"][0]["tool"]["driver"]


def test_every_result_names_a_rule_of_the_log(capsys, tmp_path):
    files = sorted((FIXTURES / "broken").glob("*.json")) + [tmp_path / "missing.json"]
    _, log = sarif(capsys, *files)
    used = {result["ruleId"] for result in log["runs"][0]["results"]}
    assert used <= set(rules(log)) and len(used) == len(ALL_CODES) + 1  # every code, and unreadable
    assert "unreadable" in used


def github_anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces to -."""
    return {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in markdown.splitlines()
        if line.startswith("#")
    }


def test_with_sourcecheck_docs_url_each_rule_links_its_section_of_the_rules(monkeypatch):
    monkeypatch.setenv("SOURCECHECK_DOCS_URL", DOCS + "#findings")
    log = sarif_log([])
    anchors = github_anchors((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    for code, rule in rules(log).items():
        base, _, anchor = rule["helpUri"].partition("#")
        assert base == DOCS and anchor == BY_CODE[code].section and anchor in anchors, code
    assert rules(log)["boundary-ambiguous"]["helpUri"] == DOCS + "#resolving-a-ref"
    assert log["runs"][0]["tool"]["driver"]["informationUri"] == DOCS


@pytest.mark.parametrize(
    "value",
    ["docs/rules.md", "git.example.org/docs/rules.md", "ftp://git.example.org/rules.md", "https://", "https://a b"],
)
def test_a_docs_url_that_is_no_absolute_http_url_gives_no_help_uri(monkeypatch, capsys, value):
    monkeypatch.setenv("SOURCECHECK_DOCS_URL", value)
    assert all("helpUri" not in rule for rule in rules(sarif_log([])).values())
    assert "SOURCECHECK_DOCS_URL is not an absolute http(s) URL" in capsys.readouterr().err


def test_an_empty_docs_url_is_none_silently(monkeypatch, capsys):
    monkeypatch.setenv("SOURCECHECK_DOCS_URL", " ")
    assert docs_url() is None and capsys.readouterr().err == ""
    monkeypatch.delenv("SOURCECHECK_DOCS_URL")
    assert docs_url() is None


# --- --fail-on: each failing claim named, on its line


def verdicts_session(tmp_path):
    """Four claims: supported, refuted, supported only weakly, contested."""
    annotations = [
        {"claim": claim("article", (1, "The"), (1, "report")), "sources": [source()]},
        {"claim": claim("article", (1, "says"), (1, "says")), "sources": [source(polarity="refutes")]},
        {"claim": claim("article", (3, "Second"), (3, "line.")), "sources": [source(confidence=0.2)]},
        {
            "claim": claim("article", (1, "outcome"), (1, "positive")),
            "sources": [source(), source("report", (3, "Confidence"), (3, "high."), "refutes", 0.6)],
        },
    ]
    path = tmp_path / "verdicts.sourcecheck.json"
    text = json.dumps(session(annotations), indent=2)
    path.write_text(text)
    lines = [number for number, line in enumerate(text.split("\n"), 1) if '"claim"' in line]
    return path, lines


def test_fail_on_names_each_failing_claim_by_its_text_on_its_line_in_every_format(capsys, tmp_path):
    path, lines = verdicts_session(tmp_path)
    code, out = run(capsys, path, "--fail-on", "refuted,contested,weak")
    assert code == 1
    assert f"{path}: failed: 1 contested, 1 refuted, 1 weak (--fail-on)" in out
    listed = out.split("(--fail-on)\n", 1)[1].splitlines()
    assert listed == [
        f'  {path}:{lines[1]}:16: claim "says" is refuted (--fail-on refuted): none supports it, '
        "1 source refutes it (strongest 0.9)",
        f'  {path}:{lines[2]}:16: claim "Second line." is supported only weakly (--fail-on weak): '
        "1 source supports it (strongest 0.2), none refutes it",
        f'  {path}:{lines[3]}:16: claim "outcome was positive" is contested (--fail-on contested): '
        "1 source supports it (strongest 0.9), 1 source refutes it (strongest 0.6)",
    ]
    code, out = run(capsys, "--format", "github", path, "--fail-on", "refuted,contested,weak")
    failing = [line for line in out.splitlines() if "title=sourcecheck --fail-on" in line]
    assert [re.search(r",line=(\d+),", line).group(1) for line in failing] == [str(n) for n in lines[1:]]
    assert failing[0] == (
        f"::error file={path},line={lines[1]},col=16,title=sourcecheck --fail-on refuted::"
        'claim "says" is refuted (--fail-on refuted): none supports it, 1 source refutes it (strongest 0.9)'
    )
    code, log = sarif(capsys, path, "--fail-on", "refuted,contested,weak")
    results = [r for r in log["runs"][0]["results"] if r["ruleId"] == "fail-on"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results] == lines[1:]
    assert [r["properties"] for r in results] == [
        {"verdict": "refuted", "failOn": "refuted"},
        {"verdict": "supported", "failOn": "weak"},
        {"verdict": "contested", "failOn": "contested"},
    ]
    assert results[2]["message"]["text"].startswith('claim "outcome was positive" is contested')
    assert code == 1


def test_without_fail_on_no_claim_is_listed_and_the_outputs_are_as_they_were(capsys, tmp_path):
    path, _ = verdicts_session(tmp_path)
    for fmt in ("human", "github"):
        code, out = run(capsys, "--format", fmt, path)
        assert code == 0 and "--fail-on" not in out
    _, log = sarif(capsys, path)
    assert all(r["ruleId"] != "fail-on" for r in log["runs"][0]["results"])

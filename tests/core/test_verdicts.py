"""Verdicts and coverage as docs/rules.md defines them, and their place in --json and the summary."""

import json

import pytest

from sourcecheck.cli.main import main
from sourcecheck.core.analysis import Analysis
from sourcecheck.formats.json import report_json
from sourcecheck.inputs import Checked
from tests.support.helpers import claim, session, source

ARTICLE = "The report says the outcome was positive.\nThe the the end.\nSecond line."


def report(value: object) -> dict:
    return report_json(Checked("t", Analysis(json.dumps(value, ensure_ascii=False, indent=2))))


@pytest.mark.parametrize(
    "sources, verdict",
    [
        ([source()], "supported"),
        ([source(polarity="refutes")], "refuted"),
        ([source(), source(polarity="refutes", start=(3, "Confidence"), end=(3, "high."))], "contested"),
        ([source(polarity="Supports")], "unverified"),  # a bad polarity does not count
        ([source(confidence=1.5)], "unverified"),  # nor a bad confidence
        ([source(start=(2, "nowhere"))], "unverified"),  # nor a source that does not resolve
        ([], "unverified"),
    ],
)
def test_the_verdict_follows_the_counted_sources(sources, verdict):
    (found,) = report(session([{"claim": claim(), "sources": sources}]))["annotations"]
    assert found["verdict"] == verdict


def test_a_claim_that_does_not_resolve_is_unresolved_whatever_its_sources():
    value = session([{"claim": claim(start=(2, "the")), "sources": [source()]}, 7])
    found = report(value)["annotations"]
    assert [a["verdict"] for a in found] == ["unresolved", "unresolved"]  # an item that is no object too
    assert found[0] == {
        "pointer": "/annotations/0",
        "verdict": "unresolved",
        "supports": 1,
        "refutes": 0,
        "support_strength": 0.9,
        "refute_strength": None,
        "unsupported_words": None,
    }


def test_strengths_are_the_highest_counted_confidence_and_weak_support_is_said():
    value = session(
        [
            {
                "claim": claim(),
                "sources": [source(confidence=0.2), source(confidence=0.1, start=(3, "Confidence"), end=(3, "high."))],
            }
        ]
    )
    (found,) = report(value)["annotations"]
    assert (found["supports"], found["support_strength"], found["refute_strength"]) == (2, 0.2, None)
    assert Analysis(json.dumps(value)).summary.weakly_supported == 1


def test_valid_refs_carry_their_span_in_code_point_columns_end_exclusive():
    doc = {"path": "a", "content": "中文 first 🚀 line\nsecond line"}
    value = {
        "documents": [doc, {"path": "report", "content": "ok"}],
        "annotations": [
            {
                "claim": {"path": "a", "start": {"line": 1, "str": "first"}, "end": {"line": 2, "str": "second"}},
                "sources": [
                    {
                        "path": "report",
                        "start": {"line": 1, "str": "ok"},
                        "end": {"line": 1, "str": "ok"},
                        "polarity": "supports",
                        "confidence": 1,
                    }
                ],
            }
        ],
    }
    claim_ref = report(value)["refs"][0]
    assert claim_ref == {
        "pointer": "/annotations/0/claim",
        "valid": True,
        "text": "first 🚀 line\nsecond",
        "path": "a",
        "start": {"line": 1, "column": 3},
        "end": {"line": 2, "column": 6},
    }


def test_uncited_text_is_every_maximal_run_no_claim_covers_but_whitespace_alone():
    doc = {"path": "a", "content": "Title\n\nOne claim here. An uncited clause.\n\n"}
    value = {
        "documents": [doc, {"path": "b", "content": "never claimed"}, {"path": "report", "content": "ok"}],
        "annotations": [
            {
                "claim": {"path": "a", "start": {"line": 3, "str": "One"}, "end": {"line": 3, "str": "here."}},
                "sources": [
                    {
                        "path": "report",
                        "start": {"line": 1, "str": "ok"},
                        "end": {"line": 1, "str": "ok"},
                        "polarity": "supports",
                        "confidence": 1,
                    }
                ],
            }
        ],
    }
    (found,) = report(value)["uncited"]  # b is cited by no claim; report only by a source
    assert found["path"] == "a" and found["characters"] == len(doc["content"])
    assert found["runs"] == [
        {"start": {"line": 1, "column": 0}, "end": {"line": 3, "column": 0}},  # "Title\n\n"
        {"start": {"line": 3, "column": 15}, "end": {"line": 5, "column": 0}},  # " An uncited clause.\n\n"
    ]
    assert found["uncited_characters"] == len("Title\n\n") + len(" An uncited clause.\n\n")


def test_the_cli_summary_counts_claims_by_verdict_and_says_the_uncited_share(capsys, tmp_path):
    value = session(
        [
            {"claim": claim(), "sources": [source(confidence=0.1)]},
            {"claim": claim(start=(1, "report"), end=(1, "says")), "sources": []},
        ]
    )
    path = tmp_path / "s.json"
    path.write_text(json.dumps(value, indent=2))
    main([str(path)])
    last = capsys.readouterr().out.splitlines()[-1]
    covered = len("report says") + len("outcome was positive")  # the two claims; all else is uncited
    share = round((len(ARTICLE) - covered) / len(ARTICLE) * 100)
    assert last == f"{path}: 2 claims: 1 supported, 1 unverified; 1 supported only weakly; {share}% of article uncited"


def test_fail_on_fails_the_check_on_the_verdicts_it_names(capsys, tmp_path):
    value = session([{"claim": claim(), "sources": [source(polarity="refutes")]}])
    path = tmp_path / "s.json"
    path.write_text(json.dumps(value))
    assert main([str(path)]) == 0
    assert main(["--fail-on", "unverified,refuted", str(path)]) == 1
    assert "1 refuted (--fail-on)" in capsys.readouterr().out
    assert main(["--fail-on", "contested", "--json", str(path)]) == 0
    capsys.readouterr()
    assert main(["--fail-on", "refuted", "--json", str(path)]) == 1
    assert json.loads(capsys.readouterr().out)["exit_code"] == 1  # the process's, as docs/rules.md says
    assert main(["--fail-on", "nonsense", str(path)]) == 2


def test_json_names_the_words_of_each_claim_its_sources_do_not_have():
    value = session([{"claim": claim(start=(1, "report"), end=(1, "positive")), "sources": [source()]}])
    (found,) = report(value)["annotations"]
    assert found["verdict"] == "supported" and found["unsupported_words"] == ["report", "says"]

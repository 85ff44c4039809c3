"""``sourcecheck add``: an annotation from the command line (cli/adding.py); and the ref
choices it shares with ``ref`` (cli/citing.py): --occurrence, text written with other quotes."""

import json
import os

import pytest

from sourcecheck.core.analysis import Analysis

from .test_authoring import in_tmp, resolved, sc, write  # noqa: F401  (in_tmp: the autouse fixture)

CLAIM = "Revenue grew by five percent in 2024.\nCosts fell.\n"
SOURCE = "The report says “revenue grew 5%” last year.\nCosts did not fall: costs rose, costs rose.\n"


@pytest.fixture
def session(capsys):
    write("claim.txt", CLAIM)
    write("source.txt", SOURCE)
    code, _, _ = sc(capsys, "new", "claim.txt", "source.txt", "-o", "s.json")
    assert code == 0
    return "s.json"


def annotations(name):
    return json.load(open(name, encoding="utf-8"))["annotations"]


def test_add_writes_one_checked_annotation_with_several_sources_each_ref_citing_its_text(capsys, session):
    code, out, err = sc(
        capsys,
        "add", session,
        "--claim", "claim.txt", "Revenue grew by five percent",
        "--supports", "source.txt", "“revenue grew 5%”", "--confidence", "0.9",
        "--refutes", "source.txt", "Costs did not fall",
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert out == (
        's.json: added annotation 1: claim "Revenue grew by five percent"; supports "“revenue grew 5%”" (0.9); '
        'refutes "Costs did not fall" (0.9)\n'
    )
    [annotation] = annotations(session)
    assert resolved(session, annotation["claim"]) == "Revenue grew by five percent"
    sources = annotation["sources"]
    assert [resolved(session, s) for s in sources] == ["“revenue grew 5%”", "Costs did not fall"]
    # the second source without --confidence takes the one given the source before it
    assert [(s["polarity"], s["confidence"]) for s in sources] == [("supports", 0.9), ("refutes", 0.9)]
    analysis = Analysis(open(session, encoding="utf-8").read())
    assert analysis.findings == [] and [v.verdict for v in analysis.summary.verdicts] == ["contested"]


def test_a_source_without_confidence_takes_the_last_the_session_has_else_0_7(capsys, session):
    sc(capsys, "add", session, "--claim", "claim.txt", "Costs fell", "--refutes", "source.txt", "costs rose,")
    assert annotations(session)[0]["sources"][0]["confidence"] == 0.7
    sc(
        capsys,
        "add",
        session,
        "--claim",
        "claim.txt",
        "Costs",
        "--refutes",
        "source.txt",
        "did not",
        "--confidence",
        "0.4",
    )
    sc(capsys, "add", session, "--claim", "claim.txt", "fell", "--supports", "source.txt", "report")
    assert [a["sources"][0]["confidence"] for a in annotations(session)] == [0.7, 0.4, 0.4]


def test_add_keeps_the_files_indentation_and_everything_else_byte_for_byte(capsys):
    write("claim.txt", CLAIM)
    text = (
        '{\n    "documents": [{"path": "claim.txt", "content": "Revenue grew.\\nCosts fell.\\n"}],\n'
        '    "annotations": [\n    ]\n}\n'
    )
    write("s.json", text)
    code, _, err = sc(
        capsys, "add", "s.json", "--claim", "claim.txt", "Revenue", "--supports", "claim.txt", "Costs fell"
    )
    assert (code, err) == (0, "")
    after = open("s.json", encoding="utf-8").read()
    assert after.startswith(
        '{\n    "documents": [{"path": "claim.txt", "content": "Revenue grew.\\nCosts fell.\\n"}],\n'
    )
    assert '\n    "annotations": [\n        {\n            "claim": {\n                "path": "claim.txt",' in after
    assert json.loads(after)["annotations"][0]["claim"] == {
        "path": "claim.txt",
        "start": {"line": 1, "str": "Revenue"},
        "end": {"line": 1, "str": "Revenue"},
    }


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["--claim", "claim.txt", "Costs fell"], 2, "got 1 claim and 0 sources"),
        (["--supports", "source.txt", "Costs"], 2, "got 0 claims and 1 source"),
        (["--claim", "claim.txt", "Costs fell", "--supports", "nope.txt", "x"], 2, "no document `nope.txt` in s.json"),
        (
            ["--claim", "claim.txt", "Costs fell", "--supports", "source.txt", "costs rose"],
            1,
            "occurs 2 times on line 2",
        ),
        (
            ["--claim", "claim.txt", "Profits", "--supports", "source.txt", "report"],
            1,
            "`Profits` is not in `claim.txt`",
        ),
    ],
)
def test_add_refuses_what_makes_no_annotation_and_leaves_the_session_as_it_was(capsys, session, args, code, message):
    before = open(session, "rb").read()
    got, out, err = sc(capsys, "add", session, *args)
    assert (got, out) == (code, "") and message in err and err.count("\n") == 1, err
    assert open(session, "rb").read() == before
    assert [n for n in os.listdir(".") if n.endswith(".tmp")] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--confidence", "0.5", "--claim", "claim.txt", "Costs"], "--confidence belongs to a --claim, --supports or"),
        (["--claim", "claim.txt", "Costs", "--confidence", "0.5"], "--confidence belongs to a source"),
        (
            ["--claim", "claim.txt", "Costs", "--supports", "source.txt", "x", "--confidence", "90"],
            "(for 90%, write 0.9)",
        ),
        (["--claim", "claim.txt", "Costs", "--supports", "source.txt", "x", "--confidence", "nan"], "outside [0, 1]"),
    ],
)
def test_add_says_which_argument_is_wrong(capsys, session, args, message):
    with pytest.raises(SystemExit) as exit:
        sc(capsys, "add", session, *args)
    assert exit.value.code == 2 and message in capsys.readouterr().err


def test_add_refuses_a_session_changed_while_it_was_being_added_to(capsys, session, monkeypatch):
    from sourcecheck.cli import adding

    real = adding.check_added

    def meanwhile(*args):
        real(*args)
        write(session, open(session, encoding="utf-8").read().replace('"annotations": []', '"annotations": [ ]'))

    monkeypatch.setattr(adding, "check_added", meanwhile)
    code, _, err = sc(
        capsys, "add", session, "--claim", "claim.txt", "Costs fell", "--supports", "source.txt", "report"
    )
    assert code == 1 and "changed since it was read" in err
    assert annotations(session) == []


def test_occurrence_picks_one_of_the_same_text_on_one_line(capsys, session):
    for k in (1, 2):
        code, out, err = sc(capsys, "ref", session, "source.txt", "costs rose", "--line", "2", "--occurrence", k)
        assert (code, err) == (0, "")
        value = json.loads(out)
        assert resolved(session, value) == "costs rose"
        start = SOURCE.split("\n")[1].index(value["start"]["str"])
        assert start == SOURCE.split("\n")[1].find("costs rose", 0 if k == 1 else 25) or k == 2
    first, second = (
        json.loads(sc(capsys, "ref", session, "source.txt", "costs rose", "--occurrence", k)[1]) for k in (1, 2)
    )
    assert first != second
    code, _, err = sc(capsys, "ref", session, "source.txt", "costs rose", "--occurrence", "3")
    assert code == 1 and "--occurrence 3: `costs rose` occurs 2 times on line 2 of `source.txt`" in err


def test_ref_finds_text_written_with_straight_quotes_as_the_document_writes_it_and_says_so(capsys, session):
    code, out, err = sc(capsys, "ref", session, "source.txt", '"revenue grew 5%"')
    assert code == 0 and resolved(session, json.loads(out)) == "“revenue grew 5%”"
    assert err == (
        'sourcecheck: citing `“revenue grew 5%”`, the text of `source.txt` that `"revenue grew 5%"` stands for '
        "(written there with other quotes, capitals or spacing)\n"
    )


def test_add_is_a_listed_command(capsys):
    with pytest.raises(SystemExit):
        sc(capsys, "--help")
    assert "sourcecheck add SESSION --claim PATH TEXT" in capsys.readouterr().out

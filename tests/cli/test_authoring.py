"""Writing sessions from the command line: new, ref, show, sync (cli/authoring.py)."""

import gc
import io
import json
import os
import subprocess
import sys

import pytest

from sourcecheck.cli.authoring import document_path
from sourcecheck.cli.main import main
from tests.support.command import sc


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Each test in its own folder, with colour off unless asked, and the collector back on
    after the check command (which turns it off for its run)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    enabled = gc.isenabled()
    yield tmp_path
    if enabled:
        gc.enable()


def write(path, text, newline="\n"):
    with open(path, "w", encoding="utf-8", newline=newline) as handle:
        handle.write(text)


ARTICLE = "The report says the outcome was positive.\nThe the the end.\n東京は日本の首都です。🚀 launch\n"
REPORT = "Summary\nThe outcome of the trial was positive.\nConfidence is high.\n"


def make_session(capsys, name="s.json"):
    write("article.txt", ARTICLE)
    write("report.txt", REPORT)
    code, _, _ = sc(capsys, "new", "article.txt", "report.txt", "-o", name)
    assert code == 0
    return name


def ref(capsys, session, path, text, *more):
    code, out, err = sc(capsys, "ref", session, path, text, *more)
    assert (code, err) == (0, ""), err
    assert out.count("\n") == 1
    return json.loads(out)


def resolved(session, value):
    """The text a ref resolves to, by the spec's rules, computed here."""
    documents = {d["path"]: d["content"] for d in json.load(open(session, encoding="utf-8"))["documents"]}
    lines = documents[value["path"]].split("\n")
    start_line, end_line = lines[value["start"]["line"] - 1], lines[value["end"]["line"] - 1]
    assert start_line.count(value["start"]["str"]) == 1 and end_line.count(value["end"]["str"]) == 1
    begin = sum(len(line) + 1 for line in lines[: value["start"]["line"] - 1]) + start_line.index(value["start"]["str"])
    end = (
        sum(len(line) + 1 for line in lines[: value["end"]["line"] - 1])
        + end_line.index(value["end"]["str"])
        + len(value["end"]["str"])
    )
    return documents[value["path"]][begin:end]


# --- new -------------------------------------------------------------------------------


def test_new_writes_one_document_per_file_with_lf_content_and_says_what_it_normalized(capsys):
    write("notes.txt", "one\r\ntwo\r\n", newline="")
    write("plain.txt", "日本語 🚀\n")
    code, out, err = sc(capsys, "new", "./notes.txt", "plain.txt")
    assert code == 0
    assert err == "sourcecheck: ./notes.txt: CRLF line breaks normalized to LF\n"
    assert json.loads(out) == {
        "documents": [{"path": "notes.txt", "content": "one\ntwo\n"}, {"path": "plain.txt", "content": "日本語 🚀\n"}],
        "annotations": [],
    }
    assert '"content": "日本語 🚀\\n"' in out  # readable, not \u escapes
    assert out.startswith('{\n  "documents": [\n    {\n      "path"')  # indent 2


def test_document_paths_are_posix_without_a_leading_dot_slash():
    assert document_path(".\\docs\\a.txt") == "docs/a.txt"
    assert document_path("././/b.txt") == "b.txt"
    assert document_path("../c.txt") == "../c.txt"


@pytest.mark.parametrize(
    "files, reason",
    [
        (["missing.txt"], "missing.txt: no such file"),
        (["latin1.txt"], "latin1.txt: is not UTF-8 text (byte 0xe9 at offset 4, line 2)"),
        (["./a.txt"], "`a.txt` is given twice (arguments 1 and 2)"),
    ],
)
def test_new_refuses_what_it_cannot_read_in_one_line_and_writes_nothing(capsys, files, reason):
    write("a.txt", "a\n")
    with open("latin1.txt", "wb") as handle:
        handle.write(b"abc\n\xe9t\xe9\n")
    code, out, err = sc(capsys, "new", "a.txt", *files, "-o", "s.json")
    assert code == 2 and out == ""
    assert err.startswith("sourcecheck: ") and reason in err and err.count("\n") == 1
    assert not os.path.exists("s.json")


def test_new_refuses_to_overwrite_without_force(capsys):
    write("a.txt", "a\n")
    write("s.json", "keep")
    code, _, err = sc(capsys, "new", "a.txt", "-o", "s.json")
    assert code == 2 and "already exists; add --force" in err
    assert open("s.json").read() == "keep"
    assert sc(capsys, "new", "a.txt", "-o", "s.json", "--force")[0] == 0
    assert json.load(open("s.json"))["documents"] == [{"path": "a.txt", "content": "a\n"}]


def test_new_warns_when_sync_would_not_find_the_files_again(capsys, in_tmp):
    write("a.txt", "a\n")
    os.mkdir("out")
    code, _, err = sc(capsys, "new", "a.txt", "-o", "out/s.json")
    assert code == 0 and "`sync` reads each path from the session's folder" in err and "`a.txt`" in err


# --- ref -------------------------------------------------------------------------------


def test_ref_prints_the_ref_whose_text_is_exactly_text_cjk_and_emoji_included(capsys):
    session = make_session(capsys)
    for text in ("outcome was positive", "東京は日本の首都です。🚀", "🚀", "日本"):
        value = ref(capsys, session, "article.txt", text)
        assert set(value) == {"path", "start", "end"} and value["path"] == "article.txt"
        assert resolved(session, value) == text


def test_ref_accepts_a_text_over_several_lines(capsys):
    session = make_session(capsys)
    text = "trial was positive.\nConfidence is"
    value = ref(capsys, session, "report.txt", text)
    assert (value["start"]["line"], value["end"]["line"]) == (2, 3)
    assert resolved(session, value) == text


def test_ref_reads_text_from_standard_input_without_its_final_line_break(capsys, monkeypatch):
    session = make_session(capsys)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("首都です。\n".encode())))
    value = ref(capsys, session, "article.txt", "-")
    assert resolved(session, value) == "首都です。"


def test_ref_of_a_text_found_twice_lists_the_lines_and_line_settles_it(capsys):
    write("doc.txt", "alpha beta\ngamma\nbeta delta\n")
    sc(capsys, "new", "doc.txt", "-o", "s.json")
    code, out, err = sc(capsys, "ref", "s.json", "doc.txt", "beta")
    assert (code, out) == (1, "")
    assert (
        err
        == "sourcecheck: `beta` occurs 2 times in `doc.txt`: lines 1, 3; add --line N to choose the line it starts on\n"
    )
    value = ref(capsys, "s.json", "doc.txt", "beta", "--line", "3")
    assert value["start"]["line"] == 3 and resolved("s.json", value) == "beta"
    code, _, err = sc(capsys, "ref", "s.json", "doc.txt", "beta", "--line", "2")
    assert code == 1 and "does not start on line 2 of `doc.txt`; it starts on lines 1, 3" in err
    code, _, err = sc(capsys, "ref", "s.json", "doc.txt", "beta", "--line", "9")
    assert code == 2 and "--line 9 is not a line of `doc.txt`, which has 4 lines" in err


def test_ref_of_a_text_twice_on_one_line_says_line_cannot_tell_them_apart(capsys):
    session = make_session(capsys)
    code, _, err = sc(capsys, "ref", session, "article.txt", "the", "--line", "2")
    assert code == 1 and "occurs 2 times on line 2 of `article.txt` (columns 5, 9)" in err


def test_ref_of_a_missing_text_names_the_nearest_line(capsys):
    session = make_session(capsys)
    code, out, err = sc(capsys, "ref", session, "report.txt", "outcome of a trial")
    assert (code, out) == (1, "")
    assert err == (
        "sourcecheck: `outcome of a trial` is not in `report.txt`; the nearest is line 2: "
        "`The outcome of the trial was positive.`\n"
    )
    code, _, err = sc(capsys, "ref", session, "report.txt", "positive.\\nConfidence")
    assert code == 1 and "`\\n` typed as two characters" in err


def test_ref_of_an_uncitable_span_says_why(capsys):
    write("doc.txt", "x y x\nz\n")
    sc(capsys, "new", "doc.txt", "-o", "s.json")
    code, out, err = sc(capsys, "ref", "s.json", "doc.txt", "x\nz")
    assert (code, out) == (1, "")
    assert err.startswith("sourcecheck: cannot cite `x\\nz` on line 1 of `doc.txt`: no string that starts at")
    code, _, err = sc(capsys, "ref", "s.json", "doc.txt", "z\n")
    assert code == 1 and "cannot start or end at a line break" in err


def test_ref_to_an_unknown_path_lists_the_documents(capsys):
    session = make_session(capsys)
    code, out, err = sc(capsys, "ref", session, "article", "x")
    assert (code, out) == (2, "")
    assert err == "sourcecheck: no document `article` in s.json; its documents are: `article.txt`, `report.txt`\n"


def test_an_unreadable_session_is_exit_2_naming_the_line(capsys):
    write("bad.json", '{\n  "documents": [,]\n}')
    for args in (["ref", "bad.json", "a", "x"], ["show", "bad.json", "a"], ["sync", "bad.json"]):
        code, _, err = sc(capsys, *args)
        assert code == 2 and err.startswith("sourcecheck: bad.json:2:") and err.count("\n") == 1
    code, _, err = sc(capsys, "show", "nothing.json", "a")
    assert (code, err) == (2, "sourcecheck: nothing.json: no such file\n")


# --- show ------------------------------------------------------------------------------


def annotated(capsys):
    session = make_session(capsys)
    data = json.load(open(session, encoding="utf-8"))

    def source(text, polarity):
        return {**ref(capsys, session, "report.txt", text), "polarity": polarity, "confidence": 0.9}

    data["annotations"] = [
        {
            "claim": ref(capsys, session, "article.txt", "outcome was positive"),
            "sources": [
                source("The outcome of the trial was positive.", "supports"),
                source("trial was positive.\nConfidence", "refutes"),
            ],
        },
        {"claim": ref(capsys, session, "article.txt", "首都です。🚀"), "sources": [source("Summary", "supports")]},
    ]
    write(session, json.dumps(data, indent=2, ensure_ascii=False))
    return session


def test_show_marks_cited_spans_under_each_line_at_display_width(capsys):
    session = annotated(capsys)
    code, out, err = sc(capsys, "show", session, "article.txt")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "  1 | The report says the outcome was positive.",
        "    |                     ^^^^^^^^^^^^^^^^^^^^",
        "  2 | The the the end.",
        "  3 | 東京は日本の首都です。🚀 launch",
        "    |             ^^^^^^^^^^^^",  # 東京は日本の is 12 columns wide, 首都です。🚀 12 too
        "  4 |",
        "",
        "marks: ^ claim · + supporting source · - refuting source · * several kinds",
        "`article.txt`: 2 refs: 2 claims, 0 sources",
    ]
    code, out, _ = sc(capsys, "show", session, "report.txt")
    assert out.splitlines()[:6] == [
        "  1 | Summary",
        "    | +++++++",
        "  2 | The outcome of the trial was positive.",
        "    | +++++++++++++++++++*******************",
        "  3 | Confidence is high.",
        "    | ----------",
    ]
    assert out.splitlines()[-1] == "`report.txt`: 3 refs: 0 claims, 3 sources (2 supports, 1 refutes)"


def test_show_escapes_untrusted_text_and_colours_only_when_asked(capsys, monkeypatch):
    write("doc.txt", "safe\x1b[31m \u202eevil\n")
    sc(capsys, "new", "doc.txt", "-o", "s.json")
    _, out, _ = sc(capsys, "show", "s.json", "doc.txt")
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[31m \\u202eevil" in out
    assert "\x1b[" in sc(capsys, "show", "s.json", "doc.txt", "--color", "always")[1]
    monkeypatch.delenv("NO_COLOR")
    assert "\x1b[" not in sc(capsys, "show", "s.json", "doc.txt")[1]  # not a terminal
    assert "\x1b[" not in sc(capsys, "show", "s.json", "doc.txt", "--color", "never")[1]


def test_show_uncited_lists_the_lines_with_text_no_claim_cites_marked_at_display_width(capsys):
    session = annotated(capsys)
    code, out, err = sc(capsys, "show", session, "article.txt", "--uncited")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "  1 | The report says the outcome was positive.",
        "    | ~~~~~~~~~~~~~~~~~~~~                    ~",  # the claim cites "outcome was positive"
        "  2 | The the the end.",
        "    | ~~~~~~~~~~~~~~~~",
        "  3 | 東京は日本の首都です。🚀 launch",
        "    | ~~~~~~~~~~~~            ~~~~~~~",
        "",
        "`article.txt`: 3 uncited passages (67%); ~ marks the text no claim cites",
    ]
    # a document no claim cites has no uncited text (docs/rules.md), and says so
    code, out, _ = sc(capsys, "show", session, "report.txt", "--uncited")
    assert code == 0 and out.startswith("`report.txt`: no claim cites it, so none of it counts as uncited text")


def test_show_uncited_of_a_document_cited_whole(capsys):
    write("doc.txt", "All of it.\n")
    sc(capsys, "new", "doc.txt", "-o", "s.json")
    sc(capsys, "add", "s.json", "--claim", "doc.txt", "All of it.", "--supports", "doc.txt", "All")
    code, out, _ = sc(capsys, "show", "s.json", "doc.txt", "--uncited")
    assert (code, out) == (0, "`doc.txt`: all of its text is cited by claims\n")


def test_show_of_an_unknown_path_is_exit_2(capsys):
    session = make_session(capsys)
    code, out, err = sc(capsys, "show", session, "nope")
    assert (code, out) == (2, "") and "no document `nope`" in err


# --- sync (more in test_sync.py) -------------------------------------------------------


def test_round_trip_new_ref_check_change_sync(capsys):
    write("article.txt", ARTICLE)
    write("report.txt", REPORT)
    assert sc(capsys, "new", "article.txt", "report.txt", "-o", "s.json")[0] == 0
    claim = ref(capsys, "s.json", "article.txt", "outcome was positive")
    source = ref(capsys, "s.json", "report.txt", "outcome of the trial was positive")
    data = json.load(open("s.json", encoding="utf-8"))
    data["annotations"].append({"claim": claim, "sources": [{**source, "polarity": "supports", "confidence": 0.9}]})
    write("s.json", json.dumps(data, indent=2, ensure_ascii=False))
    code, out, _ = sc(capsys, "s.json")
    assert code == 0 and out.endswith(
        "ok: 2 refs: 2 resolved, 0 failed; no findings\ns.json: 1 claim: 1 supported; 75% of article.txt uncited\n"
    )
    assert sc(capsys, "sync", "s.json") == (0, "s.json: up to date: every document equals its file\n", "")

    write("report.txt", "Summary\nThe outcome of the trial was unclear.\nConfidence is high.\n")
    before = open("s.json", encoding="utf-8").read()
    code, out, err = sc(capsys, "sync", "s.json", "--check")
    assert (code, err) == (1, "")
    line = next(n for n, text in enumerate(before.splitlines(), 1) if '"sources"' in text) + 1
    assert out.splitlines() == [
        "`report.txt`: its file has changed; 1 ref into it cites text that was edited: the document would be kept "
        "as it was",
        f'  s.json:{line}: /annotations/0/sources/0 (claim "outcome was positive"; `report.txt`, line 2): was '
        '"outcome of the trial was positive", now "outcome of the trial was unclear"',
        "s.json: 1 document would be kept as it was (refs cite text that changed); judge the changed refs, then run "
        "`sourcecheck sync s.json --accept`",
    ]
    assert open("s.json", encoding="utf-8").read() == before  # --check writes nothing
    assert sc(capsys, "sync", "s.json")[0] == 1 and open("s.json", encoding="utf-8").read() == before

    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    assert code == 0 and "re-anchored to line 2: judge its claim again (still supported)" in out
    after = json.loads(open("s.json", encoding="utf-8").read())
    assert after["documents"][1]["content"] == "Summary\nThe outcome of the trial was unclear.\nConfidence is high.\n"
    assert after["annotations"][0]["sources"][0]["end"] == {"line": 2, "str": "unclear"}
    assert sc(capsys, "sync", "s.json") == (0, "s.json: up to date: every document equals its file\n", "")
    assert sc(capsys, "s.json")[0] == 0


def test_sync_reads_paths_from_the_session_files_folder(capsys, in_tmp):
    os.mkdir("work")
    os.chdir("work")
    write("doc.txt", "one\n")
    sc(capsys, "new", "doc.txt", "-o", "s.json")
    sc(capsys, "add", "s.json", "--claim", "doc.txt", "one", "--supports", "doc.txt", "one")
    write("doc.txt", "zero\none\n")
    os.chdir(in_tmp)
    code, out, _ = sc(capsys, "sync", "work/s.json")
    assert code == 0 and "1 document updated" in out
    assert json.load(open("work/s.json"))["documents"][0]["content"] == "zero\none\n"


# --- dispatch --------------------------------------------------------------------------


def test_a_file_named_like_a_subcommand_is_still_checked_as_a_file(capsys):
    write("new", '{"documents": [], "annotations": []}')
    code, out, _ = sc(capsys, "new")
    assert code == 0 and out == "new: ok: 0 refs: 0 resolved, 0 failed; no findings\n"
    os.mkdir("show")  # a directory is not a file to check: the subcommand runs
    assert "no such file" in sc(capsys, "show", "s.json", "a")[2]


def test_help_names_the_subcommands_and_the_file_rule(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "sourcecheck new FILE..." in out and "sync SESSION [--check]" in out
    assert "unless a file of that name exists in the current folder" in out


def test_the_installed_command_runs_the_subcommands(capsys):
    session = make_session(capsys)
    result = subprocess.run(
        [sys.executable, "-m", "sourcecheck", "ref", session, "article.txt", "東京は日本"], capture_output=True
    )
    assert result.returncode == 0 and result.stderr == b""
    assert resolved(session, json.loads(result.stdout.decode("utf-8"))) == "東京は日本"
    missing = subprocess.run([sys.executable, "-m", "sourcecheck", "sync", "missing.json"], capture_output=True)
    assert missing.returncode == 2 and missing.stderr == b"sourcecheck: missing.json: no such file\n"


def test_ref_never_prints_a_ref_that_does_not_give_back_text(capsys, monkeypatch):
    session = make_session(capsys)
    from sourcecheck.cli import citing
    from sourcecheck.core.refs import Boundaries

    monkeypatch.setattr(citing, "cite", lambda document, start, end: Boundaries(document.path, 1, "The", 1, "report"))
    code, out, err = sc(capsys, "ref", session, "report.txt", "Summary")
    assert (code, out) == (1, "") and "does not resolve to it, so none is printed" in err

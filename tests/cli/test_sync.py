"""`sourcecheck sync`: refs carried across a change of their files (docs/rules.md, "`sync`")."""

import gc
import json
import os

import pytest

from sourcecheck.cli.main import main
from sourcecheck.core.analysis import Analysis


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    enabled = gc.isenabled()
    yield tmp_path
    if enabled:
        gc.enable()


def sc(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def write(path, text, newline="\n"):
    with open(path, "w", encoding="utf-8", newline=newline) as handle:
        handle.write(text)


def read(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return handle.read()


NOTES = "\n".join(
    [
        "# Notes on the flag",
        "",
        "The flag is optional for new projects.",
        "It was added in version 2.",
        "Older releases ignore it entirely.",
        "The default stays off until 3.0.",
        "",
        "See the changelog for details.",
    ]
)
ARTICLE = "The flag is optional.\nIt came in version 2 and stays off until 3.0.\n"


def session_with_refs(capsys):
    """A session citing three spans of notes.txt (lines 3, 4-5 and 6) and the article."""
    write("notes.txt", NOTES)
    write("article.md", ARTICLE)
    assert sc(capsys, "new", "article.md", "notes.txt", "-o", "s.json")[0] == 0

    def ref(path, text):
        code, out, err = sc(capsys, "ref", "s.json", path, text)
        assert code == 0, err
        return json.loads(out)

    data = json.loads(read("s.json"))
    for claim, sources in (
        ("The flag is optional", ["The flag is optional for new projects"]),
        ("version 2", ["added in version 2.\nOlder releases ignore it"]),
        ("stays off until 3.0", ["The default stays off until 3.0"]),
    ):
        data["annotations"].append(
            {
                "claim": ref("article.md", claim),
                "sources": [{**ref("notes.txt", s), "polarity": "supports", "confidence": 0.9} for s in sources],
            }
        )
    write("s.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    assert sc(capsys, "s.json")[0] == 0
    session = Analysis(read("s.json")).session
    return {session.ref_path(ref): ref.text for ref in session.refs}


def cited(name="s.json"):
    analysis = Analysis(read(name))
    assert analysis.exit_code == 0, [f.message for f in analysis.findings]
    return {analysis.session.ref_path(ref): ref.text for ref in analysis.session.refs}


def test_a_deleted_line_re_anchors_every_ref_below_it_to_the_same_text(capsys):
    texts = session_with_refs(capsys)
    write("notes.txt", NOTES.replace("# Notes on the flag\n", ""))  # `sed -i 1d`
    code, out, err = sc(capsys, "sync", "s.json", "--check")
    assert code == 1 and "`sourcecheck sync` would update it" in out
    assert "3 refs into it keep their text (3 would be re-anchored)" in out  # --check writes nothing: "would"
    assert "1 document would be updated" in out
    code, out, err = sc(capsys, "sync", "s.json")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        "`notes.txt`: its file has changed; 3 refs into it keep their text (3 re-anchored); its content is updated"
    )
    assert cited() == texts  # every ref cites what it cited, at its new place
    data = json.loads(read("s.json"))
    assert [s["start"]["line"] for a in data["annotations"] for s in a["sources"]] == [2, 3, 5]
    assert sc(capsys, "sync", "s.json", "--check") == (0, "s.json: up to date: every document equals its file\n", "")


def test_an_edited_cited_line_is_never_accepted_silently_and_the_state_lasts(capsys):
    session_with_refs(capsys)
    before = read("s.json")
    write("notes.txt", NOTES.replace("optional", "required").replace("# Notes", "# Some notes"))
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("`notes.txt`: its file has changed; 2 refs into it keep their text")
    assert lines[0].endswith(", 1 ref cites text that was edited: the document is kept as it was")
    assert '/annotations/0/sources/0 (claim "The flag is optional"; `notes.txt`, line 3): ' in lines[1]
    assert lines[1].endswith('was "The flag is optional for new projects", now "The flag is required for new projects"')
    assert read("s.json") == before  # the session still cites what its author reviewed
    assert sc(capsys, "sync", "s.json")[0] == 1  # and says so again: the state lasts
    assert sc(capsys, "sync", "s.json", "--check")[0] == 1

    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    assert code == 0 and "re-anchored to line 3: judge its claim again (still supported)" in out
    assert "The flag is required for new projects" in cited().values()
    assert sc(capsys, "sync", "s.json", "--check")[0] == 0


def test_a_deleted_source_is_removed_on_accept_and_named_with_its_claim_and_the_verdict_it_leaves(capsys):
    session_with_refs(capsys)
    write("notes.txt", NOTES.replace("The default stays off until 3.0.\n", ""))
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 1
    assert 'was "The default stays off until 3.0", now deleted (it stood between line 5' in out
    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    assert code == 1  # the claim is left without a source: a person cites another or removes it
    assert '/annotations/2/sources/0 (claim "stays off until 3.0"; `notes.txt`, line 6)' in out
    assert "source removed: its text is gone; the claim is left (supported -> unverified)" in out
    data = json.loads(read("s.json"))
    assert data["documents"][1]["content"] == NOTES.replace("The default stays off until 3.0.\n", "")
    assert data["annotations"][2]["sources"] == [] and data["annotations"][2]["claim"]["start"]["str"] == "stays"
    code, out, _ = sc(capsys, "s.json")
    assert code == 2 and "[empty-sources]" in out  # the check fails until a person decides
    assert sc(capsys, "sync", "s.json", "--check")[0] == 0  # every document equals its file


def test_a_missing_file_is_never_up_to_date(capsys):
    session_with_refs(capsys)
    os.remove("notes.txt")
    for mode in ([], ["--check"], ["--accept"]):
        code, out, _ = sc(capsys, "sync", "s.json", *mode)
        assert code == 1 and "`notes.txt`: no such file in the session's folder (" in out
        assert "up to date" not in out and "1 file not read" in out
        assert "3 refs into it not checked against it" in out  # the refs into it, listed
        assert '/annotations/1/sources/0 (claim "version 2"; `notes.txt`, lines 4-5): cites "added in' in out
    code, out, _ = sc(capsys, "sync", "s.json", "--json")
    notes = [json.loads(line) for line in out.splitlines()][1]
    assert (notes["state"], notes["action"]) == ("missing", "kept as it was")
    assert [(ref["pointer"], ref["state"]) for ref in notes["refs"]] == [
        ("/annotations/0/sources/0", "unread"),
        ("/annotations/1/sources/0", "unread"),
        ("/annotations/2/sources/0", "unread"),
    ]


def test_a_link_leaving_the_session_folder_is_refused_and_never_read(capsys, in_tmp):
    os.mkdir("work")
    write("secret", "TOKEN=hunter2\n")
    os.chdir("work")
    write("notes.txt", "harmless\n")
    sc(capsys, "new", "notes.txt", "-o", "s.json")
    sc(capsys, "add", "s.json", "--claim", "notes.txt", "harmless", "--supports", "notes.txt", "harmless")
    os.remove("notes.txt")
    os.symlink("../secret", "notes.txt")
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 1 and "`notes.txt`: is a link to " in out and "outside the session's folder" in out
    assert "hunter2" not in read("s.json")
    os.remove("notes.txt")
    os.symlink("/proc/self/environ", "notes.txt")
    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    assert code == 1 and "outside the session's folder" in out and "environ" in out
    assert json.loads(read("s.json"))["documents"][0]["content"] == "harmless\n"


def test_paths_outside_the_folder_and_devices_are_named_and_left(capsys):
    write(
        "s.json",
        json.dumps(
            {
                "documents": [
                    {"path": "../up.txt", "content": "y"},
                    {"path": "/etc/hostname", "content": "z"},
                    {"path": "dev", "content": "d"},
                ],
                "annotations": [
                    {
                        "claim": {"path": path, "start": {"line": 1, "str": c}, "end": {"line": 1, "str": c}},
                        "sources": [],
                    }
                    for path, c in (("../up.txt", "y"), ("/etc/hostname", "z"), ("dev", "d"))
                ],
            }
        ),
    )
    os.symlink("/dev/zero", "dev")
    before = read("s.json")
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 1 and read("s.json") == before
    assert "`../up.txt`: leads outside the session's folder" in out
    assert "`/etc/hostname`: is an absolute path" in out
    (dev,) = [line for line in out.splitlines() if line.startswith("`dev`")]
    assert "outside the session's folder" in dev  # /dev/zero, through the link


def test_a_session_saved_meanwhile_is_not_overwritten(capsys, monkeypatch):
    session_with_refs(capsys)
    write("notes.txt", "Inserted.\n" + NOTES)
    from sourcecheck.core import resync

    plan = resync.plan

    def plan_then_save(*args):
        found = plan(*args)
        write("s.json", read("s.json").replace('"annotations": [', '"annotations": [\n', 1))  # an editor saves
        return found

    monkeypatch.setattr(resync, "plan", plan_then_save)
    saved = None
    code, out, err = sc(capsys, "sync", "s.json")
    saved = read("s.json")
    assert code == 1 and "changed since it was read" in err and "nothing was written" in err
    assert '"annotations": [\n\n' in saved  # the editor's save is kept
    assert not [name for name in os.listdir() if name.endswith(".tmp")]


def test_a_symlinked_session_is_written_through_the_link(capsys, in_tmp):
    session_with_refs(capsys)
    os.rename("s.json", "real.json")
    os.symlink("real.json", "s.json")
    write("notes.txt", "Inserted.\n" + NOTES)
    assert sc(capsys, "sync", "s.json")[0] == 0
    assert os.path.islink("s.json") and os.readlink("s.json") == "real.json"
    assert json.loads(read("real.json"))["documents"][1]["content"].startswith("Inserted.\n")


def test_only_the_content_strings_and_the_coordinates_that_move_are_rewritten(capsys):
    write("a.txt", "zero\none\ntwo\n")
    write("b.txt", "b\n")
    original = (
        '{"session": {"documents": [{"path": "a.txt", "content": "one\\ntwo\\n"},\r\n'
        '  {"path": "b.txt",   "content": "\\u0062\\n"}]},\r\n'
        ' "annotations": [{"claim": {"path": "b.txt", "start": {"line": 1, "str": "b"}, "end": {"line": 1,'
        ' "str": "b"}},\r\n  "sources": [{"path": "a.txt", "start": {"line": 2, "str": "two"}, "end": {"line":'
        ' 2, "str": "two"}, "polarity": "supports", "confidence": 0.9}]}]}\r\n'
    )
    expected = (
        '{"session": {"documents": [{"path": "a.txt", "content": "zero\\none\\ntwo\\n"},\r\n'
        '  {"path": "b.txt",   "content": "\\u0062\\n"}]},\r\n'
        ' "annotations": [{"claim": {"path": "b.txt", "start": {"line": 1, "str": "b"}, "end": {"line": 1,'
        ' "str": "b"}},\r\n  "sources": [{"path": "a.txt", "start": {"line": 3, "str": "two"}, "end": {"line":'
        ' 3, "str": "two"}, "polarity": "supports", "confidence": 0.9}]}]}\r\n'
    )
    write("s.json", original, newline="")
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 0, out
    assert read("s.json") == expected


def test_a_copied_passage_is_not_taken_for_the_one_that_stayed(capsys):
    texts = session_with_refs(capsys)
    lines = NOTES.split("\n")
    copied = lines[:1] + [lines[5], "A new paragraph."] + lines[1:]  # line 6 copied to the top
    write("notes.txt", "\n".join(copied))
    assert sc(capsys, "sync", "s.json")[0] == 0
    assert cited() == texts
    source = json.loads(read("s.json"))["annotations"][2]["sources"][0]
    assert source["start"]["line"] == 8  # where it was (6), two lines down; not the copy on line 2


def test_sync_json_prints_one_object_per_document_with_each_ref_into_it(capsys):
    session_with_refs(capsys)
    write("notes.txt", "Inserted.\n" + NOTES.replace("optional", "required"))
    before = read("s.json")
    code, out, _ = sc(capsys, "sync", "s.json", "--json", "--check")
    documents = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and read("s.json") == before
    assert [(d["path"], d["state"], d["action"]) for d in documents] == [
        ("article.md", "same", "none"),
        ("notes.txt", "changed", "would keep as it was"),
    ]
    refs = {ref["pointer"]: ref for ref in documents[1]["refs"]}
    edited = refs["/annotations/0/sources/0"]
    assert (edited["state"], edited["claim"], edited["was"], edited["now"]) == (
        "edited",
        "The flag is optional",
        "The flag is optional for new projects",
        "The flag is required for new projects",
    )
    kept = refs["/annotations/2/sources/0"]
    assert (kept["state"], kept["was"], kept["now"]) == ("kept", "The default stays off until 3.0") * 1 + (
        "The default stays off until 3.0",
    )
    assert kept["ref"]["start"] == {"line": 7, "str": "The"}
    assert [ref["state"] for ref in documents[0]["refs"]] == ["kept", "kept", "kept"]  # the claims


def test_sync_of_a_session_that_is_not_json_is_exit_2(capsys):
    write("s.json", '{"documents": [')
    code, out, err = sc(capsys, "sync", "s.json")
    assert (code, out) == (2, "") and "not valid JSON" in err


# --- a writer's changes (issue 34): deleted, moved, extended ----------------------------------


def writer_session(capsys, notes, cites):
    """notes.txt and article.md, and a session whose claim i (the article's word i) cites
    ``cites[i]`` of notes.txt (each found once on its line)."""
    write("notes.txt", notes)
    article = " ".join(f"Claim{i}." for i in range(len(cites))) + "\n"
    write("article.md", article)
    assert sc(capsys, "new", "article.md", "notes.txt", "-o", "s.json")[0] == 0
    for i, text in enumerate(cites):
        code, _, err = sc(
            capsys, "add", "s.json", "--claim", "article.md", f"Claim{i}.", "--supports", "notes.txt", text,
            "--confidence", "0.9",
        )  # fmt: skip
        assert code == 0, err
    assert sc(capsys, "s.json")[0] == 0


def sources():
    return [a["sources"] for a in json.loads(read("s.json"))["annotations"]]


def test_a_sentence_deleted_from_the_middle_of_its_line_is_never_given_its_neighbours_text(capsys):
    line = 'The Console word-wraps text. As you might expect, this prints "Hello World!" to the terminal.'
    writer_session(capsys, f"# Console\n\n{line}\nEnd.\n", ["The Console word-wraps text."])
    write("notes.txt", f"# Console\n\n{line.replace('The Console word-wraps text. ', '')}\nEnd.\n")
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 1
    assert 'was "The Console word-wraps text.", now deleted (it stood in line 3 "As you might' in out
    assert "As you might" not in out.split("now deleted")[0]
    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    assert code == 1 and "source removed: its text is gone; the claim is left (supported -> unverified)" in out
    assert sources() == [[]]  # removed, never pointed at the next sentence
    code, out, _ = sc(capsys, "s.json")
    assert code == 2 and "[empty-sources]" in out  # the claim waits for a person


def test_a_passage_whose_lines_were_deleted_but_for_its_last_word_is_deleted_not_that_word(capsys):
    writer_session(capsys, "alpha beta gamma\ndelta epsilon.\nLast words here.\n", ["delta epsilon.\nLast"])
    write("notes.txt", "alpha beta gamma\nLast words here.\n")
    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    assert 'was "delta epsilon.\\nLast", now deleted' in out
    assert sources() == [[]]  # never a source citing just "Last"


def test_text_added_beside_a_cited_span_keeps_it_and_accept_never_widens_an_edited_one(capsys):
    notes = "Hello world.\n    requests.exceptions.Timeout: Request timed out.\nThe default is off.\n"
    writer_session(capsys, notes, ["Hello", "world.", "Request timed out.", "The default is off."])
    write(
        "notes.txt",
        "Hello world. Bye for now.\n"
        "    requests.exceptions.Timeout: HTTPConnectionPool(host='x', port=80): Request timed out. (timeout=0.001)\n"
        "The default is now on.\n",
    )
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 1 and "3 refs into it keep their text (1 re-anchored), 1 ref cites text that was edited" in out
    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    texts = list(cited().values())
    assert texts[1::2] == ["Hello", "world.", "Request timed out.", "The default is now on."]
    edited = sources()[3][0]
    assert edited["start"]["str"].strip() and edited["end"]["str"].strip()  # never spaces alone


def test_a_cited_paragraph_moved_down_is_followed_and_a_copy_is_never(capsys):
    filler = "".join(f"Filler line {i} of the notes.\n" for i in range(14))
    paragraph = "Rich works with Linux.\nRich renders tables.\n"
    writer_session(capsys, "Intro.\n" + paragraph + filler, ["Rich works with Linux.", "Rich renders tables."])
    write("notes.txt", "Intro.\n" + filler + paragraph)
    code, out, _ = sc(capsys, "sync", "s.json", "--json", "--check")
    notes = [json.loads(line) for line in out.splitlines()][1]
    assert [(ref["state"], ref["ref"]["start"]["line"]) for ref in notes["refs"]] == [("moved", 16), ("moved", 17)]
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 0 and "2 refs into it keep their text (2 moved)" in out
    assert list(cited().values())[1::2] == ["Rich works with Linux.", "Rich renders tables."]
    # cut from the end and pasted twice: which one is it? Not followed; the places are listed
    half = filler.index("Filler line 7")
    write("notes.txt", "Intro.\n" + paragraph + filler[:half] + paragraph + filler[half:])
    code, out, _ = sc(capsys, "sync", "s.json", "--json")
    assert code == 1
    (first, second) = [json.loads(line) for line in out.splitlines()][1]["refs"]
    assert first["state"] == "deleted" and [place["line"] for place in first["places"]] == [2, 11]
    assert first["places"][0]["ref"] == {
        "path": "notes.txt",
        "start": {"line": 2, "str": "Rich"},
        "end": {"line": 2, "str": "."},
    }


def test_sync_accept_takes_the_documents_named_and_reads_the_session_first_or_last(capsys):
    session_with_refs(capsys)
    write("notes.txt", NOTES.replace("optional", "required"))
    write("article.md", ARTICLE.replace("The flag is optional.", "The flag is now required."))
    code, out, err = sc(capsys, "sync", "s.json", "--accept", "nope.txt")
    assert code == 2 and "`nope.txt` is not a document of the session" in err
    code, out, _ = sc(capsys, "sync", "--accept", "s.json", "notes.txt")  # the session first, as people type it
    assert code == 1  # article.md is still kept as it was
    assert "`notes.txt`: its file has changed; 2 refs into it keep their text, 1 ref cites" in out
    assert "accepted: its content is updated" in out and "`article.md`: " in out
    data = json.loads(read("s.json"))
    assert data["documents"][1]["content"] == NOTES.replace("optional", "required")
    assert data["documents"][0]["content"] == ARTICLE  # not named: kept as it was


def test_an_annotation_whose_claim_was_deleted_is_removed_on_accept_and_named(capsys):
    session_with_refs(capsys)
    write("article.md", "It came in version 2 and stays off until 3.0.\n")  # "The flag is optional." deleted
    code, out, _ = sc(capsys, "sync", "s.json", "--accept")
    assert code == 0
    assert (
        '/annotations/0/claim (claim "The flag is optional"; `article.md`, line 1): was "The flag is optional", ' in out
    )
    assert "annotation removed: its claim's text was deleted (it was supported)" in out
    data = json.loads(read("s.json"))
    assert len(data["annotations"]) == 2 and data["annotations"][0]["claim"]["start"]["str"] != "The flag"
    assert sc(capsys, "s.json")[0] == 0 and sc(capsys, "sync", "s.json", "--check")[0] == 0


def test_a_strangers_session_never_copies_secrets_into_itself(capsys, in_tmp):
    """A session listing `.git/config` and `.env` with empty content: a hidden file is not read
    unless asked for, a document cited by nothing never, and the session never reads itself."""
    os.mkdir(".git")
    write(".git/config", "[remote]\n\ttoken = ghp_SECRET\n")
    write(".env", "API_KEY=sk-SECRET\n")
    write("notes.txt", "Notes.\n")
    claim = {"path": "notes.txt", "start": {"line": 1, "str": "Notes."}, "end": {"line": 1, "str": "Notes."}}
    hidden = {"path": ".env", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}}
    itself = {"path": "s.json", "start": {"line": 1, "str": "{"}, "end": {"line": 1, "str": "{"}}
    documents = [
        {"path": "notes.txt", "content": "Notes.\n"},
        {"path": ".git/config", "content": ""},
        {"path": ".env", "content": "x"},
        {"path": "s.json", "content": "{"},
    ]
    annotations = [
        {"claim": claim, "sources": [{**hidden, "polarity": "supports", "confidence": 0.9}]},
        {"claim": itself, "sources": []},
    ]
    write("s.json", json.dumps({"documents": documents, "annotations": annotations}))
    before = read("s.json")
    code, out, _ = sc(capsys, "sync", "s.json")
    assert code == 1 and read("s.json") == before
    assert "`.env`: is in a hidden folder or file (`.env`)" in out and "--read-hidden" in out
    assert "`s.json`: is the session file itself" in out
    assert "1 document that no ref cites is not read" in out  # .git/config
    assert "SECRET" not in read("s.json")
    code, out, _ = sc(capsys, "sync", "s.json", "--read-hidden", "--accept")  # asked for: read
    assert "sk-SECRET" in read("s.json") and "ghp_SECRET" not in read("s.json")  # still cited by nothing


@pytest.mark.parametrize("when", ["realpath", "open"])
def test_a_folder_swapped_for_a_link_between_two_steps_leads_nowhere_else(in_tmp, when):
    """A folder on the way to a document's file swapped for a link to the outside right after a
    step looked at it (realpath then open read the outside file 7,914 times in 110,000): the
    file is opened one name at a time, each relative to the folder opened before it, never
    following a link by itself, so the swap leads nowhere else."""
    from sourcecheck import disk

    os.makedirs("work/sub")
    os.makedirs("outside")
    write("work/sub/notes.txt", "inside\n")
    write("outside/notes.txt", "SECRET\n")
    real_open, real_realpath = os.open, os.path.realpath
    swapped: list[str] = []

    def swap() -> None:
        if not swapped:
            os.rename("work/sub", "work/was-sub")
            os.symlink(os.path.abspath("outside"), "work/sub")
            swapped.append(when)

    def realpath_then_swap(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        found = real_realpath(name, *args, **kwargs)
        if when == "realpath":
            swap()
        return found

    def open_then_swap(name, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        fd = real_open(name, flags, *args, **kwargs)
        if when == "open" and name == "sub":
            swap()
        return fd

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(disk.os.path, "realpath", realpath_then_swap)
        patch.setattr(disk.os, "open", open_then_swap)
        state = disk.document_file("work", "sub/notes.txt")
    assert swapped == [when]
    assert state == disk.FileContent("inside\n") or (
        isinstance(state, disk.Unreadable) and "outside the session's folder" in state.reason
    ), state


def test_a_hard_link_to_a_file_outside_is_refused(in_tmp):
    from sourcecheck import disk

    os.mkdir("work")
    write("secret.txt", "SECRET\n")
    os.link("secret.txt", "work/notes.txt")
    state = disk.document_file("work", "notes.txt")
    assert isinstance(state, disk.Unreadable) and "another hard link" in state.reason

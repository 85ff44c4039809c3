"""``sourcecheck import`` and ``export`` end to end (cli/importing.py): what is written, what
is said, the exit codes, the outputs never written over unasked, the round trip on files."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.interchange.support import DATA

from .test_authoring import in_tmp, resolved, sc, write  # noqa: F401  (in_tmp: the autouse fixture)

PRISM = DATA / "anthropic" / "prism-generate-text-with-text-document-citations-1"


def copy(source: Path, name: str) -> str:
    shutil.copy(source, name)
    return name


def session_of(name: str) -> dict:
    return json.load(open(name, encoding="utf-8"))


def test_import_writes_a_checked_session_and_says_each_citation(capsys):
    response = copy(PRISM.with_suffix(".response.json"), "response.json")
    request = copy(PRISM.with_suffix(".request.json"), "request.json")
    code, out, err = sc(capsys, "import", "anthropic", response, "--request", request, "-o", "s.json")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "s.json: wrote 2 documents, 2 annotations with 2 sources (from an Anthropic response)"
    assert lines[1] == (
        '  content/1/citations/0: claim "The grass is green" <- "The grass is green. " '
        "(All-aboout-the-grass-and-the-sky.txt:1, /annotations/0/sources/0)"
    )
    assert lines[-1] == "s.json: 2 citations placed; the session checks clean (`sourcecheck s.json`)"
    assert any(line.startswith("note: 2 of the sources have the placeholder confidence 0.7") for line in lines)
    session = session_of("s.json")
    claims = [resolved("s.json", a["claim"]) for a in session["annotations"]]
    assert claims == ["The grass is green", "the sky is blue"]
    assert sc(capsys, "s.json")[0] == 0


def test_a_citation_that_cannot_be_placed_is_exit_1_and_named(capsys):
    response = copy(PRISM.with_suffix(".response.json"), "response.json")
    code, out, _ = sc(capsys, "import", "anthropic", response, "-o", "s.json")
    assert code == 1
    assert 'error: content/1/citations/0: cannot be placed (claim "The grass is green"): document 0' in out
    assert out.splitlines()[-1].startswith("s.json: 0 citations placed, 2 could not be placed (listed above)")
    assert [d["path"] for d in session_of("s.json")["documents"]] == ["answer.md"]  # the answer, to cite by hand


def test_wrong_offsets_are_a_warning_and_exit_0(capsys):
    response = copy(DATA / "gemini" / "pydantic-vertex-weather.response.json", "r.json")
    payload = json.load(open(r"r.json"))
    for chunk in payload["candidates"][0]["groundingMetadata"]["groundingChunks"]:
        write(chunk["web"]["title"], f"Weather today, from {chunk['web']['title']}.\n")
    pages = [
        arg
        for chunk in payload["candidates"][0]["groundingMetadata"]["groundingChunks"]
        for arg in ("--document", chunk["web"]["title"])
    ]
    code, out, _ = sc(capsys, "import", "gemini", response, *pages, "-o", "s.json")
    assert code == 0
    warnings = [line for line in out.splitlines() if line.startswith("warning: ")]
    assert len(warnings) == 5 and all("the claim: its offsets" in w and "placed by its text" in w for w in warnings)
    assert "5 spans placed by their text, not offsets" in out.splitlines()[-1]


def test_json_output_for_scripts(capsys):
    response = copy(DATA / "cohere" / "vercel-citations.response.json", "r.json")
    code, out, _ = sc(capsys, "import", "cohere", response, "-o", "s.json", "--json")
    report = json.loads(out)
    assert code == 0 and report["exit_code"] == 0 and report["output"] == "s.json"
    assert [p["text"] for p in report["placed"]] == [
        "AI provides: 1. Automation of tasks 2. Better decision-making 3. Cost reduction"
    ] * 3
    assert report["left_out"] == [] and report["mismatched"] == []


def test_the_output_is_never_written_over_unasked(capsys):
    response = copy(DATA / "cohere" / "vercel-citations.response.json", "r.json")
    write("s.json", "mine\n")
    code, _, err = sc(capsys, "import", "cohere", response, "-o", "s.json")
    assert code == 2 and "already exists; add --force" in err and open("s.json").read() == "mine\n"
    code, _, err = sc(capsys, "import", "cohere", response, "-o", response, "--force")
    assert code == 2 and "is the response" in err
    assert sc(capsys, "import", "cohere", response, "-o", "s.json", "--force")[0] == 0
    assert session_of("s.json")["annotations"]


def test_unreadable_responses_are_exit_2_with_a_reason(capsys):
    write("r.txt", "not a response at all\n")
    code, out, err = sc(capsys, "import", "anthropic", "r.txt", "-o", "s.json")
    assert (code, out) == (2, "") and err.startswith(
        "sourcecheck: r.txt: line 1 is neither JSON nor a server-sent event"
    )
    write("r.json", '{"id": "x"}')
    code, _, err = sc(capsys, "import", "anthropic", "r.json", "-o", "s.json")
    assert code == 2 and "not a Messages API response" in err
    code, _, err = sc(capsys, "import", "anthropic", "missing.json", "-o", "s.json")
    assert code == 2 and "missing.json: no such file" in err
    write("q.json", "{broken")
    code, _, err = sc(capsys, "import", "anthropic", "r.json", "--request", "q.json", "-o", "s.json")
    assert code == 2 and "q.json:1:2: the request is not JSON" in err
    assert not Path("s.json").exists()


def test_a_stream_from_standard_input(tmp_path):
    stream = (DATA / "anthropic" / "prism-stream-with-citations-1.response.sse").read_bytes()
    request = DATA / "anthropic" / "prism-stream-with-citations-1.request.json"
    done = subprocess.run(
        [sys.executable, "-m", "sourcecheck", "import", "anthropic", "-", "--request", str(request), "-o", "s.json"],
        input=stream,
        capture_output=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.load(open(tmp_path / "s.json"))["annotations"][0]["sources"][0]["end"] == {"line": 1, "str": ". "}


def test_export_and_import_back_on_files(capsys):
    response = copy(PRISM.with_suffix(".response.json"), "response.json")
    request = copy(PRISM.with_suffix(".request.json"), "request.json")
    sc(capsys, "import", "anthropic", response, "--request", request, "-o", "s.json")
    code, out, err = sc(capsys, "export", "w3c", "s.json")
    assert code == 0 and err == ""
    exported = json.loads(out)
    assert exported["type"] == "AnnotationCollection" and exported["total"] == 2
    assert exported["first"]["items"][0]["target"]["source"] == Path("answer.md").resolve().as_uri()
    code, _, err = sc(capsys, "export", "w3c", "s.json", "-o", "s.w3c.json")
    assert code == 0 and "wrote s.w3c.json: 2 Web Annotations" in err
    assert sc(capsys, "export", "w3c", "s.json", "-o", "s.w3c.json")[0] == 2  # exists: --force
    for document in session_of("s.json")["documents"]:
        write(document["path"], document["content"])
    documents = [arg for d in session_of("s.json")["documents"] for arg in ("--document", d["path"])]
    code, out, _ = sc(capsys, "import", "w3c", "s.w3c.json", *documents, "-o", "back.json")
    assert code == 0, out
    assert session_of("back.json") == session_of("s.json")


def test_export_refuses_a_session_that_does_not_check_clean(capsys):
    shutil.copy(Path(__file__).resolve().parents[2] / "fixtures" / "broken" / "bad-polarity.sourcecheck.json", "b.json")
    code, out, err = sc(capsys, "export", "w3c", "b.json", "-o", "out.json")
    assert (code, out) == (1, "") and "does not check clean, so it is not exported" in err and "bad-polarity" in err
    assert not Path("out.json").exists()


def test_help_names_every_format(capsys):
    try:
        sc(capsys, "import", "--help")
    except SystemExit:
        pass
    out = capsys.readouterr().out
    assert all(name in out for name in ("anthropic:", "gemini:", "cohere:", "w3c:"))

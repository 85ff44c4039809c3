"""``sourcecheck.import_citations`` and ``export_w3c``: what they take, what they give."""

from __future__ import annotations

import json
import pathlib

import pytest

import sourcecheck
from tests.interchange.support import DATA

RESPONSE = DATA / "anthropic" / "prism-generate-text-with-text-document-citations-1.response.json"
REQUEST = DATA / "anthropic" / "prism-generate-text-with-text-document-citations-1.request.json"


@pytest.mark.parametrize(
    "response, request_",
    [
        (RESPONSE, REQUEST),  # paths
        (RESPONSE.read_text(), REQUEST.read_text()),  # JSON text
        (RESPONSE.read_bytes(), REQUEST.read_bytes()),  # bytes
        (json.loads(RESPONSE.read_text()), json.loads(REQUEST.read_text())),  # parsed
    ],
)
def test_every_kind_of_input_gives_the_same_session(response, request_):
    imported = sourcecheck.import_citations("anthropic", response, request=request_)
    session, report = imported  # a named tuple
    assert imported.session is session and imported.report is report
    assert isinstance(report, sourcecheck.ImportReport)
    assert report.exit_code == 0 and len(report.placed) == 2 and report.findings == ()
    assert sourcecheck.check(session).exit_code == 0
    assert report.to_json()["placed"][0]["text"] == "The grass is green. "


def test_documents_as_files_or_texts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("grass.txt").write_text("The grass is green. The sky is blue.", encoding="utf-8")
    text = {"grass.txt": "The grass is green. The sky is blue."}
    response = json.loads(RESPONSE.read_text())
    for citation in (c for block in response["content"] for c in block.get("citations", [])):
        citation["document_title"] = "grass"
    for documents in (text, [pathlib.Path("grass.txt")]):
        session, report = sourcecheck.import_citations("anthropic", response, documents=documents)
        assert {p.path for p in report.placed} == {"grass.txt"}, report.left_out


def test_export_gives_a_collection_with_documents_under_base():
    session, _ = sourcecheck.import_citations("anthropic", RESPONSE, request=REQUEST)
    exported = sourcecheck.export_w3c(session, base="https://example.org/notes", name="grass.json")
    assert exported["id"] == "https://example.org/notes/grass.json"
    assert (
        exported["first"]["items"][0]["body"]["source"]
        == "https://example.org/notes/All-aboout-the-grass-and-the-sky.txt"
    )
    assert sourcecheck.export_w3c(json.dumps(session), base="https://example.org/notes", name="grass.json") == exported


def test_what_is_refused():
    with pytest.raises(ValueError, match="format is one of anthropic, gemini, cohere, w3c"):
        sourcecheck.import_citations("openai", "{}")
    with pytest.raises(ValueError, match="is not a Gemini response"):
        sourcecheck.import_citations("gemini", {"id": 1})
    with pytest.raises(TypeError, match="not int"):
        sourcecheck.import_citations("gemini", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no such file"):
        sourcecheck.import_citations("gemini", pathlib.Path("/nonexistent/response.json"))

"""``export w3c`` as the W3C's conformance tests see it, and ``import w3c`` reading it back.

The conformance schemas are those of the Web Annotation Data Model's tests
(tests/interchange/conformance/README.md says where they are from): the MUST tests of an
annotation (its bodies, targets and specific resources), of a collection and of a page,
each assertion a JSON Schema (draft 4) checked with jsonschema, ``format: uri`` by RFC 3986.
Every annotation of an export, every export's collection and its embedded page pass them;
reading an export back gives the same refs (hypothesis: any spans of any documents)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft4Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

import sourcecheck
from sourcecheck.core.refs import Boundaries, cite
from sourcecheck.core.session import Document
from sourcecheck.interchange.w3c import Unexportable
from tests.cli.test_sarif_validation import is_uri
from tests.interchange.support import DATA, refs, request_of

CONFORMANCE = Path(__file__).with_name("conformance")
ROOT = Path(__file__).resolve().parents[2]
BASE = "file:///work/sessions/"


@cache
def registry() -> Registry:
    resources = []
    for path in sorted((CONFORMANCE / "definitions").glob("*.json")):
        resources.append((path.name, Resource.from_contents(json.loads(path.read_text()), DRAFT4)))
    return Registry().with_resources(resources)


def checker() -> FormatChecker:
    formats = FormatChecker()
    formats.checks("uri")(is_uri)
    return formats


def assertions(test: str) -> list[tuple[str, dict[str, Any]]]:
    listed = json.loads((CONFORMANCE / test).read_text())["assertions"]
    return [(name, json.loads((CONFORMANCE / name).read_text())) for name in listed]


def failures(test: str, instance: Any) -> list[str]:
    """The assertions of a conformance test that ``instance`` does not meet, with why."""
    failed = []
    for name, schema in assertions(test):
        validator = Draft4Validator(schema, registry=registry(), format_checker=checker())
        errors = list(validator.iter_errors(instance))
        valid = not errors
        if valid != (schema.get("expectedResult", "valid") == "valid"):
            failed.append(f"{name}: {schema.get('errorMessage')} {[e.message[:200] for e in errors[:2]]}")
    return failed


def assert_conforms(exported: dict[str, Any]) -> None:
    assert failures("collections/collectionMusts.test", exported) == []
    assert failures("collections/pages/pageMusts.test", exported) == []  # an embedded page
    for item in exported["first"]["items"]:
        annotation = {"@context": exported["@context"], **item}  # the collection's context, as JSON-LD nests it
        assert failures("annotations/annotationMusts.test", annotation) == [], item["id"]


def test_the_conformance_tests_can_fail() -> None:
    """Not every value passes: a highlight with no @context, an id that is no URI."""
    bad = {
        "type": "Annotation",
        "id": "not a uri",
        "target": {"source": "x y", "selector": {"type": "TextQuoteSelector"}},
    }
    failed = failures("annotations/annotationMusts.test", bad)
    assert any("3.1-annotationContextValidated" in f for f in failed)
    assert any("3.1-annotationIdValidated" in f for f in failed)
    assert any("textQuoteSelector" in f for f in failed)


def fixture_sessions() -> list[tuple[str, dict[str, Any]]]:
    found = [(p.name, json.loads(p.read_text())) for p in sorted((ROOT / "fixtures").glob("*.sourcecheck.json"))]
    for fmt, name in (("anthropic", "cookbook-loyalty.response.json"), ("cohere", "vercel-citations.response.json")):
        text = (DATA / fmt / name).read_text()
        found.append((name, sourcecheck.import_citations(fmt, text, request=request_of(f"{fmt}/{name}")).session))
    return found


def documents_of(session: dict[str, Any]) -> dict[str, str]:
    documents = session.get("documents") or session["session"]["documents"]
    return {document["path"]: document["content"] for document in documents}


def spans(session: dict[str, Any]) -> list[tuple[str, str | None]]:
    """Each ref's pointer and the text it cites."""
    return sorted(refs(session).items())


@pytest.mark.parametrize("name, session", fixture_sessions(), ids=[name for name, _ in fixture_sessions()])
def test_export_conforms_and_reads_back_to_the_same_refs(name: str, session: dict[str, Any]) -> None:
    exported = sourcecheck.export_w3c(session, base=BASE, name=name)
    assert_conforms(exported)
    documents = documents_of(session)
    back = sourcecheck.import_citations("w3c", exported, documents=documents)
    assert back.report.exit_code == 0 and not back.report.mismatched, back.report.left_out
    assert spans(back.session) == spans(session)
    originals = [(s["polarity"], s["confidence"]) for a in session["annotations"] for s in a["sources"]]
    assert [(s["polarity"], s["confidence"]) for a in back.session["annotations"] for s in a["sources"]] == originals


def test_exported_selectors_hold_the_exact_text_and_its_place() -> None:
    session = json.loads((ROOT / "fixtures" / "orbit-article.sourcecheck.json").read_text())
    exported = sourcecheck.export_w3c(session, base=BASE, name="orbit.json")
    documents = documents_of(session)
    for item in exported["first"]["items"]:
        for side in ("target", "body"):
            quote, position = item[side]["selector"]
            text = documents[unquote(item[side]["source"].removeprefix(BASE))]
            assert text[position["start"] : position["end"]] == quote["exact"]
            assert text[: position["start"]].endswith(quote["prefix"]) and text[position["end"] :].startswith(
                quote["suffix"]
            )
    assert exported["total"] == sum(len(a["sources"]) for a in session["annotations"])


def test_a_session_that_does_not_check_clean_is_not_exported() -> None:
    session = json.loads((ROOT / "fixtures" / "broken" / "bad-polarity.sourcecheck.json").read_text())
    with pytest.raises(Unexportable) as refused:
        sourcecheck.export_w3c(session)
    assert any("bad-polarity" in problem for problem in refused.value.problems)


# --- any spans of any documents -------------------------------------------------------------

WORDS = st.sampled_from(
    ["café", "東京", "🚆", "Zoë", "naïve", "the", "train", "at", "05:12", "—", "“quoted”", "a", "b"]
)
LINE = st.lists(WORDS, min_size=1, max_size=8).map(" ".join)
TEXT = st.lists(LINE, min_size=1, max_size=4).map("\n".join)


@st.composite
def sessions(draw: st.DrawFn) -> dict[str, Any]:
    contents = {f"doc-{i}.md": draw(TEXT) for i in range(draw(st.integers(2, 3)))}
    documents = {path: Document(path, content, ()) for path, content in contents.items()}

    def ref(path: str) -> dict[str, Any] | None:
        content = contents[path]
        start = draw(st.integers(0, len(content) - 1))
        end = draw(st.integers(start + 1, len(content)))
        made = cite(documents[path], start, end)
        return made.as_json() if isinstance(made, Boundaries) else None

    annotations = []
    paths = sorted(contents)
    for _ in range(draw(st.integers(1, 3))):
        claim = ref(paths[0])
        sources = [ref(draw(st.sampled_from(paths[1:]))) for _ in range(draw(st.integers(1, 3)))]
        sources = [s for s in sources if s is not None]
        if claim is None or not sources:
            continue
        polarity = st.sampled_from(["supports", "refutes"])
        confidence = st.sampled_from([0.1, 0.35, 0.7, 0.95, 1])
        distinct = {json.dumps(s, sort_keys=True): s for s in sources}.values()
        annotations.append(
            {
                "claim": claim,
                "sources": [{**s, "polarity": draw(polarity), "confidence": draw(confidence)} for s in distinct],
            }
        )
    return {"documents": [{"path": p, "content": c} for p, c in contents.items()], "annotations": annotations}


@given(sessions())
def test_any_session_round_trips(session: dict[str, Any]) -> None:
    exported = sourcecheck.export_w3c(session, base=BASE, name="s.json")
    back = sourcecheck.import_citations("w3c", exported, documents=documents_of(session))
    assert not back.report.left_out and not back.report.mismatched
    assert back.session["annotations"] == session["annotations"]  # the same refs, made alike


@given(sessions())
def test_any_export_conforms(session: dict[str, Any]) -> None:
    assert_conforms(sourcecheck.export_w3c(session, base=BASE, name="s.json"))


# --- reading what annotation tools write ---------------------------------------------------------


def hypothesis_like(body: Any = None) -> dict[str, Any]:
    """An annotation as Hypothesis exports one: a target with both selectors; a note's body is text."""
    annotation: dict[str, Any] = {
        "@context": "http://www.w3.org/ns/anno.jsonld",
        "id": "https://hypothes.is/a/abc",
        "type": "Annotation",
        "target": {
            "source": "https://example.org/notes/release-notes.md",
            "selector": [
                {"type": "TextQuoteSelector", "exact": "cold start", "prefix": "the ", "suffix": " p50"},
                {"type": "TextPositionSelector", "start": 4, "end": 14},
            ],
        },
    }
    if body is not None:
        annotation["body"] = body
    return annotation


def test_a_highlight_and_a_note_have_no_claim_source_pair() -> None:
    documents = {"release-notes.md": "the cold start p50 drops"}
    values = [hypothesis_like(), hypothesis_like({"type": "TextualBody", "value": "Nice", "purpose": "commenting"})]
    session, report = sourcecheck.import_citations("w3c", values, documents=documents)
    assert report.exit_code == 1 and session["annotations"] == []
    assert [left.text for left in report.left_out] == ["cold start", "cold start"]
    assert all("no claim-source pair" in left.reason for left in report.left_out)


def test_a_span_body_of_a_document_named_by_its_file_name_is_a_source() -> None:
    documents = {"release-notes.md": "the cold start p50 drops", "article.md": "It starts cold, fast."}
    body = {"source": "file:///elsewhere/article.md", "selector": {"type": "TextQuoteSelector", "exact": "starts cold"}}
    session, report = sourcecheck.import_citations("w3c", hypothesis_like(body), documents=documents)
    assert report.exit_code == 0
    assert refs(session) == {"/annotations/0/claim": "cold start", "/annotations/0/sources/0": "starts cold"}
    assert session["annotations"][0]["sources"][0]["polarity"] == "supports"
    assert any("placeholder" in note for note in report.notes)


def test_an_annotation_whose_document_is_not_given_is_named() -> None:
    body = {"source": "https://example.org/other.txt", "selector": {"type": "TextQuoteSelector", "exact": "x"}}
    _, report = sourcecheck.import_citations(
        "w3c", hypothesis_like(body), documents={"release-notes.md": "the cold start p50"}
    )
    assert report.exit_code == 1 and "--document" in report.left_out[0].reason

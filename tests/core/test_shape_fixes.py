"""The safe fixes docs/rules.md names for paths, CRLF content and the session's shape, exactly: a
path but for case or a missing or added extension (never another extension), a boundary that
ends in the ``\\r`` of a CRLF line repaired with its content, a session wrapped in a response's
key moved out whole, and one fix for one mistake (two findings never carry the same move)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.edits import apply
from sourcecheck.core.fixes import fix_of, fixed
from tests.support.helpers import claim, session, source

TEXT = "Alpha beta gamma.\n"


def with_source_path(written: str, document: str) -> str:
    documents = [{"path": document, "content": TEXT}, {"path": "claim.md", "content": TEXT}]
    annotation = {
        "claim": claim("claim.md", (1, "Alpha"), (1, "beta")),
        "sources": [source(written, (1, "Alpha"), (1, "beta"))],
    }
    return json.dumps(session([annotation], documents), indent=2)


def path_fix(text: str) -> tuple[str, str] | None:
    analysis = Analysis(text)
    (finding,) = [f for f in analysis.findings if f.code == "unknown-path"]
    fix, suggestions = fix_of(analysis, finding)
    assert not suggestions
    return (fix.applicability, fix.title) if fix else None


@pytest.mark.parametrize(
    "written, document",
    [("notes", "notes.md"), ("notes.md.md", "notes.md"), ("NOTES.MD", "notes.md"), ("Law", "law.1")],
)
def test_a_path_but_for_case_or_a_missing_or_added_extension_is_fixed_safely(written, document):
    assert path_fix(with_source_path(written, document)) == ("safe", f'Change path to "{document}": cites "Alpha beta"')


@pytest.mark.parametrize(
    "written, document", [("law.2", "law.1"), ("spec-v1.1", "spec-v1.0"), ("notes.txt", "notes.md")]
)
def test_a_path_with_another_extension_or_suffix_is_only_a_guess(written, document):
    text = with_source_path(written, document)
    assert path_fix(text) == ("unsafe", f'Change path to "{document}": cites "Alpha beta"')
    (message,) = [f.message for f in Analysis(text).findings]
    assert "write" not in message  # the message does not say it was meant either
    assert fixed(text).text == text


def test_crlf_content_is_normalized_with_the_boundaries_that_end_in_its_cr():
    documents = [{"path": "a.md", "content": "Alpha beta\r\ngamma delta.\r\n"}, {"path": "claim.md", "content": TEXT}]
    annotation = {
        "claim": claim("claim.md", (1, "Alpha"), (1, "beta")),
        "sources": [source("a.md", (1, "Alpha"), (1, "beta\r"))],
    }
    text = json.dumps(session([annotation], documents), indent=2)
    before = Analysis(text).session.refs[1].text
    analysis = Analysis(text)
    (finding,) = analysis.findings
    fix, _ = fix_of(analysis, finding)
    assert fix is not None and fix.safe
    assert fix.title == "Normalize CRLF line breaks to \\n, and the 1 boundary string ending in \\r without it"
    after = Analysis(fixed(text).text)
    assert after.findings == [] and after.session.refs[1].text == before.replace("\r", "") == "Alpha beta"


ANNOTATION: dict[str, Any] = {"claim": claim("claim.md", (1, "Alpha"), (1, "gamma.")), "sources": []}
DOCUMENTS = [{"path": "claim.md", "content": TEXT}]


@pytest.mark.parametrize("indent", [None, 2])
@pytest.mark.parametrize(
    "inner",
    [
        {"documents": DOCUMENTS, "annotations": [ANNOTATION]},
        {"session": {"documents": DOCUMENTS}, "annotations": [ANNOTATION]},
    ],
)
def test_a_session_wrapped_in_a_response_key_is_moved_out_whole(inner, indent):
    text = json.dumps({"result": inner}, indent=indent)
    analysis = Analysis(text)
    (wrapper,) = [f for f in analysis.findings if f.path == ("result",)]
    assert "the session is written inside it" in wrapper.message and "remove it" not in wrapper.message
    fix, _ = fix_of(analysis, wrapper)
    assert (
        fix is not None
        and fix.safe
        and fix.title == 'Move the session out of "result" (the wrapper removed, nothing else)'
    )
    repaired = fixed(text).text
    assert json.loads(repaired) == inner  # nothing dropped, nothing repeated
    assert [f.code for f in Analysis(repaired).findings] == ["empty-sources"]


def test_a_wrapper_beside_other_keys_is_not_taken_for_a_session_s():
    text = json.dumps({"result": {"documents": DOCUMENTS, "annotations": []}, "id": 3})
    analysis = Analysis(text)
    assert all(fix_of(analysis, f) == (None, []) for f in analysis.findings if f.path == ("result",))


@pytest.mark.parametrize("top", [None, [], [ANNOTATION]])
def test_annotations_inside_session_are_moved_by_one_fix_that_applied_with_every_other_keeps_the_json(top):
    value: dict[str, Any] = {"session": {"documents": DOCUMENTS, "annotations": [ANNOTATION]}}
    if top is not None:
        value["annotations"] = top
    text = json.dumps(value, indent=2)
    analysis = Analysis(text)
    shape = [f for f in analysis.findings if f.code != "empty-sources"]  # the top-level one's own
    carried = [fix for f in shape if (fix := fix_of(analysis, f)[0]) is not None]
    assert [fix.title for fix in carried] == ["Move the 1 annotation written inside `session` to the top level"]
    edits = [edit for fix in carried for edit in fix.edits]  # as an agent applies --json's fixes: all of them
    moved = json.loads(apply(text, edits))
    assert moved["annotations"] == (top or []) + [ANNOTATION] and "annotations" not in moved["session"]


def test_a_source_path_like_no_document_is_guessed_to_be_the_session_s_only_other_one():
    text = with_source_path("https://example.com/report", "report.txt")
    assert path_fix(text) == ("unsafe", 'Change path to "report.txt": cites "Alpha beta"')
    assert fixed(text).text == text  # a guess: only with --unsafe-fixes
    documents = [{"path": name, "content": TEXT} for name in ("claim.md", "one.txt", "two.txt")]
    annotation = {
        "claim": claim("claim.md", (1, "Alpha"), (1, "beta")),
        "sources": [source("x", (1, "Alpha"), (1, "beta"))],
    }
    assert path_fix(json.dumps(session([annotation], documents))) is None  # two others: which one?

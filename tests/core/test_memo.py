"""The check as pure functions and the memo layer around them (core/memo.py).

``check_document`` and ``check_annotation`` are functions of a value (and, for an annotation,
of the session's documents): what they give is what the whole check gives for that value. The
memo layer answers a value met again from the previous check while what it depended on holds,
asks the rules for any other, and changes nothing the previous check's readers still read.
"""

from __future__ import annotations

import copy
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from sourcecheck.core.fastpaths import ALL, NONE
from sourcecheck.core.rules import AnnotationRules, check, check_annotation, check_document
from tests.support.helpers import ARTICLE, REPORT, claim, session, source


def findings_of(findings):
    return [(f.code, f.path, f.message) for f in findings]


def refs_of(session):
    return [(session.ref_path(r), r.doc_path, r.span, r.valid) for r in session.refs]


SESSION = session(
    [
        {"claim": claim(), "sources": [source()]},  # clean
        {"claim": claim(), "sources": [source(polarity="Supports"), source("nowhere")]},  # two findings
        {"claim": claim(), "sources": [source(), source()]},  # a repeated source
        "not an annotation",
        {"claim": claim("report"), "sources": [source()]},  # a self-citation
    ],
    documents=[
        {"path": "article", "content": ARTICLE},
        {"path": "report", "content": REPORT},
        {"path": "article", "content": "a second article"},  # a duplicate path: refs resolve in the first
    ],
)


def by_path_of(value):
    by_path = {}
    for index, item in enumerate(value["documents"]):
        document, _ = check_document(item, ("documents", index))
        if document is not None:
            by_path.setdefault(document.path, document)
    return by_path


def test_check_annotation_gives_what_the_whole_check_gives_for_that_annotation():
    whole, findings, _ = check(SESSION)
    by_path = by_path_of(SESSION)
    for fast in (ALL, NONE):
        refs, found = [], []
        for index, value in enumerate(SESSION["annotations"]):
            result = check_annotation(value, ("annotations", index), by_path, fast)
            refs += [(("annotations", index, *r.tail), r.doc_path, r.span, r.valid) for r in result.refs]
            found += result.findings
            if isinstance(value, dict):
                assert result.annotation is not None
                assert all(r.annotation is result.annotation for r in result.refs)
            else:
                assert result.annotation is None
        annotation_findings = [f for f in findings if f.path[:1] == ("annotations",)]
        assert findings_of(found) == findings_of(annotation_findings)
        assert refs == refs_of(whole)


def test_check_document_is_a_function_of_its_value():
    value = {"path": "a", "content": "one\r\ntwo", "extra": 1}
    document, findings = check_document(value, ("documents", 0))
    again, found_again = check_document(copy.deepcopy(value), ("documents", 0))
    assert document is not None and again is not None
    assert (document.path, document.content, document.carriage_return) == ("a", "one\r\ntwo", True)
    assert findings_of(findings) == findings_of(found_again)
    assert [f.code for f in findings] == ["unknown-field", "non-lf-content"]
    assert check_document("a string", ("documents", 1))[0] is None


def test_a_known_document_is_taken_and_moved_with_its_line_table():
    """The previous check's document of the same path and very content keeps its line table
    (a megabyte is split into lines once), as a new object when it moved."""
    value = {"path": "a", "content": "one\ntwo"}
    known, _ = check_document(value, ("documents", 0))
    assert known is not None
    lines = known.lines  # split once
    same, _ = check_document(value, ("documents", 0), lambda path, content: known)
    moved, _ = check_document(value, ("documents", 3), lambda path, content: known)
    assert same is known
    assert moved is not known and moved is not None
    assert moved.json_path == ("documents", 3) and moved.lines is lines


def counting_rules():
    """Patches counting the annotations the rules are asked to check (careful and in one go)."""
    asked: list[tuple] = []
    careful, one_go = AnnotationRules.annotation, AnnotationRules.clean_annotation

    def annotation(self, value, path, kept=None):
        asked.append(path)
        return careful(self, value, path, kept)

    def clean_annotation(self, value, path):
        asked.append(path)
        return one_go(self, value, path)

    patches = (
        mock.patch.object(AnnotationRules, "annotation", annotation),
        mock.patch.object(AnnotationRules, "clean_annotation", clean_annotation),
    )
    return asked, patches


def test_the_memo_answers_unchanged_annotations_and_asks_the_rules_for_the_others():
    value = copy.deepcopy(SESSION)
    first_session, first_findings, memo = check(value)
    asked, patches = counting_rules()
    with patches[0], patches[1]:
        # the same values: nothing is checked again
        again = {**value, "annotations": list(value["annotations"])}
        session_again, findings_again, memo = check(again, memo)
        assert asked == []
        assert findings_of(findings_again) == findings_of(first_findings)
        # one annotation replaced: only it is checked
        edited = list(again["annotations"])
        edited[2] = {"claim": claim(), "sources": [source()]}
        _, findings_edited, memo = check({**value, "annotations": edited}, memo)
        assert set(asked) == {("annotations", 2)}
        assert "duplicate-source" not in [f.code for f in findings_edited]
        # an annotation inserted first: the others are placed at their new indexes, not checked
        asked.clear()
        inserted = [{"claim": claim(), "sources": [source("report", (3, "Confidence"), (3, "high."))]}, *edited]
        moved_session, moved_findings, memo = check({**value, "annotations": inserted}, memo)
        # (and the string, which is no object and is not remembered)
        assert set(asked) == {("annotations", 0), ("annotations", 4)}
        assert [moved_session.index_of(a) for a in moved_session.annotations] == [0, 1, 2, 3, 5]
        assert {f.path[1] for f in moved_findings if f.path[:1] == ("annotations",)} == {2, 4, 5}
        # a document no ref resolves in changed (the second `article`): nothing is checked again
        asked.clear()
        documents = [*value["documents"][:2], {"path": "article", "content": "another"}]
        _, _, memo = check({"documents": documents, "annotations": inserted}, memo)
        assert asked == []
        # a cited document's content changed: the annotations citing it are checked again
        documents = [documents[0], {"path": "report", "content": REPORT + "\nMore."}, documents[2]]
        check({"documents": documents, "annotations": inserted}, memo)
        assert set(asked) == {("annotations", i) for i, a in enumerate(inserted) if isinstance(a, dict)}
    # the first check's results were not changed by those that followed
    assert findings_of(first_findings) == findings_of(check(SESSION)[1])
    assert [first_session.index_of(a) for a in first_session.annotations] == [0, 1, 2, 4]


@st.composite
def edits(draw):
    """A session and a sequence of edits of its annotations array (replace, insert, remove)."""
    pool = [
        {"claim": claim(), "sources": [source()]},
        {"claim": claim(), "sources": [source(confidence=0.1)]},
        {"claim": claim(), "sources": [source("nowhere")]},
        {"claim": claim("report"), "sources": [source()]},
        {"sources": []},
        42,
    ]
    annotations = draw(st.lists(st.sampled_from(range(len(pool))), max_size=6))
    steps = draw(
        st.lists(
            st.tuples(st.sampled_from(("replace", "insert", "remove")), st.integers(0, 6), st.sampled_from(range(6))),
            max_size=6,
        )
    )
    return pool, annotations, steps


@settings(max_examples=60)
@given(edits())
def test_answered_by_the_memo_equals_checked_afresh(case):
    """Whatever the edits of the array, the memo's answer is what a check without it gives."""
    pool, picks, steps = case
    annotations = [copy.deepcopy(pool[p]) for p in picks]
    _, _, memo = check(session(annotations))
    for kind, at, pick in steps:
        annotations = list(annotations)
        at = min(at, len(annotations))
        if kind == "insert":
            annotations.insert(at, copy.deepcopy(pool[pick]))
        elif annotations and at < len(annotations):
            if kind == "remove":
                del annotations[at]
            else:
                annotations[at] = copy.deepcopy(pool[pick])
        value = session(annotations)
        remembered, found, memo = check(value, memo)
        fresh, found_fresh, _ = check(value)
        assert findings_of(found) == findings_of(found_fresh)
        assert refs_of(remembered) == refs_of(fresh)
        assert [remembered.index_of(a) for a in remembered.annotations] == [
            fresh.index_of(a) for a in fresh.annotations
        ]


def test_annotations_after_a_new_one_are_the_very_same_objects_and_each_session_says_its_own_paths():
    """A new annotation typed before thousands of others makes none of them again: neither an
    annotation nor a ref knows its index (each session says it), so the previous check's stay
    right while the next one's are moved; only the findings, which know their paths, move."""
    value = copy.deepcopy(SESSION)
    first, first_findings, memo = check(value)
    first_paths = [first.ref_path(ref) for ref in first.refs]
    new = {"claim": claim(), "sources": [source()]}
    moved, moved_findings, _ = check({**value, "annotations": [new, *value["annotations"]]}, memo)
    assert all(a is b for a, b in zip(moved.annotations[1:], first.annotations, strict=True))
    assert all(a is b for a, b in zip(moved.refs[2:], first.refs, strict=True))
    assert [moved.ref_path(ref) for ref in moved.refs[2:]] == [(p[0], p[1] + 1, *p[2:]) for p in first_paths]
    assert [first.ref_path(ref) for ref in first.refs] == first_paths  # the first check's, as they were
    assert [f.path[1] for f in moved_findings if f.path[:1] == ("annotations",)] == [
        f.path[1] + 1 for f in first_findings if f.path[:1] == ("annotations",)
    ]
    assert findings_of(check(copy.deepcopy(SESSION))[1]) == findings_of(first_findings)

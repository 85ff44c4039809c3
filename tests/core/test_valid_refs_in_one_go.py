"""The fast path of ref checking (`AnnotationRules.valid_ref`, the flag `valid_refs` of core/fastpaths.py)
agrees with the careful path.

`valid_ref` restates docs/rules.md for the common case: a well-formed ref that resolves, with good
metadata and nothing to warn about. When it declines (returns None), the careful path in
`AnnotationRules.ref` runs. The two must agree on every ref shape: the fast path may decline a ref
the careful path would accept cleanly, but it must never accept a ref the careful path would
report, nor build a Ref that differs from the one the careful path builds.
"""

import json
import math
from unittest import mock

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from sourcecheck.core.fastpaths import ALL
from sourcecheck.core.rules import LOW_CONFIDENCE, AnnotationRules, check, check_document
from sourcecheck.core.session import Annotation

# -- documents ---------------------------------------------------------------------------

# Tokens a line is made of: repeats ("a", "aa": overlapping occurrences), CJK, an emoji, a
# combining accent (no normalization), a tab, a stray "\r" (non-lf-content; resolution runs).
TOKENS = ["a", "aa", "b", " ", "the ", "中", "文", "🚀", "é", "e\u0301", "\t", "x", "\r"]
PATHS = ["d", "e", "中文.md"]

line_text = st.lists(st.sampled_from(TOKENS), min_size=0, max_size=8).map("".join)
content = st.lists(line_text, min_size=1, max_size=5).map("\n".join)
document = st.fixed_dictionaries({"path": st.sampled_from(PATHS), "content": content})
# One to three documents; a repeated path is duplicate-path (the first one is the document).
documents = st.lists(document, min_size=1, max_size=3)


def lines_of(docs, doc_path):
    for doc in docs:
        if doc["path"] == doc_path:
            return doc["content"].split("\n")
    return [""]


# -- refs --------------------------------------------------------------------------------

WRONG_TYPES = [None, True, False, 1, 1.0, "1", [], {}, ["x"]]


def faulty(draw, fault):
    """Whether to break this part of the ref: true ``fault`` percent of the time (shrinks to
    false, so that a minimal failing example is broken only where it must be)."""
    return draw(st.integers(0, 99)) >= 100 - fault


@st.composite
def boundary_str(draw, line, fault):
    """Mostly a slice of the line (unique, repeated: "a" in "aa"), else another string
    (absent, holding a newline, empty) or a wrong type."""
    if line and not faulty(draw, fault):
        i = draw(st.integers(0, len(line) - 1))
        j = draw(st.integers(i + 1, min(len(line), i + 4)))
        return line[i:j]
    return draw(st.sampled_from(TOKENS + ["aaa", "a\nb", "the", "zzz", "A", "中文字", "\n", "", "", ""] + WRONG_TYPES))


@st.composite
def boundary_line(draw, count, fault):
    """Mostly a line of the document, else 0, negative, past the end, or a wrong type (a
    boolean, a float such as 1.0 that equals a good line)."""
    if not faulty(draw, fault):
        return draw(st.integers(1, count))
    return draw(
        st.sampled_from([0, -1, count + 1, count + 7, 10**30, True, False, 1.0, float(count), "1", None, [1], 1.5])
    )


@st.composite
def boundary(draw, lines, fault, line_number=None):
    line = draw(boundary_line(len(lines), fault)) if line_number is None else line_number
    text = lines[line - 1] if type(line) is int and 1 <= line <= len(lines) else draw(st.sampled_from(lines))
    value = {"line": line, "str": draw(boundary_str(text, fault))}
    if faulty(draw, fault // 2):
        shape = draw(st.sampled_from(["no line", "no str", "extra", "not an object"]))
        if shape == "no line":
            del value["line"]
        elif shape == "no str":
            del value["str"]
        elif shape == "extra":
            value[draw(st.sampled_from(["lines", "text", "column"]))] = 1
        else:
            return draw(st.sampled_from([None, [], "x", 3, [value]]))
    return value


GOOD_POLARITIES = ["supports", "refutes"]
BAD_POLARITIES = ["Supports", "support", "", " supports", "refutes ", None, 1, True, ["supports"], {"supports": 1}]
CONFIDENCES = st.one_of(
    st.floats(LOW_CONFIDENCE, 1),
    st.sampled_from(
        [
            1,
            1.0,
            0.3,
            0.30000000000000004,
            0.5,
            0.9,
            0,
            0.0,
            0.29,
            0.2999999999999999,
            0.1,
            1.0000000000000002,
            2,
            100,
            -0.0,
            -1,
            -0.5,
            10**308,
            10**400,
        ]
    ),
    st.sampled_from([True, False, "0.9", "1", None, [0.9], math.nan, math.inf, -math.inf]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-2, 3),
)


@st.composite
def ref_value(draw, docs, source):
    """Any ref value: often valid, else broken in one or several places."""
    fault = draw(st.sampled_from([0, 4, 12, 35]))  # percent: how broken this ref is
    if faulty(draw, fault // 4):
        return draw(st.sampled_from([None, [], "d", 1, True, [{"path": "d"}]]))
    known = [doc["path"] for doc in docs]
    doc_path = (
        draw(st.sampled_from(known))
        if not faulty(draw, fault)
        else draw(st.sampled_from(PATHS + ["unknown", "D", ""] + WRONG_TYPES))
    )
    lines = lines_of(docs, doc_path)
    start = draw(boundary(lines, fault))
    # Often on the same line as start (start after end on one line, or a one-line span).
    same_line = (
        isinstance(start, dict)
        and type(start.get("line")) is int
        and 1 <= start["line"] <= len(lines)
        and draw(st.booleans())
    )
    end = draw(boundary(lines, fault, start["line"] if same_line else None))
    value = {"path": doc_path, "start": start, "end": end}
    if source or faulty(draw, fault // 2):  # polarity/confidence on a claim are unknown fields
        value["polarity"] = draw(st.sampled_from(GOOD_POLARITIES if not faulty(draw, fault) else BAD_POLARITIES))
        value["confidence"] = draw(CONFIDENCES)
    if faulty(draw, fault // 2):
        del value[draw(st.sampled_from(sorted(value)))]  # a missing key
    if faulty(draw, fault // 2):
        value[draw(st.sampled_from(["polarty", "note", "confidense", "claim"]))] = "x"  # an extra key
    items = list(value.items())
    if draw(st.booleans()):
        items.reverse()  # key order is no part of a ref
    return dict(items)


@st.composite
def cases(draw):
    """(documents, ref value, whether it is a source)."""
    docs = draw(documents)
    source = draw(st.booleans())
    return docs, draw(ref_value(docs, source)), source


# -- running each path on one ref ------------------------------------------------------


def claim_path(source):
    return ("annotations", 0, "sources", 1) if source else ("annotations", 0, "claim")


def rules_with(docs, fast=ALL):
    """The rules of an annotation against the documents, the first of each path winning as in
    `check`."""
    by_path = {}
    for index, item in enumerate(docs):
        document, _ = check_document(item, ("documents", index))
        if document is not None:
            by_path.setdefault(document.path, document)
    return AnnotationRules(by_path, fast)


def fast_path(docs, value, source):
    rules = rules_with(docs)
    annotation = Annotation()
    ref = rules.valid_ref(value, claim_path(source)[2:], annotation, source)
    if ref is not None:
        assert ref.annotation is annotation
    assert rules.refs == [], "the fast path records no ref (its caller does)"
    assert rules.findings == [], "the fast path reports nothing"
    return ref, annotation  # the annotation keeps the ref's weak link alive


def careful_path(docs, value, source):
    rules = rules_with(docs, ALL.without("valid_refs"))
    annotation = Annotation()
    rules.at = ("annotations", 0)  # the annotation being checked
    ref = rules.ref(value, claim_path(source), annotation, source=source)
    assert rules.refs == [ref], "the careful path records the ref once"
    return ref, rules.findings, annotation


def typed(value):
    """A value compared by type and repr: 1, 1.0 and True differ, and NaN equals NaN."""
    return type(value).__name__, repr(value)


def boundary_fields(b):
    return None if b is None else (b.line, b.str, b.side, list(b.occurrences), b.occurrence_count)


def fields(ref):
    return {
        "tail": ref.tail,
        "raw": id(ref.raw),
        "valid": ref.valid,
        "text": ref.text,
        "span": ref.span,
        "doc_path": ref.doc_path,
        "document": (ref.document.path, ref.document.json_path) if ref.document is not None else None,
        "start": boundary_fields(ref.start),
        "end": boundary_fields(ref.end),
        "polarity": typed(ref.polarity),
        "confidence": typed(ref.confidence),
    }


def finding_fields(finding):
    return (
        finding.code,
        str(finding.severity),
        finding.message,
        finding.path,
        finding.ref.tail if finding.ref else None,
        finding.extent,
    )


# -- hand-written cases ------------------------------------------------------------------

AAA = [{"path": "d", "content": "aaa b\n中文🚀 x\n\nthe end"}, {"path": "e", "content": "x"}]
# "aa" occurs twice, overlapping, in "aaa": ambiguous, so the fast path must decline.
OVERLAPPING = (AAA, {"path": "d", "start": {"line": 1, "str": "aa"}, "end": {"line": 1, "str": "b"}}, False)
# A multi-line source across an empty line, with confidence exactly at the low-confidence bound.
AT_THE_BOUND = (
    AAA,
    {
        "path": "d",
        "start": {"line": 2, "str": "🚀"},
        "end": {"line": 4, "str": "end"},
        "polarity": "refutes",
        "confidence": 0.3,
    },
    True,
)
# Just below the bound: low-confidence is a hint, so this is a finding the fast path must leave.
BELOW_THE_BOUND = (
    AAA,
    {
        "path": "d",
        "start": {"line": 2, "str": "🚀"},
        "end": {"line": 4, "str": "end"},
        "polarity": "refutes",
        "confidence": 0.29,
    },
    True,
)
# A float line that equals an integer: invalid-field, never resolved.
FLOAT_LINE = (AAA, {"path": "d", "start": {"line": 1.0, "str": "b"}, "end": {"line": 1, "str": "b"}}, False)


# A boolean line, on a line where the string is unique (True == 1): invalid-field. The fast
# path looks for a ref's shape with few tests (see valid_ref): these are the ones it needs.
BOOL_LINE = (AAA, {"path": "d", "start": {"line": True, "str": "b"}, "end": {"line": 1, "str": "b"}}, False)
BOOL_END_LINE = (AAA, {"path": "d", "start": {"line": 1, "str": "b"}, "end": {"line": True, "str": "b"}}, False)
# Two items, as a boundary has two keys; a key written otherwise, as many keys as a ref has.
LIST_BOUNDARY = (AAA, {"path": "d", "start": ["line", "str"], "end": {"line": 1, "str": "b"}}, False)
OTHER_KEY = (AAA, {"pth": "d", "start": {"line": 1, "str": "b"}, "end": {"line": 1, "str": "b"}}, False)
LIST_PATH = (AAA, {"path": ["d"], "start": {"line": 1, "str": "b"}, "end": {"line": 1, "str": "b"}}, False)
NUMBER_STR = (AAA, {"path": "d", "start": {"line": 1, "str": 5}, "end": {"line": 1, "str": "b"}}, False)
BOOL_CONFIDENCE = (
    AAA,
    {
        "path": "d",
        "start": {"line": 1, "str": "b"},
        "end": {"line": 1, "str": "b"},
        "polarity": "supports",
        "confidence": True,
    },
    True,
)


# -- properties --------------------------------------------------------------------------


@given(cases())
@example(OVERLAPPING)
@example(AT_THE_BOUND)
@example(BELOW_THE_BOUND)
@example(FLOAT_LINE)
@example(BOOL_LINE)
@example(BOOL_END_LINE)
@example(LIST_BOUNDARY)
@example(OTHER_KEY)
@example(LIST_PATH)
@example(NUMBER_STR)
@example(BOOL_CONFIDENCE)
@settings(max_examples=1500)
def test_the_fast_path_never_accepts_a_ref_the_careful_path_would_report(case):
    docs, value, source = case
    fast, _keep_fast = fast_path(docs, value, source)
    careful, findings, _keep_careful = careful_path(docs, value, source)
    clean = careful.valid and not findings
    if fast is not None:
        event("fast path accepted")
        assert [finding_fields(f) for f in findings] == [], "the fast path accepted a ref the careful path reports"
        assert careful.valid
        assert fields(fast) == fields(careful)
        assert fast.raw is value and careful.raw is value
        assert fast.document is not None and fast.document.content is careful.document.content
    elif clean:
        # Allowed (the careful path then runs), but recorded: see --hypothesis-show-statistics.
        event("fast path declined a ref the careful path accepts cleanly")
    else:
        event(
            "both paths reject or report: " + ",".join(sorted({f.code for f in findings}))
            if findings
            else "careful path invalid without findings"
        )


@st.composite
def plain_cases(draw):
    """The common case: exact keys, boundaries unique on their lines, in order, good
    polarity and confidence at least 0.3."""
    docs = draw(documents)
    doc = draw(st.sampled_from(docs))
    doc_path = doc["path"]
    lines = lines_of(docs, doc_path)  # the first document of that path is the one refs resolve against
    first = draw(st.integers(1, len(lines)))
    last = draw(st.integers(first, len(lines)))
    start_line, end_line = lines[first - 1], lines[last - 1]
    # A unique prefix of some suffix of the start line, and a unique suffix of some prefix of the end line.
    i = draw(st.integers(0, max(0, len(start_line) - 1)))
    j = draw(st.integers(i + 1 if first == last else 1, max(1, len(end_line))))
    start = next(
        (start_line[i:k] for k in range(i + 1, len(start_line) + 1) if _unique(start_line, start_line[i:k])), None
    )
    end = next((end_line[k:j] for k in range(j - 1, -1, -1) if _unique(end_line, end_line[k:j])), None)
    source = draw(st.booleans())
    value = {"path": doc_path, "start": {"line": first, "str": start}, "end": {"line": last, "str": end}}
    if source:
        value["polarity"] = draw(st.sampled_from(["supports", "refutes"]))
        value["confidence"] = draw(
            st.one_of(st.floats(LOW_CONFIDENCE, 1), st.sampled_from([LOW_CONFIDENCE, 1, 1.0, 0.9]))
        )
    return docs, value, source


def _unique(line, needle):
    first = line.find(needle)
    return first >= 0 and line.find(needle, first + 1) < 0


@given(plain_cases())
@example(AT_THE_BOUND)
@example(
    (
        AAA,
        {
            "path": "e",
            "start": {"line": 1, "str": "x"},
            "end": {"line": 1, "str": "x"},
            "polarity": "supports",
            "confidence": 1,
        },
        True,
    )
)
@settings(max_examples=400)
def test_the_fast_path_accepts_the_plain_common_case(case):
    docs, value, source = case
    start, end = value["start"]["str"], value["end"]["str"]
    careful, findings, _keep = careful_path(docs, value, source)
    if start is None or end is None or not careful.valid or findings:
        event("not a plain case after all (no unique boundary on an empty line, or boundary order)")
        return
    fast, _keep_fast = fast_path(docs, value, source)
    assert fast is not None, "the fast path declined a plain valid ref: it would never be taken"
    assert fields(fast) == fields(careful)


@st.composite
def sessions(draw):
    """A session's value: documents and one to three annotations of generated refs."""
    docs = draw(documents)
    annotations = []
    for _ in range(draw(st.integers(1, 3))):
        sources = draw(st.lists(ref_value(docs, True), min_size=0, max_size=3))
        if sources and draw(st.booleans()):
            repeated = draw(st.sampled_from(sources))
            sources.append(dict(repeated) if isinstance(repeated, dict) else repeated)  # duplicate-source
        annotation = {"claim": draw(ref_value(docs, False)), "sources": sources}
        if draw(st.booleans()):
            annotation = {"sources": sources, "claim": annotation["claim"]}  # refs follow the keys' order
        annotations.append(annotation)
    return {"documents": docs, "annotations": annotations}


HAND_WRITTEN = {
    "documents": AAA + [{"path": "d", "content": "a later duplicate"}],
    "annotations": [
        {"claim": OVERLAPPING[1], "sources": [AT_THE_BOUND[1], BELOW_THE_BOUND[1], AT_THE_BOUND[1]]},
        {"claim": FLOAT_LINE[1], "sources": [AT_THE_BOUND[1]]},
        {
            "claim": {"path": "e", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}},
            "sources": [AT_THE_BOUND[1]],
        },
    ],
}


CLEAN = {  # each annotation without a finding, but for a source citing the claim's document, or repeated
    "documents": AAA,
    "annotations": [
        {
            "sources": [AT_THE_BOUND[1]],
            "claim": {"path": "e", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}},
        },
        {
            "claim": {"path": "e", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}},
            "sources": [AT_THE_BOUND[1], AT_THE_BOUND[1]],
        },
        {
            "claim": {"path": "d", "start": {"line": 1, "str": "b"}, "end": {"line": 1, "str": "b"}},
            "sources": [AT_THE_BOUND[1]],
        },
        {
            "claim": {"path": "e", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}},
            "sources": [AT_THE_BOUND[1]],
        },
    ],
}


@given(sessions())
@example(HAND_WRITTEN)
@example(CLEAN)
@settings(max_examples=300)
def test_a_whole_check_gives_the_same_findings_and_refs_with_or_without_the_fast_path(root):
    """Without `valid_ref`, neither fast path is taken (`clean_annotation`, for a whole
    annotation without findings, is built on it): both give what the careful path gives,
    down to what the next check is handed."""
    session, findings, memo = check(root)
    careful_session, careful_findings, careful_memo = check(root, fast=ALL.without("valid_refs"))
    for key, careful_entry in careful_memo.annotations.items():
        entry = memo.annotations[key]
        assert entry.value is careful_entry.value and entry.depends == careful_entry.depends
        assert [fields(r) for r in entry.refs] == [fields(r) for r in careful_entry.refs]
        assert [finding_fields(f) for f in entry.findings] == [finding_fields(f) for f in careful_entry.findings]
        assert entry.ref_findings.keys() == careful_entry.ref_findings.keys()
    assert memo.annotations.keys() == careful_memo.annotations.keys()
    assert [finding_fields(f) for f in findings] == [finding_fields(f) for f in careful_findings]
    assert [fields(r) for r in session.refs] == [fields(r) for r in careful_session.refs]
    # Each annotation holds its own refs, in order (claim, then sources), linked back to it.
    for annotation, careful_annotation in zip(session.annotations, careful_session.annotations, strict=True):
        assert (annotation.claim is None) == (careful_annotation.claim is None)
        if annotation.claim is not None:
            assert fields(annotation.claim) == fields(careful_annotation.claim)
            assert annotation.claim.annotation is annotation
        assert [fields(s) for s in annotation.sources] == [fields(s) for s in careful_annotation.sources]
        assert all(s.annotation is annotation for s in annotation.sources)


def test_a_confidence_integer_too_large_for_a_float_is_bad_confidence_on_both_paths():
    docs = [{"path": "d", "content": "x"}]
    value = {
        "path": "d",
        "start": {"line": 1, "str": "x"},
        "end": {"line": 1, "str": "x"},
        "polarity": "supports",
        "confidence": 10**400,
    }
    fast, _keep = fast_path(docs, value, True)
    assert fast is None
    careful, findings, _keep_careful = careful_path(docs, value, True)
    assert [(f.code, f.path) for f in findings] == [("bad-confidence", ("annotations", 0, "sources", 1, "confidence"))]


def checked_in_one_go(value):
    """The session and findings of ``value``, and what the one-go check said of each annotation
    (its keys if it took it whole, else 0)."""
    taken = []
    original = AnnotationRules.clean_annotation

    def spy(self, value, path):
        result = original(self, value, path)
        taken.append(result.keys if result is not None else 0)
        return result

    with mock.patch.object(AnnotationRules, "clean_annotation", spy):
        session, findings, _ = check(value)
    return session, findings, taken


def test_a_clean_annotation_is_checked_in_one_go_and_the_others_carefully():
    """Of CLEAN, the first and last annotations have no finding (the fast path takes them
    whole); the second repeats a source and the third cites its claim's document."""
    session, findings, taken = checked_in_one_go(CLEAN)
    # Each taken whole says how many keys its objects hold (2 + a claim's 7 + a source's 9).
    assert taken == [18, 0, 0, 18]
    assert [(f.code, f.path[:2]) for f in findings] == [
        ("duplicate-source", ("annotations", 1)),
        ("self-citation", ("annotations", 2)),
    ]
    assert [session.ref_path(r) for r in session.refs[:2]] == [
        ("annotations", 0, "sources", 0),
        ("annotations", 0, "claim"),
    ]


@pytest.mark.parametrize("differs", ["path", "start line", "start str", "end line", "end str"])
def test_two_sources_alike_but_for_one_part_are_taken_in_one_go(differs):
    """Sources are the same (duplicate-source, said by the careful path) only if their path
    and both boundaries are: alike but for one part, the annotation is clean."""
    content = "alpha beta gamma\nalpha beta gamma"
    first = {"path": "d", "start": {"line": 1, "str": "alpha"}, "end": {"line": 1, "str": "beta"}}
    second = json.loads(json.dumps(first))
    if differs == "path":
        second["path"] = "f"
    elif differs == "start line":
        second["start"]["line"], second["end"]["line"] = 2, 2
    elif differs == "start str":
        second["start"]["str"] = "alpha "
    elif differs == "end line":
        second["end"] = {"line": 2, "str": "beta"}
    else:
        second["end"]["str"] = "gamma"
    value = {
        "documents": [{"path": p, "content": content} for p in "def"],
        "annotations": [
            {
                "claim": {"path": "e", "start": {"line": 1, "str": "alpha"}, "end": {"line": 1, "str": "beta"}},
                "sources": [
                    {**first, "polarity": "supports", "confidence": 0.9},
                    {**second, "polarity": "supports", "confidence": 0.9},
                ],
            }
        ],
    }
    _, findings, taken = checked_in_one_go(value)
    assert findings == [] and taken == [2 + 7 + 2 * 9]

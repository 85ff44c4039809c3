"""New JSON written into a session as the file is written (core/insert.py): the file's own
indentation or a compact line, valid JSON whether the array is empty, has items or is missing."""

import json

import pytest

from sourcecheck.core.accept import removed_items
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.insert import indent_unit, new_annotation, new_source

CLAIM = {"path": "a", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}}
SOURCE = {**CLAIM, "polarity": "supports", "confidence": 0.9}


def inserted(text: str, insertion) -> str:
    return text[: insertion.start] + insertion.text + text[insertion.end :]


@pytest.mark.parametrize("indent", [None, 2, 4, "\t"])
@pytest.mark.parametrize("annotations", [[], [{"claim": CLAIM, "sources": [SOURCE]}]])
def test_an_annotation_is_added_in_the_files_own_layout_and_the_json_stays_valid(indent, annotations):
    value = {"documents": [{"path": "a", "content": "x"}], "annotations": annotations}
    text = json.dumps(value, indent=indent)
    after = inserted(text, new_annotation(Analysis(text), {"claim": CLAIM, "sources": [SOURCE]}))
    assert json.loads(after)["annotations"][-1] == {"claim": CLAIM, "sources": [SOURCE]}
    assert indent_unit(after) == indent_unit(text)  # written as the file is written
    if indent is None:
        assert "\n" not in after  # a compact file stays one line


@pytest.mark.parametrize("sources", [None, [], [SOURCE]])
def test_a_source_is_added_to_an_annotation_whose_sources_are_missing_empty_or_not(sources):
    annotation = {"claim": CLAIM} if sources is None else {"claim": CLAIM, "sources": sources}
    text = json.dumps({"documents": [{"path": "a", "content": "x"}], "annotations": [annotation]}, indent=2)
    after = inserted(text, new_source(Analysis(text), 0, SOURCE))
    assert json.loads(after)["annotations"][0]["sources"][-1] == SOURCE
    assert new_source(Analysis(text), 5, SOURCE) is None  # no such annotation: nothing written


@pytest.mark.parametrize("gone", [{0}, {1}, {2}, {0, 2}, {1, 2}, {0, 1, 2}])
def test_items_removed_together_leave_valid_json_and_the_others_in_order(gone):
    from sourcecheck.core.edits import apply

    text = json.dumps({"documents": [], "annotations": [], "xs": [1, 2, 3]}, indent=2)
    after = apply(text, removed_items(Analysis(text), ("xs",), gone))
    assert json.loads(after)["xs"] == [n for i, n in enumerate([1, 2, 3]) if i not in gone]


@pytest.mark.parametrize("annotations", [[], [{"claim": CLAIM, "sources": [SOURCE]}]])
def test_a_file_with_crlf_line_breaks_gets_crlf_line_breaks(annotations):
    value = {"documents": [{"path": "a", "content": "x"}], "annotations": annotations}
    text = json.dumps(value, indent=2).replace("\n", "\r\n")
    after = inserted(text, new_annotation(Analysis(text), {"claim": CLAIM, "sources": [SOURCE]}))
    assert json.loads(after)["annotations"][-1] == {"claim": CLAIM, "sources": [SOURCE]}
    assert after.count("\n") == after.count("\r\n") > text.count("\r\n")  # no lone LF among them

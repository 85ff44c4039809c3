"""What is at a place in a session file, asked of an analysis: no server, no re-parsing."""

import json

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.queries import (
    document_path_at,
    enclosing_ref,
    path_under_cursor,
    typing_at,
    written_document,
    written_line,
)
from tests.support.helpers import claim, session, source


def text_and_analysis(value: object) -> tuple[str, Analysis]:
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return text, Analysis(text)


def test_the_path_under_the_cursor_is_found_in_the_documents_and_in_refs():
    text, analysis = text_and_analysis(session())
    in_documents = text.index('"path": "report"') + 10
    in_a_source = text.index('"path": "report"', text.index('"sources"')) + 10
    for offset in (in_documents, in_a_source):
        found = path_under_cursor(analysis, offset)
        assert found is not None and found[0] == "report"
        assert text[found[1].start : found[1].end] == '"report"'
    assert document_path_at(analysis, in_documents) == "report"
    assert document_path_at(analysis, in_a_source) is None  # a ref's path is not a document's


def test_a_path_that_names_no_document_is_not_under_the_cursor():
    text, analysis = text_and_analysis(session([{"claim": claim("nowhere"), "sources": [source()]}]))
    assert path_under_cursor(analysis, text.index('"nowhere"') + 2) is None


def test_the_enclosing_ref_and_its_side():
    text, analysis = text_and_analysis(session())
    ref, side = enclosing_ref(analysis, text.index('"str": "positive"') + 9)
    assert ref is not None and analysis.session.ref_path(ref) == ("annotations", 0, "claim") and side == "end"
    ref, side = enclosing_ref(analysis, text.index('"polarity"') + 3)
    assert ref is not None and ref.is_source and side is None
    assert enclosing_ref(analysis, text.index('"content"')) == (None, None)


def test_what_is_being_typed_is_read_from_half_typed_json():
    text = (
        '{"documents": [{"path": "a", "content": "x"}], "annotations": [{"claim": {"path": "a", "start": '
        '{"line": 1, "str": "x\\"y'
    )
    analysis = Analysis(text)
    typing = typing_at(analysis, len(text))
    assert typing is not None and typing.key == "str" and typing.quoted
    assert text[typing.start : typing.end] == 'x\\"y'  # inside the quotes, escapes and all
    line = text[: text.index('"line": 1') + len('"line": 1')]
    typing = typing_at(Analysis(line), len(line))
    assert typing is not None and typing.key == "line" and not typing.quoted and line[typing.start : typing.end] == "1"


def test_nothing_is_being_typed_after_another_key():
    text = '{"documents": [], "annotations": [{"confidence": 0.'
    assert typing_at(Analysis(text), len(text)) is None


def test_the_document_and_line_a_ref_names_while_it_is_being_written():
    value = session([{"claim": claim("article", (2, "the"), (2, "end")), "sources": [source(start=(1, "x"))]}])
    text, analysis = text_and_analysis(value)
    ref = analysis.session.refs[0]
    document = written_document(analysis, ref)
    assert document is not None and document.path == "article"
    assert written_line(ref, "start") == 2
    bad = analysis.session.refs[1]
    bad.raw["start"]["line"] = True  # a boolean is no line number
    assert written_line(bad, "start") is None

"""Several edits between two analyses are replayed as one (the server then checks the text
incrementally, not in full): the one edit must make exactly the text the edits made."""

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from bench.sessiongen import generate
from sourcecheck.core.incremental import merged
from sourcecheck.core.positions import Encoding
from sourcecheck.core.text import Text
from sourcecheck.lsp.sync import DocumentStore


@st.composite
def edit_of(draw: st.DrawFn, text: str) -> tuple[int, int, str]:
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, min(len(text), start + 6)))
    return start, end, draw(st.sampled_from(["", "x", "yz", "\n", "中🚀", "{},"]))


def apply(text: str, edit: tuple[int, int, str]) -> str:
    return text[: edit[0]] + edit[2] + text[edit[1] :]


@settings(max_examples=400)
@given(st.data(), st.text(alphabet="ab{},\n中", max_size=30), st.integers(2, 6))
def test_edits_merged_one_by_one_make_the_text_the_edits_make(data, text, count):
    edit = data.draw(edit_of(text))
    now = apply(text, edit)
    for _ in range(count - 1):
        then = data.draw(edit_of(now))
        now = apply(now, then)
        edit = merged(edit, then, Text(now))
        assert apply(text, edit) == now
    # It spans no more than the edits did: an edit far from the others stays small.
    assert edit[1] <= len(text) and len(edit[2]) <= len(now)


def test_several_changes_before_an_analysis_are_checked_incrementally():
    """Fast typing (or a client sending several changes in one didChange) is replayed on the
    previous analysis as one edit: the analysis says which one it was derived from."""
    text = generate(3, documents=2, lines=8, annotations=10, broken=0.3).text(indent=2)
    store = DocumentStore()
    document = store.open(types.TextDocumentItem("file:///s.sourcecheck.json", "json", 1, text))
    first = document.analysis
    at = text.index('"claim"')
    where = types.Position(line=text[:at].count("\n"), character=at - text.rfind("\n", 0, at) - 1)
    changes: list[types.TextDocumentContentChangeEvent] = [
        types.TextDocumentContentChangePartial(range=types.Range(where, where), text=piece)
        for piece in ('"x": 1', ", ")
    ]
    params = types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=2, uri=document.uri), changes
    )
    store.change(params, Encoding.UTF16)
    analysis = document.analysis
    assert analysis.derived is not None and analysis.derived.previous == first.serial
    assert [f.code for f in analysis.findings if f.code == "unknown-field"] == ["unknown-field"]

"""Re-anchoring on real histories: 164 consecutive revisions of much-edited prose (PEP 8,
PEP 1 and PEP 12, from the history of python/peps; see data/README.md), each revision's
sentences cited and carried to the next one.

What must hold on real edits (docs/rules.md, "`sync`"): a cited sentence that stands once in the
new revision as it stood once in the old is kept (or, cut and pasted, moved) and cites
exactly its text; a changed one's new text is an edit of it, never another sentence; after
accepting, every kept ref still cites its text."""

from __future__ import annotations

import difflib
import json
import lzma
import re
from pathlib import Path

import pytest

from sourcecheck.core.accept import synced
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.filestate import FileContent
from sourcecheck.core.refs import Boundaries, cite
from sourcecheck.core.resync import plan
from sourcecheck.core.session import Document

DATA = Path(__file__).with_name("data") / "pep-histories.json.xz"
HISTORIES: dict[str, list[dict[str, str]]] = json.loads(lzma.decompress(DATA.read_bytes()))
SENTENCE = re.compile(r"[A-Z][^.\n]{12,200}?[.:]")
CLAIM = {"path": "article", "start": {"line": 1, "str": "Claim"}, "end": {"line": 1, "str": "Claim"}}


def session_citing(old: str) -> str:
    """A session citing about 60 sentences of ``old`` that occur once in it, each as the
    source of a claim."""
    document = Document("notes", old, ("documents", 1))
    spans = [(m.start(), m.end()) for m in SENTENCE.finditer(old) if old.count(m.group()) == 1]
    refs = [cite(document, start, end) for start, end in spans[:: max(1, len(spans) // 60)]]
    annotations = [
        {"claim": CLAIM, "sources": [{**ref.as_json(), "polarity": "supports", "confidence": 0.9}]}
        for ref in refs
        if isinstance(ref, Boundaries)
    ]
    documents = [{"path": "article", "content": "Claim"}, {"path": "notes", "content": old}]
    return json.dumps({"documents": documents, "annotations": annotations}, ensure_ascii=False)


PAIRS = [
    (name, old, new)
    for name, revisions in HISTORIES.items()
    for old, new in zip(revisions, revisions[1:], strict=False)
]


def test_the_histories_are_as_the_readme_says():
    assert {name: len(revisions) for name, revisions in HISTORIES.items()} == {
        "pep-0008": 77,
        "pep-0001": 61,
        "pep-0012": 29,
    }
    assert len(PAIRS) == 164


@pytest.mark.parametrize("name", sorted(HISTORIES))
def test_every_sentence_that_survives_a_real_revision_is_kept_and_none_is_re_pointed(name):
    kept = surviving = 0
    for history, old, new in PAIRS:
        if history != name:
            continue
        analysis = Analysis(session_citing(old["text"]))
        drift = plan(analysis, {"notes": FileContent(new["text"]), "article": FileContent("Claim")})
        (notes,) = [d for d in drift.documents if d.document.path == "notes"]
        moved = Document("notes", new["text"], ("documents", 1))
        for ref in notes.refs:
            assert ref.was is not None
            if new["text"].count(ref.was) == 1:  # it stands once in the new revision, as in the old
                surviving += 1
                kept += ref.kept
                assert ref.kept, (new["commit"], ref.was, ref.state, ref.now)
            if ref.kept:
                assert ref.anchor is not None
                begin = moved.line_starts[ref.anchor.start_line - 1] + moved.lines[ref.anchor.start_line - 1].index(
                    ref.anchor.start_str
                )
                assert new["text"][begin : begin + len(ref.was)] == ref.was
            elif ref.state == "edited" and ref.now is not None:
                # an edit of its text, never another sentence
                assert difflib.SequenceMatcher(None, ref.was, ref.now).ratio() >= 0.4, (ref.was, ref.now)
        after = Analysis(synced(drift, accept=True).text(analysis.text))
        texts = {after.session.ref_path(r): r.text for r in after.session.refs}
        for ref in notes.refs:
            if ref.kept:
                assert texts[ref.path] == ref.was
    assert surviving > 1000 and kept == surviving

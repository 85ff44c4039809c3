"""Editing the structure of a big session in the editor gives exactly what a full check gives.

The server keeps each open document's text in step with the editor's changes and analyses
the newest version from the previous one when it can (``sourcecheck.lsp.sync``); the
diagnostics of a version reuse those built for the version before (``DocumentMemo``). Here
an editor pastes, cuts, moves and types annotations, adds, removes and renames documents,
sends several changes in one ``didChange``, several ``didChange`` notifications before
anything reads the analysis, and edits while a full analysis runs in the worker. After
each, the document's text, its analysis and the diagnostics sent must be those of a full
check of the text the editor has.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.positions import Encoding
from sourcecheck.lsp.app import Client, View
from sourcecheck.lsp.features.diagnostics import diagnostics
from sourcecheck.lsp.settings import Settings
from sourcecheck.lsp.sync import DocumentStore
from tests.core.test_structural_edits import OPERATIONS, STRUCTURE, Edit, apply, assert_same, starting_text

URI = "file:///structure.sourcecheck.json"
DELIVERIES = ("one by one", "in one didChange", "several didChange", "while the worker runs")


def position(text: str, offset: int, encoding: Encoding) -> types.Position:
    """The editor position of an offset, found without the server's line table."""
    before = text[:offset]
    assert not (before.endswith("\r") and text[offset : offset + 1] == "\n"), "no position lies inside a CRLF"
    line = before.count("\n") + before.count("\r") - before.count("\r\n")
    column = before[max(before.rfind("\n"), before.rfind("\r")) + 1 :]
    if encoding is Encoding.UTF16:
        character = len(column.encode("utf-16-le")) // 2
    elif encoding is Encoding.UTF8:
        character = len(column.encode("utf-8"))
    else:
        character = len(column)
    return types.Position(line=line, character=character)


def splits_a_line_break(text: str, edit: Edit) -> bool:
    """Whether the edit starts or ends between the two characters of a CRLF (no LSP range can say that)."""
    return any(text[at - 1 : at + 1] == "\r\n" for at in edit[:2] if at > 0)


class EditorSession:
    """One open session file: the editor's text, and the server's document store kept in step."""

    def __init__(self, text: str, encoding: Encoding = Encoding.UTF16) -> None:
        self.text = text
        self.encoding = encoding
        self.client = Client(encoding=encoding)
        self.version = 1
        self.store = DocumentStore()
        self.document = self.store.open(types.TextDocumentItem(uri=URI, language_id="json", version=1, text=text))
        self.executor = ThreadPoolExecutor(max_workers=1)
        self.reads = 0

    def did_change(self, edits: list[Edit], whole: str | None = None) -> None:
        """One ``didChange`` carrying ``edits`` in order (after the whole text ``whole``, if given)."""
        changes: list[types.TextDocumentContentChangeEvent] = []
        if whole is not None:
            changes.append(types.TextDocumentContentChangeWholeDocument(text=whole))
            self.text = whole
        for edit in edits:
            start, end, inserted = edit
            changes.append(
                types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=position(self.text, start, self.encoding), end=position(self.text, end, self.encoding)
                    ),
                    text=inserted,
                )
            )
            self.text = apply(self.text, edit)
        self.version += 1
        params = types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=self.version),
            content_changes=changes,
        )
        assert self.store.change(params, self.encoding) is self.document
        assert self.document.text == self.text, "the server's text is not the editor's"

    def start_in_worker(self, wait: bool) -> None:
        """What a request does when an analysis is slow: start it in the worker; take it if ``wait``."""
        source = self.document.source
        state = self.document.start(self.executor)
        if wait and isinstance(state, Future):
            self.document.adopt(source, state.result())

    def check(self, context: Any) -> None:
        """The document's analysis and the diagnostics built from it through the document's memo
        (as the server builds them, version after version) are those of a full check."""
        analysis = self.document.analysis
        self.reads += 1
        assert_same(analysis, self.text, context)
        view = View(URI, self.version, analysis, self.client, Settings(), self.document.memo)
        fresh = View(URI, self.version, Analysis(self.text), self.client, Settings())
        sent, expected = diagnostics(view), diagnostics(fresh)
        assert json.loads(sent.encoded) == json.loads(expected.encoded), context
        assert sent.encoded == expected.encoded, context  # byte for byte, as they go on the wire
        assert sent.wires == expected.wires, context

    def close(self) -> None:
        self.store.close(URI)
        self.executor.shutdown(wait=True)


def edits_of(rng: random.Random, text: str, names: list[str]) -> list[Edit]:
    """The edits of a few operations in a row, each made on the text the ones before left."""
    edits: list[Edit] = []
    for name in names:
        for edit in OPERATIONS[name](rng, text):
            if splits_a_line_break(text, edit):
                break  # an editor cannot send it: the rest of this operation goes too
            edits.append(edit)
            text = apply(text, edit)
    return edits


def deliver(session: EditorSession, rng: random.Random, edits: list[Edit], how: str, context: Any) -> None:
    """Send ``edits`` as an editor may, and check what the server then has."""
    if how == "one by one":  # one didChange each, diagnostics for each version
        for step, edit in enumerate(edits):
            session.did_change([edit])
            if step % 3 == 0 or step == len(edits) - 1:
                session.check((context, step))
    elif how == "in one didChange":
        session.did_change(edits)
        session.check(context)
    elif how == "several didChange":  # nobody reads the analysis in between
        for edit in edits:
            session.did_change([edit])
        session.check(context)
    else:  # each edit calls off the full analysis the one before started in the worker
        for edit in edits:
            session.did_change([edit])
            session.start_in_worker(wait=rng.random() < 0.3)
        session.check(context)


def run(
    seed: int,
    rounds: int,
    deliveries: tuple[str, ...] = DELIVERIES,
    operations: list[str] = STRUCTURE,
    encoding: Encoding = Encoding.UTF16,
) -> EditorSession:
    rng = random.Random(seed)
    session = EditorSession(starting_text(seed, rng), encoding)
    try:
        session.check((seed, "opened"))
        for round_ in range(rounds):
            names = [rng.choice(operations) for _ in range(rng.choice([1, 1, 2, 3]))]
            how = rng.choice(deliveries)
            deliver(session, rng, edits_of(rng, session.text, names), how, (seed, round_, names, how))
    finally:
        session.close()
    return session


def test_several_changes_in_one_did_change_match_a_full_check():
    """A cut and its paste, a paste and a deletion, a document removed and one added: sent together."""
    for seed in range(12):
        run(seed, 5, deliveries=("in one didChange",))


def test_several_did_change_notifications_before_the_analysis_is_read_match_a_full_check():
    for seed in range(12):
        run(seed, 5, deliveries=("several didChange",))


def test_edits_one_by_one_with_diagnostics_for_each_version_match_a_full_check():
    """The diagnostics of each version are built through the memo of the version before."""
    for seed in range(12):
        run(seed, 5, deliveries=("one by one",))


def test_edits_while_a_full_analysis_runs_in_the_worker_match_a_full_check():
    """An edit calls the running analysis off; the one taken is of the newest text."""
    for seed in range(8):
        run(seed, 5, deliveries=("while the worker runs",))


def test_typing_an_annotation_keystroke_by_keystroke_in_the_editor_matches_a_full_check():
    """One didChange per keystroke, diagnostics of every version built through the memo."""
    rng = random.Random(5)
    session = EditorSession(starting_text(5, rng))
    try:
        session.check("opened")
        for name in ("type", "type with typos", "erase"):
            for step, edit in enumerate(edits_of(rng, session.text, [name])):
                session.did_change([edit])
                session.check((name, step))
    finally:
        session.close()


def test_a_whole_text_change_among_partial_ones_matches_a_full_check():
    """A client may replace the whole text, then send range changes after it in the same didChange."""
    for seed in range(6):
        rng = random.Random(seed)
        session = EditorSession(starting_text(seed, rng))
        try:
            session.check((seed, "opened"))
            whole = starting_text(seed + 1, random.Random(seed + 1))
            session.did_change(edits_of(rng, whole, ["insert", "move", "remove document"]), whole=whole)
            session.check((seed, "whole then partial"))
            deliver(session, rng, edits_of(rng, session.text, ["paste", "break"]), "one by one", seed)
        finally:
            session.close()


def test_every_position_encoding_gives_what_a_full_check_gives():
    """Ranges counted in UTF-8 bytes or UTF-32 code points (emoji and CJK in every document)."""
    for seed in range(4):
        run(seed, 4, encoding=Encoding.UTF8)
        run(seed, 4, encoding=Encoding.UTF32)


@given(
    st.integers(0, 2**16),
    st.lists(
        st.tuples(st.lists(st.sampled_from(STRUCTURE), min_size=1, max_size=3), st.sampled_from(DELIVERIES)),
        min_size=1,
        max_size=4,
    ),
)
@settings(max_examples=30)
def test_structural_edits_sent_in_any_way_match_a_full_check_hypothesis(seed, plan):
    rng = random.Random(seed)
    session = EditorSession(starting_text(seed, rng))
    try:
        for round_, (names, how) in enumerate(plan):
            deliver(session, rng, edits_of(rng, session.text, names), how, (round_, names, how))
    finally:
        session.close()

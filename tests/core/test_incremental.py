"""Incremental checking gives exactly what checking the final text from scratch gives."""

import gc
import json
import random
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.sessiongen import generate
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.incremental import move_tail
from sourcecheck.core.jsonnodes import JArray, JNumber, Node
from sourcecheck.core.lazy import JLazy
from sourcecheck.core.positions import Encoding, LineStarts, LineTable
from sourcecheck.core.session import ResolvedRef
from sourcecheck.core.text import Text

PIECES = ["x", "", '"', "\\", "{", "}", ",", "\n", "\r\n", "中", "🚀", " ", "e", "1", ":", "the", "\\n", "\\u00e9"]
# What a writer mostly types: inside a string none of these breaks the JSON, so a session
# stays valid for long and its edits take the incremental paths.
TYPING = ["x", "", "中", "🚀", " ", "e", "1", "the", "\\n", "\\u00e9"]


def fingerprint(analysis: Analysis):
    return (
        [
            (f.code, f.pointer, f.message, analysis.extent(f), analysis.finding_span(f, Encoding.UTF16))
            for f in analysis.findings
        ],
        [(analysis.session.ref_path(r), r.valid, r.text) for r in analysis.session.refs],
        list(analysis.lines.starts),
    )


def random_edit(rng: random.Random, text: str, pieces: list[str]) -> tuple[int, int, str]:
    roll = rng.random() * (0.8 if pieces is TYPING else 1.0)  # typing: never text between values
    if roll < 0.6:  # inside a string value, as when typing in a ref or in content
        at = text.find('"str": "', rng.randrange(len(text)))
        at = at + 8 if at >= 0 else rng.randrange(len(text))
    elif roll < 0.7:
        at = text.find('"content": "', rng.randrange(len(text)))
        at = at + 15 if at >= 0 else rng.randrange(len(text))
    elif roll < 0.8:  # whitespace typed or deleted, mostly between values (after a comma)
        at = text.find(",", rng.randrange(len(text))) + 1 if rng.random() < 0.7 else rng.randrange(len(text) + 1)
        end = at
        while end < len(text) and text[end] in " \n\r\t" and end - at < 4:
            end += 1
        return at, end, rng.choice(["", " ", "\n", "\n  ", "\t", "\r\n"])
    else:
        at = rng.randrange(len(text) + 1)
    end = min(len(text), at + rng.choice([0, 0, 0, 1, 2, 5]))
    if pieces is TYPING:  # deletes within the string, never its quote or an escape
        end = min([end, *(found for found in (text.find('"', at), text.find("\\", at)) if found >= 0)])
    return at, end, rng.choice(pieces)


def run_edits(seed: int, steps: int, analyse_every: int = 1, pieces: list[str] = PIECES) -> None:
    rng = random.Random(seed)
    # Half the sessions start valid: a broken one (duplicate keys) is always checked in full.
    text = generate(seed, documents=2, lines=8, annotations=10, broken=0.3 if seed % 2 else 0.0).text(
        indent=rng.choice([None, 1, 2])
    )
    analysis = Analysis(text)
    analysis.findings and analysis.finding_span(analysis.findings[0])  # build the line table, as the server does
    source = Text(text)  # as the server keeps it: a piece table
    for step in range(steps):
        start, end, inserted = random_edit(rng, text, pieces)
        text = text[:start] + inserted + text[end:]
        source = source.edited(start, end, inserted)
        lines = analysis.lines.patched(source, start, end, inserted)
        # As the server does: incrementally when the edit allows, else in full.
        analysis = Analysis.incremental(source, analysis, (start, end, inserted), lines=lines) or Analysis(
            source, lines=lines
        )
        if step % analyse_every == 0:
            assert fingerprint(analysis) == fingerprint(Analysis(text)), (seed, step)


def test_random_edit_sequences_match_a_full_recheck():
    for seed in range(30):
        run_edits(seed, 40)
        run_edits(seed, 40, pieces=TYPING)


@given(st.integers(0, 10_000))
@settings(max_examples=40)
def test_random_edit_sequences_match_a_full_recheck_hypothesis(seed):
    run_edits(seed, 15, pieces=PIECES if seed % 2 else TYPING)


def test_whitespace_between_values_is_checked_incrementally():
    """A line break typed between two annotations, an indent changed, a blank line removed:
    the values stay, everything after moves, and no full parse is needed."""
    text = generate(4, documents=2, lines=8, annotations=10, broken=0.0).text(indent=2)
    first = text.index("{", text.index('"annotations"'))
    between = text.index(",", json.JSONDecoder().raw_decode(text, first)[1]) + 1  # after the first annotation
    after_colon = text.index('"claim":') + len('"claim":')  # inside an annotation: that item is decoded again
    places = [
        (between, "\n", True),
        (between, "    ", True),
        (0, "\n", True),
        (len(text), "\n\n", True),
        (text.index('"documents"'), "\t", True),
        (after_colon, "\n      ", False),
    ]
    for at, inserted, between_items in places:
        for start, end, piece, before in [
            (at, at, inserted, text),
            (at, at + len(inserted), "", text[:at] + inserted + text[at:]),
        ]:
            after = before[:start] + piece + before[end:]
            analysis = Analysis.incremental(after, Analysis(before), (start, end, piece))
            assert analysis is not None, (at, inserted)
            replaced = analysis.tree.replaced
            assert (replaced is None or not replaced.items) == between_items  # no item was decoded again
            assert fingerprint(analysis) == fingerprint(Analysis(after))
    # Whitespace inside a string is content; inside a number it splits it.
    inside = text.index('"str": "') + len('"str": "') + 1
    spaced = text[:inside] + " " + text[inside:]
    analysis = Analysis.incremental(spaced, Analysis(text), (inside, inside, " "))
    assert analysis is not None and fingerprint(analysis) == fingerprint(Analysis(spaced))
    assert analysis.value != Analysis(text).value
    number = text.index('"line": ') + len('"line": ') + 1
    split = text[:number] + " " + text[number:]
    analysis = Analysis.incremental(split, Analysis(text), (number, number, " ")) or Analysis(split)
    assert fingerprint(analysis) == fingerprint(Analysis(split))


@given(st.text(alphabet=st.sampled_from(list("ab\n\r中🚀")), max_size=40), st.data(), st.sampled_from([4096, 1, 2, 3]))
def test_a_patched_line_table_equals_a_fresh_one(text, data, block_size):
    """Also with tiny blocks of line starts, so that edits span, split and merge blocks;
    a series of edits, as in an editor, each patched onto the table before."""
    with patch.object(LineStarts, "SIZE", block_size):
        table = LineTable(text)
        for _ in range(data.draw(st.integers(1, 4))):
            start = data.draw(st.integers(0, len(text)))
            end = data.draw(st.integers(start, len(text)))
            inserted = data.draw(st.text(alphabet=st.sampled_from(list("xy\n\r🚀")), max_size=6))
            new = text[:start] + inserted + text[end:]
            old, before = table, list(table.starts)
            table = table.patched(new, start, end, inserted)
            assert list(old.starts) == before  # the earlier version's table is left as it was
            fresh = LineTable(new)
            assert list(table.starts) == list(fresh.starts)
            assert [table.line_of(offset) for offset in range(len(new) + 1)] == [
                fresh.line_of(offset) for offset in range(len(new) + 1)
            ]
            assert [table.starts[line] for line in range(len(fresh.starts))] == list(fresh.starts)
            text = new


def test_columns_on_very_long_lines_use_checkpoints_and_stay_exact():
    line = "".join(random.Random(1).choice(["a", "中", "🚀", "é"]) for _ in range(20_000))
    table = LineTable("x\n" + line + "\ny")
    for offset in [2, 3, 2050, 4097, 12_345, 20_001]:
        for encoding in Encoding:
            expected = (
                len(
                    line[: offset - 2].encode(
                        {"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}[encoding.value]
                    )
                )
                // {"utf-8": 1, "utf-16": 2, "utf-32": 4}[encoding.value]
            )
            assert table.position(offset, encoding).character == expected


def test_offsets_on_very_long_lines_round_trip_through_checkpoints():
    line = "".join(random.Random(2).choice(["a", "中", "🚀", "é"]) for _ in range(20_000))
    table = LineTable("x\n" + line + "\ny")
    for offset in range(2, 20_002, 997):
        for encoding in Encoding:
            assert table.offset(table.position(offset, encoding), encoding) == offset


def test_an_unknown_path_message_follows_the_documents_after_an_edit():
    """The message lists the session's documents: renaming one must reach an annotation
    that was not edited (it was once kept from the previous check)."""
    text = (
        '{"documents": [{"path": "a", "content": "one two"}, {"path": "b", "content": "x"}],\n'
        ' "annotations": [{"claim": {"path": "a", "start": {"line": 1, "str": "one"}, "end": {"line": 1, "str": '
        '"two"}},\n'
        '   "sources": [{"path": "zz", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": "x"}, '
        '"polarity": "supports", "confidence": 0.9}]}]}'
    )
    analysis = Analysis(text)
    at = text.index('"b"') + 1
    edited = text[:at] + "c" + text[at + 1 :]
    analysis = Analysis.incremental(edited, analysis, (at, at + 1, "c"))
    assert analysis is not None
    [message] = [f.message for f in analysis.findings if f.code == "unknown-path"]
    assert "`c`" in message and "`b`" not in message


def test_a_document_with_a_carriage_return_is_reported_after_every_edit():
    """Whether a document holds a \\r is found once (its content is a megabyte at times) and
    known to the next checks while the content is the same: said after each edit, moved
    documents included, and no longer once the content is normalized."""
    text = (
        '{"documents": [{"path": "a", "content": "one\\r\\ntwo"}, {"path": "b", "content": "x"}],\n'
        ' "annotations": [{"claim": {"path": "b", "start": {"line": 1, "str": "x"}, "end": {"line": 1, "str": '
        '"x"}},\n'
        '   "sources": [{"path": "a", "start": {"line": 2, "str": "two"}, "end": {"line": 2, "str": "two"}, '
        '"polarity": "supports", "confidence": 0.9}]}]}'
    )
    analysis = Analysis(text)
    assert [f.code for f in analysis.findings] == ["non-lf-content"]
    for old, new in (("0.9", "0.8"), ('{"path": "a"', '{"path": "z", "content": ""}, {"path": "a"')):
        at = text.index(old)
        text, analysis = (
            text[:at] + new + text[at + len(old) :],
            Analysis.incremental(text[:at] + new + text[at + len(old) :], analysis, (at, at + len(old), new)),
        )
        assert analysis is not None
        assert [f.code for f in analysis.findings] == ["non-lf-content"], new
    at = text.index("\\r")
    analysis = Analysis.incremental(text[:at] + text[at + 2 :], analysis, (at, at + 2, ""))
    assert analysis is not None and [f.code for f in analysis.findings] == []


def test_analyses_leave_no_reference_cycles():
    """The server freezes the collector's view of each analysis (see documents.py), so an
    old version must be freed by reference counting alone: no cycle may hold it."""
    text = generate(3, documents=2, lines=8, annotations=10, broken=0.3).text(indent=2)
    gc.collect()
    gc.disable()
    try:
        analysis = Analysis(text)
        for finding in analysis.findings:
            analysis.finding_span(finding)
        at = text.index('"str": "') + 9
        edited = text[:at] + "x" + text[at:]
        successor = Analysis.incremental(
            edited, analysis, (at, at, "x"), lines=analysis.lines.patched(edited, at, at, "x")
        )
        assert successor is not None and successor.derived is not None  # the incremental path was taken
        [successor.finding_span(finding) for finding in successor.findings]
        del analysis, successor
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("broken, read_before", [(0.0, False), (0.0, True), (1.0, False)])
def test_a_moved_ref_keeps_everything_but_its_annotation_and_document(broken, read_before):
    """``Ref.moved`` lists the fields by hand, for speed: a new field must not be lost. A ref
    resolved in one go (a ResolvedRef) makes its boundaries when read (``read_before``: they
    were, before it moved): the same ones."""
    import dataclasses

    analysis = Analysis(generate(5, documents=2, lines=8, annotations=4, broken=broken).text(indent=2))
    ref = analysis.session.refs[0]
    assert isinstance(ref, ResolvedRef) == (broken == 0.0)
    if read_before:
        assert ref.start is not None
    annotation = analysis.session.annotations[-1]
    document = analysis.session.documents[-1]
    copy = ref.moved(annotation, document)
    assert type(copy) is type(ref)
    assert copy.annotation is annotation and copy.tail == ref.tail
    assert copy.document is document
    for field in dataclasses.fields(ref):
        if field.name in ("start", "end") and isinstance(ref, ResolvedRef):
            assert dataclasses.astuple(getattr(copy, field.name)) == dataclasses.astuple(getattr(ref, field.name))
        elif field.name not in ("annotation_link", "document"):
            assert getattr(copy, field.name) is getattr(ref, field.name), field.name
    for slot in ResolvedRef.__slots__ if isinstance(ref, ResolvedRef) else ():
        assert getattr(copy, slot) is getattr(ref, slot), slot


def test_a_full_analysis_stops_when_told_to():
    """The server calls off the analysis of a text an edit has replaced (see documents.py)."""
    import threading

    import pytest

    from sourcecheck.core.analysis import Cancelled

    stop = threading.Event()
    stop.set()
    text = generate(7, documents=2, lines=8, annotations=10, broken=0.3).text(indent=2)
    with pytest.raises(Cancelled):
        Analysis(text, stop=stop)
    unset = Analysis(text, stop=threading.Event())
    assert [(f.code, f.pointer) for f in unset.findings] == [(f.code, f.pointer) for f in Analysis(text).findings]


def test_the_previous_analysis_hands_its_tree_over_and_keeps_its_findings():
    """An incremental analysis takes the previous version's tree: reading that tree again
    raises instead of reporting positions of a text it never had; its model stays readable."""
    import pytest

    from sourcecheck.core.jsonnodes import MovedOut

    text = generate(11, documents=2, lines=8, annotations=6, broken=0.3).text(indent=2)
    previous = Analysis(text)
    findings = [(f.code, f.pointer, previous.extent(f)) for f in previous.findings]
    refs = [(previous.session.ref_path(r), r.valid, r.text) for r in previous.session.refs]
    at = text.index('"str": "') + 9
    edited = text[:at] + "x" + text[at:]
    successor = Analysis.incremental(edited, previous, (at, at, "x"))
    assert successor is not None
    with pytest.raises(MovedOut):
        previous.place_at(at)
    with pytest.raises(MovedOut):
        previous.node(("annotations", 0))
    assert [(f.code, f.pointer, previous.extent(f)) for f in previous.findings] == findings
    assert [(previous.session.ref_path(r), r.valid, r.text) for r in previous.session.refs] == refs
    assert successor.place_at(at) is not None


def test_an_edit_that_needs_a_full_analysis_leaves_the_previous_tree_as_it_was():
    text = generate(12, documents=2, lines=8, annotations=6, broken=0.0).text(indent=2)
    previous = Analysis(text)
    at = text.index('"annotations"')
    edited = text[:at] + "x" + text[at:]
    assert Analysis.incremental(edited, previous, (at, at, "x")) is None
    assert previous.place_at(at) is not None and previous.tree.root is not None


@st.composite
def tail_edits(draw):
    """An array of items (lazily decoded, and a few plain ones with an item inside) and edits
    that each replace some items by new ones and move those after them."""
    kinds = draw(st.lists(st.booleans(), min_size=1, max_size=12))  # True: lazily decoded
    edits = []
    size = len(kinds)
    for _ in range(draw(st.integers(1, 8))):
        first = draw(st.integers(0, size))
        keep_from = draw(st.integers(first, size))
        added = draw(st.integers(0, 2))
        edits.append((first, keep_from, added, draw(st.integers(-5, 5))))
        size += added - (keep_from - first)
    return kinds, edits


@given(tail_edits())
@settings(max_examples=300)
def test_items_moved_by_their_tail_are_where_moving_each_one_puts_them(case):
    """`move_tail` moves the items after an edit with one addition to the array's tail: each
    item, lazily decoded or not (and what is inside a plain one), ends up where adding the
    edit's delta to each item after it, one by one, puts it."""
    kinds, edits = case
    serial = iter(range(10**6))

    def item(lazy: bool, at: int) -> Node:
        if lazy:
            return JLazy(at, at + 3, next(serial), ("annotations", 0), False)
        return JArray(at, at + 3, [JNumber(at + 1, at + 2, next(serial))])

    items = [item(lazy, 10 * i) for i, lazy in enumerate(kinds)]
    array = JArray(0, 10**6, items)
    expected = {id(node): (node.start, node.end) for node in items}
    inner = {id(node): node.items[0].start for node in items if isinstance(node, JArray)}
    for first, keep_from, added, delta in edits:
        old = array.items
        new = [item(bool(i % 2), 10**5 + i) for i in range(added)]
        for node in old[keep_from:]:
            start, end = expected[id(node)]
            expected[id(node)] = (start + delta, end + delta)
            if id(node) in inner:
                inner[id(node)] += delta
        for node in new:
            expected[id(node)] = (node.start, node.end)
            if isinstance(node, JArray):
                inner[id(node)] = node.items[0].start
        move_tail(array, first, keep_from, added, delta)
        array.items = old[:first] + new + old[keep_from:]
        for node in array.items:
            assert (node.start, node.end) == expected[id(node)]
            if isinstance(node, JArray):
                assert node.items[0].start == inner[id(node)]


def test_typing_at_one_place_goes_through_no_item_after_it():
    """Keystrokes typed at one place of a big array move the thousands of items after it
    without going through them (the first one makes them a tail)."""
    text = generate(3, documents=2, lines=8, annotations=400, broken=0.0).text(indent=2)
    at = text.index("[", text.index('"annotations"')) + 1
    analysis = Analysis(text)
    joined = []
    original = JLazy.join

    def counted(self, tail):
        joined.append(self)
        original(self, tail)

    with patch.object(JLazy, "join", counted):
        for step, key in enumerate('\n    {"claim": {"path'):
            text = text[:at] + key + text[at:]
            analysis = Analysis.incremental(text, analysis, (at, at, key))
            assert analysis is not None
            at += len(key)
            if step == 0:
                assert len(joined) > 300  # the items after the edit make up the tail once
            else:
                assert len(joined) < 5, f"keystroke {step} went through {len(joined)} items"
            joined.clear()
    assert fingerprint(analysis) == fingerprint(Analysis(text))


def test_a_boundary_of_a_resolved_ref_set_stays_set_when_the_other_is_made():
    analysis = Analysis(generate(5, documents=2, lines=8, annotations=2, broken=0.0).text(indent=2))
    ref = analysis.session.refs[0]
    assert isinstance(ref, ResolvedRef)
    ref.start = None  # (as the careful path does to a ref that is not well formed)
    assert ref.end is not None and ref.end.side == "end" and ref.start is None
    ref.end = None
    assert ref.end is None

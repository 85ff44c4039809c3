"""Re-anchoring (core/resync.py) against a brute-force reference on random drifts of real prose.

The reference knows where every character went: a drift is made of operations on the old
content (lines inserted, deleted, edited, copied; text added beside a span; a paragraph
reflowed) that carry each surviving character's old offset along. A ref's text survived
when its characters are still there, in one piece, in order; its new place is where they
are. Re-anchoring must keep exactly those refs, at exactly that place, and flag every other,
with what no diff can tell apart allowed for: a line rewritten for the most part may be taken
for one deleted; where lines were copied, a copy (identical, or alike but for a word) may be
taken for the line it resembles. A kept ref always cites exactly the text it cited.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sourcecheck.core.accept import synced
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.filestate import FileContent
from sourcecheck.core.refs import Boundaries, cite, resolves_to
from sourcecheck.core.resync import align, aligned_text, plan
from sourcecheck.core.session import Document

SPEC = Path(__file__).resolve().parents[2] / "docs" / "sourcecheck-spec.md"
PROSE = list(dict.fromkeys(line for line in SPEC.read_text(encoding="utf-8").split("\n") if len(line) > 30))
WORDS = sorted({w for line in PROSE for w in re.findall(r"[A-Za-z]{4,}", line)})

Char = tuple[str, int | None]  # a character and the old offset it came from (None: new text)


def chars_of(text: str, start: int = 0) -> list[Char]:
    return [(ch, start + i) for i, ch in enumerate(text)]


def new_text(text: str) -> list[Char]:
    return [(ch, None) for ch in text]


def lines_of(chars: list[Char]) -> list[list[Char]]:
    lines: list[list[Char]] = [[]]
    for item in chars:
        if item[0] == "\n":
            lines[-1].append(item)
            lines.append([])
        else:
            lines[-1].append(item)
    return lines


def joined(lines: list[list[Char]]) -> list[Char]:
    return [item for line in lines for item in line]


def ensure_break(line: list[Char]) -> list[Char]:
    return line if line and line[-1][0] == "\n" else line + [("\n", None)]


SENTENCE_END = re.compile(r"(?<=[.!?]) (?=[A-Z])")


@st.composite
def drifts(draw):
    """(old content, new content as characters with their origins, refs as (start, end),
    whether lines were copied)."""
    first = draw(st.integers(0, len(PROSE) - 12))
    count = draw(st.integers(4, 10))
    old = "\n".join(PROSE[first : first + count]) + "\n"
    spans = []
    for _ in range(draw(st.integers(1, 6))):
        words = list(re.finditer(r"\w+", old))
        a = draw(st.integers(0, len(words) - 1))
        b = draw(st.integers(a, min(len(words) - 1, a + draw(st.integers(0, 25)))))
        spans.append((words[a].start(), words[b].end()))
    lines = lines_of(chars_of(old))
    if not lines[-1]:
        lines.pop()
    originals = len(lines)
    # Copies come last, of lines that stay as they are: a line deleted while a copy of it
    # stands elsewhere is a move, which a diff sees as a deletion.
    kinds = draw(
        st.lists(
            st.sampled_from(["insert", "delete", "edit", "beside", "reflow", "append", "sentence", "move"]),
            min_size=1,
            max_size=5,
        )
    )
    copies = draw(st.integers(0, 2))
    for kind in kinds + ["copy"] * copies:
        at = draw(st.integers(0, len(lines) - 1)) if lines else 0
        if kind == "insert":
            lines.insert(at, new_text(draw(st.sampled_from(PROSE[:first] + PROSE[first + count :])) + "\n"))
        elif kind == "delete" and len(lines) > 1:
            del lines[at]
        elif kind == "edit" and lines:
            line = lines[at]
            words = [m for m in re.finditer(r"\w+", "".join(ch for ch, _ in line))]
            if words:
                word = draw(st.sampled_from(words))
                other = draw(st.sampled_from(WORDS))
                if other not in old:  # a word never there before: an edit a diff can see
                    lines[at] = line[: word.start()] + new_text(other) + line[word.end() :]
        elif kind == "beside" and lines:
            line = lines[at]
            spaces = [i for i, (ch, _) in enumerate(line) if ch == " "]
            if spaces:
                where = draw(st.sampled_from(spaces))
                other = draw(st.sampled_from(WORDS))
                if other not in old:
                    lines[at] = line[:where] + new_text(" " + other) + line[where:]
        elif kind == "append" and lines:  # a clause or a sentence appended to a line
            line = lines[at]
            body, brk = (line[:-1], line[-1:]) if line and line[-1][0] == "\n" else (line, [])
            added = " " + " ".join(
                draw(st.lists(st.sampled_from([w for w in WORDS if w not in old]), min_size=2, max_size=12))
            )
            lines[at] = body + new_text(added + ".") + brk
        elif kind == "sentence" and lines:  # a sentence deleted from the middle of its line
            line = lines[at]
            text = "".join(ch for ch, _ in line)
            cuts = [m.start() for m in SENTENCE_END.finditer(text)]
            if len(cuts) >= 1:
                i = draw(st.integers(0, len(cuts) - 1))
                begin = cuts[i] + 1
                finish = cuts[i + 1] + 1 if i + 1 < len(cuts) else None
                if finish is not None:
                    lines[at] = line[:begin] + line[finish:]
        elif kind == "move" and len(lines) > 4:  # lines cut and pasted elsewhere
            size = draw(st.integers(1, 2))
            block = lines[at : at + size]
            rest = lines[:at] + lines[at + size :]
            away = [i for i in range(len(rest) + 1) if abs(i - at) >= 2]
            if away and block:
                where = draw(st.sampled_from(away))
                lines = rest[:where] + [ensure_break(line) for line in block] + rest[where:]
        elif kind == "reflow" and lines:
            line = lines[at]
            spaces = [i for i, (ch, _) in enumerate(line) if ch == " "]
            if spaces and draw(st.booleans()):  # a line broken in two at a space
                where = draw(st.sampled_from(spaces))
                lines[at : at + 1] = [line[:where] + [("\n", None)], line[where + 1 :]]
            elif at + 1 < len(lines) and line and line[-1][0] == "\n" and line[-1][1] is not None:
                # two lines joined by a space (not where a split broke one: that would be no change)
                lines[at : at + 2] = [line[:-1] + [(" ", None)] + lines[at + 1]]
        elif kind == "copy" and len(lines) > 4:  # placed at least three lines away
            source = draw(st.integers(0, len(lines) - 1))
            away = [i for i in range(len(lines) + 1) if abs(i - source) >= 3]
            if away and any(origin is not None for _, origin in lines[source]):
                text = "".join(ch for ch, _ in lines[source])
                lines.insert(draw(st.sampled_from(away)), new_text(text if text.endswith("\n") else text + "\n"))
    assert originals
    lines = [ensure_break(line) if i + 1 < len(lines) else line for i, line in enumerate(lines)]
    return old, joined(lines), spans, copies > 0


def survived(new: list[Char], start: int, end: int) -> tuple[int, int] | None:
    """Where the old characters [start, end) are now, when all of them are, together."""
    where = {origin: i for i, (_, origin) in enumerate(new) if origin is not None}
    if start not in where:
        return None
    first = where[start]
    for k in range(end - start):
        if first + k >= len(new) or new[first + k][1] != start + k:
            return None
    return first, first + end - start


def rewritten(old: str, new: list[Char], start: int, end: int, truth: tuple[int, int]) -> bool:
    """Whether an old line holding ``[start, end)``, or a new line holding where it went,
    kept less than 60% of its words: a line mostly rewritten, which the diff may take for a
    line deleted and another inserted."""
    kept = {origin for _, origin in new if origin is not None}
    text = "".join(ch for ch, _ in new)

    def share(words: list[range]) -> float:
        return sum(1 for word in words if all(i in kept for i in word)) / len(words) if words else 1.0

    for position in (start, end - 1):
        line_start, line_end = old.rfind("\n", 0, position) + 1, old.find("\n", position)
        words = [range(m.start(), m.end()) for m in re.finditer(r"\w+", old[: line_end if line_end >= 0 else None])]
        if share([w for w in words if w.start >= line_start]) < 0.6:
            return True
    for position in (truth[0], truth[1] - 1):
        line_start, line_end = text.rfind("\n", 0, position) + 1, text.find("\n", position)
        words = [m for m in re.finditer(r"\w+", text[: line_end if line_end >= 0 else None]) if m.start() >= line_start]
        new_words = [w for w in words if all(new[i][1] is not None for i in range(w.start(), w.end()))]
        if words and len(new_words) < 0.6 * len(words):
            return True
    return False


def session_of(old: str, refs: list[Boundaries]) -> str:
    import json

    annotations = [
        {
            "claim": {"path": "article", "start": {"line": 1, "str": "Claim"}, "end": {"line": 1, "str": "Claim"}},
            "sources": [{**ref.as_json(), "polarity": "supports", "confidence": 0.9}],
        }
        for ref in refs
    ]
    return json.dumps(
        {
            "documents": [{"path": "article", "content": "Claim"}, {"path": "notes", "content": old}],
            "annotations": annotations,
        },
        indent=2,
    )


def origins_in(new: list[Char], begin: int, finish: int) -> list[int | None]:
    return [origin for _, origin in new[begin:finish]]


@settings(max_examples=1000)
@given(drifts())
def test_random_drifts_of_prose_keep_every_surviving_ref_and_never_point_one_at_other_text(drift):
    """Against the reference that knows where every character went: a ref whose characters
    survive together is kept (text appended beside it, a sentence deleted beside it) or, cut
    and pasted, moved; a changed ref's new text holds none of the old text it did not cite (a
    neighbour's), and at least half of its own; after accepting, every kept ref cites exactly
    its text, every edited one exactly that new text, and no deleted one cites anything."""
    old, new_chars, spans, with_copies = drift
    new = "".join(ch for ch, _ in new_chars)
    document = Document("notes", old, ("documents", 1))
    refs = [cite(document, start, end) for start, end in spans]
    refs = [ref for ref in refs if isinstance(ref, Boundaries)]
    analysis = Analysis(session_of(old, refs))
    drifted = plan(analysis, {"notes": FileContent(new), "article": FileContent("Claim")})
    (notes,) = [d for d in drifted.documents if d.document.path == "notes"]
    if old == new:
        assert notes.state == "same"
        return
    moved = Document("notes", new, ("documents", 1))
    for carried in notes.refs:
        start, end = carried.ref.span
        truth = survived(new_chars, start, end)
        if carried.kept:
            # never other text, and where the reference says it went (or on an identical copy of
            # its line, which no diff can tell from it when their order gives no reason to choose)
            assert resolves_to(moved, carried.anchor) == carried.was == old[start:end]
            anchored = carried.anchor
            at = moved.line_starts[anchored.start_line - 1] + moved.lines[anchored.start_line - 1].index(
                anchored.start_str
            )
            if carried.state == "moved" and truth is None:
                # its exact text, once in what the change inserted: docs/rules.md takes it for the place
                # it moved to, whatever the reference knows of its characters
                assert align(old, new).inserted(at, at + len(carried.was))
            elif (truth is None or at != truth[0]) and not with_copies:
                line = moved.lines[anchored.start_line - 1]
                if truth is not None:
                    assert line == moved.lines[moved.line_of_offset(truth[0]) - 1], (carried.was, new)
                else:
                    assert line == old.split("\n")[old.count("\n", 0, start)], (carried.was, new)
            continue
        if truth is not None:
            # still there, but its line was mostly rewritten, or no boundary is unique there now,
            # or a line of it was copied, and the copy stands where the diff aligns that line
            # or its text occurs more than once in what the change inserted (moved with its
            # line, a short text twice there: which one is it?), and the places are listed
            assert (
                carried.reason is not None
                or rewritten(old, new_chars, start, end, truth)
                or with_copies
                or carried.place_count > 1
            ), (carried.was, new)
        if carried.state == "edited" and carried.anchor is not None:
            now = resolves_to(moved, carried.anchor)
            assert now == carried.now
            begin = moved.line_starts[carried.anchor.start_line - 1] + moved.lines[carried.anchor.start_line - 1].index(
                carried.anchor.start_str
            )
            origins = origins_in(new_chars, begin, begin + len(now))
            # none of the old text it did not cite where it still stands: never a neighbour's
            # sentence or line (only a line moved in between, which a diff sees as new; which line
            # break is which, where lines were joined, is the diff's call)
            # (or, where a line was copied, a copy the diff aligned with the line it is much
            # like, and the line itself as what followed it: the diff cannot tell them apart)
            alignment = align(old, new)
            took_a_copy = with_copies and None in origins
            assert took_a_copy or all(
                o is None or start <= o < end or alignment.inserted(begin + i, begin + i + 1) or now[i] == "\n"
                for i, o in enumerate(origins)
            ), (carried.was, now, new)
            own = sum(1 for o in origins if o is not None and not old[o].isspace())
            # and much of its own (or of a copy of its line, which a diff may align instead): half,
            # counted as the diff counts, letters of a word replaced by a word much like it included
            # (a word replaced by one that holds it, "A" by "After", is the diff's call)
            one_word = re.fullmatch(r"\w+", carried.was) is not None
            assert with_copies or one_word or own >= 0.3 * sum(1 for ch in carried.was if not ch.isspace()), (
                carried.was,
                now,
            )
            assert carried.anchor.start_str.strip() and carried.anchor.end_str.strip()  # words, not spaces
    # The session as a sync writes it, accepting: every kept ref still cites its text, every
    # edited one its new text, every deleted one is gone.
    result = synced(drifted, accept=True)
    after = Analysis(result.text(analysis.text))
    assert after.exit_code in (0, 1, 2)
    texts = {after.session.ref_path(ref): ref.text for ref in after.session.refs}
    removed = {o.drift.path for o in result.outcomes if o.action == "source removed"}
    if notes.held:  # an edited ref no boundary can cite: the change is held back, nothing moves
        assert after.text == analysis.text
        return
    for carried in notes.refs:
        path = carried.path
        if carried.kept:
            assert texts[path] == carried.was
        elif carried.state == "edited" and carried.anchor is not None:
            assert texts[path] == carried.now
        elif carried.state == "deleted":
            assert path in removed and path not in texts  # its annotation's only source: removed
        else:
            raise AssertionError(carried)


def carried_alone(old: str, new: str, start: int, end: int):
    """What sync makes of the one ref citing ``old[start:end]`` when its document becomes ``new``."""
    document = Document("notes", old, ("documents", 1))
    ref = cite(document, start, end)
    assert isinstance(ref, Boundaries)
    drifted = plan(Analysis(session_of(old, [ref])), {"notes": FileContent(new), "article": FileContent("Claim")})
    (notes,) = [d for d in drifted.documents if d.document.path == "notes"]
    (carried,) = notes.refs
    return carried


def test_lines_align_as_a_diff_does_and_words_within_a_changed_line():
    old = "alpha beta\nthe flag is optional for new projects\nepsilon\n"
    new = "intro\nalpha beta\nthe flag is required for new projects\nepsilon\n"
    alignment = align(old, new)
    assert alignment.moved(0, 10) == (6, 16)  # "alpha beta", one line down
    assert alignment.moved(11, 22) == (17, 28)  # "the flag is" survives the edit of its line
    assert alignment.moved(11, 31) is None  # "the flag is optional" does not
    # what stands where "the flag is optional for new projects" stood: that text, edited
    assert new[slice(*aligned_text(alignment, old, new, 11, 48))] == "the flag is required for new projects"
    assert aligned_text(alignment, old, new, 23, 31) is None  # "optional" alone: nothing of it is left


def test_a_ref_from_an_edited_line_into_the_next_survives_a_deletion_just_before_it():
    """A line deleted and the next one edited (one run of changed lines, ending with the edited
    one): the line break after the edited line is aligned too, so a ref running from its
    unedited words over the break into the next line is kept, not reported changed to itself."""
    old = (
        "For reference resolution, content is interpreted as ordered lines.\n"
        "A ref identifies an exact text span inside a document.\n"
        '  "start": { "line": 1, "str": "I" },\n'
        '  "end": { "line": 1, "str": "T" }\n'
    )
    new = (
        "After reference resolution, content is interpreted as ordered lines.\n"
        '  "After": { "line": 1, "str": "I" },\n'
        '  "end": { "line": 1, "str": "T" }\n'
    )
    start, end = old.index("line", old.index('"start"')), old.index("end", old.index('"start"')) + 3
    moved = (new.index("line", new.index('"After"')), new.index("end", new.index('"After"')) + 3)
    assert align(old, new).moved(start, end) == moved
    carried = carried_alone(old, new, start, end)
    assert carried.state == "kept" and (carried.anchor.start_line, carried.anchor.end_line) == (2, 3)


def test_a_line_rewritten_whole_lends_none_of_its_words():
    old = "Intro.\nThe report was published in March by the agency.\nEnd.\n"
    new = "Intro.\nThe agency says the numbers are final.\nEnd.\n"
    alignment = align(old, new)
    start = old.index("agency")
    assert alignment.moved(start, start + len("agency")) is None


def test_a_deleted_line_lends_no_word_to_a_moved_line_on_the_strength_of_words_let_go():
    """Found by a random drift: two lines deleted while three others moved above the rest. The
    deleted ``... of `start.str` on `start.line``` shares ``the span`` with one moved line and
    `` `start.str` ... `start.line` `` with another; together they were half its words, so it
    counted as reflowed into both, though the first pair was let go (a few words of a long
    line). Its ref to ``start`` was then kept on ``2. find `start.str` ...``, another
    sentence. Only words aligned in pairs that hold count for a line's share."""
    old = (
        "- the span starts at the first character of `start.str` on `start.line`\n"
        "- the span ends at the last character of `end.str` on `end.line`\n"
        "- the resolved span includes both boundary strings\n"
        "1. look up the document in the current session by path\n"
        "2. find `start.str` within `start.line`\n"
        "3. find `end.str` within `end.line`\n"
        "4. extract the span from the start boundary to the end boundary, inclusive\n"
    )
    new = (
        "3. find `end.str` within `end.line`\n"
        "4. extract the span from the start boundary to the end boundary, inclusive\n"
        "2. find `start.str` within `start.line`\n"
        "- the resolved span includes both boundary strings\n"
        "1. look up the document in the current session by path\n"
    )
    start = old.index("start.str")
    assert align(old, new).moved(start, start + len("start")) is None
    carried = carried_alone(old, new, start, start + len("start"))
    assert not carried.kept and carried.anchor is None
    assert carried.place_count == 3  # "start" three times in the lines the change inserted, listed


def steps_taken(old: str, new: str) -> int:
    from sourcecheck.core.align import BUDGET, Budget

    budget = Budget()
    align(old, new, budget)
    return BUDGET - budget.left


@pytest.mark.parametrize(
    "old, new",
    [
        ("a " * 32_000, ("a " * 32_000)[:20_000] + "b " + ("a " * 32_000)[20_002:]),  # one word changed
        ("a b " * 16_000, "b a " * 16_000),  # shifted by a word
        ("abab" * 500_000, "ababX" * 400_000),  # a 2 MB line of a short repeat
        ("\n".join(["a"] * 30_000), "\n".join("b" if i % 7 == 0 else "a" for i in range(30_000))),
    ],
    ids=["one-word-in-64KB-of-a", "ab-vs-ba", "abab-2MB", "30000-lines-of-a"],
)
def test_pathological_alignments_are_bounded_and_still_keep_only_what_survives(old, new):
    """`SequenceMatcher(autojunk=False)` took 111 s on the first (54 s on the second): each is
    now within the budget (a few million steps, about a second at worst), and what it keeps
    cites its text."""
    from sourcecheck.core.align import BUDGET

    assert steps_taken(old, new) <= BUDGET
    alignment = align(old, new)
    for a, b, n in alignment.runs:
        assert old[a : a + n] == new[b : b + n]
    document = Document("notes", old, ("documents", 1))
    start = old.index("a", len(old) // 3)
    ref = cite(document, start, start + 1)
    if isinstance(ref, Boundaries):
        analysis = Analysis(session_of(old, [ref]))
        drifted = plan(analysis, {"notes": FileContent(new), "article": FileContent("Claim")})
        (notes,) = [d for d in drifted.documents if d.document.path == "notes"]
        moved = Document("notes", new, ("documents", 1))
        for carried in notes.refs:
            if carried.kept:
                assert resolves_to(moved, carried.anchor) == carried.was


def test_a_ref_half_in_a_deleted_sentence_keeps_its_surviving_words_not_the_period_before():
    """The text from a sentence to the middle of the next line deleted (the lines joined), a
    ref running from the deleted sentence's end into the next one: what is left is the next
    sentence's words, not the period of the sentence before, which the diff may take for the
    deleted sentence's own."""
    old = (
        "- `claim` is a ref. It points at the span of text being annotated.\n"
        "- `sources` is a non-empty list of source refs. Each entry is a regular ref plus two fields:\n"
    )
    new = "- `claim` is a ref. Each entry is a regular ref plus two fields:\n"  # found by a random drift
    start = old.index("of source refs.")
    end = old.index("Each entry is") + len("Each entry is")
    carried = carried_alone(old, new, start, end)
    assert carried.state == "edited" and carried.now == "Each entry is"

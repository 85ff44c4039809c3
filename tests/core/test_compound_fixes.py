"""Refs with the mistakes models make, repaired as a whole (core/placing.py, core/nearmiss.py):
two mistakes in one ref get one fix; a boundary moved to another line takes the whole ref
with it; re-punctuation, a period for the line's own ``!``, markup and word boundaries as a
person reads them. The corpus (tests/support/mistakes.py, over real prose) holds the numbers
the issue asks for: 9 of 10 compound mistakes repaired to the meant text, none to other text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.fixes import fix_of, fixed
from tests.support.helpers import claim, session, source
from tests.support.mistakes import COMPOUND, cited, corpus

PROSE = (Path(__file__).parent / "data" / "agent_prose.md").read_text(encoding="utf-8")
LINES = PROSE.split("\n")


def prose_session(start: tuple[int, str], end: tuple[int, str], content: str = PROSE) -> str:
    documents = [{"path": "rich.md", "content": content}, {"path": "claim.md", "content": "A claim here.\n"}]
    annotation = {
        "claim": claim("claim.md", (1, "A claim"), (1, "here.")),
        "sources": [source("rich.md", start, end)],
    }
    return json.dumps(session([annotation], documents), ensure_ascii=False, indent=2)


def fixes(text: str) -> list[tuple[str, str]]:
    """(applicability, title) of every fix and suggestion the findings carry."""
    analysis = Analysis(text)
    found = []
    for finding in analysis.findings:
        fix, suggestions = fix_of(analysis, finding)
        found += [(each.applicability, each.title) for each in ([fix] if fix else []) + suggestions]
    return found


def source_after_fixing(text: str) -> str | None:
    """What the source cites once every fix, unsafe too, is applied."""
    return cited(fixed(text, unsafe=True).text)[("annotations", 0, "sources", 0)]


def test_the_lines_used_here_are_the_prose_file_s():
    assert LINES[2].startswith("Rich works with Linux, macOS and Windows.")
    assert LINES[4].startswith("Rich is pure Python; the optional C-extensions")


# --- moving a boundary takes the whole ref ----------------------------------------------------


def test_a_start_that_resolves_by_chance_on_the_wrong_line_moves_with_its_end():
    # Meant: line 3; written on line 1, where its start is too: "Move end to line 3" would cite
    # three lines.
    content = "Rich works with Linux.\nIt is fast.\nRich works on Windows, no configuration required.\n"
    text = prose_session((1, "Rich works"), (1, "no configuration required."), content)
    assert fixes(text) == [
        ("unsafe", 'Move the ref to line 3 (2 down): cites "Rich works on Windows, no configuration required."')
    ]
    assert source_after_fixing(text) == content.split("\n")[2]


def test_a_start_too_short_to_tell_where_it_is_is_not_moved_and_the_end_not_moved_alone():
    text = prose_session((3, "Rich"), (3, "fast on CPython."))  # "Rich" is on lines 3 and 5
    assert fixes(text) == []


def test_an_end_on_the_next_line_is_moved_alone_when_the_start_is_not_on_that_line():
    text = prose_session((3, "Rich works"), (3, "configuration required."))
    ((applicability, title),) = fixes(text)
    assert applicability == "unsafe" and title.startswith("Move end to line 4")
    assert "cites" in title and title.endswith('no configuration required."')  # both ends of the text


# --- two mistakes in one ref --------------------------------------------------------------------


def test_a_line_off_and_a_string_re_cased_get_one_fix_that_repairs_both():
    text = prose_session((17, "a table sizes"), (17, "WORD BOUNDARIES."))
    ((applicability, title),) = fixes(text)
    assert applicability == "unsafe"
    assert title == (
        'Move start to line 19 as "A table sizes" and end to line 19 as "word boundaries.": '
        'cites "A table sizes its columns … cells at word boundaries."'
    )
    assert source_after_fixing(text) == LINES[18]


def test_a_line_off_by_four_is_found_nearest_first():
    text = prose_session((19, "Spinners come"), (19, "among others."))
    assert source_after_fixing(text) == LINES[22]


# --- re-punctuation, periods, markup, words --------------------------------------------------


@pytest.mark.parametrize(
    "written, meant, why",
    [
        ("the optional C extensions", "the optional C-extensions", "a dash (-) where `str` has a space"),
        ("Rich strips the styles -- the", "Rich strips the styles — the", "a dash (—) where `str` has --"),
        ("Linux macOS and", "Linux, macOS and", "a comma where `str` has none"),
    ],
)
def test_re_punctuation_is_a_near_miss_said_and_fixed_as_a_guess(written, meant, why):
    number = next(i for i, line in enumerate(LINES, 1) if meant in line)
    text = prose_session((number, written), (number, LINES[number - 1].split()[-1]))
    (message,) = [f.message for f in Analysis(text).findings]
    assert f'but `"{meant}"` does: the line has {why}. Write `"{meant}"`' in message
    ((applicability, title),) = fixes(text)
    assert applicability == "unsafe" and title.startswith(f'Write "{meant}", the line\'s exact text')


@pytest.mark.parametrize(
    "end, meant",
    [("-- omit", "— omit"), ("technical, post.", "technical post.")],
)
def test_re_punctuation_gives_one_fix_not_one_per_space_or_period_around_it(end, meant):
    content = "A claim is unsourced — omit it.\nA named-author technical post.\n"
    number = 1 if "omit" in end else 2
    text = prose_session((number, "A"), (number, end), content)
    assert [title.split(",")[0] for _, title in fixes(text)] == [f'Write "{meant}"']


def test_a_period_written_for_the_line_s_exclamation_mark_or_colon_keeps_it():
    text = prose_session((13, "The width"), (13, "window is resized."))
    assert fixes(text) == [
        (
            "unsafe",
            'Write "window is resized!", the line\'s exact text: cites "The width of a console is … when the '
            'window is resized!"',
        )
    ]
    text = prose_session((4, "Installation is"), (4, "one command."))
    assert source_after_fixing(text) == "Installation is one command:"


def test_a_suggestion_never_starts_inside_a_word():
    content = "This is the first line, as it is.\n"
    text = prose_session((1, "IS THE"), (1, "as it is."), content)
    ((_, title),) = fixes(text)
    assert title.startswith('Write "is the", the line\'s exact text')
    text = prose_session((1, "Is"), (1, "line,"), content)
    assert all('"is' not in title or "This" in title for _, title in fixes(text)) and source_after_fixing(text) in (
        None,
        "is the first line,",
    )


def test_a_markup_fix_takes_in_the_markup_it_would_start_inside():
    content = "Say **bold words** here and `code spans` there.\n"
    text = prose_session((1, "bold words here"), (1, "there."), content)
    ((_, title),) = fixes(text)
    assert title.startswith('Write "**bold words** here"')
    assert source_after_fixing(text) == "**bold words** here and `code spans` there."


# --- messages keep their promises --------------------------------------------------------------

CORPUS = corpus(30)


def test_every_message_that_promises_suggestions_carries_them():
    for text, _, _ in CORPUS:
        analysis = Analysis(text)
        for finding in analysis.findings:
            if "suggested fix" in finding.message:
                fix, suggestions = fix_of(analysis, finding)
                assert fix is None and len(suggestions) > 1, finding.message


def test_a_reversed_ref_with_two_repairs_says_both_and_carries_both_as_suggestions():
    text = prose_session((3, "one"), (2, "four"), "one two\nthree four\none four\n")
    analysis = Analysis(text)
    (finding,) = analysis.findings
    assert finding.message == (
        "`start.line` 3 comes after `end.line` 2; a ref runs forward: swap the start and end boundaries (their "
        "lines and strings) or write 3 for `end.line`, as meant (each is a suggested fix)"
    )
    fix, suggestions = fix_of(analysis, finding)
    assert fix is None
    assert [each.title for each in suggestions] == [
        'Swap the start and end boundaries: cites "four\\none"',
        'Write 3 for `end.line`: cites "one four"',
    ]


# --- the corpus -----------------------------------------------------------------------------------


def repaired(made: list[tuple[str, Any, dict[tuple[Any, ...], str | None]]]) -> tuple[int, int, list[Any]]:
    """(compound mistakes repaired to the meant text, compound mistakes, refs citing other text)."""
    right = total = 0
    wrong = []
    for text, broken, meant in made:
        now = cited(fixed(text, unsafe=True).text)
        wrong += [(pointer, was, now[pointer]) for pointer, was in meant.items() if now[pointer] not in (None, was)]
        for each in broken:
            if each.kind in COMPOUND:
                total += 1
                right += now[each.pointer] == each.meant
    return right, total, wrong


def test_unsafe_fixes_repair_nine_of_ten_compound_mistakes_and_never_cite_other_text():
    right, total, wrong = repaired(CORPUS)
    assert total >= 30
    assert right >= 0.9 * total, (right, total)
    assert wrong == []

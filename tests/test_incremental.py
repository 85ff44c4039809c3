"""Incremental checking gives exactly what checking the final text from scratch gives."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sourcecheck.analysis import Analysis
from sourcecheck.positions import Encoding, LineTable

from sessiongen import generate

PIECES = ["x", "", '"', "\\", "{", "}", ",", "\n", "\r\n", "中", "🚀", " ", "e", "1", ":", "the", "\\n", "\\u00e9"]


def fingerprint(analysis: Analysis):
    return (
        [(f.code, f.pointer, f.message, analysis.extent(f), analysis.finding_span(f, Encoding.UTF16)) for f in analysis.findings],
        [(r.json_path, r.valid, r.text) for r in analysis.session.refs],
        analysis.lines.starts,
    )


def random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    roll = rng.random()
    if roll < 0.6:  # inside a string value, as when typing in a ref or in content
        at = text.find('"str": "', rng.randrange(len(text)))
        at = at + 8 if at >= 0 else rng.randrange(len(text))
    elif roll < 0.7:
        at = text.find('"content": "', rng.randrange(len(text)))
        at = at + 15 if at >= 0 else rng.randrange(len(text))
    else:
        at = rng.randrange(len(text) + 1)
    end = min(len(text), at + rng.choice([0, 0, 0, 1, 2, 5]))
    return at, end, rng.choice(PIECES)


def run_edits(seed: int, steps: int, analyse_every: int = 1) -> None:
    rng = random.Random(seed)
    text = generate(seed, documents=2, lines=8, annotations=10, broken=0.3).text(indent=rng.choice([None, 1, 2]))
    analysis = Analysis(text)
    analysis.findings and analysis.finding_span(analysis.findings[0])  # build the line table, as the server does
    for step in range(steps):
        start, end, inserted = random_edit(rng, text)
        text = text[:start] + inserted + text[end:]
        analysis = Analysis(text, analysis, (start, end, inserted), lines=analysis.lines.patched(text, start, end, inserted))
        if step % analyse_every == 0:
            assert fingerprint(analysis) == fingerprint(Analysis(text)), (seed, step)


def test_random_edit_sequences_match_a_full_recheck():
    for seed in range(30):
        run_edits(seed, 40)


@given(st.integers(0, 10_000))
@settings(max_examples=40, deadline=None)
def test_random_edit_sequences_match_a_full_recheck_hypothesis(seed):
    run_edits(seed, 15)


@given(st.text(alphabet=st.sampled_from(list("ab\n\r中🚀")), max_size=40), st.data())
def test_a_patched_line_table_equals_a_fresh_one(text, data):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    inserted = data.draw(st.text(alphabet=st.sampled_from(list("xy\n\r🚀")), max_size=4))
    table = LineTable(text)
    new = text[:start] + inserted + text[end:]
    assert table.patched(new, start, end, inserted).starts == LineTable(new).starts


def test_columns_on_very_long_lines_use_checkpoints_and_stay_exact():
    line = "".join(random.Random(1).choice(["a", "中", "🚀", "é"]) for _ in range(20_000))
    table = LineTable("x\n" + line + "\ny")
    for offset in [2, 3, 2050, 4097, 12_345, 20_001]:
        for encoding in Encoding:
            expected = len(line[: offset - 2].encode({"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}[encoding.value])) // {"utf-8": 1, "utf-16": 2, "utf-32": 4}[encoding.value]
            assert table.position(offset, encoding).character == expected


def test_offsets_on_very_long_lines_round_trip_through_checkpoints():
    line = "".join(random.Random(2).choice(["a", "中", "🚀", "é"]) for _ in range(20_000))
    table = LineTable("x\n" + line + "\ny")
    for offset in range(2, 20_002, 997):
        for encoding in Encoding:
            assert table.offset(table.position(offset, encoding), encoding) == offset

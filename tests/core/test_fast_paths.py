"""Every registered fast path (core/fastpaths.py) gives what its careful twin gives: with each
flag off, and with all of them off, an analysis has the same findings (code, pointer, message,
extent, range), refs (path, validity, span, text), verdicts and uncited text as with all on;
over the fixtures and generated sessions, broken and clean, opened whole and then edited as a
writer edits (typing in strings, an annotation pasted, one deleted)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.sessiongen import generate
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.fastpaths import ALL, NAMES, NONE, FastPaths
from sourcecheck.core.positions import Encoding
from sourcecheck.core.text import Text
from tests.core.test_incremental import TYPING, random_edit

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").rglob("*.json"))
VARIANTS = {**{f"without {name}": ALL.without(name) for name in NAMES}, "none": NONE}


def fingerprint(analysis: Analysis) -> tuple:
    summary = analysis.summary
    return (
        [
            (f.code, f.pointer, f.message, analysis.extent(f), analysis.finding_span(f, Encoding.UTF16))
            for f in analysis.findings
        ],
        [(analysis.session.ref_path(r), r.valid, r.span, r.text) for r in analysis.session.refs],
        [(v.path, v.verdict, v.supports, v.refutes, v.support_strength, v.refute_strength) for v in summary.verdicts],
        [(c.document.path, [(run.start, run.end) for run in c.runs]) for c in summary.coverage],
    )


def sessions() -> list[tuple[str, str]]:
    found = [(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")) for path in FIXTURES]
    for seed in range(6):
        generated = generate(seed, documents=3, lines=12, annotations=25, broken=0.3 if seed % 2 else 0.0)
        found.append((f"generated {seed}", generated.text(indent=[None, 2, 4][seed % 3])))
    return found


SESSIONS = sessions()


def test_the_flags_are_the_registry_and_all_are_on_by_default():
    assert NAMES == tuple(name for name in FastPaths.__dataclass_fields__)
    assert all(getattr(ALL, name) for name in NAMES) and not any(getattr(NONE, name) for name in NAMES)
    assert Analysis("{}").fast == ALL


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_session_opened_whole_is_analysed_alike_with_a_fast_path_off(variant):
    fast = VARIANTS[variant]
    for name, text in SESSIONS:
        assert fingerprint(Analysis(text, fast=fast)) == fingerprint(Analysis(text)), name


def test_the_careful_twins_are_taken_when_asked():
    """Not a flag that changes nothing: off, each takes its twin (seen in what the analysis holds)."""
    text = SESSIONS[-2][1]
    lazy, parsed = Analysis(text).tree.root, Analysis(text, fast=ALL.without("lazy_items")).tree.root
    assert type(lazy.members[1].value.items[0]).__name__ == "JLazy"
    assert type(parsed.members[1].value.items[0]).__name__ == "JObject"
    previous = Analysis(text)
    at = text.index('"str": "') + len('"str": "')
    edited = text[:at] + "x" + text[at:]
    assert Analysis.incremental(Text(edited), previous, (at, at, "x")) is not None
    careful = Analysis(text, fast=ALL.without("incremental_parse"))
    assert Analysis.incremental(Text(edited), careful, (at, at, "x")) is None  # parsed again whole


def edited_fingerprints(seed: int, fast: FastPaths, steps: int = 25) -> list[tuple]:
    """The fingerprint after each of ``steps`` edits, analysed as the server does (from the
    previous analysis when the edit allows it), with ``fast``."""
    rng = random.Random(seed)
    text = generate(seed, documents=2, lines=8, annotations=12, broken=0.3 if seed % 2 else 0.0).text(indent=2)
    analysis = Analysis(text, fast=fast)
    source = Text(text)
    found = []
    for step in range(steps):
        if step % 7 == 3:  # an annotation cut (or pasted back after the first)
            items = [i for i in range(len(text)) if text.startswith('\n    {\n      "claim"', i)]
            start = items[rng.randrange(len(items))] if items else 0
            end = text.find("\n    }", start) + len("\n    },") if items else 0
            if text[end - 1 : end] != ",":
                start = end = 0
            inserted = ""
        else:
            start, end, inserted = random_edit(rng, text, TYPING)
        text = text[:start] + inserted + text[end:]
        source = source.edited(start, end, inserted)
        analysis = Analysis.incremental(source, analysis, (start, end, inserted)) or Analysis(source, fast=fast)
        found.append(fingerprint(analysis))
    return found


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_session_edited_is_analysed_alike_with_a_fast_path_off(variant, seed):
    assert edited_fingerprints(seed, VARIANTS[variant]) == edited_fingerprints(seed, ALL)

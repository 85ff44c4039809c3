"""Fuzzing the real server over stdio: random edits must never crash it, stall it, or leave
it disagreeing with a fresh check of the text.

Fixed seed and about a minute in CI; longer runs:
    SOURCECHECK_FUZZ_EDITS=20000 SOURCECHECK_FUZZ_SEED=7 pytest tests/test_fuzz.py
"""

import os
import random

from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.positions import Encoding
from tests.support.lsp_support import FIXTURES

EDITS = int(os.environ.get("SOURCECHECK_FUZZ_EDITS", "1500"))
SEED = int(os.environ.get("SOURCECHECK_FUZZ_SEED", "20261129"))
PIECES = list('{}[]:,"\\ \n\r\t0123456789-.eE') + [
    "\\n",
    '\\"',
    "\\\\",
    "\\u00e9",
    "\\ud83d\\ude80",
    "\\ud800",
    "\\u0000",
    "\ud800",
    "\udfff",
    "中文",
    "🚀",
    "\x00",
    "\x07",
    "\x1b",
    "\u2028",
    "\u2029",
    "\u202e",
    "true",
    "null",
    "NaN",
    "//",
    "/*",
    '"str": "',
    '"line": ',
    "é\u0301",
]
SESSIONS = [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.rglob("*.json"))]


def random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    start, end, inserted = _random_edit(rng, text)
    return _snap(text, start), _snap(text, end), inserted


def _snap(text: str, offset: int) -> int:
    """An editor cannot point between the \r and \n of a line break."""
    return offset + 1 if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n" else offset


def _random_edit(rng: random.Random, text: str) -> tuple[int, int, str]:
    roll = rng.random()
    at = rng.randrange(len(text) + 1)
    if roll < 0.45:
        return at, at, "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3)))
    if roll < 0.8:
        return at, min(len(text), at + rng.randint(1, 8)), ""
    if roll < 0.88:
        return at, len(text), ""  # truncation
    if roll < 0.96:
        return at, at, rng.choice(SESSIONS)  # pasting a whole other session
    return 0, len(text), rng.choice(SESSIONS)


def expected(editor, text):
    analysis = Analysis(text)
    encoding = Encoding(editor.encoding)
    spans = [analysis.finding_span(f, encoding) for f in analysis.findings[:1000]]
    return sorted(
        (f.code, s.start.line, s.start.character, s.end.line, s.end.character)
        for f, s in zip(analysis.findings[:1000], spans, strict=True)
    )


def seen(diagnostics):
    return sorted(
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
        for d in diagnostics
        if d.code != "too-many-findings"
    )


async def test_random_edits_never_break_the_server(editor, client):
    rng = random.Random(f"{SEED}-{editor.encoding}")
    uri = "file:///fuzz.sourcecheck.json"
    editor.open(uri, SESSIONS[0])
    for step in range(EDITS):
        text = editor.texts[uri]
        if len(text) > 60_000:
            editor.replace_all(uri, rng.choice(SESSIONS))
        else:
            editor.edit(uri, *random_edit(rng, text))
        diagnostics = await editor.diagnostics(uri)  # every version is answered
        if step % 25 == 0 or step == EDITS - 1:
            assert seen(diagnostics) == expected(editor, editor.texts[uri]), f"seed {SEED}, step {step}"
            hover = await editor.hover(uri, rng.randrange(len(editor.texts[uri]) + 1))
            assert hover is None or hover.contents.value
    errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error]
    assert errors == [], errors[:3]

"""``--json`` says how it counts columns, and ``--position-encoding`` chooses: every range and
every edit, in UTF-8, UTF-16 or UTF-32 (as LSP names them), means the same text (issue 37:
edits applied by code point corrupted a line with an emoji)."""

from __future__ import annotations

import io
import json
import sys
from unittest import mock

import pytest

from sourcecheck import check
from sourcecheck.cli.main import main

# Emoji (two UTF-16 units, four bytes), CJK (three bytes) and an accent before each fix.
SESSION = (
    '{"documents": [{"path": "é😀", "content": "😀 数据 The outcome was positive."}, '
    '{"path": "b", "content": "Seen 😀 here."}],\n'
    ' "annotations": [{"😀": 1, "claim": {"path": "é😀", "start": {"line": 1, "str": "OUTCOME"}, '
    '"end": {"line": 1, "str": "positive"}}, "sources": [{"path": "b", "start": {"line": 1, "str": "Seen"}, '
    '"end": {"line": 1, "str": "here."}, "polarity": "support", "confidence": "0.9"}]}]}\n'
)


def offset(text: str, line: int, character: int, encoding: str) -> int:
    """The code point offset of a position counted in ``encoding``."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    line_text = text[starts[line] :].split("\n")[0]
    if encoding == "utf-32":
        return starts[line] + character
    codec, width = ("utf-8", 1) if encoding == "utf-8" else ("utf-16-le", 2)
    return starts[line] + len(line_text.encode(codec)[: character * width].decode(codec))


def applied(text: str, edits: list[dict], encoding: str) -> str:
    spans = [
        (offset(text, **e["range"]["start"], encoding=encoding), offset(text, **e["range"]["end"], encoding=encoding))
        for e in edits
    ]
    for (start, end), edit in sorted(zip(spans, edits, strict=True), key=lambda pair: pair[0], reverse=True):
        text = text[:start] + edit["content"] + text[end:]
    return text


def run_json(*args: str) -> dict:
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    with mock.patch.object(sys, "stdout", out), mock.patch.object(sys, "stderr", io.StringIO()):
        main(list(args))
    out.flush()
    return json.loads(out.buffer.getvalue())  # type: ignore[attr-defined]


@pytest.fixture
def session_file(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(SESSION, encoding="utf-8")
    return str(path)


def test_json_says_its_position_encoding_utf16_by_default(session_file):
    found = run_json("--json", session_file)
    assert found["position_encoding"] == "utf-16"
    assert check(SESSION).to_json()["position_encoding"] == "utf-16"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_every_range_and_edit_means_the_same_text_in_each_encoding(session_file, encoding):
    found = run_json("--json", "--position-encoding", encoding, session_file)
    assert found["position_encoding"] == encoding
    reference = run_json("--json", session_file)
    fixes = 0
    for finding, same in zip(found["findings"], reference["findings"], strict=True):
        rng = finding["range"]
        start = offset(SESSION, **rng["start"], encoding=encoding)
        end = offset(SESSION, **rng["end"], encoding=encoding)
        ref_start = offset(SESSION, **same["range"]["start"], encoding="utf-16")
        ref_end = offset(SESSION, **same["range"]["end"], encoding="utf-16")
        assert (start, end) == (ref_start, ref_end) and end > start
        if "fix" in finding:
            fixes += 1
            assert applied(SESSION, finding["fix"]["edits"], encoding) == applied(
                SESSION, same["fix"]["edits"], "utf-16"
            )
    assert fixes >= 3  # the claim's case, the polarity, the confidence
    if encoding != "utf-16":  # the columns do differ: something after an emoji on the line
        assert [f["range"] for f in found["findings"]] != [f["range"] for f in reference["findings"]]


def test_a_wrong_position_encoding_is_refused(session_file, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--json", "--position-encoding", "utf16", session_file])
    assert stop.value.code == 2 and "utf-8" in capsys.readouterr().err

"""Positions in every encoding a client may negotiate, through CJK, emoji, escapes and odd line breaks."""

import json

import pytest
from pytest_lsp import client_capabilities

from sourcecheck.core.analysis import Analysis
from tests.support.lsp_support import started, value_at

CLIENTS = {"visual-studio-code": "utf-16", "neovim@v0.11": "utf-8", "emacs": "utf-32"}


def tricky_session(newline: str) -> str:
    """A session whose lines hold wide, astral and escaped characters before the values."""
    content = '🚀🚀 中文 \u2028 said "x" and é\u0301 then 😬 said'
    value = {
        "documents": [{"path": "文档🚀", "content": content}, {"path": "e", "content": "ok"}],
        "annotations": [
            {
                "claim": {"path": "文档🚀", "start": {"line": 1, "str": "said"}, "end": {"line": 1, "str": "😬"}},
                "sources": [
                    {
                        "path": "e",
                        "start": {"line": 1, "str": "ok"},
                        "end": {"line": 1, "str": "ok"},
                        "polarity": "supports",
                        "confidence": 0.1,
                    }
                ],
            }
        ],
    }
    text = json.dumps(value, ensure_ascii=False, indent=1)
    # Some strings written with escapes, one raw U+2028 kept raw (legal inside a JSON string).
    text = text.replace("é", "\\u00e9").replace('\\"x\\"', '\\"\\u0078\\"')
    return text.replace("\n", newline)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("profile", list(CLIENTS))
async def test_ranges_are_exact_in_the_negotiated_encoding(profile, newline):
    async with started(client_capabilities(profile)) as editor:
        assert editor.encoding == CLIENTS[profile]
        uri = "file:///tricky.sourcecheck.json"
        text = tricky_session(newline)
        assert "\u2028" in text
        editor.open(uri, text)
        diagnostics = await editor.diagnostics(uri)
        assert sorted(d.code for d in diagnostics) == ["boundary-ambiguous", "low-confidence"]
        root = json.loads(text)
        for diagnostic, finding in zip(diagnostics, Analysis(text).findings, strict=True):
            assert json.loads(editor.range_text(uri, diagnostic.range)) == value_at(root, finding.pointer)
        (ambiguous,) = [d for d in diagnostics if d.code == "boundary-ambiguous"]
        for info in ambiguous.related_information:
            assert editor.range_text(uri, info.location.range) == "said"
        # An edit on the line after the raw U+2028 lands where the client means it.
        at = text.index('"said"', text.index("annotations")) + 1
        editor.edit(uri, at, at + 4, "then")
        diagnostics = await editor.diagnostics(uri)
        assert sorted(d.code for d in diagnostics) == ["low-confidence"]
        hover = await editor.hover(uri, at + 2)
        assert "then 😬" in hover.contents.value
        assert editor.range_text(uri, hover.range) == '"then"'


@pytest.mark.parametrize("profile", list(CLIENTS))
async def test_incremental_edits_after_astral_characters_stay_in_step(profile):
    async with started(client_capabilities(profile)) as editor:
        uri = "file:///steps.sourcecheck.json"
        text = tricky_session("\n")
        editor.open(uri, text)
        # Type a character at many places, then delete it: the server's text must track ours.
        places = [i for i in range(0, len(text), 37)]
        for at in reversed(places):
            editor.edit(uri, at, at, "🚀")
        for at in places:
            editor.edit(uri, at, at + 1, "")
        assert editor.texts[uri] == text
        diagnostics = await editor.diagnostics(uri)
        assert sorted(d.code for d in diagnostics) == ["boundary-ambiguous", "low-confidence"]

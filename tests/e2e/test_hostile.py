"""Hostile and broken input: each gets its expected finding or message, never a traceback,
a hang or a crash, in the CLI or the server."""

import json
import subprocess
import sys
import time

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from sourcecheck.core.analysis import Analysis
from tests.support.helpers import claim, session, source
from tests.support.lsp_support import session_text, single_claim, started


def cli(*args, stdin=None):
    result = subprocess.run(
        [sys.executable, "-m", "sourcecheck", *map(str, args)], input=stdin, capture_output=True, timeout=300
    )
    assert b"Traceback" not in result.stderr, result.stderr.decode()[-2000:]
    return result


def codes(text):
    return [(f.code, f.pointer) for f in Analysis(text).findings]


def test_deep_nesting_is_one_clear_finding():
    text = '{"documents": [], "annotations": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    result = cli("--json", "-", stdin=text.encode())
    payload = json.loads(result.stdout)
    assert payload["exit_code"] == 2
    assert sorted(f["code"] for f in payload["findings"]) == ["invalid-field", "invalid-json"]
    (deep,) = [f for f in payload["findings"] if f["code"] == "invalid-json"]
    assert "nested more than 256 levels" in deep["message"]


def test_a_one_megabyte_single_line_session_is_checked():
    content = ("lorem ipsum 中文 🚀 " * 60_000) + "needle"
    documents = [
        {"path": "big", "content": content},
        {"path": "report", "content": "Summary\nThe outcome of the trial was positive."},
    ]
    text = json.dumps(
        session([{"claim": claim("big", (1, "needle"), (1, "needle")), "sources": [source()]}], documents)
    )
    assert "\n" not in text and len(text) > 1_000_000
    began = time.perf_counter()
    result = cli("--json", "-", stdin=text.encode())
    assert result.returncode == 0 and time.perf_counter() - began < 30
    assert json.loads(result.stdout)["refs"][0]["text"] == "needle"


def test_many_tiny_annotations_are_all_reported_by_the_cli():
    text = '{"documents": [], "annotations": [' + ",".join(["0"] * 100_000) + "]}"
    result = cli("--format", "github", "-", stdin=text.encode())
    assert result.returncode == 2
    assert result.stdout.count(b"::error ") == 100_000


def test_lone_surrogates_nul_and_control_characters():
    content = "a\ud800b \x00 c\x07d"
    documents = [
        {"path": "s", "content": content},
        {"path": "report", "content": "Summary\nThe outcome of the trial was positive."},
    ]
    text = json.dumps(session([{"claim": claim("s", (1, "\ud800"), (1, "\x07d")), "sources": [source()]}], documents))
    analysis = Analysis(text)  # every odd character is escaped, as JSON requires
    assert analysis.findings == []
    assert analysis.session.refs[0].text == "\ud800b \x00 c\x07d"
    raw = text.replace("\\u0007", "\x07")  # a raw control character inside a string is not JSON
    assert ("invalid-json", "") in codes(raw)
    assert cli("-", stdin=text.encode()).returncode == 0


@pytest.mark.parametrize(
    "replace, expected",
    [
        (('"confidence": 0.9', '"confidence": 1e999'), [("bad-confidence", "/annotations/0/sources/0/confidence")]),
        (('"confidence": 0.9', '"confidence": 0.30000000000000004'), []),
        (('"confidence": 0.9', '"confidence": -0'), [("low-confidence", "/annotations/0/sources/0/confidence")]),
        (('"line": 1', '"line": -0'), [("line-out-of-range", "/annotations/0/claim/start/line")]),
        (('"path": "article"', '"pa\\u0074h": "\\u0061rticle"'), []),
        (('"line": 1', '"line": 1e0'), [("invalid-field", "/annotations/0/claim/start/line")]),
    ],
)
def test_odd_numbers_and_escaped_keys(replace, expected):
    text = json.dumps(session(), indent=1).replace(*replace, 1)
    assert codes(text) == expected


@pytest.mark.parametrize("text, reason", [("", "is empty"), ("   \n\t ", "is empty"), ("\ufeff{}", "byte order mark")])
def test_empty_whitespace_and_bom(text, reason):
    result = cli("--json", "-", stdin=text.encode())
    assert result.returncode == 2 and reason in result.stderr.decode()
    assert codes(text)[0][0] == "invalid-json"


def test_a_file_over_the_size_limit_is_refused_with_one_line(tmp_path):
    big = tmp_path / "big.sourcecheck.json"
    with open(big, "wb") as handle:
        handle.truncate(65_000_001)
    result = cli(big)
    assert result.returncode == 2
    assert "more than the limit of 64 MB" in result.stderr.decode() and result.stderr.count(b"\n") == 1


async def test_a_200_megabyte_file_gets_one_diagnostic_and_nothing_else():
    async with started(client_capabilities("visual-studio-code")) as editor:
        text = '{"documents": [{"path": "a", "content": "' + "x" * 200_000_000 + '"}], "annotations": []}'
        uri = "file:///huge.sourcecheck.json"
        editor.texts[uri], editor.versions[uri] = text, 1
        editor.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text))
        )
        (diagnostic,) = await editor.diagnostics(uri)
        assert diagnostic.code == "file-too-large" and "maxFileSizeMB (64)" in diagnostic.message
        position = types.Position(line=0, character=30)
        assert (
            await editor.client.text_document_hover_async(
                types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
            )
            is None
        )


async def test_a_million_tiny_annotations_get_capped_diagnostics_in_bounded_time():
    async with started(client_capabilities("neovim@v0.11")) as editor:
        text = '{"documents": [], "annotations": [' + ",".join(["0"] * 1_000_000) + "]}"
        uri = "file:///million.sourcecheck.json"
        began = time.perf_counter()
        editor.open(uri, text)
        diagnostics = await editor.diagnostics(uri)
        assert time.perf_counter() - began < 120
        assert len(diagnostics) == 1001
        assert diagnostics[0].code == "too-many-findings" and diagnostics[0].message.startswith("1000000 findings")


async def test_inlay_hints_for_a_huge_range_are_bounded():
    from bench.sessiongen import generate

    async with started(client_capabilities("neovim@v0.11")) as editor:
        text = generate(3, documents=2, lines=30, annotations=1500, broken=0.0).text()
        uri = "file:///many.sourcecheck.json"
        editor.open(uri, text)
        rng = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=100_000, character=0))
        began = time.perf_counter()
        hints = await editor.client.text_document_inlay_hint_async(
            types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=rng)
        )
        assert len(hints) == 2000 and time.perf_counter() - began < 30


async def test_hostile_text_is_escaped_everywhere_it_is_shown(editor, client):
    evil = "```` </code> [x](command:workbench.action.terminal.new) <img src=x> \u202egnp.exe \x1b[2J"
    value = single_claim("d", evil, "```` ", "[2J")
    uri = "file:///evil.sourcecheck.json"
    text = session_text(value)
    editor.open(uri, text)
    doc = types.TextDocumentIdentifier(uri=uri)
    hover = await editor.hover(uri, text.index('"str": "````') + 9)
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc, range=editor.range_of(uri, 0, len(text)))
    )
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=doc))
    lenses = [lens if lens.command else await client.code_lens_resolve_async(lens) for lens in lenses]
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(text_document=doc))
    shown = [
        hover.contents.value,
        *(h.label for h in hints),
        *(lens.command.title for lens in lenses),
        symbols[1].children[0].name,
    ]
    for value_shown in shown:
        assert "\u202e" not in value_shown and "\x1b" not in value_shown
    assert "\\u202e" in hover.contents.value and "\\x1b" in hover.contents.value
    assert hover.contents.value.count("`````text") == 1  # the fence outlasts the document's four backticks
    outside = hover.contents.value.split("`````text")[0]
    assert "command:" not in outside and "<img" not in outside


async def test_two_hundred_boundaries_found_a_million_times_publish_little_and_leave_hovers_answered():
    """200 refs of `abab` on a 2 MB line of `ababX` (400,000 occurrences each): a thousand are
    looked for, twenty shown as related locations each (it was a 48 MB publish, and hovers
    went unanswered for over a minute)."""
    async with started(client_capabilities("visual-studio-code")) as editor:
        line = "ababX" * 400_000
        sources = [source("d", (1, "abab"), (1, "abab")) for _ in range(200)]
        documents = [{"path": "article", "content": "The report says."}, {"path": "d", "content": line}]
        text = session_text(
            session([{"claim": claim("article", (1, "The"), (1, "says.")), "sources": sources}], documents)
        )
        uri = "file:///abab.sourcecheck.json"
        began = time.perf_counter()
        editor.open(uri, text)
        diagnostics = await editor.diagnostics(uri)
        ambiguous = [d for d in diagnostics if d.code == "boundary-ambiguous"]
        assert len(ambiguous) == 400 and time.perf_counter() - began < 60
        assert all(len(d.related_information or []) <= 20 for d in diagnostics)
        assert "occurs more than 1,000 times" in diagnostics[0].message
        size = sum(len(json.dumps([r.message for r in d.related_information or []])) for d in diagnostics)
        assert size < 2_000_000
        hover = await editor.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, 5))
        )
        assert hover is None or hover.contents is not None

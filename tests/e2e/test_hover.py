"""Hover: the cited text where you point, and why a ref fails when it does."""

import re

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from tests.support.lsp_support import FIXTURES, session_text, single_claim, started

ARTICLE = FIXTURES / "orbit-article.sourcecheck.json"


def fenced(markdown: str) -> list[str]:
    """The contents of every fenced code block."""
    return [m.group(2) for m in re.finditer(r"^(`{3,})text\n(.*?)\n\1$", markdown, re.S | re.M)]


def open_article(editor):
    uri = ARTICLE.as_uri()
    text = ARTICLE.read_text(encoding="utf-8")
    editor.open(uri, text)
    return uri, text


@pytest.mark.parametrize(
    "needle", ['"path": "release-notes"', '"start"', '"line": 3', '"str": "cold start"', '"str": "(-37%)"']
)
async def test_hover_on_any_part_of_a_source_shows_its_text_and_its_claim(editor, needle):
    uri, text = open_article(editor)
    at = text.index(needle, text.index('"sources"')) + len(needle) - 2
    hover = await editor.hover(uri, at)
    blocks = fenced(hover.contents.value)
    assert "cold start p50 drops from 820ms to 517ms (-37%)" in blocks
    assert "cuts cold-start latency by 37%" in blocks  # the claim it supports
    assert "release-notes" in hover.contents.value and "line 3" in hover.contents.value


async def test_hover_range_is_exactly_the_value_under_the_cursor(editor):
    uri, text = open_article(editor)
    at = text.index('"str": "冷启动"') + len('"str": "')
    hover = await editor.hover(uri, at + 1)
    assert editor.range_text(uri, hover.range) == '"冷启动"'


async def test_hover_on_a_claim_lists_every_source_with_polarity_and_confidence(editor):
    uri, text = open_article(editor)
    at = text.index('"str": "the new scheduler"') + 10
    value = (await editor.hover(uri, at)).contents.value
    blocks = fenced(value)
    assert blocks[0] == 'the new scheduler "never drops a frame"'
    assert "3 sources: 1 supports, 2 refutes" in value
    assert (
        "✓ supports · confidence 0.8" in value
        and "✗ refutes · confidence 0.9" in value
        and ("✗ refutes · confidence 0.4") in value
    )
    assert "调度器在高负载下仍可能丢帧 ⚠️" in blocks
    assert "It dropped 3 frames per minute on my laptop under heavy load 😬" in blocks


async def test_hover_on_line_shows_that_lines_text(editor):
    uri, text = open_article(editor)
    needle = text.rfind('"line": 2', 0, text.index('"str": "冷启动"'))
    hover = await editor.hover(uri, needle + len('"line": '))
    value = hover.contents.value
    assert "line 2 of `发布说明`" in value
    assert fenced(value)[0] == "冷启动延迟降低了 37%，内存占用从 820 MB 降至 517 MB。"
    assert editor.range_text(uri, hover.range) == "2"


async def test_hover_on_an_ambiguous_ref_says_why_and_marks_every_occurrence(editor):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    uri, text = path.as_uri(), path.read_text()
    editor.open(uri, text)
    hover = await editor.hover(uri, text.index('"the"') + 1)
    value = hover.contents.value
    assert "claim does not resolve" in value
    assert "occurs twice on line 2" in value
    assert "The the the end.\n    ^^^ ^^^" in fenced(value)


async def test_hover_on_a_boundary_not_found_shows_the_line_it_names(editor):
    path = FIXTURES / "broken" / "boundary-not-found.sourcecheck.json"
    uri, text = path.as_uri(), path.read_text()
    editor.open(uri, text)
    value = (await editor.hover(uri, text.index('"result"') + 1)).contents.value
    assert "source does not resolve" in value and "no occurrence of" in value
    assert "The outcome of the trial was positive." in fenced(value)


async def test_hover_on_a_document_path_counts_lines_and_citations(editor):
    uri, text = open_article(editor)
    at = text.index('"path": "发布说明"') + 10
    value = (await editor.hover(uri, at)).contents.value
    assert "3 lines" in value and "cited by 3 refs (0 claims, 3 sources)" in value


async def test_hover_elsewhere_gives_nothing(editor):
    uri, text = open_article(editor)
    assert await editor.hover(uri, 0) is None


async def test_hover_is_plain_text_for_clients_without_markdown():
    capabilities = client_capabilities("visual-studio-code")
    capabilities.text_document.hover.content_format = [types.MarkupKind.PlainText]
    async with started(capabilities) as editor:
        uri, text = open_article(editor)
        hover = await editor.hover(uri, text.index('"str": "cuts"') + 9)
        assert hover.contents.kind == types.MarkupKind.PlainText
        assert "```" not in hover.contents.value and "**" not in hover.contents.value
        assert "  cuts cold-start latency by 37%" in hover.contents.value


async def test_cited_text_cannot_break_out_of_its_code_block(editor):
    content = "a ```` b [x](command:evil) <b>html</b> \u202ereversed\x1b[31m end"
    value = single_claim("d`x", content, "a ", " end")
    uri = "file:///hostile.sourcecheck.json"
    text = session_text(value)
    editor.open(uri, text)
    markdown = (await editor.hover(uri, text.index('"str": "a "') + 8)).contents.value
    (block, *_) = fenced(markdown)
    assert markdown.count("`````text") == 1  # a fence longer than the document's run of four
    assert "\\u202e" in block and "\u202e" not in markdown and "\x1b" not in markdown
    outside = markdown.replace(block, "")
    assert "command:" not in outside and "<b>" not in outside


async def test_hover_copes_with_any_json_value_as_polarity_and_confidence(editor):
    for polarity, confidence in (({"a": 1}, [1]), ([], {"x": None}), (None, "high"), (True, None)):
        value = single_claim("d", "some text", "some", "text")
        value["annotations"][0]["sources"][0].update(polarity=polarity, confidence=confidence)
        uri = f"file:///odd-{id(polarity)}.sourcecheck.json"
        text = session_text(value)
        editor.open(uri, text)
        for needle in ('"str": "ok"', '"str": "some"'):
            hover = await editor.hover(uri, text.index(needle) + 8)
            assert "does not resolve" in hover.contents.value or "ok" in hover.contents.value


async def test_a_findings_quoted_values_are_inline_code_without_escaped_backticks(editor):
    path = FIXTURES / "broken" / "boundary-ambiguous.sourcecheck.json"
    uri, text = path.as_uri(), path.read_text()
    editor.open(uri, text)
    value = (await editor.hover(uri, text.index('"the"') + 1)).contents.value
    assert (
        '• `"the"` occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique'
        in value.split("\n")
    )
    assert "\\`" not in value


async def test_a_quoted_value_holding_backticks_stays_one_code_span(editor):
    content = "x a`b <b> a`b <b> end"
    uri = "file:///ticks.sourcecheck.json"
    text = session_text(single_claim("d", content, "a`b <b>", "end"))
    editor.open(uri, text)
    value = (await editor.hover(uri, text.index('"str": "a') + 9)).contents.value
    assert (
        '• ``"a`b <b>"`` occurs twice on line 1 of `d` (columns 3 and 11); extend it until it is unique'
        in value.split("\n")
    )


async def test_a_client_without_markdown_gets_a_findings_message_as_it_is():
    capabilities = client_capabilities("neovim@v0.11")
    capabilities.text_document.hover.content_format = [types.MarkupKind.PlainText]
    path = FIXTURES / "broken" / "boundary-not-found.sourcecheck.json"
    async with started(capabilities) as editor:
        uri, text = path.as_uri(), path.read_text()
        editor.open(uri, text)
        value = (await editor.hover(uri, text.index('"result"') + 1)).contents.value
        assert (
            '• `"result"` does not occur on line 2 of `report`, which reads `The outcome of the trial was positive.`; '
            "check the line number and the exact text (matching is exact, case and accents included)"
        ) in value.split("\n")


async def test_hover_on_a_cited_document_path_gives_its_uncited_share(editor):
    uri, text = open_article(editor)
    value = (await editor.hover(uri, text.index('"path": "article"') + 10)).contents.value
    assert "62% of its text is cited by no claim (4 passages)" in value

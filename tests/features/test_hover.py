"""Hover, as a function of a view: what a ref resolves to, rendered for the client."""

import json
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from lsprotocol import types
from markdown_it import MarkdownIt

from sourcecheck.core.display import visible
from sourcecheck.lsp.features.hover import hover
from sourcecheck.lsp.markup import RichText, message_pieces
from tests.support.helpers import claim, session, source
from tests.support.lsp_support import single_claim
from tests.support.views import (
    at,
    doc,
    fixture,
    per_encoding,
    range_text,
    same_for_every_encoding,
    session_text,
    view_of,
)

ORBIT = fixture("orbit-article")


def fenced(markdown: str) -> list[str]:
    """The contents of every fenced code block."""
    return [m.group(2) for m in re.finditer(r"^(`{3,})text\n(.*?)\n\1$", markdown, re.S | re.M)]


def hover_at(view, needle, plus=0, after=None):
    return hover(view, types.HoverParams(text_document=doc(view.uri), position=at(view, needle, plus, after)))


def test_hover_on_a_claim_lists_every_source_with_polarity_and_confidence():
    value = hover_at(view_of(ORBIT), '"str": "the new scheduler"', 10).contents.value
    blocks = fenced(value)
    assert blocks[0] == 'the new scheduler "never drops a frame"'
    assert "3 sources: 1 supports, 2 refutes" in value
    assert "✓ supports · confidence 0.8" in value
    assert "✗ refutes · confidence 0.9" in value and "✗ refutes · confidence 0.4" in value
    assert blocks[1:] == [
        "Scheduler: frames are never dropped under nominal load.",
        "调度器在高负载下仍可能丢帧 ⚠️",
        "It dropped 3 frames per minute on my laptop under heavy load 😬",
    ]


def test_hover_on_any_part_of_a_source_shows_its_text_and_the_claim_it_supports():
    view = view_of(ORBIT)
    for needle in ('"path": "release-notes"', '"start"', '"line": 3', '"str": "cold start"', '"str": "(-37%)"'):
        value = hover_at(view, needle, len(needle) - 2, after='"sources"').contents.value
        blocks = fenced(value)
        assert "cold start p50 drops from 820ms to 517ms (-37%)" in blocks, needle
        assert "cuts cold-start latency by 37%" in blocks, needle
        assert "this source supports the claim in `article`, line 3:" in value, needle


def test_hover_on_a_key_covers_the_key_not_its_value():
    view = view_of(ORBIT)
    result = hover_at(view, '"start"', 2, after='"annotations"')
    assert range_text(ORBIT, result.range) == '"start"'


def test_hover_range_after_cjk_and_emoji_selects_the_same_value_in_every_encoding():
    one_line = json.dumps(json.loads(ORBIT), ensure_ascii=False)  # every ref sits after the emoji of the contents

    def selected(encoding):
        result = hover_at(view_of(one_line, encoding=encoding), '"str": "丢帧 ⚠️"', len('"str": "') + 1)
        assert "调度器在高负载下仍可能丢帧 ⚠️" in fenced(result.contents.value)
        return range_text(one_line, result.range, encoding)

    assert per_encoding(selected) == same_for_every_encoding('"丢帧 ⚠️"')


def test_hover_columns_differ_between_encodings_on_a_line_with_astral_characters():
    one_line = json.dumps(json.loads(ORBIT), ensure_ascii=False)
    starts = per_encoding(
        lambda encoding: hover_at(view_of(one_line, encoding=encoding), '"str": "丢帧 ⚠️"', 9).range.start.character
    )
    before = one_line[: one_line.index('"str": "丢帧 ⚠️"') + len('"str": ')]
    assert starts == {
        "utf-16": len(before.encode("utf-16-le")) // 2,
        "utf-8": len(before.encode("utf-8")),
        "utf-32": len(before),
    }
    assert len(set(starts.values())) == 3


def test_hover_for_a_client_without_markdown_is_plain_text_without_backticks_or_fences():
    view = view_of(ORBIT, markdown=False)
    contents = hover_at(view, '"str": "cuts"', 9).contents
    assert contents.kind == types.MarkupKind.PlainText
    assert "`" not in contents.value and "**" not in contents.value
    assert "  cuts cold-start latency by 37%" in contents.value.split("\n")
    assert "claim · article, line 3" in contents.value
    markdown = hover_at(view_of(ORBIT, markdown=True), '"str": "cuts"', 9).contents
    assert markdown.kind == types.MarkupKind.Markdown and markdown.value.startswith("**claim** · `article`, line 3")


def test_cited_text_with_backtick_fences_cannot_break_out_of_its_code_block():
    content = "a ```` b [x](command:evil) <b>html</b> ``` end"
    text = session_text(single_claim("d", content, "a ", " end"))
    markdown = hover_at(view_of(text), '"str": "a "', 8).contents.value
    (block, *_) = fenced(markdown)
    assert block == content
    assert markdown.count("`````text\n") == 1  # a fence longer than the longest run inside
    outside = markdown.replace(block, "")
    assert "command:" not in outside and "<b>" not in outside
    # A path holding a backtick stays one inline code span.
    text = session_text(single_claim("d`x", "some text", "some", "text"))
    assert hover_at(view_of(text), '"str": "some"', 8).contents.value.startswith("**claim** · ``d`x``, line 1")


def test_control_and_bidirectional_characters_are_shown_escaped():
    content = "start \u202ereversed\x1b[31m end"
    text = session_text(single_claim("d", content, "start", "end"))
    for markdown in (True, False):
        value = hover_at(view_of(text, markdown=markdown), '"str": "start"', 8).contents.value
        assert "\\u202e" in value and "\\x1b" in value
        assert "\u202e" not in value and "\x1b" not in value


def test_hover_on_line_shows_that_lines_text():
    view = view_of(ORBIT)
    needle = ORBIT.rfind('"line": 2', 0, ORBIT.index('"str": "冷启动"'))
    position = view.position(needle + len('"line": '))
    result = hover(view, types.HoverParams(text_document=doc(), position=position))
    assert "line 2 of `发布说明`" in result.contents.value
    assert fenced(result.contents.value)[0] == "冷启动延迟降低了 37%，内存占用从 820 MB 降至 517 MB。"
    assert range_text(ORBIT, result.range) == "2"


def test_hover_on_an_ambiguous_ref_says_why_and_marks_every_occurrence():
    view = view_of(fixture("broken/boundary-ambiguous"))
    value = hover_at(view, '"the"', 1).contents.value
    assert "claim does not resolve" in value
    assert "occurs twice on line 2" in value
    assert "The the the end.\n    ^^^ ^^^" in fenced(value)


def test_hover_on_a_document_path_counts_lines_and_citations():
    value = hover_at(view_of(ORBIT), '"path": "发布说明"', 10).contents.value
    assert "3 lines" in value and "cited by 3 refs (0 claims, 3 sources)" in value


def test_hover_outside_any_ref_or_path_gives_nothing():
    view = view_of(ORBIT)
    assert hover(view, types.HoverParams(text_document=doc(), position=types.Position(line=0, character=0))) is None
    assert hover_at(view, '"content"', 3) is None


# --- messages with quoted values, and a document's uncited share


def code_spans(markdown: str) -> tuple[list[str], str]:
    """The inline code spans of one markdown paragraph, read as CommonMark does (a run of
    n backticks opens a span that the next run of exactly n closes; one space each side
    is stripped when both are there), and the text outside them."""
    spans, outside, at = [], [], 0
    while at < len(markdown):
        if markdown[at] != "`" or (at and markdown[at - 1] == "\\"):
            outside.append(markdown[at])
            at += 1
            continue
        run = re.match(r"`+", markdown[at:]).group()
        closing = re.compile(r"(?<!`)" + run + r"(?!`)")
        found = closing.search(markdown, at + len(run))
        if found is None:
            outside.append(run)
            at += len(run)
            continue
        inner = markdown[at + len(run) : found.start()]
        if len(inner) > 2 and inner.startswith(" ") and inner.endswith(" ") and inner.strip():
            inner = inner[1:-1]
        spans.append(inner)
        at = found.end()
    return spans, "".join(outside)


def message_line(value: str) -> str:
    (line,) = [line for line in value.split("\n") if line.startswith("• ")]
    return line


def test_a_findings_quoted_values_are_inline_code_without_escaped_backticks():
    view = view_of(fixture("broken/boundary-ambiguous"))
    line = message_line(hover_at(view, '"the"', 1).contents.value)
    assert line == '• `"the"` occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique'
    assert "\\`" not in line
    spans, _ = code_spans(line)
    assert spans == ['"the"', "article"]


def test_a_quoted_value_holding_backticks_is_one_code_span_with_a_longer_fence():
    content = "x a`b [y](command:z) <b> a`b [y](command:z) <b> end"
    text = session_text(single_claim("d`x", content, "a`b [y](command:z) <b>", "end"))
    line = message_line(hover_at(view_of(text), '"str": "a', 9).contents.value)
    spans, outside = code_spans(line)
    assert spans == ['"a`b [y](command:z) <b>"', "d`x"]
    assert outside == "•  occurs twice on line 1 of  (columns 3 and 26); extend it until it is unique"
    assert "\\`" not in line and "command:" not in outside and "<b>" not in outside


def test_the_prose_of_a_message_renders_as_written_with_no_backslash_it_does_not_need():
    view = view_of(fixture("broken/boundary-not-found"))
    line = message_line(hover_at(view, '"result"', 1).contents.value)
    spans, outside = code_spans(line)
    assert spans[:2] == ['"result"', "report"] and len(spans) == 3  # and the text of the named line
    assert outside.endswith("the exact text (matching is exact, case and accents included)")
    assert "\\" not in outside  # Neovim's hover shows a backslash escape as typed


COMMONMARK = MarkdownIt("commonmark").enable(["strikethrough", "table"])
PIECES = list("ab1 .-_*`[]()<>!&#;+=|~\\/:@") + ["www.", "http://", "&amp;", "1. ", "# ", "> ", "- ", "<b>", "é"]


@given(st.lists(st.sampled_from(PIECES), max_size=12))
def test_prose_renders_in_commonmark_as_written_and_makes_no_markup(pieces):
    written = visible("".join(pieces)).strip()
    assume(written)
    out = RichText(markdown=True)
    out.para(out.prose(written))
    blocks = COMMONMARK.parse(out.blocks[0])
    assert [block.type for block in blocks] == ["paragraph_open", "inline", "paragraph_close"]
    assert [child.type for child in blocks[1].children or []] == ["text"]
    assert blocks[1].children[0].content == written


@pytest.mark.parametrize(
    "message, pieces",
    [
        ('`"the"` occurs twice', [('"the"', True), (" occurs twice", False)]),
        ('`"a`b"` and `"a` b"` end', [('"a`b"', True), (" and ", False), ('"a` b"', True), (" end", False)]),
        ("of `d`x`; extend", [("of ", False), ("d`x", True), ("; extend", False)]),
        ('add `"documents": []` and `x`', [("add ", False), ('"documents": []', True), (" and ", False), ("x", True)]),
        ('`"a long value cut…` occurs', [('"a long value cut…', True), (" occurs", False)]),
        ("one ` alone", [("one ` alone", False)]),
        ("", []),
    ],
)
def test_a_message_is_cut_into_prose_and_the_values_it_quotes(message, pieces):
    assert message_pieces(message) == pieces
    assert "".join(f"`{text}`" if quoted else text for text, quoted in pieces) == message


def test_a_client_without_markdown_gets_the_message_as_it_is():
    view = view_of(fixture("broken/boundary-ambiguous"), markdown=False)
    value = hover_at(view, '"the"', 1).contents.value
    said = '• `"the"` occurs twice on line 2 of `article` (columns 5 and 9); extend it until it is unique'
    assert said in value.split("\n")


def test_hover_on_a_cited_document_path_gives_its_uncited_share():
    value = hover_at(view_of(ORBIT), '"path": "article"', 10).contents.value
    assert "cited by 4 refs (4 claims, 0 sources)" in value
    assert "62% of its text is cited by no claim (4 passages)" in value
    sources_only = hover_at(view_of(ORBIT), '"path": "发布说明"', 10).contents.value
    assert "of its text" not in sources_only  # no claim cites it: no share to tell


def test_hover_on_a_claim_names_the_words_its_supporting_sources_do_not_have():
    value = session([{"claim": claim(start=(1, "The"), end=(1, "positive")), "sources": [source()]}])
    text = session_text(value)
    said = hover_at(view_of(text), '"str": "The"', 9).contents.value
    aside = "not in its sources: report, says (a word check of its supporting sources: where to look, not a verdict)"
    assert aside in said.split("\n\n")
    plain = hover_at(view_of(text, markdown=False), '"str": "The"', 9).contents.value
    assert aside in plain.split("\n\n")
    on_source = hover_at(view_of(text), '"str": "outcome"', 9, after='"sources"').contents.value
    translated = hover_at(view_of(ORBIT), '"str": "cuts"', 9).contents.value  # cited to Chinese too: numbers only
    assert "not in its sources" not in on_source and "not in its sources" not in translated

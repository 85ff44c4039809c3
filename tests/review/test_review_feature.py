"""``sourcecheck/review``: the report for an editor's webview, from a view and over stdio."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sourcecheck.lsp.app import View
from sourcecheck.lsp.features.review import file_name, review
from sourcecheck.review import render

ROOT = Path(__file__).resolve().parents[2]
ORBIT = ROOT / "fixtures" / "orbit-article.sourcecheck.json"


def test_the_answer_is_the_report_for_a_webview():
    text = ORBIT.read_text()
    uri = "file:///work/some%20folder/orbit.sourcecheck.json"
    view = View.of(text, uri=uri)
    answer = review(view, {"uri": uri})
    assert set(answer) == {"html"}
    assert answer["html"] == render(view.analysis, "orbit.sourcecheck.json", editor=True)
    data = json.loads(re.search(r'id="sc-data">(.*?)</script>', answer["html"], re.S).group(1))
    assert data["editor"] is True
    lines = text.split("\n")
    assert [lines[c[4] - 1].strip() for c in data["claims"]] == ["{"] * 4


def test_the_file_name_is_the_last_segment_of_the_uri():
    assert file_name("file:///a/b/x%20y.json") == "x y.json"
    assert file_name("untitled:Untitled-1") == "Untitled-1"


async def test_the_server_answers_sourcecheck_review(editor, client):
    uri = ORBIT.as_uri()
    editor.open(uri, ORBIT.read_text())
    answer = await client.protocol.send_request_async("sourcecheck/review", {"uri": uri})
    html = answer.html if hasattr(answer, "html") else answer["html"]
    assert html.startswith("<!DOCTYPE html>") and "orbit-article.sourcecheck.json" in html
    assert '"editor":true' in html
    editor.open("file:///x/package.json", '{"name": "x"}')
    assert await client.protocol.send_request_async("sourcecheck/review", {"uri": "file:///x/package.json"}) is None


async def test_other_requests_are_answered_while_a_big_session_is_reviewed(editor, client):
    """The review of a big session takes seconds: it is made off the server's event loop, so
    a hover asked for after it is answered first (before, it waited for the whole page)."""
    import asyncio

    from bench.sessiongen import generate_sized, parse_size

    text = generate_sized(parse_size("3M"), 6000, seed=3).text()
    uri = "file:///big-review.sourcecheck.json"
    editor.open(uri, text)
    await editor.diagnostics(uri)  # analysed
    done: list[str] = []

    async def review() -> None:
        await client.protocol.send_request_async("sourcecheck/review", {"uri": uri})
        done.append("review")

    async def hover() -> None:
        await asyncio.sleep(0.05)  # the review's request goes first
        await editor.hover(uri, text.index('"path"') + 2)
        done.append("hover")

    await asyncio.gather(review(), hover())
    assert done == ["hover", "review"]
    again = asyncio.get_running_loop().time()
    await client.protocol.send_request_async("sourcecheck/review", {"uri": uri})
    assert asyncio.get_running_loop().time() - again < 1.0  # the same version's page, kept

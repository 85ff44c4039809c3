"""The review report's HTML: safe whatever the session holds, and true to the verdicts."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bench.sessiongen import generate_sized
from sourcecheck.core.analysis import Analysis
from sourcecheck.core.display import visible
from sourcecheck.core.verdicts import VERDICTS, percent
from sourcecheck.review import assets, render
from sourcecheck.review.model import HIDDEN_CLASS, UNCITED, build
from sourcecheck.review.page import json_for_script
from tests.review.hostile import ARTICLE_PATH, NAME, RLO, SOURCE_PATH, hostile_session, hostile_text
from tests.support.helpers import analyze, claim, session, source

ROOT = Path(__file__).resolve().parents[2]
ORBIT = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
HIDDEN = re.compile(f"[{HIDDEN_CLASS}]")
SCRIPT = assets.script().text
STYLE = assets.style().text


class Page(HTMLParser):
    """Every element of a page, its attributes, and the text of its scripts."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._in_script: dict[str, str | None] | None = None
        self._script_text: list[str] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.elements.append((tag, attributes))
        if tag == "script":
            self._in_script, self._script_text = attributes, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._in_script is not None:
            self.scripts.append((self._in_script, "".join(self._script_text)))
            self._in_script = None

    def handle_data(self, data: str) -> None:
        if self._in_script is not None:
            self._script_text.append(data)
        else:
            self.text.append(data)

    def data(self) -> dict:
        (found,) = [text for attrs, text in self.scripts if attrs.get("type") == "application/json"]
        return json.loads(found)


@pytest.fixture(scope="module")
def hostile() -> tuple[Analysis, str]:
    analysis = Analysis(hostile_text())
    return analysis, render(analysis, NAME)


def test_the_page_is_self_contained_and_its_policy_allows_only_its_own_style_and_script(hostile):
    _, html = hostile
    page = Page(html)
    (policy,) = [a["content"] for t, a in page.elements if t == "meta" and a.get("http-equiv")]
    assert policy == assets.csp()
    assert "default-src 'none'" in policy and "connect-src" not in policy and "unsafe" not in policy
    assert policy.count("'sha256-") == 2
    for tag, attributes in page.elements:
        assert tag not in ("link", "img", "iframe", "object", "embed", "base", "form", "svg", "frame"), tag
        for name in ("src", "srcset", "action", "formaction", "style"):
            assert name not in attributes, (tag, name)
        href = attributes.get("href")
        assert href is None or re.fullmatch(r"#[a-z][\w-]*", href), href
    assert "http://" not in html and "https://" not in html and "@import" not in STYLE and "url(" not in STYLE


def test_no_hostile_string_becomes_markup(hostile):
    _, html = hostile
    page = Page(html)
    assert [tag for tag, _ in page.elements].count("script") == 2 and len(page.scripts) == 2
    assert [attrs.get("type") for attrs, _ in page.scripts] == ["application/json", None]
    assert page.scripts[1][1] == SCRIPT
    assert len(re.findall(r"<script", html, re.IGNORECASE)) == 2
    assert len(re.findall(r"</script", html, re.IGNORECASE)) == 2
    assert not re.search(r"href\s*=\s*[\"']?\s*javascript:", html, re.IGNORECASE)
    for tag, attributes in page.elements:
        assert not [name for name in attributes if name.startswith("on")], (tag, attributes)
    assert not re.search(r"<(img|svg|iframe|a\s+href=\"javascript)", html, re.IGNORECASE)
    # The hostile text is there, as text: the paths, the file name, the messages.
    text = "".join(page.text)
    assert visible(ARTICLE_PATH) in text and visible(SOURCE_PATH) in text and visible(NAME) in text
    assert "window.__pwned='msg'" in text and "window.__pwned='pol'" in text and "window.__pwned='unknown'" in text


def test_no_raw_invisible_or_reordering_character_is_in_the_page(hostile):
    _, html = hostile
    for ch in (RLO, "\u2066", "\u2069", "\u200b", "\u2028", "\x7f", "\x00", "\x07", "\r"):
        assert ch not in html, repr(ch)
    assert not HIDDEN.search(html.replace("\n", ""))
    assert "\\u202e" in html  # shown as its escape


def test_the_data_block_holds_the_documents_exactly_and_can_close_nothing(hostile):
    analysis, html = hostile
    page = Page(html)
    raw = page.scripts[0][1]
    assert "<" not in raw and ">" not in raw and "&" not in raw and "\u2028" not in raw
    data = page.data()
    assert [d["p"] for d in data["docs"]] == [d["path"] for d in hostile_session()["documents"]]
    assert [d["t"] for d in data["docs"]] == [d["content"] for d in hostile_session()["documents"]]
    assert data["editor"] is False


def test_json_for_script_escapes_what_could_end_the_script_or_reorder_text():
    value = {"t": "</script><!-- \u2028\u2029 & > \u202e \ud800 x", "n": 1}
    out = json_for_script(value)
    assert json.loads(out) == value
    assert not re.search("[<>&\u2028\u2029\u202e\ud800]", out)
    out.encode("utf-8")  # no lone surrogate left


def test_the_scripts_hidden_class_is_what_visible_escapes():
    """The script shows as escapes exactly the characters ``visible()`` escapes when it keeps
    line breaks (and the page splits lines itself)."""
    for code in range(0x110000):
        ch = chr(code)
        assert bool(HIDDEN.fullmatch(ch)) == (visible(ch, keep_newlines=True) != ch), hex(code)


def test_the_script_makes_no_markup_from_data():
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "srcdoc"):
        assert sink not in SCRIPT, sink
    assert 'setAttribute("on' not in SCRIPT and '.href = "#d"' in SCRIPT


def test_every_verdict_is_marked_with_its_letter_and_class(hostile):
    analysis, html = hostile
    data = Page(html).data()
    verdicts = [VERDICTS[c[2]] for c in data["claims"]]
    assert verdicts == [v.verdict for v in analysis.summary.verdicts]
    assert set(verdicts) == set(VERDICTS)
    for verdict, letter in zip(VERDICTS, "SCRUX", strict=True):
        assert f'<span class="vm v-{verdict}">{letter}</span>' in html
    # the weakly supported claim says so; the one that does not resolve sits nowhere in the text
    assert [c[8] for c in data["claims"]] == [v.weak for v in analysis.summary.verdicts]
    unresolved = verdicts.index("unresolved")
    assert data["claims"][unresolved][1] is None
    assert f'id="x{unresolved}"' in html and f'data-claim="{unresolved}"' in html


def test_each_claim_knows_the_line_of_its_annotation_in_the_session_file(hostile):
    analysis, html = hostile
    data = Page(html).data()
    lines = analysis.text.split("\n")
    for claim_data in data["claims"]:
        assert lines[claim_data[4] - 1].strip() == "{"
    after = lines.index('  "annotations": [')
    starts = [i + 1 for i, line in enumerate(lines) if line == "    {" and i > after]
    assert [c[4] for c in data["claims"]] == starts


def test_segments_cover_claims_sources_and_uncited_text_in_utf16_units(hostile):
    analysis, html = hostile
    data = Page(html).data()
    for index, document in enumerate(analysis.session.documents):
        units = document.content.encode("utf-16-le", "surrogatepass")

        def text_at(start: int, end: int, units: bytes = units) -> str:
            return units[2 * start : 2 * end].decode("utf-16-le", "surrogatepass")

        segments = data["docs"][index]["s"]
        assert segments == sorted(segments)
        assert all(a[1] <= b[0] for a, b in zip(segments, segments[1:], strict=False))
        for number, claim_data in enumerate(data["claims"]):
            if claim_data[0] == index and claim_data[1] is not None:
                covered = "".join(text_at(s, e) for s, e, _, claims, _ in segments if number in claims)
                assert covered == analysis.session.annotations[number].claim.text
        uncited = [text_at(s, e) for s, e, kind, _, _ in segments if kind & UNCITED]
        coverage = {c.document.path: c for c in analysis.summary.coverage}.get(document.path)
        expected = [document.content[r.start : r.end] for r in coverage.runs] if coverage else []
        assert "".join(uncited) == "".join(expected)


def test_a_claim_after_astral_characters_is_cut_where_javascript_would_cut_it():
    article = "🚀🚀 𝒳 then the claim here."
    value = session(
        [{"claim": claim("article", (1, "the claim"), (1, "here")), "sources": [source("report", (1, "b"), (1, "c"))]}],
        [{"path": "article", "content": article}, {"path": "report", "content": "abc"}],
    )
    data = Page(render(analyze(value), "s.json")).data()
    start, end = data["claims"][0][1]
    assert article.encode("utf-16-le")[2 * start : 2 * end].decode("utf-16-le") == "the claim here"


def numbers_of(html: str) -> dict:
    found = {v: int(m.replace(",", "")) for v, m in re.findall(r'data-verdict="(\w+)">([\d,]+)<', html)}
    found["total"] = int(re.search(r"data-total>([\d,]+)<", html).group(1).replace(",", ""))
    found["weak"] = int(re.search(r'data-weak="(\d+)"', html).group(1))
    found["uncited"] = re.findall(r'data-uncited="\d+">([^<]+)<', html)
    return found


def line_from(numbers: dict, paths: list[str]) -> str:
    """summary.line() made again from the numbers the page shows."""
    total = numbers["total"]
    if not total:
        return "no claims"
    text = f"{total} claim{'s' if total != 1 else ''}: " + ", ".join(
        f"{numbers[v]} {v}" for v in VERDICTS if numbers[v]
    )
    if numbers["weak"]:
        text += f"; {numbers['weak']} supported only weakly"
    shares = [f"{share} of {path} uncited" for share, path in zip(numbers["uncited"], paths, strict=True)]
    return text + ("; " + ", ".join(shares) if shares else "")


@pytest.mark.parametrize("which", ["orbit", "hostile", "generated", "empty"])
def test_the_summary_numbers_are_those_of_the_summary_line(which):
    if which == "orbit":
        text = ORBIT.read_text()
    elif which == "hostile":
        text = hostile_text()
    elif which == "generated":
        text = generate_text()
    else:
        text = json.dumps({"documents": [{"path": "a", "content": "x"}], "annotations": []})
    analysis = Analysis(text)
    html = render(analysis, "s.json")
    summary = analysis.summary
    numbers = numbers_of(html)
    assert [numbers[v] for v in VERDICTS] == [summary.count(v) for v in VERDICTS]
    assert numbers["uncited"] == [visible(percent(c.uncited_share)) for c in summary.coverage]
    paths = [visible(c.document.path) for c in summary.coverage]
    assert line_from(numbers, paths) == visible(summary.line())
    assert f'id="summary-line">{visible(summary.line())}' in html.replace("&#x27;", "'").replace("&lt;", "<").replace(
        "&gt;", ">"
    ).replace("&quot;", '"').replace("&amp;", "&")


def generate_text() -> str:
    return generate_sized(200_000, 600, seed=3).text()


def test_failing_refs_are_listed_with_their_messages_and_session_lines(hostile):
    analysis, html = hostile
    review = build(analysis, NAME)
    errors = {
        (f.message, analysis.lines.line_of(analysis.extent(f)[0]) + 1)
        for f in analysis.findings
        if f.severity.value == "error" and f.code != "non-lf-content"
    }
    listed = {(m.text, m.line) for row in review.failing for m in row.messages}
    assert listed == errors
    page = "".join(Page(html).text)
    for message, _ in errors:
        assert visible(message) in page
    assert html.count("data-claim-row=") == len(review.failing) == 3


def test_editor_mode_marks_the_page_for_a_webview():
    analysis = Analysis(ORBIT.read_text())
    data = Page(render(analysis, "orbit.json", editor=True)).data()
    assert data["editor"] is True
    assert "acquireVsCodeApi" in SCRIPT and 'type: "reveal"' in SCRIPT


def test_a_text_that_is_no_session_still_renders():
    for text in ("[]", '{"documents": 3, "annotations": {}}', '{"annotations": [1, "x", null]}'):
        html = render(Analysis(text), "x.json")
        assert "<!DOCTYPE html>" in html


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_script_parses_and_its_class_tells_lone_surrogates_from_pairs(tmp_path):
    script = tmp_path / "report.js"
    script.write_text(SCRIPT, encoding="utf-8")
    subprocess.run(["node", "--check", str(script)], check=True, capture_output=True)
    probe = tmp_path / "probe.js"
    probe.write_text(
        f"const H = new RegExp({json.dumps('[' + HIDDEN_CLASS + ']')}, 'gu');\n"
        r'const cases = ["\ud800", "\ud83d\ude80", "\u202e", "a\ud83d", "\t", "\r", "\u2028", "plain"];'
        "\nconsole.log(JSON.stringify(cases.map((s) => (s.match(H) || []).length)));\n",
        encoding="utf-8",
    )
    result = subprocess.run(["node", str(probe)], check=True, capture_output=True, text=True)
    assert json.loads(result.stdout) == [1, 0, 1, 1, 0, 1, 1, 0]


def test_each_claim_carries_the_words_its_sources_do_not_have_and_the_page_says_what_they_are():
    value = session(
        [{"claim": claim(start=(1, "The"), end=(1, "positive")), "sources": [source()]}, {"claim": claim()}]
    )
    data = Page(render(analyze(value), "s.json")).data()
    assert [c[11] for c in data["claims"]] == ["not in its sources: report, says", None]
    assert data["k"]["aside"] == "a word check of its supporting sources: where to look, not a verdict"

"""What a reviewer asked of the page: one order for numbers and keys, a filter by verdict, the
documents in a monospace face (prose on a toggle), weak support marked. The script's part is
driven in Chromium (tests/editors/test_report_chromium.py); this is the page as written."""

from __future__ import annotations

import re

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.verdicts import VERDICTS
from sourcecheck.review import assets, render
from tests.review.reading import ARTICLE, WEAK, reading_text
from tests.review.reading import VERDICTS as READING
from tests.review.test_render import Page

N = len(ARTICLE)


@pytest.fixture(scope="module")
def page() -> tuple[str, Page]:
    html = render(Analysis(reading_text()), "reading.json")
    return html, Page(html)


def test_claims_are_numbered_in_reading_order_the_order_of_j_and_k(page):
    html, parsed = page
    data = parsed.data()
    # written last line first: reading order is the file's backwards
    assert data["order"] == list(range(N - 1, -1, -1))
    unresolved = READING.index("unresolved")  # the claim of line 6 is the 6th a reader meets...
    index = N - 1 - unresolved  # ...and the 3rd annotation of the file
    button = next(a for t, a in parsed.elements if t == "button" and a.get("id") == f"x{index}")
    assert button["data-n"] == str(unresolved + 1) and button["aria-label"] == f"claim {unresolved + 1}: unresolved"
    assert f"claim {unresolved + 1}, annotation {index + 1} in " in "".join(parsed.text)


def test_the_filter_offers_each_verdict_and_weak_with_its_count_and_a_key(page):
    html, parsed = page
    radios = [a for t, a in parsed.elements if t == "input" and a.get("name") == "filter"]
    assert [r["value"] for r in radios] == ["all", *VERDICTS, "weak"]
    assert [r for r in radios if "checked" in r] == [radios[0]]
    labels = re.findall(
        r'value="(\w+)"[^>]*>(?:<span class="vm[^"]*">\w(?:<span class="wk">w</span>)?</span>)?\w+ '
        r'<span class="num muted">(\d+)</span>',
        html,
    )
    counts = {v: READING.count(v) for v in VERDICTS} | {"all": N, "weak": sum(WEAK)}
    assert dict((v, int(n)) for v, n in labels) == counts
    assert "<dt>f</dt><dd>filter the claims by verdict" in html
    # it needs the script: hidden until the script shows it
    controls = next(a for t, a in parsed.elements if a.get("id") == "controls")
    assert "hidden" in controls


def test_documents_are_monospace_unless_the_prose_toggle_is_on(page):
    html, parsed = page
    toggle = next(a for t, a in parsed.elements if t == "input" and a.get("id") == "prose")
    assert toggle["type"] == "checkbox" and "checked" not in toggle
    assert "prose font for documents" in "".join(parsed.text)
    style = assets.style().text
    assert re.search(r"--doc: var\(--mono\)", style.split("body.prose")[0])
    assert re.search(r"body\.prose \{ --doc: var\(--text\)", style)
    assert re.search(r"\.lines \{[^}]*var\(--doc\)", style) and re.search(r"\.quote \{[^}]*var\(--doc\)", style)


def test_weak_support_has_its_own_mark_and_the_legend_says_what_it_means(page):
    html, parsed = page
    data = parsed.data()
    assert [c[8] for c in data["claims"]] == list(reversed(WEAK))
    weak_mark = '<span class="vm v-supported weak">S<span class="wk">w</span></span>'
    legend = html[html.index('<ul class="legend"') : html.index("</ul>", html.index('<ul class="legend"'))]
    assert weak_mark in legend and "weak (strongest source below 0.3)" in legend
    assert "strongest source is below 0.3: its mark has a small w and a dotted box" in html
    assert re.search(r"\.claim\.weak \{ border-style: dotted; \}", assets.style().text)


def test_print_hides_the_controls_and_the_filter_acts_on_screen_only():
    style = assets.style().text
    printed = style[style.index("@media print") :]
    assert re.search(r"\n  [^{}]*\.controls[^{}]*\{ display: none !important; \}", printed)
    screen = style[style.index("@media screen") : style.index("@media print")]
    assert style.count("body[data-filter") == screen.count("body[data-filter") == 13

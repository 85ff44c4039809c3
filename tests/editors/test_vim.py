"""sourcecheck in a real Vim 9 with ALE, under tmux, configured as the README says.

Debian bookworm's vim-nox 9.0 with vim-ale 3.3 (scripts/install-editors installs both): the
vimrc sources editors/vim/sourcecheck.vim, vim_check.vim records what ALE shows, and the test
types the quick fix the way a user does (:ALECodeAction, then 1 at ALE's numbered prompt).
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .tmux_driver import BIN, Tmux, editor_env, find_or_skip, read_stage, unavailable

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "editors" / "vim" / "sourcecheck.vim"
CHECK = Path(__file__).with_name("vim_check.vim")
README = ROOT / "README.md"
FIXTURE = ROOT / "fixtures" / "broken" / "boundary-ambiguous.sourcecheck.json"
HINT = "scripts/install-editors installs Debian's vim-nox, vim-ale and tmux"

pytestmark = pytest.mark.editor


@pytest.fixture
def vim(tmp_path) -> str:
    find_or_skip("tmux", HINT)
    path = find_or_skip("vim", HINT)
    features = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
    if "+job" not in features or "+timers" not in features:
        unavailable(f"{path} lacks +job or +timers ({HINT})")
    probe = subprocess.run(  # exits 0 when `packadd ale` brings the :ALEHover command
        [path, "-es", "-N", "-u", "NONE", "-i", "NONE", "-c", "silent! packadd ale"]
        + ["-c", 'if exists(":ALEHover") == 2 | qa! | else | cq! | endif'],
        capture_output=True,
        timeout=30,
        env=editor_env(tmp_path),
    )
    if probe.returncode != 0:
        unavailable(f"ALE is not installed as a Vim package ({HINT})")
    return path


@pytest.fixture
def tmux(tmp_path, request) -> Tmux:
    server = Tmux(tmp_path)
    request.addfinalizer(server.kill)
    return server


def readme_vimrc() -> str:
    """The vimrc lines the README shows, with this checkout in place of its example path."""
    block = re.search(r"```vim\n(filetype.*?\nsource ~/src/sourcecheck/.*?\n)```", README.read_text(), re.S)
    assert block, "the README's Vim section shows no vimrc lines"
    return block[1].replace("~/src/sourcecheck/", f"{ROOT}/")


def run_vim(vim: str, tmux: Tmux, tmp_path: Path, server_bin: Path = BIN, wait_ms: int = 15000) -> dict:
    """Open a copy of the fixture in Vim, answer ALE's code action prompt, report what Vim saw."""
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    text = session.read_text()
    at = text.index('"the"') + 2  # inside the ambiguous start.str
    before = text[:at]
    hover = f"{before.count(chr(10))},{len(before) - before.rfind(chr(10)) - 1}"
    env = editor_env(tmp_path, server_bin)
    vimrc = Path(env["HOME"]) / ".vim" / "vimrc"
    vimrc.parent.mkdir(parents=True, exist_ok=True)
    vimrc.write_text(readme_vimrc())
    result = tmp_path / "result.json"
    env.update(
        SOURCECHECK_FILE=str(session),
        SOURCECHECK_RESULT=str(result),
        SOURCECHECK_HOVER=hover,
        SOURCECHECK_WAIT_MS=str(wait_ms),
    )
    tmux.start([vim, "-N", "-n", "-i", "NONE", str(session), "-S", str(CHECK)], env, tmp_path)
    seen = read_stage(result, ("code-action", "done"), timeout=3 * wait_ms / 1000)
    if seen is None:
        pytest.fail(f"Vim reported nothing; its screen:\n{tmux.screen()}")
    if seen["stage"] == "code-action":
        tmux.send(":ALECodeAction", "Enter")
        seen["prompted"] = tmux.wait_for_screen("Type number and <Enter>", timeout=wait_ms / 1000)
        seen["prompt"] = tmux.screen()
        tmux.send("1", "Enter")
        seen = {**seen, **(read_stage(result, ("done",), timeout=wait_ms / 1000) or {"stage": "lost"})}
    seen["saved"] = session.read_text()
    seen["screen"] = tmux.screen()
    return seen


def assert_works(seen: dict) -> None:
    assert seen.get("error") is None, seen.get("error")
    assert seen["stage"] == "done", seen["screen"]
    assert seen["filetype"] == "json.sourcecheck"
    assert [(d["code"], d["line"], d["column"]) for d in seen.get("diagnostics", [])] == [
        ("boundary-ambiguous", 17, 17)
    ]
    assert "occurs twice on line 2 of `article`" in seen["diagnostics"][0]["message"]
    assert "does not resolve" in seen["hover"] and "occurs twice" in seen["hover"]
    assert seen["prompted"], seen["prompt"]
    assert '1) Extend start to "the the": cites "the the end"' in seen["prompt"]
    assert '2) Extend start to "the end": cites "the end"' in seen["prompt"]
    assert seen.get("fixed"), "the diagnostic stayed after the quick fix"
    assert '"str": "the the"' in seen["saved"] and '"str": "the"\n' not in seen["saved"]


def test_vim_with_ale_and_the_readme_config_gets_diagnostics_hover_and_the_fix(vim, tmux, tmp_path):
    assert_works(run_vim(vim, tmux, tmp_path))


def test_the_readme_shows_the_file_the_tests_source():
    body = CONFIG.read_text().split("\n\n", 1)[1]  # after the header comment
    assert f"```vim\n{body}```" in README.read_text()
    assert f"source {CONFIG}\n" in readme_vimrc()


def test_the_vim_check_fails_when_the_server_is_broken(vim, tmux, tmp_path):
    broken = tmp_path / "bin"
    broken.mkdir()
    fake = broken / "sourcecheck-ls"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    seen = run_vim(vim, tmux, tmp_path, server_bin=broken, wait_ms=3000)
    assert seen.get("diagnostics", []) == []
    with pytest.raises(AssertionError):
        assert_works(seen)

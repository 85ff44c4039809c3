"""sourcecheck in a real Emacs (`emacs -nw` under tmux) with eglot, configured as the README says.

Debian bookworm's Emacs 28.2 with elpa-eglot 1.9 (scripts/install-editors installs both): the
init file loads editors/emacs/sourcecheck.el, emacs_check.el records what eglot shows, and the
test types the quick fix the way a user does (M-x eglot-code-actions RET, RET for the default).
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .tmux_driver import BIN, Tmux, editor_env, find_or_skip, read_stage, unavailable

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "editors" / "emacs" / "sourcecheck.el"
CHECK = Path(__file__).with_name("emacs_check.el")
README = ROOT / "README.md"
FIXTURE = ROOT / "fixtures" / "broken" / "boundary-ambiguous.sourcecheck.json"
HINT = "scripts/install-editors installs Debian's emacs-nox, elpa-eglot and tmux"

pytestmark = pytest.mark.editor


@pytest.fixture
def emacs(tmp_path) -> str:
    find_or_skip("tmux", HINT)
    path = find_or_skip("emacs", HINT)
    probe = subprocess.run(
        [path, "--batch", "-q", "--eval", '(progn (package-activate-all) (princ (locate-library "eglot")))'],
        capture_output=True,
        text=True,
        timeout=30,
        env=editor_env(tmp_path),
    )
    if not probe.stdout.strip() or probe.stdout.strip() == "nil":
        unavailable(f"this Emacs has no eglot ({HINT})")
    return path


@pytest.fixture
def tmux(tmp_path, request) -> Tmux:
    server = Tmux(tmp_path)
    request.addfinalizer(server.kill)
    return server


# What Emacs 29 brings that 28 lacks, for the file's other branch: js.el's JSON mode.
JS_JSON_MODE_OF_EMACS_29 = """(require 'js)
(define-derived-mode js-json-mode js-mode "JSON")
"""


def readme_init() -> str:
    """The init file line the README shows, with this checkout in place of its example path."""
    line = re.search(
        r'```elisp\n(\(load "~/src/sourcecheck/editors/emacs/sourcecheck.el"\)).*\n```', README.read_text()
    )
    assert line, "the README's Emacs section shows no (load ...) line"
    return line[1].replace("~/src/sourcecheck/", f"{ROOT}/") + "\n"


def run_emacs(
    emacs: str, tmux: Tmux, tmp_path: Path, server_bin: Path = BIN, wait_ms: int = 15000, init_forms: str = ""
) -> dict:
    """Open a copy of the fixture in Emacs, answer the code action prompt, report what Emacs saw.

    init_forms: init file forms that come before the README's line."""
    session = tmp_path / FIXTURE.name
    shutil.copy(FIXTURE, session)
    text = session.read_text()
    at = text.index('"the"') + 2  # inside the ambiguous start.str
    before = text[:at]
    hover = f"{before.count(chr(10))},{len(before) - before.rfind(chr(10)) - 1}"
    env = editor_env(tmp_path, server_bin)
    init = Path(env["HOME"]) / ".emacs.d" / "init.el"
    init.parent.mkdir(parents=True, exist_ok=True)
    init.write_text(init_forms + readme_init())
    result = tmp_path / "result.json"
    env.update(
        SOURCECHECK_FILE=str(session),
        SOURCECHECK_RESULT=str(result),
        SOURCECHECK_HOVER=hover,
        SOURCECHECK_WAIT_MS=str(wait_ms),
    )
    # Native compilation of eglot's dependencies into a fresh cache would take a core for seconds.
    quiet = "(setq native-comp-deferred-compilation nil)"
    tmux.start([emacs, "-nw", "--eval", quiet, "-l", str(CHECK), str(session)], env, tmp_path)
    seen = read_stage(result, ("code-action", "done"), timeout=3 * wait_ms / 1000)
    if seen is None:
        pytest.fail(f"Emacs reported nothing; its screen:\n{tmux.screen()}")
    if seen["stage"] == "code-action":
        tmux.send("M-x")
        tmux.send("eglot-code-actions", "Enter")
        seen["prompted"] = tmux.wait_for_screen("Pick an action", timeout=wait_ms / 1000)
        seen["prompt"] = tmux.screen()
        tmux.send("Enter")  # the default: the first action
        seen = {**seen, **(read_stage(result, ("done",), timeout=wait_ms / 1000) or {"stage": "lost"})}
    seen["saved"] = session.read_text()
    seen["screen"] = tmux.screen()
    return seen


def assert_works(seen: dict) -> None:
    assert seen.get("error") is None, seen.get("error")
    assert seen["stage"] == "done", seen["screen"]
    assert seen["mode"] == "sourcecheck-mode"
    assert seen.get("attached"), "eglot never managed the buffer"
    assert [(d["code"], d["line"], d["column"]) for d in seen.get("diagnostics", [])] == [
        ("boundary-ambiguous", 17, 17)
    ]
    assert "occurs twice on line 2 of `article`" in seen["diagnostics"][0]["message"]
    assert "does not resolve" in seen["hover"] and "occurs twice" in seen["hover"]
    assert seen["actions"] == [
        'Extend start to "the the": cites "the the end"',
        'Extend start to "the end": cites "the end"',
    ]
    assert seen["prompted"], seen["prompt"]
    assert seen.get("fixed"), "the diagnostic stayed after the quick fix"
    assert '"str": "the the"' in seen["saved"] and '"str": "the"\n' not in seen["saved"]


def test_emacs_with_the_readme_config_gets_diagnostics_hover_and_the_fix(emacs, tmux, tmp_path):
    seen = run_emacs(emacs, tmux, tmp_path)
    assert_works(seen)
    if seen["emacs"].startswith("28."):
        assert seen["parent_mode"] == "js-mode"  # no js-json-mode before Emacs 29
    else:
        assert seen["parent_mode"] == "js-json-mode"


def test_the_files_js_json_mode_branch_for_emacs_29_works_too(emacs, tmux, tmp_path):
    """No Emacs 29 installs here: on 28, a js-json-mode like 29's sends the file down that branch."""
    seen = run_emacs(emacs, tmux, tmp_path, init_forms=JS_JSON_MODE_OF_EMACS_29)
    assert_works(seen)
    assert seen["parent_mode"] == "js-json-mode"


def test_the_readme_shows_the_forms_of_the_file_the_tests_load():
    forms = CONFIG.read_text().split(";;; Code:\n\n")[1].split("\n;;; sourcecheck.el ends here")[0]
    assert f"```elisp\n{forms}```" in README.read_text()
    assert readme_init() == f'(load "{CONFIG}")\n'


def test_the_emacs_check_fails_when_the_server_is_broken(emacs, tmux, tmp_path):
    broken = tmp_path / "bin"
    broken.mkdir()
    fake = broken / "sourcecheck-ls"
    fake.write_text("#!/bin/sh\nexit 3\n")
    fake.chmod(0o755)
    seen = run_emacs(emacs, tmux, tmp_path, server_bin=broken, wait_ms=3000)
    assert seen.get("diagnostics", []) == []
    with pytest.raises(AssertionError):
        assert_works(seen)

"""A private tmux server for driving a terminal editor: socket, config and HOME under tmp_path."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent  # where sourcecheck-ls is installed


def editor_env(tmp_path: Path, server_bin: Path = BIN) -> dict[str, str]:
    """An environment that writes nowhere but tmp_path, with server_bin first on PATH."""
    home = tmp_path / "home"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("XDG_", "TMUX", "EMACS", "VIM", "MYVIMRC", "VIMINIT"))
    }
    env.update(
        HOME=str(home),
        PATH=f"{server_bin}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        XDG_RUNTIME_DIR=str(tmp_path / "run"),
        TMUX_TMPDIR=str(tmp_path),
        TERM="xterm-256color",
    )
    for folder in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"):
        Path(env[folder]).mkdir(parents=True, exist_ok=True)
    Path(env["XDG_RUNTIME_DIR"]).chmod(0o700)
    return env


class Tmux:
    """One tmux server on the socket tmp_path/sock, one 200x50 window running the editor."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.socket = tmp_path / "sock"
        if len(str(self.socket)) > 100:
            raise RuntimeError(f"socket path too long for a Unix socket: {self.socket}")
        self.config = tmp_path / "tmux.conf"
        # Keep the pane after the editor exits, so a failure can show its last screen.
        self.config.write_text("set -g remain-on-exit on\nset -g history-limit 2000\n")
        self.env: dict[str, str] = {}

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-S", str(self.socket), "-f", str(self.config), *args],
            env=self.env or None,
            capture_output=True,
            text=True,
            timeout=10,
            check=check,
        )

    def start(self, command: list[str], env: dict[str, str], cwd: Path) -> None:
        self.env = env
        self.tmux("new-session", "-d", "-x", "200", "-y", "50", "-c", str(cwd), "--", *command)

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "0", *keys)

    def screen(self) -> str:
        done = self.tmux("capture-pane", "-p", "-t", "0", check=False)
        return done.stdout if done.returncode == 0 else f"(no pane: {done.stderr.strip()})"

    def wait_for_screen(self, text: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.screen():
                return True
            time.sleep(0.1)
        return False

    def kill(self) -> None:
        if self.socket.exists():
            self.tmux("kill-server", check=False)


def read_stage(result: Path, stages: tuple[str, ...], timeout: float) -> dict | None:
    """The editor's JSON report once its stage is one of stages, or None after timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if result.exists():
            seen = json.loads(result.read_text())
            if seen.get("stage") in stages:
                return seen
        time.sleep(0.1)
    return None


def unavailable(reason: str) -> None:
    """Skip the test, saying why; under CI (CI set) fail instead: the editor tests must run there."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, and CI is set: the editor tests must run there")
    pytest.skip(reason)


def find_or_skip(program: str, hint: str) -> str:
    """program's path on PATH; unavailable() when it is missing."""
    found = shutil.which(program)
    if found is None:
        unavailable(f"{program} is not installed ({hint})")
    assert found is not None
    return found

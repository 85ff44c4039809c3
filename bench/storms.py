"""The server under file events (``python -m bench.run --only storms``): its memory and a
hover's answer after a storm of ``workspace/didChangeWatchedFiles``.

- an 11.5 MB document file cited by a session, changed and announced 300 times, one event
  each (a watcher's way: ``git checkout``, an editor's autosave): the server's peak memory
  after, and a hover's time (targets: under 600 MB, under 1 s);
- a session of 5,000 documents and one event listing 200 created files (none of them a
  document) and one that is: a hover's time right after (target: under 1 s).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.client import CAPABILITIES, Server, open_message

CITE = {"start": {"line": 1, "str": "Alpha"}, "end": {"line": 1, "str": "Alpha"}}


def session_beside(folder: Path, contents: dict[str, str]) -> tuple[str, str]:
    """A session citing the first word of each document, written beside their files."""
    for path, content in contents.items():
        (folder / path).write_text(content, encoding="utf-8")
    annotations = [
        {"claim": {"path": path, **CITE}, "sources": [{"path": path, **CITE, "polarity": "supports", "confidence": 1}]}
        for path in contents
    ]
    text = json.dumps(
        {"documents": [{"path": p, "content": c} for p, c in contents.items()], "annotations": annotations}
    )
    session = folder / "s.sourcecheck.json"
    session.write_text(text, encoding="utf-8")
    return session.as_uri(), text


def opened(server: Server, uri: str, text: str) -> None:
    server.request("initialize", {"processId": None, "rootUri": None, "capabilities": CAPABILITIES})
    server.notify("initialized", {})
    server.send_encoded(open_message(uri, text))
    server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    time.sleep(1.5)  # the first read of the files
    hover_time(server, uri)  # the first hover makes what every later one reads (the verdicts)


def hover_time(server: Server, uri: str) -> float:
    start = time.perf_counter()
    server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 30}})
    return time.perf_counter() - start


def big_file_storm(events: int = 300) -> dict[str, Any]:
    content = "Alpha " + ("A line of a large source file, cited once at its top.\n" * 210_000)  # 11.5 MB
    with tempfile.TemporaryDirectory(prefix="sourcecheck-bench-") as name:
        folder = Path(name)
        uri, text = session_beside(folder, {"big.txt": content})
        server = Server([sys.executable, "-m", "sourcecheck.lsp"])
        try:
            opened(server, uri, text)
            before = server.memory_mb("VmRSS")
            target = (folder / "big.txt").as_uri()
            for index in range(events):
                (folder / "big.txt").write_text(content + f"edit {index}\n", encoding="utf-8")
                server.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": target, "type": 2}]})
            hover = hover_time(server, uri)
            time.sleep(2.0)  # the reads the storm left to do
            return {"before": before, "peak": server.memory_mb("VmHWM"), "hover": hover}
        finally:
            server.close()


def many_documents_event(documents: int = 5000, created: int = 200) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="sourcecheck-bench-") as name:
        folder = Path(name)
        uri, text = session_beside(folder, {f"d{i}.txt": f"Alpha {i}.\n" for i in range(documents)})
        server = Server([sys.executable, "-m", "sourcecheck.lsp"])
        try:
            opened(server, uri, text)
            changes = [{"uri": (folder / f"new{i}.txt").as_uri(), "type": 1} for i in range(created)]
            changes.append({"uri": (folder / "d7.txt").as_uri(), "type": 2})
            server.notify("workspace/didChangeWatchedFiles", {"changes": changes})
            return {"hover": hover_time(server, uri)}
        finally:
            server.close()


def rows() -> list[tuple[str, str, str]]:
    storm = big_file_storm()
    many = many_documents_event()
    return [
        ("file events (bench/storms.py)", "", ""),
        (
            "  300 events on an 11.5 MB file: peak memory",
            f"{storm['peak']:.0f} MB",
            f"target: under 600 MB ({storm['before']:.0f} MB before the storm)",
        ),
        ("  300 events on an 11.5 MB file: a hover after", f"{storm['hover'] * 1000:.0f} ms", "target: under 1 s"),
        (
            "  5,000 documents, an event of 200 files: a hover right after",
            f"{many['hover'] * 1000:.0f} ms",
            "target: under 1 s",
        ),
    ]

"""Drift rows of the bench: a source file changed on disk while its session is open, and
``sourcecheck sync`` on the same change (``python -m bench.run --only drift``).

The session (the bench's generated one) is written beside one file per document; the
server opens it as a pulling editor does (one that takes ``workspace/diagnostic/refresh``),
then the file of the most cited document gets a line at its top and one cited word edited,
the server hears of it (``workspace/didChangeWatchedFiles``), and the time runs until the
diagnostics it is asked for hold the drift. Beside it, in this process: reading that file,
aligning it with the document, carrying every ref into it (``core/resync.py``); and the CLI's
``sync --check`` on the same folder.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.client import CAPABILITIES, Server, open_message

DRIFT_CAPABILITIES = {
    **CAPABILITIES,
    "workspace": {**CAPABILITIES["workspace"], "diagnostics": {"refreshSupport": True}},
}


def write_beside(session: Path, folder: Path) -> tuple[Path, str, dict[str, Any]]:
    """The session written into ``folder`` with one file per document; the file of its most
    cited document, that document's path and the start of a ref into it."""
    data = json.loads(session.read_text(encoding="utf-8"))
    documents = data["documents"] if "documents" in data else data["session"]["documents"]
    for document in documents:
        (folder / document["path"]).write_text(document["content"], encoding="utf-8")
    counts = Counter(
        ref["path"] for annotation in data["annotations"] for ref in [annotation["claim"], *annotation["sources"]]
    )
    cited = max((d["path"] for d in documents), key=lambda p: counts[p])
    start = next(
        ref["start"]
        for annotation in data["annotations"]
        for ref in [annotation["claim"], *annotation["sources"]]
        if ref["path"] == cited and isinstance(ref["start"].get("str"), str) and ref["start"]["str"]
    )
    (folder / "s.sourcecheck.json").write_text(session.read_text(encoding="utf-8"), encoding="utf-8")
    return folder / cited, cited, start


def drifted(text: str, start: dict[str, Any]) -> str:
    """The file changed as a writer changes it: a line added at the top, and the first
    characters a ref cites edited."""
    lines = text.split("\n")
    line = start["line"] - 1
    lines[line] = lines[line].replace(start["str"], start["str"] + "-edited", 1)
    return "A line added at the top.\n" + "\n".join(lines)


def pull_until_drift(server: Server, uri: str, deadline: float) -> int:
    """Pull the session's diagnostics until they hold the drift (after the refresh the server
    asks for); the number of drift diagnostics."""
    while time.perf_counter() < deadline:
        report = server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        found = [d for d in report.get("items", []) if d.get("code") in ("source-changed", "cited-text-changed")]
        if found:
            return len(found)
        time.sleep(0.005)
    raise RuntimeError("no drift diagnostics within the deadline")


def bench_drift(session: Path) -> dict[str, Any]:
    """Time from a source file's change to its drift in the editor, and its parts."""
    from sourcecheck import disk
    from sourcecheck.core.analysis import Analysis
    from sourcecheck.core.resync import plan

    with tempfile.TemporaryDirectory(prefix="sourcecheck-bench-") as name:
        folder = Path(name)
        changed, path, cited = write_beside(session, folder)
        session_path = folder / "s.sourcecheck.json"
        text = session_path.read_text(encoding="utf-8")
        server = Server([sys.executable, "-m", "sourcecheck.lsp"])
        try:
            server.request("initialize", {"processId": None, "rootUri": None, "capabilities": DRIFT_CAPABILITIES})
            server.notify("initialized", {})
            uri = session_path.as_uri()
            server.send_encoded(open_message(uri, text))
            server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})  # analysed, files being read
            time.sleep(1.0)  # the first read of every file, done
            server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            changed.write_text(drifted(changed.read_text(encoding="utf-8"), cited), encoding="utf-8")
            start = time.perf_counter()
            server.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": changed.as_uri(), "type": 2}]})
            shown = pull_until_drift(server, uri, start + 30)
            editor = time.perf_counter() - start
        finally:
            server.close()
        analysis = Analysis(text)
        began = time.perf_counter()
        read = disk.document_file(str(folder), path)
        reading = time.perf_counter() - began
        began = time.perf_counter()
        drift = plan(analysis, {path: read})
        planning = time.perf_counter() - began
        (document,) = drift.documents
        began = time.perf_counter()
        cli = subprocess.run(
            [sys.executable, "-m", "sourcecheck", "sync", "--check", str(session_path)], capture_output=True
        )
        sync = time.perf_counter() - began
        assert cli.returncode == 1, cli.stderr
        return {
            "editor": editor,
            "diagnostics": shown,
            "reading": reading,
            "planning": planning,
            "refs": len(document.refs),
            "changed": len(document.changed_refs),
            "characters": len(read.content) if hasattr(read, "content") else 0,
            "sync": sync,
        }


def rows(sizes: list[str], out: Path) -> list[tuple[str, str, str]]:
    """The drift rows for each size whose session the bench has made."""
    found: list[tuple[str, str, str]] = []
    for size in sizes:
        session = out / f"session-{size}.sourcecheck.json"
        if not session.exists():
            continue
        timed = bench_drift(session)
        found.append((f"drift, {size}: a source file changed on disk", "", ""))
        found.append(
            (
                "  its save to the drift in the editor",
                f"{timed['editor'] * 1000:.0f} ms",
                f"target: under 1 s; {timed['diagnostics']} drift diagnostics "
                f"({timed['refs']} refs into a {timed['characters'] / 1000:.0f} K-character file, "
                f"{timed['changed']} changed)",
            )
        )
        found.append(
            (
                "    reading the file (in this process)",
                f"{timed['reading'] * 1000:.0f} ms",
                "bounded, inside the folder",
            )
        )
        found.append(
            ("    aligning it and carrying its refs", f"{timed['planning'] * 1000:.0f} ms", "core/resync.py plan()")
        )
        found.append(
            ("  CLI (sourcecheck sync --check)", f"{timed['sync'] * 1000:.0f} ms", "including interpreter start")
        )
    return found

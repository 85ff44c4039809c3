"""The bench's LSP client: the real server over stdio, driven as an editor drives it (a
session opened, changed, asked for its diagnostics), timed from the client's side.

It decodes what it is sent with orjson where it is installed (as an editor's C or V8 JSON
parser does: ``json.loads`` takes four times as long on a 500 KB report), and its own cycle
collector does not run while a change waits for its diagnostics (the decoded reports are tens
of thousands of objects; the bench's collector stopping the client is no time of the
server's: it made up to 40 ms of the typing rows' 95th percentile)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

try:
    from orjson import loads as decode
except ImportError:  # pragma: no cover - orjson is a dependency of the server
    decode = json.loads


class Server:
    """A language server over stdio with just enough JSON-RPC to time requests."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        self.send_encoded(self.encode(message))

    @staticmethod
    def encode(message: dict[str, Any]) -> bytes:
        body = json.dumps({"jsonrpc": "2.0", **message}, ensure_ascii=False).encode()
        return f"Content-Length: {len(body)}\r\n\r\n".encode() + body

    def send_encoded(self, message: bytes) -> None:
        self.process.stdin.write(message)  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]

    def read(self) -> dict[str, Any]:
        length = 0
        while True:
            line = self.process.stdout.readline()  # type: ignore[union-attr]
            if not line:
                raise RuntimeError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message: dict[str, Any] = decode(self.process.stdout.read(length))  # type: ignore[union-attr]
        return message

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        my_id = self.next_id
        self.send({"id": my_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == my_id and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result")
            if "method" in message and "id" in message:  # a request from the server: answer it
                self.send(
                    {"id": message["id"], "result": [None] if message["method"] == "workspace/configuration" else None}
                )

    def request_later(self, method: str, params: Any) -> None:
        """Send a request without waiting for its answer (ignored when it comes)."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def memory_mb(self, field: str = "VmHWM") -> float:
        """The server's resident memory now (``VmRSS``) or at its peak so far (``VmHWM``)."""
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()


def open_message(uri: str, text: str) -> bytes:
    """``textDocument/didOpen`` as the bytes sent: encoding 12 MB of JSON is the client's
    work (a tenth of a second here), kept out of both servers' opening times alike."""
    return Server.encode(
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}},
        }
    )


CAPABILITIES = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "diagnostic": {"dynamicRegistration": False},
        "hover": {"contentFormat": ["markdown"]},
        "inlayHint": {},
        "completion": {},
    },
    "workspace": {"configuration": True},
}


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def position(text: str, offset: int) -> dict[str, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return {"line": text.count("\n", 0, offset), "character": utf16(text[line_start:offset])}


def advance(at: dict[str, int], typed: str) -> dict[str, int]:
    """The position just after ``typed``, inserted at ``at``."""
    lines = typed.split("\n")
    if len(lines) == 1:
        return {"line": at["line"], "character": at["character"] + utf16(typed)}
    return {"line": at["line"] + len(lines) - 1, "character": utf16(lines[-1])}


class Session:
    """A file open in the server as an editor holds it: the text and version the server has,
    kept in step with every change sent, so that each is a range of that text."""

    def __init__(self, server: Server, path: Path, text: str) -> None:
        self.server = server
        self.uri = path.resolve().as_uri()
        self.text = text
        self.version = 1
        self.findings = 0
        self.report: dict[str, Any] = {"items": []}

    def open(self) -> tuple[float, dict[str, Any], bytes]:
        """didOpen, then a pull: the time to the first diagnostics, the report, the message."""
        opening = open_message(self.uri, self.text)  # encoded before the clock starts: the editor's work
        start = time.perf_counter()
        self.server.send_encoded(opening)
        report = self.pull()
        return time.perf_counter() - start, report, opening

    def pull(self) -> dict[str, Any]:
        report: dict[str, Any] = self.server.request("textDocument/diagnostic", {"textDocument": {"uri": self.uri}})
        self.findings = finding_count(report)
        self.report = report
        return report

    def send(self, changes: list[dict[str, Any]]) -> float:
        """One didChange, then a pull (as an editor does): the time until the diagnostics arrive.
        The caller keeps ``text`` in step (``edit`` does)."""
        self.version += 1
        collecting = gc.isenabled()
        gc.disable()
        try:
            start = time.perf_counter()
            self.server.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": self.uri, "version": self.version}, "contentChanges": changes},
            )
            self.pull()
            return time.perf_counter() - start
        finally:
            if collecting:
                gc.enable()

    def edit(self, *edits: tuple[int, int, str]) -> float:
        """One didChange replacing each ``(start, end)`` range of offsets by a text, each on the
        text the previous one left; the time until its diagnostics arrive."""
        changes = []
        for start, end, new in edits:
            changes.append(
                {"range": {"start": position(self.text, start), "end": position(self.text, end)}, "text": new}
            )
            self.text = self.text[:start] + new + self.text[end:]
        return self.send(changes)


def start_server() -> Server:
    server = Server([sys.executable, "-m", "sourcecheck.lsp"])
    server.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": CAPABILITIES})
    server.notify("initialized", {})
    return server


def open_once(path: Path) -> float:
    """Open to first diagnostics in a fresh server."""
    server = start_server()
    try:
        return Session(server, path, path.read_text(encoding="utf-8")).open()[0]
    finally:
        server.close()


class Fresh:
    """A second server, to which the text after a timed change is opened anew: the diagnostics
    that change must have given, whatever the first server kept from before it. Changes whose
    diagnostics differ are named in ``differing`` (a fast wrong answer is no result)."""

    def __init__(self) -> None:
        self.server = start_server()
        self.differing: set[str] = set()

    def check(self, session: Session, name: str) -> None:
        self.server.send_encoded(open_message(session.uri, session.text))
        report = self.server.request("textDocument/diagnostic", {"textDocument": {"uri": session.uri}})
        self.server.notify("textDocument/didClose", {"textDocument": {"uri": session.uri}})

        def canonical(report: dict[str, Any]) -> list[str]:
            return sorted(json.dumps(item, sort_keys=True, ensure_ascii=False) for item in report["items"])

        if canonical(report) != canonical(session.report):
            self.differing.add(name)
            print(
                f"({name}: {finding_count(session.report)} findings, where a fresh open of the same text "
                f"has {finding_count(report)}, or the same number but not the same diagnostics)",
                file=sys.stderr,
            )

    def close(self) -> None:
        self.server.close()


def finding_count(report: dict[str, Any]) -> int:
    """The findings a pulled report stands for: past 1000, the server sends the first 1000 and a
    note that says how many there are."""
    for item in report["items"]:
        if item.get("code") == "too-many-findings":
            return int(item["message"].split()[0])
    return len(report["items"])

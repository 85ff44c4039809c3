"""The benchmark: sourcecheck-ls driven over stdio as an editor drives it, on 100 KB, 1 MB and 12 MB.

    python -m bench.run              all sizes (about two minutes), from the repository root
    python -m bench.run --sizes 100K,1M --edits 20

For each size it prints medians and 95th percentiles of: open to first diagnostics, a
one-character edit inside a ref to its new diagnostics, an edit in a document's content,
hover, definition, completion and inlay hints for a screenful; for 1 MB and 12 MB, a hover
in another (small) session while the big one is checked in full, and a hover in the big one
after a burst of edits that each need a full check; the server's memory after opening and
at its peak; the CLI on the same file; and ratios against baselines measured in the same
run (``json.loads`` plus plain resolution of every ref; vscode-json-language-server
validating against our JSON Schema, when ``npm`` can provide it in .cache/). Two floors
are measured too, as what no server over LSP can go below: decoding the 12 MB open message
(as pygls must, before it sees the text) plus the baseline; and the client decoding the
diagnostics report, which LSP has the server send whole again after every edit.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.sessiongen import generate_sized, parse_size

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


SIZES = {"100K": 300, "1M": 3000, "12M": 30000}


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
        return json.loads(self.process.stdout.read(length))  # type: ignore[union-attr]

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


def position(text: str, offset: int) -> dict[str, int]:
    before = text[:offset]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return {"line": line, "character": len(column.encode("utf-16-le")) // 2}


def ms(seconds: list[float]) -> tuple[float, float]:
    values = sorted(s * 1000 for s in seconds)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return statistics.median(values), p95


def baseline(text: str) -> float:
    """json.loads plus the plainest resolution of every ref: what any checker must at least do."""
    start = time.perf_counter()
    root = json.loads(text)
    docs = {d["path"]: d["content"].split("\n") for d in root["documents"]}
    for annotation in root["annotations"]:
        for ref in [annotation["claim"], *annotation["sources"]]:
            lines = docs.get(ref.get("path"))
            if lines is None:
                continue
            try:
                a = lines[ref["start"]["line"] - 1].find(ref["start"]["str"])
                b = lines[ref["end"]["line"] - 1].find(ref["end"]["str"])
                del a, b
            except (IndexError, TypeError, KeyError, AttributeError):
                pass
    return time.perf_counter() - start


def decode_time(body: bytes) -> float:
    """What ``json.loads`` of a message body takes (best of 5): every client decodes each
    report it is sent, and every Python server each message, before any other work."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        json.loads(body)
        best = min(best, time.perf_counter() - start)
    return best


def ref_offsets(text: str, count: int) -> list[int]:
    """Offsets just inside ``start.str`` values of claims, spread over the file."""
    found, at = [], text.find('"annotations"')
    while len(found) < count * 5:
        at = text.find('"str": "', at + 1)
        if at < 0:
            break
        found.append(at + len('"str": "') + 1)
    step = max(1, len(found) // count)
    return found[::step][:count]


def after_first_annotation(text: str) -> int:
    """The offset just after the comma that follows the first annotation."""
    first = text.index("{", text.index("[", text.index('"annotations"')))
    _, end = json.JSONDecoder().raw_decode(text, first)
    return text.index(",", end) + 1


LONG_CHECK = ("hover elsewhere during a full check", "hover after 5 edits each needing one")


def long_check_timings(server: Server, text: str, uri: str, version: int, other: Path) -> dict[str, list[float]]:
    """While the server checks the whole big file again, a hover in another, small session;
    and after a burst of edits that each need a full check, a hover in the big file (it
    waits for the newest version's check only, the others being called off)."""
    small = other.read_text(encoding="utf-8")
    small_uri = other.resolve().as_uri()
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": small_uri, "languageId": "json", "version": 1, "text": small}}
    )
    small_spot = position(small, ref_offsets(small, 1)[0])
    server.request("textDocument/hover", {"textDocument": {"uri": small_uri}, "position": small_spot})
    at = position(text, ref_offsets(text, 1)[0])
    # A letter typed between two annotations: outside every array item, and not JSON, so
    # the whole file is parsed and checked again (whitespace there, or any edit inside an
    # item, even one that breaks it, is not).
    between = after_first_annotation(text)
    letter = {"range": {"start": position(text, between), "end": position(text, between)}, "text": "x"}
    other_hovers, burst_hovers = [], []

    def type_a_letter_between_annotations() -> None:  # as an editor does: the change, then a pull
        nonlocal version
        version += 1
        server.notify(
            "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [letter]}
        )
        server.request_later("textDocument/diagnostic", {"textDocument": {"uri": uri}})

    for _ in range(3):
        type_a_letter_between_annotations()
        time.sleep(0.05)  # the full check is under way
        t0 = time.perf_counter()
        server.request("textDocument/hover", {"textDocument": {"uri": small_uri}, "position": small_spot})
        other_hovers.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for _ in range(5):
            type_a_letter_between_annotations()
        server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": at})
        burst_hovers.append(time.perf_counter() - t0)
    return {"hover elsewhere during a full check": other_hovers, "hover after 5 edits each needing one": burst_hovers}


def bench_server(path: Path, edits: int, other: Path | None = None) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    server = Server([sys.executable, "-m", "sourcecheck.lsp"])
    result: dict[str, Any] = {}
    try:
        server.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": CAPABILITIES})
        server.notify("initialized", {})
        opening = open_message(uri, text)  # encoded before the clock starts: the editor's work
        start = time.perf_counter()
        server.send_encoded(opening)
        first = server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        result["open"] = [time.perf_counter() - start]
        result["findings"] = len(first["items"])
        result["open message decode"] = decode_time(opening[opening.index(b"\r\n\r\n") + 4 :])
        report = json.dumps({"jsonrpc": "2.0", "id": 1, "result": first}).encode()
        result["report"] = (len(report), decode_time(report))
        result["memory after opening"] = server.memory_mb("VmRSS")
        version = 1
        timings = []
        for at in ref_offsets(text, edits):
            for insert in (True, False):  # type a character, then delete it again
                version += 1
                pos = position(text, at)
                end = dict(pos) if insert else {"line": pos["line"], "character": pos["character"] + 1}
                change = {"range": {"start": pos, "end": end}, "text": "x" if insert else ""}
                t0 = time.perf_counter()
                server.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
                )
                server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
                timings.append(time.perf_counter() - t0)
        result["edit in a ref"] = timings
        # In the last document, a source that a fraction of the refs cite (the first, the
        # article, holds every claim: an edit there re-checks every annotation).
        content_at = text.rfind('"content": "', 0, text.find('"annotations"')) + len('"content": "') + 5
        timings = []
        for i in range(max(4, edits // 4)):
            version += 1
            pos = position(text, content_at)
            change = {
                "range": {
                    "start": pos,
                    "end": pos if i % 2 == 0 else {"line": pos["line"], "character": pos["character"] + 1},
                },
                "text": "y" if i % 2 == 0 else "",
            }
            t0 = time.perf_counter()
            server.notify(
                "textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
            )
            server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            timings.append(time.perf_counter() - t0)
        result["edit in a source's content"] = timings
        spots = ref_offsets(text, 30)
        for name, method in (
            ("hover", "textDocument/hover"),
            ("definition", "textDocument/definition"),
            ("completion", "textDocument/completion"),
        ):
            timings = []
            for at in spots:
                t0 = time.perf_counter()
                server.request(method, {"textDocument": {"uri": uri}, "position": position(text, at)})
                timings.append(time.perf_counter() - t0)
            result[name] = timings
        timings = []
        for at in spots:
            line = position(text, at)["line"]
            t0 = time.perf_counter()
            server.request(
                "textDocument/inlayHint",
                {
                    "textDocument": {"uri": uri},
                    "range": {"start": {"line": line, "character": 0}, "end": {"line": line + 60, "character": 0}},
                },
            )
            timings.append(time.perf_counter() - t0)
        result["inlay hints (60 lines)"] = timings
        result["peak memory"] = server.memory_mb("VmHWM")
        if other is not None:
            result.update(long_check_timings(server, text, uri, version, other))
    finally:
        server.close()
    return result


def bench_cli(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sourcecheck", "--json", str(path)], stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


PEER = ROOT / ".cache" / "json-peer"


def peer_command() -> list[str] | None:
    """vscode-json-language-server, installed into .cache/json-peer by npm on first use."""
    binary = PEER / "node_modules" / ".bin" / "vscode-json-language-server"
    if not binary.exists():
        PEER.mkdir(parents=True, exist_ok=True)
        (PEER / "package.json").write_text('{"name": "json-peer", "private": true}\n')
        try:
            subprocess.run(
                [
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    "vscode-langservers-extracted@4.10.0",
                ],
                cwd=PEER,
                check=True,
                timeout=600,
            )
        except (OSError, subprocess.SubprocessError) as error:
            print(f"(no JSON peer: npm could not install vscode-langservers-extracted: {error})", file=sys.stderr)
            return None
    return [str(binary), "--stdio"]


def bench_peer(path: Path) -> float | None:
    """vscode-json-language-server: open to first (pulled) diagnostics against our schema."""
    command = peer_command()
    if command is None:
        return None
    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    schema = json.loads((ROOT / "schema" / "sourcecheck.schema.json").read_text())
    server = Server(command)
    try:
        server.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": None,
                "capabilities": CAPABILITIES,
                "initializationOptions": {"provideFormatter": False},
            },
        )
        server.notify("initialized", {})
        server.notify(
            "workspace/didChangeConfiguration",
            {
                "settings": {
                    "json": {"validate": {"enable": True}, "schemas": [{"fileMatch": ["*.json"], "schema": schema}]}
                }
            },
        )
        opening = open_message(uri, text)
        start = time.perf_counter()
        server.send_encoded(opening)
        server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        return time.perf_counter() - start
    finally:
        server.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100K,1M,12M")
    parser.add_argument("--edits", type=int, default=25, help="one-character edits per size (each typed, then deleted)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    rows: list[tuple[str, str, str]] = []
    edit_medians: dict[str, float] = {}
    report_floors: dict[str, float] = {}
    for size in args.sizes.split(","):
        path = OUT / f"session-{size}.sourcecheck.json"
        if not path.exists():
            path.write_text(generate_sized(parse_size(size), SIZES.get(size, 3000), seed=1).text(), encoding="utf-8")
        text = path.read_text(encoding="utf-8")
        base = min(baseline(text) for _ in range(3))
        other = OUT / "session-100K.sourcecheck.json"
        if size != "100K" and not other.exists():
            other.write_text(generate_sized(parse_size("100K"), SIZES["100K"], seed=1).text(), encoding="utf-8")
        server = bench_server(path, args.edits, other if size != "100K" else None)
        cli = bench_cli(path)
        peer = bench_peer(path)
        label = f"{size} ({len(text.encode()) / 1e6:.1f} MB, {server['findings']} diagnostics)"
        rows.append((label, "", ""))
        rows.append(("  baseline: json.loads + plain resolution", f"{base * 1000:.0f} ms", ""))
        open_ms = server["open"][0] * 1000
        rows.append(
            (
                "  open to first diagnostics",
                f"{open_ms:.0f} ms",
                f"{open_ms / (base * 1000):.1f}x baseline"
                + (f", {open_ms / (peer * 1000):.2f}x the JSON peer ({peer * 1000:.0f} ms)" if peer else ""),
            )
        )
        floor = (server["open message decode"] + base) * 1000
        rows.append(
            (
                "    floor: decoding the open message + baseline",
                f"{floor:.0f} ms",
                f"{floor / (base * 1000):.1f}x baseline, before any position or rule",
            )
        )
        for name in (
            "edit in a ref",
            "edit in a source's content",
            "hover",
            "definition",
            "completion",
            "inlay hints (60 lines)",
            *LONG_CHECK,
        ):
            if name not in server:
                continue
            median, p95 = ms(server[name])
            rows.append((f"  {name}", f"median {median:.1f} ms", f"p95 {p95:.1f} ms"))
            if name == "edit in a ref":
                edit_medians[size] = median
                size_bytes, decode = server["report"]
                report_floors[size] = decode * 1000
                rows.append(
                    (
                        f"    floor: the client decoding the report ({size_bytes / 1000:.0f} KB)",
                        f"{decode * 1000:.1f} ms",
                        "sent again whole after every edit (LSP)",
                    )
                )
        rows.append(
            (
                "  server memory after opening",
                f"{server['memory after opening']:.0f} MB",
                f"peak {server['peak memory']:.0f} MB over the whole run",
            )
        )
        rows.append(("  CLI (sourcecheck --json)", f"{cli * 1000:.0f} ms", "including interpreter start"))
    if "100K" in edit_medians and len(edit_medians) > 1:
        largest = list(edit_medians)[-1]
        small = edit_medians["100K"]
        # The larger file's edit takes the same messages as the small one's, and its client
        # decodes the larger report: a ratio no server can go below.
        floor = (small + report_floors[largest] - report_floors["100K"]) / small
        rows.append(
            (
                f"edit median, {largest} / 100K",
                f"{edit_medians[largest] / small:.1f}x",
                f"floor {floor:.1f}x: the 100K edit plus decoding the larger report",
            )
        )
    width = max(len(r[0]) for r in rows) + 2
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    for name, a, b in rows:
        print(f"{name:<{width}}{a:<18}{b}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

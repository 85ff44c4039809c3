"""The benchmark: sourcecheck-ls driven over stdio as an editor drives it, on 100 KB, 1 MB and 12 MB.

    python -m bench.run              all sizes (a minute or two), from the repository root
    python -m bench.run --sizes 100K,1M --edits 20
    python -m bench.run --only typing,structure,open,ratio --keystrokes 40

For each size it prints medians and 95th percentiles of: open to first diagnostics (in
three fresh servers: median and min); a one-character edit inside a ref to its new
diagnostics, an edit in a document's content; hover, definition, completion and inlay
hints for a screenful; for 1 MB and 12 MB, a hover in another (small) session while the
big one is checked in full, and a hover in the big one after a burst of edits that each
need a full check; the server's memory after opening and at its peak; the CLI on the same
file; and ratios against baselines measured in the same run (``json.loads`` plus plain
resolution of every ref; vscode-json-language-server validating against our JSON Schema,
when ``npm`` can provide it in .cache/, opened three times too). Two floors are measured
too, as what no server over LSP can go below: decoding the 12 MB open message (as pygls
must, before it sees the text) plus the baseline; and the client decoding the diagnostics
report, which LSP has the server send whole again after every edit.

Then what a writer does to a session, each change timed until its diagnostics arrive (a
didChange, then a pulled textDocument/diagnostic), the file restored after each:

- typing a new annotation (group ``typing``), one keystroke per didChange, at the start of
  ``annotations`` (just after its ``[``), in the middle (after the comma that ends the line
  of the annotation before the middle one: Enter, then the annotation and its comma) and
  after the last one: a copy of an annotation of the file that has one source and no
  finding, its source's polarity and confidence changed, pretty-printed as the file's
  others are (some 270 keystrokes: every character as typed, no bracket or quote closed for
  the writer, an Enter bringing the next line's indentation along as an editor's
  auto-indent does), with the comma that keeps the file valid; and (``same line``) the same
  annotation on one line, then ``, ``, typed in front of the middle one on its line;
  ``--keystrokes N`` types the first N one by one and the rest in one edit. For the larger
  sizes, each position's median over 100K's;
- pasting 50 annotations (copies of 50 of the file's, from its first quarter) before the
  middle one, deleting one annotation, cutting one in the first quarter and pasting it in
  the third (two changes, each timed), adding a small document at the end of
  ``documents`` and removing it, removing the last (cited) document and pasting it back
  (group ``structure``), each ``--repeats`` times;
- after each typing, and the first time each structural change is made, the diagnostics
  compared with those a second, fresh server gives for the same text: a row whose answer
  differs says so (``--no-verify`` skips this);
- the edit in a ref again on a 12 MB session with as few findings as the 100 KB one
  (``session-12M-fewfindings``: as many broken refs), so that the ratio of the edits
  measures the server and not the size of the report LSP resends (group ``ratio``); with
  ``typing`` too, the new annotation typed there as well.

``--only`` runs some groups of rows: open, edits, requests, long, typing, structure,
ratio, memory, cli, drift, pipelines, hostile, storms, dask (all by default; drift: see bench/drift.py).
``pipelines`` is bench/pipelines.py: the Python API in process, many files with ``--jobs``,
a 1 GB JSON Lines file, ``--json`` on 12 MB (``--jsonl-size`` makes that file smaller).
``hostile`` is bench/hostile.py: inputs made to cost, each beside a larger one; ``storms``
bench/storms.py: the server's memory and a hover after storms of file events; ``dask``
bench/dask_driver.py: the Dask recipe's driver memory as the JSON Lines file grows.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.brace import Brace, brace_in_process
from bench.client import (
    CAPABILITIES,
    Fresh,
    Server,
    Session,
    advance,
    finding_count,
    open_message,
    open_once,
    position,
    start_server,
)
from bench.client import decode as client_decode
from bench.sessiongen import generate_sized, parse_size

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"


SIZES = {"100K": 300, "1M": 3000, "12M": 30000}


def ms(seconds: list[float]) -> tuple[float, float]:
    values = sorted(s * 1000 for s in seconds)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return statistics.median(values), p95


def baseline(text: str) -> float:
    """json.loads plus the plainest resolution of every ref: what any checker must at least do."""
    start = time.perf_counter()
    resolve_every_ref(json.loads(text))
    return time.perf_counter() - start


def resolve_every_ref(root: Any, once_only: bool = False) -> None:
    """Each ref's two boundaries looked for on their lines, building nothing; ``once_only``:
    with what the rules add to that at least, each found once and only once (a second find
    from just after it): what checking cannot go below, in Python."""
    docs = {d["path"]: d["content"].split("\n") for d in root["documents"]}
    for annotation in root["annotations"]:
        for ref in [annotation["claim"], *annotation["sources"]]:
            lines = docs.get(ref.get("path"))
            if lines is None:
                continue
            try:
                for boundary in (ref["start"], ref["end"]):
                    line, needle = lines[boundary["line"] - 1], boundary["str"]
                    at = line.find(needle)
                    if once_only and (at < 0 or line.find(needle, at + 1) >= 0):
                        break
            except (IndexError, TypeError, KeyError, AttributeError):
                pass


def best_of(runs: int, work: Any) -> float:
    """The least time ``work()`` takes in ``runs`` runs, the cycle collector off (as the
    server has it while it builds an analysis)."""
    best = float("inf")
    gc.disable()
    try:
        for _ in range(runs):
            start = time.perf_counter()
            result = work()
            best = min(best, time.perf_counter() - start)
            del result
    finally:
        gc.enable()
    return best


def open_parts(text: str) -> dict[str, float]:
    """Where opening's time goes, part by part, in this process (best of 3 each), beside
    what each part must at least do: parsing with positions beside ``json.loads``;
    checking the rules and building the model beside the plainest resolution of every ref."""
    from sourcecheck.core.analysis import Analysis
    from sourcecheck.core.rules import check
    from sourcecheck.core.syntax import to_python

    try:
        from sourcecheck.core.schema import parse_session as parse
    except ImportError:  # before core/schema.py (a bench of an older checkout)
        from sourcecheck.core.syntax import parse  # type: ignore[no-redef]

    value = to_python(parse(text).root)
    loads = best_of(3, lambda: json.loads(text))
    return {
        "parse": best_of(3, lambda: parse(text)),
        "json.loads": loads,
        "check": best_of(3, lambda: check(value)),
        "plain resolution": max(0.0, best_of(3, lambda: baseline(text)) - loads),
        "unique resolution": max(1e-6, best_of(3, lambda: resolve_every_ref(json.loads(text), True)) - loads),
        "diagnostics": min(best_of(1, diagnostics_of(Analysis(text))) for _ in range(3)),
    }


def diagnostics_of(analysis: Any) -> Any:
    """The work of the first diagnostics of an analysis, as the server does it."""
    from sourcecheck.lsp.app import View
    from sourcecheck.lsp.features.diagnostics import diagnostics

    return lambda: diagnostics(View("file:///bench.sourcecheck.json", 1, analysis))


def decode_time(body: bytes, decode: Any = json.loads) -> float:
    """What decoding a message body takes (best of 5; ``json.loads`` unless told): every
    client decodes each report it is sent, and every server each message, before any
    other work."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        decode(body)
        best = min(best, time.perf_counter() - start)
    return best


def ref_offsets(text: str, count: int) -> list[int]:
    """Offsets just inside ``start.str`` values of claims, spread over the file."""
    found: list[int] = []
    at = text.find('"annotations"')
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
    # A letter typed between two annotations: outside every array item, and not JSON. Until
    # the structural edits were made incremental this was a full check of the whole file;
    # now it is an edit of the region between two annotations (the rows' names are kept,
    # to compare with earlier figures; see the README).
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


def edits_in_refs(session: Session, edits: int) -> list[float]:
    """A character typed just inside a claim's ``start.str``, then deleted, at ``edits`` places."""
    text, timings = session.text, []
    for at in ref_offsets(text, edits):
        for insert in (True, False):  # type a character, then delete it again
            pos = position(text, at)
            end = dict(pos) if insert else {"line": pos["line"], "character": pos["character"] + 1}
            timings.append(session.send([{"range": {"start": pos, "end": end}, "text": "x" if insert else ""}]))
    return timings


SEPARATOR = re.compile(r"[\s,]*")


def item_spans(text: str, key: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` offsets of the objects in the top-level array ``key``."""
    decoder = json.JSONDecoder()
    at = text.index("[", text.index(f'"{key}"')) + 1
    spans: list[tuple[int, int]] = []
    while True:
        at = SEPARATOR.match(text, at).end()  # type: ignore[union-attr]
        if text[at] != "{":
            return spans
        _, end = decoder.raw_decode(text, at)
        spans.append((at, end))
        at = end


def indented(value: Any) -> str:
    """``value`` pretty-printed as an item of a top-level array of the file (at 4 spaces)."""
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n    ")


def new_annotation(text: str, spans: list[tuple[int, int]], report: dict[str, Any]) -> str:
    """A new annotation, as a writer would type it: the first of the file's with one source and
    no finding in its lines, its source's polarity flipped and its confidence moved by 0.01
    (it cites what that one cites, with the same valid boundaries)."""
    flagged = {item["range"]["start"]["line"] for item in report["items"]}
    line, last = 0, 0
    for start, end in spans:
        line, last = line + text.count("\n", last, start), start
        value = json.loads(text[start:end])
        if len(value["sources"]) != 1 or flagged & set(range(line, line + text.count("\n", start, end) + 1)):
            continue
        assert indented(value) == text[start:end], "the file is not pretty-printed as the generator writes it"
        source = value["sources"][0]
        source["polarity"] = "refutes" if source["polarity"] == "supports" else "supports"
        source["confidence"] = round(source["confidence"] + (0.01 if source["confidence"] < 0.5 else -0.01), 2)
        return indented(value)
    raise RuntimeError("no annotation with one source and no finding to copy")


def keystrokes(typed: str) -> list[str]:
    """``typed`` as typed: a character at a time (no bracket or quote closed for the writer),
    except that Enter brings the next line's indentation along, as an editor's auto-indent does."""
    return re.findall(r"\n *|.", typed, re.DOTALL)


TYPING = ("start", "middle", "end", "same line")


@dataclass(frozen=True)
class Typed:
    """A new annotation typed at one place: each keystroke's time (s), how many keystrokes the
    whole annotation takes, and the slowest keystroke (what the maximum is made of)."""

    timings: list[float]
    total: int
    slowest: str


def typing_timings(
    session: Session, report: dict[str, Any], count: int | None, fresh: Fresh | None = None
) -> dict[str, Typed]:
    """A new annotation typed at each place of ``TYPING``: the time of each keystroke, until its
    diagnostics arrive, how many keystrokes the whole annotation takes, and which was slowest. After each, the
    file is valid again with no new finding, and is then restored (one edit deleting the
    annotation, waited for)."""
    original, findings = session.text, session.findings
    spans = item_spans(original, "annotations")
    annotation = new_annotation(original, spans, report)
    places = {
        "start": (original.index("[", original.index('"annotations"')) + 1, "\n    " + annotation + ","),
        # After the comma that ends the line of the annotation before the middle one: the
        # writer presses Enter there and types (as at the start, after the `[`).
        "middle": (original.index(",", spans[len(spans) // 2 - 1][1]) + 1, "\n    " + annotation + ","),
        "end": (spans[-1][1], ",\n    " + annotation),
        # In front of the middle one, on its line (no Enter): the annotation written on one line.
        "same line": (spans[len(spans) // 2][0], json.dumps(json.loads(annotation)) + ", "),
    }
    out = {}
    for where in TYPING:
        at, typed = places[where]
        keys = keystrokes(typed)
        typing = keys if count is None else keys[:count]
        pos, timings = position(original, at), []
        for key in typing:
            timings.append(session.send([{"range": {"start": pos, "end": pos}, "text": key}]))
            pos = advance(pos, key)
        rest = "".join(keys[len(typing) :])
        if rest:
            session.send([{"range": {"start": pos, "end": pos}, "text": rest}])
        session.text = original[:at] + typed + original[at:]
        json.loads(session.text)  # valid JSON, the comma where it must be
        if session.findings != findings:
            print(f"(typing ({where}): {session.findings} findings, not {findings})", file=sys.stderr)
        if fresh is not None:
            fresh.check(session, where)
        session.edit((at, at + len(typed), ""))
        out[where] = Typed(timings, len(keys), typing[max(range(len(timings)), key=timings.__getitem__)])
    assert session.text == original
    return out


STRUCTURE = (
    "paste 50 annotations (middle)",
    "delete one annotation (middle)",
    "cut one annotation (first quarter)",
    "  then paste it (third quarter)",
    "add a document (at the end)",
    "  then remove it",
    "remove a cited document (the last)",
    "  then paste it back",
)


def structure_timings(session: Session, repeats: int, fresh: Fresh | None = None) -> dict[str, Any]:
    """Pasting, deleting and moving annotations, adding and removing documents: each change
    timed until its diagnostics arrive, each undone (in one change, waited for) before the next;
    the first time, what each gave checked against a fresh server's diagnostics."""
    original, findings = session.text, session.findings
    spans = item_spans(original, "annotations")
    n = len(spans)
    out: dict[str, Any] = {name: [] for name in STRUCTURE}

    def timed(name: str, *edits: tuple[int, int, str]) -> None:
        out[name].append(session.edit(*edits))
        if fresh is not None and len(out[name]) == 1:
            fresh.check(session, name)

    def undo(what: str, *edits: tuple[int, int, str]) -> None:
        if edits:
            session.edit(*edits)
        if session.findings != findings or session.text != original:
            print(f"({what}: not undone: {session.findings} findings, not {findings})", file=sys.stderr)

    # 50 annotations copied from the first quarter, pasted before the middle one.
    first, pasted = min(n // 4, max(0, n - 50)), min(50, n)
    copied = original[spans[first][0] : spans[first + pasted - 1][1]] + ",\n    "
    middle = spans[n // 2][0]
    for _ in range(repeats):
        timed(STRUCTURE[0], (middle, middle, copied))
        undo("paste", (middle, middle + len(copied), ""))
    for r in range(repeats):  # an annotation with the comma and indentation after it
        start, end = spans[n // 2 + r][0], spans[n // 2 + r + 1][0]
        timed(STRUCTURE[1], (start, end, ""))
        undo("delete", (start, start, original[start:end]))
    for r in range(repeats):
        start, end = spans[n // 4 + r][0], spans[n // 4 + r + 1][0]
        cut = original[start:end]
        timed(STRUCTURE[2], (start, end, ""))
        target = spans[3 * n // 4 + r][0] - len(cut)
        timed(STRUCTURE[3], (target, target, cut))
        undo("cut and paste", (target, target + len(cut), ""), (start, start, cut))
    documents = item_spans(original, "documents")
    article = json.loads(original[documents[0][0] : documents[0][1]])["content"].split("\n")
    added = ",\n    " + indented({"path": "added-document", "content": "\n".join(article[:5])})
    end = documents[-1][1]
    for _ in range(repeats):
        timed(STRUCTURE[4], (end, end, added))
        timed(STRUCTURE[5], (end, end + len(added), ""))
        undo("add a document")
    start = documents[-2][1]
    removed = original[start:end]  # the comma before it too
    for _ in range(repeats):
        timed(STRUCTURE[6], (start, end, ""))
        out["unresolved"] = session.findings - findings
        timed(STRUCTURE[7], (start, start, removed))
        undo("remove a document")
    return out


def bench_server(
    path: Path,
    edits: int,
    other: Path | None = None,
    groups: frozenset[str] = frozenset(),
    typed: int | None = None,
    repeats: int = 5,
    verify: bool = True,
) -> dict[str, Any]:
    groups = groups or frozenset(GROUPS)
    from sourcecheck.lsp.stdio import decode as server_decode

    text = path.read_text(encoding="utf-8")
    uri = path.resolve().as_uri()
    server = start_server()
    session = Session(server, path, text)
    result: dict[str, Any] = {}
    try:
        opened, first, opening = session.open()
        result["open"] = [opened]
        result["findings"] = len(first["items"])
        result["finding count"] = session.findings
        result["open message decode"] = decode_time(opening[opening.index(b"\r\n\r\n") + 4 :], server_decode)
        report = json.dumps({"jsonrpc": "2.0", "id": 1, "result": first}).encode()
        result["report"] = (len(report), decode_time(report, client_decode))
        result["memory after opening"] = server.memory_mb("VmRSS")
        if groups & {"edits", "ratio"}:
            result["edit in a ref"] = edits_in_refs(session, edits)
        if "edits" in groups:
            # In the last document, a source that a fraction of the refs cite (the first, the
            # article, holds every claim: an edit there re-checks every annotation).
            content_at = text.rfind('"content": "', 0, text.find('"annotations"')) + len('"content": "') + 5
            timings = []
            count = max(4, edits // 4)
            for i in range(count + count % 2):  # an even number: the text is as it was after
                pos = position(text, content_at)
                change = {
                    "range": {
                        "start": pos,
                        "end": pos if i % 2 == 0 else {"line": pos["line"], "character": pos["character"] + 1},
                    },
                    "text": "y" if i % 2 == 0 else "",
                }
                timings.append(session.send([change]))
            result["edit in a source's content"] = timings
        if "requests" in groups:
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
        fresh = Fresh() if verify and groups & {"typing", "structure"} else None
        try:
            if "typing" in groups:
                result["typing"] = typing_timings(session, first, typed, fresh)
                result["brace"] = brace_in_process(text)
            if "structure" in groups:
                result.update(structure_timings(session, repeats, fresh))
        finally:
            if fresh is not None:
                fresh.close()
        result["differing"] = fresh.differing if fresh is not None else set()
        if groups & {"typing", "structure"}:
            result["peak memory, all rows"] = server.memory_mb("VmHWM")
        if other is not None and "long" in groups:  # last: it leaves letters in the file
            result.update(long_check_timings(server, text, uri, session.version, other))
    finally:
        server.close()
    return result


def bench_edits(
    path: Path, edits: int, keystrokes: int | None, typing: bool
) -> tuple[int, list[float], dict[str, Typed]]:
    """The edit in a ref, then (with ``typing``) a new annotation typed at each place, in a
    fresh server: the findings on opening, the timings of the edits, those of the keystrokes."""
    server = start_server()
    try:
        session = Session(server, path, path.read_text(encoding="utf-8"))
        report = session.open()[1]
        findings = finding_count(report)
        timings = edits_in_refs(session, edits)
        return findings, timings, typing_timings(session, report, keystrokes) if typing else {}
    finally:
        server.close()


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


GROUPS = (
    "open",
    "edits",
    "requests",
    "long",
    "typing",
    "structure",
    "ratio",
    "memory",
    "cli",
    "drift",
    "pipelines",
    "hostile",
    "storms",
    "dask",
)
SIZELESS = ("pipelines", "hostile", "storms", "dask")
"""Groups whose rows need no generated session nor server (run alone, the sizes are skipped)."""


def few_findings(size: str) -> Path:
    """A session of ``size`` with as many broken refs as the 100 KB one has (about), made once."""
    path = OUT / f"session-{size}-fewfindings.sourcecheck.json"
    if not path.exists():
        refs = SIZES.get(size, 3000)
        generated = generate_sized(parse_size(size), refs, seed=1, broken_refs=round(0.03 * SIZES["100K"]))
        path.write_text(generated.text(), encoding="utf-8")
    return path


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100K,1M,12M")
    parser.add_argument("--edits", type=int, default=25, help="one-character edits per size (each typed, then deleted)")
    parser.add_argument(
        "--only",
        default=",".join(GROUPS),
        help=f"comma-separated groups of rows, of: {', '.join(GROUPS)} (default: all)",
    )
    parser.add_argument(
        "--keystrokes",
        type=int,
        default=None,
        help="type the first N keystrokes of each new annotation one by one, the rest in one edit (default: all)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="times each structural change is made (and undone)")
    parser.add_argument("--jsonl-size", default="1G", help="the JSON Lines file of the pipelines rows (default 1G)")
    parser.add_argument("--opens", type=int, default=3, help="fresh servers (and peers) opening each file")
    parser.add_argument(
        "--no-verify",
        dest="verify",
        action="store_false",
        help="do not check the diagnostics after typing and structural changes against a fresh server's",
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.opens < 1 or (args.keystrokes is not None and args.keystrokes < 1):
        parser.error("--repeats, --opens and --keystrokes take a number from 1 up")
    args.groups = frozenset(g.strip() for g in args.only.split(",") if g.strip())
    if args.groups - set(GROUPS):
        unknown = ", ".join(sorted(args.groups - set(GROUPS)))
        parser.error(f"unknown groups: {unknown} (known: {', '.join(GROUPS)})")
    return args


Row = tuple[str, str, str]
WRONG = "; NOT what a fresh open of the same text gives"


@dataclass
class Medians:
    """What the rows across sizes are made of: each size's medians and floors (ms)."""

    edits: dict[str, float] = field(default_factory=dict)
    report_floors: dict[str, float] = field(default_factory=dict)
    typing: dict[str, dict[str, float]] = field(default_factory=dict)
    findings: dict[str, int] = field(default_factory=dict)


def session_file(size: str) -> Path:
    """The generated session of ``size`` (made once)."""
    path = OUT / f"session-{size}.sourcecheck.json"
    if not path.exists():
        path.write_text(generate_sized(parse_size(size), SIZES.get(size, 3000), seed=1).text(), encoding="utf-8")
    return path


def open_rows(server: dict[str, Any], text: str, path: Path, opens: int) -> list[Row]:
    """Opening: the median of fresh servers beside the baseline and the JSON peer, the floor,
    and the parts of opening measured in this process."""
    rows: list[Row] = []
    base = min(baseline(text) for _ in range(3))
    opened = server["open"] + [open_once(path) for _ in range(opens - 1)]
    peers = [bench_peer(path) for _ in range(opens)]
    timed = [p for p in peers if p is not None]
    peer = statistics.median(timed) if timed and len(timed) == len(peers) else None
    rows.append(("  baseline: json.loads + plain resolution", f"{base * 1000:.0f} ms", ""))
    open_ms = statistics.median(opened) * 1000
    rows.append(
        (
            "  open to first diagnostics",
            f"{open_ms:.0f} ms",
            f"{open_ms / (base * 1000):.1f}x baseline"
            + (f", {open_ms / (peer * 1000):.2f}x the JSON peer ({peer * 1000:.0f} ms)" if peer else ""),
        )
    )
    if len(opened) > 1:
        each = "runs " + ", ".join(f"{o * 1000:.0f}" for o in opened) + " ms"
        if peer:
            each += "; the peer " + ", ".join(f"{p * 1000:.0f}" for p in timed) + " ms"
            each += "; each / its peer run " + ", ".join(f"{o / p:.2f}x" for o, p in zip(opened, timed, strict=True))
        rows.append(
            (f"    {len(opened)} fresh servers: median, min", f"{open_ms:.0f}, {min(opened) * 1000:.0f} ms", each)
        )
    floor = (server["open message decode"] + base) * 1000
    rows.append(
        (
            "    floor: decoding the open message + baseline",
            f"{floor:.0f} ms",
            f"{floor / (base * 1000):.1f}x baseline, before any position or rule",
        )
    )
    parts = open_parts(text)
    rows.append(
        (
            "    part by part (in this process): decoding the message",
            f"{server['open message decode'] * 1000:.0f} ms",
            "the didOpen body read as the server reads it (orjson), before anything else",
        )
    )
    for name, what, beside in (
        ("parse", "parsing, with positions", "json.loads"),
        ("check", "the rules and the model", "plain resolution"),
    ):
        rows.append(
            (
                f"      {what}",
                f"{parts[name] * 1000:.0f} ms",
                f"{parts[name] / parts[beside]:.1f}x {beside} ({parts[beside] * 1000:.0f} ms)",
            )
        )
    unique = parts["unique resolution"]
    rows.append(
        (
            "        beside each boundary found once only",
            f"{unique * 1000:.0f} ms",
            f"{parts['check'] / unique:.1f}x: the plain resolution, each boundary looked for again after it",
        )
    )
    rows.append(("      diagnostics", f"{parts['diagnostics'] * 1000:.0f} ms", "positions, JSON text"))
    return rows


def request_rows(server: dict[str, Any], size: str, medians: Medians) -> list[Row]:
    """Edits and requests, each median and 95th percentile; the edit's floor."""
    rows: list[Row] = []
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
            medians.edits[size] = median
            size_bytes, decode = server["report"]
            rows.append(
                (
                    f"    floor: the client decoding the report ({size_bytes / 1000:.0f} KB)",
                    f"{decode * 1000:.1f} ms",
                    "sent again whole after every edit (LSP)",
                )
            )
    return rows


def writing_rows(server: dict[str, Any], size: str, medians: Medians) -> list[Row]:
    """Typing a new annotation at each place, and the structural changes."""
    rows: list[Row] = []
    for where, typed_there in server.get("typing", {}).items():
        timings, total = typed_there.timings, typed_there.total
        median, p95 = ms(timings)
        medians.typing.setdefault(where, {})[size] = median
        typed = f"{total} keystrokes" if len(timings) == total else f"first {len(timings)} of {total} keystrokes"
        rows.append(
            (
                f"  type a new annotation ({where}, {typed})",
                f"median {median:.1f} ms",
                f"p95 {p95:.1f} ms, max {max(timings) * 1000:.0f} ms ({json.dumps(typed_there.slowest)})"
                + (WRONG if where in server["differing"] else ""),
            )
        )
    brace: Brace | None = server.get("brace")
    if brace is not None:
        rows.append(
            (
                '    the "{" at the start, in process',
                f"{brace.total * 1000:.0f} ms",
                f"{brace.placing * 1000:.0f} ms of it placing again the {brace.annotations:,} annotations after it"
                f" and their {brace.refs:,} refs (spliced; their findings made again at their new paths)",
            )
        )
    for name in STRUCTURE:
        if name in server:
            median, p95 = ms(server[name])
            shown = name + (f", {server['unresolved']} findings more" if name == STRUCTURE[6] else "")
            rows.append(
                (
                    f"  {shown}",
                    f"median {median:.1f} ms",
                    f"p95 {p95:.1f} ms" + (WRONG if name in server["differing"] else ""),
                )
            )
    return rows


def size_rows(size: str, args: argparse.Namespace, medians: Medians) -> list[Row]:
    """Every row of one size."""
    groups = args.groups
    path = session_file(size)
    text = path.read_text(encoding="utf-8")
    other = session_file("100K") if size != "100K" else None
    server = bench_server(path, args.edits, other, groups, args.keystrokes, args.repeats, args.verify)
    medians.findings[size] = server["finding count"]
    label = f"{size} ({len(text.encode()) / 1e6:.1f} MB, {server['findings']} diagnostics"
    if server["finding count"] != server["findings"]:
        label += f" for {server['finding count']} findings"
    rows: list[Row] = [(label + ")", "", "")]
    medians.report_floors[size] = server["report"][1] * 1000
    if "open" in groups:
        rows += open_rows(server, text, path, args.opens)
    rows += request_rows(server, size, medians)
    rows += writing_rows(server, size, medians)
    if "memory" in groups:
        peak = f"peak {server['peak memory']:.0f} MB over the whole run"
        if "peak memory, all rows" in server:
            peak += f" ({server['peak memory, all rows']:.0f} MB with typing and structure)"
        rows.append(("  server memory after opening", f"{server['memory after opening']:.0f} MB", peak))
    if "cli" in groups:
        cli = bench_cli(path)
        rows.append(("  CLI (sourcecheck --json)", f"{cli * 1000:.0f} ms", "including interpreter start"))
    return rows


def ratio_rows(args: argparse.Namespace, medians: Medians) -> list[Row]:
    """The larger sizes beside 100K: the edit, typing, and on a session with as few findings."""
    rows: list[Row] = []
    if "100K" in medians.edits and len(medians.edits) > 1:
        largest = list(medians.edits)[-1]
        small = medians.edits["100K"]
        # The larger file's edit takes the same messages as the small one's, and its client
        # decodes the larger report: a ratio no server can go below.
        floor = (small + medians.report_floors[largest] - medians.report_floors["100K"]) / small
        rows.append(
            (
                f"edit median, {largest} / 100K",
                f"{medians.edits[largest] / small:.1f}x",
                f"floor {floor:.1f}x: the 100K edit plus decoding the larger report",
            )
        )
        if "ratio" in args.groups:
            rows += few_findings_rows(args, medians, largest, small)
    for where, by_size in medians.typing.items():
        if "100K" not in by_size:
            continue
        small = by_size["100K"]
        for size, median in by_size.items():
            if size != "100K":
                floor = (small + medians.report_floors[size] - medians.report_floors["100K"]) / small
                rows.append(
                    (
                        f"type a new annotation ({where}) median, {size} / 100K",
                        f"{median / small:.1f}x",
                        f"target: 3x at most; floor {floor:.1f}x: the 100K keystroke plus decoding the larger report",
                    )
                )
    return rows


def few_findings_rows(args: argparse.Namespace, medians: Medians, largest: str, small: float) -> list[Row]:
    rows: list[Row] = []
    few, timings, typed = bench_edits(few_findings(largest), args.edits, args.keystrokes, "typing" in args.groups)
    median, p95 = ms(timings)
    rows.append(
        (
            f"edit median, {largest} ({few} findings) / 100K ({medians.findings['100K']} findings)",
            f"{median / small:.1f}x",
            f"median {median:.1f} ms, p95 {p95:.1f} ms in session-{largest}-fewfindings",
        )
    )
    for where, typed_there in typed.items():
        if where in medians.typing and "100K" in medians.typing[where]:
            median, p95 = ms(typed_there.timings)
            rows.append(
                (
                    f"type a new annotation ({where}) median, {largest} ({few} findings) / 100K",
                    f"{median / medians.typing[where]['100K']:.1f}x",
                    f"median {median:.1f} ms, p95 {p95:.1f} ms in session-{largest}-fewfindings",
                )
            )
    return rows


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    groups = args.groups
    OUT.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    medians = Medians()
    sizes = [] if groups <= set(SIZELESS) else args.sizes.split(",")
    rows: list[Row] = []
    for size in sizes:
        rows += size_rows(size, args, medians)
    rows += ratio_rows(args, medians)
    if "drift" in groups:
        from bench import drift

        rows += drift.rows(sizes, OUT)
    if "pipelines" in groups:
        from bench import pipelines

        rows.append(("pipelines (bench/pipelines.py)", "", ""))
        rows += [("  " + name, a, b) for name, a, b in pipelines.rows(parse_size(args.jsonl_size))]
    if "hostile" in groups:
        from bench import hostile

        rows += hostile.rows()
    if "storms" in groups:
        from bench import storms

        rows += storms.rows()
    if "dask" in groups:
        from bench import dask_driver

        rows += dask_driver.rows(dask_driver.SIZES)
    width = max(len(r[0]) for r in rows) + 2
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    for name, a, b in rows:
        print(f"{name:<{width}}{a:<18}{b}")
    print(f"(run in {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The server's files on disk (lsp/files.py), in process: which files of a session are read,
how events are coalesced, how a changed path finds its sessions, the poll of stamps."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from lsprotocol import types

from sourcecheck import disk
from sourcecheck.core.filestate import FileContent
from sourcecheck.lsp import files
from sourcecheck.lsp.files import Disk
from sourcecheck.lsp.sync import DocumentStore, OpenDocument

NOTES = "# Notes\n\nThe flag is optional for new projects.\n"


def session_in(folder: Path, paths: list[str]) -> tuple[str, str]:
    for path in paths:
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(NOTES)
    cite = {"start": {"line": 1, "str": "# Notes"}, "end": {"line": 1, "str": "# Notes"}}
    annotations = [
        {"claim": {"path": p, **cite}, "sources": [{"path": p, **cite, "polarity": "supports", "confidence": 0.9}]}
        for p in paths
    ]
    text = json.dumps({"documents": [{"path": p, "content": NOTES} for p in paths], "annotations": annotations})
    session = folder / "s.sourcecheck.json"
    session.write_text(text)
    return session.as_uri(), text


class Host:
    """What the server gives the Disk: its open documents, and who hears of changes."""

    def __init__(self) -> None:
        self.documents = DocumentStore()
        self.changed: list[OpenDocument] = []
        self.tasks: set[asyncio.Task[object]] = set()
        self.disk = Disk(self.documents, lambda: 64, self.spawn, self.heard)

    def spawn(self, work) -> None:  # type: ignore[no-untyped-def]
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def heard(self, document: OpenDocument) -> None:
        self.changed.append(document)

    def open(self, uri: str, text: str) -> OpenDocument:
        document = self.documents.open(types.TextDocumentItem(uri=uri, language_id="json", version=1, text=text))
        self.disk.wanted(document)
        return document

    async def settle(self) -> None:
        while self.tasks:
            await asyncio.gather(*list(self.tasks))


@pytest.fixture
def reads(monkeypatch):
    """Every document file read, by path."""
    seen: list[str] = []
    real = disk.document_file

    def counted(folder: str, path: str, limit_mb: int = 64, **options):  # type: ignore[no-untyped-def]
        seen.append(path)
        return real(folder, path, limit_mb, **options)

    monkeypatch.setattr(files.disk, "document_file", counted)
    return seen


async def test_a_storm_of_events_on_a_file_is_one_read_at_a_time_and_holds_one_content(tmp_path, reads):
    host = Host()
    uri, text = session_in(tmp_path, ["notes.txt"])
    document = host.open(uri, text)
    await host.settle()
    assert reads == ["notes.txt"] and document.disk is not None
    host.changed.clear()
    (tmp_path / "notes.txt").write_text("Changed.\n" + NOTES)
    for _ in range(2000):  # one event per write, as a watcher sends them
        host.disk.file_changed((tmp_path / "notes.txt").as_uri())
    await host.settle()
    assert len(reads) <= 3  # the first, the one under way, the one that takes what came meanwhile
    assert document.disk.files == {"notes.txt": FileContent("Changed.\n" + NOTES)}
    assert len(host.changed) == 1  # shown once: the reads after it found nothing new


async def test_an_event_finds_its_sessions_by_a_lookup_not_a_walk_of_every_document(tmp_path, reads, monkeypatch):
    host = Host()
    paths = [f"docs/d{i}.txt" for i in range(500)]
    uri, text = session_in(tmp_path, paths)
    host.open(uri, text)
    await host.settle()
    reads.clear()
    walked: list[str] = []
    real = os.path.realpath
    monkeypatch.setattr(files.os.path, "realpath", lambda p, *a, **k: walked.append(p) or real(p, *a, **k))
    created = [types.FileEvent(uri=(tmp_path / f"new{i}.txt").as_uri(), type=1) for i in range(200)]
    for event in created + [types.FileEvent(uri=(tmp_path / "docs" / "d7.txt").as_uri(), type=2)]:
        host.disk.file_changed(event.uri)
    assert walked == []  # no path of a document resolved on the event loop
    await host.settle()
    assert reads == ["docs/d7.txt"]  # only the one the event named


async def test_a_document_through_a_link_is_found_by_its_real_path_and_a_closed_session_leaves_the_index(
    tmp_path, reads
):
    host = Host()
    (tmp_path / "real").mkdir()
    uri, text = session_in(tmp_path, ["real/notes.txt"])
    os.symlink("real/notes.txt", tmp_path / "link.txt")
    text = text.replace('"real/notes.txt"', '"link.txt"')
    assert '"link.txt"' in text
    (tmp_path / "s.sourcecheck.json").write_text(text)
    document = host.open(uri, text)
    await host.settle()
    reads.clear()
    host.disk.file_changed((tmp_path / "real" / "notes.txt").as_uri())  # an editor saved the target
    await host.settle()
    assert reads == ["link.txt"]
    host.disk.closed(document)
    host.documents.close(uri)
    assert host.disk.index == {}


async def test_the_poll_sees_a_file_changed_by_another_program_and_nothing_else(tmp_path, reads, monkeypatch):
    monkeypatch.setattr(files, "POLL_SECONDS", 0.01)
    host = Host()
    uri, text = session_in(tmp_path, ["a.txt", "b.txt"])
    document = host.open(uri, text)
    await host.settle()
    reads.clear()
    host.changed.clear()
    poll = asyncio.ensure_future(host.disk.poll())
    try:
        await asyncio.sleep(0.1)
        assert reads == []  # nothing changed: nothing read
        (tmp_path / "b.txt").write_text("Edited by sed.\n")
        os.utime(tmp_path / "b.txt", ns=(1, 1))  # a new stamp however fast the write
        for _ in range(200):
            await asyncio.sleep(0.01)
            if host.changed:
                break
        assert reads == ["b.txt"] and host.changed == [document]
        assert document.disk is not None and document.disk.files["b.txt"] == FileContent("Edited by sed.\n")
    finally:
        poll.cancel()
        host.disk.stop()


async def test_a_document_cited_by_nothing_hidden_or_the_session_itself_is_never_read(tmp_path, reads):
    host = Host()
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("[remote] token = hunter2\n")
    uri, text = session_in(tmp_path, ["notes.txt", ".env"])
    data = json.loads(text)
    data["documents"] += [{"path": ".git/config", "content": ""}, {"path": "s.sourcecheck.json", "content": ""}]
    data["annotations"].append(
        {
            "claim": {"path": "s.sourcecheck.json", "start": {"line": 1, "str": "{"}, "end": {"line": 1, "str": "{"}},
            "sources": [],
        }
    )
    text = json.dumps(data)
    (tmp_path / "s.sourcecheck.json").write_text(text)
    document = host.open(uri, text)
    await host.settle()
    assert sorted(reads) == [".env", "notes.txt", "s.sourcecheck.json"]  # .git/config: cited by nothing
    assert document.disk is not None
    states = document.disk.files
    assert isinstance(states["notes.txt"], FileContent)
    assert "hidden" in states[".env"].reason and "hunter2" not in repr(states)
    assert states["s.sourcecheck.json"].reason.startswith("is the session file itself")

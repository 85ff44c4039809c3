"""A document's file as read from disk: its content, or why it could not be read (disk.py
reads it; core/resync.py sets it beside the session's document)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FileContent:
    """A document's file, read: its content as a document's (LF line breaks), and what
    normalizing it changed (None: nothing)."""

    content: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A document's file that could not be read, and why (said for a person); ``missing``:
    there is no such file."""

    reason: str
    missing: bool = False


FileState = FileContent | Unreadable


__all__ = ["FileContent", "FileState", "Unreadable"]

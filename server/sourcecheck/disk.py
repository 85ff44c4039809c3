"""Reading files, the one way every command and the server read them: bounded, regular
files only, and a session's documents only from inside the session's folder.

- A read stops at its limit, counted in what is read, never trusted to ``st_size`` (a
  device such as ``/dev/zero`` says 0 and never ends); only regular files are read (a
  FIFO would block, a device stream without end).
- A document's file is read only when its real path (every symlink resolved) lies inside
  the session's real folder: a session received from someone else may carry a link
  ``notes.txt -> /proc/self/environ`` or ``-> ../secret``, and reading it would copy the
  target into the session. Such a file is refused and named, never read.
- Text is UTF-8; a document's content is normalized as ``sourcecheck new`` makes it (LF
  line breaks, no byte order mark), and what that changed is said.

Nothing here prints: a refusal is a :class:`ReadRefused` whose message is one line for a
person (names shown with :func:`~.core.display.visible`).
"""

from __future__ import annotations

import errno
import os
import re
import stat

from .core.display import visible
from .core.resync import FileContent, FileState, Unreadable

MAX_SIZE_MB = 64
"""The default limit of what is read from one file, in MB (the CLI's ``--max-size-mb``)."""

_CHUNK = 1 << 20


class ReadRefused(Exception):
    """A file that is not read, and why (one line for a person, without the file's name)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def read_bytes(name: str, limit_mb: int = MAX_SIZE_MB, *, follow: bool = True) -> bytes:
    """The bytes of the regular file ``name``, at most ``limit_mb`` MB; raises
    :class:`ReadRefused` saying why not. ``follow=False`` refuses a symlink as the last part."""
    fd = _open(name, follow)
    try:
        _regular_file(fd)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return _read_all(fd, limit_mb)
    finally:
        os.close(fd)


def _open(name: str, follow: bool) -> int:
    """A descriptor of ``name`` opened without blocking (a FIFO would block an open)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(name, flags)
    except FileNotFoundError:
        raise ReadRefused("no such file") from None
    except IsADirectoryError:
        raise ReadRefused("is a directory, not a file") from None
    except PermissionError:
        raise ReadRefused("permission denied") from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise ReadRefused("is a symbolic link, which is not followed here") from None
        raise ReadRefused(error.strerror or str(error)) from None


def _regular_file(fd: int) -> None:
    """Refuse what is not a regular file: a directory, a device, a pipe or a socket."""
    mode = os.fstat(fd).st_mode
    if stat.S_ISDIR(mode):
        raise ReadRefused("is a directory, not a file")
    if not stat.S_ISREG(mode):
        kind = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a pipe or socket"
        raise ReadRefused(f"is {kind}, not a regular file; only regular files are read")


def _read_all(fd: int, limit_mb: int) -> bytes:
    """Everything ``fd`` holds, counted as it is read (never trusted to a size it claims)."""
    limit = limit_mb * 1_000_000
    chunks: list[bytes] = []
    size = 0
    try:
        while True:
            try:
                chunk = os.read(fd, min(_CHUNK, limit + 1 - size))
            except OSError as error:
                raise ReadRefused(error.strerror or str(error)) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise ReadRefused(f"is more than the limit of {limit_mb} MB; raise it with --max-size-mb to read it")
        return b"".join(chunks)
    except MemoryError:
        raise ReadRefused("is too large to be read into memory") from None


def decode(data: bytes, advice: str) -> str:
    """UTF-8 text, or a refusal naming the bad byte, its offset and line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ReadRefused(
            f"is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}, line {line}); {advice}"
        ) from None
    except MemoryError:
        raise ReadRefused("is too large to be read into memory") from None


def normalized(text: str) -> tuple[str, str | None]:
    """``text`` as a document's content: LF line breaks, no byte order mark; and what was
    changed, said for a person (None: nothing)."""
    changes = []
    if text.startswith("\ufeff"):
        text = text[1:]
        changes.append("byte order mark removed")
    crlf = text.count("\r\n")
    lone_cr = text.count("\r") - crlf
    if crlf or lone_cr:
        kinds = " and ".join(kind for kind, n in (("CRLF", crlf), ("CR", lone_cr)) if n)
        changes.append(f"{kinds} line breaks normalized to LF")
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, "; ".join(changes) or None


def read_document(name: str, limit_mb: int = MAX_SIZE_MB, *, follow: bool = True) -> FileContent:
    """A file to be a document: its content (LF line breaks) and what normalizing it changed."""
    data = read_bytes(name, limit_mb, follow=follow)
    content, note = normalized(decode(data, "convert it to UTF-8 first (e.g. with iconv)"))
    return FileContent(content, note)


def outside_reason(path: str) -> str | None:
    """Why a document's path names no file inside the session's folder, by its spelling
    alone (None: it may). Links are looked at when the file is read (:func:`document_file`)."""
    if os.path.isabs(path) or re.match(r"^[A-Za-z]:", path) or path.startswith("\\"):
        return "is an absolute path; only files in the session's folder or below it are read"
    if ".." in re.split(r"[\\/]+", path):
        return "leads outside the session's folder (`..`); only files in it or below it are read"
    if not path or "\0" in path:
        return "is not a file name"
    try:
        os.fsencode(path)
    except UnicodeError:  # a lone surrogate, which no file name holds
        return "is not a file name (it holds a character no file name can)"
    return None


def inside(folder: str, target: str) -> bool:
    """Whether the real path ``target`` lies in the real folder ``folder`` (or is it)."""
    return target == folder or target.startswith(folder.rstrip(os.sep) + os.sep)


def document_file(folder: str, path: str, limit_mb: int = MAX_SIZE_MB) -> FileState:
    """What reading the file of the document ``path`` from the session's folder gives:
    its content, or why it is not read (outside the folder, by its name or through a link;
    missing; not a regular file; too large; not UTF-8)."""
    reason = outside_reason(path)
    if reason is not None:
        return Unreadable(reason)
    real_folder = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(folder, path))
    if not inside(real_folder, target):
        return Unreadable(
            f"is a link to {visible(target)}, outside the session's folder; links that leave it are not followed"
        )
    try:
        return read_document(target, limit_mb, follow=False)
    except ReadRefused as refusal:
        if refusal.reason == "no such file":
            return Unreadable(f"no such file in the session's folder ({visible(target)})", missing=True)
        return Unreadable(refusal.reason)


def file_stamp(folder: str, path: str) -> tuple[int, int, int] | None:
    """What tells that a document's file changed without reading it: its modification time,
    size and inode (None: it is not there, or not a file that would be read)."""
    if outside_reason(path) is not None:
        return None
    try:
        found = os.stat(os.path.realpath(os.path.join(folder, path)))
    except OSError:
        return None
    return found.st_mtime_ns, found.st_size, found.st_ino


__all__ = [
    "file_stamp",
    "MAX_SIZE_MB",
    "ReadRefused",
    "decode",
    "document_file",
    "inside",
    "normalized",
    "outside_reason",
    "read_bytes",
    "read_document",
]

"""Reading files, the one way every command and the server read them: bounded, regular
files only, and a session's documents only from inside the session's folder.

- A read stops at its limit, counted in what is read, never trusted to ``st_size`` (a
  device such as ``/dev/zero`` says 0 and never ends); only regular files are read (a
  FIFO would block, a device stream without end).
- A document's file is read only from inside the session's real folder, opened one name at
  a time from it, never following a link by itself: a link is followed only while it stays
  inside (a session received from someone else may carry ``notes.txt -> /proc/self/environ``
  or ``-> ../secret``, and reading it would copy the target into the session; a folder
  swapped for a link between two steps leads nowhere else). A file with another hard link
  (a name that may lie outside), one in a hidden folder or file (``.git/config``, ``.env``)
  unless asked for, and the session file itself are refused and named, never read.
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
from .core.filestate import FileContent, FileState, Unreadable

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


def open_regular(name: str) -> int:
    """A descriptor of the regular file ``name``, blocking from then on (to be read as any
    file is); raises :class:`ReadRefused` saying why not (missing, a directory, a FIFO or a
    device: never waited on, whatever its name)."""
    fd = _open(name, True)
    try:
        _regular_file(fd)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


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


def hidden_reason(path: str) -> str | None:
    """Why a document's path is not read unless asked for: a hidden folder or file (a name
    that starts with a dot: ``.git/config``, ``.env``), where secrets live."""
    names = [name for name in re.split(r"[\\/]+", path) if name not in ("", ".")]
    hidden = next((name for name in names if name.startswith(".")), None)
    if hidden is None:
        return None
    return (
        f"is in a hidden folder or file (`{visible(hidden)}`), where secrets live (`.git`, `.env`); "
        "it is read only when asked for (`sourcecheck sync --read-hidden`)"
    )


MAX_LINKS = 40
"""Symbolic links followed at most on the way to one document's file (as the kernel's limit)."""


class _Beneath:
    """Opening a path beneath a folder one name at a time, each relative to the folder
    opened before it and never following a link by itself (``O_NOFOLLOW``): a link is read
    and followed here only while it stays inside, so that swapping a folder for a link
    between two steps leads nowhere else (what ``openat2(RESOLVE_BENEATH)`` does)."""

    def __init__(self, root: str) -> None:
        self.root = root  # the real folder
        self.folders = [os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)]
        self.where: list[str] = []  # the names of the folders opened, from the root
        self.links = 0

    def close(self) -> None:
        for fd in self.folders:
            os.close(fd)
        self.folders, self.where = [], []

    def follow(self, name: str, rest: list[str]) -> list[str]:
        """The names left after the link ``name`` in the current folder, followed."""
        self.links += 1
        if self.links > MAX_LINKS:
            raise ReadRefused("leads through too many symbolic links")
        target = os.readlink(name, dir_fd=self.folders[-1])
        if os.path.isabs(target):
            if not inside(self.root, os.path.normpath(target)):
                raise ReadRefused(
                    f"is a link to {visible(target)}, outside the session's folder; links that leave it are not "
                    "followed"
                )
            while len(self.folders) > 1:
                os.close(self.folders.pop())
                self.where.pop()
            target = os.path.relpath(os.path.normpath(target), self.root)
        elif os.path.normpath(os.path.join(*self.where, target)).split(os.sep)[0] == "..":
            leads = os.path.normpath(os.path.join(self.root, *self.where, target))
            raise ReadRefused(
                f"is a link to {visible(leads)}, outside the session's folder; links that leave it are not followed"
            )
        return [part for part in target.split(os.sep) if part] + rest

    def open(self, path: str) -> int:
        """A descriptor of the file ``path`` names beneath the folder, opened to read."""
        names = [part for part in re.split(r"[\\/]+", path) if part]
        while names:
            name, names = names[0], names[1:]
            if name == ".":
                continue
            if name == "..":
                if len(self.folders) == 1:
                    raise ReadRefused(
                        "is a link that leads outside the session's folder; links that leave it are not followed"
                    )
                os.close(self.folders.pop())
                self.where.pop()
                continue
            last = not names
            flags = os.O_RDONLY | _NOFOLLOW | _CLOEXEC | (_NONBLOCK if last else _DIRECTORY)
            try:
                fd = os.open(name, flags, dir_fd=self.folders[-1])
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK) and _is_link(name, self.folders[-1]):
                    names = self.follow(name, names)
                    continue
                raise
            if last:
                return fd
            self.folders.append(fd)
            self.where.append(name)
        raise ReadRefused("is a folder, not a file")


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _is_link(name: str, folder: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _opened(fd: int, limit_mb: int) -> FileContent:
    """The document in the file open at ``fd`` (closed here): a regular file with no other
    hard link (another name of it may lie outside the folder)."""
    try:
        _regular_file(fd)
        if os.fstat(fd).st_nlink > 1:
            raise ReadRefused(
                "has another hard link (a name that may lie outside the session's folder); only files with one "
                "name are read"
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        data = _read_all(fd, limit_mb)
    finally:
        os.close(fd)
    content, note = normalized(decode(data, "convert it to UTF-8 first (e.g. with iconv)"))
    return FileContent(content, note)


def document_file(
    folder: str, path: str, limit_mb: int = MAX_SIZE_MB, *, hidden: bool = False, session: str | None = None
) -> FileState:
    """What reading the file of the document ``path`` from the session's folder gives:
    its content, or why it is not read (outside the folder, by its name or through a link;
    hidden, unless ``hidden``; the ``session`` file itself; missing; not a regular file;
    another hard link; too large; not UTF-8). Opened one name at a time from the folder (see
    :class:`_Beneath`), so that no race with a link swapped in reads another file."""
    reason = outside_reason(path) or (None if hidden else hidden_reason(path))
    if reason is not None:
        return Unreadable(reason)
    real_folder = os.path.realpath(folder)
    try:
        walk = _Beneath(real_folder)
    except OSError as error:
        return Unreadable(f"its folder cannot be read ({error.strerror or error})")
    try:
        fd = walk.open(path)
        if session is not None and _same_inode(fd, session):
            os.close(fd)
            return Unreadable("is the session file itself; a session's document is never read from it")
        return _opened(fd, limit_mb)
    except ReadRefused as refusal:
        return Unreadable(refusal.reason)
    except FileNotFoundError:
        where = visible(os.path.join(real_folder, os.path.normpath(path)))
        return Unreadable(f"no such file in the session's folder ({where})", missing=True)
    except OSError as error:
        if error.errno == errno.EISDIR:
            return Unreadable("is a directory, not a file")
        if error.errno in (errno.ENOTDIR,):
            return Unreadable(f"no such file in the session's folder ({visible(path)})", missing=True)
        if isinstance(error, PermissionError):
            return Unreadable("permission denied")
        return Unreadable(error.strerror or str(error))
    finally:
        walk.close()


def _same_inode(fd: int, name: str) -> bool:
    try:
        opened, other = os.fstat(fd), os.stat(name)
    except OSError:
        return False
    return (opened.st_dev, opened.st_ino) == (other.st_dev, other.st_ino)


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
    "hidden_reason",
    "file_stamp",
    "MAX_SIZE_MB",
    "ReadRefused",
    "decode",
    "document_file",
    "inside",
    "normalized",
    "open_regular",
    "outside_reason",
    "read_bytes",
    "read_document",
]

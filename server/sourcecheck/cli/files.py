"""The command line's files: writing them so that nothing is lost, deciding on colour, the
size limit as an option (reading is ``inputs.py``'s, below the API and the command).

Writing (:func:`write_atomically`): through a temporary file beside the target, flushed to
disk, then renamed over it, so that no reader and no crash ever sees half a file; a symlink
is written through to its target (the link stays a link); the temporary file is removed
whatever ends the write (an error, Ctrl-C, SIGTERM), and one left by a killed process is
removed by the next write there. With ``expect``, the target must still hold those bytes
(it was not saved by an editor meanwhile), or nothing is written. An output is never an
input (:func:`refuse_output`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import tempfile
import threading
from collections.abc import Iterable, Iterator
from types import FrameType
from typing import Any

import sourcecheck.disk as disk  # the module alone: the package imports this one (api.py)

from ..core.display import visible
from ..inputs import Refused


def size_mb(text: str) -> int:
    """A ``--max-size-mb`` value: a whole number of megabytes, at least 1."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{visible(text)!r} is not a whole number of MB (e.g. 64)") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a size: give at least 1 (MB)")
    return value


def use_colour(choice: str, stream: Any) -> bool:
    """Colour: ``--color always`` / ``never``, else off with NO_COLOR or TERM=dumb, else
    on for a terminal."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


# --- writing -------------------------------------------------------------------------

_TEMPORARY = re.compile(r"^\.sourcecheck-(\d+)-[^/]*\.tmp$")
_pending: set[str] = set()  # temporary files being written, removed on a signal
_lock = threading.Lock()


def _remove_pending() -> None:
    for path in list(_pending):
        with contextlib.suppress(OSError):
            os.unlink(path)
        _pending.discard(path)


@contextlib.contextmanager
def _removed_on_signals() -> Iterator[None]:
    """While a temporary file is written, SIGINT, SIGTERM and SIGHUP remove it before they
    end the process as they would have (only the main thread can set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {}

    def handler(number: int, frame: FrameType | None) -> None:
        _remove_pending()
        old = previous.get(number, signal.SIG_DFL)
        signal.signal(number, old)
        if callable(old):
            old(number, frame)
        else:
            os.kill(os.getpid(), number)

    for number in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if number is None:
            continue
        old = signal.getsignal(number)
        if old is signal.SIG_IGN:  # under nohup, say: the signal does not end the process, nor the write
            continue
        previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, old in previous.items():
            signal.signal(number, old)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a number no process can have counts as alive: the file
    so named is not ours to remove)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):  # someone else's process, or no pid at all
        return True
    return True


def remove_leftovers(folder: str) -> None:
    """Remove the temporary files that writes killed outright (SIGKILL, a crash) left in
    ``folder``: those named for a process that no longer runs."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for entry in names:
        match = _TEMPORARY.match(entry)
        if match and int(match.group(1)) != os.getpid() and not _alive(int(match.group(1))):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, entry))


def _fsync_folder(folder: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _holds(name: str, expect: bytes) -> bool:
    """Whether the file ``name`` holds exactly ``expect`` (read as far as that takes: a session
    of any size can be compared)."""
    try:
        now = disk.read_bytes(name, len(expect) // 1_000_000 + 1)
    except disk.ReadRefused:
        return False
    return now == expect


def _exchange(first: str, second: str) -> bool:
    """Swap two names atomically (Linux's ``renameat2(RENAME_EXCHANGE)``); False where the
    system cannot (the caller then replaces, having compared just before)."""
    global _renameat2
    if _renameat2 is None:
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            _renameat2 = libc.renameat2
        except (OSError, AttributeError):
            _renameat2 = False
    if _renameat2 is False:
        return False
    import ctypes

    at_cwd, exchange = -100, 2
    result = _renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange)
    if result == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):  # an old kernel, a file system that cannot
        _renameat2 = False
        return False
    raise OSError(error, os.strerror(error), second)


_renameat2: Any = None


def _changed_meanwhile(name: str) -> Refused:
    return Refused(
        f"{visible(name)}: changed since it was read (saved in an editor?); nothing was written. Run the command again",
        1,
    )


def write_atomically(name: str, text: str | bytes, expect: bytes | None = None) -> None:
    """Write ``text`` (UTF-8; bytes as they are) to ``name`` so that no reader and no crash sees half of it
    (see the module's docstring). A file replaced keeps its mode and owner; a new one gets
    the usual mode (0666 less the umask); a read-only one is refused. With ``expect``,
    refuses (and writes nothing) when the file no longer holds exactly those bytes: the new
    file is swapped in atomically and the one swapped out compared (a save landing between a
    compare and a rename is not lost: it is swapped back)."""
    target = os.path.realpath(name)  # a symlink is written through: the link stays
    folder = os.path.dirname(target)
    try:
        found = os.stat(target)
        mode, owner = found.st_mode & 0o7777, (found.st_uid, found.st_gid)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode, owner = 0o666 & ~umask, None
    if owner is not None and not mode & 0o222:
        raise Refused(f"{visible(name)}: is read-only; nothing was written (make it writable to change it)")
    remove_leftovers(folder)
    with _lock, _removed_on_signals():
        try:
            handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".sourcecheck-{os.getpid()}-", suffix=".tmp")
        except OSError as error:
            raise Refused(f"{visible(name)}: cannot write there ({error.strerror or error})") from None
        _pending.add(temporary)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(text.encode("utf-8") if isinstance(text, str) else text)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, mode)
            if owner is not None and owner != (os.getuid(), os.getgid()):
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.chown(temporary, *owner)
            _put_in_place(name, temporary, target, expect)
            _pending.discard(temporary)
            _fsync_folder(folder)
        except OSError as error:
            raise Refused(f"{visible(name)}: cannot write it ({error.strerror or error})") from None
        finally:
            if temporary in _pending:
                _remove_pending()


def _put_in_place(name: str, temporary: str, target: str, expect: bytes | None) -> None:
    """Rename ``temporary`` over ``target``; with ``expect``, only if what it replaces holds
    those bytes (compared after an atomic exchange where the system has one)."""
    if expect is None:
        os.replace(temporary, target)
        return
    if not _holds(target, expect):
        raise _changed_meanwhile(name)
    if not os.path.lexists(target) or not _exchange(temporary, target):
        os.replace(temporary, target)  # (no exchange here: compared just before)
        return
    # The new file is in place; what it replaced is at the temporary name now.
    if _holds(temporary, expect):
        os.unlink(temporary)
        return
    _exchange(temporary, target)  # a save landed in between: put it back
    raise _changed_meanwhile(name)


def same_file(first: str, second: str) -> bool:
    """Whether two names lead to one file (by real path, or by device and inode)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def refuse_output(output: str, inputs: Iterable[tuple[str, str]], force: bool, ours: bytes | None = None) -> None:
    """Refuse to write ``output`` when it is one of the ``inputs`` ((file, what it is) pairs:
    never, even with ``--force``), a directory, or an existing file that is not one this
    command wrote (whose first kilobytes do not hold ``ours``), unless ``force``."""
    shown = visible(output)
    if os.path.isdir(output):
        raise Refused(f"-o {shown}: is a directory; give a file name")
    for name, what in inputs:
        if os.path.lexists(output) and same_file(output, name):
            raise Refused(f"-o {shown}: is {what}; writing there would replace it. Choose another output")
    if not os.path.lexists(output) or force:
        return
    if ours is not None:
        try:
            head = disk.read_bytes(output)[:4096]
        except disk.ReadRefused:
            head = b""
        if ours in head:
            return
        raise Refused(f"-o {shown}: exists and was not written by this command; add --force to replace it")
    raise Refused(f"-o {shown}: already exists; add --force to overwrite it, or choose another")


__all__ = [
    "refuse_output",
    "remove_leftovers",
    "same_file",
    "size_mb",
    "use_colour",
    "write_atomically",
]

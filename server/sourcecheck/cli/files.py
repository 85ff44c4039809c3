"""The command line's one layer between files and the core: reading sessions and documents
(and an input to check: :func:`check_file`, never raising for bad input), deciding on
colour, and writing files so that nothing is lost.

Reading (see ``disk.py``): bounded by what is read, regular files only, UTF-8; a session
for a command that writes or reads documents (new, ref, show, sync, report) must also be
JSON (the check itself reports broken JSON as findings). Every refusal is one line,
``NAME: reason``, the name shown safely.

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
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any, BinaryIO

import sourcecheck.disk as disk  # the module alone: the package imports this one (api.py)

from ..core.analysis import Analysis
from ..core.display import title_quote, visible
from ..core.positions import Encoding
from ..core.session import pointer
from ..core.verdicts import Verdict
from .wording import plural


class Refused(Exception):
    """A request that cannot be done: the one line to print, and the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def shown_name(name: str) -> str:
    """A file name as printed: ``<stdin>`` for ``-``, control and bidi characters escaped."""
    return "<stdin>" if name == "-" else visible(name)


# --- reading -------------------------------------------------------------------------


def read_input(name: str, limit_mb: int = disk.MAX_SIZE_MB, stdin: BinaryIO | None = None) -> bytes:
    """The bytes of the file ``name`` (``-``: standard input), at most ``limit_mb`` MB."""
    if name == "-":
        stream = stdin if stdin is not None else sys.stdin.buffer
        limit = limit_mb * 1_000_000
        try:
            data = stream.read(limit + 1)
        except MemoryError:
            raise Refused("<stdin>: is too large to be read into memory") from None
        if len(data) > limit:
            raise Refused(f"<stdin>: is more than the limit of {limit_mb} MB; raise it with --max-size-mb")
        return data
    try:
        return disk.read_bytes(name, limit_mb)
    except disk.ReadRefused as refusal:
        raise Refused(f"{shown_name(name)}: {refusal.reason}") from None


def decode(name: str, data: bytes, advice: str) -> str:
    """UTF-8 text, or a refusal that names the bad byte, its offset and its line."""
    try:
        return disk.decode(data, advice)
    except disk.ReadRefused as refusal:
        raise Refused(f"{shown_name(name)}: {refusal.reason}") from None


@dataclass(frozen=True, slots=True)
class FailingClaim:
    """A claim whose verdict ``--fail-on`` names: where its annotation's claim is in the
    session file, what it says, and why it fails."""

    pointer: str
    why: str  # "refuted", "supported only weakly"
    named: str  # the --fail-on word that names it ("refuted", "weak")
    text: str | None  # the claim's text (None: it does not resolve)
    extent: tuple[int, int]  # in the session file's text
    verdict: Verdict

    @property
    def message(self) -> str:
        """``claim "Memory use falls …" is refuted (--fail-on refuted): 1 source refutes it
        (strongest 0.9), none supports it``."""
        v = self.verdict
        named = (
            f"claim {title_quote(self.text, 60, ends=True)}"
            if self.text is not None
            else f"the claim at {self.pointer}"
        )
        said = f"{named} is {self.why} (--fail-on {self.named})"
        if v.verdict == "unresolved":
            return said + ": its claim does not resolve (the errors on it say why)"
        if v.verdict == "unverified":
            return said + ": no source counts (none resolves with a valid polarity and confidence)"
        sides = []
        for count, strength, verb in (
            (v.supports, v.support_strength, "supports"),
            (v.refutes, v.refute_strength, "refutes"),
        ):
            if count:
                sides.append(f"{plural(count, 'source')} {verb[:-1] if count > 1 else verb} it (strongest {strength})")
            else:
                sides.append(f"none {verb} it")
        return said + ": " + ", ".join(sides)


@dataclass
class Checked:
    """One input: its name and either its analysis or why it could not be read."""

    name: str
    analysis: Analysis | None = None
    unreadable: str | None = None
    warning: str | None = None  # readable, but not as JSON should be written (BOM, empty)
    fail_on: frozenset[str] = frozenset()  # verdicts that fail the check (--fail-on)

    @property
    def exit_code(self) -> int:
        if self.analysis is None:
            return 2
        worst = self.analysis.exit_code
        return max(worst, 1) if self.failing_verdicts() else worst

    def failing_claims(self) -> list[FailingClaim]:
        """The claims whose verdict ``--fail-on`` names, in file order, each once."""
        if self.analysis is None or not self.fail_on:
            return []
        analysis, found = self.analysis, []
        for verdict in analysis.summary.verdicts:
            if verdict.verdict in self.fail_on:
                why, named = verdict.verdict, verdict.verdict
            elif "weak" in self.fail_on and verdict.weak:
                why, named = f"{verdict.verdict} only weakly", "weak"
            else:
                continue
            annotation = analysis.annotations_by_path.get(verdict.path)
            claim = annotation.claim if annotation is not None else None
            node = analysis.node(verdict.path + ("claim",)) or analysis.node(verdict.path)
            extent = (node.start, node.start) if node is not None else (0, 0)
            text = claim.text if claim is not None else None
            found.append(FailingClaim(pointer(verdict.path), why, named, text, extent, verdict))
        return found

    def failing_verdicts(self) -> str:
        """The claims whose verdict ``--fail-on`` names, counted (empty: none)."""
        if self.analysis is None or not self.fail_on:
            return ""
        summary = self.analysis.summary
        counted = [(summary.count(v), v) for v in sorted(self.fail_on - {"weak"})]
        if "weak" in self.fail_on:
            counted.append((sum(1 for v in summary.verdicts if v.weak), "weak"))
        return ", ".join(f"{n} {verdict}" for n, verdict in counted if n)


def check_file(name: str, max_size_mb: int = disk.MAX_SIZE_MB) -> Checked:
    """Read and check one file (``-``: standard input); never raises for bad input."""
    try:
        data = read_input(name, max_size_mb)
    except Refused as refusal:
        return Checked(shown_name(name), unreadable=refusal.message.partition(": ")[2])
    return check_bytes(name, data)


def check_bytes(name: str, data: bytes) -> Checked:
    """Check the bytes of one input (``-`` is standard input)."""
    shown = shown_name(name)
    try:
        text = disk.decode(data, "save it as UTF-8")
    except disk.ReadRefused as refusal:
        return Checked(shown, unreadable=refusal.reason)
    return check_text(shown, text)


def check_text(name: str, text: str) -> Checked:
    """Check the text of one input named ``name`` (as shown), with what is wrong in it as
    text (a byte order mark, nothing at all)."""
    warning = None
    if text.startswith("\ufeff"):
        warning = "starts with a byte order mark (BOM), which JSON does not allow; save it as UTF-8 without BOM"
    elif not text.strip(" \t\r\n"):
        warning = "is empty; a session is a JSON object with documents and annotations"
    return Checked(name, Analysis(text), warning=warning)


def read_source(name: str, limit_mb: int = disk.MAX_SIZE_MB) -> tuple[str, str | None]:
    """A file to be a document: its content (LF line breaks) and what normalizing it changed."""
    try:
        read = disk.read_document(name, limit_mb)
    except disk.ReadRefused as refusal:
        raise Refused(f"{shown_name(name)}: {refusal.reason}") from None
    return read.content, read.note


@dataclass(frozen=True)
class SessionFile:
    """A session read from a file: its name, the bytes read (to tell later whether the file
    changed meanwhile) and its analysis."""

    name: str
    data: bytes
    analysis: Analysis

    @property
    def shown(self) -> str:
        return shown_name(self.name)

    @property
    def folder(self) -> str:
        """The folder its documents' paths start from: the one the session is named in."""
        return os.path.dirname(os.path.abspath(self.name))


def load_session(name: str, limit_mb: int = disk.MAX_SIZE_MB, *, require_shape: bool = False) -> SessionFile:
    """A session for a command that works on one: refused when it cannot be read, is not
    UTF-8, starts with a byte order mark, is not JSON (or, with ``require_shape``, has not
    the shape of a session). Its other findings are for the check to report."""
    data = read_input(name, limit_mb)
    shown = shown_name(name)
    text = decode(name, data, "a session is UTF-8 JSON")
    if text.startswith("\ufeff"):
        raise Refused(
            f"{shown}: starts with a byte order mark (BOM), which JSON does not allow; save it as UTF-8 without BOM"
        )
    analysis = Analysis(text)
    broken = [finding for finding in analysis.findings if finding.code == "invalid-json"]
    if broken:
        span = analysis.finding_span(broken[0], Encoding.UTF32)
        raise Refused(
            f"{shown}:{span.start.line + 1}:{span.start.character + 1}: not valid JSON: "
            f"{visible(broken[0].message)}; fix it first (`sourcecheck {shown}` lists every finding)"
        )
    if require_shape and not analysis.is_session:
        raise Refused(f"{shown}: is not a SourceCheck session (no `documents` and `annotations`)")
    return SessionFile(name, data, analysis)


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
    "Checked",
    "Refused",
    "SessionFile",
    "check_bytes",
    "check_file",
    "check_text",
    "decode",
    "load_session",
    "read_input",
    "read_source",
    "refuse_output",
    "remove_leftovers",
    "same_file",
    "shown_name",
    "size_mb",
    "use_colour",
    "write_atomically",
]

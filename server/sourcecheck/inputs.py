"""Inputs: the one layer between files (or bytes, or standard input) and the core, below
everything that reads a session (the API, the command line, the report): reading a session
or a document from a path, bytes or standard input, and JSON Lines a line at a time; an input
checked (:func:`check_file`, :func:`check_bytes`, :func:`check_text`: never raising for bad
input); a session for a command that works on one (:func:`load_session`).

Reading (see ``disk.py``): bounded by what is read, regular files only (a FIFO or a device,
whatever its name, refused at once: every open is ``disk``'s non-blocking, bounded one),
UTF-8; a session for a command that writes or reads documents (new, ref, show, sync, report)
must also be JSON (the check itself reports broken JSON as findings). Every refusal is one
line, ``NAME: reason``, the name shown safely.

JSON Lines: a file named ``*.jsonl`` (or any input with ``--jsonl``) holds one session per line:

* lines end at ``\\n``; a ``\\r`` just before it is part of the line ending (``\\r\\n``),
  a ``\\r`` elsewhere is part of the line (JSON reads it as whitespace);
* a final newline ends the last line, it does not start another; a last line without one
  is a line all the same;
* a blank line (nothing but spaces, tabs and ``\\r``) holds no session and is skipped: no
  report for it, but it is counted, so that every line keeps its number;
* each other line is checked as a session of its own, as if it were the whole input: a line
  that is not UTF-8, or longer than the size limit, is reported (exit 2) and the lines
  after it are still checked.

A file is read a line at a time: memory is that of its largest line, however large the file.
A large file is checked in parts (a Dask partition each, docs/examples/dask_recipe.py): a
part is the lines that *begin* at a byte offset in ``[start, stop)``, a line beginning at 0
or just after a ``\n``. Each line begins at one offset, so consecutive ranges hold each line
once, whatever their offsets: one begun before ``start`` and running past it is the part's
before. :func:`line_ranges` cuts a file into such ranges at line beginnings, each with the
number of its first line, reading the file once in blocks (never a whole line in memory).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, NamedTuple, overload

import sourcecheck.disk as disk  # the module alone: the package imports this one (api.py)

from .core.analysis import Analysis
from .core.display import plural, title_quote, visible
from .core.positions import Encoding
from .core.session import pointer
from .core.verdicts import ClaimVerdict


class Refused(Exception):
    """A request that cannot be done: the one line to print, and the exit code."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def shown_name(name: str) -> str:
    """A file name as printed: ``<stdin>`` for ``-``, control and bidi characters escaped."""
    return "<stdin>" if name == "-" else visible(name)


# --- reading ---------------------------------------------------------------------------


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
    verdict: ClaimVerdict

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
            annotation = analysis.session.annotation_at_path(verdict.path)
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


def too_large(name: str, size: int, max_size_mb: int) -> Checked:
    """An input (a line of JSON Lines) not read for its size."""
    return Checked(
        name,
        unreadable=f"is {size / 1_000_000:.0f} MB, more than the limit of {max_size_mb} MB; raise it with "
        "--max-size-mb to read it",
    )


# --- JSON Lines --------------------------------------------------------------------------

SUFFIX = ".jsonl"
CHUNK = 1 << 20  # what is read at a time of a line too long to check, to skip it


def is_jsonl(name: str) -> bool:
    """Whether a file's name says it holds JSON Lines."""
    return name.lower().endswith(SUFFIX)


@overload
def session_of(line: str) -> str | None: ...
@overload
def session_of(line: bytes) -> bytes | None: ...
@overload
def session_of(line: str | bytes) -> str | bytes | None: ...
def session_of(line: str | bytes) -> str | bytes | None:
    """The session a line holds: the line without its ending (``\\n`` or ``\\r\\n``); None
    for a blank line."""
    if isinstance(line, str):
        if line.endswith("\n"):
            line = line[:-2] if line.endswith("\r\n") else line[:-1]
        return line if line.strip(" \t\r") else None
    if line.endswith(b"\n"):
        line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
    return line if line.strip(b" \t\r") else None


def open_lines(name: str) -> BinaryIO | None:
    """A regular file opened to be read a line at a time; None when it cannot be (a reader
    of files then says why: missing, a directory, a pipe, a device). Opened without
    blocking (``disk.open_regular``): a FIFO, whatever its name, is refused at once, never
    waited on."""
    try:
        fd = disk.open_regular(name)
    except disk.ReadRefused:
        return None
    return os.fdopen(fd, "rb", buffering=1 << 16)


def read_lines(handle: BinaryIO, limit: int, part: LineRange | None = None) -> Iterator[tuple[int, bytes | None, int]]:
    """``(number, line, size)`` for each line of ``handle`` (1-based), its ending kept; the
    line is None (and its size counted without keeping it) when it holds more than ``limit``
    bytes besides its ending. With ``part``, the lines that begin in its range, numbered
    from its ``first_line``."""
    number, position, stop = 0, 0, None
    if part is not None:
        number, position, stop = part.first_line - 1, begin(handle, part.start), part.stop
    while stop is None or position < stop:
        line = handle.readline(limit + 2)
        if not line:
            return
        number += 1
        ending = 2 if line.endswith(b"\r\n") else 1 if line.endswith(b"\n") else 0
        if len(line) - ending <= limit:
            position += len(line)
            yield number, line, len(line)
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = handle.readline(CHUNK)
            if not line:
                break
            size += len(line)
        position += size
        yield number, None, size


class LineRange(NamedTuple):
    """A part of a JSON Lines file: the lines that begin at a byte offset in ``[start,
    stop)``, the first of them line ``first_line`` of the file."""

    start: int
    stop: int
    first_line: int = 1


def begin(handle: BinaryIO, start: int) -> int:
    """Where the first line beginning at ``start`` or after it begins (the end of the file
    when none does), ``handle`` left there; a line before it is skipped a block at a time."""
    if start <= 0:
        handle.seek(0)
        return 0
    handle.seek(start - 1)
    position = start - 1
    while True:
        block = handle.readline(CHUNK)
        position += len(block)
        if not block or block.endswith(b"\n"):
            return position


def line_ranges(name: str, size: int) -> list[LineRange]:
    """Consecutive ranges of about ``size`` bytes covering the file, each starting where a
    line begins, with the number of its first line: each line of the file is in one of them
    (a line longer than ``size`` makes its range longer). None for an empty file; one range
    from 0 for a file that cannot be opened (reading it then says why)."""
    handle = open_lines(name)
    if handle is None:
        return [LineRange(0, 0)]
    with handle:
        total = os.fstat(handle.fileno()).st_size
        if not total:
            return []
        starts = [0]
        for nominal in range(size, total, max(size, 1)):
            if nominal > starts[-1]:
                at = begin(handle, nominal)
                if starts[-1] < at < total:
                    starts.append(at)
        ranges, first = [], 1
        for start, stop in zip(starts, [*starts[1:], total], strict=True):
            ranges.append(LineRange(start, stop, first))
            first += newlines(handle, start, stop)
        return ranges


def newlines(handle: BinaryIO, start: int, stop: int) -> int:
    """How many ``\n`` the bytes ``[start, stop)`` hold, read a block at a time."""
    handle.seek(start)
    count, left = 0, stop - start
    while left > 0:
        block = handle.read(min(CHUNK, left))
        if not block:
            break
        count, left = count + block.count(b"\n"), left - len(block)
    return count

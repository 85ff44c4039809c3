"""What every output format is given and gives: the options of a report, one input's report
(:class:`Rendered`, made where the input was checked: maybe a worker process), and where it
is written (:class:`Output`: text, or bytes where the stream has them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from ..core.positions import Encoding
from ..disk import MAX_SIZE_MB
from ..inputs import Checked


@dataclass
class Rendered:
    """One input's report in the chosen format, made where it was checked (maybe a worker)."""

    exit_code: int
    text: str = ""  # human or github lines
    data: bytes = b""  # --json: the object as it is written (UTF-8), indented or on one line
    payload: Any = None  # SARIF results and notifications
    note: str | None = None  # the one line for stderr
    line: int | None = None  # a session of JSON Lines: its line
    end: str | None = None  # no report: the JSON Lines file so named has no more lines
    file: str = ""  # the input's name as shown (for a session of JSON Lines, its file's)


@dataclass(frozen=True)
class Options:
    """How to check and report (the command line's options)."""

    fmt: str = "human"
    colour: bool = False
    max_size_mb: int = MAX_SIZE_MB
    fail_on: frozenset[str] = frozenset()
    several: bool = False  # more than one input: each JSON object says its "file"
    lines_out: bool = False  # --json writes JSON Lines (an input is JSON Lines)
    fail_on_of: Mapping[str, frozenset[str]] = field(default_factory=dict)  # by file, from its configuration
    encoding: Encoding = Encoding.UTF16  # --json's columns (--position-encoding)


class Output:
    """A stream written as text, or as bytes (UTF-8) where it has them and the format is a
    JSON one."""

    def __init__(self, stream: TextIO, binary: bool) -> None:
        self.stream = stream
        self.binary = getattr(stream, "buffer", None) if binary else None
        if self.binary is not None:
            stream.flush()

    def text(self, text: str) -> None:
        self.stream.write(text)

    def data(self, data: bytes) -> None:
        if self.binary is not None:
            self.binary.write(data)
        else:
            self.stream.write(data.decode("utf-8"))


class ReportWriter(Protocol):
    """A format's reports written as they come, then whatever ends them."""

    def add(self, result: Rendered) -> None: ...

    def end_of_lines(self, file: str, sessions: list[int]) -> None:
        """After the last session of a JSON Lines file: how many were ok, failed, invalid."""

    def finish(self, worst: int) -> None: ...


Render = Callable[[Checked, Options, Rendered, "dict[str, Any] | None"], None]
"""Fill one input's report in (``extra``: keys the ``--json`` object ends with)."""


@dataclass(frozen=True)
class ReportFormat:
    """A row of the table of output formats (``formats/__init__.py``)."""

    name: str
    summary: str  # for --help
    binary: bool  # written as bytes (UTF-8) where the stream has them
    render: Render
    writer: Callable[[Options, Output], ReportWriter]
    per_line: bool = False  # JSON Lines in: one report a line out (Options.lines_out), as they come

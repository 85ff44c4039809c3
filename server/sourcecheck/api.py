"""The Python API: check a session, and read what was found as typed, immutable objects.

    import sourcecheck

    report = sourcecheck.check(pathlib.Path("article.sourcecheck.json"))
    report.exit_code                    # 0, 1 or 2: what `sourcecheck` exits with
    for finding in report.findings:     # code, severity, message, pointer, range
        print(finding.range.start.line + 1, finding.code, finding.message)
    report.to_json()                    # exactly what `sourcecheck --json` prints for it

:func:`check` takes a JSON text (a ``str`` is always JSON text, never a path), its bytes
(UTF-8), a path (``os.PathLike``: ``pathlib.Path("a.json")``) or a parsed value (a dict, or
a list); :func:`check_lines` takes JSON Lines (a path, or lines) and gives one report per
session. Each report's :meth:`Report.to_json` is the object docs/rules.md fixes for ``--json``;
the command's ``--json`` writes the object the same builder (``formats/json.py``'s
:func:`report_json`) makes,
so the two cannot differ.

A parsed value has no text of its own: it is checked as the text :func:`text_of` writes
(``json.dumps(value, ensure_ascii=False, indent=2)``, a lone surrogate or an invisible
character written as an escape, as ``--json`` writes them), and the ranges of its
findings are into that text: ``check(value)`` is ``check(text_of(value))``, and is what
``sourcecheck --json`` prints for a file holding it.

Checking has no effect outside the call (no setting of the process is changed: the
collector, the streams), and calls in several threads at once are safe: each has its own
analysis, and a report is never changed once made.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple, cast

from .arguments import encoding as encoding_named
from .arguments import flag, line_item, lines_source, name_of, size_limit, source_text, value_text
from .arguments import verdicts as verdicts_named
from .core.fixes import fixed
from .core.jsontext import copied, dumps, finite_floats
from .core.positions import Encoding, Position
from .core.verdicts import VERDICTS, WEAK
from .disk import MAX_SIZE_MB, ReadRefused, normalized, read_bytes, read_document
from .disk import decode as decode_bytes
from .formats.json import report_json
from .inputs import (
    Checked,
    LineRange,
    check_bytes,
    check_file,
    check_text,
    open_lines,
    read_lines,
    session_of,
    shown_name,
    too_large,
)
from .inputs import line_ranges as _line_ranges
from .interchange import ANSWER as _ANSWER
from .interchange import FORMATS as _FORMATS
from .interchange import checked as _checked
from .interchange import import_wire as _import_wire
from .interchange import parse as _parse
from .interchange.model import Given, ImportReport

Severity = Literal["error", "warning", "hint"]
"""How bad a finding is: an ``error`` fails the check, a ``warning`` or a ``hint`` does not."""
Applicability = Literal["safe", "unsafe"]
"""Whether a fix may be applied without a person looking (docs/rules.md, ``--fix``)."""
VerdictName = Literal["supported", "contested", "refuted", "unverified", "unresolved"]
"""What an annotation's counted sources say of its claim (docs/rules.md, verdicts)."""
FAIL_ON = frozenset((*VERDICTS, "weak"))
"""The verdicts ``fail_on`` (the command's ``--fail-on``) may name."""


# --- the report's parts -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Range:
    """A stretch of the checked text, ``end`` exclusive."""

    start: Position
    end: Position

    def to_json(self) -> dict[str, Any]:
        """``{"start": {...}, "end": {...}}``."""
        return {"start": self.start.to_json(), "end": self.end.to_json()}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Range:
        """The range ``to_json`` writes as ``value``."""
        return cls(Position.from_json(value["start"]), Position.from_json(value["end"]))


@dataclass(frozen=True, slots=True)
class Edit:
    """One change of a fix: the text at ``range`` replaced by ``content``."""

    range: Range
    content: str

    def to_json(self) -> dict[str, Any]:
        """``{"range": {...}, "content": "..."}``."""
        return {"range": self.range.to_json(), "content": self.content}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Edit:
        """The edit ``to_json`` writes as ``value``."""
        return cls(Range.from_json(value["range"]), value["content"])


@dataclass(frozen=True, slots=True)
class Fix:
    """A repair of a finding (docs/rules.md, ``--fix``): what it does (``message``), its edits
    (their ranges do not overlap), and whether it is ``safe`` to apply unseen."""

    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"applicability": ..., "message": ..., "edits": [...]}``."""
        return {
            "applicability": self.applicability,
            "message": self.message,
            "edits": [edit.to_json() for edit in self.edits],
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Fix:
        """The fix ``to_json`` writes as ``value``."""
        return cls(value["applicability"], value["message"], tuple(Edit.from_json(e) for e in value["edits"]))


@dataclass(frozen=True, slots=True)
class Finding:
    """One broken rule (docs/rules.md's table names each ``code``), on the JSON value at
    ``pointer`` (RFC 6901, ``""`` for the whole text), which spans ``range``. ``fix``: its
    one repair, when it has one; ``suggestions``: the repairs to choose from, when it has
    several."""

    code: str
    severity: Severity
    message: str
    pointer: str
    range: Range
    fix: Fix | None = None
    suggestions: tuple[Fix, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The finding as ``--json`` writes it (``fix`` and ``suggestions`` only when it
        has them)."""
        found: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "pointer": self.pointer,
            "range": self.range.to_json(),
        }
        if self.fix is not None:
            found["fix"] = self.fix.to_json()
        if self.suggestions:
            found["suggestions"] = [fix.to_json() for fix in self.suggestions]
        return found

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Finding:
        """The finding ``to_json`` writes as ``value``."""
        fix = value.get("fix")
        return cls(
            value["code"],
            value["severity"],
            value["message"],
            value["pointer"],
            Range.from_json(value["range"]),
            Fix.from_json(fix) if fix is not None else None,
            tuple(Fix.from_json(s) for s in value.get("suggestions", ())),
        )


@dataclass(frozen=True, slots=True)
class Point:
    """A place in a document's ``content``: ``line`` 1-based (as refs count them),
    ``column`` 0-based in code points."""

    line: int
    column: int

    def to_json(self) -> dict[str, Any]:
        """``{"line": L, "column": C}``."""
        return {"line": self.line, "column": self.column}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Point:
        """The point ``to_json`` writes as ``value``."""
        return cls(value["line"], value["column"])


@dataclass(frozen=True, slots=True)
class Ref:
    """A claim or a source, at ``pointer``. A ``valid`` one resolves to exactly one span
    of the document at ``path``: from ``start`` to ``end`` (exclusive), whose characters
    are ``text``; an invalid one has none of these (its findings say why)."""

    pointer: str
    valid: bool
    text: str | None
    path: str | None = None
    start: Point | None = None
    end: Point | None = None

    def to_json(self) -> dict[str, Any]:
        """The ref as ``--json`` writes it (``path``, ``start``, ``end`` when valid)."""
        found: dict[str, Any] = {"pointer": self.pointer, "valid": self.valid, "text": self.text}
        if self.valid:
            assert self.start is not None and self.end is not None
            found.update(path=self.path, start=self.start.to_json(), end=self.end.to_json())
        return found

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Ref:
        """The ref ``to_json`` writes as ``value``."""
        if not value["valid"]:
            return cls(value["pointer"], False, value["text"])
        return cls(
            value["pointer"],
            True,
            value["text"],
            value["path"],
            Point.from_json(value["start"]),
            Point.from_json(value["end"]),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the counted sources of the annotation at ``pointer`` say of its claim: how
    many support it and refute it, and each side's strength (its highest confidence; None
    when no source of that side counts)."""

    pointer: str
    verdict: VerdictName
    supports: int
    refutes: int
    support_strength: int | float | None
    refute_strength: int | float | None
    unsupported_words: tuple[str, ...] | None = None
    """The claim's content words that none of its counted supporting sources' cited text
    has (``core/unsupported.py``): where a reviewer should look, not a verdict. None when
    the claim does not resolve or no supporting source counts."""

    @property
    def weak(self) -> bool:
        """Supported, or refuted, only by sources below 0.3 (which are usually omitted)."""
        if self.verdict == "supported":
            return self.support_strength is not None and self.support_strength < WEAK
        if self.verdict == "refuted":
            return self.refute_strength is not None and self.refute_strength < WEAK
        return False

    def to_json(self) -> dict[str, Any]:
        """The verdict as ``--json`` writes it, under ``annotations``."""
        return {
            "pointer": self.pointer,
            "verdict": self.verdict,
            "supports": self.supports,
            "refutes": self.refutes,
            "support_strength": self.support_strength,
            "refute_strength": self.refute_strength,
            "unsupported_words": list(self.unsupported_words) if self.unsupported_words is not None else None,
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Verdict:
        """The verdict ``to_json`` writes as ``value``."""
        words = value.get("unsupported_words")
        return cls(
            value["pointer"],
            value["verdict"],
            value["supports"],
            value["refutes"],
            value["support_strength"],
            value["refute_strength"],
            tuple(words) if words is not None else None,
        )


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of a document no resolved claim covers, ``end`` exclusive."""

    start: Point
    end: Point

    def to_json(self) -> dict[str, Any]:
        """``{"start": {...}, "end": {...}}``."""
        return {"start": self.start.to_json(), "end": self.end.to_json()}

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Run:
        """The run ``to_json`` writes as ``value``."""
        return cls(Point.from_json(value["start"]), Point.from_json(value["end"]))


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of a cited document (one that a claim names) no resolved claim covers:
    its ``characters``, those uncited, and each uncited run (runs of whitespace alone are
    left out)."""

    path: str
    characters: int
    uncited_characters: int
    runs: tuple[Run, ...]

    @property
    def uncited_share(self) -> float:
        """The share of the document's characters no claim covers (0 for an empty one)."""
        return self.uncited_characters / self.characters if self.characters else 0.0

    def to_json(self) -> dict[str, Any]:
        """The coverage as ``--json`` writes it, under ``uncited``."""
        return {
            "path": self.path,
            "characters": self.characters,
            "uncited_characters": self.uncited_characters,
            "runs": [run.to_json() for run in self.runs],
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Coverage:
        """The coverage ``to_json`` writes as ``value``."""
        return cls(
            value["path"],
            value["characters"],
            value["uncited_characters"],
            tuple(Run.from_json(run) for run in value["runs"]),
        )


# --- the report ---------------------------------------------------------------------

_UNSET: Any = object()
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


class Report:
    """What checking one session found: the exit code, the findings, every ref, the
    annotations' verdicts and the uncited text of the cited documents, as typed objects;
    :meth:`to_json` gives the same as the object ``sourcecheck --json`` prints.

    An input that could not be read (a missing file, bytes that are not UTF-8) has exit code
    2, its reason in :attr:`error`, and nothing else. A report is never changed once made
    (its parts are frozen, :meth:`to_json` gives a new object each time), so it may be
    shared between threads."""

    __slots__ = ("_json", "_warning", "_finite", "_findings", "_refs", "_annotations", "_uncited")
    _json: dict[str, Any]
    _warning: str | None
    _finite: bool  # no float in it is NaN or infinite (see jsontext.copied)
    _findings: tuple[Finding, ...]
    _refs: tuple[Ref, ...]
    _annotations: tuple[Verdict, ...]
    _uncited: tuple[Coverage, ...]

    def __init__(self, value: Mapping[str, Any], warning: str | None = None) -> None:
        """The report whose ``to_json()`` is ``value`` (an object ``--json`` printed, say;
        it is copied). ``warning``: see :attr:`warning`."""
        copy = copied(dict(value))
        self._set(copy, warning, finite_floats(copy))

    def _set(self, value: dict[str, Any], warning: str | None, finite: bool) -> None:
        for slot in ("_findings", "_refs", "_annotations", "_uncited"):
            object.__setattr__(self, slot, _UNSET)
        object.__setattr__(self, "_json", value)
        object.__setattr__(self, "_warning", warning)
        object.__setattr__(self, "_finite", finite)

    @classmethod
    def _made(cls, value: dict[str, Any], warning: str | None, finite: bool = True) -> Report:
        """A report of a value the builder made (and no one else holds: not copied; its
        only floats, the strengths, are confidences, which are finite)."""
        report = cls.__new__(cls)
        report._set(value, warning, finite)
        return report

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Report cannot be changed (tried to set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Report cannot be changed (tried to delete {name!r})")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Report._made, (self._json, self._warning, self._finite))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Report):
            return NotImplemented
        return self._json == other._json and self._warning == other._warning

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        line = f"line={self.line}, " if self.line is not None else ""
        if self.error is not None:
            return f"Report({line}exit_code=2, error={self.error!r})"
        return (
            f"Report({line}exit_code={self.exit_code}, findings={len(self._json['findings'])}, "
            f"refs={len(self._json['refs'])})"
        )

    @property
    def exit_code(self) -> int:
        """0 when every ref resolves and nothing is an error, 1 when a ref fails to resolve
        (or a verdict named by ``fail_on`` is found), 2 for invalid JSON, a schema error or
        an input that could not be read."""
        return cast(int, self._json["exit_code"])

    @property
    def ok(self) -> bool:
        """Whether the check passed (exit code 0)."""
        return self.exit_code == 0

    @property
    def error(self) -> str | None:
        """Why the input could not be read (``"NAME: no such file"``), or None."""
        return cast("str | None", self._json.get("error"))

    @property
    def warning(self) -> str | None:
        """What the command would say of a readable input on stderr (it starts with a byte
        order mark, or is empty), or None. Not part of :meth:`to_json`."""
        return self._warning

    @property
    def line(self) -> int | None:
        """The line (1-based) of a session of JSON Lines (:func:`check_lines`), or None."""
        return cast("int | None", self._json.get("line"))

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Every finding, in the order of where it is in the text."""
        if self._findings is _UNSET:
            object.__setattr__(self, "_findings", tuple(map(Finding.from_json, self._json["findings"])))
        return self._findings

    @property
    def refs(self) -> tuple[Ref, ...]:
        """Every ref (each claim, each source), in file order."""
        if self._refs is _UNSET:
            object.__setattr__(self, "_refs", tuple(map(Ref.from_json, self._json["refs"])))
        return self._refs

    @property
    def annotations(self) -> tuple[Verdict, ...]:
        """The verdict of each annotation, in file order."""
        if self._annotations is _UNSET:
            object.__setattr__(self, "_annotations", tuple(map(Verdict.from_json, self._json.get("annotations", ()))))
        return self._annotations

    @property
    def uncited(self) -> tuple[Coverage, ...]:
        """The uncited text of each cited document, in document order."""
        if self._uncited is _UNSET:
            object.__setattr__(self, "_uncited", tuple(map(Coverage.from_json, self._json.get("uncited", ()))))
        return self._uncited

    def to_json(self) -> dict[str, Any]:
        """The object ``sourcecheck --json`` prints for the same input (with ``"line"`` for
        a session of JSON Lines, as ``--json`` prints it for such a line): a new one at
        each call, the caller's to change."""
        copy: dict[str, Any] = copied(self._json, self._finite)
        return copy

    def to_json_text(self, indent: bool = True) -> str:
        """:meth:`to_json` as JSON text: as ``--json`` prints it (``indent``), or on one
        line as a line of its JSON Lines output."""
        return dumps(self._json, indent).decode("utf-8")


# --- checking -------------------------------------------------------------------------


def text_of(value: dict[str, Any] | list[Any]) -> str:
    """The text a parsed value is checked as: ``json.dumps(value, ensure_ascii=False,
    indent=2)``, each lone surrogate and invisible character written as a ``\\uXXXX``
    escape (as ``--json`` writes them). Raises ``TypeError`` for what JSON cannot hold (a
    set, a key that is a tuple), ``ValueError`` for a value that contains itself, is nested
    more than 500 levels deep or holds an integer of more digits than Python writes, each
    saying where; ``NaN`` and ``Infinity`` are written as ``json.dumps`` writes them, and
    are then ``invalid-json``."""
    return value_text(value, "sourcecheck.text_of")


def check(
    source: str | bytes | bytearray | memoryview | os.PathLike[str] | os.PathLike[bytes] | dict[str, Any] | list[Any],
    *,
    name: str | None = None,
    fail_on: str | Iterable[str] = (),
    max_size_mb: int = MAX_SIZE_MB,
    position_encoding: str = "utf-16",
) -> Report:
    """Check one session and report what was found, as ``sourcecheck --json`` does.

    ``source``: JSON text (a ``str``, always text, never a path), its bytes (UTF-8), a path
    (``os.PathLike``; a file larger than ``max_size_mb`` is not read, as the command's
    ``--max-size-mb``), or a parsed value (a dict or a list: checked as :func:`text_of`
    writes it, its ranges into that text). A path to JSON Lines (``*.jsonl``) holds many
    sessions: :func:`check_lines` reads it (``check`` raises ``ValueError``).

    ``name``: what an input that cannot be read is called in :attr:`Report.error` (by
    default the path, else ``<stdin>``, as the command calls standard input). ``fail_on``:
    verdicts that fail the check (exit 1) as ``--fail-on`` does, one name or several (a
    list, or names with commas): ``unresolved``, ``unverified``, ``refuted``, ``contested``,
    ``supported``, ``weak``. ``position_encoding``: how the columns of ranges and edits are
    counted, ``"utf-16"`` (as LSP and docs/rules.md), ``"utf-8"`` or ``"utf-32"``.

    Never raises for what the input holds (a file that is missing, bytes that are not
    UTF-8, text that is not JSON: each is in the report); raises ``TypeError`` for a source
    of another type and for a ``str`` naming an existing ``*.json`` file (pass a
    ``pathlib.Path``), ``ValueError`` for an unknown verdict in ``fail_on`` and a parsed
    value with no JSON text (see :func:`text_of`); each says what is accepted."""
    verdicts, encoding = verdicts_named(fail_on, FAIL_ON), encoding_named(position_encoding)
    limit = size_limit(max_size_mb)
    shown, text = source_text(source, name_of(name), limit, "sourcecheck.check")
    checked = text if isinstance(text, Checked) else check_text(shown, text)
    checked.fail_on = verdicts
    return Report._made(report_json(checked, None, encoding), checked.warning)


@dataclass(frozen=True, slots=True)
class AppliedFix:
    """A fix :func:`fix` applied: the finding's ``code`` and ``pointer`` (in the text as it
    was when the fix was applied) and what the fix did (its ``message``, as in ``--json``)."""

    code: str
    pointer: str
    message: str

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "pointer": ..., "message": ...}``, as ``--fix --json`` lists it under ``"fixed"``."""
        return {"code": self.code, "pointer": self.pointer, "message": self.message}


@dataclass(frozen=True, slots=True)
class FixResult:
    """What :func:`fix` made of a session: the fixed ``text`` (None when the input could not
    be read: ``report.error`` says why), the fixes ``applied`` in order, and the ``report``
    of the fixed text (its :attr:`findings`: what is left)."""

    text: str | None
    applied: tuple[AppliedFix, ...]
    report: Report

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The findings left in the fixed text (``report.findings``)."""
        return self.report.findings

    @property
    def changed(self) -> bool:
        """Whether a fix applied (the text is not the input's)."""
        return bool(self.applied)

    def to_json(self) -> dict[str, Any]:
        """What ``sourcecheck --fix --json`` prints for the session: the report of the fixed
        text and, under ``"fixed"``, the fixes applied."""
        return {**self.report.to_json(), "fixed": [applied.to_json() for applied in self.applied]}


def fix(
    source: str | bytes | bytearray | memoryview | os.PathLike[str] | os.PathLike[bytes] | dict[str, Any] | list[Any],
    unsafe: bool = False,
    *,
    name: str | None = None,
    fail_on: str | Iterable[str] = (),
    max_size_mb: int = MAX_SIZE_MB,
    position_encoding: str = "utf-16",
) -> FixResult:
    """Apply a session's fixes, as ``sourcecheck --fix`` does, and give the fixed text, the
    fixes applied and the findings left: the safe fixes (``unsafe``: the unsafe ones too,
    as ``--unsafe-fixes``), round after round until none applies. Nothing is written: a
    path is read, and the fixed text is the caller's to write.

    ``source`` and the keywords are :func:`check`'s, and so are the errors raised: a parsed
    value is fixed as the text :func:`text_of` writes (``json.loads(result.text)`` is the
    fixed value). An input that cannot be read gives a result whose ``text`` is None, its
    report saying why; bytes are returned as text (they are UTF-8)."""
    flag("unsafe", unsafe)
    verdicts, encoding = verdicts_named(fail_on, FAIL_ON), encoding_named(position_encoding)
    limit = size_limit(max_size_mb)
    shown, text = source_text(source, name_of(name), limit, "sourcecheck.fix")
    if isinstance(text, Checked):
        text.fail_on = verdicts
        return FixResult(None, (), Report._made(report_json(text, None, encoding), text.warning))
    result = fixed(text, unsafe) if not text.startswith("\ufeff") else None  # (a BOM: not JSON as written)
    after = result.text if result is not None else text
    checked = check_text(shown, after)
    checked.fail_on = verdicts
    applied = tuple(AppliedFix(*each) for each in result.applied) if result is not None else ()
    return FixResult(after, applied, Report._made(report_json(checked, None, encoding), checked.warning))


def check_lines(
    source: os.PathLike[str] | os.PathLike[bytes] | Iterable[str | bytes | dict[str, Any]],
    *,
    name: str | None = None,
    fail_on: str | Iterable[str] = (),
    max_size_mb: int = MAX_SIZE_MB,
    position_encoding: str = "utf-16",
    part: LineRange | None = None,
) -> Iterator[Report]:
    """Check JSON Lines, one session per line, and give a report for each, in order: what
    ``sourcecheck --json`` prints for them, line by line (each with its :attr:`Report.line`).

    ``source``: a path (read a line at a time: a line larger than ``max_size_mb`` is
    reported, not read), or lines (a file opened in text or binary mode, a list of
    strings, a Dask partition), each with or without its line ending, or parsed sessions
    (dicts, checked as :func:`check` checks one). Lines are numbered from 1; a blank line
    gives no report (its number is skipped). ``name``: what the reports' messages call the
    input (by default the path, else ``<stdin>``), each line as ``NAME:LINE``. A path that
    cannot be read gives one report, with its reason and no line. A line of text read with
    ``errors="surrogateescape"`` (what is not UTF-8 kept as lone surrogates U+DC80 to
    U+DCFF, as a Dask bag of ``read_text`` can) is checked as the bytes it was read from: a
    line that is not UTF-8 is reported as the command reports it. ``part`` (of a path): the
    lines of one of its :func:`line_ranges`, numbered as in the file.

    Raises at once (not when the first report is asked for) ``TypeError`` for a ``str`` or
    ``bytes`` source (its items would be characters: pass ``pathlib.Path`` for a file,
    ``text.splitlines()`` for text in memory) or one that is not iterable, and ``ValueError``
    for ``fail_on`` or ``position_encoding`` as :func:`check` does; while reading,
    ``TypeError`` for a line of another type."""
    lines_source(source)
    verdicts, encoding = verdicts_named(fail_on, FAIL_ON), encoding_named(position_encoding)
    limit = size_limit(max_size_mb)
    shown = name_of(name)
    if part is not None and not (isinstance(part, LineRange) and isinstance(source, os.PathLike)):
        raise TypeError("part is a sourcecheck.LineRange of a path (from sourcecheck.line_ranges), or None")
    if isinstance(source, os.PathLike):
        return _path_lines(os.fsdecode(os.fspath(source)), shown, verdicts, limit, encoding, part)
    return _given_lines(source, shown or "<stdin>", verdicts, encoding)


def line_ranges(path: os.PathLike[str] | os.PathLike[bytes], size: int) -> list[LineRange]:
    """A JSON Lines file cut into parts of about ``size`` bytes at line beginnings, to be
    checked apart (``check_lines(path, part=each)``, a Dask partition each): each line is in
    exactly one part, numbered as in the file. The file is read once, a block at a time; an
    empty file has no parts, one that cannot be opened one part (checking it says why)."""
    if not isinstance(path, os.PathLike):
        raise TypeError(f"sourcecheck.line_ranges takes a path (pathlib.Path), not {type(path).__name__}")
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ValueError(f"size is a number of bytes above 0, not {size!r}")
    return _line_ranges(os.fsdecode(os.fspath(path)), size)


def _path_lines(
    path: str, name: str | None, verdicts: frozenset[str], max_size_mb: int, encoding: Encoding, part: LineRange | None
) -> Iterator[Report]:
    shown = name or shown_name(path)
    handle = open_lines(path)
    if handle is None:
        checked = check_file(path, max_size_mb)  # says why, as for any file
        checked.name, checked.fail_on = shown, verdicts
        yield Report._made(report_json(checked, None, encoding), checked.warning)
        return
    with handle:
        limit = max_size_mb * 1_000_000
        for number, line, size in read_lines(handle, limit, part):
            if line is None:
                checked = too_large(f"{shown}:{number}", size, max_size_mb)
            else:
                session = session_of(line)
                if session is None:
                    continue
                checked = check_bytes(f"{shown}:{number}", session)
            checked.fail_on = verdicts
            yield Report._made(report_json(checked, number, encoding), checked.warning)


def _given_lines(
    source: Iterable[object], shown: str, verdicts: frozenset[str], encoding: Encoding
) -> Iterator[Report]:
    for number, raw in enumerate(source, 1):
        item = line_item(number, raw)
        where = f"{shown}:{number}"
        if isinstance(item, (dict, list)):
            checked = check_text(where, value_text(item, "sourcecheck.check_lines"))
        else:
            held = session_of(item)
            if held is None:
                continue
            if isinstance(held, str) and _ESCAPED_BYTE.search(held):  # read with errors="surrogateescape"
                held = held.encode("utf-8", "surrogateescape")
            checked = check_text(where, held) if isinstance(held, str) else check_bytes(where, held)
        checked.fail_on = verdicts
        yield Report._made(report_json(checked, number, encoding), checked.warning)


# --- import and export (docs/rules.md, `import` and `export`; the formats are interchange/'s) -------

Value = str | bytes | os.PathLike[str] | dict[str, Any] | list[Any]
"""A response, request or session: JSON text, its bytes, a path, or a parsed value."""


class Imported(NamedTuple):
    """What :func:`import_citations` made: the ``session`` (a dict) and the ``report`` of what
    was placed, placed by its text (``mismatched``) and left out, with why."""

    session: dict[str, Any]
    report: ImportReport


def _text(value: Value, what: str) -> str:
    if isinstance(value, os.PathLike):
        try:
            data = read_bytes(os.fspath(value))
            return decode_bytes(data, f"{what} is UTF-8")
        except ReadRefused as refusal:
            raise ValueError(f"{os.fspath(value)}: {refusal.reason}") from None
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, str):
        return value
    if isinstance(value, (dict, list)):
        return dumps(value, indent=False).decode("utf-8")
    raise TypeError(
        f"{what} is JSON text (str), bytes, a path (os.PathLike) or a parsed value, not {type(value).__name__}"
    )


def _given(documents: Mapping[str, str] | Iterable[os.PathLike[str]] | None) -> list[Given]:
    """The documents given: a mapping of session paths to their text, or files to read."""
    if documents is None:
        return []
    if isinstance(documents, Mapping):
        return [
            Given(path, normalized(text)[0], Path(os.path.abspath(path)).as_uri()) for path, text in documents.items()
        ]
    found = []
    for path in documents:
        name = os.fspath(path)
        try:
            read = read_document(name)
        except ReadRefused as refusal:
            raise ValueError(f"{name}: {refusal.reason}") from None
        found.append(Given(Path(name).as_posix(), read.content, Path(os.path.abspath(name)).as_uri()))
    return found


def import_citations(
    format: str,
    response: Value,
    *,
    request: Value | None = None,
    documents: Mapping[str, str] | Iterable[os.PathLike[str]] | None = None,
    answer: str = _ANSWER,
) -> Imported:
    """The session a model's response (or Web Annotations) makes, as ``sourcecheck import``
    makes it, and the report of what was placed, mismatched (placed by its text) and left out.

    ``format``: ``anthropic``, ``gemini``, ``cohere`` or ``w3c``. ``request``: the request the
    response answers (its documents, for ``anthropic``; documents by id, for ``cohere``).
    ``documents``: texts the citations point into that the response does not carry, by
    session path (a web page, a PDF's text, a file of a file search; for ``w3c`` every
    document), or files to read. Raises ``ValueError`` for a format it does not know or a
    response that is not one."""
    if format not in _FORMATS:
        raise ValueError(f"format is one of {', '.join(_FORMATS)}, not {format!r}")
    wire = _parse(_text(response, "the response"))
    parsed_request = json.loads(_text(request, "the request")) if request is not None else None
    session, report = _import_wire(format, wire, parsed_request, _given(documents), answer)
    return Imported(session, _checked(dumps(session, indent=True).decode("utf-8"), report))


def export_w3c(session: Value, *, base: str | None = None, name: str = "session") -> dict[str, Any]:
    """The W3C Web Annotations of a session, as ``sourcecheck export w3c`` writes them (an
    ``AnnotationCollection``): ``base`` is the URI its documents' paths are under (by default
    the current folder's ``file:`` URI), ``name`` the session's, for the collection's id.
    Raises ``ValueError`` (``interchange.w3c.Unexportable``, each problem in ``problems``) for
    a session that does not check clean."""
    folder = base if base is not None else Path.cwd().as_uri()
    writer = _FORMATS["w3c"].write
    assert writer is not None
    return writer(_text(session, "the session"), folder.rstrip("/") + "/", name)


__all__ = [
    "FAIL_ON",
    "AppliedFix",
    "Applicability",
    "Coverage",
    "Edit",
    "Finding",
    "Fix",
    "FixResult",
    "LineRange",
    "Point",
    "Position",
    "Range",
    "Ref",
    "Report",
    "Run",
    "Severity",
    "Verdict",
    "VerdictName",
    "ImportReport",
    "Imported",
    "check",
    "check_lines",
    "export_w3c",
    "fix",
    "import_citations",
    "line_ranges",
    "report_json",
    "text_of",
]

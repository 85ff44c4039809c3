"""``--json``: the object docs/rules.md fixes for one checked input (its builder, which the
Python API's ``Report`` is made of too), and JSON Lines: one such object a line when the
input is JSON Lines. Written by orjson where it writes what ``json`` would
(``core/jsontext.py``)."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from ..core import jsontext
from ..core.analysis import Analysis
from ..core.fixes import FIXERS, fix_of
from ..core.fixes import Repair as CoreFix
from ..core.jsontext import plain_float
from ..core.positions import Encoding
from ..core.session import ResolvedRef, Session, Violation
from ..core.verdicts import DocumentCoverage
from ..inputs import Checked
from .base import Options, Output, Rendered


def report_json(checked: Checked, line: int | None = None, encoding: Encoding = Encoding.UTF16) -> dict[str, Any]:
    """The object docs/rules.md fixes for ``--json``, of one checked input: what ``--json``
    prints and :meth:`Report.to_json` gives. ``line``: the input is the session on that
    line of JSON Lines (the object then starts with ``"line"``). ``encoding``: how the
    columns of its ranges are counted (``--position-encoding``), which it says in
    ``"position_encoding"``."""
    return report_payload(checked, line, encoding)[0]


def report_payload(
    checked: Checked, line: int | None = None, encoding: Encoding = Encoding.UTF16
) -> tuple[dict[str, Any], bool]:
    """:func:`report_json`, and whether each float in it is one orjson writes as ``json``
    does (see ``core/jsontext.py``): its only floats are the sides' strengths."""
    head: dict[str, Any] = {"line": line} if line is not None else {}
    analysis = checked.analysis
    if analysis is None:
        error = f"{checked.name}: {checked.unreadable}"
        return {**head, "exit_code": 2, "error": error, "findings": [], "refs": []}, True  # (no range to count)
    summary = analysis.summary
    unsupported = analysis.unsupported
    annotations = [
        {**verdict.as_json(), "unsupported_words": words_json(unsupported.of(verdict.path))}
        for verdict in summary.verdicts
    ]
    plain = all(
        type(strength) is not float or plain_float(strength)
        for verdict in summary.verdicts
        for strength in (verdict.support_strength, verdict.refute_strength)
    )
    payload = {
        **head,
        "exit_code": checked.exit_code,
        "findings": [finding_json(analysis, f, encoding) for f in analysis.findings],
        "refs": _refs_json(analysis.session),
        "annotations": annotations,
        "uncited": [_coverage_json(coverage) for coverage in summary.coverage],
        "position_encoding": encoding.value,
    }
    return payload, plain


def _range_json(analysis: Analysis, start: int, end: int, encoding: Encoding) -> dict[str, Any]:
    span = analysis.span(start, end, encoding)
    return {
        "start": {"line": span.start.line, "character": span.start.character},
        "end": {"line": span.end.line, "character": span.end.character},
    }


def _fix_json(analysis: Analysis, fix: CoreFix, encoding: Encoding) -> dict[str, Any]:
    """A repair as ``--json`` writes it (docs/rules.md): applicability, message, edits."""
    return {
        "applicability": fix.applicability,
        "message": fix.title,
        "edits": [{"range": _range_json(analysis, e.start, e.end, encoding), "content": e.text} for e in fix.edits],
    }


def finding_json(analysis: Analysis, finding: Violation, encoding: Encoding = Encoding.UTF16) -> dict[str, Any]:
    """A finding as ``--json`` writes it: code, severity, message, pointer and range; and its
    ``fix`` when it has one repair, its ``suggestions`` when it has several (core/fixes.py)."""
    found: dict[str, Any] = {
        "code": finding.code,
        "severity": finding.severity.value,
        "message": finding.message,
        "pointer": finding.pointer,
        "range": _range_json(analysis, *analysis.extent(finding), encoding),
    }
    if finding.code in FIXERS:
        fix, suggestions = fix_of(analysis, finding)
        if fix is not None:
            found["fix"] = _fix_json(analysis, fix, encoding)
        elif suggestions:
            found["suggestions"] = [_fix_json(analysis, each, encoding) for each in suggestions]
    return found


def _coverage_json(coverage: DocumentCoverage) -> dict[str, Any]:
    """``Coverage.as_json``, its runs' places found with the document's line starts at hand."""
    document = coverage.document
    starts = document.lines.starts
    runs = []
    for run in coverage.runs:
        first = bisect_right(starts, run.start)
        last = bisect_right(starts, run.end)
        runs.append(
            {
                "start": {"line": first, "column": run.start - starts[first - 1]},
                "end": {"line": last, "column": run.end - starts[last - 1]},
            }
        )
    return {
        "path": document.path,
        "characters": len(document.content),
        "uncited_characters": coverage.uncited_characters,
        "runs": runs,
    }


def _refs_json(session: Session) -> list[dict[str, Any]]:
    """Each ref as ``--json`` writes it: pointer, validity and text, and a valid one's path
    and span in its document (docs/rules.md's additions; ``verdicts.span_json``, written out: a
    large session has thirty thousand). A ref the check resolved in one go knows its lines
    and columns (``ResolvedRef.columns``: its lines as written, each boundary found on its
    own); another's are found from its span."""
    found: list[dict[str, Any]] = []
    append, pointer_of = found.append, session.ref_pointer
    for ref in session.refs:
        span, document = ref.span, ref.document
        if span is None or document is None:
            append({"pointer": pointer_of(ref), "valid": ref.valid, "text": None})
            continue
        start, end = span
        entry = {"pointer": pointer_of(ref), "valid": ref.valid, "text": document.content[start:end]}
        if ref.valid:
            columns = ref.columns if type(ref) is ResolvedRef else None
            if columns is not None:
                raw_start, raw_end = ref.raw["start"], ref.raw["end"]
                first, last = raw_start["line"], raw_end["line"]
                at, to = columns[0], columns[1] + len(raw_end["str"])
            else:
                starts = document.lines.starts
                first = bisect_right(starts, start)
                last = bisect_right(starts, end)
                at, to = start - starts[first - 1], end - starts[last - 1]
            entry["path"] = document.path
            entry["start"] = {"line": first, "column": at}
            entry["end"] = {"line": last, "column": to}
        append(entry)
    return found


def render(checked: Checked, options: Options, result: Rendered, extra: dict[str, Any] | None) -> None:
    payload, plain = report_payload(checked, result.line, options.encoding)
    payload["exit_code"] = result.exit_code
    if options.several:
        payload = {"file": result.file, **payload}
    if extra:
        payload.update(extra)  # (no float in it)
    result.data = jsontext.dumps(payload, indent=not options.lines_out, floats_plain=plain)


class JsonWriter:
    """The objects as they come (JSON Lines out), or once all are in: one object, or with
    several inputs ``{"exit_code": worst, "files": [each object]}``, as ``json.dumps(...,
    indent=2)`` writes it."""

    def __init__(self, options: Options, out: Output) -> None:
        self.options, self.out = options, out
        self.objects: list[bytes] = []

    def add(self, result: Rendered) -> None:
        if self.options.lines_out:
            self.out.data(result.data + b"\n")
        else:
            self.objects.append(result.data)

    def end_of_lines(self, file: str, sessions: list[int]) -> None:
        pass

    def finish(self, worst: int) -> None:
        if self.options.lines_out or not self.objects:
            return
        if not self.options.several:
            self.out.data(self.objects[0] + b"\n")
            return
        each = b",\n    ".join(jsontext.nested(data, 2) for data in self.objects)
        self.out.data(b'{\n  "exit_code": %d,\n  "files": [\n    %s\n  ]\n}\n' % (worst, each))


def words_json(words: tuple[str, ...] | None) -> list[str] | None:
    """A claim's words its sources lack (``core/unsupported.py``), as ``--json`` lists them."""
    return list(words) if words is not None else None

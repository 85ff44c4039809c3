"""The report for people: each finding as ``FILE:LINE:COL`` with its line underlined, then a
summary line; a JSON Lines file ends with its sessions counted."""

from __future__ import annotations

import io
from typing import Any, TextIO

from ..core.analysis import Analysis
from ..core.display import visible
from ..core.positions import Encoding
from ..core.session import Severity, Violation
from ..inputs import Checked
from .base import Options, Output, Rendered


class Style:
    """ANSI colours, or none."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def severity(self, severity: Severity) -> str:
        return self(severity.value, {"error": "1;31", "warning": "1;33", "hint": "1;36"}[severity.value])


SNIPPET_WIDTH = 100


def snippet(analysis: Analysis, finding: Violation, style: Style, first_line: int = 1) -> list[str]:
    """The line of the file under the finding, with the value underlined (``first_line``:
    the file's line the text starts on, for a line of JSON Lines). Only the window shown is
    read from the line: on a one-line session of megabytes, each finding costs the same."""
    if finding.code == "invalid-json" and not analysis.text.strip():
        return []
    span = analysis.finding_span(finding, Encoding.UTF32)
    lines = analysis.lines
    line_start = lines.starts[span.start.line]
    length = lines.line_end(span.start.line) - line_start
    start = span.start.character
    end = span.end.character if span.end.line == span.start.line else length
    end = max(end, start + 1)
    # Keep a window around the value on very long lines (a document's content, say).
    left = max(0, min(start - 20, length - SNIPPET_WIDTH)) if length > SNIPPET_WIDTH else 0
    shown = analysis.text[line_start + left : line_start + min(left + SNIPPET_WIDTH, length)]
    prefix = "…" if left else ""
    suffix = "…" if left + SNIPPET_WIDTH < length else ""
    before = visible(shown[: start - left])
    marked = visible(shown[start - left : end - left]) or " "
    number = str(span.start.line + first_line)
    gutter = " " * len(number)
    return [
        f"  {style(number, '2')} | {prefix}{before}{marked}{visible(shown[end - left :])}{suffix}",
        f"  {gutter} | {' ' * (len(prefix) + len(before))}{style('^' * len(marked), '1;35')}",
    ]


def summary(checked: Checked) -> str:
    analysis = checked.analysis
    assert analysis is not None
    refs = analysis.session.refs
    resolved = sum(1 for ref in refs if ref.valid)
    counts = {severity: 0 for severity in Severity}
    for finding in analysis.findings:
        counts[finding.severity] += 1
    parts = [f"{n} {severity.value}{'s' if n != 1 else ''}" for severity, n in counts.items() if n]
    tail = "; " + ", ".join(parts) if parts else "; no findings"
    return f"{len(refs)} ref{'s' if len(refs) != 1 else ''}: {resolved} resolved, {len(refs) - resolved} failed{tail}"


def report_human(checked: Checked, style: Style, out: TextIO, file: str | None = None, first_line: int = 1) -> None:
    """Findings as ``FILE:LINE:COL`` lines with the line underlined, then the summary. A
    session of JSON Lines is checked as a text of its own named ``FILE:LINE`` (its
    ``checked.name``); ``file`` and ``first_line`` place its findings in the file."""
    if checked.analysis is None:
        return
    analysis = checked.analysis
    file = checked.name if file is None else file
    for finding in analysis.findings:
        span = analysis.finding_span(finding, Encoding.UTF32)
        where = f"{file}:{span.start.line + first_line}:{span.start.character + 1}"
        out.write(
            f"{style(where, '1')}: {style.severity(finding.severity)}[{finding.code}] {visible(finding.message)}\n"
        )
        for line in snippet(analysis, finding, style, first_line):
            out.write(line + "\n")
    verdict = {0: style("ok", "1;32"), 1: style("failed", "1;31"), 2: style("invalid", "1;31")}[analysis.exit_code]
    out.write(f"{style(checked.name, '1')}: {verdict}: {summary(checked)}\n")
    if analysis.summary.verdicts:
        out.write(f"{style(checked.name, '1')}: {visible(analysis.summary.line())}\n")
        failing = checked.failing_verdicts()
        if failing:
            out.write(f"{style(checked.name, '1')}: {style('failed', '1;31')}: {failing} (--fail-on)\n")
            for claim in checked.failing_claims():
                span = analysis.span(*claim.extent, Encoding.UTF32)
                where = f"{file}:{span.start.line + first_line}:{span.start.character + 1}"
                out.write(f"  {style(where, '1')}: {visible(claim.message)}\n")


def sessions_line(file: str, sessions: list[int], style: Style) -> str:
    """The last line for a JSON Lines file: how many sessions were ok, failed, invalid."""
    total = sum(sessions)
    worst = 2 if sessions[2] else 1 if sessions[1] else 0
    verdict = {0: style("ok", "1;32"), 1: style("failed", "1;31"), 2: style("invalid", "1;31")}[worst]
    if not total:
        return f"{style(file, '1')}: {verdict}: no sessions (no line that is not blank)\n"
    counts = f"{sessions[0]} ok, {sessions[1]} failed, {sessions[2]} invalid"
    return f"{style(file, '1')}: {verdict}: {total} session{'s' if total != 1 else ''} (JSON Lines): {counts}\n"


def render(checked: Checked, options: Options, result: Rendered, extra: dict[str, Any] | None) -> None:
    out = io.StringIO()
    report_human(checked, Style(options.colour), out, result.file, result.line or 1)
    result.text = out.getvalue()


class HumanWriter:
    def __init__(self, options: Options, out: Output) -> None:
        self.out, self.style = out, Style(options.colour)

    def add(self, result: Rendered) -> None:
        self.out.text(result.text)

    def end_of_lines(self, file: str, sessions: list[int]) -> None:
        self.out.text(sessions_line(file, sessions, self.style))

    def finish(self, worst: int) -> None:
        pass

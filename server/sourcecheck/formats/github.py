"""GitHub workflow commands: each finding an ``::error``/``::warning``/``::notice`` annotation
on its line of its file (shown on pull requests), each claim ``--fail-on`` names one more,
and a session with claims its verdicts at a glance: a ``::notice`` titled "sourcecheck
verdicts" (``Summary.line()``)."""

from __future__ import annotations

from typing import Any

from ..core.analysis import Analysis
from ..core.display import visible
from ..core.positions import Encoding
from ..core.session import Severity
from ..inputs import Checked
from .base import Options, Output, Rendered

GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.HINT: "notice"}


def _github_data(text: str) -> str:
    """Text for a workflow command: invisible and reordering characters escaped (visible()),
    then what the command syntax takes for its own."""
    return visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_lines(name: str, analysis: Analysis, line: int | None = None) -> list[str]:
    """``::error file=...,line=...::message`` lines, shown as annotations on pull requests
    (``line``: the analysis is of the session on that line of a JSON Lines file)."""
    lines = []
    first = line or 1
    for finding in analysis.findings:
        span = analysis.finding_span(finding, Encoding.UTF16)
        props = (
            f"file={_github_property(name)},line={span.start.line + first},col={span.start.character + 1},"
            f"endLine={span.end.line + first},endColumn={span.end.character + 1},"
            f"title={_github_property('sourcecheck ' + finding.code)}"
        )
        lines.append(f"::{GITHUB_LEVEL[finding.severity]} {props}::{_github_data(finding.message)}")
    return lines


def github_failing(name: str, checked: Checked, line: int | None = None) -> list[str]:
    """``::error file=...,line=...,title=sourcecheck --fail-on refuted::claim "…" is refuted …``:
    one annotation per claim whose verdict ``--fail-on`` names, on the claim's line."""
    if checked.analysis is None:
        return []
    found = []
    for claim in checked.failing_claims():
        span = checked.analysis.span(*claim.extent, Encoding.UTF16)
        at = span.start.line + (line or 1)
        props = (
            f"file={_github_property(name)},line={at},col={span.start.character + 1},"
            f"title={_github_property('sourcecheck --fail-on ' + claim.named)}"
        )
        found.append(f"::error {props}::{_github_data(claim.message)}")
    return found


VERDICTS_TITLE = "sourcecheck verdicts"


def github_summary(name: str, analysis: Analysis, line: int | None = None) -> list[str]:
    """``::notice file=...,title=sourcecheck verdicts::4 claims: 3 supported, ...`` for a
    session with claims (none for one without); on its ``line`` of a JSON Lines file."""
    summary = analysis.summary
    if not summary.verdicts:
        return []
    at = f",line={line}" if line is not None else ""
    props = f"file={_github_property(name)}{at},title={_github_property(VERDICTS_TITLE)}"
    return [f"::notice {props}::{_github_data(summary.line())}"]


def github_unreadable(name: str, reason: str, line: int | None = None) -> str:
    """The error of an input that could not be read (a file, or a ``line`` of one)."""
    if line is None:
        return f"::error file={_github_property(name)},title=sourcecheck::{_github_data(name + ': ' + reason)}"
    where = f"{name}:{line}: "
    return f"::error file={_github_property(name)},line={line},title=sourcecheck::{_github_data(where + reason)}"


def render(checked: Checked, options: Options, result: Rendered, extra: dict[str, Any] | None) -> None:
    name, line = result.file, result.line
    lines = (
        github_lines(name, checked.analysis, line)
        + github_failing(name, checked, line)
        + github_summary(name, checked.analysis, line)
        if checked.analysis
        else [github_unreadable(name, checked.unreadable or "", line)]
    )
    result.text = "".join(each + "\n" for each in lines)


class GithubWriter:
    def __init__(self, options: Options, out: Output) -> None:
        self.out = out

    def add(self, result: Rendered) -> None:
        self.out.text(result.text)

    def end_of_lines(self, file: str, sessions: list[int]) -> None:
        pass

    def finish(self, worst: int) -> None:
        pass

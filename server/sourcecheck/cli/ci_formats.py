"""Findings in the forms CI systems read: GitHub workflow commands and SARIF 2.1.0.

Each session with claims also gets its verdicts at a glance (``Summary.line()``): a
``::notice`` titled "sourcecheck verdicts", and in SARIF a tool execution notification of
the run's one invocation."""

from __future__ import annotations

from typing import Any

from .. import __version__
from ..core.analysis import Analysis
from ..core.display import visible
from ..core.positions import Encoding
from ..core.rules import ALL_CODES, EXIT_CLASS, SEVERITY
from ..core.session import Severity

GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.HINT: "notice"}
SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.HINT: "note"}


def _github_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def github_lines(name: str, analysis: Analysis) -> list[str]:
    """``::error file=...,line=...::message`` lines, shown as annotations on pull requests."""
    lines = []
    for finding in analysis.findings:
        span = analysis.finding_span(finding, Encoding.UTF16)
        props = (
            f"file={_github_property(name)},line={span.start.line + 1},col={span.start.character + 1},"
            f"endLine={span.end.line + 1},endColumn={span.end.character + 1},"
            f"title={_github_property('sourcecheck ' + finding.code)}"
        )
        lines.append(f"::{GITHUB_LEVEL[finding.severity]} {props}::{_github_data(finding.message)}")
    return lines


VERDICTS_TITLE = "sourcecheck verdicts"


def github_summary(name: str, analysis: Analysis) -> list[str]:
    """``::notice file=...,title=sourcecheck verdicts::4 claims: 3 supported, ...`` for a
    session with claims (none for one without)."""
    summary = analysis.summary
    if not summary.verdicts:
        return []
    props = f"file={_github_property(name)},title={_github_property(VERDICTS_TITLE)}"
    return [f"::notice {props}::{_github_data(visible(summary.line()))}"]


def github_unreadable(name: str, reason: str) -> str:
    return f"::error file={_github_property(name)},title=sourcecheck::{_github_data(name + ': ' + reason)}"


def sarif_results(name: str, analysis: Analysis | None, unreadable: str | None = None) -> list[dict[str, Any]]:
    if analysis is None:
        return [
            {
                "ruleId": "unreadable",
                "level": "error",
                "message": {"text": f"{name}: {unreadable}"},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": name}}}],
            }
        ]
    results = []
    for finding in analysis.findings:
        span = analysis.finding_span(finding, Encoding.UTF16)
        results.append(
            {
                "ruleId": finding.code,
                "level": SARIF_LEVEL[finding.severity],
                "message": {"text": finding.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": name},
                            "region": {
                                "startLine": span.start.line + 1,
                                "startColumn": span.start.character + 1,
                                "endLine": span.end.line + 1,
                                "endColumn": span.end.character + 1,
                            },
                        },
                        "logicalLocations": [{"fullyQualifiedName": finding.pointer or "/", "kind": "member"}],
                    }
                ],
            }
        )
    return results


def sarif_notifications(name: str, analysis: Analysis | None) -> list[dict[str, Any]]:
    """The verdicts of a session with claims (document paths shown with their control
    characters escaped, as in messages), as a SARIF notification (none for one
    without): ``{level: "note", message: {text}, locations: [the file]}``."""
    if analysis is None or not analysis.summary.verdicts:
        return []
    return [
        {
            "level": "note",
            "message": {"text": visible(analysis.summary.line())},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": name}}}],
        }
    ]


def sarif_log(results: list[dict[str, Any]], notifications: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run; columns count UTF-16 code units, SARIF's default.
    Its one invocation carries the notifications (the sessions' verdicts): the check ran to
    its end, whatever it found (``executionSuccessful``, which SARIF requires)."""
    rules = [
        {
            "id": code,
            "name": code,
            "shortDescription": {"text": code.replace("-", " ")},
            "defaultConfiguration": {"level": SARIF_LEVEL[SEVERITY[code]]},
            "properties": {"exitCode": EXIT_CLASS.get(code, 0)},
        }
        for code in ALL_CODES
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "sourcecheck", "version": __version__, "rules": rules}},
                "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications or []}],
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }

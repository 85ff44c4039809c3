"""Findings in the forms CI systems read: GitHub workflow commands and SARIF 2.1.0."""

from __future__ import annotations

from typing import Any

from .. import __version__
from ..core.analysis import Analysis
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


def sarif_log(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run; columns count UTF-16 code units, SARIF's default."""
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
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }

"""SARIF 2.1.0: one run whose results are the findings (and the claims ``--fail-on`` names),
each rule saying what its finding means and what to do (from the registry of rules,
``core/registry.py``); each session with claims gets its verdicts at a glance as a tool
execution notification of the run's one invocation.

SARIF names files by URI (:func:`artifact_location`): a relative path as a percent-encoded
relative reference on ``%SRCROOT%`` (the directory sourcecheck ran in), an absolute one as a
``file://`` URI, standard input as ``stdin``. Each rule links its section of docs/rules.md
(``helpUri``) only when ``SOURCECHECK_DOCS_URL`` gives that page's absolute URL: the project
has no public URL of its own to write there."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from ..core import jsontext
from ..core.analysis import Analysis
from ..core.display import visible
from ..core.positions import Encoding
from ..core.registry import BY_CODE
from ..core.session import Severity
from ..inputs import Checked
from ..version import __version__
from .base import Options, Output, Rendered

SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.HINT: "note"}

STDIN_NAME = "<stdin>"
"""What the command line names standard input (``-``)."""
SRCROOT = "%SRCROOT%"
DOCS_URL_VARIABLE = "SOURCECHECK_DOCS_URL"
UNREADABLE = "unreadable"
FAIL_ON_RULE = "fail-on"


def artifact_location(name: str) -> dict[str, Any]:
    """A file's SARIF ``artifactLocation``, its name as a URI (RFC 3986):

    * a relative path: a relative reference on ``%SRCROOT%``, with POSIX separators and
      percent-encoded (``docs/a%20b.json``; ``%``, ``#``, ``?`` and non-ASCII too);
    * an absolute path: a ``file://`` URI (``file:///tmp/a%20b.json``);
    * standard input: ``stdin``, described as "standard input" (GitHub code scanning
      requires a ``uri``; no such file is under the source root, so no ``uriBaseId``).
    """
    if name == STDIN_NAME:
        return {"uri": "stdin", "description": {"text": "standard input"}}
    path = Path(name)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    posix = path.as_posix()
    if posix.startswith("/"):  # Windows: rooted, on the current drive
        return {"uri": path.absolute().as_uri()}
    return {"uri": quote(os.fsencode(posix), safe="/"), "uriBaseId": SRCROOT}


def sarif_results(
    name: str, analysis: Analysis | None, unreadable: str | None = None, line: int | None = None
) -> list[dict[str, Any]]:
    """A SARIF result for each finding (``line``: the analysis is of the session on that
    line of a JSON Lines file, whose regions are placed in the file)."""
    first = line or 1
    if analysis is None:
        shown = name if line is None else f"{name}:{line}"
        return [
            {
                "ruleId": UNREADABLE,
                "level": "error",
                "message": {"text": visible(f"{shown}: {unreadable}")},
                "locations": [
                    {"physicalLocation": {"artifactLocation": artifact_location(name), "region": {"startLine": first}}}
                ],
            }
        ]
    results = []
    where = artifact_location(name)
    for finding in analysis.findings:
        span = analysis.finding_span(finding, Encoding.UTF16)
        results.append(
            {
                "ruleId": finding.code,
                "level": SARIF_LEVEL[finding.severity],
                "message": {"text": visible(finding.message)},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": dict(where),
                            "region": {
                                "startLine": span.start.line + first,
                                "startColumn": span.start.character + 1,
                                "endLine": span.end.line + first,
                                "endColumn": span.end.character + 1,
                            },
                        },
                        "logicalLocations": [{"fullyQualifiedName": finding.pointer or "/", "kind": "member"}],
                    }
                ],
            }
        )
    return results


def sarif_failing(name: str, checked: Checked, line: int | None = None) -> list[dict[str, Any]]:
    """A SARIF result (rule ``fail-on``) per claim whose verdict ``--fail-on`` names, on the
    claim's line, its message naming the claim by its text."""
    if checked.analysis is None:
        return []
    results = []
    for claim in checked.failing_claims():
        span = checked.analysis.span(*claim.extent, Encoding.UTF16)
        region = {"startLine": span.start.line + (line or 1), "startColumn": span.start.character + 1}
        location = {"artifactLocation": artifact_location(name), "region": region}
        results.append(
            {
                "ruleId": FAIL_ON_RULE,
                "level": "error",
                "message": {"text": visible(claim.message)},
                "locations": [
                    {
                        "physicalLocation": location,
                        "logicalLocations": [{"fullyQualifiedName": claim.pointer, "kind": "member"}],
                    }
                ],
                "properties": {"verdict": claim.verdict.verdict, "failOn": claim.named},
            }
        )
    return results


def sarif_notifications(name: str, analysis: Analysis | None, line: int | None = None) -> list[dict[str, Any]]:
    """The verdicts of a session with claims (document paths shown with their control
    characters escaped, as in messages), as a SARIF notification (none for one
    without): ``{level: "note", message: {text}, locations: [the file]}``, the file's
    ``line`` for a session of JSON Lines."""
    if analysis is None or not analysis.summary.verdicts:
        return []
    location: dict[str, Any] = {"artifactLocation": artifact_location(name)}
    if line is not None:
        location["region"] = {"startLine": line}
    return [
        {
            "level": "note",
            "message": {"text": visible(analysis.summary.line())},
            "locations": [{"physicalLocation": location}],
        }
    ]


SEVERITY_WORD = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.HINT: "hint"}

_URI = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+")


def docs_url(value: str | None = None) -> str | None:
    """The absolute http(s) URL of this repository's docs/rules.md, from ``SOURCECHECK_DOCS_URL``
    (its fragment dropped), or None: unset, empty, or not such a URL (then a line on stderr)."""
    value = (os.environ.get(DOCS_URL_VARIABLE) if value is None else value) or ""
    value = value.strip()
    if not value:
        return None
    parts = urlsplit(value) if _URI.fullmatch(value) else None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        sys.stderr.write(
            f"sourcecheck: {DOCS_URL_VARIABLE} is not an absolute http(s) URL ({visible(value)}); "
            "the SARIF rules have no helpUri\n"
        )
        return None
    return urlunsplit(parts._replace(fragment=""))


def _rule_name(code: str) -> str:
    """``boundary-ambiguous`` -> ``BoundaryAmbiguous`` (SARIF wants a name that is not its id)."""
    if code == FAIL_ON_RULE:
        return "FailingVerdict"
    return "UnreadableInput" if code == UNREADABLE else "".join(part.capitalize() for part in code.split("-"))


def sarif_rule(code: str, docs: str | None = None) -> dict[str, Any]:
    """SARIF's ``reportingDescriptor`` of one finding code: what it means and what to do,
    as GitHub code scanning requires (``fullDescription``, ``help``); ``helpUri`` only with
    the URL of docs/rules.md (``docs``)."""
    found = BY_CODE[code]
    title, meaning, fix, section = found.title, found.meaning, found.fix, found.section
    severity, exit_code = found.severity, found.exit_code
    kind = SEVERITY_WORD[severity] + (f", exit code {exit_code}" if exit_code else ", does not fail the check")
    rule: dict[str, Any] = {
        "id": code,
        "name": _rule_name(code),
        "shortDescription": {"text": title + "."},
        "fullDescription": {"text": f"{meaning} {fix}"},
        "help": {
            "text": f"{code} ({kind}): {meaning}\n\nWhat to do: {fix}",
            "markdown": f"**{code}** ({kind})\n\n{meaning}\n\n**What to do:** {fix}",
        },
        "defaultConfiguration": {"level": SARIF_LEVEL[severity]},
        "properties": {"exitCode": exit_code},
    }
    if docs is not None:
        rule["helpUri"] = f"{docs}#{section}"
    return rule


def _source_root() -> dict[str, Any]:
    """``%SRCROOT%``: the directory sourcecheck ran in, which relative paths are relative to."""
    root: dict[str, Any] = {"description": {"text": "the directory sourcecheck ran in"}}
    try:
        uri = Path.cwd().as_uri()
    except (OSError, ValueError):
        return root
    return {"uri": uri if uri.endswith("/") else uri + "/", **root}


def sarif_log(results: list[dict[str, Any]], notifications: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run; columns count UTF-16 code units, SARIF's default.
    Its one invocation carries the notifications (the sessions' verdicts): the check ran to
    its end, whatever it found (``executionSuccessful``, which SARIF requires)."""
    docs = docs_url()
    driver: dict[str, Any] = {"name": "sourcecheck", "version": __version__}
    if docs is not None:
        driver["informationUri"] = docs
    driver["rules"] = [sarif_rule(code, docs) for code in BY_CODE]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": driver},
                "invocations": [{"executionSuccessful": True, "toolExecutionNotifications": notifications or []}],
                "originalUriBaseIds": {SRCROOT: _source_root()},
                "columnKind": "utf16CodeUnits",
                "results": results,
            }
        ],
    }


def render(checked: Checked, options: Options, result: Rendered, extra: dict[str, Any] | None) -> None:
    name, line = result.file, result.line
    result.payload = (
        sarif_results(name, checked.analysis, checked.unreadable, line) + sarif_failing(name, checked, line),
        sarif_notifications(name, checked.analysis, line),
    )


class SarifWriter:
    """One log of every input's results, written once all are in."""

    def __init__(self, options: Options, out: Output) -> None:
        self.out = out
        self.results: list[Any] = []
        self.notifications: list[Any] = []

    def add(self, result: Rendered) -> None:
        self.results.extend(result.payload[0])
        self.notifications.extend(result.payload[1])

    def end_of_lines(self, file: str, sessions: list[int]) -> None:
        pass

    def finish(self, worst: int) -> None:
        self.out.data(jsontext.dumps(sarif_log(self.results, self.notifications)) + b"\n")

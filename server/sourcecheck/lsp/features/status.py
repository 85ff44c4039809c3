"""A session's vital signs for an editor's status bar (``sourcecheck/summary``).

Answers ``{"uri": ...}`` with how many refs the session has, how many resolve and how many
errors and warnings it holds, or null when the document is not a session.
"""

from __future__ import annotations

from typing import Any

from ...core.session import Severity
from ..app import View

SUMMARY = "sourcecheck/summary"


def uri_of(params: Any) -> str | None:
    uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
    return uri if isinstance(uri, str) else None


def summary(view: View, params: Any) -> dict[str, int]:
    analysis = view.analysis
    refs = analysis.session.refs
    resolved = sum(1 for ref in refs if ref.valid)
    return {
        "refs": len(refs),
        "resolved": resolved,
        "failing": len(refs) - resolved,
        "errors": sum(1 for f in analysis.findings if f.severity is Severity.ERROR),
        "warnings": sum(1 for f in analysis.findings if f.severity is Severity.WARNING),
    }

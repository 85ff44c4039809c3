"""A session's vital signs for an editor's status bar (``sourcecheck/summary``).

Answers ``{"uri": ...}`` with how many refs the session has, how many resolve and how many
errors and warnings it holds, or null when the document is not a session.
"""

from __future__ import annotations

from typing import Any

from ..session import Severity
from .server import SourceCheckServer, guarded

SUMMARY = "sourcecheck/summary"


async def summary(ls: SourceCheckServer, uri: str) -> dict[str, int] | None:
    document = await ls.ready_session(uri)
    if document is None:
        return None
    analysis = document.analysis
    refs = analysis.session.refs
    resolved = sum(1 for ref in refs if ref.valid)
    return {
        "refs": len(refs),
        "resolved": resolved,
        "failing": len(refs) - resolved,
        "errors": sum(1 for f in analysis.findings if f.severity is Severity.ERROR),
        "warnings": sum(1 for f in analysis.findings if f.severity is Severity.WARNING),
    }


def register(server: SourceCheckServer) -> None:
    @server.feature(SUMMARY)
    @guarded()
    async def handle(ls: SourceCheckServer, params: Any) -> dict[str, int] | None:
        uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
        return await summary(ls, uri) if isinstance(uri, str) else None

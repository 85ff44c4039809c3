"""Quick fixes in the editor: every repair the core offers for the findings under the cursor
(:mod:`sourcecheck.core.fixes`, the same that ``sourcecheck --fix`` applies and ``--json``
reports), each titled with what it writes and, for a boundary, the text the ref would then
cite; preferred only when it is a finding's one repair and safe. Offered from the diagnostic
and from the cursor on the value. An edit names the document version it was computed for,
so a client drops it if the text has moved on; it replaces only the values it fixes.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ...core.display import visible
from ...core.fixes import Fix, preferred, reach, repairs
from ...core.session import Finding
from ..app import View


def code_action(view: View, fix: Fix, diagnostic: types.Diagnostic, is_preferred: bool) -> types.CodeAction:
    return types.CodeAction(
        title=visible(fix.title),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=is_preferred or None,
        edit=view.workspace_edit([(e.start, e.end, e.text) for e in fix.edits]),
    )


def diagnostic_for(view: View, finding: Finding, sent: Sequence[types.Diagnostic]) -> types.Diagnostic:
    """The client's own diagnostic for a finding when it sent it, else an equal one."""
    rng = view.range(*view.analysis.extent(finding))
    for diagnostic in sent:
        if diagnostic.code == finding.code and diagnostic.range == rng:
            return diagnostic
    return types.Diagnostic(
        range=rng,
        message=visible(finding.message),
        code=finding.code,
        source="sourcecheck",
        severity=types.DiagnosticSeverity.Error,
    )


def code_actions(view: View, params: types.CodeActionParams) -> list[types.CodeAction]:
    if params.context.only and not any(kind.startswith(types.CodeActionKind.QuickFix) for kind in params.context.only):
        return []
    analysis = view.analysis
    start, end = view.offset(params.range.start), view.offset(params.range.end)
    actions: list[types.CodeAction] = []
    for finding in analysis.findings:
        begin, finish = reach(analysis, finding)
        if finish < start or begin > end:
            continue
        fixes = repairs(analysis, finding)
        if fixes:
            diagnostic = diagnostic_for(view, finding, params.context.diagnostics)
            best = preferred(fixes)
            actions.extend(code_action(view, fix, diagnostic, fix is best) for fix in fixes)
    return actions

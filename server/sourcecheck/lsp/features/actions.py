"""Quick fixes in the editor: every repair the core offers for the findings under the cursor
(:mod:`sourcecheck.core.fixes`, the same that ``sourcecheck --fix`` applies and ``--json``
reports), each titled with what it writes and, for a boundary, the text the ref would then
cite; preferred only when it is a finding's one repair and safe. Offered from the diagnostic
and from the cursor on the value; from anywhere else on a diagnostic's line when the cursor
is on no finding (Neovim's ``gra`` at column 0 of a line whose diagnostic starts at column
9), the nearest :data:`ON_THE_LINE` findings of its lines first. An edit names the document
version it was computed for, so a client drops it if the text has moved on; it replaces
only the values it fixes.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from ...core.display import visible
from ...core.fixes import Repair, preferred, reach, repairs
from ...core.session import Violation
from ..app import View

ON_THE_LINE = 10
"""Findings whose repairs a cursor elsewhere on their line is offered (a one-line session
holds them all on its line)."""


def code_action(view: View, fix: Repair, diagnostic: types.Diagnostic, is_preferred: bool) -> types.CodeAction:
    return types.CodeAction(
        title=visible(fix.title),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=is_preferred or None,
        edit=view.workspace_edit([(e.start, e.end, e.text) for e in fix.edits]),
    )


def diagnostic_for(view: View, finding: Violation, sent: Sequence[types.Diagnostic]) -> types.Diagnostic:
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
    for finding in under(view, start, end):
        fixes = repairs(analysis, finding)
        if fixes:
            diagnostic = diagnostic_for(view, finding, params.context.diagnostics)
            best = preferred(fixes)
            actions.extend(code_action(view, fix, diagnostic, fix is best) for fix in fixes)
    return actions


def under(view: View, start: int, end: int) -> list[Violation]:
    """The findings whose repairs a cursor (or a selection) ``[start, end]`` is offered: those
    it touches, else the nearest of those on its lines."""
    analysis = view.analysis
    touched = [finding for finding in analysis.findings if overlaps(reach(analysis, finding), start, end)]
    if touched:
        return touched
    lines = analysis.lines
    first, last = lines.line_of(start), lines.line_of(end)
    around = lines.starts[first], lines.line_end(last)
    near = [finding for finding in analysis.findings if overlaps(analysis.extent(finding), *around)]
    return sorted(near, key=lambda finding: distance(analysis.extent(finding), start, end))[:ON_THE_LINE]


def overlaps(extent: tuple[int, int], start: int, end: int) -> bool:
    return extent[1] >= start and extent[0] <= end


def distance(extent: tuple[int, int], start: int, end: int) -> int:
    return max(extent[0] - end, start - extent[1], 0)

"""The editor's quick fixes, ``--json``'s fixes and ``--fix`` come from one place: the same
repairs, titled alike, with the same edits, preferred only where ``--fix`` applies them."""

from __future__ import annotations

import json

import pytest
from lsprotocol import types

from bench.sessiongen import generate
from sourcecheck.api import check
from sourcecheck.core.fixes import fixed
from sourcecheck.lsp.features import actions
from tests.support.helpers import crafted
from tests.support.views import apply_edits, doc, edits_of, range_of, view_of


def as_lsp(edit: dict) -> tuple:
    r = edit["range"]
    return (r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"], edit["content"])


@pytest.mark.parametrize("seed", [None, *range(8)])
def test_quick_fixes_are_the_fixes_and_suggestions_of_json(seed):
    if seed is None:
        text = json.dumps(crafted(), ensure_ascii=False, indent=2)
    else:
        text = generate(seed, documents=3, lines=10, annotations=15, broken=0.4).text(indent=2)
    report = check(text).to_json()
    view = view_of(text)
    offered_total = 0
    for finding, entry in zip(view.analysis.findings, report["findings"], strict=True):
        rng = range_of(text, *view.analysis.extent(finding))
        diagnostic = types.Diagnostic(range=rng, message=finding.message, code=finding.code, source="sourcecheck")
        params = types.CodeActionParams(doc(), rng, types.CodeActionContext(diagnostics=[diagnostic]))
        offered = [
            a for a in actions.code_actions(view, params) if a.diagnostics and a.diagnostics[0].code == finding.code
        ]
        offered = [a for a in offered if a.diagnostics[0].range == rng]
        repairs = ([entry["fix"]] if "fix" in entry else []) + entry.get("suggestions", [])
        assert [a.title for a in offered] == [r["message"] for r in repairs], finding.code
        for action, repair in zip(offered, repairs, strict=True):
            lsp = sorted(
                (e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character, e.new_text)
                for e in edits_of(action.edit)
            )
            assert lsp == sorted(as_lsp(e) for e in repair["edits"])
            # preferred exactly when it is the finding's one repair and safe: what --fix applies
            assert bool(action.is_preferred) == ("fix" in entry and repair["applicability"] == "safe")
        offered_total += len(offered)
    assert offered_total or seed is not None


def test_fix_applies_exactly_the_preferred_quick_fixes_of_the_first_round():
    text = json.dumps(crafted(), ensure_ascii=False, indent=2)
    view = view_of(text)
    params = types.CodeActionParams(doc(), range_of(text, 0, len(text)), types.CodeActionContext(diagnostics=[]))
    preferred = [a for a in actions.code_actions(view, params) if a.is_preferred]
    edits = [e for a in preferred for e in edits_of(a.edit)]
    first_round = apply_edits(text, edits)
    assert fixed(text).text == fixed(first_round).text  # the loop goes on from there alike

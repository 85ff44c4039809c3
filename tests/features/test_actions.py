"""Quick fixes, as a function of a view: offered where a finding is, and each one works."""

from collections import Counter

from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.lsp.features.actions import code_actions
from tests.support.helpers import crafted
from tests.support.views import (
    URI,
    apply_workspace_edit,
    at,
    doc,
    edits_of,
    fixture,
    per_encoding,
    range_of,
    same_for_every_encoding,
    session_text,
    view_of,
    whole_range,
)

CRAFTED = session_text(crafted())


def ambiguous_session(line: str, start: str, end: str, indent: int | None = 2) -> str:
    return session_text(
        {
            "documents": [{"path": "doc", "content": "first line\n" + line}, {"path": "src", "content": "evidence"}],
            "annotations": [
                {
                    "claim": {"path": "doc", "start": {"line": 2, "str": start}, "end": {"line": 2, "str": end}},
                    "sources": [
                        {
                            "path": "src",
                            "start": {"line": 1, "str": "evidence"},
                            "end": {"line": 1, "str": "evidence"},
                            "polarity": "supports",
                            "confidence": 0.9,
                        }
                    ],
                }
            ],
        },
        indent,
    )


def actions_in(view, rng, diagnostics=(), only=None):
    context = types.CodeActionContext(diagnostics=list(diagnostics), only=only)
    return code_actions(view, types.CodeActionParams(text_document=doc(view.uri), range=rng, context=context))


def all_actions(view):
    return actions_in(view, whole_range(view))


def codes(text):
    return Counter(f.code for f in Analysis(text).findings)


def test_each_fix_applied_to_the_text_removes_its_finding_and_nothing_else_changes():
    actions = all_actions(view_of(CRAFTED))
    assert len(actions) == 13  # every finding of the crafted session has a fix; the ambiguous one and empty sources two
    for action in actions:
        (diagnostic,) = action.diagnostics
        expected = codes(CRAFTED)
        expected[diagnostic.code] -= 1
        assert codes(apply_workspace_edit(CRAFTED, action.edit)) == +expected, action.title


def test_a_fix_after_emoji_and_cjk_on_the_same_line_lands_in_every_encoding():
    text = ambiguous_session('say "hi" to 🚀 and "hi" to 中文', '"hi"', "中文", indent=None)  # one line

    def fixed(encoding):
        actions = all_actions(view_of(text, encoding=encoding))
        assert [a.title for a in actions] == [
            # a quote inside the quoted text is escaped, as in the JSON it writes
            'Extend start to "\\"hi\\" to 🚀": cites "\\"hi\\" to 🚀 and \\"hi\\" to 中文"',
            'Extend start to "\\"hi\\" to 中文": cites "\\"hi\\" to 中文"',
        ]
        return apply_workspace_edit(text, actions[1].edit, encoding)

    results = per_encoding(fixed)
    expected = text.replace('"str": "\\"hi\\""', '"str": "\\"hi\\" to 中文"')
    assert expected != text
    assert results == same_for_every_encoding(expected)
    assert Analysis(expected).findings == []


def test_one_fix_per_occurrence_titled_with_the_span_it_gives():
    view = view_of(fixture("broken/boundary-ambiguous"))
    actions = all_actions(view)
    assert [a.title for a in actions] == [
        'Extend start to "the the": cites "the the end"',
        'Extend start to "the end": cites "the end"',
    ]
    assert all(a.kind == types.CodeActionKind.QuickFix for a in actions)
    assert not any(a.is_preferred for a in actions)  # both spans run forward: only the author knows


def test_the_only_fix_whose_span_runs_forward_is_offered_alone_and_not_preferred():
    """Which occurrence was meant is a guess even when only one gives a span that runs forward:
    a fix that chooses what a ref cites is never preferred (core/fixes.py)."""
    view = view_of(ambiguous_session("an apple, then a pear, then a plum", "then", "pear"))
    assert [(a.title, a.is_preferred) for a in all_actions(view)] == [
        ('Extend start to "then a pear": cites "then a pear"', None)
    ]


def test_a_fix_replaces_only_the_value_it_fixes():
    text = fixture("broken/boundary-ambiguous")
    view = view_of(text)
    (edit,) = edits_of(all_actions(view)[1].edit)
    start = text.index('"the"')
    assert edit.range == range_of(text, start, start + len('"the"'))
    assert edit.new_text == '"the end"'


def test_fixes_are_offered_from_the_cursor_on_the_value_without_a_diagnostic():
    view = view_of(ambiguous_session("an apple, then a pear, then a plum", "then", "pear"))
    position = at(view, '"then"', 2)
    actions = actions_in(view, types.Range(start=position, end=position))
    assert [a.title for a in actions] == ['Extend start to "then a pear": cites "then a pear"']
    away = at(view, '"src"', 2)
    assert actions_in(view, types.Range(start=away, end=away)) == []


def test_fixes_are_offered_from_anywhere_on_the_diagnostics_line():
    view = view_of(ambiguous_session("an apple, then a pear, then a plum", "then", "pear"))
    line_start = view.text.rindex("\n", 0, view.text.index('"then"')) + 1  # column 0, before the key
    for offset in (line_start, view.text.index("\n", line_start)):  # and the line's end
        position = view.position(offset)
        actions = actions_in(view, types.Range(start=position, end=position))
        assert [a.title for a in actions] == ['Extend start to "then a pear": cites "then a pear"'], offset


def test_the_clients_own_diagnostic_is_attached_to_the_fix():
    view = view_of(fixture("broken/unknown-path"))
    finding = view.analysis.findings[0]
    rng = range_of(view.text, *view.analysis.extent(finding))
    sent = types.Diagnostic(
        range=rng, message="as the client holds it", code="unknown-path", source="sourcecheck", data={"mine": 1}
    )
    (action,) = actions_in(view, rng, [sent])
    assert action.diagnostics == [sent]
    assert action.title == 'Change path to "report": cites "outcome of the trial was positive"'


def test_a_request_for_other_kinds_than_quick_fixes_gets_none():
    view = view_of(fixture("broken/unknown-path"))
    assert actions_in(view, whole_range(view), only=[types.CodeActionKind.Refactor]) == []
    assert len(actions_in(view, whole_range(view), only=[types.CodeActionKind.QuickFix])) == 1


def test_edits_name_the_views_version_when_the_client_tells_versions_apart_else_are_changes_by_uri():
    text = fixture("broken/unknown-path")
    (versioned,) = all_actions(view_of(text, document_changes=True, version=7))
    (change,) = versioned.edit.document_changes
    assert (change.text_document.uri, change.text_document.version) == (URI, 7)
    assert versioned.edit.changes is None
    (plain,) = all_actions(view_of(text, document_changes=False, version=7))
    assert plain.edit.document_changes is None
    assert [e.new_text for e in plain.edit.changes[URI]] == [e.new_text for e in change.edits] == ['"report"']


def test_an_annotation_without_sources_can_be_removed_from_anywhere_in_it():
    text = session_text(
        {
            "documents": [{"path": "doc", "content": "The claim here.\nKept."}],
            "annotations": [
                {
                    "claim": {"path": "doc", "start": {"line": 1, "str": "The"}, "end": {"line": 1, "str": "here."}},
                    "sources": [
                        {
                            "path": "doc",
                            "start": {"line": 2, "str": "Kept"},
                            "end": {"line": 2, "str": "Kept"},
                            "polarity": "supports",
                            "confidence": 0.9,
                        }
                    ],
                },
                {
                    "claim": {"path": "doc", "start": {"line": 2, "str": "Kept."}, "end": {"line": 2, "str": "Kept."}},
                    "sources": [],
                },
            ],
        }
    )
    view = view_of(text)
    on_the_claim = at(view, '"Kept."')  # the claim's boundary, far from its `[]`
    titles = [a.title for a in actions_in(view, types.Range(on_the_claim, on_the_claim))]
    assert "Remove this annotation (it has no sources)" in titles
    (removal,) = [a for a in actions_in(view, types.Range(on_the_claim, on_the_claim)) if a.title.startswith("Remove")]
    after = apply_workspace_edit(text, removal.edit)
    assert '"Kept."' not in after and '"The"' in after
    elsewhere = at(view, '"The"')  # in the other annotation: not offered there
    assert not any(
        a.title.startswith("Remove this annotation") for a in actions_in(view, types.Range(elsewhere, elsewhere))
    )


def test_a_string_missing_its_opening_quote_has_a_preferred_quick_fix_from_its_line():
    text = ambiguous_session("an apple, then a pear", "then", "pear").replace('"str": "pear"', '"str": pear"')
    view = view_of(text)
    line_start = text.rindex("\n", 0, text.index('"str": pear"')) + 1  # Neovim's gra at column 0
    position = view.position(line_start)
    (action,) = actions_in(view, types.Range(start=position, end=position))
    assert (action.title, action.is_preferred) == ('Add the opening quote: `"pear"`', True)
    (edit,) = edits_of(action.edit)
    assert edit.new_text == '"pear"'
    assert apply_workspace_edit(text, action.edit) == ambiguous_session("an apple, then a pear", "then", "pear")

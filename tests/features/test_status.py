"""The status summary, as a function of a view: refs, how many resolve, errors and warnings."""

from sourcecheck.lsp.features.status import summary
from tests.support.helpers import crafted
from tests.support.views import URI, fixture, session_text, view_of


def test_a_clean_session_resolves_every_ref():
    assert summary(view_of(fixture("orbit-article")), {"uri": URI}) == {
        "refs": 11,
        "resolved": 11,
        "failing": 0,
        "errors": 0,
        "warnings": 0,
    }


def test_the_summary_counts_refs_that_fail_and_errors():
    assert summary(view_of(fixture("broken/unknown-path")), {"uri": URI}) == {
        "refs": 2,
        "resolved": 1,
        "failing": 1,
        "errors": 1,
        "warnings": 0,
    }


def test_warnings_are_counted_apart_from_errors_and_hints_are_neither():
    unknown = summary(view_of(fixture("broken/unknown-field")), {"uri": URI})
    assert (unknown["errors"], unknown["warnings"]) == (0, 1)
    low = summary(view_of(fixture("broken/low-confidence")), {"uri": URI})
    assert (low["errors"], low["warnings"]) == (0, 0)  # low confidence is a hint


def test_an_error_on_a_ref_that_still_resolves_is_an_error_not_a_failing_ref():
    counts = summary(view_of(session_text(crafted())), {"uri": URI})
    assert counts == {"refs": 9, "resolved": 5, "failing": 4, "errors": 11, "warnings": 0}

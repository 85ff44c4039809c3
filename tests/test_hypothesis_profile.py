"""The test command's Hypothesis profile (tests/conftest.py): a busy machine fails no test,
and a failure is told in a few lines (a blob to reproduce it), not with every draw."""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


def test_an_example_slower_than_hypothesis_default_deadline_is_no_failure():
    @given(st.integers())
    @settings(settings.get_profile("sourcecheck"), max_examples=2)
    def slow(number: int) -> None:
        time.sleep(0.25)  # past the 200 ms Hypothesis allows by default

    slow()


def test_a_failure_is_told_with_a_blob_to_reproduce_it_not_every_draw(capsys):
    @given(st.data())
    @settings(settings.get_profile("sourcecheck"), max_examples=20, database=None)
    def many_draws(data: st.DataObject) -> None:
        drawn = [data.draw(st.text(max_size=3)) for _ in range(40)]
        assert len(drawn) < 40

    with pytest.raises(AssertionError) as failure:
        many_draws()
    captured = capsys.readouterr()
    told = captured.out + captured.err + "\n".join(getattr(failure.value, "__notes__", []))
    assert "@reproduce_failure" in told
    assert "Draw 1" not in told and "Falsifying example" not in told
    assert len(told.splitlines()) < 10

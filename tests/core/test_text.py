"""The piece table behind a document's text: every slice equals the same slice of a str."""

from hypothesis import given
from hypothesis import strategies as st

from sourcecheck.core.text import Text

CHARS = st.sampled_from(list("ab\n中🚀\r"))


@given(st.text(CHARS, max_size=30), st.data())
def test_an_edited_text_slices_like_the_string_it_stands_for(initial, data):
    text, expected = Text(initial), initial
    for _ in range(data.draw(st.integers(1, 80))):
        start = data.draw(st.integers(0, len(expected)))
        end = data.draw(st.integers(start, len(expected)))
        inserted = data.draw(st.text(CHARS, max_size=5))
        text, expected = text.edited(start, end, inserted), expected[:start] + inserted + expected[end:]
        assert len(text) == len(expected)
        a = data.draw(st.integers(-2, len(expected) + 2))
        b = data.draw(st.integers(-2, len(expected) + 2))
        assert text[a:b] == expected[a:b]
        if expected:
            i = data.draw(st.integers(-len(expected), len(expected) - 1))
            assert text[i] == expected[i]
    assert str(text) == expected
    assert text[:] == expected


def test_many_edits_make_the_text_whole_again():
    text = Text("x" * 100)
    for i in range(Text.MAX_PIECES):
        text = text.edited(i, i, "y")
    assert len(text._pieces) <= Text.MAX_PIECES
    assert str(text) == "y" * Text.MAX_PIECES + "x" * 100


def test_typing_a_long_annotation_into_a_large_text_never_makes_it_whole():
    # (making a 12 MB session whole took some 50 ms of one keystroke in 64)
    size = 200_000
    text, expected = Text("x" * size), "x" * size
    at = size // 2
    typed = '{"claim": {"path": "article", "start": {"line": 1, "str": "A"}}}, ' * 20
    for ch in typed:
        text, expected = text.edited(at, at, ch), expected[:at] + ch + expected[at:]
        at += 1
    text, expected = text.edited(at - 3, at, ""), expected[: at - 3] + expected[at:]  # backspaces
    assert len(text._pieces) <= 3 and text._full is None
    assert str(text) == expected

"""What a mistaken value was meant to be: a polarity written otherwise, a confidence written
as a string, a percentage or a word. Read by the check's messages (which say the exact
replacement) and by the fixes (core/fixes.py), so that both say the same."""

from __future__ import annotations

import difflib
import math

POLARITIES = ("supports", "refutes")


def polarity_word(value: object) -> tuple[str, bool] | None:
    """The polarity a near miss meant, and whether that is evident (another case or form of
    the word: ``Supports``, ``support``, ``refuted``) rather than a guess (``suport``)."""
    if not isinstance(value, str):
        return None
    word = value.strip().lower()
    if word in POLARITIES:
        return word, True
    for polarity in POLARITIES:
        if word and (word.startswith(polarity[:-1]) and len(word) <= len(polarity) + 3):
            return polarity, True  # support, supported, supporting; refute, refuted
    close = difflib.get_close_matches(word, POLARITIES, n=1, cutoff=0.6)
    return (close[0], False) if close else None


CONFIDENCE_WORDS = {"high": 0.9, "very high": 0.95, "medium": 0.7, "moderate": 0.7, "low": 0.4, "very low": 0.2}
"""Words for a confidence, read as the spec's bands (0.9-1.0 primary, 0.6-0.8 secondary, 0.3-0.5 anecdotal)."""


def confidence_meant(value: object) -> tuple[float, str | None] | None:
    """The confidence that was meant, and ``None`` when that is evident, else why it is a guess:
    a number written as a string (``"0.9"``) is evident; a percentage (``95``, ``"80%"``), a
    value just outside [0, 1] by rounding (``1.0000001``) or a word (``"high"``) is a guess. A
    value from 1 to 2 (``1.5``) means nothing."""
    if isinstance(value, str):
        written = value.strip()
        if written.lower() in CONFIDENCE_WORDS:
            return CONFIDENCE_WORDS[written.lower()], f"the band of {written.lower()!r} in the spec"
        try:
            number = float(written.rstrip("%"))
        except ValueError:
            return None
        if written.endswith("%"):
            return (round(number / 100, 6), "if it was a percentage") if 0 <= number <= 100 else None
        if math.isfinite(number) and 0 <= number <= 1:
            return number, None
        value = number
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int) and abs(value) > 1000 or isinstance(value, float) and not math.isfinite(value):
        return None  # (an integer past a float's range reads as nothing either)
    if 0 <= value <= 1:
        return value, None
    if -0.01 < value < 0 or 1 < value < 1.01:
        return min(1.0, max(0.0, value)), "rounded into [0, 1]"
    if 2 <= value <= 100:
        return round(value / 100, 6), "if it was a percentage"
    return None


def confidence_text(number: float) -> str:
    return f"{number:g}" if number not in (0, 1) else str(int(number))

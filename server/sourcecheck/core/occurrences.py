"""Where a boundary string occurs on its line, and how many times (overlapping), in time linear
in the line's length whatever the string (a self-overlapping boundary on a long line, built to
cost, is one pass)."""

from __future__ import annotations

MAX_OCCURRENCES = 1000
"""Occurrence columns kept per boundary (the count is always exact)."""


def occurrences(line: str, needle: str) -> tuple[list[int], int]:
    """Columns where ``needle`` starts on ``line``, counted overlapping (the first
    :data:`MAX_OCCURRENCES` listed), and their count, in time linear in the line's length."""
    found: list[int] = []
    at = line.find(needle)
    while at >= 0 and len(found) < MAX_OCCURRENCES:
        found.append(at)
        at = line.find(needle, at + 1)
    if at < 0:
        return found, len(found)
    return found, len(found) + count_from(line, needle, at)


def smallest_period(text: str) -> int:
    """The smallest ``p`` with ``text[i] == text[i + p]`` wherever both exist (KMP's failure function)."""
    fail = [0] * len(text)
    k = 0
    for i in range(1, len(text)):
        while k and text[i] != text[k]:
            k = fail[k - 1]
        if text[i] == text[k]:
            k += 1
        fail[i] = k
    return len(text) - (fail[-1] if text else 0)


def count_from(line: str, needle: str, at: int) -> int:
    """How many times ``needle`` occurs on ``line`` from the occurrence at ``at`` on, overlapping:
    a run of occurrences a period apart (``"aa"`` in ``"aaaa…"``) is counted from how far the
    line keeps that period, found by comparing doubling stretches in C, never one by one, so that
    a self-overlapping boundary on a long line costs one pass (a regular expression's lookahead
    took seconds)."""
    period, size = smallest_period(needle), len(needle)
    if period == size:  # it cannot overlap itself: counting apart is counting overlapping (in C)
        return line.count(needle, at)
    count = 0
    while at >= 0:
        end = _period_ends(line, at + size, period) if period < size else at + size
        run = (end - size - at) // period + 1  # occurrences at, at + p, ... that fit before end
        count += run
        at = line.find(needle, at + (run - 1) * period + 1)
    return count


def _period_ends(line: str, end: int, period: int) -> int:
    """How far ``line[:end]``'s period ``period`` (holding at its end) goes on: stretches twice as
    long each time, then halves at the first that breaks it."""
    step = max(period, 64)
    while end < len(line):
        size = min(step, len(line) - end)
        if line[end : end + size] == line[end - period : end - period + size]:
            end += size
            step *= 2
            continue
        while size > 1:  # the break lies in this stretch: halve it
            half = size // 2
            if line[end : end + half] == line[end - period : end - period + half]:
                end += half
            size -= half
        if line[end : end + 1] == line[end - period : end - period + 1]:
            end += 1
        return end
    return end

"""Where a boundary string occurs on its line, and how many times (overlapping), bounded: a
thousand occurrences at most are looked for (the searches in C), whatever the string and the
line (a self-overlapping boundary on a long line, thousands of boundaries on one line, built to
cost)."""

from __future__ import annotations

MAX_OCCURRENCES = 1000
"""Occurrence columns kept per boundary (the count is always exact)."""


def occurrences(line: str, needle: str) -> tuple[list[int], int]:
    """Columns where ``needle`` starts on ``line``, counted overlapping, the first
    :data:`MAX_OCCURRENCES` of them, and their count: exact up to that many, else
    ``MAX_OCCURRENCES + 1`` ("more than that"). A boundary is resolved only when it occurs
    once; past a thousand, how many more changes no finding and no fix, and counting them
    all cost a pass over the line per boundary (200 boundaries of ``abab`` on a 2 MB line of
    ``ababX`` took minutes)."""
    found: list[int] = []
    at = line.find(needle)
    while at >= 0 and len(found) < MAX_OCCURRENCES:
        found.append(at)
        at = line.find(needle, at + 1)
    return found, len(found) + (at >= 0)


def more_than(count: int) -> bool:
    """Whether an occurrence count from :func:`occurrences` means "more than it lists"."""
    return count > MAX_OCCURRENCES

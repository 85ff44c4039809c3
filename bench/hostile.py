"""Hostile rows of the bench: inputs made to cost (``python -m bench.run --only hostile``).

Each row is timed on a small and a large input, and the ratio of their times beside the ratio
of their sizes: linear work keeps the two alike, quadratic work squares the second.

- a self-overlapping boundary (``"aaa…a"``, 500 and 2,000 characters) on a line of ``a``s
  (100 KB, 400 KB): counting its occurrences;
- boundaries that fail on one long line (a 2 MB line with 10 and 200 refs, a 10 MB one with
  2,000): the check, its messages and near misses included (each boundary is two scans of
  its line at least, as the rules ask: the floor, ~10 ms on 10 MB);
- many broken annotations (20,000 and 60,000): the check of the whole session.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sourcecheck.core.analysis import Analysis

try:
    from sourcecheck.core.occurrences import occurrences
except ImportError:  # before core/occurrences.py (a bench of an older checkout)
    from sourcecheck.core.rules import occurrences  # type: ignore[no-redef,attr-defined]


def best_of(runs: int, work: Any) -> float:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def long_line_session(line_chars: int, refs: int) -> str:
    """A session whose one document is one long line, cited by ``refs`` boundaries that fail."""
    words = ("alpha beta gamma delta epsilon zeta eta theta " * (line_chars // 48 + 1))[:line_chars]
    annotations = [
        {
            "claim": {"path": "d", "start": {"line": 1, "str": f"missing {i} ‘x’"}, "end": {"line": 1, "str": "zeta"}},
            "sources": [
                {
                    "path": "d",
                    "start": {"line": 1, "str": f"nowhere {i}"},
                    "end": {"line": 1, "str": "eta"},
                    "polarity": "supports",
                    "confidence": 0.9,
                }
            ],
        }
        for i in range(refs)
    ]
    return json.dumps({"documents": [{"path": "d", "content": words}], "annotations": annotations})


def broken_session(annotations: int) -> str:
    """A session of many small annotations, each with a finding or two."""
    items = [
        {
            "claim": {"path": "d", "start": {"line": 1, "str": "nope"}, "end": {"line": 1, "str": "x"}},
            "sources": [{"path": "e", "start": {"line": 1, "str": "y"}, "end": {"line": 1, "str": "y"}}],
        }
        for _ in range(annotations)
    ]
    return json.dumps({"documents": [{"path": "d", "content": "x"}], "annotations": items})


def rows() -> list[tuple[str, str, str]]:
    found: list[tuple[str, str, str]] = [("hostile inputs (linear: time ratio near size ratio)", "", "")]

    def pair(what: str, *timed: tuple[str, float, float]) -> None:
        """Rows of one input at growing sizes, each beside the one before it."""
        for index, (name, size, seconds) in enumerate(timed):
            beside = ""
            if index:
                _, before_size, before = timed[index - 1]
                beside = f"{seconds / before:.1f}x the time for {size / before_size:.0f}x the work"
            found.append((f"  {what}, {name}", f"{seconds * 1000:.1f} ms", beside))

    timings = []
    for needle, line in ((500, 100_000), (2_000, 400_000)):
        text, wanted = "a" * line, "a" * needle
        timings.append(
            (
                f"{needle} chars on {line // 1000} KB",
                needle * line,
                best_of(3, lambda text=text, wanted=wanted: occurrences(text, wanted)),
            )
        )
    pair("a self-overlapping boundary counted", *timings)

    timings = []
    for line, refs in ((2_000_000, 10), (2_000_000, 200), (10_000_000, 2_000)):
        text = long_line_session(line, refs)
        timings.append(
            (f"{refs} refs on a {line // 1_000_000} MB line", line * refs, best_of(1, lambda text=text: Analysis(text)))
        )
    pair("failing boundaries on one line, checked", *timings)

    timings = []
    for count in (20_000, 60_000):
        text = broken_session(count)
        timings.append((f"{count} broken annotations", count, best_of(1, lambda text=text: Analysis(text))))
    pair("a session of broken annotations, checked", *timings)
    return found

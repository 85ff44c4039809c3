"""The slowest keystroke of typing a new annotation, taken apart (``python -m bench.run --only
typing``): the ``{`` that makes it an object at the start of the annotations, analysed in the
bench's own process, and how much of it is placing again every annotation after it (since
2026-12-07 spliced in C: an annotation and its refs do not know their index; only the findings
of those after it, which know their paths, are made again).
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Brace:
    """The ``{`` that makes a new annotation at the start an object, analysed in this process
    with the collector off (as the server analyses): the whole keystroke, the part of it that
    places again every annotation after it (``Memo.reuse_around``), and how many annotations
    and refs those are."""

    total: float
    placing: float
    annotations: int
    refs: int


def brace_in_process(text: str) -> Brace:
    """See :class:`Brace`: the best of three, each from a fresh analysis of ``text``."""
    from sourcecheck.core.analysis import Analysis
    from sourcecheck.core.memo import Memo

    at = text.index("[", text.index('"annotations"')) + 1
    enter = "\n    "
    original = Memo.reuse_around
    placing: list[float] = []

    def timed(self: Memo, *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return original(self, *args)
        finally:
            placing.append(time.perf_counter() - started)

    best: Brace | None = None
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(3):
            typed = text[:at] + enter + text[at:]
            previous = Analysis.incremental(typed, Analysis(text), (at, at, enter))
            assert previous is not None, "Enter between annotations is analysed incrementally"
            brace = at + len(enter)
            # Made before the clock starts: a 12 MB string copied is the editor's work (the
            # server keeps its text as pieces, see text.py).
            braced = typed[:brace] + "{" + typed[brace:]
            placing.clear()
            Memo.reuse_around = timed  # type: ignore[method-assign]
            try:
                started = time.perf_counter()
                analysis = Analysis.incremental(braced, previous, (brace, brace, "{"))
                total = time.perf_counter() - started
            finally:
                Memo.reuse_around = original  # type: ignore[method-assign]
            assert analysis is not None and placing, "the { is analysed incrementally, the annotations after it placed"
            session = analysis.session
            found = Brace(total, sum(placing), len(session.annotations) - 1, len(session.refs))
            best = found if best is None or found.total < best.total else best
            del analysis, previous
            gc.collect()
    finally:
        if collecting:
            gc.enable()
    assert best is not None
    return best

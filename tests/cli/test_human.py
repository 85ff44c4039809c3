"""The human output costs what it shows: on a one-line session of megabytes, each finding
reads a window of its line, never the whole line (bench/pipelines.py times it)."""

from __future__ import annotations

import io
import json

from sourcecheck.core import positions
from sourcecheck.formats import human
from sourcecheck.inputs import check_text


def one_line_session(annotations: int, self_citations: int) -> str:
    """A session on one line, its document's content about 1 MB, with ``self_citations``
    warnings spread along it."""
    lines = [f"Line {n} of the text says something of its own, number {n}." for n in range(annotations)]
    content = "\n".join(lines) + "\n" + "x" * 1_000_000
    seen = {"path": "b", "start": {"line": 1, "str": "Seen"}, "end": {"line": 1, "str": "."}}
    claims = []
    for n in range(annotations):
        claim = {"path": "a", "start": {"line": n + 1, "str": "Line"}, "end": {"line": n + 1, "str": f"{n}."}}
        source = dict(claim if n < self_citations else seen, polarity="supports", confidence=0.9)
        claims.append({"claim": claim, "sources": [source]})
    documents = [{"path": "a", "content": content}, {"path": "b", "content": "Seen."}]
    session = {"documents": documents, "annotations": claims}
    return json.dumps(session)


def test_each_finding_of_a_long_line_reads_a_window_of_it(monkeypatch):
    text = one_line_session(200, 150)
    checked = check_text("s.json", text)
    assert checked.analysis is not None and len(text) > 1_000_000
    assert [f.code for f in checked.analysis.findings].count("self-citation") == 150
    read: list[int] = []
    counted = positions.units
    line_text = positions.LineTable.line_text

    def units(piece: str, encoding: positions.Encoding) -> int:
        read.append(len(piece))
        return counted(piece, encoding)

    def whole_line(self: positions.LineTable, line: int) -> str:
        found = line_text(self, line)
        read.append(len(found))
        return found

    monkeypatch.setattr(positions, "units", units)
    monkeypatch.setattr(positions.LineTable, "line_text", whole_line)
    out = io.StringIO()
    human.report_human(checked, human.Style(False), out)
    shown = out.getvalue()
    assert shown.count("warning[self-citation]") == 150 and shown.count("\n  1 | …") == 150
    assert max(read, default=0) < 10_000  # (it was the whole line, 1 MB, for each finding)

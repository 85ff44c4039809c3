"""Small builders shared by the tests."""

from __future__ import annotations

import json
from typing import Any

from sourcecheck.core.analysis import Analysis


def source(
    path="report", start=(2, "outcome"), end=(2, "positive"), polarity="supports", confidence=0.9, **extra
) -> dict[str, Any]:
    value = {"path": path, "start": {"line": start[0], "str": start[1]}, "end": {"line": end[0], "str": end[1]}}
    if polarity is not None:
        value["polarity"] = polarity
    if confidence is not None:
        value["confidence"] = confidence
    value.update(extra)
    return value


def claim(path="article", start=(1, "outcome"), end=(1, "positive")) -> dict[str, Any]:
    return {"path": path, "start": {"line": start[0], "str": start[1]}, "end": {"line": end[0], "str": end[1]}}


ARTICLE = "The report says the outcome was positive.\nThe the the end.\nSecond line."
REPORT = "Summary\nThe outcome of the trial was positive.\nConfidence is high."


def session(annotations=None, documents=None) -> dict[str, Any]:
    if documents is None:
        documents = [{"path": "article", "content": ARTICLE}, {"path": "report", "content": REPORT}]
    if annotations is None:
        annotations = [{"claim": claim(), "sources": [source()]}]
    return {"documents": documents, "annotations": annotations}


def analyze(value: Any, indent: int | None = 2) -> Analysis:
    return Analysis(json.dumps(value, ensure_ascii=False, indent=indent))


def codes(analysis: Analysis) -> list[tuple[str, str]]:
    return [(f.code, f.pointer) for f in analysis.findings]


def crafted() -> dict[str, Any]:
    """A session with one finding of every kind that has a quick fix."""
    docs = [
        {"path": "article", "content": "The report says the outcome was positive.\nThe the the end.\nSecond line."},
        {"path": "report", "content": "Summary\nThe outcome of the trial was positive.\nConfidence is high."},
        {"path": "crlf", "content": "one\r\ntwo\rthree four\r\nfive"},
    ]
    return session(
        [
            {
                "claim": claim("article", (2, "the"), (2, "end")),
                "sources": [source(polarity="Supports", confidence=95)],
            },
            {"claim": claim("article", (1, "Second"), (3, "line.")), "sources": [source("reprot", confidence="0.9")]},
            {
                "claim": claim("crlf", (2, "four"), (3, "five")),
                "sources": [source(polarity="refute", confidence=1.000001)],
            },
            {"claim": claim(), "sources": []},
            {
                "claim": claim("article", (1, "outcome"), (1, "positive")),
                "sources": [source(start=(1, "Confidence"), end=(3, "high"))],
            },
        ],
        docs,
    )

"""A session as a reviewer meets it: annotations written out of reading order (the last line's
claim first), one claim of every verdict, strong and weak support and refutation, and a
source document that is code."""

from __future__ import annotations

import json
from typing import Any

ARTICLE = [
    "Alpha cuts latency by half.",  # supported, 0.95
    "Beta is stable under load.",  # supported, only 0.2: weak
    "Gamma never drops a frame.",  # refuted, 0.8
    "Delta doubles throughput.",  # contested
    "Epsilon ships next week.",  # unverified: its only source has no valid polarity
    "Zeta was removed.",  # unresolved: its end boundary is not on its line
    "Eta is written in Rust.",  # refuted, only 0.1: weak
    "Theta runs everywhere.",  # supported, 0.9
]
VERDICTS = ["supported", "supported", "refuted", "contested", "unverified", "unresolved", "refuted", "supported"]
WEAK = [False, True, False, False, False, False, True, False]
CODE = (
    "def handle(request):\n"
    "    if request.cached:\n"
    "        return CACHE[request.key]  # latency halves\n"
    "    return compute(request)\n"
    "# stable: no crash in 10 000 runs\n"
    "# frames: dropped 3 per minute under load"
)
NOTES = "\n".join(
    [
        "Throughput doubled in the lab.",
        "Throughput fell in production.",
        "Eta is written in Go.",
        "Theta runs on Linux and Windows.",
    ]
)


def ref(path: str, line: int, start: str, end: str) -> dict[str, Any]:
    return {"path": path, "start": {"line": line, "str": start}, "end": {"line": line, "str": end}}


def src(path: str, line: int, start: str, end: str, polarity: Any, confidence: float) -> dict[str, Any]:
    return {**ref(path, line, start, end), "polarity": polarity, "confidence": confidence}


def annotations_in_reading_order() -> list[dict[str, Any]]:
    code = "src/latency.py"
    return [
        {"claim": ref("article", 1, "Alpha", "half."), "sources": [src(code, 3, "return", "halves", "supports", 0.95)]},
        {"claim": ref("article", 2, "Beta", "load."), "sources": [src(code, 5, "stable", "runs", "supports", 0.2)]},
        {"claim": ref("article", 3, "Gamma", "frame."), "sources": [src(code, 6, "frames", "load", "refutes", 0.8)]},
        {
            "claim": ref("article", 4, "Delta", "throughput."),
            "sources": [
                src("notes", 1, "Throughput", "lab.", "supports", 0.7),
                src("notes", 2, "Throughput", "production.", "refutes", 0.6),
            ],
        },
        {"claim": ref("article", 5, "Epsilon", "week."), "sources": [src("notes", 1, "doubled", "lab", "maybe", 0.5)]},
        {"claim": ref("article", 6, "Zeta", "Omega"), "sources": [src("notes", 3, "Eta", "Go.", "supports", 0.9)]},
        {"claim": ref("article", 7, "Eta", "Rust."), "sources": [src("notes", 3, "Eta", "Go.", "refutes", 0.1)]},
        {
            "claim": ref("article", 8, "Theta", "everywhere."),
            "sources": [src("notes", 4, "Theta", "Windows.", "supports", 0.9)],
        },
    ]


def reading_session() -> dict[str, Any]:
    return {
        "documents": [
            {"path": "article", "content": "\n".join(ARTICLE)},
            {"path": "src/latency.py", "content": CODE},
            {"path": "notes", "content": NOTES},
        ],
        "annotations": list(reversed(annotations_in_reading_order())),
    }


def reading_text() -> str:
    return json.dumps(reading_session(), ensure_ascii=False, indent=2)

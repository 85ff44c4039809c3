"""Sessions whose text tries to break out of the report: markup, script, links, bidi.

Every payload that would run sets ``window.__pwned``; a report that is safe leaves it
undefined whatever is clicked, opened or printed.
"""

from __future__ import annotations

import json
from typing import Any

RLO = "\u202e"  # right-to-left override: would make "txt.exe" read "exe.txt"
PAYLOADS = [
    "<script>window.__pwned='script'</script>",
    "</textarea><img src=x onerror=\"window.__pwned='textarea'\">",
    "</script><script>window.__pwned='close-script'</script>",
    "<a href=\"javascript:window.__pwned='link'\">click me</a> javascript:void(0)",
    "<img src=x onerror=window.__pwned='img'>",
    "<svg onload=window.__pwned='svg'></svg><!-- --> ]]> &lt;b&gt;",
    f"bidi {RLO}txt.exe\u2066isolate\u2069 zero\u200bwidth sep\u2028arator del\x7f nul\x00 bel\x07 cr\r",
    "emoji 🚀 and 𝒳 astral, then \"quotes\" & 'apostrophes'",
]
ARTICLE_PATH = f"article{RLO}<script>window.__pwned='path'</script>"
SOURCE_PATH = "<img src=x onerror=window.__pwned='source-path'>javascript:x"
NAME = f"evil{RLO}<script>window.__pwned='name'</script>.sourcecheck.json"


def ref(path: str, line: int, start: str, end: str | None = None, end_line: int | None = None) -> dict[str, Any]:
    return {"path": path, "start": {"line": line, "str": start}, "end": {"line": end_line or line, "str": end or start}}


def source(path: str, line: int, start: str, end: str | None = None, polarity: Any = "supports", confidence: Any = 0.9):
    return {**ref(path, line, start, end), "polarity": polarity, "confidence": confidence}


def hostile_session() -> dict[str, Any]:
    article = "\n".join(PAYLOADS)
    sources = "\n".join(reversed(PAYLOADS))
    n = len(PAYLOADS)
    annotations = [
        {  # supported: a <script> cited from a source that holds one too
            "claim": ref(ARTICLE_PATH, 1, "<script>", "</script>"),
            "sources": [source(SOURCE_PATH, n, "<script>", "</script>")],
        },
        {  # contested, over two lines
            "claim": ref(ARTICLE_PATH, 2, "</textarea>", "<script>", 3),
            "sources": [
                source(SOURCE_PATH, n - 2, "</script><script>", "'close-script'"),
                source(SOURCE_PATH, n - 3, "<a href", "</a>", polarity="refutes", confidence=0.6),
            ],
        },
        {  # refuted
            "claim": ref(ARTICLE_PATH, 4, "javascript:window", "click me</a>"),
            "sources": [source(SOURCE_PATH, n - 1, "<img", "'textarea'\">", polarity="refutes")],
        },
        {  # unverified: its only source has a polarity that is markup
            "claim": ref(ARTICLE_PATH, 7, "bidi", "isolate"),
            "sources": [source(SOURCE_PATH, n - 5, "<svg", "</svg>", polarity="<script>window.__pwned='pol'</script>")],
        },
        {  # unresolved: the boundary (quoted in the message) is not on its line
            "claim": ref(ARTICLE_PATH, 5, "</textarea><img src=x onerror=window.__pwned='msg'>"),
            "sources": [source("</script><script>window.__pwned='unknown'</script>", 1, "<b>")],
        },
        {  # weakly supported, the span holding bidi characters
            "claim": ref(ARTICLE_PATH, 7, f"{RLO}txt", "width"),
            "sources": [source(SOURCE_PATH, 2, f"{RLO}txt", "arator", confidence=0.2)],
        },
        {  # astral characters before the span: UTF-16 offsets
            "claim": ref(ARTICLE_PATH, 8, "astral", "quotes"),
            "sources": [source(SOURCE_PATH, 1, "🚀", "𝒳")],
        },
    ]
    documents = [
        {"path": ARTICLE_PATH, "content": article},
        {"path": SOURCE_PATH, "content": sources},
        {"path": "javascript:alert(1)", "content": "<iframe src=javascript:window.__pwned='iframe'></iframe>"},
    ]
    return {"documents": documents, "annotations": annotations}


def hostile_text() -> str:
    return json.dumps(hostile_session(), ensure_ascii=False, indent=2)

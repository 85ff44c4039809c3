"""How the writing commands name things for a person: untrusted text shown safely, counts."""

from __future__ import annotations

import json
from typing import Any

from ..core.display import json_visible, shorten, visible
from ..core.jsonlex import escape_lone_surrogates


def quoted(text: str, width: int = 60) -> str:
    """Untrusted text in backticks, on one line, shown safely and cut when long."""
    return "`" + visible(shorten(text, width)) + "`"


def in_quotes(text: str, width: int = 60) -> str:
    """Untrusted text as a JSON string, on one line, shown safely and cut when long."""
    return visible(json.dumps(shorten(text, width), ensure_ascii=False))


def lines_list(lines: list[int]) -> str:
    counts: dict[int, int] = {}
    for line in lines:
        counts[line] = counts.get(line, 0) + 1
    parts = [f"{line} ({n} times)" if n > 1 else str(line) for line, n in counts.items()]
    return ("line " if len(parts) == 1 else "lines ") + ", ".join(parts)


def dump_json(value: Any) -> str:
    """``value`` as indented JSON, safe to show (hidden characters escaped, lone surrogates kept)."""
    return json_visible(escape_lone_surrogates(json.dumps(value, ensure_ascii=False, indent=2)))

"""The review report for an editor's webview (``sourcecheck/review``).

Answers ``{"uri": <session uri>}`` with ``{"html": ...}``: the page ``sourcecheck report``
writes, made for a webview (each claim carries ``data-line``, the line of the session file
where its annotation starts, and a click on it posts ``{"type": "reveal", "line": ...}``).
"""

from __future__ import annotations

import posixpath
from typing import Any
from urllib.parse import unquote, urlsplit

from ...review import render
from ..app import View

REVIEW = "sourcecheck/review"


def file_name(uri: str) -> str:
    """The last segment of a URI's path, as the report names the session."""
    return posixpath.basename(unquote(urlsplit(uri).path)) or uri


def review(view: View, params: Any) -> dict[str, str]:
    return {"html": render(view.analysis, file_name(view.uri), editor=True)}

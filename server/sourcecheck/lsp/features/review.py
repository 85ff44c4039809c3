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
    """The page of this version, made once per version (the panel asks again as the writer
    pauses; a big session's page takes seconds): the server makes it off its event loop."""
    made = view.memo.review
    if made is not None and made[0] == view.analysis.serial:
        page: dict[str, str] = made[1]
        return page
    page = {"html": render(view.analysis, file_name(view.uri), editor=True)}
    view.memo.review = (view.analysis.serial, page)
    return page

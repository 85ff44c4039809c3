"""The report's script and style sheet: real files in ``static/``, read when first needed.

``static/report.js`` draws the documents and the sources panel, ``static/report.css`` is the
style sheet. They ship in the wheel as package data and are read with ``importlib.resources``
(from a wheel, a zip or a checkout alike), once per process. A report is one self-contained
file, so both go inline into the page, which its Content-Security-Policy allows by their
SHA-256 hashes: those are computed here, from the very text that is put in the page.

The script type-checks with the VS Code extension's TypeScript (``// @ts-check``; in
``vscode-extension``: ``npm run typecheck:report``). What it shares with the Python side (the
characters shown as escapes, the verdict letters, the segment flags) is not written in it:
it reads them from the page's data (:func:`.model.script_data`).
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

PACKAGE = __name__.rpartition(".")[0]
_CLOSES = {"js": re.compile(r"</script|<!--", re.IGNORECASE), "css": re.compile(r"</style", re.IGNORECASE)}


@dataclass(frozen=True, slots=True)
class Asset:
    name: str
    text: str

    @property
    def source(self) -> str:
        """The CSP source expression that allows exactly this text inline: ``'sha256-…'``."""
        digest = hashlib.sha256(self.text.encode("utf-8")).digest()
        return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def read(name: str) -> Asset:
    """``static/<name>``, refused if its text could end the element it is put in."""
    return checked(name, resources.files(PACKAGE).joinpath("static", name).read_text(encoding="utf-8"))


def checked(name: str, text: str) -> Asset:
    """The asset, unless its text could end its element (``</script``, ``</style``) or open
    an HTML comment, which changes how a script element ends."""
    found = _CLOSES[name.rsplit(".", 1)[-1]].search(text)
    if found:
        raise ValueError(f"static/{name} holds {found.group()!r}: it would end its element in the page")
    return Asset(name, text)


@cache
def script() -> Asset:
    return read("report.js")


@cache
def style() -> Asset:
    return read("report.css")


@cache
def csp() -> str:
    """The page's policy: its one style sheet and its one script, by hash, and nothing else."""
    return (
        f"default-src 'none'; script-src {script().source}; style-src {style().source}; "
        "base-uri 'none'; form-action 'none'"
    )

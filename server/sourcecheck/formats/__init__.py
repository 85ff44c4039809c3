"""The output formats: one table, one module per format.

:data:`FORMATS` is every report the check writes (``--format NAME``; ``--json`` is
``json``): the command asks the table for a format's rendering and writing, and never
compares a format's name. A new report format is one module here (a ``render`` that fills in
one input's :class:`~.base.Rendered`, where it was checked, and a ``Writer`` that writes the
reports as they come and ends them) and one row below.

:data:`INTERCHANGE` is the other half of the table: the formats citations are imported from
and exported to (``sourcecheck import``, ``sourcecheck export``), each one module of
``interchange/`` (a reader of the wire, a writer where it has one), listed in
``interchange.FORMATS``.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..interchange import FORMATS as INTERCHANGE
from . import github, human, json, sarif
from .base import Format, Options, Output, Rendered, Writer

FORMATS: Mapping[str, Format] = {
    "human": Format(
        "human", "findings as FILE:LINE:COL, the line underlined, then a summary", False, human.render, human.Writer
    ),
    "json": Format(
        "json", "one JSON object (docs/rules.md); JSON Lines in, JSON Lines out", True, json.render, json.Writer, True
    ),
    "github": Format(
        "github", "GitHub workflow commands: annotations on pull requests", False, github.render, github.Writer
    ),
    "sarif": Format("sarif", "SARIF 2.1.0, for code scanning", True, sarif.render, sarif.Writer),
}
"""Every report format, by the name ``--format`` and ``output-format`` take."""

NAMES = tuple(FORMATS)

__all__ = ["FORMATS", "INTERCHANGE", "NAMES", "Format", "Options", "Output", "Rendered", "Writer"]

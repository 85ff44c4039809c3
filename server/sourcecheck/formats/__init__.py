"""The output formats: one table, one module per format.

:data:`FORMATS` is every report the check writes (``--format NAME``; ``--json`` is
``json``): the command asks the table for a format's rendering and writing, and never
compares a format's name. A new report format is one module here (a ``render`` that fills in
one input's :class:`~.base.Rendered`, where it was checked, and a ``Writer`` that writes the
reports as they come and ends them) and one row below.

:data:`INTERCHANGE` is the other half of the table: the formats citations are imported from
and exported to (``sourcecheck import``, ``sourcecheck export``), each one module of
``interchange/`` (a reader of the wire, a writer where it has one), listed in
``interchange.FORMATS`` (imported when first asked for: a check writes none of them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import github, human, json, sarif
from .base import Options, Output, Rendered, ReportFormat, ReportWriter

FORMATS: Mapping[str, ReportFormat] = {
    "human": ReportFormat(
        "human",
        "findings as FILE:LINE:COL, each line underlined, a summary",
        False,
        human.render,
        human.HumanWriter,
    ),
    "json": ReportFormat(
        "json",
        "one JSON object (docs/rules.md); JSON Lines for JSON Lines",
        True,
        json.render,
        json.JsonWriter,
        True,
    ),
    "github": ReportFormat(
        "github", "GitHub workflow commands: annotations on pull requests", False, github.render, github.GithubWriter
    ),
    "sarif": ReportFormat("sarif", "SARIF 2.1.0, for code scanning", True, sarif.render, sarif.SarifWriter),
}
"""Every report format, by the name ``--format`` and ``output-format`` take."""

NAMES = tuple(FORMATS)

if TYPE_CHECKING:
    from ..interchange import FORMATS as INTERCHANGE


def __getattr__(name: str) -> Any:
    """:data:`INTERCHANGE`, imported when first asked for (PEP 562)."""
    if name == "INTERCHANGE":
        from ..interchange import FORMATS

        return FORMATS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["FORMATS", "INTERCHANGE", "NAMES", "Options", "Output", "Rendered", "ReportFormat", "ReportWriter"]

"""sourcecheck: check SourceCheck citation sessions, from the command line, an editor or Python.

    >>> import sourcecheck
    >>> report = sourcecheck.check('{"documents": [], "annotations": []}')
    >>> report.exit_code, report.findings
    (0, ())

:func:`check` checks one session (JSON text, bytes, a path or a parsed dict),
:func:`check_lines` each session of JSON Lines, and :func:`fix` applies a session's fixes
(the fixed text, the fixes applied, the findings left); the report's parts are the typed objects
below, and ``Report.to_json()`` is what ``sourcecheck --json`` prints (see ``api.py``).
:func:`import_citations` makes a session of a model's cited answer (or of Web Annotations)
and :func:`export_w3c` writes one as Web Annotations.
"""

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:
    from .api import (
        FAIL_ON,
        Applicability,
        AppliedFix,
        Coverage,
        Edit,
        Finding,
        Fix,
        FixResult,
        Imported,
        ImportReport,
        LineRange,
        Point,
        Position,
        Range,
        Ref,
        Report,
        Run,
        Severity,
        Verdict,
        VerdictName,
        check,
        check_lines,
        export_w3c,
        fix,
        import_citations,
        line_ranges,
        text_of,
    )

__all__ = [
    "FAIL_ON",
    "AppliedFix",
    "Applicability",
    "Coverage",
    "Edit",
    "Finding",
    "Fix",
    "FixResult",
    "ImportReport",
    "Imported",
    "LineRange",
    "Point",
    "Position",
    "Range",
    "Ref",
    "Report",
    "Run",
    "Severity",
    "Verdict",
    "VerdictName",
    "__version__",
    "check",
    "check_lines",
    "export_w3c",
    "fix",
    "import_citations",
    "line_ranges",
    "text_of",
]


def __getattr__(name: str) -> Any:
    """The API's names, imported when first asked for (PEP 562): ``sourcecheck --json`` and
    the language server import the parts they use, not the whole API with its formats. A
    subpackage or module (``sourcecheck.api``) is imported when first asked for too, as
    importing the whole API once made them all attributes of the package."""
    if name in __all__ and name != "__version__":
        from . import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    if not name.startswith("__"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise  # the module is there, and something it imports is not
    raise AttributeError(f"module 'sourcecheck' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The API's names, the package's own dunders and its modules imported so far: not the
    names this file imports for itself (``importlib``, ``ModuleType``, ``TYPE_CHECKING``,
    ``Any``)."""
    own = (
        name
        for name, value in globals().items()
        if name.startswith("__") or (isinstance(value, ModuleType) and value.__name__.startswith(f"{__name__}."))
    )
    return sorted({*own, *__all__})

"""sourcecheck: check SourceCheck citation sessions, from the command line, an editor or Python.

    >>> import sourcecheck
    >>> report = sourcecheck.check('{"documents": [], "annotations": []}')
    >>> report.exit_code, report.findings
    (0, ())

:func:`check` checks one session (JSON text, bytes, a path or a parsed dict) and
:func:`check_lines` each session of JSON Lines; the report's parts are the typed objects
below, and ``Report.to_json()`` is what ``sourcecheck --json`` prints (see ``api.py``).
:func:`import_citations` makes a session of a model's cited answer (or of Web Annotations)
and :func:`export_w3c` writes one as Web Annotations.
"""

from .api import (
    FAIL_ON,
    Applicability,
    Coverage,
    Edit,
    Finding,
    Fix,
    Imported,
    ImportReport,
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
    import_citations,
    text_of,
)
from .version import __version__

__all__ = [
    "FAIL_ON",
    "Applicability",
    "Coverage",
    "Edit",
    "Finding",
    "Fix",
    "ImportReport",
    "Imported",
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
    "import_citations",
    "text_of",
]

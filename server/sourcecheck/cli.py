"""The ``sourcecheck`` command: check session files and report, for people or programs.

    sourcecheck FILE...            findings as FILE:LINE:COL lines, then a summary
    sourcecheck --json FILE        one JSON object (RULES.md), exit code inside
    cat FILE | sourcecheck         standard input (also ``-``)

Exit 0 when every ref resolves and nothing is an error, 1 when a ref fails, 2 for a
schema error or unreadable input; with several files, the worst of them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from . import __version__
from .analysis import Analysis
from .display import visible
from .positions import Encoding
from .session import Finding, Severity, pointer

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Checked:
    """One input: its name and either its analysis or why it could not be read."""

    name: str
    analysis: Analysis | None = None
    unreadable: str | None = None
    warning: str | None = None  # readable, but not as JSON should be written (BOM, empty)

    @property
    def exit_code(self) -> int:
        return 2 if self.analysis is None else self.analysis.exit_code


def read_input(name: str, stdin: Any = None) -> Checked:
    """Read and check one file (``-`` is standard input); never raises for bad input."""
    shown = "<stdin>" if name == "-" else name
    try:
        if name == "-":
            data = (stdin or sys.stdin.buffer).read()
        else:
            with open(name, "rb") as handle:
                data = handle.read()
    except FileNotFoundError:
        return Checked(shown, unreadable="no such file")
    except IsADirectoryError:
        return Checked(shown, unreadable="is a directory, not a session file")
    except PermissionError:
        return Checked(shown, unreadable="permission denied")
    except OSError as error:
        return Checked(shown, unreadable=error.strerror or str(error))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return Checked(shown, unreadable=f"is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}); save it as UTF-8")
    warning = None
    if text.startswith("\ufeff"):
        warning = "starts with a byte order mark (BOM), which JSON does not allow; save it as UTF-8 without BOM"
    elif not text.strip(" \t\r\n"):
        warning = "is empty; a session is a JSON object with documents and annotations"
    return Checked(shown, Analysis(text), warning=warning)


# --- JSON -------------------------------------------------------------------------


def finding_json(analysis: Analysis, finding: Finding) -> dict[str, Any]:
    span = analysis.finding_span(finding, Encoding.UTF16)
    return {
        "code": finding.code,
        "severity": finding.severity.value,
        "message": finding.message,
        "pointer": finding.pointer,
        "range": {
            "start": {"line": span.start.line, "character": span.start.character},
            "end": {"line": span.end.line, "character": span.end.character},
        },
    }


def report_json(checked: Checked) -> dict[str, Any]:
    """The object RULES.md fixes for ``--json``."""
    if checked.analysis is None:
        return {"exit_code": 2, "error": f"{checked.name}: {checked.unreadable}", "findings": [], "refs": []}
    analysis = checked.analysis
    return {
        "exit_code": analysis.exit_code,
        "findings": [finding_json(analysis, f) for f in analysis.findings],
        "refs": [{"pointer": pointer(ref.json_path), "valid": ref.valid, "text": ref.text} for ref in analysis.session.refs],
    }


def dump_json(value: Any) -> str:
    """JSON text with readable non-ASCII, and lone surrogates escaped (UTF-8 cannot hold them)."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# --- human ------------------------------------------------------------------------


class Style:
    """ANSI colours, or none."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.enabled else text

    def severity(self, severity: Severity) -> str:
        return self(severity.value, {"error": "1;31", "warning": "1;33", "hint": "1;36"}[severity.value])


SNIPPET_WIDTH = 100


def snippet(analysis: Analysis, finding: Finding, style: Style) -> list[str]:
    """The line of the file under the finding, with the value underlined."""
    if finding.code == "invalid-json" and not analysis.text.strip():
        return []
    span = analysis.finding_span(finding, Encoding.UTF32)
    line_text = analysis.lines.line_text(span.start.line)
    start = span.start.character
    end = span.end.character if span.end.line == span.start.line else len(line_text)
    end = max(end, start + 1)
    # Keep a window around the value on very long lines (a document's content, say).
    left = max(0, min(start - 20, len(line_text) - SNIPPET_WIDTH)) if len(line_text) > SNIPPET_WIDTH else 0
    shown = line_text[left : left + SNIPPET_WIDTH]
    prefix = "…" if left else ""
    suffix = "…" if left + SNIPPET_WIDTH < len(line_text) else ""
    before = visible(shown[: start - left])
    marked = visible(shown[start - left : end - left]) or " "
    number = str(span.start.line + 1)
    gutter = " " * len(number)
    return [
        f"  {style(number, '2')} | {prefix}{before}{marked}{visible(shown[end - left:])}{suffix}",
        f"  {gutter} | {' ' * (len(prefix) + len(before))}{style('^' * len(marked), '1;35')}",
    ]


def summary(checked: Checked) -> str:
    analysis = checked.analysis
    assert analysis is not None
    refs = analysis.session.refs
    resolved = sum(1 for ref in refs if ref.valid)
    counts = {severity: 0 for severity in Severity}
    for finding in analysis.findings:
        counts[finding.severity] += 1
    parts = [f"{n} {severity.value}{'s' if n != 1 else ''}" for severity, n in counts.items() if n]
    tail = "; " + ", ".join(parts) if parts else "; no findings"
    return f"{len(refs)} ref{'s' if len(refs) != 1 else ''}: {resolved} resolved, {len(refs) - resolved} failed{tail}"


def report_human(checked: Checked, style: Style, out: TextIO) -> None:
    if checked.analysis is None:
        return
    analysis = checked.analysis
    for finding in analysis.findings:
        span = analysis.finding_span(finding, Encoding.UTF32)
        where = f"{checked.name}:{span.start.line + 1}:{span.start.character + 1}"
        out.write(f"{style(where, '1')}: {style.severity(finding.severity)}[{finding.code}] {visible(finding.message)}\n")
        for line in snippet(analysis, finding, style):
            out.write(line + "\n")
    verdict = {0: style("ok", "1;32"), 1: style("failed", "1;31"), 2: style("invalid", "1;31")}[analysis.exit_code]
    out.write(f"{style(checked.name, '1')}: {verdict}: {summary(checked)}\n")


# --- main -------------------------------------------------------------------------


def use_colour(choice: str, stream: TextIO) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sourcecheck",
        description="Check SourceCheck sessions: every ref must resolve to exactly one span of its document.",
        epilog="Exit status: 0 every ref resolves, 1 a ref fails to resolve, 2 invalid JSON, schema error or unreadable input.",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="session files to check; '-' or none reads standard input")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the form RULES.md fixes) instead of text")
    parser.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", help="colour the text output (default: auto, off when piped or NO_COLOR is set)")
    parser.add_argument("--version", action="version", version=f"sourcecheck {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    # Whatever a document holds, printing it must not fail.
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    args = build_parser().parse_args(argv)
    files = args.files or ["-"]
    if files == ["-"] and sys.stdin is not None and sys.stdin.isatty():
        sys.stderr.write("sourcecheck: no file given and standard input is a terminal; try: sourcecheck FILE (or --help)\n")
        return 2
    results = [read_input(name) for name in files]
    for checked in results:
        if checked.unreadable:
            sys.stderr.write(f"sourcecheck: {checked.name}: {checked.unreadable}\n")
        elif checked.warning:
            sys.stderr.write(f"sourcecheck: {checked.name}: {checked.warning}\n")
    worst = max(checked.exit_code for checked in results)
    if args.json:
        if len(results) == 1:
            payload = report_json(results[0])
        else:
            payload = {"exit_code": worst, "files": [{"file": c.name, **report_json(c)} for c in results]}
        sys.stdout.write(dump_json(payload) + "\n")
    else:
        style = Style(use_colour(args.color, sys.stdout))
        for checked in results:
            report_human(checked, style, sys.stdout)
    sys.stdout.flush()
    return worst


if __name__ == "__main__":
    raise SystemExit(main())

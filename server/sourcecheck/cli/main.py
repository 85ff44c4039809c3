"""The ``sourcecheck`` command: check session files and report, for people or programs.

    sourcecheck FILE...            findings as FILE:LINE:COL lines, then a summary
    sourcecheck --json FILE        one JSON object (RULES.md), exit code inside
    sourcecheck --format github    workflow annotations; --format sarif: SARIF 2.1.0
    cat FILE | sourcecheck         standard input (also ``-``)
    sourcecheck new|ref|show|sync  writing sessions (cli/authoring.py); a first argument
                                   naming one is a file to check when such a file exists

Exit 0 when every ref resolves and nothing is an error, 1 when a ref fails, 2 for a
schema error or unreadable input; with several files, the worst of them.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TextIO

from .. import __version__, disk
from ..core.analysis import Analysis
from ..core.display import json_visible, visible
from ..core.positions import Encoding
from ..core.session import Finding, Ref, Severity, pointer
from ..core.syntax import escape_lone_surrogates
from ..core.verdicts import span_json
from . import authoring, fixing
from .ci_formats import (
    github_lines,
    github_summary,
    github_unreadable,
    sarif_log,
    sarif_notifications,
    sarif_results,
)
from .files import Refused, shown_name, use_colour
from .files import read_input as read_bytes_of


@dataclass
class Checked:
    """One input: its name and either its analysis or why it could not be read."""

    name: str
    analysis: Analysis | None = None
    unreadable: str | None = None
    warning: str | None = None  # readable, but not as JSON should be written (BOM, empty)
    fail_on: frozenset[str] = frozenset()  # verdicts that fail the check (--fail-on)

    @property
    def exit_code(self) -> int:
        if self.analysis is None:
            return 2
        worst = self.analysis.exit_code
        return max(worst, 1) if self.failing_verdicts() else worst

    def failing_verdicts(self) -> str:
        """The claims whose verdict ``--fail-on`` names, counted (empty: none)."""
        if self.analysis is None or not self.fail_on:
            return ""
        summary = self.analysis.summary
        counted = [(summary.count(v), v) for v in sorted(self.fail_on - {"weak"})]
        if "weak" in self.fail_on:
            counted.append((sum(1 for v in summary.verdicts if v.weak), "weak"))
        return ", ".join(f"{n} {verdict}" for n, verdict in counted if n)


MAX_SIZE_MB = disk.MAX_SIZE_MB


def read_input(name: str, max_size_mb: int = MAX_SIZE_MB) -> Checked:
    """Read and check one file; never raises for bad input."""
    try:
        data = read_bytes_of(name, max_size_mb)
    except Refused as refusal:
        return Checked(shown_name(name), unreadable=refusal.message.partition(": ")[2])
    return check_bytes(name, data)


def check_bytes(name: str, data: bytes) -> Checked:
    """Check the bytes of one input (``-`` is standard input)."""
    shown = shown_name(name)
    try:
        text = disk.decode(data, "save it as UTF-8")
    except disk.ReadRefused as refusal:
        return Checked(shown, unreadable=refusal.reason)
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
    summary = analysis.summary
    return {
        "exit_code": checked.exit_code,
        "findings": [finding_json(analysis, f) for f in analysis.findings],
        "refs": [ref_json(ref) for ref in analysis.session.refs],
        "annotations": [verdict.as_json() for verdict in summary.verdicts],
        "uncited": [coverage.as_json() for coverage in summary.coverage],
    }


def ref_json(ref: Ref) -> dict[str, Any]:
    """A ref in ``--json``: pointer, validity and text, and the span of a valid one."""
    found: dict[str, Any] = {"pointer": pointer(ref.json_path), "valid": ref.valid, "text": ref.text}
    if ref.valid:
        found.update(span_json(ref))
    return found


def dump_json(value: Any) -> str:
    """JSON text with readable non-ASCII, and invisible, reordering and control characters and
    lone surrogates escaped (the same value; UTF-8 cannot hold a lone surrogate)."""
    return json_visible(escape_lone_surrogates(json.dumps(value, ensure_ascii=False, indent=2)))


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
        f"  {style(number, '2')} | {prefix}{before}{marked}{visible(shown[end - left :])}{suffix}",
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
        out.write(
            f"{style(where, '1')}: {style.severity(finding.severity)}[{finding.code}] {visible(finding.message)}\n"
        )
        for line in snippet(analysis, finding, style):
            out.write(line + "\n")
    verdict = {0: style("ok", "1;32"), 1: style("failed", "1;31"), 2: style("invalid", "1;31")}[analysis.exit_code]
    out.write(f"{style(checked.name, '1')}: {verdict}: {summary(checked)}\n")
    if analysis.summary.verdicts:
        out.write(f"{style(checked.name, '1')}: {visible(analysis.summary.line())}\n")
        failing = checked.failing_verdicts()
        if failing:
            out.write(f"{style(checked.name, '1')}: {style('failed', '1;31')}: {failing} (--fail-on)\n")


# --- main -------------------------------------------------------------------------

FORMATS = ("human", "json", "github", "sarif")
FAIL_ON = frozenset({"unresolved", "unverified", "refuted", "contested", "weak"})


@dataclass
class Rendered:
    """One file's report in the chosen format, made where it was checked (maybe a worker)."""

    exit_code: int
    text: str = ""  # human or github lines
    payload: Any = None  # the --json object, or SARIF results and notifications
    note: str | None = None  # the one line for stderr


@dataclass(frozen=True)
class Options:
    """How to check and report (the command line's options)."""

    fmt: str = "human"
    colour: bool = False
    max_size_mb: int = MAX_SIZE_MB
    fail_on: frozenset[str] = frozenset()


def render(name: str, checked: Checked | None, options: Options) -> Rendered:
    """One input's report in the chosen format (``checked``: the input read already)."""
    if checked is None:
        checked = read_input(name, options.max_size_mb)
    checked.fail_on = options.fail_on
    fmt, colour = options.fmt, options.colour
    note = (
        f"sourcecheck: {checked.name}: {checked.unreadable or checked.warning}"
        if (checked.unreadable or checked.warning)
        else None
    )
    result = Rendered(checked.exit_code, note=note)
    if fmt == "json":
        result.payload = report_json(checked)
    elif fmt == "sarif":
        result.payload = (
            sarif_results(checked.name, checked.analysis, checked.unreadable),
            sarif_notifications(checked.name, checked.analysis),
        )
    elif fmt == "github":
        lines = (
            github_lines(checked.name, checked.analysis) + github_summary(checked.name, checked.analysis)
            if checked.analysis
            else [github_unreadable(checked.name, checked.unreadable or "")]
        )
        result.text = "".join(line + "\n" for line in lines)
    else:
        out = io.StringIO()
        report_human(checked, Style(colour), out)
        result.text = out.getvalue()
    return result


def _render_job(job: tuple[str, Options]) -> Rendered:
    return render(job[0], None, job[1])


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sourcecheck",
        description="Check SourceCheck sessions: every ref must resolve to exactly one span of its document.",
        epilog="Exit status: 0 every ref resolves, 1 a ref fails to resolve, 2 invalid JSON, schema error or "
        "unreadable input. Writing sessions: sourcecheck new FILE... [-o OUT] | ref SESSION PATH TEXT [--line N] | "
        "show SESSION PATH | sync SESSION [--check] (see sourcecheck COMMAND --help). A first argument that names "
        "one of these commands runs it, unless a file of that name exists in the current folder: then that file is "
        "checked (write ./new to make that explicit).",
    )
    parser.add_argument(
        "files", nargs="*", metavar="FILE", help="session files to check; '-' or none reads standard input"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (the form RULES.md fixes); same as --format json"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="human (default), json, github (workflow annotations) or sarif (SARIF 2.1.0)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="check N files at a time (default: the number of cores)",
    )
    parser.add_argument(
        "--max-size-mb",
        type=int,
        default=MAX_SIZE_MB,
        metavar="MB",
        help=f"refuse files larger than this (default {MAX_SIZE_MB})",
    )
    parser.add_argument(
        "--color",
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text output (default: auto, off when piped or NO_COLOR is set)",
    )
    parser.add_argument(
        "--fail-on",
        metavar="VERDICTS",
        default="",
        help="also exit 1 when a claim has one of these verdicts, comma-separated: "
        "unresolved, unverified, refuted, contested, weak (supported or refuted only below 0.3)",
    )
    parser.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes in place (atomically), repeating until none applies, then report what is left",
    )
    parser.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff, also apply the unsafe ones (they guess: a line off by one, 95 as 0.95, ...)",
    )
    parser.add_argument(
        "--diff", action="store_true", help="print the fixes as a unified diff instead of writing them (implies --fix)"
    )
    parser.add_argument("--version", action="version", version=f"sourcecheck {__version__}")
    return parser


def check_all(files: list[str], options: Options, jobs: int) -> list[Rendered]:
    stdin = read_input("-", options.max_size_mb) if "-" in files else None
    on_disk = [name for name in files if name != "-"]
    rendered: dict[str, Rendered] = {}
    if jobs > 1 and len(on_disk) > 1:
        with ProcessPoolExecutor(max_workers=min(jobs, len(on_disk))) as pool:
            for name, result in zip(on_disk, pool.map(_render_job, [(n, options) for n in on_disk]), strict=True):
                rendered[name] = result
    return [
        render(name, stdin, options) if name == "-" else rendered.get(name) or render(name, None, options)
        for name in files
    ]


def main(argv: list[str] | None = None) -> int:
    """The command; never a traceback: a reader that went away (``| head``) ends it quietly,
    running out of memory ends it with one line (exit 2)."""
    try:
        return run(argv)
    except BrokenPipeError:
        with contextlib.suppress(OSError):  # no more output, and no complaint at exit either
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return 1
    except MemoryError:
        sys.stderr.write("sourcecheck: out of memory; check fewer or smaller files at a time (or --max-size-mb)\n")
        return 2


def run(argv: list[str] | None = None) -> int:
    # Whatever a document holds, printing it must not fail.
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    arguments = sys.argv[1:] if argv is None else argv
    if authoring.is_command(arguments):
        return authoring.main(arguments)
    args = build_parser().parse_args(argv)
    gc.disable()  # a short run that allocates much and frees little: the collector only costs
    fmt = args.format or ("json" if args.json else "human")
    files = args.files or ["-"]
    if "-" in files and sys.stdin is not None and sys.stdin.isatty():
        sys.stderr.write(
            "sourcecheck: no file given and standard input is a terminal; try: sourcecheck FILE (or --help)\n"
        )
        return 2
    jobs = args.jobs if args.jobs and args.jobs > 0 else (os.cpu_count() or 1)
    fail_on = (
        frozenset(part.strip() for part in args.fail_on.split(",") if part.strip()) if args.fail_on else frozenset()
    )
    unknown = fail_on - FAIL_ON
    if unknown:
        sys.stderr.write(
            f"sourcecheck: --fail-on takes {', '.join(sorted(FAIL_ON))}, not {', '.join(sorted(unknown))}\n"
        )
        return 2
    options = Options(fmt, use_colour(args.color, sys.stdout), args.max_size_mb, fail_on)
    outcomes: dict[str, fixing.Outcome] = {}
    if args.fix or args.diff or args.unsafe_fixes:
        try:
            outcomes = fixing.run(files, args.unsafe_fixes, args.diff, args.max_size_mb)
        except Refused as refusal:
            sys.stderr.write(f"sourcecheck: {refusal.message}\n")
            return refusal.code
    if args.diff or "-" in outcomes:  # the result as it would be: nothing was written
        results = [
            render(name, check_bytes(name, outcome.text.encode("utf-8")), options)
            if (outcome := outcomes.get(name)) is not None and outcome.text is not None
            else render(name, None, options)
            for name in files
        ]
    else:
        results = check_all(files, options, jobs)
    if fmt == "json" and outcomes:
        for name, result in zip(files, results, strict=True):
            applied = outcomes[name].applied if name in outcomes else ()
            result.payload["fixed"] = [{"code": c, "pointer": p, "message": t} for c, p, t in applied]
    for result in results:
        if result.note:
            sys.stderr.write(result.note + "\n")
    worst = max(result.exit_code for result in results)
    names = ["<stdin>" if name == "-" else name for name in files]
    if fmt == "json":
        if len(results) == 1:
            payload = results[0].payload
        else:
            payload = {
                "exit_code": worst,
                "files": [{"file": name, **r.payload} for name, r in zip(names, results, strict=True)],
            }
        sys.stdout.write(dump_json(payload) + "\n")
    elif fmt == "sarif":
        sarif = sarif_log(
            [item for r in results for item in r.payload[0]], [item for r in results for item in r.payload[1]]
        )
        sys.stdout.write(dump_json(sarif) + "\n")
    else:
        for result in results:
            sys.stdout.write(result.text)
    sys.stdout.flush()
    return worst


if __name__ == "__main__":
    raise SystemExit(main())

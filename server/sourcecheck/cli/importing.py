"""``sourcecheck import`` and ``export``: sessions from where citations are made, and back.

    sourcecheck import FORMAT RESPONSE [--request FILE] [--document PATH]... [--answer NAME] -o SESSION
    sourcecheck export w3c SESSION [-o OUT]

This is reading the files, writing the session and saying what happened; the formats and
the placing are ``interchange/``'s. The session made is checked (``core/analysis.py``)
before it is written, atomically, never over a file that was not named with ``--force``.
``import`` exits 1 when a citation could not be placed (each is listed with why; the rest
are imported), else 0: a citation whose offsets held other text is placed by its text and
said, as a warning. ``export`` exits 1 for a session that does not check clean.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from .. import disk, interchange, workspace
from ..core.display import plural, visible
from ..core.queries import DEFAULT_CONFIDENCE
from ..inputs import Refused, decode, load_session, read_input, read_source, shown_name
from ..interchange.model import Given, ImportReport, said
from ..interchange.w3c import Unexportable
from .files import refuse_output, write_atomically
from .wording import dump_json


def session_path(given: str) -> str:
    """A ``--document`` file name as a session path (as ``new`` writes them: POSIX slashes,
    no leading ``./``)."""
    return re.sub(r"^(?:\./+)+", "", given.replace("\\", "/"))


def read_json(name: str, what: str, limit_mb: int) -> Any:
    text = decode(name, read_input(name, limit_mb), f"{what} is UTF-8 JSON")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise Refused(
            f"{shown_name(name)}:{error.lineno}:{error.colno}: {what} is not JSON ({error.msg}); give it as it was sent"
        ) from None


def given_documents(names: list[str], limit_mb: int) -> list[Given]:
    found: list[Given] = []
    seen: dict[str, str] = {}
    for name in names:
        path = session_path(name)
        if path in seen:
            raise Refused(f"--document {shown_name(name)} is given twice; give each file once")
        content, _ = read_source(name, limit_mb)
        seen[path] = name
        found.append(Given(path, content, Path(os.path.abspath(name)).as_uri()))
    return found


def run_import(args: argparse.Namespace) -> int:
    limit: int = args.max_size_mb
    inputs = [(args.response, "the response")]
    inputs += [(args.request, "the request")] if args.request else []
    inputs += [(name, "a --document") for name in args.documents]
    refuse_output(args.output, inputs, args.force)
    text = decode(args.response, read_input(args.response, limit), "a response is UTF-8")
    try:
        wire = interchange.parse(text)
    except interchange.NotAResponse as refusal:
        raise Refused(f"{shown_name(args.response)}: {refusal}") from None
    request = read_json(args.request, "the request", limit) if args.request else None
    given = given_documents(args.documents, limit)
    try:
        placeholder = workspace.Configs().of(os.path.dirname(os.path.abspath(args.output))).placeholder_confidence
        session, report = interchange.import_wire(
            args.format, wire, request, given, args.answer, DEFAULT_CONFIDENCE if placeholder is None else placeholder
        )
    except interchange.NotAResponse as refusal:
        raise Refused(f"{shown_name(args.response)}: {refusal}") from None
    written = dump_json(session) + "\n"
    try:
        report = interchange.checked(written, report)
    except interchange.Unmade as refusal:
        raise Refused(f"{refusal}; please report this with the response", 1) from None
    write_atomically(args.output, written)
    if args.json:
        sys.stdout.write(dump_json({"output": args.output, **report.to_json()}) + "\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in import_lines(args.output, session, report)))
    return report.exit_code


def import_lines(output: str, session: dict[str, Any], report: ImportReport) -> list[str]:
    """What ``import`` says: what was written, each citation placed, each mismatch, each
    citation left out, the notes, what the check says, and the sum."""
    shown = shown_name(output)
    sources = sum(len(annotation["sources"]) for annotation in session["annotations"])
    out = [
        f"{shown}: wrote {plural(len(session['documents']), 'document')}, "
        f"{plural(len(session['annotations']), 'annotation')} with {plural(sources, 'source')} "
        f"(from {interchange.FORMATS[report.format].title})"
    ]
    for placed in report.placed:
        out.append(
            f"  {visible(placed.where)}: claim {said(placed.claim, 40)} <- {said(placed.text, 50)} "
            f"({visible(placed.path)}:{placed.line}, {placed.pointer})"
        )
    for mismatch in report.mismatched:
        out.append(f"warning: {visible(mismatch.where)}: the {mismatch.of}: {visible(mismatch.message)}")
    for left in report.left_out:
        claim = f" (claim {said(left.claim, 40)})" if left.claim else ""
        out.append(f"error: {visible(left.where)}: cannot be placed{claim}: {visible(left.reason)}")
    out += [f"note: {visible(note)}" for note in report.notes]
    out += [f"{shown}:{finding}" for finding in report.findings]
    mismatched, left_out = len(report.mismatched), len(report.left_out)
    summary = f"{shown}: {plural(len(report.placed), 'citation')} placed"
    if left_out:
        summary += f", {left_out} could not be placed (listed above)"
    if mismatched:
        summary += f"; {plural(mismatched, 'span')} placed by {'its' if mismatched == 1 else 'their'} text, not offsets"
    checks = "checks clean" if not report.findings else f"checks with {plural(len(report.findings), 'warning')}"
    out.append(f"{summary}; the session {checks} (`sourcecheck {shown}`)")
    return out


def run_export(args: argparse.Namespace) -> int:
    session = load_session(args.session, args.max_size_mb)
    if args.output is not None:
        refuse_output(args.output, [(args.session, "the session")], args.force)
    base = Path(session.folder).as_uri().rstrip("/") + "/"
    writer = interchange.FORMATS[args.format].write
    assert writer is not None
    try:
        value = writer(session.analysis.text, base, os.path.basename(args.session))
    except Unexportable as refusal:
        listed = "; ".join(refusal.problems[:5]) + (
            f"; and {len(refusal.problems) - 5} more" if len(refusal.problems) > 5 else ""
        )
        raise Refused(
            f"{session.shown}: does not check clean, so it is not exported ({listed}); `sourcecheck {session.shown}` "
            "says what to fix",
            1,
        ) from None
    text = dump_json(value) + "\n"
    count = value.get("total", 0)
    if args.output is None:
        sys.stdout.write(text)
    else:
        write_atomically(args.output, text)
        sys.stderr.write(
            f"sourcecheck: wrote {shown_name(args.output)}: {plural(count, 'Web Annotation')} (one per source), "
            f"documents named under {visible(base)}\n"
        )
    return 0


def add_parsers(commands: Any) -> None:
    """The ``import`` and ``export`` subcommands, on the writing commands' parser."""
    readable = "\n".join(f"  {name}: {found.summary}" for name, found in interchange.FORMATS.items())
    made = commands.add_parser(
        "import",
        help="make a session of a model's answer and its citations (anthropic, gemini, cohere) or of Web Annotations",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Make a session of RESPONSE: the answer a document (answer.md unless --answer names it), each "
        "cited segment of it a claim, each citation a `supports` source citing its text at its true place. Offsets "
        "are checked in the unit the provider counts in; a citation whose offsets hold other text is placed by its "
        "text (once in its document, else nearest the offsets) and said. The documents come from the response, the "
        "request (--request) or the files given (--document, matched by title, URL or file name).\n\nFORMAT:\n"
        + readable,
        epilog="Exit status: 0 written, every citation placed; 1 written, but a citation could not be placed (each is "
        "listed with why); 2 unreadable input, or SESSION exists (--force).",
    )
    made.add_argument("format", choices=interchange.READABLE, metavar="FORMAT", help="the format of RESPONSE")
    made.add_argument("response", metavar="RESPONSE", help="the response file (- reads standard input)")
    made.add_argument("--request", metavar="FILE", help="the request it answers (JSON): its documents")
    made.add_argument(
        "--document",
        dest="documents",
        action="append",
        default=[],
        metavar="PATH",
        help="a document's file (a page's text, a PDF's text, a file of a file search), named like its title or URL",
    )
    made.add_argument("--answer", default=interchange.ANSWER, metavar="NAME", help="the answer's path in the session")
    made.add_argument("-o", "--output", required=True, metavar="SESSION", help="the session file to write")
    made.add_argument("--force", action="store_true", help="overwrite SESSION when it exists")
    made.add_argument("--json", action="store_true", help="print one JSON object: each citation placed, or why not")
    made.add_argument("--max-size-mb", type=int, default=disk.MAX_SIZE_MB, metavar="MB", help=argparse.SUPPRESS)
    made.set_defaults(run=run_import)

    out = commands.add_parser(
        "export",
        help="write a session as W3C Web Annotations",
        description="Write SESSION as W3C Web Annotations (JSON-LD): an AnnotationCollection holding, for each source, "
        "an annotation whose target is its claim's span and whose body is its span (quote and position selectors), "
        "with its polarity and confidence, each document named by its file: URI. `sourcecheck import w3c` reads it "
        "back to the same refs.",
        epilog="Exit status: 0 written; 1 the session does not check clean; 2 unreadable session, or OUT exists.",
    )
    out.add_argument("format", choices=interchange.WRITABLE, metavar="FORMAT", help="w3c")
    out.add_argument("session", metavar="SESSION", help="the session file")
    out.add_argument("-o", "--output", metavar="OUT", help="write to OUT (default: standard output)")
    out.add_argument("--force", action="store_true", help="overwrite OUT when it exists")
    out.add_argument("--max-size-mb", type=int, default=disk.MAX_SIZE_MB, metavar="MB", help=argparse.SUPPRESS)
    out.set_defaults(run=run_export)


__all__ = ["add_parsers", "run_export", "run_import"]

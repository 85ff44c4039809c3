"""``sourcecheck report SESSION [-o FILE]``: the review report of a session, as one HTML page.

The page (see ``review/``) needs nothing but itself: open it in any browser. By default it
is written beside the session, its name ending in ``.report.html`` instead of ``.json``;
``-o -`` writes it to standard output, and a SESSION of ``-`` is read from standard input
(the report then goes to standard output unless ``-o`` says otherwise).

Exit status: 0 written; 2 the session cannot be read (missing, not UTF-8, not JSON, not a
session) or the report cannot be written. The page is never written over the session or a
document's file, nor (without ``--force``) over a file that is not a report it wrote. A
session with findings is reported, not refused: showing what fails is what the report is for.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Sequence

from .. import disk
from ..core.analysis import Analysis
from ..core.display import EscapingParser, visible
from ..inputs import Refused, load_session
from ..review import render
from .files import refuse_output, write_atomically


def default_output(session: str) -> str:
    """``x.sourcecheck.json`` → ``x.sourcecheck.report.html``; a name without ``.json``
    gets ``.report.html`` added."""
    base = session[: -len(".json")] if session.lower().endswith(".json") else session
    return base + ".report.html"


GENERATOR = b'<meta name="generator" content="sourcecheck report">'
"""What every page ``report`` writes holds near its start: a file without it is not one of ours."""


def read_session(name: str) -> tuple[str, Analysis]:
    """The session's display name and analysis, or a refusal saying why not."""
    session = load_session(name, require_shape=True)
    return session.shown, session.analysis


def inputs_of(session: str, analysis: Analysis) -> list[tuple[str, str]]:
    """The files a report must never be written over: the session and its documents' files."""
    found = [(session, "the session itself")] if session != "-" else []
    folder = os.path.dirname(os.path.abspath(session))
    for path in analysis.session.by_path:
        if disk.outside_reason(path) is None:
            found.append((os.path.join(folder, path), f"the file of the document {visible(path)}"))
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = EscapingParser(
        prog="sourcecheck report",
        description="Write the review report of SESSION: one self-contained HTML page (no network, no external file) "
        "with each document's claims marked by verdict, their sources, the uncited text and the failing refs.",
        epilog="Exit status: 0 written, 2 the session cannot be read or the report cannot be written.",
    )
    parser.add_argument("session", metavar="SESSION", help="the session file (- for standard input)")
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write the page (default: SESSION with .report.html for .json; - for standard output)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace FILE even when it is not a report written by sourcecheck (never the session or a "
        "document's file)",
    )
    return parser


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    gc.disable()  # the CLI's policy: a short run that allocates much and frees little
    began = time.perf_counter()
    try:
        shown, analysis = read_session(args.session)
        output = args.output or ("-" if args.session == "-" else default_output(args.session))
        name = "stdin" if args.session == "-" else os.path.basename(args.session)
        page = render(analysis, name)
        if output == "-":
            sys.stdout.flush()
            binary = getattr(sys.stdout, "buffer", None)
            if binary is not None:  # UTF-8 whatever the locale: the page says it is
                binary.write(page.encode("utf-8"))
                binary.flush()
            else:
                sys.stdout.write(page)
        else:
            refuse_output(output, inputs_of(args.session, analysis), args.force, GENERATOR)
            write_atomically(output, page)
    except Refused as refusal:
        sys.stdout.flush()
        sys.stderr.write(f"sourcecheck: {refusal}\n")
        return 2
    if output != "-":
        size = len(page.encode("utf-8"))
        amount = f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{max(1, round(size / 1e3))} kB"
        sys.stderr.write(
            f"sourcecheck: wrote {visible(output)} ({amount}; {visible(analysis.summary.line())}) "
            f"in {time.perf_counter() - began:.1f} s\n"
        )
    return 0


__all__ = ["default_output", "main"]

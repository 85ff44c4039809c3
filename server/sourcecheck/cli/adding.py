"""``sourcecheck add``: an annotation written into a session from the command line.

    sourcecheck add SESSION --claim PATH TEXT [--line N] [--occurrence K]
                            --supports PATH TEXT [--line N] [--occurrence K] [--confidence X]
                            [--refutes PATH TEXT ...] ...

Each ref is made as ``sourcecheck ref`` makes it (the text exactly as the document has it, or
written with other quotes, case or spacing when that is found once); ``--line``,
``--occurrence`` and ``--confidence`` belong to the ref just before them. A source without
``--confidence`` gets the one given the source before it (0.7 in a session without one).
The annotation is checked before it is written: every ref resolves to its text, its polarity
and confidence are valid; then it is appended to ``annotations`` with the file's indentation,
the session written atomically (refused if it changed since it was read).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from typing import Any

from .. import workspace
from ..core.analysis import Analysis
from ..core.display import title_quote, visible
from ..core.edits import TextEdit, apply
from ..core.insert import new_annotation
from ..core.queries import last_confidence
from ..inputs import Refused, load_session
from .citing import find_document, make_ref
from .files import write_atomically


class Piece(argparse.Action):
    """``--claim`` / ``--supports`` / ``--refutes PATH TEXT``: one more ref, in order."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None
    ) -> None:
        refs = list(getattr(namespace, "refs", None) or [])
        path, text = values
        refs.append(
            {"kind": self.dest, "path": path, "text": text, "line": None, "occurrence": None, "confidence": None}
        )
        namespace.refs = refs


class Modifier(argparse.Action):
    """``--line``, ``--occurrence``, ``--confidence``: of the ref just before."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None
    ) -> None:
        refs = getattr(namespace, "refs", None) or []
        if not refs:
            parser.error(f"{option} belongs to a --claim, --supports or --refutes before it")
        if self.dest == "confidence" and refs[-1]["kind"] == "claim":
            parser.error("--confidence belongs to a source (--supports or --refutes), not to the claim")
        refs[-1][self.dest] = values


def _configured_confidence(session: str) -> float | None:
    """The ``placeholder-confidence`` of the session's configuration (``workspace.py``), if any."""
    try:
        return workspace.Configs().of(os.path.dirname(os.path.abspath(session))).placeholder_confidence
    except workspace.ConfigError as error:
        raise Refused(f"configuration: {error}") from None


def confidence(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number; a confidence is from 0 to 1, e.g. 0.9") from None
    if not math.isfinite(number) or not 0 <= number <= 1:
        hint = f" (for {value}%, write {number / 100:g})" if 1 < number <= 100 else ""
        raise argparse.ArgumentTypeError(f"{value} is outside [0, 1]{hint}")
    return number


def positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number (1, 2, ...)") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value} is not 1 or more")
    return number


def add_parser(commands: Any) -> None:
    """The ``add`` subcommand, on the writing commands' parser."""
    add = commands.add_parser(
        "add",
        help="add an annotation: a claim and its sources, each given by its text",
        description="Append an annotation to SESSION: its claim (--claim PATH TEXT) and its sources (--supports or "
        "--refutes PATH TEXT, as many as needed), each ref made as `sourcecheck ref` makes it. --line, --occurrence "
        "and --confidence apply to the ref just before them. The annotation is checked first, then written with the "
        "file's indentation.",
        epilog="Exit status: 0 added; 1 a TEXT is not found, found more than once, or not citable; 2 unreadable "
        "session, unknown PATH, or arguments that make no annotation.",
    )
    add.add_argument("session", metavar="SESSION", help="the session file")
    for name in ("claim", "supports", "refutes"):
        add.add_argument(
            f"--{name}",
            dest=name,
            nargs=2,
            metavar=("PATH", "TEXT"),
            action=Piece,
            help="the claim" if name == "claim" else f"a source that {name} it",
        )
    add.add_argument("--line", dest="line", type=positive, metavar="N", action=Modifier, help="the line TEXT starts on")
    add.add_argument(
        "--occurrence", dest="occurrence", type=positive, metavar="K", action=Modifier, help="which occurrence there"
    )
    add.add_argument(
        "--confidence",
        dest="confidence",
        type=confidence,
        metavar="X",
        action=Modifier,
        help="the source's confidence, from 0 to 1 (default: the one given the source before it, else 0.7)",
    )
    add.set_defaults(run=run_add, refs=[])


def run_add(args: argparse.Namespace) -> int:
    pieces: list[dict[str, Any]] = args.refs
    claims = [p for p in pieces if p["kind"] == "claim"]
    sources = [p for p in pieces if p["kind"] != "claim"]
    if len(claims) != 1 or not sources:
        raise Refused(
            "an annotation is one --claim PATH TEXT and at least one --supports or --refutes PATH TEXT; "
            f"got {len(claims)} claim{'s' if len(claims) != 1 else ''} and {len(sources)} source"
            f"{'s' if len(sources) != 1 else ''}"
        )
    session = load_session(args.session)
    analysis = session.analysis
    if analysis.node(("annotations",)) is None:
        raise Refused(f'{session.shown}: has no `annotations` array to add to; add `"annotations": []` first')
    made: dict[int, tuple[dict[str, Any], str]] = {}
    for index, piece in enumerate(pieces):
        document = find_document(analysis, args.session, piece["path"])
        boundaries, text = make_ref(document, piece["text"], piece["line"], piece["occurrence"])
        made[index] = (boundaries.as_json(), text)
    claim_ref, claim_text = made[pieces.index(claims[0])]
    configured = _configured_confidence(args.session)
    fallback = configured if configured is not None else last_confidence(analysis, None)
    written_sources = []
    for index, piece in enumerate(pieces):
        if piece["kind"] == "claim":
            continue
        value = piece["confidence"] if piece["confidence"] is not None else fallback
        fallback = value
        written_sources.append({**made[index][0], "polarity": piece["kind"], "confidence": value})
    annotation = {"claim": claim_ref, "sources": written_sources}
    insertion = new_annotation(analysis, annotation)
    if insertion is None:
        raise Refused(f"{session.shown}: `annotations` is not an array; fix it first")
    text = apply(analysis.text, [TextEdit(insertion.start, insertion.end, insertion.text)])
    check_added(Analysis(text), len(analysis.session.annotations), session.shown)
    write_atomically(session.name, text, expect=session.data)
    said = [f"claim {quote(claim_text)}"] + [
        f"{s['polarity']} {quote(made[i][1])} ({s['confidence']:g})"
        for i, s in zip([i for i, p in enumerate(pieces) if p["kind"] != "claim"], written_sources, strict=True)
    ]
    sys.stdout.write(
        f"{session.shown}: added annotation {len(analysis.session.annotations) + 1}: " + "; ".join(said) + "\n"
    )
    return 0


def quote(text: str) -> str:
    return title_quote(text, 50, ends=True)


def check_added(after: Analysis, index: int, shown: str) -> None:
    """Never write an annotation with an error of its own (an internal check: each ref was made
    to resolve to its text)."""
    prefix = f"/annotations/{index}"
    errors = [f for f in after.findings if f.pointer.startswith(prefix) and f.severity.value == "error"]
    if errors:
        raise Refused(
            f"{shown}: the annotation would have {errors[0].code} ({visible(errors[0].message)}), so it is not "
            "written; please report this with the session",
            1,
        )


__all__: Sequence[str] = ["add_parser", "run_add"]

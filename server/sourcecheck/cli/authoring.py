"""Writing sessions from the command line: make one, cite text, see what is cited, keep up.

    sourcecheck new FILE... [-o OUT]          a session with one document per file
    sourcecheck add SESSION --claim PATH TEXT --supports PATH TEXT ...   (cli/adding.py)
    sourcecheck ref SESSION PATH TEXT         the ref whose resolved text is exactly TEXT
    sourcecheck show SESSION PATH             the document, its cited spans marked
    sourcecheck sync SESSION [--check]        re-read the documents' files; report refs that moved
    sourcecheck report SESSION [-o FILE]      the review report, one HTML page (cli/report.py)
    sourcecheck import FORMAT RESPONSE -o SESSION   a session of a model's cited answer (cli/importing.py)
    sourcecheck export w3c SESSION [-o OUT]   the session as W3C Web Annotations (cli/importing.py)

A document made by ``new`` keeps its path as given (POSIX-style); ``sync`` reads that path
from the session file's folder. Nothing else is recorded: a document has only ``path`` and
``content`` (any other key would be an ``unknown-field`` warning).

Every refusal is one line on standard error, ``sourcecheck: ...``, saying what is wrong and
what to do, with exit 2 for unusable input (a file that cannot be read, an unknown path) and
exit 1 when the input is fine but the answer is "no" (TEXT not found or ambiguous, a ref
that changed).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Sequence

from .. import disk
from ..core.analysis import Analysis
from ..core.display import EscapingParser, plural, visible
from ..core.explain import coverage_of, uncited_title
from ..core.jsonlex import escape_lone_surrogates
from ..core.session import CheckedRef, Document
from ..inputs import Refused, load_session, read_source, shown_name
from . import adding, importing, report
from .citing import find_document, make_ref, read_text_argument
from .files import refuse_output, size_mb, use_colour, write_atomically
from .syncing import run_sync
from .wording import dump_json, quoted


def main(argv: Sequence[str]) -> int:
    if argv and argv[0] == "report":
        return report.main(argv[1:])
    args = build_parser().parse_args(list(argv))
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except Refused as refusal:
        sys.stdout.flush()
        sys.stderr.write(f"sourcecheck: {refusal.message}\n")
        return refusal.code
    except OSError as error:  # what the checks before could not foresee (a file gone meanwhile)
        where = f"{visible(str(error.filename))}: " if error.filename else ""
        sys.stderr.write(f"sourcecheck: {where}{error.strerror or error}\n")
        return 2


# --- small helpers -------------------------------------------------------------------


def document_path(given: str) -> str:
    """A command-line file name as a document path: POSIX slashes, no leading ``./``."""
    return re.sub(r"^(?:\./+)+", "", given.replace("\\", "/"))


def paint(text: str, code: str, enabled: bool) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if enabled and text else text


def display_width(text: str) -> int:
    """Terminal columns of ``text``: wide East Asian characters take two, combining ones none
    (the rule of core/explain.marked_line)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


# --- new -----------------------------------------------------------------------------


def run_new(args: argparse.Namespace) -> int:
    files: list[str] = args.files
    seen: dict[str, int] = {}
    for index, given in enumerate(files, start=1):
        path = document_path(given)
        if not path or path.endswith("/"):
            raise Refused(f"{shown_name(given)}: is not a file name; give the files to put in the session")
        if path in seen:
            raise Refused(
                f"{quoted(path)} is given twice (arguments {seen[path]} and {index}); a session's document paths "
                "are unique, so give each file once"
            )
        seen[path] = index
    output: str | None = args.output
    if output is not None:
        refuse_output(output, [(given, "one of the files to read") for given in files], args.force)
    documents = []
    notes = []
    for given in files:
        content, change = read_source(given)
        documents.append({"path": document_path(given), "content": content})
        if change:
            notes.append(f"sourcecheck: {shown_name(given)}: {change}")
    notes += unreachable_notes(files, output)
    text = dump_json({"documents": documents, "annotations": []})
    for note in notes:
        sys.stderr.write(note + "\n")
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        write_atomically(output, text + "\n")
        sys.stderr.write(
            f"sourcecheck: wrote {shown_name(output)}: {plural(len(documents), 'document')}, no annotations yet "
            f"(add them with `sourcecheck add {shown_name(output)} ...`)\n"
        )
    return 0


def unreachable_notes(files: list[str], output: str | None) -> list[str]:
    """Warnings for documents that ``sync`` will not find again from where the session is
    written (standard output: the current folder is assumed)."""
    folder = os.path.dirname(os.path.abspath(output)) if output is not None else os.getcwd()
    outside, elsewhere = [], []
    for given in files:
        path = document_path(given)
        if disk.outside_reason(path) is not None:
            outside.append(path)
            continue
        target = os.path.join(folder, path)
        if not (os.path.exists(target) and os.path.samefile(target, given)):
            elsewhere.append(path)
    notes = []
    if outside:
        notes.append(
            f"sourcecheck: note: `sync` will not re-read {', '.join(map(quoted, outside))}: it reads only files in "
            "the session's folder or below it"
        )
    if elsewhere:
        notes.append(
            f"sourcecheck: note: `sync` reads each path from the session's folder ({shown_name(folder)}), where "
            f"{', '.join(map(quoted, elsewhere))} is not the file read now; write the session in the folder the "
            "paths start from"
        )
    return notes


# --- ref -----------------------------------------------------------------------------


def run_ref(args: argparse.Namespace) -> int:
    analysis = load_session(args.session).analysis
    document = find_document(analysis, args.session, args.path)
    result, _ = make_ref(document, read_text_argument(args.text), args.line, args.occurrence)
    sys.stdout.write(escape_lone_surrogates(json.dumps(result.as_json(), ensure_ascii=False)) + "\n")
    return 0


# --- show ----------------------------------------------------------------------------

CLAIM, SUPPORTS, REFUTES, OTHER = 1, 2, 4, 8
MARKS = {CLAIM: "^", SUPPORTS: "+", REFUTES: "-", OTHER: "?"}
SEVERAL = "*"
COLOURS = {"^": "1;35", "+": "1;32", "-": "1;31", "?": "1;33", "*": "1;36"}
LEGEND = {CLAIM: "claim", SUPPORTS: "supporting source", REFUTES: "refuting source", OTHER: "source, no valid polarity"}


def kind_of(ref: CheckedRef) -> int:
    if not ref.is_source:
        return CLAIM
    return {"supports": SUPPORTS, "refutes": REFUTES}.get(ref.polarity if isinstance(ref.polarity, str) else "", OTHER)


def coverage(document: Document, refs: list[CheckedRef]) -> bytes:
    """One byte per content character: the kinds of ref spans covering it, or-ed."""
    size = len(document.content)
    combined = 0
    for kind in MARKS:
        covered = bytearray(size)
        for ref in refs:
            if ref.valid and ref.span is not None and kind_of(ref) == kind:
                start, end = ref.span
                covered[start:end] = b"\x01" * (end - start)
        combined |= int.from_bytes(covered, "big") * kind  # each byte 0 or 1: no carry between bytes
    return combined.to_bytes(size, "big")


def mark_of(mask: int) -> str:
    return " " if not mask else MARKS.get(mask, SEVERAL)


def run_show(args: argparse.Namespace) -> int:
    analysis = load_session(args.session).analysis
    document = find_document(analysis, args.session, args.path)
    colour = use_colour(args.color, sys.stdout)
    if args.uncited:
        sys.stdout.write(show_uncited(analysis, document, colour))
        return 0
    refs = analysis.refs_into(document)
    masks = coverage(document, refs)
    lines = document.lines
    width = len(str(len(lines)))
    out = []
    for index in range(len(lines)):
        start, end = lines.starts[index], lines.end(index)
        number = paint(f"{index + 1:>{width}}", "2", colour)
        gutter = f"  {number} | "
        if masks.count(0, start, end) == end - start:
            out.append(gutter + visible(lines[index]) if lines[index] else gutter.rstrip(" "))
            continue
        shown, marks = [], []
        for at in range(start, end):
            piece = visible(document.content[at])
            shown.append(piece)
            marks.append(mark_of(masks[at]) * display_width(piece))
        out.append(gutter + "".join(shown))
        out.append(f"  {' ' * width} | " + painted_marks("".join(marks).rstrip(), colour))
    legend = [
        f"{paint(MARKS[kind], COLOURS[MARKS[kind]], colour)} {LEGEND[kind]}" for kind in (CLAIM, SUPPORTS, REFUTES)
    ]
    if any(ref.valid and kind_of(ref) == OTHER for ref in refs):
        legend.append(f"{paint('?', COLOURS['?'], colour)} {LEGEND[OTHER]}")
    legend.append(f"{paint(SEVERAL, COLOURS[SEVERAL], colour)} several kinds")
    out.append("")
    out.append("marks: " + " · ".join(legend))
    out.append(ref_count(document, refs))
    sys.stdout.write("".join(line + "\n" for line in out))
    return 0


UNCITED_MARK = "~"


def show_uncited(analysis: Analysis, document: Document, colour: bool) -> str:
    """The lines of ``document`` that hold uncited text (docs/rules.md: what no resolved claim
    covers), each with ``~`` under its uncited characters, then how many passages and what
    share of the text they are."""
    found = coverage_of(analysis, document)
    if found is None:
        return (
            f"{quoted(document.path)}: no claim cites it, so none of it counts as uncited text (that is "
            "counted in the documents claims cite); `show` without --uncited shows what its sources cite\n"
        )
    lines, content = document.lines, document.content
    width = len(str(len(lines)))
    uncited = bytearray(len(content))
    for run in found.runs:
        uncited[run.start : run.end] = b"\x01" * (run.end - run.start)
    out: list[str] = []
    for index in sorted({line for run in found.runs for line in run_lines(document, run.start, run.end)}):
        start, end = lines.starts[index], lines.end(index)
        if not uncited.count(1, start, end) or not content[start:end].strip():
            continue  # an empty line inside a passage
        marks, shown = [], []
        for at in range(start, end):
            piece = visible(content[at])
            shown.append(piece)
            marks.append((UNCITED_MARK if uncited[at] else " ") * display_width(piece))
        out.append(f"  {paint(f'{index + 1:>{width}}', '2', colour)} | " + "".join(shown))
        out.append(f"  {' ' * width} | " + paint("".join(marks).rstrip(), "33", colour))
    if out:
        out.append("")
    summary = uncited_title(found) if found.runs else "all of its text is cited by claims"
    out.append(
        f"{quoted(document.path)}: {summary}"
        + (f"; {UNCITED_MARK} marks the text no claim cites" if found.runs else "")
    )
    return "".join(line + "\n" for line in out)


def run_lines(document: Document, start: int, end: int) -> range:
    """The (0-based) lines that ``[start, end)`` has characters on."""
    return range(document.line_of_offset(start) - 1, document.line_of_offset(max(start, end - 1)))


def painted_marks(marks: str, colour: bool) -> str:
    if not colour:
        return marks
    return "".join(
        paint(run.group(), COLOURS.get(run.group()[0], "0"), True) if run.group()[0] != " " else run.group()
        for run in re.finditer(r"(.)\1*", marks)
    )


def ref_count(document: Document, refs: list[CheckedRef]) -> str:
    if not refs:
        return f"{quoted(document.path)}: no ref cites it"
    claims = sum(1 for ref in refs if not ref.is_source)
    kinds = [kind_of(ref) for ref in refs if ref.is_source]
    sources = len(kinds)
    detail = ", ".join(
        f"{kinds.count(kind)} {name}" for kind, name in ((SUPPORTS, "supports"), (REFUTES, "refutes")) if kinds
    )
    if kinds.count(OTHER):
        detail += f", {kinds.count(OTHER)} with no valid polarity"
    failed = sum(1 for ref in refs if not ref.valid)
    line = (
        f"{quoted(document.path)}: {plural(len(refs), 'ref')}: {plural(claims, 'claim')}, "
        f"{plural(sources, 'source')}" + (f" ({detail})" if sources else "")
    )
    if failed:
        line += f"; {failed} {'does' if failed == 1 else 'do'} not resolve (not marked: `sourcecheck SESSION` says why)"
    return line


# --- arguments -----------------------------------------------------------------------


def line_number(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a line number (1, 2, ...)") from None


def build_parser() -> argparse.ArgumentParser:
    parser = EscapingParser(prog="sourcecheck", description="Write SourceCheck sessions.")
    commands = parser.add_subparsers(metavar="COMMAND", required=True)

    new = commands.add_parser(
        "new",
        help="make a session from files",
        description="Make a session with one document per FILE: its path as given (POSIX slashes, no leading ./), "
        "its content with LF line breaks. `sourcecheck sync` later re-reads each path from the session's folder, so "
        "write the session in the folder the paths start from.",
        epilog="Exit status: 0 written, 2 a file cannot be read (missing, not UTF-8) or is given twice, or OUT exists.",
    )
    new.add_argument("files", nargs="+", metavar="FILE", help="text files (UTF-8) to make documents of")
    new.add_argument("-o", "--output", metavar="OUT", help="write the session to OUT (default: standard output)")
    new.add_argument("--force", action="store_true", help="overwrite OUT when it exists")
    new.set_defaults(run=run_new)

    ref = commands.add_parser(
        "ref",
        help="print the ref that cites a text",
        description="Print the ref (one JSON line: path, start, end) whose resolved text is exactly TEXT in the "
        "document PATH. TEXT is taken as given, line breaks included (in bash: $'a\\nb'); `-` reads it from standard "
        "input (one final line break dropped). A TEXT that starts with `-` goes after `--`.",
        epilog="Exit status: 0 printed, 1 TEXT not found, found more than once, or not citable, 2 unreadable "
        "session or unknown PATH.",
    )
    ref.add_argument("session", metavar="SESSION", help="the session file")
    ref.add_argument("path", metavar="PATH", help="the document's path in the session")
    ref.add_argument("text", metavar="TEXT", help="the exact text to cite, or - to read it from standard input")
    ref.add_argument(
        "--line", type=line_number, metavar="N", help="the line TEXT starts on, when it occurs more than once"
    )
    ref.add_argument(
        "--occurrence",
        type=line_number,
        metavar="K",
        help="which occurrence of TEXT on its line (1 for the first), when it occurs more than once there",
    )
    ref.set_defaults(run=run_ref)

    show = commands.add_parser(
        "show",
        help="show a document with its cited spans marked",
        description="Print the document PATH with line numbers; under each line with cited text, ^ marks what a "
        "claim cites, + a supporting source, - a refuting one, * several kinds. Refs that do not resolve are counted "
        "at the end, not marked.",
        epilog="Exit status: 0 shown, 2 unreadable session or unknown PATH.",
    )
    show.add_argument("session", metavar="SESSION", help="the session file")
    show.add_argument("path", metavar="PATH", help="the document's path in the session")
    show.add_argument(
        "--color",
        "--colour",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the marks (default: auto, off when piped or NO_COLOR is set)",
    )
    show.add_argument(
        "--uncited",
        action="store_true",
        help="show only the lines holding text no claim cites, ~ under it, and how much of the document that is",
    )
    show.set_defaults(run=run_show)

    sync = commands.add_parser(
        "sync",
        help="bring the documents up to date with their files, carrying every ref across",
        description="Compare each document with its file (its path read from the session's folder, as `sourcecheck "
        "new` writes them; only files inside that folder, symlinks resolved) and carry the refs into a changed "
        "document across the change: a ref whose characters survive is re-anchored to where they are now, text "
        "added beside them or not (lines aligned as a diff aligns them: a copy is never taken for the original); a "
        "ref whose text was cut and pasted elsewhere follows it (moved); a ref whose text was edited or deleted is "
        "named with its claim, what it cited and what stands there now, and its document is kept as it was until "
        "you accept the change (--accept), which never points a ref at other text. Only the content strings, the "
        "coordinates that move and what accepting removes are rewritten; the session is written atomically, and "
        "not at all if it changed since it was read.",
        epilog="Exit status: 0 every document now equals its file (--check: already does) and nothing accepted "
        "leaves the check failing; 1 a ref cites text that changed (its document kept as it was), a file is "
        "missing or not read, an accepted change left a claim without sources or a ref as it was, or (--check) a "
        "document would change; 2 unreadable session.",
    )
    sync.add_argument("session", metavar="SESSION", nargs="?", help="the session file")
    mode = sync.add_mutually_exclusive_group()
    mode.add_argument(
        "--check", action="store_true", help="only report; write nothing (exit 1 if anything would change)"
    )
    mode.add_argument(
        "--accept",
        nargs="*",
        metavar="PATH",
        help="also accept the changes of the documents named (every one when none is named): an edited ref is "
        "re-anchored to exactly the aligned new text, a deleted source is removed (its claim kept), an annotation "
        "whose claim was deleted is removed; each printed with its claim, was / now and the verdict it leaves",
    )
    sync.add_argument(
        "--json",
        action="store_true",
        help="print JSON Lines: one object per document (path, state, action, and each ref into it with pointer, "
        "claim, state, was, now)",
    )
    sync.add_argument(
        "--read-hidden",
        action="store_true",
        help="also read documents in hidden folders or files (`.github/README.md`); by default they are not read, "
        "since a session from someone else may list `.git/config` or `.env` to copy their secrets into it",
    )
    sync.add_argument(
        "--max-size-mb",
        type=size_mb,
        default=disk.MAX_SIZE_MB,
        metavar="MB",
        help=f"read no file larger than this (default {disk.MAX_SIZE_MB})",
    )
    sync.set_defaults(run=run_sync)
    adding.add_parser(commands)
    importing.add_parsers(commands)
    return parser


__all__ = ["Refused", "main"]

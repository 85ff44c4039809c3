"""Writing sessions from the command line: make one, cite text, see what is cited, keep up.

    sourcecheck new FILE... [-o OUT]          a session with one document per file
    sourcecheck ref SESSION PATH TEXT         the ref whose resolved text is exactly TEXT
    sourcecheck show SESSION PATH             the document, its cited spans marked
    sourcecheck sync SESSION [--check]        re-read the documents' files; report refs that moved
    sourcecheck report SESSION [-o FILE]      the review report, one HTML page (cli/report.py)

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
from typing import Any

from .. import disk
from ..core import resync
from ..core.analysis import Analysis
from ..core.display import json_visible, shorten, visible
from ..core.refs import Boundaries, Uncitable, cite, find_text, nearest_line, resolves_to
from ..core.session import Document, Ref, pointer
from ..core.syntax import escape_lone_surrogates
from . import report
from .files import (
    Refused,
    decode,
    load_session,
    read_input,
    read_source,
    refuse_output,
    shown_name,
    use_colour,
    write_atomically,
)

COMMANDS = ("new", "ref", "show", "sync", "report")


def is_command(argv: Sequence[str]) -> bool:
    """Whether ``argv`` runs a subcommand: its first argument names one, and no file (a
    directory does not count: it could not be checked anyway) of that name exists here."""
    if not argv or argv[0] not in COMMANDS:
        return False
    return not (os.path.exists(argv[0]) and not os.path.isdir(argv[0]))


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


def quoted(text: str, width: int = 60) -> str:
    """Untrusted text in backticks, on one line, shown safely and cut when long."""
    return "`" + visible(shorten(text, width)) + "`"


def in_quotes(text: str, width: int = 60) -> str:
    """Untrusted text as a JSON string, on one line, shown safely and cut when long."""
    return visible(json.dumps(shorten(text, width), ensure_ascii=False))


def plural(count: int, word: str, words: str | None = None) -> str:
    return f"{count} {word if count == 1 else (words or word + 's')}"


def document_path(given: str) -> str:
    """A command-line file name as a document path: POSIX slashes, no leading ``./``."""
    return re.sub(r"^(?:\./+)+", "", given.replace("\\", "/"))


def find_document(analysis: Analysis, name: str, path: str) -> Document:
    document = analysis.session.by_path.get(path)
    if document is not None:
        return document
    paths = list(analysis.session.by_path)
    if not paths:
        raise Refused(f"{shown_name(name)} has no documents; make one with `sourcecheck new FILE...`")
    listed = ", ".join(quoted(p, 40) for p in paths[:20]) + (f" and {len(paths) - 20} more" if len(paths) > 20 else "")
    raise Refused(f"no document {quoted(path)} in {shown_name(name)}; its documents are: {listed}")


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


def read_text_argument(text: str) -> str:
    if text != "-":
        return text
    stdin = sys.stdin
    if stdin is None:
        raise Refused("TEXT is `-` (read standard input), but there is no standard input; give TEXT as an argument")
    if stdin.isatty():
        raise Refused("TEXT is `-` (read standard input), but standard input is a terminal; pipe the text in")
    data = read_input("-") if hasattr(stdin, "buffer") else stdin.read().encode("utf-8", "surrogateescape")
    value = decode("<stdin>", data, "give TEXT as UTF-8")
    # `echo` and editors end what they write with a line break; a ref cannot end on one.
    return value[:-2] if value.endswith("\r\n") else value[:-1] if value.endswith("\n") else value


def lines_list(lines: list[int]) -> str:
    counts: dict[int, int] = {}
    for line in lines:
        counts[line] = counts.get(line, 0) + 1
    parts = [f"{line} ({n} times)" if n > 1 else str(line) for line, n in counts.items()]
    return ("line " if len(parts) == 1 else "lines ") + ", ".join(parts)


def not_found(document: Document, text: str) -> str:
    message = f"{quoted(text)} is not in {quoted(document.path)}"
    literal = text.replace("\\n", "\n")
    if literal != text and find_text(document, literal):
        return (
            message + "; TEXT holds `\\n` typed as two characters, and the document has it with real line breaks: "
            "pass a real line break (in bash: $'first\\nsecond') or give `-` and pipe TEXT in"
        )
    at = document.content.lower().find(text.lower())
    if at >= 0:
        line = document.content.lower().count("\n", 0, at) + 1
        return message + f"; it is on line {line} with other capitals (matching is exact): cite it as written there"
    near = nearest_line(document, text)
    if near is None:
        return message + "; no line is like it either: check PATH and TEXT"
    return message + f"; the nearest is line {near[0]}: {quoted(near[1], 80)}"


def run_ref(args: argparse.Namespace) -> int:
    analysis = load_session(args.session).analysis
    document = find_document(analysis, args.session, args.path)
    text = read_text_argument(args.text)
    if not text:
        raise Refused("TEXT is empty; give the text to cite, exactly as the document has it")
    line: int | None = args.line
    total = len(document.lines)
    if line is not None and not 1 <= line <= total:
        raise Refused(f"--line {line} is not a line of {quoted(document.path)}, which has {plural(total, 'line')}")
    everywhere = find_text(document, text)
    if not everywhere:
        raise Refused(not_found(document, text), 1)
    chosen = [o for o in everywhere if line is None or o.line == line]
    if not chosen:
        raise Refused(
            f"{quoted(text)} does not start on line {line} of {quoted(document.path)}; it starts on "
            f"{lines_list([o.line for o in everywhere])}",
            1,
        )
    if len(chosen) > 1:
        if line is not None or len({o.line for o in chosen}) == 1:
            where = chosen[0].line
            columns = ", ".join(str(o.offset - document.line_starts[where - 1] + 1) for o in chosen)
            raise Refused(
                f"{quoted(text)} occurs {len(chosen)} times on line {where} of {quoted(document.path)} (columns "
                f"{columns}); --line cannot tell them apart: cite a longer TEXT that occurs once on that line",
                1,
            )
        raise Refused(
            f"{quoted(text)} occurs {len(chosen)} times in {quoted(document.path)}: "
            f"{lines_list([o.line for o in chosen])}; add --line N to choose the line it starts on",
            1,
        )
    found = chosen[0]
    result = cite(document, found.offset, found.offset + len(text))
    if isinstance(result, Uncitable):
        raise Refused(f"cannot cite {quoted(text)} on line {found.line} of {quoted(document.path)}: {result.reason}", 1)
    check_ref(document, result, text)
    sys.stdout.write(escape_lone_surrogates(json.dumps(result.as_json(), ensure_ascii=False)) + "\n")
    return 0


def check_ref(document: Document, boundaries: Boundaries, text: str) -> None:
    """Never print a coordinate that does not give back exactly the text asked for."""
    if resolves_to(document, boundaries) != text:
        raise Refused(
            f"internal error: the ref made for {quoted(text)} does not resolve to it, so none is printed; "
            "please report this with the session",
            1,
        )


# --- show ----------------------------------------------------------------------------

CLAIM, SUPPORTS, REFUTES, OTHER = 1, 2, 4, 8
MARKS = {CLAIM: "^", SUPPORTS: "+", REFUTES: "-", OTHER: "?"}
SEVERAL = "*"
COLOURS = {"^": "1;35", "+": "1;32", "-": "1;31", "?": "1;33", "*": "1;36"}
LEGEND = {CLAIM: "claim", SUPPORTS: "supporting source", REFUTES: "refuting source", OTHER: "source, no valid polarity"}


def kind_of(ref: Ref) -> int:
    if not ref.is_source:
        return CLAIM
    return {"supports": SUPPORTS, "refutes": REFUTES}.get(ref.polarity if isinstance(ref.polarity, str) else "", OTHER)


def coverage(document: Document, refs: list[Ref]) -> bytes:
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


def painted_marks(marks: str, colour: bool) -> str:
    if not colour:
        return marks
    return "".join(
        paint(run.group(), COLOURS.get(run.group()[0], "0"), True) if run.group()[0] != " " else run.group()
        for run in re.finditer(r"(.)\1*", marks)
    )


def ref_count(document: Document, refs: list[Ref]) -> str:
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


# --- sync ----------------------------------------------------------------------------


def ref_label(ref: Ref) -> str:
    """Where a ref is, for a person: its pointer in the session file."""
    return visible(pointer(ref.json_path))


def lines_of(line: int, end_line: int) -> str:
    return f"line {line}" if line == end_line else f"lines {line}-{end_line}"


def ref_place(ref: Ref) -> str:
    where = lines_of(ref.start.line, ref.end.line) if ref.start is not None and ref.end is not None else "?"
    return f"{quoted(ref.doc_path or '')}, {where}"


def read_files(session: Any, max_size_mb: int) -> dict[str, resync.FileState]:
    """What reading the file of each document of the session gives (see ``disk.document_file``)."""
    analysis: Analysis = session.analysis
    return {path: disk.document_file(session.folder, path, max_size_mb) for path in analysis.session.by_path}


def dump_json(value: Any) -> str:
    return json_visible(escape_lone_surrogates(json.dumps(value, ensure_ascii=False, indent=2)))


def run_sync(args: argparse.Namespace) -> int:
    session = load_session(args.session, args.max_size_mb)
    analysis = session.analysis
    drift = resync.plan(analysis, read_files(session, args.max_size_mb))
    accept: bool = args.accept
    check: bool = args.check
    updated = [] if check else drift.updated(accept)
    written = False
    if updated:
        text = resync.applied(analysis.text, resync.edits(drift, accept))
        write_atomically(session.name, text, expect=session.data)
        written = True
    if args.json:
        sys.stdout.write(dump_json(sync_json(session, drift, check, accept, written)) + "\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in sync_lines(session, drift, check, accept)))
    return sync_exit(drift, check, accept)


def sync_exit(drift: resync.Drift, check: bool, accept: bool) -> int:
    """0 when, after this run, every document equals its file (``--check``: already does)."""
    if check:
        return 0 if drift.up_to_date else 1
    for document in drift.documents:
        if document.state == "unreadable":
            return 1
        if document.state == "changed":
            if not accept and document.changed_refs:
                return 1
            if accept and any(ref.anchor is None for ref in document.changed_refs):
                return 1
    return 0


def _said(text: str | None) -> str:
    return in_quotes(text) if text is not None else "deleted"


def sync_lines(session: Any, drift: resync.Drift, check: bool, accept: bool) -> list[str]:
    """What ``sync`` says of each document, then of each changed ref, then in sum."""
    analysis: Analysis = session.analysis
    shown = session.shown
    out: list[str] = []
    kept_back = missing = updated = 0
    for document in drift.documents:
        label = quoted(document.document.path)
        if document.state == "same":
            continue
        if isinstance(document.file, resync.Unreadable):
            missing += 1
            out.append(f"{label}: {document.file.reason}; its document is kept as it was")
            continue
        note = (
            f" ({document.file.note})" if isinstance(document.file, resync.FileContent) and document.file.note else ""
        )
        kept, changed = document.kept_refs, document.changed_refs
        moving = sum(1 for ref in kept if ref.moves)
        carried = f"{plural(len(kept), 'ref')} into it {'keeps its' if len(kept) == 1 else 'keep their'} text"
        if moving:
            carried += f" ({moving} re-anchored)"
        if not changed:
            updated += 1
            what = "`sourcecheck sync` would update it" if check else "its content is updated"
            out.append(f"{label}: its file has changed{note}; {carried}; {what}")
        elif accept and not check:
            updated += 1
            out.append(
                f"{label}: its file has changed{note}; {carried}, {plural(len(changed), 'ref')} "
                f"{'cites' if len(changed) == 1 else 'cite'} text that changed; accepted: its content is updated"
            )
        else:
            kept_back += 1
            out.append(
                f"{label}: its file has changed{note}; {carried}, but {plural(len(changed), 'ref')} "
                f"{'cites' if len(changed) == 1 else 'cite'} text that changed: the document is kept as it was"
            )
        for ref in changed:
            extent = analysis.tree.locate(ref.ref.json_path)
            line = analysis.lines.line_of(extent[0]) + 1 if extent is not None else 0
            said = f"{shown}:{line}: {ref_label(ref.ref)} ({ref_place(ref.ref)}): "
            said += f"was {_said(ref.was)}, now {_said(ref.now)}"
            if ref.reason is not None:
                said += f" ({visible(ref.reason)})"
            if accept and not check:
                if ref.anchor is not None:
                    where = lines_of(ref.anchor.start_line, ref.anchor.end_line)
                    said += f"; re-anchored to {where}: judge its claim again"
                else:
                    said += f"; left as it was (`sourcecheck {shown}` reports it)"
            out.append(said)
    out.append(sync_summary(shown, drift, check, accept, updated, kept_back, missing))
    return out


def sync_summary(
    shown: str, drift: resync.Drift, check: bool, accept: bool, updated: int, kept_back: int, missing: int
) -> str:
    if drift.up_to_date:
        return f"{shown}: up to date: every document equals its file"
    parts = []
    if updated:
        parts.append(f"{plural(updated, 'document')} {'out of date' if check else 'updated'}")
    if kept_back:
        parts.append(
            f"{plural(kept_back, 'document')} kept as {'it was' if kept_back == 1 else 'they were'} "
            "(refs cite text that changed)"
        )
    if missing:
        parts.append(f"{plural(missing, 'file')} not read")
    advice = ""
    if kept_back and not accept:
        advice = f"; judge the changed refs, then run `sourcecheck sync --accept {shown}`"
    elif check and updated:
        advice = f"; run `sourcecheck sync {shown}` to update it"
    return f"{shown}: " + ", ".join(parts) + advice


def sync_json(session: Any, drift: resync.Drift, check: bool, accept: bool, written: bool) -> dict[str, Any]:
    """``sync --json``: each document's state and each ref carried or changed, for programs."""
    updated = {id(d) for d in ([] if check else drift.updated(accept))}
    documents, refs = [], []
    for document in drift.documents:
        entry: dict[str, Any] = {"path": document.document.path, "state": document.state}
        if isinstance(document.file, resync.Unreadable):
            entry["reason"] = document.file.reason
        elif document.file.note:
            entry["note"] = document.file.note
        if document.state == "changed":
            entry["updated"] = id(document) in updated
        documents.append(entry)
        for ref in document.refs:
            if ref.state == "kept" and not ref.moves:
                continue
            refs.append(
                {
                    "pointer": ref.pointer,
                    "path": document.document.path,
                    "state": ref.state,
                    "was": ref.was,
                    "now": ref.now,
                    "ref": ref.anchor.as_json() if ref.anchor is not None else None,
                }
            )
    return {"exit_code": sync_exit(drift, check, accept), "written": written, "documents": documents, "refs": refs}


# --- arguments -----------------------------------------------------------------------


def line_number(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a line number (1, 2, ...)") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sourcecheck", description="Write SourceCheck sessions.")
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
    show.set_defaults(run=run_show)

    sync = commands.add_parser(
        "sync",
        help="bring the documents up to date with their files, carrying every ref across",
        description="Compare each document with its file (its path read from the session's folder, as `sourcecheck "
        "new` writes them; only files inside that folder, symlinks resolved) and carry the refs into a changed "
        "document across the change: a ref whose text survives is re-anchored to where it moved (lines aligned as a "
        "diff aligns them; boundary strings kept where still unique); a ref whose text was edited or deleted is "
        "named with what it cited and what stands there now, and its document is kept as it was until you accept "
        "the change (--accept). Only the content strings and the coordinates that move are rewritten; the session "
        "is written atomically, and not at all if it changed since it was read.",
        epilog="Exit status: 0 every document now equals its file; 1 a ref cites text that changed (its document "
        "kept as it was), a file is missing or not read, or (--check) a document would change; 2 unreadable session.",
    )
    sync.add_argument("session", metavar="SESSION", help="the session file")
    mode = sync.add_mutually_exclusive_group()
    mode.add_argument(
        "--check", action="store_true", help="only report; write nothing (exit 1 if anything would change)"
    )
    mode.add_argument(
        "--accept",
        action="store_true",
        help="also update the documents whose refs cite changed text, re-anchoring each such ref to the text that "
        "stands at its place now (printed as was / now, to judge again)",
    )
    sync.add_argument(
        "--json", action="store_true", help="print one JSON object: each document's state, each ref moved or changed"
    )
    sync.add_argument(
        "--max-size-mb",
        type=int,
        default=disk.MAX_SIZE_MB,
        metavar="MB",
        help=f"read no file larger than this (default {disk.MAX_SIZE_MB})",
    )
    sync.set_defaults(run=run_sync)
    return parser


__all__ = ["COMMANDS", "Refused", "is_command", "main"]

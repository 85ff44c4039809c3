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
from dataclasses import dataclass
from typing import Any

from ..core.analysis import Analysis
from ..core.display import shorten, visible
from ..core.positions import Encoding
from ..core.refs import Boundaries, Uncitable, cite, find_text, nearest_line, resolves_to
from ..core.session import Document, Ref
from ..core.syntax import encode_string, escape_lone_surrogates
from . import report
from .files import Refused, write_atomically

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


def shown_name(name: str) -> str:
    return visible(name)


def read_bytes(name: str) -> bytes:
    """A file's bytes, or a refusal that says why not."""
    try:
        with open(name, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise Refused(f"{shown_name(name)}: no such file") from None
    except IsADirectoryError:
        raise Refused(f"{shown_name(name)}: is a directory; give the files in it") from None
    except PermissionError:
        raise Refused(f"{shown_name(name)}: permission denied") from None
    except OSError as error:
        raise Refused(f"{shown_name(name)}: {error.strerror or error}") from None


def decode(name: str, data: bytes, advice: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise Refused(
            f"{shown_name(name)}: is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}, "
            f"line {line}); {advice}"
        ) from None


def normalized(text: str) -> tuple[str, str | None]:
    """``text`` as a document's content: LF line breaks, no byte order mark; and what was
    changed, said for a person (None: nothing)."""
    changes = []
    if text.startswith("\ufeff"):
        text = text[1:]
        changes.append("byte order mark removed")
    crlf = text.count("\r\n")
    lone_cr = text.count("\r") - crlf
    if crlf or lone_cr:
        kinds = " and ".join(kind for kind, n in (("CRLF", crlf), ("CR", lone_cr)) if n)
        changes.append(f"{kinds} line breaks normalized to LF")
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, "; ".join(changes) or None


def read_source(name: str) -> tuple[str, str | None]:
    """A file to be a document: its content and what normalizing it changed."""
    return normalized(decode(name, read_bytes(name), "convert it to UTF-8 first (e.g. with iconv)"))


def document_path(given: str) -> str:
    """A command-line file name as a document path: POSIX slashes, no leading ``./``."""
    return re.sub(r"^(?:\./+)+", "", given.replace("\\", "/"))


def load_session(name: str) -> Analysis:
    """The analysis of a session file, refused when it cannot be read as JSON."""
    text = decode(name, read_bytes(name), "a session is UTF-8 JSON")
    if text.startswith("\ufeff"):
        raise Refused(
            f"{shown_name(name)}: starts with a byte order mark (BOM), which JSON does not allow; save it as "
            "UTF-8 without BOM"
        )
    analysis = Analysis(text)
    broken = [finding for finding in analysis.findings if finding.code == "invalid-json"]
    if broken:
        span = analysis.finding_span(broken[0], Encoding.UTF32)
        raise Refused(
            f"{shown_name(name)}:{span.start.line + 1}:{span.start.character + 1}: not valid JSON: "
            f"{visible(broken[0].message)}; fix it first (`sourcecheck {shown_name(name)}` lists every finding)"
        )
    return analysis


def find_document(analysis: Analysis, name: str, path: str) -> Document:
    document = analysis.session.by_path.get(path)
    if document is not None:
        return document
    paths = list(analysis.session.by_path)
    if not paths:
        raise Refused(f"{shown_name(name)} has no documents; make one with `sourcecheck new FILE...`")
    listed = ", ".join(quoted(p, 40) for p in paths[:20]) + (f" and {len(paths) - 20} more" if len(paths) > 20 else "")
    raise Refused(f"no document {quoted(path)} in {shown_name(name)}; its documents are: {listed}")


def use_colour(choice: str, stream: Any) -> bool:
    """Colour as the check command decides it: --color, then NO_COLOR / TERM=dumb, then a tty."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


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
        if os.path.isdir(output):
            raise Refused(f"-o {shown_name(output)}: is a directory; give a file name such as session.json")
        if os.path.lexists(output) and not args.force:
            raise Refused(f"-o {shown_name(output)}: already exists; add --force to overwrite it, or choose another")
        if os.path.exists(output) and any(os.path.exists(given) and os.path.samefile(given, output) for given in files):
            raise Refused(f"-o {shown_name(output)}: is also one of the files to read; choose another output")
    documents = []
    notes = []
    for given in files:
        content, change = read_source(given)
        documents.append({"path": document_path(given), "content": content})
        if change:
            notes.append(f"sourcecheck: {shown_name(given)}: {change}")
    notes += unreachable_notes(files, output)
    text = escape_lone_surrogates(json.dumps({"documents": documents, "annotations": []}, ensure_ascii=False, indent=2))
    for note in notes:
        sys.stderr.write(note + "\n")
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        write_atomically(output, text + "\n")
    return 0


def unreachable_notes(files: list[str], output: str | None) -> list[str]:
    """Warnings for documents that ``sync`` will not find again from where the session is
    written (standard output: the current folder is assumed)."""
    folder = os.path.dirname(os.path.abspath(output)) if output is not None else os.getcwd()
    outside, elsewhere = [], []
    for given in files:
        path = document_path(given)
        if outside_reason(path) is not None:
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
    data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode("utf-8", "surrogateescape")
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
    analysis = load_session(args.session)
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
    analysis = load_session(args.session)
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


def outside_reason(path: str) -> str | None:
    """Why ``sync`` will not read a document's path (None: it will)."""
    if os.path.isabs(path) or re.match(r"^[A-Za-z]:", path):
        return "is an absolute path; sync reads only files in the session's folder or below it"
    if os.path.normpath(path).split(os.sep)[0] == "..":
        return "is outside the session's folder; sync reads only files in the session's folder or below it"
    return None


@dataclass
class Change:
    """A ref whose text is not what it was."""

    ref: Ref
    before: str | None
    after: str | None
    reason: str | None  # why it does not resolve now


def ref_label(ref: Ref) -> str:
    parts = [str(part) for part in ref.json_path]
    if ref.is_source:
        return "/".join(parts[:-2]) + f" sources/{parts[-1]}"
    return "/".join(parts[:-1]) + f" {parts[-1]}"


def ref_place(ref: Ref) -> str:
    where = f"line {ref.start.line}" if ref.start is not None else "?"
    if ref.start is not None and ref.end is not None and ref.end.line != ref.start.line:
        where = f"lines {ref.start.line}-{ref.end.line}"
    return f"{quoted(ref.doc_path or '')}, {where}"


def run_sync(args: argparse.Namespace) -> int:
    name: str = args.session
    analysis = load_session(name)
    folder = os.path.dirname(os.path.abspath(name))
    out: list[str] = []
    updates: list[tuple[Document, str]] = []
    for document in analysis.session.by_path.values():
        label = quoted(document.path)
        reason = outside_reason(document.path)
        if reason is not None:
            out.append(f"{label}: {reason}; left as it is")
            continue
        file = os.path.join(folder, document.path)
        if not os.path.isfile(file):
            what = "is a directory" if os.path.isdir(file) else "no such file"
            out.append(f"{label}: {what} beside the session ({shown_name(file)}); left as it is")
            continue
        try:
            content, normalizing = read_source(file)
        except Refused as refusal:
            out.append(f"{label}: {refusal.message}; left as it is")
            continue
        if content == document.content:
            continue
        if analysis.content_node(document) is None:
            out.append(f"{label}: its content is not a string in the session; left as it is")
            continue
        updates.append((document, content))
        note = f" ({normalizing})" if normalizing else ""
        out.append(
            f"{label}: its file has changed{note}; "
            + ("`sourcecheck sync` would update its content" if args.check else "content updated")
        )
    text = analysis.text
    # From the last string to the first: each replacement leaves the extents before it as they are.
    for node, content in sorted(
        ((analysis.content_node(document), content) for document, content in updates),
        key=lambda pair: pair[0].start if pair[0] is not None else 0,
        reverse=True,
    ):
        assert node is not None
        text = text[: node.start] + encode_string(content) + text[node.end :]
    changes: list[Change] = []
    after = analysis
    if updates:
        after = Analysis(text)
        changed_paths = {document.path for document, _ in updates}
        now = after.refs_by_path
        for ref in analysis.session.refs:
            if ref.doc_path not in changed_paths:
                continue
            new = now.get(ref.json_path)
            new_text = new.text if new is not None and new.valid else None
            old_text = ref.text if ref.valid else None
            if old_text == new_text:
                continue
            reason = None
            if new is not None and new_text is None:
                found = [f for f in after.findings if f.ref is new and f.severity.value == "error"]
                reason = f"{found[0].code}: {visible(found[0].message)}" if found else "see `sourcecheck SESSION`"
            changes.append(Change(new or ref, old_text, new_text, reason))
        if not args.check:
            write_atomically(name, text)
    shown = after if updates and not args.check else analysis
    for change in changes:
        extent = shown.tree.locate(change.ref.json_path)
        line = shown.lines.line_of(extent[0]) + 1 if extent is not None else 0
        was = in_quotes(change.before) if change.before is not None else "did not resolve"
        now_said = in_quotes(change.after) if change.after is not None else f"does not resolve ({change.reason})"
        out.append(
            f"{shown_name(name)}:{line}: {ref_label(change.ref)} ({ref_place(change.ref)}): was {was}, now {now_said}"
        )
    broke = sum(1 for change in changes if change.after is None)
    moved = len(changes) - broke
    if not updates:
        out.append(f"{shown_name(name)}: up to date")
    else:
        verb = "out of date" if args.check else "updated"
        refs = (
            f"{plural(moved, 'ref')} changed, {broke} broke"
            if changes
            else "no ref changed: every ref cites the same text"
        )
        tail = ""
        if changes:
            tail = (
                f"; run `sourcecheck sync {shown_name(name)}` to update it, then fix those refs"
                if args.check
                else f"; fix those refs (`sourcecheck {shown_name(name)}` checks them)"
            )
        elif args.check:
            tail = f"; run `sourcecheck sync {shown_name(name)}` to update it"
        out.append(f"{shown_name(name)}: {plural(len(updates), 'document')} {verb}; {refs}{tail}")
    sys.stdout.write("".join(line + "\n" for line in out))
    return 1 if changes else 0


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
        help="re-read the documents' files and report refs that changed",
        description="For each document whose path names a file in the session's folder (as `sourcecheck new` makes "
        "them), re-read the file (LF line breaks) and update the document's content when it changed, rewriting only "
        "that string in the session file; then report every ref whose text changed or that no longer resolves. "
        "Documents without a file are reported and left as they are.",
        epilog="Exit status: 0 no ref changed, 1 a ref changed or broke, 2 unreadable session.",
    )
    sync.add_argument("session", metavar="SESSION", help="the session file")
    sync.add_argument("--check", action="store_true", help="only report; write nothing")
    sync.set_defaults(run=run_sync)
    return parser


__all__ = ["COMMANDS", "Refused", "is_command", "main"]

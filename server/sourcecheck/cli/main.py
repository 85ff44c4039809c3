"""The ``sourcecheck`` command: check session files and report, for people or programs.

    sourcecheck FILE...            findings as FILE:LINE:COL lines, then a summary
    sourcecheck --json FILE        one JSON object (docs/rules.md), exit code inside
    sourcecheck --format github    workflow annotations; --format sarif: SARIF 2.1.0
    cat FILE | sourcecheck         standard input (also ``-``)
    sourcecheck FILE.jsonl         JSON Lines, one session per line (``--jsonl``: any input;
                                   with --json, one object per line: inputs.py)
    sourcecheck new|add|ref|show|sync|report
                                   writing and reviewing sessions (cli/authoring.py); a first
                                   argument naming one is a file to check when such a file exists

Exit 0 when every ref resolves and nothing is an error, 1 when a ref fails, 2 for a
schema error or unreadable input; with several files, the worst of them. Many inputs are
checked in worker processes when that pays (cli/jobs.py); ``--json`` is the object the
Python API's report is made of (``formats/json.py``), written by orjson where it writes
what ``json`` would (core/jsontext.py). Every format is a row of one table
(``formats/__init__.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import stat
import sys
import sysconfig
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO

from .. import disk
from ..core.display import EscapingParser, visible
from ..core.positions import Encoding
from ..formats import FORMATS, NAMES, Options, Output, Rendered
from ..inputs import (
    Checked,
    Refused,
    check_bytes,
    check_file,
    is_jsonl,
    open_lines,
    read_input,
    read_lines,
    session_of,
    shown_name,
    too_large,
)
from ..version import __version__
from . import fixing, folders
from .commands import is_command
from .files import size_mb, use_colour
from .jobs import WorkerDied, batched, cores, in_order

# --- main -------------------------------------------------------------------------

FAIL_ON = frozenset({"unresolved", "unverified", "refuted", "contested", "weak"})


MAX_SIZE_MB = disk.MAX_SIZE_MB


def render(name: str, data: bytes | None, options: Options) -> Rendered:
    """The report of one file (``data``: its bytes, read already: standard input)."""
    checked = check_file(name, options.max_size_mb) if data is None else check_bytes(name, data)
    return rendered(checked, options, checked.name)


def render_line(file: str, line: int, data: bytes | None, size: int, options: Options) -> Rendered:
    """The report of the session on one line of a JSON Lines file (``data`` None: the line
    was too large to read, ``size`` bytes), checked as a text of its own, ``FILE:LINE``."""
    name = f"{file}:{line}"
    checked = too_large(name, size, options.max_size_mb) if data is None else check_bytes(name, data)
    return rendered(checked, options, file, line)


def rendered(
    checked: Checked,
    options: Options,
    file: str,
    line: int | None = None,
    extra: dict[str, Any] | None = None,
    least: int = 0,
) -> Rendered:
    """A checked input in the chosen format; ``file`` names it (the file a session of JSON
    Lines is on, at ``line``); ``extra``: keys the ``--json`` object ends with; ``least``:
    the exit code is at least this (a fix that could not be written)."""
    if _keeping == os.getpid():
        _kept[:] = [checked]  # see console()
    checked.fail_on = options.fail_on_of.get(file, options.fail_on)
    note = (
        f"sourcecheck: {checked.name}: {checked.unreadable or checked.warning}"
        if (checked.unreadable or checked.warning)
        else None
    )
    result = Rendered(max(checked.exit_code, least), note=note, line=line, file=file)
    FORMATS[options.fmt].render(checked, options, result, extra)
    return result


Unit = tuple[str, str, int, bytes | None, int]
"""One input: ``("file", name, 0, bytes of standard input or None, 0)``, ``("line", file,
number, bytes or None when too large, size)``, ``("refused", name, 0, why (UTF-8), 0)``
for standard input that could not be read, or ``("end", file, 0, None, 0)`` after the last
line of a JSON Lines file."""


def render_batch(options: Options, batch: list[Unit]) -> list[Rendered]:
    """Each input of a batch rendered (in a worker, or here)."""
    found = []
    for kind, name, number, data, size in batch:
        if kind == "line":
            found.append(render_line(name, number, data, size, options))
        elif kind == "file":
            found.append(render(name, data, options))
        elif kind == "refused":
            checked = Checked(shown_name(name), unreadable=(data or b"").decode("utf-8"))
            found.append(rendered(checked, options, checked.name))
        else:
            found.append(Rendered(0, end=name))
    return found


class Inputs:
    """The inputs named on the command line, one :data:`Unit` at a time with its size in
    bytes: a JSON Lines file (``*.jsonl``, or any with ``--jsonl``) a line at a time, any
    other whole; and how many bytes are left to read (see ``jobs.in_order``)."""

    def __init__(self, files: list[str], jsonl: bool, options: Options) -> None:
        self.files = files
        self.jsonl = jsonl
        self.options = options
        self.next_file = 0
        self.reading: BinaryIO | None = None  # the JSON Lines file being read
        self.stdin_data: bytes | None = None
        self.stdin_refused: str | None = None

    def is_jsonl(self, name: str) -> bool:
        return self.jsonl or (name != "-" and is_jsonl(name))

    def __iter__(self) -> Iterator[tuple[Unit, int]]:
        limit = self.options.max_size_mb * 1_000_000
        while self.next_file < len(self.files):
            name = self.files[self.next_file]
            self.next_file += 1
            if not self.is_jsonl(name):
                if name == "-":  # read here (a worker has no standard input), once
                    if self.stdin_data is None and self.stdin_refused is None:
                        try:
                            self.stdin_data = read_input("-", self.options.max_size_mb)
                        except Refused as refusal:
                            self.stdin_refused = refusal.message.partition(": ")[2]
                    if self.stdin_refused is not None:
                        yield ("refused", name, 0, self.stdin_refused.encode("utf-8"), 0), 0
                    else:
                        assert self.stdin_data is not None
                        yield ("file", name, 0, self.stdin_data, 0), len(self.stdin_data)
                else:
                    yield ("file", name, 0, None, 0), _size(name)
                continue
            shown = shown_name(name)
            handle = sys.stdin.buffer if name == "-" else open_lines(name)
            if handle is None:
                yield ("file", name, 0, None, 0), 0  # check_file says why
                continue
            self.reading = handle
            try:
                for number, line, size in read_lines(handle, limit):
                    session = session_of(line) if line is not None else None
                    if line is None or session is not None:
                        yield ("line", shown, number, session, size), size
            finally:
                self.reading = None
                if handle is not sys.stdin.buffer:
                    handle.close()
            yield ("end", shown, 0, None, 0), 0

    def remaining(self) -> int | None:
        """Bytes left to read (None: unknown, as on a pipe)."""
        left = 0
        reading = self.reading
        if reading is not None:
            try:
                status = os.fstat(reading.fileno())
                if not stat.S_ISREG(status.st_mode):
                    return None
                left += status.st_size - reading.tell()
            except (OSError, ValueError):
                return None
        for name in self.files[self.next_file :]:
            if name == "-" and self.stdin_data is None:
                return None
            left += len(self.stdin_data or b"") if name == "-" else _size(name)
        return left


def _size(name: str) -> int:
    try:
        return os.stat(name).st_size
    except OSError:
        return 0


def rules_path() -> str | None:
    """Where the rules (docs/rules.md) are on this machine: the checkout's, for a clone or an
    editable install, else the copy a wheel installs under ``share/doc/sourcecheck``."""
    here = Path(__file__).resolve().parents[3] / "docs" / "rules.md"
    candidates = [here] + [
        Path(sysconfig.get_path("data", scheme)) / "share" / "doc" / "sourcecheck" / "rules.md"
        for scheme in dict.fromkeys([sysconfig.get_default_scheme(), f"{os.name}_user"])
        if scheme in sysconfig.get_scheme_names()
    ]
    return next((str(path) for path in candidates if path.is_file()), None)


def epilog() -> str:
    rules = rules_path()
    where = (
        f"The rules every check follows, each finding code and the --json form: {rules}"
        if rules
        else (
            "The rules every check follows, each finding code and the --json form: docs/rules.md of the sourcecheck "
            "repository (not installed here)"
        )
    )
    return f"""commands (sourcecheck COMMAND --help for each):
  sourcecheck new FILE... -o SESSION        a session with one document per file
  sourcecheck add SESSION --claim PATH TEXT --supports PATH TEXT [--confidence X] ...
                                            add an annotation: a claim and its sources, by their text
  sourcecheck ref SESSION PATH TEXT         print the ref that cites TEXT
  sourcecheck show SESSION PATH [--uncited] a document with its cited (or uncited) text marked
  sourcecheck sync SESSION [--check]        carry the refs across changes to the documents' files
  sourcecheck report SESSION [-o FILE]      the review report, one HTML page
  sourcecheck import FORMAT RESPONSE -o SESSION
                                            a session of a model's cited answer (anthropic, gemini,
                                            cohere) or of W3C Web Annotations (w3c)
  sourcecheck export w3c SESSION [-o OUT]   the session as W3C Web Annotations

A first argument that names a command runs it, unless a file of that name exists in the
current folder: then that file is checked (write ./new to make that explicit).

Exit status: 0 every ref resolves, 1 a ref fails to resolve (or --fail-on), 2 invalid JSON,
schema error or unreadable input.

{where}
"""


def build_parser() -> argparse.ArgumentParser:
    parser = EscapingParser(
        prog="sourcecheck",
        description="Check SourceCheck sessions: every ref must resolve to exactly one span of its document.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=epilog(),
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="PATH",
        help="session files, or folders to check every *.sourcecheck.json and *.sourcecheck.jsonl under "
        "(.gitignore honoured); '-' or none reads standard input",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object (as docs/rules.md fixes it); same as --format json"
    )
    parser.add_argument(
        "--format",
        choices=NAMES,
        default=None,
        help="human (default), json, github (workflow annotations) or sarif (SARIF 2.1.0)",
    )
    parser.add_argument(
        "--jsonl",
        action="store_true",
        help="read every input (standard input too) as JSON Lines, one session per line, as a *.jsonl file is; "
        "with --json, print JSON Lines: one object per session",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="check in N processes at a time (default: as many as cores, once there is enough work for them)",
    )
    parser.add_argument(
        "--max-size-mb",
        type=size_mb,
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
        "--position-encoding",
        choices=[encoding.value for encoding in Encoding],
        default=Encoding.UTF16.value,
        help="how --json counts the columns of every range and edit: utf-16 (default, as LSP and docs/rules.md), "
        "utf-8 (bytes) or utf-32 (code points, as Python's str); the object says it in position_encoding",
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
    folders.add_arguments(parser)
    parser.add_argument("--version", action="version", version=f"sourcecheck {__version__}")
    return parser


_keeping: int | None = None  # the process that keeps its last analysis to the end (console)
_kept: list[Checked] = []


def console() -> None:
    """The ``sourcecheck`` program (the console script, ``python -m sourcecheck``):
    :func:`guarded`, with the run's policy kept to the end (turning the collector on again would
    have it look at everything the run built), after which a check ends the process at
    once, its output flushed, without freeing what it built object by object (the analysis
    of a 12 MB session took 0.15 s of a 1 s run to free; the last input's is kept to the
    end, the others are freed as the run goes). The writing commands end as any program does."""
    global _keeping
    _keeping = os.getpid()
    code = guarded()
    if not _kept:
        raise SystemExit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a pipe closed by its reader
            pass
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """The command: check the files ``argv`` names (``sys.argv[1:]`` by default), report
    on stdout, and return the exit code (see :func:`guarded`). In a process of its own (the
    console script) or another program's: the collector and the streams' error handling,
    which the run changes, are as they were when it returns."""
    collecting = gc.isenabled()
    streams = [(s, s.errors) for s in (sys.stdout, sys.stderr) if isinstance(s, io.TextIOWrapper)]
    try:
        return guarded(argv)
    finally:
        for stream, errors in streams:
            if stream.errors != errors:
                try:
                    stream.reconfigure(errors=errors)
                except (OSError, ValueError):  # closed, or a pipe closed by its reader
                    pass
        if collecting:
            gc.enable()


def guarded(argv: list[str] | None = None) -> int:
    """:func:`run`, never a traceback: a reader that went away (``| head``) ends it quietly,
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
    """The run, with its policy: the collector off (a short run that allocates much and
    frees little: it only costs), and printing that never fails, whatever a document holds."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    arguments = sys.argv[1:] if argv is None else argv
    if is_command(arguments):
        from . import authoring  # imported only to run one: checking files needs none of it

        return authoring.main(arguments)
    args = build_parser().parse_intermixed_args(argv)  # options and paths in any order
    gc.disable()
    try:
        paths = folders.resolve(args, args.files or ["-"])
    except Refused as refusal:
        sys.stderr.write(f"sourcecheck: {refusal.message}\n")
        return refusal.code
    if args.show_files:
        sys.stdout.write("".join(line + "\n" for line in paths.shown))
        return 0
    for folder in paths.empty:
        sys.stderr.write(f"sourcecheck: {visible(folder)}: holds no session (*.sourcecheck.json, *.jsonl)\n")
    if not paths.files:
        return 0
    fmt = args.format or ("json" if args.json else None) or paths.output_format or "human"
    files = paths.files
    if "-" in files and sys.stdin is not None and sys.stdin.isatty():
        sys.stderr.write(
            "sourcecheck: no file given and standard input is a terminal; try: sourcecheck FILE (or --help)\n"
        )
        return 2
    explicit = args.jobs is not None and args.jobs > 0
    jobs = args.jobs if explicit else cores()
    fail_on = (
        frozenset(part.strip() for part in args.fail_on.split(",") if part.strip()) if args.fail_on else frozenset()
    )
    unknown = fail_on - FAIL_ON
    if unknown:
        sys.stderr.write(
            f"sourcecheck: --fail-on takes {', '.join(sorted(FAIL_ON))}, not {visible(', '.join(sorted(unknown)))}\n"
        )
        return 2
    lines = args.jsonl or any(is_jsonl(name) for name in files if name != "-")
    options = Options(
        fmt,
        use_colour(args.color, sys.stdout),
        args.max_size_mb,
        fail_on,
        several=len(files) > 1,
        lines_out=FORMATS[fmt].per_line and lines,
        fail_on_of={} if args.fail_on else paths.fail_on,  # --fail-on wins over each file's configuration
        encoding=Encoding(args.position_encoding),
    )
    if args.fix or args.diff or args.unsafe_fixes:
        return fix_and_report(args, files, options)
    inputs = Inputs(files, args.jsonl, options)
    parallel = jobs > 1 if explicit else None  # --jobs N: N processes; by default, when it pays
    results = in_order(batched(inputs), partial(render_batch, options), jobs, parallel, inputs.remaining)
    try:
        return write(results, options)
    except BrokenPipeError:  # the reader stopped reading (| head): no more to check
        results.close()  # the pool, if any, is shut down
        raise
    except WorkerDied:
        sys.stdout.flush()
        sys.stderr.write(
            "sourcecheck: a worker process ended before it gave its results (killed, or out of memory?); the "
            "reports above are complete, the rest were not checked. Run again, or with --jobs 1\n"
        )
        return 2


def fix_and_report(args: argparse.Namespace, files: list[str], options: Options) -> int:
    """``--fix``: each input fixed on its own (cli/fixing.py), then what is left reported, on
    stderr when standard input's fixed text is on stdout. ``--diff``: the diffs alone on
    stdout, what would be fixed on stderr, and ruff's exit code (1: it would change
    something)."""
    if args.diff and (args.json or args.format not in (None, "human")):
        sys.stderr.write(
            "sourcecheck: --diff prints a unified diff, not a report; for the fixes as data use --json alone "
            '(each finding\'s "fix"), or --fix --json to apply them and report what is left\n'
        )
        return 2
    jsonl = args.jsonl

    def lines(name: str) -> bool:
        return jsonl or (name != "-" and is_jsonl(name))

    outcomes = fixing.run(files, lines, args.unsafe_fixes, args.diff, args.max_size_mb)
    if args.diff:
        return fixing.exit_code(outcomes)
    results = fixed_results(outcomes, options)
    if "-" not in files:
        return write(results, options)
    with contextlib.redirect_stdout(sys.stderr):  # stdout holds the fixed text
        return write(results, replace(options, colour=use_colour(args.color, sys.stderr)))


def fixed_results(outcomes: list[fixing.Outcome], options: Options) -> Iterator[Rendered]:
    """The reports after ``--fix``, of the inputs as they are now; with ``--json``, each
    says what was fixed, and, where the file could not be written, why (exit 2)."""
    limit = options.max_size_mb * 1_000_000
    for outcome in outcomes:
        name, data, refused = outcome.name, outcome.after, outcome.refused
        extra: dict[str, Any] = {"fixed": outcome.applied_on(None)}
        least = 0
        if refused is not None and data is not None:  # read, not written
            extra["write_error"] = refused.message
            least = refused.code
        if data is None:
            why = refused.message.partition(": ")[2] if refused is not None else ""
            yield rendered(Checked(shown_name(name), unreadable=why), options, shown_name(name), extra=extra)
        elif not outcome.lines:
            yield rendered(check_bytes(name, data), options, shown_name(name), extra=extra, least=least)
        else:
            shown = shown_name(name)
            for number, line in enumerate(fixing.split_lines(data), 1):
                session = session_of(line)
                if session is None:
                    continue
                where = f"{shown}:{number}"
                checked = too_large(where, len(line), options.max_size_mb) if len(session) > limit else None
                checked = checked or check_bytes(where, session)
                extra["fixed"] = outcome.applied_on(number)
                yield rendered(checked, options, shown, number, extra=dict(extra), least=least)
            yield Rendered(0, end=shown)


def write(results: Iterable[Rendered], options: Options) -> int:
    """Write the reports as they come, in the chosen format (the table's writer); the worst
    exit code."""
    chosen = FORMATS[options.fmt]
    writer = chosen.writer(options, Output(sys.stdout, chosen.binary))
    worst = 0
    sessions = [0, 0, 0]  # the sessions of a JSON Lines file so far, by exit code
    for result in results:
        if result.end is not None:
            writer.end_of_lines(result.end, sessions)
            sessions = [0, 0, 0]
            continue
        if result.note:
            sys.stderr.write(result.note + "\n")
        worst = max(worst, result.exit_code)
        if result.line is not None:
            sessions[result.exit_code] += 1
        writer.add(result)
    writer.finish(worst)
    sys.stdout.flush()
    return worst


if __name__ == "__main__":
    console()

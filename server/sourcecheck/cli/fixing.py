"""``sourcecheck --fix`` / ``--unsafe-fixes`` / ``--diff``: the fixes of core/fixes.py applied.

Each session's safe fixes (with ``--unsafe-fixes`` the unsafe ones too) are applied round
after round until none applies. A session file is fixed whole; a JSON Lines file line by
line, each session alone as the check reads it (a line stays one line; a line that is not
UTF-8 or is too large is left as it is), the file then written once. A file is written
atomically (refused if it changed since it was read); with ``--diff`` a unified diff is
printed instead (every character from the file that could act on a terminal escaped, as
in every output) and nothing is written. Standard input (``-``) is fixed too: the fixed
text goes to stdout (ruff's convention), the report to stderr.

Each file is fixed on its own: one that cannot be read or written is said, on stderr and
in its report, and the others are fixed all the same. What is left is reported as the
check reports it, from the fixed text.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

from ..core.display import plural, visible
from ..core.fixes import fixed
from ..inputs import Refused, read_input, session_of, shown_name
from .files import write_atomically

Applied = tuple[int | None, str, str, str]
"""A fix applied: the line of JSON Lines it is on (None in a session file), the finding's
code and pointer, and what the fix did."""


@dataclass(frozen=True)
class Outcome:
    """One input after its fixes: its bytes before and after (as written, or as they would
    be), the fixes applied, and why it could not be written, if it could not."""

    name: str
    before: bytes | None  # None: it could not be read (the check says why)
    after: bytes | None
    applied: tuple[Applied, ...] = ()
    lines: bool = False  # JSON Lines
    refused: Refused | None = None  # why it could not be read (``before`` None) or written

    @property
    def changed(self) -> bool:
        return self.before is not None and self.after is not None and self.after != self.before

    def applied_on(self, line: int | None) -> list[dict[str, str]]:
        """The fixes applied to a session (of the line ``line``), as ``--json`` lists them;
        none when the file could not be written."""
        if self.refused is not None:
            return []
        return [{"code": c, "pointer": p, "message": t} for at, c, p, t in self.applied if at == line]


def fix_session(data: bytes, unsafe: bool) -> tuple[bytes, tuple[Applied, ...]]:
    """A session's bytes with its fixes applied; as they are when it is not UTF-8 text the
    check can read (starting with a byte order mark is not JSON: the check says so)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data, ()
    if text.startswith("\ufeff"):
        return data, ()
    result = fixed(text, unsafe)
    if not result.changed:
        return data, ()
    return result.text.encode("utf-8"), tuple((None, c, p, t) for c, p, t in result.applied)


_LAYOUT_BREAK = re.compile(r"\r?\n[ \t]*")


def one_line(text: str) -> str:
    """A fixed session written on one line again: a line break a fix laid out (JSON holds
    one only as whitespace between values) becomes a space."""
    return _LAYOUT_BREAK.sub(" ", text) if "\n" in text else text


def split_lines(data: bytes) -> list[bytes]:
    """The lines of a file as JSON Lines and ``patch`` count them, each with its ending
    (``\\n``: a ``\\r`` or a U+2028 elsewhere is part of the line); a final newline starts
    no line."""
    parts = data.split(b"\n")
    return [part + b"\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def fix_lines(data: bytes, unsafe: bool, limit: int) -> tuple[bytes, tuple[Applied, ...]]:
    """JSON Lines with each session fixed alone; a line longer than ``limit`` bytes, or not
    UTF-8, is left as it is (the check reports it)."""
    out: list[bytes] = []
    applied: list[Applied] = []
    for number, line in enumerate(split_lines(data), 1):
        session = session_of(line)
        if session is None or len(session) > limit:
            out.append(line)
            continue
        repaired, done = fix_session(session, unsafe)
        if done:
            repaired = one_line(repaired.decode("utf-8")).encode("utf-8")
            applied.extend((number, code, where, title) for _, code, where, title in done)
            line = repaired + line[len(session) :]  # its ending as it was
        out.append(line)
    return b"".join(out), tuple(applied)


def fix_input(name: str, lines: bool, unsafe: bool, diff: bool, max_size_mb: int) -> Outcome:
    """Fix one input (``-``: standard input); written unless ``diff`` or standard input."""
    try:
        before = read_input(name, max_size_mb)
    except Refused as refusal:
        return Outcome(name, None, None, lines=lines, refused=refusal)
    if lines:
        after, applied = fix_lines(before, unsafe, max_size_mb * 1_000_000)
    else:
        after, applied = fix_session(before, unsafe)
    outcome = Outcome(name, before, after, applied, lines)
    if outcome.changed and not diff and name != "-":
        try:
            write_atomically(name, after, expect=before)
        except Refused as refusal:
            return Outcome(name, before, before, applied, lines, refusal)
    return outcome


def unified(name: str, before: bytes, after: bytes) -> str:
    """The change as a unified diff (``a/NAME`` to ``b/NAME``), each line's characters
    that could act on a terminal (controls, bidirectional and invisible ones, a ``\\r``
    but in a line's ending) escaped with :func:`visible`, as every output escapes them."""
    shown = shown_name(name)
    lines = difflib.unified_diff(
        [line.decode("utf-8", "surrogateescape") for line in split_lines(before)],
        [line.decode("utf-8", "surrogateescape") for line in split_lines(after)],
        f"a/{shown}",
        f"b/{shown}",
    )
    return "".join(map(shown_line, lines))


def shown_line(line: str) -> str:
    """A line of a diff as printed: its text escaped, its ending kept (``\\r\\n`` too)."""
    ending = "\r\n" if line.endswith("\r\n") else "\n" if line.endswith("\n") else ""
    body = visible(line[: len(line) - len(ending)], keep_newlines=True)
    return body + ending if ending else body + "\n\\ No newline at end of file\n"


def said(outcome: Outcome, diff: bool) -> str:
    """What was fixed (would be, with ``diff``) in one input, for stderr; or why it could
    not be written."""
    if outcome.refused is not None:  # (a file not read: its report says why)
        return f"sourcecheck: {outcome.refused.message}\n" if outcome.before is not None else ""
    if not outcome.applied:
        return ""
    verb = "would fix" if diff else "fixed"
    shown = shown_name(outcome.name)
    each = "".join(
        f"\n  {'' if line is None else f'line {line}: '}{code}{f' at {visible(where)}' if where else ''}"
        f": {visible(title)}"
        for line, code, where, title in outcome.applied
    )
    return f"sourcecheck: {shown}: {verb} {plural(len(outcome.applied), 'finding')}{each}\n"


def run(names: list[str], is_lines: Callable[[str], bool], unsafe: bool, diff: bool, max_size_mb: int) -> list[Outcome]:
    """Fix every input, each on its own, and say what was fixed (stderr); with ``diff``,
    print the diffs (stdout); standard input's fixed text is printed on stdout."""
    outcomes = []
    for name in names:
        outcome = fix_input(name, is_lines(name), unsafe, diff, max_size_mb)
        outcomes.append(outcome)
        sys.stderr.write(said(outcome, diff))
        if diff and outcome.changed:
            assert outcome.before is not None and outcome.after is not None
            sys.stdout.write(unified(name, outcome.before, outcome.after))
        elif name == "-" and not diff:
            echo(outcome)
    return outcomes


def echo(outcome: Outcome) -> None:
    """Standard input's text, fixed (as it came when nothing applied), on stdout."""
    data = outcome.after if outcome.after is not None else b""
    binary = getattr(sys.stdout, "buffer", None)
    if binary is not None:
        sys.stdout.flush()
        binary.write(data)
        binary.flush()
    else:
        sys.stdout.write(data.decode("utf-8", "surrogateescape"))


def exit_code(outcomes: list[Outcome]) -> int:
    """``--diff``'s exit code (ruff's): 1 when it would change something, 2 when an input
    could not be read, else 0."""
    if any(outcome.before is None for outcome in outcomes):
        return 2
    return 1 if any(outcome.changed for outcome in outcomes) else 0


__all__ = ["Outcome", "exit_code", "fix_lines", "fix_session", "run", "unified"]

"""``sourcecheck --fix`` / ``--unsafe-fixes`` / ``--diff``: the fixes of core/fixes.py applied.

Each file's safe fixes (with ``--unsafe-fixes`` the unsafe ones too) are applied round after
round until none applies; the file is then written atomically (refused if it changed since
it was read), or with ``--diff`` a unified diff is printed instead and nothing is written.
What is left is reported as the check reports it, from the fixed text; the exit code is
that of the result. Standard input cannot be fixed in place: ``--diff`` works on it.
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass

from ..core.display import visible
from ..core.fixes import fixed
from .files import Refused, decode, read_input, shown_name, write_atomically


@dataclass(frozen=True)
class Outcome:
    """One file after its fixes: its text before and now (as written, or as it would be),
    and the fixes applied (code, pointer, title)."""

    name: str
    before: str | None  # None: it could not be read, is not UTF-8 or not JSON (the check says why)
    text: str | None
    applied: tuple[tuple[str, str, str], ...] = ()


def fix_file(name: str, unsafe: bool, diff: bool, max_size_mb: int) -> Outcome:
    """Fix one file (``-``, standard input, only with ``diff``): written unless ``diff``."""
    try:
        data = read_input(name, max_size_mb)
        text = decode(name, data, "save it as UTF-8")
    except Refused:
        return Outcome(name, None, None)
    if text.startswith("\ufeff"):
        return Outcome(name, None, None)  # not JSON as written: the check says so
    result = fixed(text, unsafe)
    if result.changed and not diff:
        write_atomically(name, result.text, expect=data)
    return Outcome(name, text, result.text, result.applied)


def unified(name: str, before: str, after: str) -> str:
    """The change as a unified diff (``a/NAME`` to ``b/NAME``)."""
    shown = shown_name(name)
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{shown}", f"b/{shown}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def run(names: list[str], unsafe: bool, diff: bool, max_size_mb: int) -> dict[str, Outcome]:
    """Fix every file, say what was fixed (stderr) and, with ``diff``, print the diffs (stdout)."""
    if "-" in names and not diff:
        raise Refused("--fix cannot write standard input back; give files, or use --diff to see the fixes")
    outcomes = {}
    for name in names:
        outcome = outcomes[name] = fix_file(name, unsafe, diff, max_size_mb)
        if outcome.applied:
            verb = "would fix" if diff else "fixed"
            count = len(outcome.applied)
            sys.stderr.write(
                f"sourcecheck: {shown_name(name)}: {verb} {count} finding{'s' if count != 1 else ''}"
                + "".join(
                    f"\n  {code}{' at ' + visible(pointer) if pointer else ''}: {visible(title)}"
                    for code, pointer, title in outcome.applied
                )
                + "\n"
            )
        if diff and outcome.before is not None and outcome.text is not None and outcome.text != outcome.before:
            sys.stdout.write(unified(name, outcome.before, outcome.text))
    return outcomes

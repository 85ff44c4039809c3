"""Every finding code, once: its severity, the CLI's exit code, its title, what it means and
what to do, and the section of docs/rules.md that settles it. The rules (``rules.py``) take
each code's severity and exit code from here, the SARIF log its rules, and docs/rules.md's
table of findings, the README's and docs/codes.md are written from it (a test checks they are
current: ``scripts/regenerate-docs`` writes docs/codes.md).

Adding a finding is one entry here, the check that reports it (``rules.py``), its fix if it
has one (``fixes.py``), and their tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from .session import Severity

READING, RESOLVING, ANNOTATIONS, OUTPUT = (
    "reading-a-session",
    "resolving-a-ref",
    "annotations-and-sources",
    "sourcecheck---json",
)
"""Sections of docs/rules.md (GitHub heading anchors)."""


@dataclass(frozen=True, slots=True)
class FindingCode:
    """One finding code (or, with ``finding=False``, one more thing the CI formats report)."""

    code: str
    severity: Severity
    exit_code: int  # what the CLI exits with when this is found (0: it does not fail the check)
    title: str
    meaning: str
    fix: str
    section: str
    finding: bool = True  # a finding of the check (not: an unreadable input, a failing verdict)


RULES: tuple[FindingCode, ...] = (
    FindingCode(
        "invalid-json",
        Severity.ERROR,
        2,
        "The file is not JSON",
        "The session file is not strict JSON (RFC 8259): a syntax error, or something JSON does not have, "
        "such as a comment, a trailing comma, NaN or Infinity. Nothing else in it can be checked.",
        "Correct the JSON at the position shown; the message says what was expected there.",
        READING,
    ),
    FindingCode(
        "invalid-field",
        Severity.ERROR,
        2,
        "A value has the wrong type, or a required key is missing",
        "A value does not have the shape the format requires: a ref's `path` that is not a string, `start` or"
        " `end` that is not an object with an integer `line` and a string `str`, `sources` missing or not an "
        "array, a document without a string `path` and `content`. Nothing more is checked on that ref.",
        "Give the value the type the message names (an integer `line` such as `3`, not `3.0` or `true`), or "
        "add the missing key.",
        RESOLVING,
    ),
    FindingCode(
        "duplicate-path",
        Severity.ERROR,
        2,
        "Two documents have the same path",
        "A document has the same `path` as an earlier one. Refs resolve against the first document with that "
        "path; this one is ignored.",
        "Give this document a path of its own if it is another text, or remove it if it repeats the first.",
        READING,
    ),
    FindingCode(
        "non-lf-content",
        Severity.ERROR,
        2,
        "A document's content has CR or CRLF line breaks",
        "A document's `content` holds `\\r`. SourceCheck splits content into lines at `\\n` only, so each `\\r` "
        "stays part of its line and boundaries may not match the text as it looks.",
        "Normalize the content to `\\n` line breaks (convert CRLF or CR to LF) where the session is written.",
        READING,
    ),
    FindingCode(
        "bad-polarity",
        Severity.ERROR,
        2,
        "A source's polarity is missing or invalid",
        'Every source needs a `polarity` that is exactly `"supports"` or `"refutes"`. A source without a '
        "valid polarity does not count toward its claim's verdict.",
        'Add or correct it: `"supports"` when the cited text backs the claim, `"refutes"` when it contradicts'
        " it. Check for a misspelled key such as `polarty`.",
        ANNOTATIONS,
    ),
    FindingCode(
        "bad-confidence",
        Severity.ERROR,
        2,
        "A source's confidence is missing or invalid",
        "Every source needs a `confidence` that is a finite number from 0 to 1. A string, a boolean, a "
        "percentage such as 95 or any value outside [0, 1] is rejected, and the source does not count toward "
        "its claim's verdict.",
        'Write a number from 0 to 1: `0.95`, not `95` or `"high"`.',
        ANNOTATIONS,
    ),
    FindingCode(
        "empty-sources",
        Severity.ERROR,
        2,
        "An annotation has no sources",
        "An annotation's `sources` is an empty array; an annotation cites at least one source for its claim.",
        "Add a source ref, or remove the annotation: text without a source is left unannotated.",
        ANNOTATIONS,
    ),
    FindingCode(
        "unknown-path",
        Severity.ERROR,
        1,
        "A ref names no document of the session",
        "A ref's `path` is not the `path` of any document in the session, so the ref cannot be resolved; "
        "nothing more is checked on it.",
        "Write the exact path of one of the session's documents (the message lists them), or add the missing document.",
        RESOLVING,
    ),
    FindingCode(
        "line-out-of-range",
        Severity.ERROR,
        1,
        "A boundary's line is outside its document",
        "A `start.line` or `end.line` is below 1 or past the document's last line. Lines count from 1 and are"
        ' the content split at `\\n` (`content.split("\\n")`), blank lines included.',
        "Correct the line number; the message gives the document's number of lines.",
        RESOLVING,
    ),
    FindingCode(
        "boundary-empty",
        Severity.ERROR,
        1,
        "A boundary's text is empty",
        'A `start.str` or `end.str` is `""`. A boundary finds the span by its text, so it cannot be empty.',
        "Write the text the span starts with (or ends with), long enough to occur only once on its line.",
        RESOLVING,
    ),
    FindingCode(
        "boundary-not-found",
        Severity.ERROR,
        1,
        "A boundary's text is not on its line",
        "A boundary's `str` does not occur on the line it names. Matching is exact, code point by code point:"
        " case, accents, typographic quotes and other kinds of space all count.",
        "Copy the text exactly from the document's line, or correct the line number; the message says where "
        "the text does occur when it can.",
        RESOLVING,
    ),
    FindingCode(
        "boundary-ambiguous",
        Severity.ERROR,
        1,
        "A boundary's text occurs more than once on its line",
        "A boundary's `str` occurs more than once on its line (occurrences are counted overlapping), so where"
        " the span starts or ends is not determined.",
        "Extend `start.str` to the right, or `end.str` to the left, until it occurs only once on the line; "
        "the SourceCheck language server offers a quick fix for each occurrence.",
        RESOLVING,
    ),
    FindingCode(
        "lines-reversed",
        Severity.ERROR,
        1,
        "A ref's start line comes after its end line",
        "A ref's `start.line` is greater than its `end.line`; a ref runs forward through its document.",
        "Swap the boundaries, or correct the line numbers.",
        RESOLVING,
    ),
    FindingCode(
        "boundary-order",
        Severity.ERROR,
        1,
        "A ref's start comes after its end on the same line",
        "Both boundaries are on one line and `start.str` begins after `end.str` ends, so the span would run backwards.",
        "Swap `start` and `end`, or correct their texts.",
        RESOLVING,
    ),
    FindingCode(
        "unknown-field",
        Severity.WARNING,
        0,
        "A key the format does not define",
        "An object has a key that the SourceCheck format does not define. It is ignored; often it is a "
        "misspelling, such as `polarty` for `polarity`.",
        "Rename the key to the one meant, or remove it.",
        ANNOTATIONS,
    ),
    FindingCode(
        "duplicate-key",
        Severity.WARNING,
        0,
        "A key appears twice in one object",
        "The same key appears twice in one JSON object. The last value wins; the earlier one is ignored.",
        "Remove one of them, keeping the value meant.",
        READING,
    ),
    FindingCode(
        "self-citation",
        Severity.WARNING,
        0,
        "A source cites its claim's own document",
        "A source is in the same document as its claim: a text is not evidence for itself.",
        "Cite another document that supports or refutes the claim, or remove the source.",
        ANNOTATIONS,
    ),
    FindingCode(
        "duplicate-source",
        Severity.WARNING,
        0,
        "The same source twice in one annotation",
        "Two sources of one annotation have the same coordinates (path, start and end); the repeat adds nothing.",
        "Remove one of them.",
        ANNOTATIONS,
    ),
    FindingCode(
        "low-confidence",
        Severity.HINT,
        0,
        "A source's confidence is below 0.3",
        "A source's `confidence` is below 0.3. Such a weak source is usually better omitted; a side of a "
        "verdict whose strongest source is below 0.3 is weak.",
        "Omit the source, or raise its confidence if the evidence is stronger than that.",
        ANNOTATIONS,
    ),
    FindingCode(
        "fail-on",
        Severity.ERROR,
        1,
        "A claim's verdict is one --fail-on names",
        "With `--fail-on` (unresolved, unverified, refuted, contested, weak), a claim whose verdict is one of"
        " those fails the check: its sources, as counted, do not back it as the pipeline requires.",
        "Read the claim and its sources: cite a source that supports it, correct the claim, or remove it; or "
        "leave that verdict out of `--fail-on`.",
        OUTPUT,
        finding=False,
    ),
    FindingCode(
        "unreadable",
        Severity.ERROR,
        2,
        "The file could not be read",
        "The input could not be read as a session: it does not exist, is a directory, cannot be opened, is "
        "larger than the size limit, or is not UTF-8 text. Nothing in it was checked.",
        "Pass the path of a session file that exists and is UTF-8 text; for a larger file, raise the limit "
        "with `--max-size-mb`.",
        OUTPUT,
        finding=False,
    ),
)
BY_CODE: dict[str, FindingCode] = {rule.code: rule for rule in RULES}
FINDINGS: tuple[FindingCode, ...] = tuple(rule for rule in RULES if rule.finding)
SEVERITY: dict[str, Severity] = {rule.code: rule.severity for rule in FINDINGS}
EXIT_CLASS: dict[str, int] = {rule.code: rule.exit_code for rule in FINDINGS if rule.exit_code}
ALL_CODES: tuple[str, ...] = tuple(SEVERITY)


def findings_table(quoted: bool = False) -> str:
    """The table of findings (docs/rules.md's; ``quoted``: the README's, codes in backticks)."""
    rows: dict[tuple[Severity, int], list[str]] = {}
    for rule in FINDINGS:
        rows.setdefault((rule.severity, rule.exit_code), []).append(f"`{rule.code}`" if quoted else rule.code)
    exit_header = "exit" if quoted else "CLI exit"
    lines = [f"| code | severity | {exit_header} |", "|---|---|---|"]
    dash = "–" if quoted else "-"
    for (severity, exit_code), codes in rows.items():
        lines.append(f"| {', '.join(codes)} | {severity.value} | {exit_code or dash} |")
    return "\n".join(lines) + "\n"


def codes_page() -> str:
    """docs/codes.md: each code, what it means and what to do."""
    out = [
        "# Finding codes",
        "",
        "Written from `server/sourcecheck/core/registry.py` by `scripts/regenerate-docs`;",
        "[rules.md](rules.md) settles each.",
        "",
    ]
    for rule in FINDINGS:
        exit_said = f"exit {rule.exit_code}" if rule.exit_code else "does not fail the check"
        out += [
            f"## `{rule.code}`",
            "",
            f"{rule.title} ({rule.severity.value}, {exit_said}). {rule.meaning}",
            "",
            f"What to do: {rule.fix} ([rules.md](rules.md#{rule.section}))",
            "",
        ]
    return "\n".join(out)


__all__ = [
    "ALL_CODES",
    "BY_CODE",
    "EXIT_CLASS",
    "FINDINGS",
    "RULES",
    "FindingCode",
    "SEVERITY",
    "codes_page",
    "findings_table",
]

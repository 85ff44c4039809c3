"""Refs made from text on the command line (``ref``, ``add``): the document named, the text
found as the check would find it, the coordinates checked to give back exactly that text."""

from __future__ import annotations

import sys

from ..core.analysis import Analysis
from ..core.display import plural
from ..core.nearmiss import tolerant
from ..core.refs import Boundaries, Uncitable, cite, find_text, nearest_line, resolves_to
from ..core.session import Document
from ..inputs import Refused, decode, read_input, shown_name
from .wording import lines_list, quoted


def find_document(analysis: Analysis, name: str, path: str) -> Document:
    document = analysis.session.by_path.get(path)
    if document is not None:
        return document
    paths = list(analysis.session.by_path)
    if not paths:
        raise Refused(f"{shown_name(name)} has no documents; make one with `sourcecheck new FILE...`")
    listed = ", ".join(quoted(p, 40) for p in paths[:20]) + (f" and {len(paths) - 20} more" if len(paths) > 20 else "")
    raise Refused(f"no document {quoted(path)} in {shown_name(name)}; its documents are: {listed}")


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


def make_ref(document: Document, text: str, line: int | None, occurrence: int | None) -> tuple[Boundaries, str]:
    """The ref whose resolved text is exactly ``text`` in ``document`` (``line``: the line it
    starts on; ``occurrence``: which of its occurrences there, 1-based), and that text. Text
    written with other quotes, case or spacing than the document's is found as the check finds
    it (``core/nearmiss.py``), when it is there once: the ref cites the document's own text."""
    if not text:
        raise Refused("TEXT is empty; give the text to cite, exactly as the document has it")
    total = len(document.lines)
    if line is not None and not 1 <= line <= total:
        raise Refused(f"--line {line} is not a line of {quoted(document.path)}, which has {plural(total, 'line')}")
    everywhere = find_text(document, text)
    if not everywhere:
        meant = written_otherwise(document, text, line)
        if meant is None:
            raise Refused(not_found(document, text), 1)
        text = meant
        everywhere = find_text(document, text)
    chosen = [o for o in everywhere if line is None or o.line == line]
    if not chosen:
        raise Refused(
            f"{quoted(text)} does not start on line {line} of {quoted(document.path)}; it starts on "
            f"{lines_list([o.line for o in everywhere])}",
            1,
        )
    on_one_line = len({o.line for o in chosen}) == 1
    if occurrence is not None:
        if not on_one_line:
            raise Refused(f"--occurrence needs --line: {quoted(text)} starts on {lines_list([o.line for o in chosen])}")
        if not 1 <= occurrence <= len(chosen):
            raise Refused(
                f"--occurrence {occurrence}: {quoted(text)} occurs {len(chosen)} time{'s' if len(chosen) != 1 else ''} "
                f"on line {chosen[0].line} of {quoted(document.path)}",
                1,
            )
        chosen = [chosen[occurrence - 1]]
    if len(chosen) > 1:
        if on_one_line:
            where = chosen[0].line
            columns = ", ".join(str(o.offset - document.line_starts[where - 1] + 1) for o in chosen)
            raise Refused(
                f"{quoted(text)} occurs {len(chosen)} times on line {where} of {quoted(document.path)} (columns "
                f"{columns}); add --occurrence N to choose one (N from 1 to {len(chosen)})",
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
    return result, text


def written_otherwise(document: Document, text: str, line: int | None) -> str | None:
    """The document's own text that ``text`` is, written with other quotes, case or spacing,
    when it occurs exactly once (on ``line``, if given); said on stderr."""
    pattern = tolerant(text)
    if pattern is None:
        return None
    content = document.content
    if line is not None:
        begin = document.line_starts[line - 1]
        end = document.lines.end(line - 1)
    else:
        begin, end = 0, len(content)
    matches = [m for m, _ in zip(pattern.finditer(content, begin, end), range(2), strict=False)]
    if len(matches) != 1:
        return None
    meant = matches[0].group()
    sys.stderr.write(
        f"sourcecheck: citing {quoted(meant)}, the text of {quoted(document.path)} that {quoted(text)} stands for "
        "(written there with other quotes, capitals or spacing)\n"
    )
    return meant


def check_ref(document: Document, boundaries: Boundaries, text: str) -> None:
    """Never print a coordinate that does not give back exactly the text asked for."""
    if resolves_to(document, boundaries) != text:
        raise Refused(
            f"internal error: the ref made for {quoted(text)} does not resolve to it, so none is printed; "
            "please report this with the session",
            1,
        )

"""How drift is said, the one wording the CLI's ``sync`` and the editor's diagnostics share:
what a change of a document's file does to the refs into it, what a changed ref cited and
what stands there now, what accepting does to it and to its claim.

Every text from outside (paths, cited text) is shown with :func:`~.display.visible`; a
cited text is quoted with both its ends (a long citation is cut in its middle).
"""

from __future__ import annotations

import json

from .accept import Accepted
from .display import both_ends, plural, shorten, visible
from .filestate import Unreadable
from .resync import DocumentDrift, RefDrift

DOCUMENT_CHANGED = "source-changed"
DOCUMENT_UNREADABLE = "source-unreadable"
REF_CHANGED = "cited-text-changed"
"""The codes of what the editor says of drift (diagnostics, not findings: the check of a
session's text knows nothing of files)."""

QUOTE_WIDTH = 70


def named(path: str) -> str:
    """A document's path for a person: in backticks, shown safely, cut when long."""
    return "`" + visible(shorten(path, 80)) + "`"


def quote(text: str | None, width: int = QUOTE_WIDTH) -> str:
    """A cited text as a JSON string on one line, both its ends shown (``"relieving … methods"``)."""
    if text is None:
        return "nothing"
    return visible(json.dumps(both_ends(text, width), ensure_ascii=False))


def lines_of(first: int, last: int) -> str:
    return f"line {first}" if first == last else f"lines {first}-{last}"


def refs_phrase(document: DocumentDrift, would: bool = False) -> str:
    """What the change does to the refs into a document, counted: ``3 refs into it keep their
    text (2 re-anchored, 1 moved), 1 cites text that was edited, 1 cites text that was
    deleted`` (``would``: nothing is written, ``2 would be re-anchored``)."""
    kept = document.kept_refs
    moved = sum(1 for ref in kept if ref.state == "moved")
    anchored = sum(1 for ref in kept if ref.state == "kept" and ref.moves)
    how = [f"{anchored} {'would be ' if would else ''}re-anchored"] * bool(anchored)
    how += [f"{moved} moved{' (would follow it)' if would else ''}"] * bool(moved)
    phrase = f"{plural(len(kept), 'ref')} into it {'keeps its' if len(kept) == 1 else 'keep their'} text"
    if how:
        phrase += f" ({', '.join(how)})"
    edited = sum(1 for ref in document.refs if ref.state == "edited")
    deleted = sum(1 for ref in document.refs if ref.state == "deleted")
    parts = [phrase] if kept or not (document.changed_refs) else []
    if edited:
        into = "" if parts else " into it"
        parts.append(f"{plural(edited, 'ref')}{into} {'cites' if edited == 1 else 'cite'} text that was edited")
    if deleted:
        into = "" if parts else " into it"
        parts.append(f"{plural(deleted, 'ref')}{into} {'cites' if deleted == 1 else 'cite'} text that was deleted")
    return ", ".join(parts)


def unread_phrase(document: DocumentDrift) -> str:
    """The refs into a document whose file was not read, named."""
    refs = [ref for ref in document.refs if ref.state == "unread"]
    if not refs:
        return "the refs into it are not checked against it"
    shown = ", ".join(visible(ref.pointer) for ref in refs[:5]) + (", …" if len(refs) > 5 else "")
    return f"{plural(len(refs), 'ref')} into it not checked against it ({shown})"


def document_said(drift: DocumentDrift) -> tuple[str, str, bool] | None:
    """What the editor says of a document beside its file: (code, message, whether it is a
    warning rather than information); None when it equals its file."""
    name = named(drift.document.path)
    if isinstance(drift.file, Unreadable):
        message = (
            f"the file of {name} is not read: {visible(drift.file.reason)}; this document is kept as it is; "
            + unread_phrase(drift)
        )
        return DOCUMENT_UNREADABLE, message, True
    if drift.state != "changed":
        return None
    if not drift.changed_refs:
        message = (
            f"the file of {name} has changed on disk: {refs_phrase(drift)}; sync the document to bring it up to "
            "date (the quick fix)"
        )
        return DOCUMENT_CHANGED, message, False
    message = (
        f"the file of {name} has changed on disk: {refs_phrase(drift)}; the session still cites the text as it was: "
        "judge the changed refs, then accept the new text (or remove, or cite again, each changed ref)"
    )
    return DOCUMENT_CHANGED, message, True


def _line_quoted(content: str, number: int) -> str:
    lines = content.split("\n")
    return f"line {number} {quote(lines[number - 1], 50)}" if 1 <= number <= len(lines) else f"line {number}"


def around(document: DocumentDrift, ref: RefDrift) -> str:
    """Where a deleted ref's text stood in the new content: the line holding its place (a
    sentence deleted from its line), or the two lines between which it was (whole lines)."""
    content = document.content
    if content is None or ref.at is None:
        return ""
    line = content.count("\n", 0, ref.at) + 1
    if ref.between and line > 1:
        return f" (it stood between {_line_quoted(content, line - 1)} and {_line_quoted(content, line)})"
    return f" (it stood in {_line_quoted(content, line)})"


def places_said(ref: RefDrift) -> str:
    """Where a changed ref's exact text stands elsewhere now, for a person to choose."""
    if not ref.place_count:
        return ""
    lines = sorted({place.line for place in ref.places})
    shown = ", ".join(map(str, lines)) + (", …" if ref.place_count > len(ref.places) else "")
    where = f"line {shown}" if len(lines) == 1 and ref.place_count == 1 else f"lines {shown}"
    return f"; its exact text stands elsewhere now ({plural(ref.place_count, 'place')}, {where}): choose one to cite"


def ref_said(document: DocumentDrift, ref: RefDrift) -> str:
    """What a changed ref cited and what stands at its place now: ``was "…", now "…"``, or
    ``now deleted`` with the lines around its place; where its text stands elsewhere."""
    said = f"was {quote(ref.was)}, "
    if ref.state == "deleted":
        said += "now deleted" + around(document, ref)
    else:
        said += f"now {quote(ref.now)}"
    if ref.reason is not None:
        said += f" ({visible(ref.reason)})"
    return said + places_said(ref)


def claim_said(claim: str | None) -> str:
    return f"claim {quote(claim, 50)}" if claim is not None else "a claim that does not resolve"


def diagnostic_said(document: DocumentDrift, ref: RefDrift, claim: str | None) -> str:
    """What the editor says on a ref whose text changed on disk."""
    return f"this ref ({claim_said(claim)}) cites text of {named(document.document.path)} that changed on disk: " + (
        ref_said(document, ref)
    )


def outcome_said(outcome: Accepted) -> str:
    """What accepting did to a changed ref and its claim, and the verdict it leaves."""
    drift = outcome.drift
    verdict = ""
    if outcome.verdict is not None and outcome.verdict_after is not None:
        verdict = (
            f" (still {outcome.verdict})"
            if outcome.verdict == outcome.verdict_after
            else f" ({outcome.verdict} -> {outcome.verdict_after})"
        )
    if outcome.action == "re-anchored":
        assert drift.anchor is not None
        where = lines_of(drift.anchor.start_line, drift.anchor.end_line)
        return f"re-anchored to {where}: judge its claim again{verdict}"
    if outcome.action == "source removed":
        return f"source removed: its text is gone; the claim is left{verdict}" + (
            "; cite another source or remove the claim" if outcome.verdict_after == "unverified" else ""
        )
    if outcome.action == "annotation removed":
        return f"annotation removed: its claim's text was deleted (it was {outcome.verdict or 'unresolved'})"
    raise AssertionError(outcome.action)


__all__ = [
    "DOCUMENT_CHANGED",
    "DOCUMENT_UNREADABLE",
    "REF_CHANGED",
    "around",
    "claim_said",
    "diagnostic_said",
    "document_said",
    "named",
    "outcome_said",
    "places_said",
    "plural",
    "quote",
    "ref_said",
    "refs_phrase",
    "unread_phrase",
]

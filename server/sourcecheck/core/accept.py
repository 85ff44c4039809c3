"""What a sync writes: the session's text brought up to date with its documents' files, and
what accepting a change does to each claim (docs/rules.md, "`sync`").

A document whose refs are all kept is brought up to date: its ``content``, and the
coordinates of each ref that moves. Accepting a document's change also settles its changed
refs, never by pointing one at other text:

- an **edited** ref is re-anchored to exactly the aligned new text (``resync.aligned_text``);
  when no boundary can cite that text, the document's change is not accepted at all (its old
  coordinates could resolve against other text of the new content): a person settles it;
- a **deleted** source is removed; its annotation keeps its claim, and with no source left it
  fails the check (``sources`` empty) until a person cites another source or removes it;
- an annotation whose **claim** was deleted is removed, its sources with it.

Each is an :class:`Accepted`, for a person to judge: the claim, was / now, and (from
:func:`with_verdicts`) the verdict it leaves. Pure: the CLI writes the text, the editor
offers the edits as code actions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .analysis import Analysis
from .edits import TextEdit, apply
from .jsonlex import encode_string
from .jsonnodes import JArray
from .resync import DocumentDrift, Drift, RefDrift, TextPlace
from .session import CheckedRef, Path

Action = Literal["re-anchored", "source removed", "annotation removed"]


@dataclass(frozen=True, slots=True)
class Accepted:
    """What accepting a change does to one changed ref, and to its claim."""

    drift: RefDrift
    action: Action
    annotation: Path  # the annotation's JSON path in the session as it was
    claim: str | None  # the claim's text (None: it does not resolve)
    verdict: str | None = None  # the annotation's verdict before (see with_verdicts)
    verdict_after: str | None = None  # and after; None when the annotation is removed


@dataclass(frozen=True, slots=True)
class Synced:
    """The session's text after a sync: the edits, and what accepting did to changed refs."""

    edits: tuple[TextEdit, ...]
    outcomes: tuple[Accepted, ...]

    def text(self, before: str) -> str:
        return apply(before, self.edits)


def claim_text(ref: CheckedRef) -> str | None:
    """The text of the claim of the annotation ``ref`` belongs to."""
    annotation = ref.annotation_link()
    claim = annotation.claim if annotation is not None else None
    return claim.text if claim is not None and claim.valid else None


def outcome_of(drift: RefDrift) -> Action:
    """What accepting does to a changed ref (an edited one that cannot be cited holds its
    document's change back: see ``DocumentDrift.held``)."""
    if drift.state == "deleted":
        return "source removed" if drift.ref.is_source else "annotation removed"
    return "re-anchored"


def coordinates(analysis: Analysis, ref: CheckedRef, anchor_of: RefDrift) -> list[TextEdit]:
    """The edits that give ``ref`` the coordinates of its anchor (only the values that change)."""
    anchor = anchor_of.anchor
    assert anchor is not None and ref.start is not None and ref.end is not None
    found: list[TextEdit] = []
    for side, boundary, line, text in (
        ("start", ref.start, anchor.start_line, anchor.start_str),
        ("end", ref.end, anchor.end_line, anchor.end_str),
    ):
        for key, old, new in (("line", boundary.line, line), ("str", boundary.str, text)):
            if old == new:
                continue
            node = analysis.node(analysis.session.ref_path(ref) + (side, key))
            if node is not None:
                found.append(TextEdit(node.start, node.end, str(new) if key == "line" else encode_string(str(new))))
    return found


def removed_items(analysis: Analysis, array_path: Path, indices: set[int]) -> list[TextEdit]:
    """Delete the items ``indices`` of the array at ``array_path`` with the commas between
    them (non-overlapping edits; every item gone leaves ``[]``)."""
    array = analysis.node(array_path)
    if not isinstance(array, JArray) or not indices:
        return []
    items = array.items
    gone = sorted(i for i in indices if 0 <= i < len(items))
    if len(gone) == len(items):
        return [TextEdit(array.start + 1, array.end - 1, "")]
    last_kept = max(i for i in range(len(items)) if i not in indices)
    return [
        TextEdit(items[i].start, items[i + 1].start, "")
        if i < last_kept
        else TextEdit(items[i - 1].end, items[i].end, "")
        for i in gone
    ]


def _removals(analysis: Analysis, outcomes: list[Accepted]) -> tuple[list[TextEdit], set[Path]]:
    """The edits removing deleted sources and annotations whose claim was deleted, and the
    paths of the items removed."""
    annotations = {int(o.annotation[1]) for o in outcomes if o.action == "annotation removed"}
    sources: dict[Path, set[int]] = {}
    for o in outcomes:
        path = o.drift.path
        if o.action == "source removed" and int(o.annotation[1]) not in annotations:
            sources.setdefault(path[:-1], set()).add(int(path[-1]))
    edits = removed_items(analysis, ("annotations",), set(annotations))
    gone: set[Path] = {("annotations", i) for i in annotations}
    for array, indices in sources.items():
        edits += removed_items(analysis, array, indices)
        gone |= {array + (i,) for i in indices}
    return edits, gone


def document_edits(analysis: Analysis, document: DocumentDrift, accept: bool) -> list[TextEdit]:
    """The replacements that bring one document up to date: its ``content``, and the
    coordinates of each ref carried over (with ``accept``, each edited ref too). Removals are
    :func:`synced`'s (they may span several documents' refs)."""
    content = document.content
    node = analysis.content_node(document.document)
    if content is None or node is None:
        return []
    found: list[TextEdit] = [TextEdit(node.start, node.end, encode_string(content))]
    for ref in document.refs:
        if ref.anchor is None or not ref.moves or ref.state == "deleted" or (ref.changed and not accept):
            continue
        found += coordinates(analysis, ref.ref, ref)
    return found


def synced(drift: Drift, accept: bool | frozenset[str] = False) -> Synced:
    """Every replacement of the session's text a sync makes (non-overlapping, in order), and
    what accepting does to each changed ref of the documents accepted."""
    analysis = drift.analysis
    documents = drift.updated(accept)
    outcomes = [
        Accepted(ref, outcome_of(ref), ref.path[:2], claim_text(ref.ref))
        for document in documents
        for ref in document.changed_refs
    ]
    removals, gone = _removals(analysis, outcomes)
    edits = [edit for document in documents for edit in document_edits(analysis, document, accept=True)]
    kept = [edit for edit in edits if not _inside_any(analysis, edit, gone)]
    return Synced(tuple(sorted(kept + removals)), tuple(outcomes))


def _inside_any(analysis: Analysis, edit: TextEdit, gone: set[Path]) -> bool:
    """Whether an edit lies in an item being removed (found by its place in the text)."""
    for path in gone:
        node = analysis.node(path)
        if node is not None and node.start <= edit[0] and edit[1] <= node.end:
            return True
    return False


def with_verdicts(before: Analysis, result: Synced, after: Analysis) -> Synced:
    """The outcomes with the verdict each annotation had and has after the sync (the
    annotations removed are counted out of the indices after them)."""
    old = {v.path: v.verdict for v in before.summary.verdicts}
    new = {v.path: v.verdict for v in after.summary.verdicts}
    removed = sorted({int(o.annotation[1]) for o in result.outcomes if o.action == "annotation removed"})

    def now(path: Path) -> str | None:
        index = path[1]
        if not isinstance(index, int) or index in removed:
            return None
        return new.get(("annotations", index - sum(1 for r in removed if r < index)))

    return Synced(
        result.edits,
        tuple(replace(o, verdict=old.get(o.annotation), verdict_after=now(o.annotation)) for o in result.outcomes),
    )


def ref_removal(analysis: Analysis, ref: CheckedRef) -> list[TextEdit]:
    """Remove a source from its annotation (a claim: its annotation), whatever the rest of its
    document's drift: a removed ref cites nothing, in the old content or the new."""
    path = analysis.session.ref_path(ref)
    if ref.is_source:
        return removed_items(analysis, path[:-1], {int(path[-1])})
    return removed_items(analysis, ("annotations",), {int(path[1])})


def cited_at(analysis: Analysis, document: DocumentDrift, ref: RefDrift, place: TextPlace) -> list[TextEdit] | None:
    """Bring the document up to date with ``ref`` citing its text at ``place`` (a copy, or one
    of the places it moved to); None when another ref of the document changed too (that one
    is judged first) or no boundary is unique there."""
    if place.anchor is None or any(other.changed and other.ref is not ref.ref for other in document.refs):
        return None
    chosen = replace(ref, state="moved", now=ref.was, anchor=place.anchor)
    return sorted(document_edits(analysis, document, accept=False) + coordinates(analysis, ref.ref, chosen))


__all__ = [
    "Accepted",
    "Synced",
    "cited_at",
    "claim_text",
    "document_edits",
    "ref_removal",
    "removed_items",
    "synced",
    "with_verdicts",
]

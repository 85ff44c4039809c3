"""The memo layer: the check's queries answered from the previous check while what they read holds.

The check is two pure functions of values (in ``rules.py``): ``check_document`` (a document's
value at a path) and ``AnnotationRules.annotation`` (an annotation's value at a path, against
the session's documents). This module is what sits around them, in salsa's shape: each result
is remembered by the *identity of its value* (the parse keeps the plain value of an item it did
not touch, so an unchanged annotation is the very same object) with its *dependencies* (the
content of each document its refs resolved in, by identity, and the list of documents an
unknown path's message names). The next check asks :class:`Memo`: a value met again whose
dependencies hold is answered from the previous result, *placed* where it is now (its findings,
which know their paths, as new objects if it moved; an annotation and its refs do not know
their index, see session.py); any other value is checked.

Over the annotations array the memo answers in bulk: after an edit inside annotations (the
array the same length) every result but the edited ones' and those citing a changed document
is spliced back in C; after annotations were added or removed, the items at the start and at
the end that are the very same are reused, spliced in C: only the findings of those at the end
are made again, at their new indexes.

Nothing of the previous check is changed that another reader may still read: a
:class:`CheckMemo` is handed over to the next check like a tree (that check takes its parts),
and the analyses holding the results are immutable snapshots.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import accumulate, compress, islice
from typing import Any, Protocol

from .fastpaths import ALL, FastPaths
from .messages import name
from .session import Annotation, CheckedRef, Document, Mention, Path, Violation
from .syntax import Cancelled, Stop

Results = tuple[list[Annotation], list[CheckedRef], list[Violation]]
Spliced = tuple[int, int, int]
"""What an incremental parse replaced in the annotations array: items ``[first, first +
count)`` of the previous one by ``new`` items, the others the very same (first, count, new);
(0, 0, 0) when the array is the previous one."""


@dataclass(slots=True)
class AnnotationCheck:
    """What checking one annotation gave, and what it depended on."""

    value: Any  # the annotation's JSON value (reused only while it is the very same object)
    # What it depended on (see ``depends``); None for an annotation whose refs all resolved
    # in documents of the session: read off them when first asked.
    known_depends: dict[str | None, Any] | None
    annotation: Annotation | None  # None for a value that is not an object (not remembered)
    findings: list[Violation]
    refs: list[CheckedRef]
    ref_findings: dict[Path, list[Violation]]  # of each ref that has some, by its path in the annotation
    # The keys its objects hold in all, when the one-go check saw each object's keys (-1
    # otherwise): its text holding no more `:` than that holds no key twice (see JLazy).
    keys: int = -1

    @property
    def depends(self) -> dict[str | None, Any]:
        """{document path: the content it was checked against (None: no such document)}; the
        None key holds the list of documents that an unknown path's message names."""
        if self.known_depends is None:
            self.known_depends = {ref.doc_path: ref.document.content for ref in self.refs}  # type: ignore[union-attr]
        return self.known_depends


@dataclass(slots=True)
class CheckMemo:
    """What one check hands to the next: annotations and documents whose JSON values are
    the very same objects (an incremental parse keeps them), with what they depend on.
    Handed over like a tree: the check it is given to takes (and changes) its parts."""

    # by the identity of the annotation's value (kept alive here): an annotation is what it
    # is wherever it moves, so inserting one does not check those after it again
    annotations: dict[int, AnnotationCheck] = field(default_factory=dict)
    # (path, content) by identity -> Document, so that line tables are split once
    documents: dict[tuple[str, int], Document] = field(default_factory=dict)
    # path -> identity of the Document refs resolve against
    winners: dict[str, int] | None = None
    # the annotations array's items, to find the one an edit changed
    array: list[Any] | None = None
    # What checking the array gave, in order (annotations, refs, findings), and how many of
    # each came from each item: enough to splice one item's results in and out.
    results: Results = ([], [], [])
    counts: tuple[list[int], list[int], list[int]] = ([], [], [])
    # Where each item's results start, of each kind (``accumulate`` of ``counts``), once
    # asked for; a kind's list is kept by the next check when its counts did not change.
    offsets: list[list[int] | None] = field(default_factory=lambda: [None, None, None])
    # Findings of annotations that moved, by identity: the previous check's finding each
    # one is (its place in the text moved with the text, if the edit left it whole).
    origins: dict[int, Violation] = field(default_factory=dict)
    # Of a check that tried each item of the array in one go, the keys of each it found
    # clean, by index (0: not clean): what settles keys twice (see Analysis).
    clean_keys: list[int] | None = None


class AnnotationQuery(Protocol):
    """The annotation query the memo wraps (``rules.AnnotationRules``)."""

    by_path: Mapping[str, Document]
    fast_annotations: bool

    def annotation(self, value: Any, path: Path, kept: Kept | None = None) -> AnnotationCheck: ...

    def clean_annotation(self, value: Any, path: Path) -> AnnotationCheck | None: ...

    def known_documents(self) -> str: ...


class Kept:
    """The refs of an unchanged annotation that cite unchanged documents, with their findings,
    by their paths in the annotation: the annotation's check takes them as they were."""

    __slots__ = ("memo", "refs")

    def __init__(self, memo: Memo, refs: dict[Path, tuple[CheckedRef, list[Violation]]]) -> None:
        self.memo, self.refs = memo, refs

    def take(self, annotation: Annotation, path: Path, tail: Path) -> tuple[CheckedRef, list[Violation]] | None:
        """The ref at ``tail`` in the annotation at ``path`` as checked before (linked to
        ``annotation``, the new object the annotation is, and to its document where that
        moved) with its findings; None when it is to be checked."""
        found = self.refs.get(tail)
        if found is None:
            return None
        old, findings = found
        ref = old.moved(annotation, self.memo.relink.get(id(old.document), old.document))
        return ref, [self.memo.moved_finding(f, path, {id(old): ref}) for f in findings]


class Memo:
    """One check's memo layer: the previous check's results (``previous``, handed over), what
    this check hands on (``memo``), and the queries answered from the one or by the rules."""

    def __init__(
        self,
        previous: CheckMemo | None = None,
        stop: Stop | None = None,
        fast: FastPaths = ALL,
        spliced: Spliced | None = None,
    ) -> None:
        """``spliced``: what the incremental parse replaced in the previous check's annotations
        array, when it knows (see :data:`Spliced`)."""
        self.previous = previous if previous is not None and fast.reuse else CheckMemo()
        self.spliced = spliced
        self.memo = CheckMemo()
        self.stop = stop
        # The previous check's documents that are at another place now, by identity: the
        # same document (path and content), to be linked from the refs that resolved in it.
        self.relink: dict[int, Document] = {}
        self.documents_unchanged = False
        self.by_path: Mapping[str, Document] = {}

    # -- documents

    def known_document(self, doc_path: str, content: str) -> Document | None:
        """The previous check's document of this path and this very content, if any."""
        known = self.previous.documents.get((doc_path, id(content)))
        return known if known is not None and known.content is content else None

    def keep_document(self, document: Document) -> None:
        """Remember a document of the session for the next check (a moved one relinked)."""
        key = (document.path, id(document.content))
        known = self.previous.documents.get(key)
        if known is not None and known is not document and known.content is document.content:
            self.relink[id(known)] = document
        self.memo.documents[key] = document

    def settle_documents(self, by_path: Mapping[str, Document]) -> None:
        """The documents refs resolve against are settled: whether they are the very ones of
        the previous check (then every annotation whose value is unchanged is reused without
        looking further)."""
        winners = {path: id(document) for path, document in by_path.items()}
        self.documents_unchanged = self.previous.winners is not None and self.previous.winners == winners
        self.memo.winners = winners
        self.by_path = by_path

    # -- annotations

    def annotations(self, value: list[Any], rules: AnnotationQuery) -> Results:
        """The annotations, refs and findings of the annotations array, in order: taken from the
        previous check where they can be, the other items checked by ``rules``."""
        self.settle_documents(rules.by_path)
        changed = self.changed_annotations(value)
        if changed is not None:
            return self.reuse_all_but(value, changed, rules)
        kept = self.kept_around(value)
        if kept is not None:
            return self.reuse_around(value, *kept, rules)
        annotations: list[Annotation] = []
        refs: list[CheckedRef] = []
        findings: list[Violation] = []
        # How many annotations, refs and findings each item gave (in one loop over 10,000
        # items, the least done per item counts).
        counts: tuple[list[int], list[int], list[int]] = ([], [], [])
        add_annotation, add_refs, add_findings = annotations.append, refs.extend, findings.extend
        count_annotation, count_refs, count_findings = (kind.append for kind in counts)
        stop, check, clean = self.stop, self.annotation, rules.clean_annotation
        remember = self.memo.annotations
        fresh = not self.previous.annotations and rules.fast_annotations  # nothing to reuse: each tried in one go
        clean_keys: list[int] = []
        keep_keys = clean_keys.append
        for index, item in enumerate(value):
            if stop is not None and stop.is_set():
                raise Cancelled
            path = ("annotations", index)
            result = clean(item, path) if fresh else None
            if result is not None:
                remember[id(item)] = result
                keep_keys(result.keys)
                add_annotation(result.annotation)  # type: ignore[arg-type]  # (always one)
                add_refs(result.refs)
                count_annotation(1)
                count_refs(len(result.refs))
                count_findings(0)
                continue
            result = check(item, path, rules, tried=fresh)
            keep_keys(0)
            if result.annotation is not None:
                add_annotation(result.annotation)
            add_refs(result.refs)
            add_findings(result.findings)
            count_annotation(0 if result.annotation is None else 1)
            count_refs(len(result.refs))
            count_findings(len(result.findings))
        self.memo.array = value
        self.memo.clean_keys = clean_keys if fresh else None
        self.memo.results = (annotations, refs, findings)
        self.memo.counts = counts
        return self.memo.results

    def annotation(self, value: Any, path: Path, rules: AnnotationQuery, tried: bool = False) -> AnnotationCheck:
        """The query of one annotation: the previous result placed at ``path`` while its value is
        the same object and what it depended on holds, else checked (``tried``: the one-go check
        declined it already), the refs that cite unchanged documents kept."""
        cached = self.previous.annotations.get(id(value))
        kept = None
        if cached is not None and cached.value is value:
            if self.documents_unchanged or self.still_holds(cached.depends):
                placed = self.memo.annotations[id(value)] = self.placed(cached, path)
                return placed
            kept = self.untouched_refs(cached)
        elif not tried and rules.fast_annotations:
            clean = rules.clean_annotation(value, path)
            if clean is not None:
                self.memo.annotations[id(value)] = clean
                return clean
        result = rules.annotation(value, path, kept)
        if result.annotation is not None:
            self.memo.annotations[id(value)] = result
        return result

    def counted(self, value: Any, index: int, rules: AnnotationQuery, into: Results) -> tuple[int, int, int]:
        """The annotation at ``index`` (see :meth:`annotation`), its results added to ``into``:
        how many annotations, refs and findings it gave."""
        result = self.annotation(value, ("annotations", index), rules)
        if result.annotation is not None:
            into[0].append(result.annotation)
        into[1].extend(result.refs)
        into[2].extend(result.findings)
        return (0 if result.annotation is None else 1, len(result.refs), len(result.findings))

    def changed_annotations(self, value: list[Any]) -> list[int] | None:
        """The indexes of the annotations to check again after an edit, when the others keep
        their places and results; None when the array must be walked (items were added or
        removed: those after them move, see :meth:`annotation`).

        An edit in one annotation changes that item (the others are the same objects). An
        edit in a document's content changes that document: the annotations citing it are
        checked again (a content edit re-checks only what cites it)."""
        previous = self.previous
        if previous.array is None or len(previous.array) != len(value):
            return None
        spliced = self.spliced
        if spliced is not None and spliced[1] == spliced[2]:  # the parse says which items are new
            edited = list(range(spliced[0], spliced[0] + spliced[1]))
        else:
            differs = list(map(operator.is_not, previous.array, value))  # in C: no loop in Python
            edited = list(compress(range(len(differs)), differs))  # in C
        if self.documents_unchanged:
            return edited
        before, now = previous.winners, self.memo.winners
        if before is None or now is None or list(before) != list(now):
            return None  # documents were added, removed, renamed or reordered
        touched = {path for path, identity in now.items() if before[path] != identity}
        new = set(edited)
        citing = {
            index
            for index, item in enumerate(value)
            if index not in new
            and (cached := previous.annotations.get(id(item))) is not None
            and not touched.isdisjoint(cached.depends)
        }
        return sorted(citing.union(edited))

    def reuse_all_but(self, value: list[Any], changed: list[int], rules: AnnotationQuery) -> Results:
        """Take every annotation's results from the previous check, checking only the
        ``changed`` ones again: the previous results are spliced, not walked, so the cost
        follows the number of changed annotations (plus copying lists in C)."""
        previous = self.previous
        self.memo.annotations = previous.annotations  # handed over (see CheckMemo), not copied
        self.memo.array = value
        results: Results = ([], [], [])
        counts = (previous.counts[0].copy(), previous.counts[1].copy(), previous.counts[2].copy())
        offsets = self.result_offsets()
        done = 0  # items before this one are taken care of
        assert previous.array is not None
        for index in [*changed, len(value)]:
            self.take_previous(offsets, done, index, results)
            if index == len(value):
                break
            if previous.array[index] is not value[index]:  # its memory goes with it
                self.memo.annotations.pop(id(previous.array[index]), None)
            for kind, count in zip(counts, self.counted(value[index], index, rules, results), strict=True):
                kind[index] = count
            done = index + 1
        self.memo.results = results
        self.memo.counts = counts
        # A kind whose counts are the same keeps its offsets (typing in an annotation
        # changes its findings, seldom its refs).
        self.memo.offsets = [
            offsets[k] if all(counts[k][i] == previous.counts[k][i] for i in changed) else None for k in range(3)
        ]
        return results

    def result_offsets(self) -> list[list[int]]:
        """Where each item's results start in the previous results, of each kind."""
        offsets = self.previous.offsets
        for k, kind in enumerate(self.previous.counts):
            if offsets[k] is None:
                offsets[k] = list(accumulate(kind, initial=0))  # in C
        return [kind for kind in offsets if kind is not None]

    def take_previous(self, offsets: list[list[int]], start: int, stop: int, into: Results) -> None:
        """The previous results of items ``[start, stop)`` (unchanged, at their places), spliced in."""
        results = self.previous.results
        for k in range(3):
            into[k].extend(results[k][offsets[k][start] : offsets[k][stop]])  # type: ignore[arg-type]

    def kept_around(self, value: list[Any]) -> tuple[int, int] | None:
        """After annotations were added or removed (pasted, deleted, typed, moved), the
        documents unchanged: how many items at the start and at the end of the array are the
        very ones of the previous check. None when that is not the case."""
        previous = self.previous.array
        if previous is None or len(previous) == len(value) or not self.documents_unchanged:
            return None
        spliced = self.spliced
        if spliced is not None and len(previous) - spliced[1] + spliced[2] == len(value):
            return spliced[0], len(previous) - spliced[0] - spliced[1]  # as the parse says
        both = min(len(previous), len(value))
        head = list(map(operator.is_not, previous[:both], value[:both]))  # in C
        first = head.index(True) if True in head else both
        tail = list(map(operator.is_not, previous[::-1][: both - first], value[::-1][: both - first]))
        return first, tail.index(True) if True in tail else both - first

    def reuse_around(self, value: list[Any], first: int, last: int, rules: AnnotationQuery) -> Results:
        """Take the results of the ``first`` and ``last`` items of the array from the
        previous check (spliced in C, the findings of those at the end made again at their new
        indexes), checking the items between them."""
        previous = self.previous
        assert previous.array is not None
        before = len(previous.array)
        self.memo.annotations = memo = previous.annotations  # handed over (see CheckMemo)
        self.memo.array = value
        for item in previous.array[first : before - last]:  # their memory goes with them
            memo.pop(id(item), None)
        results: Results = ([], [], [])
        self.take_previous(self.result_offsets(), 0, first, results)
        counts = tuple(kind[:first] for kind in previous.counts)
        for index in range(first, len(value) - last):
            for kind, count in zip(counts, self.counted(value[index], index, rules, results), strict=True):
                kind.append(count)
        if self.relink or not self.splice_tail(value, len(value) - last, before - last, rules, results, counts):
            self.place_tail(value, len(value) - last, rules, results, counts)
        self.memo.results = results
        self.memo.counts = (counts[0], counts[1], counts[2])
        return results

    def splice_tail(
        self,
        value: list[Any],
        start: int,
        old_start: int,
        rules: AnnotationQuery,
        into: Results,
        counts: tuple[list[int], ...],
    ) -> bool:
        """The items from ``start`` to the end, the very ones the previous check had from
        ``old_start``, at their new indexes: their annotations and refs spliced in C (neither
        knows its index), only the findings of those that have some made again at their new
        paths. False, with nothing done, when one of those is not remembered (then each item
        is placed, see :meth:`place_tail`)."""
        previous, memo = self.previous, self.memo.annotations
        old_counts, offsets = previous.counts, self.result_offsets()
        objects, found = old_counts[0][old_start:], old_counts[2][old_start:]
        with_findings = list(compress(range(len(found)), found))  # in C: a few hundred of 10,000
        # Each of those, remembered (None: not an object, checked again, a finding or two).
        remembered: list[tuple[int, Any, AnnotationCheck | None]] = []
        for k in with_findings:
            item = value[start + k]
            cached = memo.get(id(item))
            if cached is None or cached.value is not item:
                if objects[k]:
                    return False
                cached = None
            remembered.append((start + k, item, cached))
        into[0].extend(previous.results[0][offsets[0][old_start] :])
        into[1].extend(previous.results[1][offsets[1][old_start] :])
        counts[0].extend(objects)
        counts[1].extend(old_counts[1][old_start:])
        counts[2].extend(found)
        findings, place = into[2], self.placed
        for index, item, cached in remembered:
            if cached is None:
                result = self.annotation(item, ("annotations", index), rules)
                findings.extend(result.findings)
                counts[2][index] = len(result.findings)
                continue
            placed = memo[id(item)] = place(cached, ("annotations", index))
            findings.extend(placed.findings)
        return True

    def place_tail(
        self, value: list[Any], start: int, rules: AnnotationQuery, into: Results, counts: tuple[list[int], ...]
    ) -> None:
        """The items from ``start`` to the end, each placed at its index (or checked again)."""
        memo = self.memo.annotations
        place, append, extend_refs, extend_findings = self.placed, into[0].append, into[1].extend, into[2].extend
        count_annotation, count_refs, count_findings = counts[0].append, counts[1].append, counts[2].append
        for index in range(start, len(value)):
            item = value[index]
            cached = memo.get(id(item))
            if cached is None or cached.value is not item:  # not an object: checked again (a finding or two)
                for kind, count in zip(counts, self.counted(item, index, rules, into), strict=True):
                    kind.append(count)
                continue
            placed = memo[id(item)] = place(cached, ("annotations", index))
            append(placed.annotation)  # type: ignore[arg-type]  # (remembered: an object)
            extend_refs(placed.refs)
            extend_findings(placed.findings)
            count_annotation(1)
            count_refs(len(placed.refs))
            count_findings(len(placed.findings))

    def placed(self, cached: AnnotationCheck, path: Path) -> AnnotationCheck:
        """What checking an unchanged annotation gave, at ``path`` (it moved when items
        before it were added or removed), its refs linked to the documents at their places
        now: the same results, its findings (which know their paths) made again if it moved,
        its annotation and refs made again only if a document they resolved in moved."""
        relink = self.relink
        moved_documents = bool(relink) and any(id(ref.document) in relink for ref in cached.refs)
        findings = cached.findings
        if not moved_documents and (not findings or findings[0].path[:2] == path):
            return cached
        old = cached.annotation
        assert old is not None  # only objects are remembered
        annotation, refs = old, cached.refs
        if moved_documents:
            annotation = Annotation()
            refs = [ref.moved(annotation, relink.get(id(ref.document), ref.document)) for ref in cached.refs]
            # The refs are the claim and the sources in the order of their keys.
            if old.claim is None:
                annotation.sources = refs
            elif cached.refs and cached.refs[0] is old.claim:
                annotation.claim, annotation.sources = refs[0], refs[1:]
            else:
                annotation.claim, annotation.sources = refs[-1], refs[:-1]
        if not findings:
            # (what it depends on, if not read yet, is read off the moved refs: the same)
            return AnnotationCheck(cached.value, cached.known_depends, annotation, [], refs, {}, cached.keys)
        by_old = {id(old_ref): ref for old_ref, ref in zip(cached.refs, refs, strict=True)} if moved_documents else {}
        moved = {id(f): self.moved_finding(f, path, by_old) for f in findings}
        return AnnotationCheck(
            cached.value,
            cached.depends,
            annotation,
            list(moved.values()),
            refs,
            {tail: [moved[id(f)] for f in found] for tail, found in cached.ref_findings.items()},
        )

    def moved_finding(self, finding: Violation, path: Path, refs: dict[int, CheckedRef]) -> Violation:
        """A finding of an annotation that moved to ``path`` (or of a ref of it made again:
        ``refs`` gives each new ref by the old one's identity)."""
        moved = Violation(
            finding.code,
            finding.severity,
            finding.message,
            path + finding.path[2:],
            refs.get(id(finding.ref), finding.ref) if finding.ref is not None else None,
            finding.extent,
            tuple(Mention(m.placeholder, path + m.path[2:], m.template) for m in finding.mentions),
        )
        self.memo.origins[id(moved)] = finding
        return moved

    def untouched_refs(self, cached: AnnotationCheck) -> Kept | None:
        """The refs of an unchanged annotation that do not cite a changed document, with
        their findings (by their paths in the annotation): only the others are checked again."""
        deps, refs, ref_findings = cached.depends, cached.refs, cached.ref_findings
        if None in deps and deps[None] != self.known_documents():
            return None
        return Kept(
            self,
            {
                ref.tail: (ref, ref_findings.get(ref.tail, []))
                for ref in refs
                if not isinstance(ref.doc_path, str) or self.content_of(ref.doc_path) is deps[ref.doc_path]
            },
        )

    def still_holds(self, deps: dict[str | None, Any]) -> bool:
        """Whether the documents an annotation's check depended on are as they were."""
        for doc_path, content in deps.items():
            if doc_path is None:
                if content != self.known_documents():
                    return False
            elif self.content_of(doc_path) is not content:
                return False
        return True

    def content_of(self, doc_path: str) -> str | None:
        """The content refs to ``doc_path`` resolve against now (None: no such document)."""
        document = self.by_path.get(doc_path)
        return document.content if document is not None else None

    def known_documents(self) -> str:
        """The list of documents an unknown path's message names, now."""
        return known_documents(self.by_path)


def known_documents(by_path: Mapping[str, Document]) -> str:
    """The documents an unknown path's message names (the first eight, by their names)."""
    return ", ".join(map(name, islice(by_path, 8))) or "none"

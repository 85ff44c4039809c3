"""What a check takes from the previous one: the results of the annotations that did not change.

The checker (:class:`~.rules.Checker`) is an :class:`AnnotationReuse`. A check remembers, in a
:class:`~.incremental.CheckMemo`, each annotation's results by the identity of its value (the
parse keeps the plain value of an item it did not touch) with what they depended on (the
documents its refs resolved in). The next check reuses them: after an edit inside annotations
(the array the same length) every result but the edited ones' and those citing a changed
document is spliced back in C; after annotations were added or removed, the items at the start
and at the end that are the very same are reused, those at the end placed at their new indexes
(their refs and findings moved, as new objects); an annotation met again elsewhere keeps its
results when what it depended on holds. Nothing of the previous check is changed: it may
still be read by another feature.
"""

from __future__ import annotations

import operator
from itertools import accumulate, compress
from typing import Any

from .incremental import AnnotationCheck, CheckMemo
from .session import Annotation, Document, Finding, Mention, Path, Ref, Session


class AnnotationReuse:
    """The reuse of a check's previous results; the checker supplies its state."""

    previous: CheckMemo
    memo: CheckMemo
    session: Session
    findings: list[Finding]
    relink: dict[int, Document]

    @property
    def documents_unchanged(self) -> bool:
        raise NotImplementedError

    def counted_annotation(self, value: Any, index: int) -> tuple[int, int, int]:
        raise NotImplementedError

    def content_of(self, doc_path: str) -> str | None:
        raise NotImplementedError

    def known_documents(self) -> str:
        raise NotImplementedError

    def changed_annotations(self, value: list[Any]) -> list[int] | None:
        """The indexes of the annotations to check again after an edit, when the others keep
        their places and results; None when the array must be walked (items were added or
        removed: those after them move, see :meth:`annotation`).

        An edit in one annotation changes that item (the others are the same objects). An
        edit in a document's content changes that document: the annotations citing it are
        checked again (a content edit re-checks only what cites it)."""
        previous = self.previous
        documents_unchanged = self.documents_unchanged  # also records the documents for the next check
        if previous.array is None or len(previous.array) != len(value):
            return None
        differs = list(map(operator.is_not, previous.array, value))  # in C: no loop in Python
        edited = list(compress(range(len(differs)), differs))  # in C
        if documents_unchanged:
            return edited
        before, now = previous.winners, self.memo.winners
        if before is None or now is None or list(before) != list(now):
            return None  # documents were added, removed, renamed or reordered
        touched = {path for path, identity in now.items() if before[path] != identity}
        citing = {
            index
            for index, item in enumerate(value)
            if not differs[index]
            and (cached := previous.annotations.get(id(item))) is not None
            and not touched.isdisjoint(cached.depends)
        }
        return sorted(citing.union(edited))

    def reuse_all_but(self, value: list[Any], changed: list[int]) -> None:
        """Take every annotation's results from the previous check, checking only the
        ``changed`` ones again: the previous results are spliced, not walked, so the cost
        follows the number of changed annotations (plus copying lists in C)."""
        previous = self.previous
        self.memo.annotations = previous.annotations  # handed over (see CheckMemo), not copied
        self.memo.array = value
        annotations, refs, findings = self.session.annotations, self.session.refs, self.findings
        first_finding = len(findings)
        counts = (previous.counts[0].copy(), previous.counts[1].copy(), previous.counts[2].copy())
        offsets = self.result_offsets()
        done = 0  # items before this one are taken care of
        assert previous.array is not None
        for index in [*changed, len(value)]:
            self.take_previous(offsets, done, index)
            if index == len(value):
                break
            if previous.array[index] is not value[index]:  # its memory goes with it
                self.memo.annotations.pop(id(previous.array[index]), None)
            for kind, count in zip(counts, self.counted_annotation(value[index], index), strict=True):
                kind[index] = count
            done = index + 1
        self.memo.results = (annotations, refs, findings[first_finding:])
        self.memo.counts = counts
        # A kind whose counts are the same keeps its offsets (typing in an annotation
        # changes its findings, seldom its refs).
        self.memo.offsets = [
            offsets[k] if all(counts[k][i] == previous.counts[k][i] for i in changed) else None for k in range(3)
        ]

    def result_offsets(self) -> list[list[int]]:
        """Where each item's results start in the previous results, of each kind."""
        offsets = self.previous.offsets
        for k, kind in enumerate(self.previous.counts):
            if offsets[k] is None:
                offsets[k] = list(accumulate(kind, initial=0))  # in C
        return [kind for kind in offsets if kind is not None]

    def take_previous(self, offsets: list[list[int]], start: int, stop: int) -> None:
        """The previous results of items ``[start, stop)`` (unchanged, at their places), spliced in."""
        results = self.previous.results
        self.session.annotations.extend(results[0][offsets[0][start] : offsets[0][stop]])
        self.session.refs.extend(results[1][offsets[1][start] : offsets[1][stop]])
        self.findings.extend(results[2][offsets[2][start] : offsets[2][stop]])

    def kept_around(self, value: list[Any]) -> tuple[int, int] | None:
        """After annotations were added or removed (pasted, deleted, typed, moved), the
        documents unchanged: how many items at the start and at the end of the array are the
        very ones of the previous check. None when that is not the case."""
        previous = self.previous.array
        if previous is None or len(previous) == len(value) or not self.documents_unchanged:
            return None
        both = min(len(previous), len(value))
        head = list(map(operator.is_not, previous[:both], value[:both]))  # in C
        first = head.index(True) if True in head else both
        tail = list(map(operator.is_not, previous[::-1][: both - first], value[::-1][: both - first]))
        return first, tail.index(True) if True in tail else both - first

    def reuse_around(self, value: list[Any], first: int, last: int) -> None:
        """Take the results of the ``first`` and ``last`` items of the array from the
        previous check (those at the start spliced in C; those at the end placed at their new
        indexes), checking the items between them."""
        previous = self.previous
        assert previous.array is not None
        before = len(previous.array)
        self.memo.annotations = memo = previous.annotations  # handed over (see CheckMemo)
        self.memo.array = value
        for item in previous.array[first : before - last]:  # their memory goes with them
            memo.pop(id(item), None)
        annotations, refs, findings = self.session.annotations, self.session.refs, self.findings
        first_finding = len(findings)
        self.take_previous(self.result_offsets(), 0, first)
        counts = tuple(kind[:first] for kind in previous.counts)
        for index in range(first, len(value) - last):
            for kind, count in zip(counts, self.counted_annotation(value[index], index), strict=True):
                kind.append(count)
        for index in range(len(value) - last, len(value)):
            item = value[index]
            cached = memo.get(id(item))
            if cached is None or cached.value is not item:  # not an object: checked again (a finding or two)
                for kind, count in zip(counts, self.counted_annotation(item, index), strict=True):
                    kind.append(count)
                continue
            placed = memo[id(item)] = self.placed(cached, ("annotations", index))
            annotations.append(placed.annotation)
            refs.extend(placed.refs)
            findings.extend(placed.findings)
            counts[0].append(1)
            counts[1].append(len(placed.refs))
            counts[2].append(len(placed.findings))
        self.memo.results = (annotations, refs, findings[first_finding:])
        self.memo.counts = (counts[0], counts[1], counts[2])

    def placed(self, cached: AnnotationCheck, path: Path) -> AnnotationCheck:
        """What checking an unchanged annotation gave, at ``path`` (it moved when items
        before it were added or removed), its refs linked to the documents at their places
        now: the same results, as new objects only where something moved."""
        relink = self.relink
        moved_documents = bool(relink) and any(id(ref.document) in relink for ref in cached.refs)
        old = cached.annotation
        if old.json_path == path and not moved_documents:
            return cached
        annotation = Annotation(path)
        depth = len(old.json_path)
        if relink:
            refs = [
                ref.moved(annotation, path + ref.json_path[depth:], relink.get(id(ref.document), ref.document))
                for ref in cached.refs
            ]
        else:
            refs = [ref.moved(annotation, path + ref.json_path[depth:], ref.document) for ref in cached.refs]
        # The refs are the claim and the sources in the order of their keys.
        if old.claim is None:
            annotation.sources = refs
        elif cached.refs and cached.refs[0] is old.claim:
            annotation.claim, annotation.sources = refs[0], refs[1:]
        else:
            annotation.claim, annotation.sources = refs[-1], refs[:-1]
        if not cached.findings:
            # (what it depends on, if not read yet, is read off the moved refs: the same)
            return AnnotationCheck(cached.value, cached.known_depends, annotation, [], refs, {}, cached.keys)
        by_old = {id(old_ref): ref for old_ref, ref in zip(cached.refs, refs, strict=True)}
        findings = {id(f): self.moved_finding(f, depth, path, by_old) for f in cached.findings}
        return AnnotationCheck(
            cached.value,
            cached.depends,
            annotation,
            list(findings.values()),
            refs,
            {path + at[depth:]: [findings[id(f)] for f in found] for at, found in cached.ref_findings.items()},
        )

    def moved_finding(self, finding: Finding, depth: int, path: Path, refs: dict[int, Ref]) -> Finding:
        """A finding of an annotation that moved to ``path`` (its old path ``depth`` long)."""
        moved = Finding(
            finding.code,
            finding.severity,
            finding.message,
            path + finding.path[depth:],
            refs.get(id(finding.ref), finding.ref) if finding.ref is not None else None,
            finding.extent,
            tuple(Mention(m.placeholder, path + m.path[depth:], m.template) for m in finding.mentions),
        )
        self.memo.origins[id(moved)] = finding
        return moved

    def untouched_refs(self, cached: AnnotationCheck) -> dict[Path, tuple[Ref, list[Finding]]]:
        """The refs of an unchanged annotation that do not cite a changed document, with
        their findings (by their paths in the annotation): only the others are checked again."""
        deps, refs, ref_findings = cached.depends, cached.refs, cached.ref_findings
        if None in deps and deps[None] != self.known_documents():
            return {}
        depth = len(cached.annotation.json_path)
        return {
            ref.json_path[depth:]: (ref, ref_findings.get(ref.json_path, []))
            for ref in refs
            if not isinstance(ref.doc_path, str) or self.content_of(ref.doc_path) is deps[ref.doc_path]
        }

    def still_holds(self, deps: dict[str | None, Any]) -> bool:
        """Whether the documents an annotation's check depended on are as they were."""
        for doc_path, content in deps.items():
            if doc_path is None:
                if content != self.known_documents():
                    return False
            elif self.content_of(doc_path) is not content:
                return False
        return True

"""docs/rules.md as code: read a session's values, resolve every ref, name every broken rule.

Input is the plain JSON value of a file (dicts, lists, strings, numbers); output is the
:class:`~sourcecheck.session.Session` model and the list of findings, each on the JSON
path of the value it is about. Positions are someone else's business.
"""

from __future__ import annotations

import math
import operator
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .fastpaths import ALL, FastPaths
from .jsonnodes import absent_by_syntax, unreadable_items, unreadable_key
from .meant import POLARITIES, confidence_meant, confidence_text, polarity_word
from .memo import AnnotationCheck, CheckMemo, Kept, Memo, Spliced, known_documents
from .messages import (
    and_list,
    item_number,
    kind_of,
    misspelled_as,
    misspellings,
    name,
    not_found,
    out_of_range,
    reversed_lines,
    same_but_case_or_extension,
    show,
    times,
    wraps_a_session,
)
from .registry import EXIT_CLASS, SEVERITY
from .schema import ANNOTATION_KEYS, BOUNDARY_KEYS, DOCUMENT_KEYS, REF_KEYS, SOURCE_KEYS, TOP_KEYS
from .session import (
    LONG_LINE,
    Annotation,
    Boundary,
    CheckedRef,
    Document,
    Mention,
    Path,
    ResolvedRef,
    Session,
    Side,
    Violation,
    with_lines,
)
from .syntax import Stop

# Each code's severity and exit code: the registry's (one entry per code).


SIDES: tuple[Side, Side] = ("start", "end")
LOW_CONFIDENCE = 0.3

_REF_SET, _SOURCE_SET, _BOUNDARY_SET = frozenset(REF_KEYS), frozenset(SOURCE_KEYS), frozenset(BOUNDARY_KEYS)
_REF_LEN, _SOURCE_LEN, _BOUNDARY_LEN = len(_REF_SET), len(_SOURCE_SET), len(_BOUNDARY_SET)
_ANNOTATION_SET = frozenset(ANNOTATION_KEYS)
_ANNOTATION_LEN = len(_ANNOTATION_SET)
# The keys of a clean annotation's objects: its claim's and each source's, with their
# boundaries' (and its own two).
_CLAIM_KEYS = _REF_LEN + 2 * _BOUNDARY_LEN
_SOURCE_KEYS = _SOURCE_LEN + 2 * _BOUNDARY_LEN
_weak = weakref.ref
_CLAIM: Path = ("claim",)  # a claim's path in its annotation
_KNOWN_SETS: dict[tuple[str, ...], frozenset[str]] = {
    keys: frozenset(keys)
    for keys in (
        DOCUMENT_KEYS,
        ANNOTATION_KEYS,
        REF_KEYS,
        SOURCE_KEYS,
        BOUNDARY_KEYS,
        TOP_KEYS["cli"],
        ("documents",),
        TOP_KEYS["spec"],
    )
}


def exit_code(findings: Iterable[Violation]) -> int:
    """2 for any schema error, else 1 for any resolution failure, else 0."""
    worst = 0
    for finding in findings:
        worst = max(worst, EXIT_CLASS.get(finding.code, 0))
        if worst == 2:
            break
    return worst


_COORDINATES = operator.attrgetter("coordinates")  # see Ref.coordinates


class Rules:
    """What every rule shares: the findings it reports, in order, and the unknown keys."""

    findings: list[Violation]

    def report(
        self, code: str, message: str, path: Path, ref: CheckedRef | None = None, mentions: tuple[Mention, ...] = ()
    ) -> None:
        self.findings.append(Violation(code, SEVERITY[code], message, path, ref, None, mentions))

    def unknown_keys(self, value: dict[str, Any], known: tuple[str, ...], path: Path, what: str) -> None:
        if value.keys() <= _KNOWN_SETS[known]:
            return  # the common case, checked in C
        meant = {typo: key for key, typo in misspellings(value, known).items()}
        allowed = ", ".join(f"`{k}`" for k in known)
        for key in value:
            if key in meant:
                self.report(
                    "unknown-field",
                    f"{show(key)} is not a field of {what}: did you mean `{meant[key]}`? (The fields are {allowed}.)",
                    path + (key,),
                )
            elif key not in known and path == () and len(value) == 1 and wraps_a_session(value[key]):
                self.report(
                    "unknown-field",
                    f"{show(key)} is not a field of {what}, but the session is written inside it, where it is not "
                    "read: move its value out to the top level in place of the wrapper (`sourcecheck --fix` does)",
                    path + (key,),
                )
            elif key not in known:
                self.report(
                    "unknown-field",
                    f"{show(key)} is not a field of {what}; the fields are {allowed}. Check the spelling or remove it",
                    path + (key,),
                )


class SessionRules(Rules):
    """The rules of a session's top level and its documents; its annotations are asked of the
    memo layer (:class:`~.memo.Memo`), which answers from the previous check or has
    :class:`AnnotationRules` check them."""

    def __init__(self, memo: Memo, fast: FastPaths = ALL) -> None:
        self.memo = memo
        self.fast = fast
        self.findings = []
        self.session = Session()

    # -- top level

    def check(self, root: Any) -> None:
        if not isinstance(root, dict):
            self.report(
                "invalid-field",
                f"a session must be a JSON object with `documents` and `annotations`, not {kind_of(root)}",
                (),
            )
            return
        if "session" in root or unreadable_key(root, "session"):
            self.session.shape = "cli"
            self.unknown_keys(root, TOP_KEYS["cli"], (), "a session file of this shape ({session, annotations})")
            inner = root.get("session")
            if "session" not in root:
                pass  # written, but its value could not be read: the syntax issue says so
            elif not isinstance(inner, dict):
                self.report(
                    "invalid-field", f"`session` must be an object with `documents`, not {kind_of(inner)}", ("session",)
                )
            elif "documents" not in inner:
                if not absent_by_syntax(inner, "documents"):
                    self.report(
                        "invalid-field",
                        '`session` has no `documents`; add `"documents": []` with the documents the refs point into'
                        + misspelled_as(inner, "documents", ("documents",)),
                        ("session",),
                    )
            else:
                nested = inner.get("annotations")
                if isinstance(nested, list):  # written inside `session`: never read
                    count = len(nested)
                    self.report(
                        "unknown-field",
                        f"`annotations` is written inside `session`, where it is not read: its {count} "
                        f"annotation{'s are' if count != 1 else ' is'} not checked. Move it out to the top level, "
                        "beside `session` (`sourcecheck --fix` does)",
                        TOP_KEYS["cli"],
                    )
                    inner = {key: value for key, value in inner.items() if key != "annotations"}
                self.unknown_keys(inner, ("documents",), ("session",), "`session`")
                self.documents(inner["documents"], ("session", "documents"))
        else:
            self.unknown_keys(root, TOP_KEYS["spec"], (), "a session")
            if "documents" not in root:
                if not absent_by_syntax(root, "documents"):
                    self.report(
                        "invalid-field",
                        'the session has no `documents`; add `"documents": [...]` with the documents the refs point '
                        "into" + misspelled_as(root, "documents", TOP_KEYS["spec"]),
                        (),
                    )
            else:
                self.documents(root["documents"], ("documents",))
        if "annotations" not in root:
            inner = root.get("session")
            if isinstance(inner, dict) and isinstance(inner.get("annotations"), list):
                self.report(
                    "invalid-field",
                    "the session has no `annotations` at its top level; those written inside `session` are not "
                    "read: move them out, beside `session` (`sourcecheck --fix` does)",
                    (),
                )
            elif not absent_by_syntax(root, "annotations"):
                known = TOP_KEYS["cli"] if self.session.shape == "cli" else TOP_KEYS["spec"]
                self.report(
                    "invalid-field",
                    'the session has no `annotations`; add `"annotations": []`'
                    + misspelled_as(root, "annotations", known),
                    (),
                )
        else:
            self.annotations(root["annotations"], ("annotations",))

    # -- documents

    def documents(self, value: Any, path: Path) -> None:
        if not isinstance(value, list):
            self.report(
                "invalid-field",
                f"`documents` must be an array of {{path, content}} objects, not {kind_of(value)}",
                path,
            )
            return
        session, memo = self.session, self.memo
        by_path = session.by_path
        for index, item in enumerate(value):
            document, findings = check_document(item, path + (index,), memo.known_document)
            self.findings.extend(findings)
            if document is None:
                continue
            if document.path in by_path:
                first = by_path[document.path]
                where = f"document {item_number(first.json_path)} of the session"
                self.report(
                    "duplicate-path",
                    f"a document with path {name(document.path)} already exists (the first one is {where}); refs "
                    "resolve against that first one. Rename or remove this one",
                    path + (index, "path"),
                    mentions=(Mention(f"is {where}", first.json_path, "is on line {line}"),),
                )
                continue
            memo.keep_document(document)
            session.documents.append(document)
            by_path[document.path] = document

    def annotations(self, value: Any, path: Path) -> None:
        if not isinstance(value, list):
            self.report(
                "invalid-field",
                f"`annotations` must be an array of {{claim, sources}} objects, not {kind_of(value)}",
                path,
            )
            return
        rules = AnnotationRules(self.session.by_path, self.fast)
        session = self.session
        session.annotations, session.refs, findings = self.memo.annotations(value, rules)
        present = self.memo.memo.counts[0]
        session.present = None if len(present) == len(session.annotations) else present
        self.findings.extend(findings)


class DocumentRules(Rules):
    """The rules of one document (see :func:`check_document`)."""

    def __init__(self) -> None:
        self.findings = []

    def document(self, value: Any, path: Path, known: Callable[[str, str], Document | None]) -> Document | None:
        if not isinstance(value, dict):
            self.report(
                "invalid-field", f"a document must be an object with `path` and `content`, not {kind_of(value)}", path
            )
            return None
        self.unknown_keys(value, DOCUMENT_KEYS, path, "a document")
        doc_path, content = value.get("path"), value.get("content")
        usable = True
        for key, got in (("path", doc_path), ("content", content)):
            if key not in value:
                if not absent_by_syntax(value, key):
                    self.report(
                        "invalid-field",
                        f"this document has no `{key}`; add a string `{key}`"
                        + misspelled_as(value, key, DOCUMENT_KEYS),
                        path,
                    )
                usable = False
            elif not isinstance(got, str):
                self.report(
                    "invalid-field",
                    f"a document's `{key}` must be a string, not {kind_of(got)} ({show(got)})",
                    path + (key,),
                )
                usable = False
        if not usable:
            return None
        assert isinstance(doc_path, str) and isinstance(content, str)
        previous = known(doc_path, content)
        # Whether it holds a \r: known for a document checked before (scanning a megabyte of
        # content on every keystroke would cost more than the rest of the keystroke).
        carriage_return = previous.carriage_return if previous is not None else None
        if carriage_return is None:
            carriage_return = "\r" in content
        if carriage_return:
            kinds = "CRLF (`\\r\\n`)" if "\r\n" in content else "CR (`\\r`)"
            self.report(
                "non-lf-content",
                f"the content of {name(doc_path)} uses {kinds} line breaks; SourceCheck content must use `\\n` "
                "only: normalize it",
                path + ("content",),
            )
        if previous is None:
            return Document(doc_path, content, path, carriage_return=carriage_return)
        if previous.json_path != path:  # moved (a document added or removed before it): lines kept
            return Document(doc_path, content, path, previous._lines, carriage_return)
        return previous


def check_document(
    value: Any, path: Path, known: Callable[[str, str], Document | None] = lambda path, content: None
) -> tuple[Document | None, list[Violation]]:
    """A document's value at ``path``: the document it is (None when it is not usable) and its
    findings but ``duplicate-path`` (a rule of the session's documents). ``known`` gives the
    previous check's document of a path and this very content: it is taken (with its line
    table), moved to ``path`` if it was elsewhere."""
    rules = DocumentRules()
    document = rules.document(value, path, known)
    return document, rules.findings


class AnnotationRules(Rules):
    """The rules of one annotation against the session's documents: :meth:`annotation` (key by
    key) and :meth:`clean_annotation` (the common case, in one go), each a function of the
    annotation's value and path (see :func:`check_annotation`)."""

    def __init__(self, by_path: Mapping[str, Document], fast: FastPaths = ALL) -> None:
        self.by_path = by_path
        self.fast_refs = fast.valid_refs
        self.fast_annotations = fast.clean_annotations and fast.valid_refs  # the one-go check is made of valid_ref
        self.findings = []
        self.refs: list[CheckedRef] = []
        self.at: Path = ()  # the path of the annotation being checked (its refs' paths start with it)
        # What resolving a ref in each document of by_path reads, by path, once the first
        # ref to it is resolved: the document, its content, its line starts, its length.
        self.resolving: dict[str, tuple[Document, str, list[int], int]] = {}

    def annotation(self, value: Any, path: Path, kept: Kept | None = None) -> AnnotationCheck:
        """Check an annotation key by key; the refs ``kept`` holds are taken as they were
        checked before (see :meth:`~.memo.Memo.annotation`)."""
        findings: list[Violation] = []
        refs: list[CheckedRef] = []
        self.findings, self.refs, self.at = findings, refs, path
        annotation, ref_findings = self.check_annotation(value, path, kept)
        depends = self.depends(refs) if annotation is not None else {}
        return AnnotationCheck(value, depends, annotation, findings, refs, ref_findings)

    def depends(self, refs: list[CheckedRef]) -> dict[str | None, Any]:
        """What checking an annotation with ``refs`` depended on (see AnnotationCheck)."""
        deps: dict[str | None, Any] = {
            r.doc_path: self.content_of(r.doc_path) for r in refs if isinstance(r.doc_path, str)
        }
        if None in deps.values():  # an unknown path's message names the documents there are
            deps[None] = self.known_documents()
        return deps

    def clean_annotation(self, value: Any, path: Path) -> AnnotationCheck | None:
        """The common case, checked quickly: an annotation of a claim and its sources and
        nothing else, every ref valid (see :meth:`valid_ref`), no source citing the claim's
        document, no two sources alike: it has no finding. What it gives is what
        :meth:`annotation` gives for it, with how many keys its objects hold in all; None
        means "take the careful path"."""
        if type(value) is not dict or len(value) != _ANNOTATION_LEN:
            return None
        try:
            claim_value, sources = value["claim"], value["sources"]
        except KeyError:  # two keys, not those
            return None
        if type(sources) is not list or not sources:
            return None
        found: list[CheckedRef] = []  # its sources, as they are found
        annotation = Annotation(None, found)
        valid_ref = self.valid_ref
        claim_first = next(iter(value)) == "claim"  # refs are listed in the order of the keys
        claim = valid_ref(claim_value, _CLAIM, annotation, False) if claim_first else None
        if claim_first and claim is None:
            return None
        for index, item in enumerate(sources):
            source = valid_ref(item, ("sources", index), annotation, True)
            if source is None:
                return None
            found.append(source)
        if not claim_first:
            claim = valid_ref(claim_value, _CLAIM, annotation, False)
            if claim is None:
                return None
        assert claim is not None
        cited = claim.doc_path
        for source in found:
            if source.doc_path == cited:
                return None  # a self-citation: said by the careful path
        if len(found) > 1 and len(set(map(_COORDINATES, found))) < len(found):
            return None  # a repeated source: said by the careful path
        annotation.claim = claim
        # What it depended on is read off its refs when asked (each resolved in a document of
        # by_path: see AnnotationCheck.depends).
        keys = _ANNOTATION_LEN + _CLAIM_KEYS + len(found) * _SOURCE_KEYS  # each object's, seen by valid_ref
        refs = [claim, *found] if claim_first else [*found, claim]
        return AnnotationCheck(value, None, annotation, [], refs, {}, keys)

    def content_of(self, doc_path: str) -> str | None:
        """The content refs to ``doc_path`` resolve against (None: no such document)."""
        document = self.by_path.get(doc_path)
        return document.content if document is not None else None

    def known_documents(self) -> str:
        return known_documents(self.by_path)

    def check_annotation(
        self, value: Any, path: Path, kept: Kept | None
    ) -> tuple[Annotation | None, dict[Path, list[Violation]]]:
        """Check an annotation; the refs ``kept`` holds are taken as they were checked before.
        Returns it (None for a value that is not an object) and the findings of each ref that
        has some, by its path in the annotation (``CheckedRef.tail``)."""
        ref_findings: dict[Path, list[Violation]] = {}
        if not isinstance(value, dict):
            self.report(
                "invalid-field",
                f"an annotation must be an object with `claim` and `sources`, not {kind_of(value)}",
                path,
            )
            return None, ref_findings
        annotation = Annotation()
        self.unknown_keys(value, ANNOTATION_KEYS, path, "an annotation")
        if "claim" not in value and not absent_by_syntax(value, "claim"):
            self.report(
                "invalid-field",
                "this annotation has no `claim`; add the ref of the text it annotates"
                + misspelled_as(value, "claim", ANNOTATION_KEYS),
                path,
            )
        if "sources" not in value:
            if not absent_by_syntax(value, "sources"):
                self.report(
                    "invalid-field",
                    "this annotation has no `sources`; add at least one source ref"
                    + misspelled_as(value, "sources", ANNOTATION_KEYS),
                    path,
                )
        elif not isinstance(value["sources"], list):
            self.report(
                "invalid-field",
                f"`sources` must be an array of source refs, not {kind_of(value['sources'])}",
                path + ("sources",),
            )
        elif not value["sources"] and not unreadable_items(value["sources"]):
            self.report(
                "empty-sources",
                "`sources` is empty; an annotation needs at least one source. Add one, or remove the annotation: "
                "unsourced text is left unannotated",
                path + ("sources",),
            )
        # Refs are listed in file order: claim and sources in the order of their keys.
        for key in value:
            if key == "claim":
                annotation.claim = self.kept_or_checked_ref(
                    value["claim"], path + ("claim",), annotation, False, kept, ref_findings
                )
            elif key == "sources" and isinstance(value["sources"], list):
                for index, item in enumerate(value["sources"]):
                    annotation.sources.append(
                        self.kept_or_checked_ref(item, path + ("sources", index), annotation, True, kept, ref_findings)
                    )
        self.annotation_warnings(annotation)
        return annotation, ref_findings

    def kept_or_checked_ref(
        self,
        value: Any,
        path: Path,
        annotation: Annotation,
        source: bool,
        kept: Kept | None,
        ref_findings: dict[Path, list[Violation]],
    ) -> CheckedRef:
        first = len(self.findings)
        tail = path[len(self.at) :]
        taken = kept.take(annotation, self.at, tail) if kept is not None else None
        if taken is not None:  # checked before against the same document: copied, linked to ``annotation``
            ref, findings = taken
            self.refs.append(ref)
            self.findings.extend(findings)
        else:
            ref = self.ref(value, path, annotation, source=source)
        if len(self.findings) > first:
            ref_findings[tail] = self.findings[first:]
        return ref

    def annotation_warnings(self, annotation: Annotation) -> None:
        claim = annotation.claim
        seen: dict[tuple[Any, ...], CheckedRef] = {}
        for source in annotation.sources:
            if claim is not None and claim.doc_path is not None and source.doc_path == claim.doc_path:
                self.report(
                    "self-citation",
                    f"this source cites {name(source.doc_path)}, the same document as its claim: a text is not "
                    "evidence for itself. Cite another document",
                    self.path_of(source) + ("path",),
                )
            if source.well_formed:
                key = source.coordinates
                if key in seen:
                    first = self.path_of(seen[key])
                    where = f"source {item_number(first)} of this annotation"
                    self.report(
                        "duplicate-source",
                        f"this source repeats the coordinates of {where}; remove one of them",
                        self.path_of(source),
                        mentions=(Mention(where, first, "the source on line {line}"),),
                    )
                else:
                    seen[key] = source

    # -- refs

    def valid_ref(self, value: Any, tail: Path, annotation: Annotation, source: bool) -> CheckedRef | None:
        """The common case, checked quickly: a well-formed ref that resolves, with good
        metadata and nothing to warn about, at ``tail`` in ``annotation``. None means "take
        the careful path"."""
        # Its shape, with as few tests as can tell it: an object with as many keys as a ref has,
        # each of them found, is one with those keys and no other; a value of another type
        # than the one looked for fails in the lookup, the len() or the find() that takes it.
        try:
            if len(value) != (_SOURCE_LEN if source else _REF_LEN):
                return None
            start, end, doc_path = value["start"], value["end"], value["path"]
            if len(start) != _BOUNDARY_LEN or len(end) != _BOUNDARY_LEN:
                return None
            start_line, start_str, end_line, end_str = start["line"], start["str"], end["line"], end["str"]
            if type(start_line) is not int or type(end_line) is not int or not start_str or not end_str:
                return None  # (an int, not a bool)
            polarity = confidence = None
            if source:
                polarity, confidence = value["polarity"], value["confidence"]
                if polarity != "supports" and polarity != "refutes":
                    return None
                if (
                    type(confidence) is not float
                    and type(confidence) is not int
                    or not LOW_CONFIDENCE <= confidence <= 1
                ):
                    return None
            resolving = self.resolving.get(doc_path)  # (a path that is not hashable raises TypeError)
            if resolving is None:
                found = self.by_path.get(doc_path)  # None for any path that is not a str
                if found is None:
                    return None
                lines = found._lines or found.lines
                resolving = self.resolving[doc_path] = (found, found.content, lines.starts, len(found.content))
            document, content, starts, size = resolving
            count = len(starts)
            if not (0 < start_line <= end_line <= count):
                return None
            # Found in the content between the line's ends (a line ends before its break, the
            # last one at the content's end): no line is sliced out.
            first_start, last_start = starts[start_line - 1], starts[end_line - 1]
            start_end = starts[start_line] - 1 if start_line < count else size
            end_end = starts[end_line] - 1 if end_line < count else size
            if max(start_end - first_start, end_end - last_start) >= LONG_LINE:
                return None  # a long line: its boundaries are asked of its index (Document.occurrences)
            begin = content.find(start_str, first_start, start_end)
            if begin < 0 or content.find(start_str, begin + 1, start_end) >= 0:
                return None
            end_at = content.find(end_str, last_start, end_end)
            if end_at < 0 or content.find(end_str, end_at + 1, end_end) >= 0:
                return None
        except (KeyError, TypeError):
            return None
        finish = end_at + len(end_str)
        if begin >= finish:  # on one line: the span would be empty (on two, it cannot be)
            return None
        return ResolvedRef(
            tail,
            _weak(annotation),
            value,
            doc_path,
            document,
            (begin, finish),
            polarity,
            confidence,
            (begin - first_start, end_at - last_start),
        )

    def ref(self, value: Any, path: Path, annotation: Annotation, *, source: bool) -> CheckedRef:
        tail = path[len(self.at) :]
        fast = self.valid_ref(value, tail, annotation, source) if self.fast_refs else None
        if fast is not None:
            self.refs.append(fast)
            return fast
        ref = CheckedRef(tail, weakref.ref(annotation), value)
        self.refs.append(ref)
        what = "a source" if source else "a claim"
        if not isinstance(value, dict):
            self.report(
                "invalid-field",
                f"{what} must be a ref object with `path`, `start` and `end`, not {kind_of(value)}",
                path,
                ref,
            )
            return ref
        self.unknown_keys(value, SOURCE_KEYS if source else REF_KEYS, path, what)
        if source:
            self.source_metadata(value, ref)
        well_formed = True
        doc_path = value.get("path")
        if "path" not in value:
            if not absent_by_syntax(value, "path"):
                self.report(
                    "invalid-field",
                    f"{what} has no `path`; add the path of the document it points into"
                    + misspelled_as(value, "path", SOURCE_KEYS if source else REF_KEYS),
                    path,
                    ref,
                )
            well_formed = False
        elif not isinstance(doc_path, str):
            self.report(
                "invalid-field",
                f"`path` must be a string naming a document, not {kind_of(doc_path)} ({show(doc_path)})",
                path + ("path",),
                ref,
            )
            well_formed = False
        else:
            ref.doc_path = doc_path
        boundaries: list[Boundary | None] = []
        for side in SIDES:
            boundaries.append(self.boundary(value, side, path, ref))
        ref.start, ref.end = boundaries
        if not well_formed or ref.start is None or ref.end is None:
            ref.start = ref.end = None
            return ref
        self.resolve(ref)
        return ref

    def boundary(self, ref_value: dict[str, Any], side: Side, ref_path: Path, ref: CheckedRef) -> Boundary | None:
        path = ref_path + (side,)
        value = ref_value.get(side)
        # The common case first, cheaply: {"line": int, "str": str} and nothing else.
        if type(value) is dict and len(value) == 2 and type(value.get("line")) is int and type(value.get("str")) is str:
            return Boundary(value["line"], value["str"], side)
        if side not in ref_value:
            if not absent_by_syntax(ref_value, side):
                known = SOURCE_KEYS if ref.is_source else REF_KEYS
                self.report(
                    "invalid-field",
                    f'this ref has no `{side}`; add `"{side}": {{"line": N, "str": "..."}}`'
                    + misspelled_as(ref_value, side, known),
                    ref_path,
                    ref,
                )
            return None
        value = ref_value[side]
        if not isinstance(value, dict):
            self.report(
                "invalid-field", f"`{side}` must be an object with `line` and `str`, not {kind_of(value)}", path, ref
            )
            return None
        self.unknown_keys(value, BOUNDARY_KEYS, path, f"`{side}`")
        line, text, ok = value.get("line"), value.get("str"), True
        if "line" not in value:
            if not absent_by_syntax(value, "line"):
                self.report(
                    "invalid-field",
                    f"`{side}` has no `line`; add the 1-based line number"
                    + misspelled_as(value, "line", BOUNDARY_KEYS),
                    path,
                    ref,
                )
            ok = False
        elif not isinstance(line, int) or isinstance(line, bool):
            hint = f"; write {int(line)}" if isinstance(line, float) and line.is_integer() else ""
            self.report(
                "invalid-field",
                f"`line` must be an integer, not {kind_of(line)} ({show(line)}){hint}",
                path + ("line",),
                ref,
            )
            ok = False
        if "str" not in value:
            if not absent_by_syntax(value, "str"):
                self.report(
                    "invalid-field",
                    f"`{side}` has no `str`; add the boundary string" + misspelled_as(value, "str", BOUNDARY_KEYS),
                    path,
                    ref,
                )
            ok = False
        elif not isinstance(text, str):
            self.report(
                "invalid-field", f"`str` must be a string, not {kind_of(text)} ({show(text)})", path + ("str",), ref
            )
            ok = False
        if not ok or not isinstance(line, int) or not isinstance(text, str):
            return None
        return Boundary(line, text, side)

    def path_of(self, ref: CheckedRef) -> Path:
        """The JSON path of a ref of the annotation being checked."""
        return self.at + ref.tail

    def boundary_path(self, ref: CheckedRef, boundary: Boundary) -> Path:
        """The JSON path of a boundary of a ref of the annotation being checked."""
        return self.path_of(ref) + (boundary.side,)

    def resolve(self, ref: CheckedRef) -> None:
        assert ref.doc_path is not None and ref.start is not None and ref.end is not None
        document = self.by_path.get(ref.doc_path)
        if document is None:
            meant = [p for p in self.by_path if same_but_case_or_extension(p, ref.doc_path)]
            advice = f": write {show(meant[0])}" if len(meant) == 1 else ""
            self.report(
                "unknown-path",
                f"no document has the path {show(ref.doc_path)}; the session's documents are "
                f"{self.known_documents()}{advice}",
                self.path_of(ref) + ("path",),
                ref,
            )
            return
        ref.document = document
        failed = False
        for boundary in (ref.start, ref.end):
            failed = not self.find_boundary(boundary, document, ref) or failed
        if ref.start.line > ref.end.line:
            self.report(
                "lines-reversed",
                reversed_lines(ref, document),
                self.boundary_path(ref, ref.start) + ("line",),
                ref,
            )
            failed = True
        if failed:
            return
        start_col = ref.start.column
        end_col = ref.end.column + len(ref.end.str)  # exclusive
        if ref.start.line == ref.end.line and start_col >= end_col:
            self.report(
                "boundary-order",
                f"`start.str` {show(ref.start.str)} (column {start_col + 1}) begins after `end.str` "
                f"{show(ref.end.str)} ends (column {end_col}) on line {ref.start.line} of {name(document.path)}: "
                "the span would run backwards. Swap the boundaries or fix them",
                self.boundary_path(ref, ref.start) + ("str",),
                ref,
            )
            return
        begin = document.offset(ref.start.line, start_col)
        finish = document.offset(ref.end.line, end_col)
        ref.span = (begin, finish)
        ref.valid = True

    def find_boundary(self, boundary: Boundary, document: Document, ref: CheckedRef) -> bool:
        lines = document.lines
        side = boundary.side
        if not 1 <= boundary.line <= len(lines):
            self.report(
                "line-out-of-range",
                out_of_range(boundary, document),
                self.boundary_path(ref, boundary) + ("line",),
                ref,
            )
            return False
        if boundary.str == "":
            self.report(
                "boundary-empty",
                f"`{side}.str` is empty; write the text the span {'starts' if side == 'start' else 'ends'} with, "
                f"unique on line {boundary.line}",
                self.boundary_path(ref, boundary) + ("str",),
                ref,
            )
            return False
        line = lines[boundary.line - 1]
        if len(line) < LONG_LINE:
            first = line.find(boundary.str)
            if first >= 0 and line.find(boundary.str, first + 1) < 0:  # unique: the common case
                boundary.occurrences, boundary.occurrence_count = [first], 1
                return True
        boundary.occurrences, boundary.occurrence_count = document.occurrences(boundary.line, boundary.str)
        if boundary.occurrence_count == 0:
            self.report(
                "boundary-not-found",
                not_found(boundary, document, line),
                self.boundary_path(ref, boundary) + ("str",),
                ref,
            )
            return False
        if boundary.occurrence_count > 1:
            columns = and_list([str(c + 1) for c in boundary.occurrences[:8]]) + (
                " and more" if boundary.occurrence_count > 8 else ""
            )
            self.report(
                "boundary-ambiguous",
                f"{show(boundary.str)} occurs {times(boundary.occurrence_count)} on line {boundary.line} of "
                f"{name(document.path)} (columns {columns}); extend it until it is unique",
                self.boundary_path(ref, boundary) + ("str",),
                ref,
            )
            return False
        return True

    def source_metadata(self, value: dict[str, Any], ref: CheckedRef) -> None:
        path = self.path_of(ref)
        if "polarity" not in value:
            if not absent_by_syntax(value, "polarity"):
                typo = misspelled_as(value, "polarity", SOURCE_KEYS)
                self.report(
                    "bad-polarity",
                    f"this source has no `polarity`{typo}"
                    if typo
                    else 'this source has no `polarity`; add `"polarity": "supports"` or `"refutes"`',
                    path,
                    ref,
                )
        else:
            polarity = ref.polarity = value["polarity"]
            if polarity not in POLARITIES or not isinstance(polarity, str):
                word = polarity_word(polarity)
                advice = f': write "{word[0]}"' if word is not None else ""
                self.report(
                    "bad-polarity",
                    f'`polarity` is {show(polarity)}; it must be exactly "supports" or "refutes"{advice}',
                    path + ("polarity",),
                    ref,
                )
        if "confidence" not in value:
            if not absent_by_syntax(value, "confidence"):
                typo = misspelled_as(value, "confidence", SOURCE_KEYS)
                self.report(
                    "bad-confidence",
                    f"this source has no `confidence`{typo}"
                    if typo
                    else "this source has no `confidence`; add a number from 0 to 1 (0.9 for a primary source)",
                    path,
                    ref,
                )
            return
        confidence = ref.confidence = value["confidence"]
        number = confidence_meant(confidence)
        advice = ""
        if number is not None:
            advice = f": write {confidence_text(number[0])}" + (f" ({number[1]})" if number[1] else "")
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
            if not advice and isinstance(confidence, str):
                advice = "; the spec's bands: 0.9 to 1 primary, 0.6 to 0.8 secondary, 0.3 to 0.5 anecdotal"
            self.report(
                "bad-confidence",
                f"`confidence` must be a number from 0 to 1, not {kind_of(confidence)} ({show(confidence)}){advice}",
                path + ("confidence",),
                ref,
            )
        elif isinstance(confidence, float) and not math.isfinite(confidence):
            self.report(
                "bad-confidence",
                "`confidence` is too large to be a finite number; it must be from 0 to 1",
                path + ("confidence",),
                ref,
            )
        elif not 0 <= confidence <= 1:
            # Only a value that reads as a percentage (95), or is out by rounding, gets a number;
            # 1.5 is no percentage.
            if not advice:
                advice = "; a confidence is at most 1 (the most authoritative source)" if confidence > 1 else ""
            self.report(
                "bad-confidence",
                f"`confidence` {show(confidence)} is outside [0, 1]{advice}",
                path + ("confidence",),
                ref,
            )
        elif confidence < LOW_CONFIDENCE:
            self.report(
                "low-confidence",
                f"`confidence` {show(confidence)} is below {LOW_CONFIDENCE}: such a weak source is usually better "
                "omitted",
                path + ("confidence",),
                ref,
            )


def check_annotation(value: Any, path: Path, by_path: Mapping[str, Document], fast: FastPaths = ALL) -> AnnotationCheck:
    """An annotation's value at ``path``, checked against the session's documents (``by_path``,
    the first document of each path): the annotation, its refs, its findings and what it
    depended on. The same with any fast paths (the one-go check first, when it may)."""
    rules = AnnotationRules(by_path, fast)
    return (rules.fast_annotations and rules.clean_annotation(value, path)) or rules.annotation(value, path)


def check(
    root: Any,
    memo: CheckMemo | None = None,
    stop: Stop | None = None,
    line_of: Callable[[Path], int | None] | None = None,
    fast: FastPaths = ALL,
    spliced: Spliced | None = None,
) -> tuple[Session, list[Violation], CheckMemo]:
    """Check a session's plain JSON value: the model, every finding, and a memo for next time.

    With the memo of a previous check, each document and annotation whose value is the same
    object is answered from it while what it depended on holds (see core/memo.py). With
    ``stop``, raises :class:`Cancelled` soon after it is set. With ``line_of`` (the 1-based
    line in the file of the value at a path), messages that name another value name its line
    (see :func:`~.session.with_lines`); the memo keeps them unnamed, as lines move with edits.
    ``fast``: the fast paths taken (see core/fastpaths.py). ``spliced``: which annotations the
    incremental parse made anew, when it knows (see ``memo.Spliced``; the others are the
    memo's very values): the memo is told rather than comparing every item.
    """
    layer = Memo(memo, stop, fast, spliced)
    rules = SessionRules(layer, fast)
    rules.check(root)
    findings = rules.findings
    if line_of is not None:
        findings = [with_lines(f, line_of) if f.mentions else f for f in findings]
    return rules.session, findings, layer.memo

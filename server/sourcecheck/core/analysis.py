"""One checked text: its syntax tree, session model, findings with their places, lookups.

An :class:`Analysis` is computed once per text (per document version in the editor) and
read by every feature: the CLI's report, diagnostics, hover, fixes. It is never mutated
after construction, except for caches that fill in on demand. An analysis made from the
previous version's (:meth:`Analysis.incremental`, see ``incremental.py``) takes over that
one's tree, which is moved out from then on.
"""

from __future__ import annotations

import itertools
import operator
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import compress
from typing import Any

from .display import visible
from .fastpaths import ALL, FastPaths
from .incremental import Derivation, Edit, reparse, with_splice
from .jsonlex import StringMap
from .jsonnodes import JArray, JObject, JString, Member, Node, node_start
from .lazy import DuplicateWatch, JLazy, colon_escaped, iter_lazy
from .memo import CheckMemo
from .positions import Encoding, LineTable, Span
from .registry import SEVERITY
from .rules import check, exit_code
from .schema import parse_session
from .session import CheckedRef, Document, Path, Session, Violation
from .syntax import Cancelled, Stop, Tree, to_python
from .text import Text
from .unsupported import UnsupportedWords
from .verdicts import Summary, summarize

_SESSION_HINT = re.compile(r'"(?:annotations|documents|session)"\s*:')


def looks_like_session(text: str) -> bool:
    """A cheap test, before parsing, that a JSON text may be a session."""
    return _SESSION_HINT.search(text) is not None


_SERIALS = itertools.count()
ContentMap = tuple[Node | None, tuple[int, int] | None, StringMap | None]
"""A document's item, its extent when its content was mapped, and the content's escape map."""


def _maps_kept(previous: Analysis) -> dict[str, ContentMap]:
    """The content maps a new version may take over (each while its item is the same, where it
    was): those the previous version made or was handed, of its documents. Handed on even
    when that version did not ask for one (its diagnostics taken as they were), so that a map
    stays the same object version after version while its content does."""
    computed: dict[str, ContentMap] | None = previous.__dict__.get("_content_maps")
    inherited = previous._inherited_maps
    if not computed:
        return inherited
    if not inherited:
        return computed
    documents = previous.session.by_path
    return {path: kept for path, kept in {**inherited, **computed}.items() if path in documents}


_START = operator.itemgetter(0)


def _by_start(pair: tuple[tuple[int, int], Violation]) -> int:
    """The sort key of a finding by where it starts."""
    return pair[0][0]


@dataclass(frozen=True, slots=True)
class Place:
    """What sits at an offset: the innermost value (or key) and its JSON path."""

    path: Path
    node: Node
    on_key: bool  # the offset is on the key of the member whose value is ``node``


class Analysis:
    """Everything known about one text."""

    def __init__(
        self, text: str | Text, lines: LineTable | None = None, stop: Stop | None = None, fast: FastPaths = ALL
    ) -> None:
        """Analyse ``text`` (a ``str``, or a piece table: see text.py) in full. ``lines``,
        if given, is the line table of ``text``, kept by the caller. With ``stop``, raises
        :class:`Cancelled` soon after it is set. ``fast``: the fast paths taken (all: the
        results are the same with any of them off, see core/fastpaths.py)."""
        self.fast = fast
        tree = parse_session(str(text), stop, decode_items=fast.lazy_items)
        tree.walk_items = fast.located_in_items
        self._analyse(text, lines, tree, None, None, stop)

    @staticmethod
    def incremental(
        text: str | Text, previous: Analysis, edit: Edit, lines: LineTable | None = None
    ) -> Analysis | None:
        """The analysis of ``text`` from ``previous`` and the ``edit`` (start, end, inserted
        text) that made it, reusing what the edit cannot have changed, when the edit allows
        it (then it is quick): the result is the one a full analysis gives. None when a full
        analysis is needed (``previous`` is then untouched). Otherwise ``previous`` hands its
        tree over: reading its tree afterwards raises ``MovedOut``; its findings, refs and
        model stay readable."""
        start, end, inserted = edit
        if not previous.fast.incremental_parse:
            return None
        tree = reparse(previous.tree, text, start, end, len(inserted))
        if tree is None:
            return None
        tree.walk_items = previous.fast.located_in_items
        analysis = Analysis.__new__(Analysis)
        analysis.fast = previous.fast
        analysis._analyse(text, lines, tree, previous, edit, None)
        return analysis

    def _analyse(
        self,
        text: str | Text,
        lines: LineTable | None,
        tree: Tree,
        previous: Analysis | None,
        edit: tuple[int, int, str] | None,
        stop: Stop | None,
    ) -> None:
        self._located: dict[Path, tuple[int, int] | None] = {}
        self.source = text
        self.serial = next(_SERIALS)  # unique for the process, unlike id()
        self.memo: CheckMemo | None = None
        if lines is not None:
            self.__dict__["lines"] = lines
        self.tree: Tree = tree
        reused = previous is not None
        # What this text is, relative to the analysis it was derived from: lets a caller keep
        # what it computed for that one (a diagnostic's line and column) when the edit cannot
        # have moved it. By serial number: holding the previous analysis would keep it alive.
        self.derived: Derivation | None = None
        if previous is not None:
            assert edit is not None
            self.derived = Derivation.of(previous.serial, previous.source, edit)
        self._inherited_maps = _maps_kept(previous) if previous is not None else {}
        self.session: Session
        rule_findings: list[Violation]
        self.value: Any = None  # the plain JSON value of the text, as far as it parses
        if self.tree.root is None:
            self.session, rule_findings = Session(), []
        else:
            replaced = self.tree.replaced
            spliced = None
            if previous is not None and replaced is not None and not replaced.whole:  # the rest is the previous value
                self.value = with_splice(previous.value, replaced)
                # Which annotations are new, as the parse knows (another array spliced: none).
                at = replaced.path == ("annotations",)
                spliced = (replaced.first, replaced.count, len(replaced.items)) if at else (0, 0, 0)
            else:
                self.value = to_python(self.tree.root)
            self.session, rule_findings, self.memo = check(
                self.value,
                previous.memo if previous is not None else None,
                stop,
                line_of=self._line_of,
                fast=self.fast,
                spliced=spliced,
            )
        if self.tree.unsure:
            self._settle_duplicates()
        findings = [
            Violation("invalid-json", SEVERITY["invalid-json"], issue.message, (), None, (issue.start, issue.end))
            for issue in self.tree.issues
        ]
        findings += rule_findings
        # A reused tree's keys seen twice are all in the region parsed again (reparse refuses
        # others): no lazily decoded item is to be expanded to find them.
        findings += self._duplicate_key_findings(expand=not reused)
        self._extents: dict[int, tuple[int, int]] = {}
        self._origins: dict[int, Violation] = self.memo.origins if self.memo is not None else {}
        if self.derived is not None:
            assert previous is not None
            if self._spliced_findings(previous, findings, rule_findings):
                return
            # A reused finding moves with the text after the edit (Derivation.moved, written
            # out: a thousand findings go through this loop on every keystroke).
            self._moved_extents(previous, rule_findings)
        known, locate = self._extents.get, self._locate
        placed = [(known(id(f)) or locate(f), f) for f in findings]
        starts = [extent[0] for extent, _ in placed]
        if not all(map(operator.le, starts, starts[1:])):  # in C: a reused finding list is in order
            placed.sort(key=_by_start)
        self.findings: list[Violation] = [f for _, f in placed]
        self._sorted_extents = [extent for extent, _ in placed]
        self._extents = dict(zip(map(id, self.findings), self._sorted_extents, strict=True))

    def _moved_extents(self, previous: Analysis, findings: list[Violation]) -> None:
        """The extents of the findings the previous version had (or one it had moved to a new
        path), where the edit left them whole: before it, as they were; after it, moved."""
        assert self.derived is not None
        origins, old_extents, extents = self._origins, previous._extents, self._extents
        start, end, delta = self.derived.start, self.derived.end, self.derived.delta
        for finding in findings:
            old = old_extents.get(id(origins.get(id(finding), finding)))
            if old is None:
                continue
            if old[1] <= start:
                extents[id(finding)] = old
            elif old[0] >= end:
                extents[id(finding)] = (old[0] + delta, old[1] + delta)

    def _spliced_findings(self, previous: Analysis, findings: list[Violation], rule_findings: list[Violation]) -> bool:
        """The findings in order, with their extents, as the previous version's with what the
        edit changed put in between, when that is what they are: the previous findings that
        end before the edit and those after it are still found, the same objects (their
        extents as they were, and moved by the edit), and the others all start between them.
        Then only those others are placed and sorted, and the rest is spliced in C: typing
        beside a thousand findings costs what it changed. False (nothing done) otherwise."""
        assert self.derived is not None
        end, delta = self.derived.end, self.derived.delta
        was, was_at = previous.findings, previous._sorted_extents
        before = self.derived.ending_before(was_at)
        after = bisect_left(was_at, end, lo=before, key=_START)
        # Of those, the ones still found (the others, a syntax error's say, are made again)
        rules = set(map(id, rule_findings))
        keep = list(map(rules.__contains__, map(id, was[:before])))  # in C, as each list below
        head, head_at = list(compress(was[:before], keep)), list(compress(was_at[:before], keep))
        keep = list(map(rules.__contains__, map(id, was[after:])))
        tail, tail_at = list(compress(was[after:], keep)), list(compress(was_at[after:], keep))
        carried = set(map(id, head))
        carried.update(map(id, tail))
        between = list(compress(findings, map(operator.not_, map(carried.__contains__, map(id, findings)))))
        if len(between) + len(carried) != len(findings):
            return False  # a finding twice in the list: placed the long way
        self._moved_extents(previous, [f for f in between if id(f) in rules])
        known, locate = self._extents.get, self._locate
        placed = [(known(id(f)) or locate(f), f) for f in between]
        placed.sort(key=_by_start)
        # each of them after those before the edit, and before those after it
        if placed and (
            (head_at and placed[0][0][0] <= head_at[-1][0]) or (tail_at and placed[-1][0][0] >= tail_at[0][0] + delta)
        ):
            return False
        self.findings = [*head, *(f for _, f in placed), *tail]
        self._sorted_extents = [
            *head_at,
            *(extent for extent, _ in placed),
            *[(a + delta, b + delta) for a, b in tail_at],
        ]
        self._extents = dict(zip(map(id, self.findings), self._sorted_extents, strict=True))
        return True

    def _settle_duplicates(self) -> None:
        """Settle whether each annotation the parse decoded without its pairs holds a key
        twice (see JLazy). Of one the check found clean, the keys are known, and its only
        strings with a `:` are its refs' paths and boundaries: when no `:` is written as an
        escape, the others follow its keys, one each as written, and more of them than its
        keys are keys twice. Any other is looked at again (holds_duplicates)."""
        checks = self.memo.annotations if self.memo is not None else {}
        tree, watch = self.tree, DuplicateWatch()
        unsure = tree.unsure
        clean_keys = self.memo.clean_keys if self.memo is not None else None
        array = self.tree.node_at_path(("annotations",))
        if (
            clean_keys is not None
            and len(clean_keys) == len(unsure)
            and isinstance(array, JArray)
            and array.items == unsure
        ):
            # Every item decoded in one go, in the order of the values checked: compared in C,
            # then each clean one with as many `:` as keys settled (the check's memory of an
            # item is looked up only for the others).
            same = list(map(operator.eq, clean_keys, map(operator.attrgetter("colons"), unsure)))
            for item, settled in zip(unsure, same, strict=True):
                if settled:
                    item.has_duplicates = False
        for item in unsure:
            if item.has_duplicates is None:
                checked = checks.get(id(item.value))
                if checked is None or checked.value is not item.value or checked.keys < 0:
                    tree.holds_duplicates(item, watch)
                elif checked.keys == item.colons:
                    item.has_duplicates = False
                else:
                    if colon_escaped(item, *tree.item_text(item)):
                        tree.holds_duplicates(item, watch)
                    else:
                        item.has_duplicates = item.colons - _colons_in(checked.refs) != checked.keys
        tree.unsure = []

    @property
    def origins(self) -> Mapping[int, Violation]:
        """The previous analysis's finding each of :attr:`findings` is, by identity, where it is
        a copy (what :meth:`origin` reads; a finding not in it is its own origin)."""
        return self._origins

    def origin(self, finding: Violation) -> Violation:
        """The finding of the analysis this one was derived from that ``finding`` is (the
        same object, or its copy where the annotation it is in moved); itself if none."""
        return self._origins.get(id(finding), finding)

    def _line_of(self, path: Path) -> int | None:
        """The 1-based line of the value at ``path`` (for a message naming another value)."""
        extent = self.locate(path)
        return self.lines.line_of(extent[0]) + 1 if extent is not None else None

    @property
    def text(self) -> str:
        """The whole text (made from its pieces on first use, when it came from an edit)."""
        return str(self.source)

    # -- shape

    @property
    def is_session(self) -> bool:
        """Whether the top level has one of the two session shapes."""
        root = self.tree.root
        if isinstance(root, JObject):
            keys = {m.key.value for m in root.members}
            return "annotations" in keys and bool(keys & {"documents", "session"})
        return False

    @cached_property
    def summary(self) -> Summary:
        """Verdicts of the annotations and the uncited text of the cited documents."""
        return summarize(self.session, self.value)

    @cached_property
    def unsupported(self) -> UnsupportedWords:
        """The words of each claim its sources do not have, each computed when first asked
        for (``unsupported.py``): opening a session computes none."""
        return UnsupportedWords(self.session.annotation_at_path)

    @property
    def exit_code(self) -> int:
        return exit_code(self.findings)

    @cached_property
    def lines(self) -> LineTable:
        return LineTable(self.text)

    # -- places

    def extent(self, finding: Violation) -> tuple[int, int]:
        """The offsets of the value a finding is about."""
        return self._extents.get(id(finding)) or self._locate(finding)

    @property
    def extents_in_order(self) -> Sequence[tuple[int, int]]:
        """The offsets of each of :attr:`findings`, in their order (by where they start)."""
        return self._sorted_extents

    @property
    def extents(self) -> Mapping[int, tuple[int, int]]:
        """The offsets of each of :attr:`findings`, by its identity (what :meth:`extent` reads)."""
        return self._extents

    def _locate(self, finding: Violation) -> tuple[int, int]:
        if finding.extent is not None:
            return finding.extent
        return self.locate(finding.path) or (0, 0)

    def locate(self, path: Path) -> tuple[int, int] | None:
        """The extent of the value at ``path`` in this text (``Tree.locate``), found once: a
        finding's range and its fix's edit of the same value ask alike."""
        located = self._located
        if path not in located:
            located[path] = self.tree.locate(path)
        return located[path]

    def span(self, start: int, end: int, encoding: Encoding = Encoding.UTF16) -> Span:
        return self.lines.span(start, end, encoding)

    def finding_span(self, finding: Violation, encoding: Encoding = Encoding.UTF16) -> Span:
        return self.span(*self.extent(finding), encoding)

    def node(self, path: Path) -> Node | None:
        node = self.tree.node_at_path(path)
        return self.tree.expand(node) if node is not None else None

    def member(self, path: Path) -> Member | None:
        return self.tree.member_at_path(path)

    def place_at(self, offset: int) -> Place | None:
        """The innermost value or key at ``offset`` (a cursor touching its end counts)."""
        node = self.tree.root
        if node is None or not node.start <= offset <= node.end:
            return None
        path: Path = ()
        on_key = False
        while True:
            node = self.tree.expand(node)
            child: tuple[str | int, Node, bool] | None = None
            if isinstance(node, JObject):
                for member in node.members:
                    if member.key.start <= offset <= member.key.end:
                        child = (member.key.value, member.value or member.key, True)
                        break
                    if member.value is not None and member.value.start <= offset <= member.value.end:
                        child = (member.key.value, member.value, False)
                        break
            elif isinstance(node, JArray):
                index = bisect_right(node.items, offset, key=node_start) - 1
                if index >= 0 and offset <= node.items[index].end:
                    child = (index, node.items[index], False)
            if child is None:
                return Place(path, node, on_key)
            part, node, on_key = child
            path = path + (part,)
            if on_key:
                return Place(path, node, True)

    def ref_at(self, offset: int) -> tuple[CheckedRef, Path] | None:
        """The ref whose text holds ``offset``, and the path of the part under it."""
        place = self.place_at(offset)
        if place is None:
            return None
        path = place.path
        ref_at_path = self.session.ref_at_path
        for length in range(len(path), 0, -1):
            ref = ref_at_path(path[:length])
            if ref is not None:
                return ref, path
        return None

    # -- document content in the file

    def content_node(self, document: Document) -> JString | None:
        node = self.node(document.json_path + ("content",))
        return node if isinstance(node, JString) else None

    def content_map(self, document: Document) -> StringMap | None:
        """The escape map of a document's ``content``: kept from the previous version when
        the document's item is the same, where it was (a reused item's text is unchanged)."""
        cache: dict[str, ContentMap] = self.__dict__.setdefault("_content_maps", {})
        if document.path not in cache:
            item = self.tree.node_at_path(document.json_path)
            inherited = self._inherited_maps.get(document.path)
            if (
                item is not None
                and inherited is not None
                and inherited[0] is item
                and inherited[1] == (item.start, item.end)
            ):
                cache[document.path] = inherited
            else:
                mapping = None
                if item is not None:
                    # The content's line starts, found by the check, place the string in the
                    # text and map it when its only escapes are its line breaks (see StringMap).
                    starts = (document._lines or document.lines).starts
                    node, read_off = self.tree.string_at(document.json_path + ("content",), document.content, starts)
                    if node is not None:
                        known = read_off or document.content == node.value
                        mapping = StringMap(self.source, node, starts if known else None, read_off)
                cache[document.path] = (item, (item.start, item.end) if item is not None else None, mapping)
        return cache[document.path][2]

    def content_extent(self, document: Document, start: int, end: int) -> tuple[int, int] | None:
        """File offsets of content characters ``[start, end)`` of a document."""
        mapping = self.content_map(document)
        return mapping.raw_range(start, end) if mapping is not None else None

    def document_at(self, offset: int) -> tuple[Document, int] | None:
        """The document whose ``content`` string holds ``offset``, and the content offset."""
        place = self.place_at(offset)
        if place is None or place.on_key or not isinstance(place.node, JString) or place.path[-1:] != ("content",):
            return None
        document = next((d for d in self.session.documents if d.json_path == place.path[:-1]), None)
        mapping = self.content_map(document) if document else None
        if document is None or mapping is None or not place.node.start < offset < place.node.end:
            return None
        return document, mapping.decoded_offset(offset)

    def refs_into(self, document: Document) -> list[CheckedRef]:
        return [ref for ref in self.session.refs if ref.document is not None and ref.document.path == document.path]

    def span_extent(self, ref: CheckedRef) -> tuple[int, int] | None:
        """File offsets of the text a valid ref cites, inside its document's ``content``."""
        if not ref.valid or ref.document is None or ref.span is None:
            return None
        return self.content_extent(ref.document, *ref.span)

    def refs_covering(self, document: Document, offset: int) -> list[CheckedRef]:
        """Valid refs whose cited span holds the content character at ``offset``."""
        return [
            ref
            for ref in self.refs_into(document)
            if ref.valid and ref.span is not None and ref.span[0] <= offset < ref.span[1]
        ]

    def annotation_items(self) -> list[Node]:
        """The nodes of the annotations array, in order (lazily decoded ones unexpanded)."""
        root = self.tree.root
        if not isinstance(root, JObject):
            return []
        member = root.member("annotations")
        return member.value.items if member is not None and isinstance(member.value, JArray) else []

    @cached_property
    def _annotation_starts(self) -> list[int]:
        return [item.start for item in self.annotation_items()]

    def annotations_between(self, start: int, end: int) -> list[int]:
        """Indexes of the annotations whose text overlaps the offsets ``[start, end]``."""
        items = self.annotation_items()
        first = max(0, bisect_right(self._annotation_starts, start) - 1)
        found = []
        for index in range(first, len(items)):
            item = items[index]
            if item.start > end:
                break
            if item.end >= start:
                found.append(index)
        return found

    # -- duplicates

    def _duplicate_key_findings(self, expand: bool) -> list[Violation]:
        for lazy in iter_lazy(self.tree.root) if expand else ():
            if lazy.has_duplicates:
                self.tree.expand(lazy)
        found = []
        for dup in self.tree.duplicates:
            where = f" (line {self.lines.line_of(dup.first_key.start) + 1})"
            target = dup.value if dup.value is not None else dup.key
            found.append(
                Violation(
                    "duplicate-key",
                    SEVERITY["duplicate-key"],
                    f"the key `{visible(dup.key.value)}` appears twice in this object; the last one wins, so the "
                    f"earlier value{where} is ignored. Remove one",
                    dup.path,
                    None,
                    (target.start, target.end),
                )
            )
        return found


def _colons_in(refs: list[CheckedRef]) -> int:
    """The `:` in the paths and boundaries of refs resolved in one go (the strings of a clean
    annotation but its sources' polarities, which hold none), read off their JSON values."""
    parts = [part for ref in refs for part in (ref.doc_path, ref.raw["start"]["str"], ref.raw["end"]["str"])]
    return "\0".join(parts).count(":")  # type: ignore[arg-type]


def analyze(text: str) -> Analysis:
    return Analysis(text)


__all__ = ["Analysis", "Cancelled", "Derivation", "JLazy", "Place", "Stop", "analyze", "looks_like_session"]

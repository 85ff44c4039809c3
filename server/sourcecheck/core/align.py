"""Aligning an old content with a new one as a diff does, at a cost bounded on any text.

:func:`align` says where each character of the old content is in the new one: lines first
(each with its line break, as diff compares them: a copy of a line elsewhere is not where it
moved); within a run of changed lines, words and the marks between them (a paragraph
reflowed, a clause appended); one word for another, character by character. Only what
aligns a line with *the same line edited* is kept (see :func:`edited_pairs`), so that a
sentence rewritten whole never lends one of its words to a ref that cited the old one.

The sequences are compared by :func:`matches`: common ends first; a small stretch then by
difflib (the longest common run first, then on each side of it: what a reader takes for the
same text); a large one by the tokens that occur once on each side as anchors (patience diff,
as git's ``--patience`` and Bazaar do), and where no token is unique by Myers' O(ND)
comparison, every step counted against a budget. Past the budget a
stretch is left unaligned: coarser, and still correct (nothing unaligned is ever kept, so a
kept ref still cites its text), where a repetitive text (``"a a a …"``, ``"abab…"``) would
otherwise cost its length squared.
"""

from __future__ import annotations

import difflib
import re
from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from itertools import accumulate

Run = tuple[int, int, int]
"""``(old start, new start, length)``: equal text on both sides."""

SMALL = 20_000
"""Pairs of tokens (old times new) up to which a stretch without a unique token is compared
exactly, by difflib (its cost is that product, at worst)."""
BUDGET = 3_000_000
"""Steps one alignment may take in all (token comparisons and counts): about a second at
worst, whatever the text; what is left past it is not aligned."""
MAX_CHARACTER_DIFF = 200
"""The longest word that is aligned character by character when it replaces another."""
EDITED = 0.5
"""The share of a line's words that must align for it to count as the same line edited."""
CONTAINED = 0.8
"""The share of the shorter line's words that must align with the longer, in a few runs, for
the longer to count as the shorter with text added beside it."""


class Budget:
    """What is left of the steps an alignment may take."""

    __slots__ = ("left",)

    def __init__(self, steps: int = BUDGET) -> None:
        self.left = steps

    def spend(self, steps: int) -> bool:
        """Take ``steps``; False (and nothing taken) when fewer are left."""
        if steps > self.left:
            self.left = 0
            return False
        self.left -= steps
        return True


# --- sequences ---------------------------------------------------------------------------


def matches(a: Sequence[Hashable], b: Sequence[Hashable], budget: Budget | None = None) -> list[Run]:
    """The blocks of ``a`` and ``b`` that are equal, ``(i, j, n)`` in increasing order on both
    sides (adjacent blocks joined), as a diff finds them, within ``budget``."""
    budget = budget or Budget()
    found: list[Run] = []
    stack = [(0, len(a), 0, len(b), False)]
    while stack:
        alo, ahi, blo, bhi, anchored_right = stack.pop()
        # common ends; the end beside an anchor first when only that end has one (what
        # follows an anchor and what precedes the next one may be alike: the first words of
        # two similar lines, one deleted before the other)
        for side in ("end", "start") if anchored_right else ("start", "end"):
            if side == "start":
                start = alo
                while start < ahi and start - alo < bhi - blo and a[start] == b[blo + start - alo]:
                    start += 1
                if start > alo:
                    found.append((alo, blo, start - alo))
                blo += start - alo
                alo = start
            else:
                end = 0
                while end < ahi - alo and end < bhi - blo and a[ahi - 1 - end] == b[bhi - 1 - end]:
                    end += 1
                if end:
                    found.append((ahi - end, bhi - end, end))
                ahi, bhi = ahi - end, bhi - end
        if alo >= ahi or blo >= bhi or not budget.spend(ahi - alo + bhi - blo):
            continue
        if (ahi - alo) * (bhi - blo) <= SMALL:  # the longest common stretch first, as difflib does
            found += _dense(a, b, alo, ahi, blo, bhi, budget)
            continue
        anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
        if anchors:
            # the stretches between anchors, pushed so that they are popped in order
            found += [(i, j, 1) for i, j in anchors]
            bounds = [(alo - 1, blo - 1), *anchors, (ahi, bhi)]
            for index, ((i0, j0), (i1, j1)) in enumerate(zip(bounds, bounds[1:], strict=False)):
                # only the first stretch has an anchor at its right end and none at its left
                stack.append((i0 + 1, i1, j0 + 1, j1, index == 0))
        else:
            found += _dense(a, b, alo, ahi, blo, bhi, budget)
    return _joined(sorted(found))


def _unique_anchors(
    a: Sequence[Hashable], b: Sequence[Hashable], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """The tokens that occur once in ``a[alo:ahi]`` and once in ``b[blo:bhi]``, the longest
    chain of them in the same order on both sides (patience sorting)."""
    where_a: dict[Hashable, int] = {}
    for i in range(alo, ahi):
        token = a[i]
        where_a[token] = -1 if token in where_a else i
    where_b: dict[Hashable, int] = {}
    for j in range(blo, bhi):
        token = b[j]
        if where_a.get(token, -1) >= 0:
            where_b[token] = -1 if token in where_b else j
    pairs = sorted((where_a[token], j) for token, j in where_b.items() if j >= 0)
    if not pairs:
        return []
    # longest increasing subsequence of the new positions, by patience sorting
    tails: list[int] = []  # new position ending the best chain of each length
    ends: list[int] = []  # index into pairs of that chain's last pair
    back = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        length = bisect_left(tails, j)
        if length == len(tails):
            tails.append(j)
            ends.append(index)
        else:
            tails[length] = j
            ends[length] = index
        back[index] = ends[length - 1] if length else -1
    chain, at = [], ends[-1]
    while at >= 0:
        chain.append(pairs[at])
        at = back[at]
    return chain[::-1]


def _dense(
    a: Sequence[Hashable], b: Sequence[Hashable], alo: int, ahi: int, blo: int, bhi: int, budget: Budget
) -> list[Run]:
    """A stretch without a unique token: difflib when it is small, else Myers' comparison
    (cheap when the two differ little), else nothing aligned."""
    n, m = ahi - alo, bhi - blo
    if n * m <= SMALL:
        if not budget.spend(n * m):
            return []
        matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
        return [(alo + i, blo + j, size) for i, j, size in matcher.get_matching_blocks() if size]
    found = _myers(a, b, alo, ahi, blo, bhi, budget)
    return found if found is not None else []


MAX_DIFFERENCES = 2000
"""Tokens deleted and inserted at most in a stretch compared by Myers' method (its memory is
this squared)."""


def _myers(
    a: Sequence[Hashable], b: Sequence[Hashable], alo: int, ahi: int, blo: int, bhi: int, budget: Budget
) -> list[Run] | None:
    """The shortest edit script between the stretches (Myers 1986, the greedy forward pass),
    as equal blocks; None when it needs more than the budget or MAX_DIFFERENCES."""
    n, m = ahi - alo, bhi - blo
    offset = n + m + 1
    v = [0] * (2 * offset + 1)
    trace: list[list[int]] = []
    for d in range(min(n + m, MAX_DIFFERENCES) + 1):
        if not budget.spend(2 * d + 1):
            return None
        trace.append(v[offset - d - 1 : offset + d + 2])
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]
            else:
                x = v[offset + k - 1] + 1
            y = x - k
            run = x
            while x < n and y < m and a[alo + x] == b[blo + y]:
                x += 1
                y += 1
            if x - run and not budget.spend(x - run):
                return None
            v[offset + k] = x
            if x >= n and y >= m:
                return _backtrack(trace, d, n, m, alo, blo, a, b)
    return None


def _backtrack(
    trace: list[list[int]], d: int, n: int, m: int, alo: int, blo: int, a: Sequence[Hashable], b: Sequence[Hashable]
) -> list[Run]:
    """The equal blocks of the path found by :func:`_myers`."""
    found: list[Run] = []
    x, y = n, m
    for step in range(d, 0, -1):
        row = trace[step]  # v before step ``step``: row[i] is v[k] for k = i - step - 1
        k = x - y

        def at(kk: int, row: list[int] = row, step: int = step) -> int:
            return row[kk + step + 1]

        if k == -step or (k != step and at(k - 1) < at(k + 1)):
            previous_k = k + 1
        else:
            previous_k = k - 1
        previous_x = at(previous_k)
        previous_y = previous_x - previous_k
        start_x = previous_x + (1 if previous_k == k - 1 else 0)
        start_y = start_x - k
        if x > start_x:
            found.append((alo + start_x, blo + start_y, x - start_x))
        x, y = previous_x, previous_y
    if x > 0:
        found.append((alo, blo, x))
    return [(i, j, size) for i, j, size in found if size and a[i] == b[j]]


def _joined(blocks: list[Run]) -> list[Run]:
    """Blocks in order with those that touch on both sides made one."""
    out: list[Run] = []
    for i, j, size in blocks:
        if size <= 0:
            continue
        if out:
            pi, pj, ps = out[-1]
            if pi + ps == i and pj + ps == j:
                out[-1] = (pi, pj, ps + size)
                continue
        out.append((i, j, size))
    return out


# --- contents ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Alignment:
    """Where the characters of an old content are in the new one: runs of equal text,
    ``(old start, new start, length)``, in increasing order on both sides, never touching
    (adjacent runs are one)."""

    runs: tuple[Run, ...]
    new_length: int

    def moved(self, start: int, end: int) -> tuple[int, int] | None:
        """Where the old characters ``[start, end)`` are in the new content, when all of them
        survive together (one run holds them); None when any was edited or deleted."""
        index = bisect_right(self.runs, start, key=_old_start) - 1
        if index < 0:
            return None
        old, new, length = self.runs[index]
        if end > old + length:
            return None
        return new + start - old, new + end - old

    def surviving(self, start: int, end: int) -> list[Run]:
        """The runs of the old ``[start, end)`` that survive, cut to it."""
        runs = self.runs
        index = max(0, bisect_right(runs, start, key=_old_start) - 1)
        found = []
        while index < len(runs) and runs[index][0] < end:
            old, new, length = runs[index]
            a, b = max(old, start), min(old + length, end)
            if a < b:
                found.append((a, new + a - old, b - a))
            index += 1
        return found

    def before(self, at: int) -> tuple[int, int]:
        """The old and new ends of the last run ending at or before old offset ``at`` ((0, 0): none)."""
        index = bisect_right(self.runs, at - 1, key=_old_start) - 1
        while index >= 0:
            old, new, length = self.runs[index]
            if old + length <= at:
                return old + length, new + length
            index -= 1
        return 0, 0

    def after(self, at: int, old_length: int) -> tuple[int, int]:
        """The old and new starts of the first run starting at or after old offset ``at``
        (the contents' ends: none)."""
        index = bisect_left(self.runs, at, key=_old_start)
        if index < len(self.runs):
            return self.runs[index][0], self.runs[index][1]
        return old_length, self.new_length

    def inserted(self, start: int, end: int, new: str | None = None) -> bool:
        """Whether the new characters ``[start, end)`` are all new: none of them is aligned
        with an old one (with ``new``, the new content: but for line breaks, which a diff
        aligns where lines were joined or split whichever way)."""
        runs = self.runs
        index = max(0, bisect_right(runs, start, key=_new_start) - 1)
        while index < len(runs) and runs[index][1] < end:
            _, b, n = runs[index]
            a, z = max(b, start), min(b + n, end)
            if a < z and (new is None or new.count("\n", a, z) != z - a):
                return False
            index += 1
        return True


def _old_start(run: Run) -> int:
    return run[0]


def _new_start(run: Run) -> int:
    return run[1]


_LINES = re.compile(r"[^\n]*\n|[^\n]+\Z")
_TOKENS = re.compile(r"\w+|[^\w\s]")
"""The words of a line and each mark between them; the spaces between are compared apart."""
_WORD = re.compile(r"\w+")


def align(old: str, new: str, budget: Budget | None = None) -> Alignment:
    """Align two contents as a diff does: lines first; within a run of changed lines, words
    (and the spaces and marks between them); an edited word, character by character."""
    budget = budget or Budget()
    old_lines, new_lines = _LINES.findall(old), _LINES.findall(new)
    old_starts = [0, *accumulate(map(len, old_lines))]
    new_starts = [0, *accumulate(map(len, new_lines))]
    runs: list[Run] = []
    previous = (0, 0)
    line_runs = matches(old_lines, new_lines, budget)
    for i, j, size in [*line_runs, (len(old_lines), len(new_lines), 0)]:
        (pi, pj) = previous
        if i > pi and j > pj:  # lines replaced by others: align their words
            runs += words(old, new, old_starts[pi], old_starts[i], new_starts[pj], new_starts[j], budget)
        if size:
            runs.append((old_starts[i], new_starts[j], old_starts[i + size] - old_starts[i]))
        previous = (i + size, j + size)
    return Alignment(tuple(_joined(sorted(runs))), len(new))


def _line_ranges(text: str, begin: int, end: int) -> list[tuple[int, int]]:
    """The (start, end) of each line of ``text[begin:end]``, without its line break."""
    found, at = [], begin
    while True:
        stop = text.find("\n", at, end)
        if stop < 0:
            found.append((at, end))
            return found
        found.append((at, stop))
        at = stop + 1


def words(old: str, new: str, old_begin: int, old_end: int, new_begin: int, new_end: int, budget: Budget) -> list[Run]:
    """Align a run of changed lines either as one text, word by word (a paragraph reflowed,
    words edited across lines), or line with most similar line (lines edited among others
    deleted or inserted, a line much like another before it); whichever aligns more
    characters. Either way only what aligns lines that are the same lines edited is kept (see
    :func:`edited_pairs`)."""
    old_lines, new_lines = _line_ranges(old, old_begin, old_end), _line_ranges(new, new_begin, new_end)
    ranges = ((old_begin, old_end), (new_begin, new_end))
    joined = edited_pairs(_token_runs(old, new, old_lines, new_lines, budget), old, new, *ranges)
    paired = edited_pairs(_paired_runs(old, new, old_lines, new_lines, budget), old, new, *ranges)
    return paired if sum(n for *_, n in paired) > sum(n for *_, n in joined) else joined


MAX_PAIRS = 400
"""Line pairs of a run of changed lines compared for similarity at most (else it is aligned as one text)."""
SIMILAR = 0.5
"""The similarity of their words from which two lines count as one line edited."""


def _bag(text: str, line: tuple[int, int]) -> dict[str, int]:
    found: dict[str, int] = {}
    for word in _TOKENS.findall(text, *line):
        found[word] = found.get(word, 0) + 1
    return found


def _similarity(a: dict[str, int], b: dict[str, int], sizes: tuple[int, int]) -> float:
    """The words two lines share (as bags), over the words of both (difflib's quick ratio)."""
    if not sizes[0] or not sizes[1]:
        return 0.0
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    shared = sum(min(n, large.get(word, 0)) for word, n in small.items())
    return 2 * shared / (sizes[0] + sizes[1])


def _paired_runs(
    old: str,
    new: str,
    old_lines: list[tuple[int, int]],
    new_lines: list[tuple[int, int]],
    budget: Budget,
    ends: tuple[int, int] | None = None,
) -> list[Run]:
    """Align the most similar pair of lines word by word, then the lines before it and after it
    in the same way, as ``difflib.Differ`` pairs the lines of a replaced run (which ends at
    ``ends``, old and new: by default where the last of these lines do)."""
    if not old_lines or not new_lines or len(old_lines) * len(new_lines) > MAX_PAIRS:
        return []
    bags_old = [_bag(old, line) for line in old_lines]
    bags_new = [_bag(new, line) for line in new_lines]
    sizes_old = [sum(bag.values()) for bag in bags_old]
    sizes_new = [sum(bag.values()) for bag in bags_new]
    if not budget.spend(len(old_lines) * len(new_lines) + sum(sizes_old) + sum(sizes_new)):
        return []
    best, pair = SIMILAR, None
    for i, a in enumerate(bags_old):
        for j, b in enumerate(bags_new):
            score = _similarity(a, b, (sizes_old[i], sizes_new[j]))
            if score > best:
                best, pair = score, (i, j)
    if pair is None:
        return []
    i, j = pair
    (a0, a1), (b0, b1) = old_lines[i], new_lines[j]
    middle = _token_runs(old, new, [(a0, a1)], [(b0, b1)], budget)
    old_end, new_end = ends or (old_lines[-1][1], new_lines[-1][1])
    if a1 < old_end and b1 < new_end:
        # the line break after the pair: one follows each line but the run's last
        middle.append((a1, b1, 1))
    return (
        _paired_runs(old, new, old_lines[:i], new_lines[:j], budget, (old_end, new_end))
        + middle
        + _paired_runs(old, new, old_lines[i + 1 :], new_lines[j + 1 :], budget, (old_end, new_end))
    )


def _token_runs(
    old: str, new: str, old_lines: list[tuple[int, int]], new_lines: list[tuple[int, int]], budget: Budget
) -> list[Run]:
    """Align the words of some lines of ``old`` with those of some lines of ``new``, in order:
    each word with the spaces before it when they are the same; one word for another
    ("optionally" for "optional") character by character."""
    old_tokens = [(m.start(), m.group()) for a, b in old_lines for m in _TOKENS.finditer(old, a, b)]
    new_tokens = [(m.start(), m.group()) for a, b in new_lines for m in _TOKENS.finditer(new, a, b)]
    if not old_tokens or not new_tokens:
        return []
    old_begin, old_end, new_begin, new_end = old_lines[0][0], old_lines[-1][1], new_lines[0][0], new_lines[-1][1]
    blocks = matches([t for _, t in old_tokens], [t for _, t in new_tokens], budget)
    blocks = slid(blocks, old_tokens, new_tokens, old, new)
    found: list[Run] = []

    def gap_start(tokens: list[tuple[int, str]], index: int, begin: int) -> int:
        return tokens[index - 1][0] + len(tokens[index - 1][1]) if index > 0 else begin

    previous = (0, 0)
    for i, j, size in [*blocks, (len(old_tokens), len(new_tokens), 0)]:
        pi, pj = previous
        if i - pi == 1 and j - pj == 1:  # one word for another
            (a_begin, a_word), (b_begin, b_word) = old_tokens[pi], new_tokens[pj]
            if max(len(a_word), len(b_word)) <= MAX_CHARACTER_DIFF and budget.spend(len(a_word) * len(b_word)):
                characters = difflib.SequenceMatcher(None, a_word, b_word, autojunk=False)
                found += [(a_begin + x, b_begin + y, n) for x, y, n in characters.get_matching_blocks() if n]
        for k in range(size):
            (a, word), (b, _) = old_tokens[i + k], new_tokens[j + k]
            gap_old, gap_new = gap_start(old_tokens, i + k, old_begin), gap_start(new_tokens, j + k, new_begin)
            if old[gap_old:a] == new[gap_new:b]:
                found.append((gap_old, gap_new, a - gap_old))
            found.append((a, b, len(word)))
        if size:  # and the spaces after its last word, when they are the same
            a, b = gap_start(old_tokens, i + size, old_begin), gap_start(new_tokens, j + size, new_begin)
            a_end = old_tokens[i + size][0] if i + size < len(old_tokens) else old_end
            b_end = new_tokens[j + size][0] if j + size < len(new_tokens) else new_end
            if old[a:a_end] == new[b:b_end]:
                found.append((a, b, a_end - a))
        previous = (i + size, j + size)
    return _joined(sorted(found))


def _edges(text: str, tokens: list[tuple[int, str]]) -> tuple[list[bool], list[bool]]:
    """For each token, whether it is the first of its line, and whether it is the last."""
    first = [text.rfind("\n", 0, at) >= (tokens[i - 1][0] if i else -1) for i, (at, _) in enumerate(tokens)]
    last = [
        text.find("\n", at + len(word), tokens[i + 1][0] if i + 1 < len(tokens) else len(text)) >= 0
        or i + 1 == len(tokens)
        for i, (at, word) in enumerate(tokens)
    ]
    return first, last


_SENTENCE_END = frozenset(".!?;:")


def _best_shift(tokens: list[str], first: list[bool], last: list[bool], x: int, y: int, left: int, right: int) -> int:
    """Where, ``left`` tokens back to ``right`` on, a deletion or an insertion of
    ``tokens[x:y]`` reads best: whole lines, then a sentence with its period; ties go to the
    place the diff found (the nearest)."""

    def score(shift: int) -> tuple[int, bool, int]:
        begin, end = x + shift, y + shift
        return first[begin] + last[end - 1], tokens[end - 1] in _SENTENCE_END, -abs(shift)

    return max(range(-left, right + 1), key=score)


def slid(blocks: list[Run], a: list[tuple[int, str]], b: list[tuple[int, str]], old: str, new: str) -> list[Run]:
    """The blocks with each pure deletion or insertion of words slid to where a reader would
    put it, among the places a diff finds equally short (its words repeat those beside it):
    whole lines first (one of two lines that start alike deleted: the first line, not its
    first words and the second's tail), then a sentence with its own period (``endings.
    CRLF … convert. The`` less ``CRLF … convert.``, not ``. CRLF … convert``)."""
    out = list(blocks)
    edges = (_edges(old, a), _edges(new, b))
    words = ([w for _, w in a], [w for _, w in b])
    for index in range(len(out) - 1):
        (i1, j1, s1), (i2, j2, s2) = out[index], out[index + 1]
        deleted, inserted = j1 + s1 == j2 and i1 + s1 < i2, i1 + s1 == i2 and j1 + s1 < j2
        if not (deleted or inserted):
            continue
        side = 0 if deleted else 1
        tokens, (first, last) = words[side], edges[side]
        x, y = (i1 + s1, i2) if deleted else (j1 + s1, j2)
        left = 0
        while left < s1 and tokens[x - 1 - left] == tokens[y - 1 - left]:
            left += 1
        right = 0
        while right < s2 and tokens[x + right] == tokens[y + right]:
            right += 1
        if not left and not right:
            continue

        best = _best_shift(tokens, first, last, x, y, left, right)
        if best:
            out[index] = (i1, j1, s1 + best)
            out[index + 1] = (i2 + best, j2 + best, s2 - best)
    return [block for block in out if block[2] > 0]


def _cut_at_breaks(found: list[Run], old: str, new: str) -> list[Run]:
    """The runs cut at the old and the new line breaks (each piece on one line of each side)."""
    pieces: list[Run] = []
    for a, b, size in found:
        while size > 0:
            stop = min(size, _to_break(old, a, a + size), _to_break(new, b, b + size))
            pieces.append((a, b, stop))
            a, b, size = a + stop, b + stop, size - stop
    return pieces


def _to_break(text: str, start: int, end: int) -> int:
    """How many characters from ``start`` up to and including the next line break (before ``end``)."""
    at = text.find("\n", start, end)
    return end - start if at < 0 else at + 1 - start


def _line_words(text: str, begin: int, end: int) -> dict[int, list[tuple[int, int]]]:
    """The words of each line of ``text[begin:end]``, by the line's start."""
    lines: dict[int, list[tuple[int, int]]] = {}
    at = begin
    while at <= end:
        stop = text.find("\n", at, end)
        stop = end if stop < 0 else stop
        lines[at] = [(m.start(), m.end()) for m in _WORD.finditer(text, at, stop)]
        at = stop + 1
    return lines


MAX_RUNS = 3
"""Runs of aligned words two lines may share at most for one to count as the other with text
added or removed beside (a clause appended, a sentence deleted from the middle: two runs); two
unrelated sentences share their small words scattered in many runs."""


def edited_pairs(
    found: list[Run], old: str, new: str, old_range: tuple[int, int], new_range: tuple[int, int]
) -> list[Run]:
    """The pieces of ``found`` (cut at line breaks) that align an old line with the same line
    edited: either at least :data:`CONTAINED` of the shorter line's words are aligned between
    the two, in :data:`MAX_RUNS` runs at most (a clause appended to a sentence, one deleted from
    its middle), or each line has that
    share of its own words aligned (a paragraph reflowed). A line rewritten whole, or deleted
    among edited ones, lends none of its words."""
    pieces = _cut_at_breaks(found, old, new)
    if not pieces:
        return []
    old_words, new_words = _line_words(old, *old_range), _line_words(new, *new_range)
    old_starts, new_starts = sorted(old_words), sorted(new_words)

    def line_of(starts: list[int], at: int) -> int:
        return starts[bisect_right(starts, at) - 1]

    pair_words: dict[tuple[int, int], int] = {}
    pair_new_words: dict[tuple[int, int], int] = {}
    pair_runs: dict[tuple[int, int], int] = {}
    piece_lines = []
    whole = _whole_words(pieces, old_words, old_starts, new_words, new_starts)
    for (a, b, _), (count_old, count_new) in zip(pieces, whole, strict=True):
        lines = (line_of(old_starts, a), line_of(new_starts, b))
        piece_lines.append(lines)
        pair_words[lines] = pair_words.get(lines, 0) + count_old
        pair_new_words[lines] = pair_new_words.get(lines, 0) + count_new
        pair_runs[lines] = pair_runs.get(lines, 0) + (count_old > 0)
    kept = _kept_pairs(pair_words, pair_new_words, pair_runs, old_words, new_words)
    return [piece for piece, lines in zip(pieces, piece_lines, strict=True) if lines in kept]


def _kept_pairs(
    pair_words: dict[tuple[int, int], int],
    pair_new_words: dict[tuple[int, int], int],
    pair_runs: dict[tuple[int, int], int],
    old_words: dict[int, list[tuple[int, int]]],
    new_words: dict[int, list[tuple[int, int]]],
) -> set[tuple[int, int]]:
    """The pairs of lines (by their starts) that are one line edited. A pair holds on its own
    when one line is the other with text beside it (:data:`CONTAINED`, :data:`MAX_RUNS`), or
    when either line has no words; else as part of a reflow, while each of its lines has
    :data:`EDITED` of its words aligned *in pairs that hold*. A pair let go lowers its lines'
    shares, which may let their other pairs go in turn (a line rewritten whole lends none of
    its words, even where another of its words once counted for it); each line can fall below
    its share once, so this costs the number of pairs."""
    alone: set[tuple[int, int]] = set()
    old_share: dict[int, int] = {}
    new_share: dict[int, int] = {}
    by_old: dict[int, list[tuple[int, int]]] = {}
    by_new: dict[int, list[tuple[int, int]]] = {}
    for lines, count_old in pair_words.items():
        total_old, total_new = len(old_words[lines[0]]), len(new_words[lines[1]])
        if (
            not total_old
            or not total_new
            or (pair_runs[lines] <= MAX_RUNS and count_old >= CONTAINED * min(total_old, total_new))
        ):
            alone.add(lines)
        old_share[lines[0]] = old_share.get(lines[0], 0) + count_old
        new_share[lines[1]] = new_share.get(lines[1], 0) + pair_new_words[lines]
        by_old.setdefault(lines[0], []).append(lines)
        by_new.setdefault(lines[1], []).append(lines)

    def old_holds(line: int) -> bool:
        return old_share[line] >= EDITED * len(old_words[line])

    def new_holds(line: int) -> bool:
        return new_share[line] >= EDITED * len(new_words[line])

    kept = set(pair_words)
    failing = [lines for lines in kept if lines not in alone and not (old_holds(lines[0]) and new_holds(lines[1]))]
    fallen_old = {line for line in old_share if not old_holds(line)}
    fallen_new = {line for line in new_share if not new_holds(line)}
    while failing:
        lines = failing.pop()
        if lines not in kept:
            continue
        kept.discard(lines)
        old_share[lines[0]] -= pair_words[lines]
        new_share[lines[1]] -= pair_new_words[lines]
        if lines[0] not in fallen_old and not old_holds(lines[0]):
            fallen_old.add(lines[0])
            failing += [other for other in by_old[lines[0]] if other in kept and other not in alone]
        if lines[1] not in fallen_new and not new_holds(lines[1]):
            fallen_new.add(lines[1])
            failing += [other for other in by_new[lines[1]] if other in kept and other not in alone]
    return kept


def _whole_words(
    pieces: list[Run],
    old_words: dict[int, list[tuple[int, int]]],
    old_starts: list[int],
    new_words: dict[int, list[tuple[int, int]]],
    new_starts: list[int],
) -> list[tuple[int, int]]:
    """For each piece, how many old words and how many new words lie whole in it."""
    old_flat = [word for start in old_starts for word in old_words[start]]
    new_flat = [word for start in new_starts for word in new_words[start]]

    def whole(words: list[tuple[int, int]], start: int, end: int) -> int:
        first = bisect_left(words, (start, -1))
        last = bisect_right(words, (end, end)) - 1
        count = 0
        for index in range(first, last + 1):
            if words[index][1] <= end:
                count += 1
        return count

    return [(whole(old_flat, a, a + n), whole(new_flat, b, b + n)) for a, b, n in pieces]


__all__ = ["Alignment", "Budget", "Run", "align", "edited_pairs", "matches", "words"]

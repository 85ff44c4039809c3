"""Words of a claim its sources do not have: where a reviewer should look, not a verdict.

A claim that says "faster than every C implementation on every workload", cited to "often
faster than C implementations", is *supported* (docs/rules.md counts sources, it does not read
them), and it says more than its source does: *every*, *workload*. This module finds such
words, deterministically: the claim's content words that occur in none of its supporting
sources' cited text. It flags where to look; it does not judge: a synonym, a paraphrase or
a number written in words shows as missing, and a word there in another sense hides one.

- **Which sources**: those that count (docs/rules.md "Verdicts and coverage") and support the
  claim. A claim that does not resolve, or that no counted source supports, has nothing to
  compare with: None, not an empty tuple.
- **Words**: runs of letters (with inner apostrophes: ``don't``) or of digits (with inner
  ``.`` or ``,``: ``2.4``, ``1,000``), compared after NFKC and case folding; ``cold-start``
  is two words, ``820ms`` two (``820``, ``ms``).
- **Stop words**: English function words (articles, pronouns, most prepositions and
  conjunctions, forms of *be*, *have*, *do*) are left out. Negations, quantifiers, degree
  words, modals and prepositions of direction or quantity (*not*, *never*, *every*, *only*,
  *most*, *will*, *over*, *without*) are kept: they are what an overstating claim adds.
- **Stems**: Snowball's English stemmer (Porter2, the ``snowballstemmer`` package, which
  stems with Snowball's compiled stemmers, ``PyStemmer``, where that is installed), so that
  *implementations* matches *implementation*; stems are remembered (a few thousand words
  make a session's vocabulary), so a 30,000-annotation session is judged in a fraction of
  a second.
- **Other languages**: words of scripts written with spaces (Latin, Greek, Cyrillic, Hangul,
  ...) are compared as written, through the English stemmer (which leaves most other
  endings alone) and with no stop words of their own. Scripts written without spaces between
  words (Han, kana, Thai, Lao, Khmer, Myanmar) cannot be cut into words without a
  dictionary: their text is left out, so the aid says nothing of it rather than something
  wrong. A claim cited to a source holding such text (a translation: "Memory use falls" to
  "内存占用从 820 MB 降至 517 MB") may have any of its words there, unseen: only its numbers
  are compared then, which any script writes the same.

The words are given as the claim writes them (the first time), in the claim's order, one per
stem. Nothing here reads the session's JSON: it is a function of the resolved refs.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache

import snowballstemmer  # type: ignore[import-untyped]

from .session import Annotation, Path
from .verdicts import counts

STOP_WORDS = frozenset(
    """
    a an the this that these those
    i me my mine myself we us our ours ourselves you your yours yourself yourselves
    he him his himself she her hers herself it its itself they them their theirs themselves
    one ones what which who whom whose
    am is are was were be been being have has had having do does did doing done
    and or but nor so yet if then else than as because since while whereas although though
    unless whether of at by for with about between into through during to from in on onto
    upon within among via per
    here there where when why how also just such own same very
    i'm i've i'd i'll you're you've you'd you'll he's he'd he'll she's she'd she'll it's
    it'd it'll we're we've we'd we'll they're they've they'd they'll that's there's here's
    what's who's let's
    """.split()
)
"""English function words: a claim and its source share them whatever they say."""

_NO_SPACES = (
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1000-\u109f"  # Myanmar
    "\u1780-\u17ff"  # Khmer
    "\u3040-\u30ff\u31f0-\u31ff"  # kana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
    "\U00020000-\U0003134f"  # Han, supplementary
)
_UNSPACED = re.compile(f"[{_NO_SPACES}]")
_WORDS = re.compile(rf"(?:(?![{_NO_SPACES}])[^\W\d_])+(?:'(?:(?![{_NO_SPACES}])[^\W\d_])+)*|\d+(?:[.,]\d+)*")
_SPACED_WORDS = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*|\d+(?:[.,]\d+)*")
"""``_WORDS`` for a text with no character of ``_NO_SPACES``: the same words, found without
a look ahead at every letter (two and a half times as fast)."""
_APOSTROPHES = ("\u2019", "\u02bc", "\uff07")

_stemming = threading.Lock()  # a Snowball stemmer keeps its word in itself: one call at a time
_STEMMER = snowballstemmer.stemmer("english")  # PyStemmer's when installed (the same stems)


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """The stem of a case-folded word (``implementations`` → ``implement``); a number is
    its own stem."""
    if word[0].isdigit():
        return word
    with _stemming:
        found: str = _STEMMER.stemWord(word)
    return found


def words(text: str) -> list[str]:
    """The words of ``text`` as written (see the module's docstring for what a word is)."""
    text = unicodedata.normalize("NFKC", text)
    if text.isascii():
        return _SPACED_WORDS.findall(text)
    for apostrophe in _APOSTROPHES:  # (str.translate looks up every character in its table)
        if apostrophe in text:
            text = text.replace(apostrophe, "'")
    return (_WORDS if _UNSPACED.search(text) else _SPACED_WORDS).findall(text)


@lru_cache(maxsize=1 << 16)
def written_stem(word: str) -> str:
    """The stem of a word as written (``Implementations`` → ``implement``)."""
    return stem(word.casefold())


def content_stems(text: str) -> set[str]:
    """The stems of every word of ``text``, stop words included (a source's text: a claim's
    content word is found in it whatever the source uses it for)."""
    return set(map(written_stem, words(text)))


def missing_words(claim: str, sources: Iterable[str]) -> tuple[str, ...]:
    """The content words of ``claim`` whose stem is in none of ``sources``, as the claim
    writes them, in its order, one per stem; only its numbers when a source holds text
    written without spaces (whose words cannot be told apart)."""
    texts = list(sources)
    letters = not any(_UNSPACED.search(text) for text in texts)
    wanted: dict[str, str] = {}
    for word in words(claim):
        folded = word.casefold()
        if folded in STOP_WORDS or not (letters or word[0].isdigit()):
            continue
        wanted.setdefault(stem(folded), word)
    for text in texts:
        if not wanted:
            break
        for found in content_stems(text) & wanted.keys():
            del wanted[found]
    return tuple(wanted.values())


def unsupported_words(annotation: Annotation | None) -> tuple[str, ...] | None:
    """The words of an annotation's claim that none of its supporting sources that count
    has; None when the claim does not resolve or no such source counts."""
    claim = annotation.claim if annotation is not None else None
    if annotation is None or claim is None or not claim.valid:
        return None
    supporting = [source for source in annotation.sources if source.polarity == "supports" and counts(source)]
    if not supporting:
        return None
    return missing_words(claim.text or "", (source.text or "" for source in supporting))


class UnsupportedWords:
    """Each annotation's :func:`unsupported_words`, for one analysis, computed the first
    time it is asked for (opening a session computes none; ``--json`` asks for all)."""

    __slots__ = ("_annotations", "_found")

    def __init__(self, annotations: Callable[[Path], Annotation | None]) -> None:
        """``annotations``: the annotation at a path (``Session.annotation_at_path``)."""
        self._annotations = annotations
        self._found: dict[Path, tuple[str, ...] | None] = {}

    def of(self, path: Path) -> tuple[str, ...] | None:
        """The words of the annotation at ``path`` (``("annotations", i)``) its sources lack."""
        try:
            return self._found[path]
        except KeyError:
            found = self._found[path] = unsupported_words(self._annotations(path))
            return found


def said(found: tuple[str, ...], width: int = 0) -> str:
    """``not in its sources: every, workload``; with a ``width``, as many words as fit in
    about that many characters and how many more there are (``every, … 3 more``)."""
    shown = list(found)
    while width > 0 and len(shown) > 1 and len(", ".join(shown)) > width:
        shown.pop()
    rest = len(found) - len(shown)
    return "not in its sources: " + ", ".join(shown) + (f", … {rest} more" if rest else "")

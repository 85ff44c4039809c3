"""A corpus of sessions over real prose with the mistakes models make in their refs.

Each session is made right first (every ref cites a span of whole words, its boundary
strings written as a model writes them: the first words of the span for ``start.str``, the
last ones for ``end.str``, as few as are unique on their line), then some refs are broken
the way models break them: lines off by one to five, a string in another case, written with
other punctuation (a hyphen for a space, ``--`` for an em dash, a comma dropped or added),
other quotes, other spacing, a period for the line's ``!`` or ``:``, markdown markup added,
and the compound mistakes: both boundaries broken, lines off and a string re-cased or
re-punctuated. A mistake is made only where the rules can see it (the broken ref does not
resolve at all): one that resolves to other text cannot be told from a right ref.

:func:`corpus` gives the sessions with, for each broken ref, its pointer, the kind of mistake
and the text that was meant; :func:`cited` reads what each ref of a text cites.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.refs import Boundaries, cite, resolves_to
from sourcecheck.core.session import Document

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "core" / "data"
PROSE_FILES = [
    DATA / "agent_prose.md",
    *(
        DATA / "prose" / name
        for name in ("README.md", "architecture.md", "decisions.md", "sourcecheck-spec.md", "security.md")
    ),
]
"""The prose the refs cite: the repository's own text, copied once (tests/core/data/prose/) so
that the corpus, and its numbers, do not change when the documentation does."""
ORBIT = sorted((ROOT / "examples" / "orbit").iterdir())

SIMPLE = ("recase", "repunct", "quotes", "spacing", "period", "markup", "line-off", "one-line-off")
COMPOUND = ("both-broken", "off+recase", "off+repunct", "far-off")
KINDS = SIMPLE + COMPOUND


@dataclass(frozen=True)
class Broken:
    """A ref broken on purpose: where it is, how, and what it cited before."""

    pointer: tuple[Any, ...]  # ("annotations", i, "claim") or ("annotations", i, "sources", j)
    kind: str
    meant: str


def prose_blocks() -> list[list[str]]:
    """Runs of 8 to 20 prose lines (no code blocks, no tables) from the repository's text."""
    blocks = []
    for path in PROSE_FILES:
        lines = path.read_text(encoding="utf-8").split("\n")
        keep, fenced = [], False
        for line in lines:
            if line.startswith("```"):
                fenced = not fenced
                continue
            if fenced or line.startswith("|") or line.startswith("<!--"):
                continue
            keep.append(line)
        for at in range(0, len(keep) - 8, 14):
            block = keep[at : at + 20]
            if sum(len(line) > 50 for line in block) >= 6:
                blocks.append(block)
    blocks.append((ORBIT[0].read_text(encoding="utf-8") + ORBIT[2].read_text(encoding="utf-8")).split("\n"))
    return blocks


def _unique(line: str, text: str) -> bool:
    first = line.find(text)
    return bool(text) and first >= 0 and line.find(text, first + 1) < 0


def model_boundaries(document: Document, start: int, end: int, words: int = 2) -> Boundaries | None:
    """The ref citing ``[start, end)`` as a model writes it: whole words at each end, as few
    as make the string unique on its line but at least ``words`` where the span has them
    (else the shortest unique string, as ``ref`` makes)."""
    made = cite(document, start, end)
    if not isinstance(made, Boundaries):
        return None
    first_line = document.lines[made.start_line - 1]
    last_line = document.lines[made.end_line - 1]
    column = start - document.line_starts[made.start_line - 1]
    stop = end - document.line_starts[made.end_line - 1]
    same = made.start_line == made.end_line
    rights = [m.end() for m in re.finditer(r"\S+", first_line[column : stop if same else None])]
    rights = rights[min(words, len(rights)) - 1 :] if rights else []
    start_str = next(
        (first_line[column : column + w] for w in rights if _unique(first_line, first_line[column : column + w])),
        made.start_str,
    )
    lefts = [m.start() for m in re.finditer(r"\S+", last_line[column if same else 0 : stop])][::-1]
    lefts = [(column if same else 0) + w for w in lefts[min(words, len(lefts)) - 1 :]] if lefts else []
    end_str = next((last_line[w:stop] for w in lefts if _unique(last_line, last_line[w:stop])), made.end_str)
    ref = Boundaries(document.path, made.start_line, start_str, made.end_line, end_str)
    return ref if resolves_to(document, ref) == document.content[start:end] else made


def span_of(rng: random.Random, document: Document, lines: int) -> tuple[int, int] | None:
    """A span of 3 to 14 whole words within ``lines`` lines, ending after a word or after
    the punctuation that follows it."""
    content = document.content
    words = list(re.finditer(r"[\w'’-]+[!:;?.,]?", content))
    if len(words) < 16:
        return None
    a = rng.randrange(len(words) - 15)
    b = a + rng.randint(2, 13)
    start, end = words[a].start(), words[b].end()
    if content.count("\n", start, end) >= lines or content[start] in "-'’":
        return None
    return start, end


def _recased(text: str, rng: random.Random) -> str:
    choices = [text.lower(), text.upper(), text[:1].swapcase() + text[1:], text.title()]
    return rng.choice([c for c in choices if c != text] or [text.swapcase()])


def _repunctuated(text: str, rng: random.Random) -> str | None:
    """``text`` with other punctuation, as models write it: a hyphen for a space or the
    other way round, ``--`` for an em dash (or the dash for ``--``), a comma dropped or added."""
    options = []
    if re.search(r"\w-\w", text):
        options.append(re.sub(r"(\w)-(\w)", r"\1 \2", text, count=1))
    if "—" in text:
        options.append(text.replace("—", "--", 1))
    if "--" in text:
        options.append(text.replace("--", "—", 1))
    if "–" in text:
        options.append(text.replace("–", "-", 1))
    if ", " in text:
        options.append(text.replace(", ", " ", 1))
    spaces = [m.start() for m in re.finditer(r"(?<=\w) (?=\w)", text)]
    if spaces:
        at = rng.choice(spaces)
        options.append(text[:at] + "," + text[at:])
    if re.search(r"\w \w", text) and not options:
        options.append(re.sub(r"(\w) (\w)", r"\1-\2", text, count=1))
    return rng.choice(options) if options else None


def _requoted(text: str) -> str | None:
    swapped = text.translate(str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "'": "’", '"': "“"}))
    return swapped if swapped != text else None


def _spaced(text: str, rng: random.Random) -> str | None:
    if " " not in text:
        return None
    at = rng.choice([m.start() for m in re.finditer(" ", text)])
    return text[:at] + rng.choice(["  ", "\t", "\u00a0"]) + text[at + 1 :]


def _marked(text: str, rng: random.Random) -> str:
    return rng.choice(["**{}**", "`{}`", "*{}*"]).format(text)


_PUNCTUATION_AFTER = ("", "!", "?", ":", ";", ",")
"""After a string, what makes a period added to it a period written for the line's own
punctuation (which a repair keeps): not the mistake of a period added."""


def _string_mistake(kind: str, text: str, side: str, line: str, rng: random.Random) -> str | None:
    if kind == "recase":
        return _recased(text, rng)
    if kind == "repunct":
        return _repunctuated(text, rng)
    if kind == "quotes":
        return _requoted(text)
    if kind == "spacing":
        return _spaced(text, rng)
    if kind == "markup":
        return _marked(text, rng)
    if kind == "period" and side == "end":
        if text[-1:] in "!:;?":
            return text[:-1] + "."
        after = line[line.find(text) + len(text) :][:1]
        if text[-1:].isalnum() and after not in _PUNCTUATION_AFTER and (text + ".") not in line:
            return text + "."
    return None


def broken_ref(rng: random.Random, kind: str, ref: dict[str, Any], lines: list[str]) -> dict[str, Any] | None:
    """``ref`` (its JSON) with one mistake of ``kind`` made, or None where that kind cannot be
    made on it."""
    start, end = dict(ref["start"]), dict(ref["end"])
    if kind in ("recase", "repunct", "quotes", "spacing", "markup", "period"):
        side = "end" if kind == "period" else rng.choice(["start", "end"])
        boundary = start if side == "start" else end
        written = _string_mistake(kind, boundary["str"], side, lines[boundary["line"] - 1], rng)
        if written is None:
            return None
        boundary["str"] = written
    elif kind == "both-broken":
        for boundary, side in ((start, "start"), (end, "end")):
            choice = rng.choice(["recase", "repunct", "quotes", "spacing"])
            written = _string_mistake(choice, boundary["str"], side, lines[boundary["line"] - 1], rng)
            written = written or _recased(boundary["str"], rng)
            boundary["str"] = written
    elif kind in ("line-off", "off+recase", "off+repunct", "far-off"):
        delta = rng.choice([-5, -4, -3, 3, 4, 5] if kind == "far-off" else [-3, -2, -1, 1, 2, 3])
        start["line"] += delta
        end["line"] += delta
        if kind != "line-off" and kind != "far-off":
            side = rng.choice([start, end])
            written = _string_mistake(kind.split("+")[1], side["str"], "start", lines[ref["start"]["line"] - 1], rng)
            if written is None:
                return None
            side["str"] = written
    elif kind == "one-line-off":
        if start["line"] != end["line"]:
            return None
        end["line"] += rng.choice([-2, -1, 1, 2])
    if not (1 <= start["line"] <= len(lines) and 1 <= end["line"] <= len(lines)):
        return None
    return {**ref, "start": start, "end": end}


def _resolves(documents: dict[str, Document], ref: dict[str, Any]) -> str | None:
    document = documents[ref["path"]]
    start, end = ref["start"], ref["end"]
    return resolves_to(document, Boundaries(ref["path"], start["line"], start["str"], end["line"], end["str"]))


def session(seed: int, blocks: list[list[str]], words: int = 2) -> tuple[dict[str, Any], list[Broken]]:
    """One session of the corpus: two documents of prose, four to seven annotations, about
    half of their refs broken (each kind in turn), and what each broken one meant."""
    rng = random.Random(seed)
    first, second = rng.sample(range(len(blocks)), 2)
    docs = [
        Document("article.md", "\n".join(blocks[first]) + "\n", ()),
        Document("notes.md", "\n".join(blocks[second]) + "\n", ()),
    ]
    by_path = {d.path: d for d in docs}
    annotations: list[dict[str, Any]] = []
    wanted = rng.randint(4, 7)
    for _ in range(60):
        if len(annotations) == wanted:
            break
        spans = [span_of(rng, docs[0], 1), span_of(rng, docs[1], 2 if rng.random() < 0.2 else 1)]
        refs = [model_boundaries(d, *s, words) if s else None for d, s in zip(docs, spans, strict=True)]
        if refs[0] is None or refs[1] is None:
            continue
        claim, source = refs[0].as_json(), refs[1].as_json()
        annotations.append({"claim": claim, "sources": [{**source, "polarity": "supports", "confidence": 0.8}]})
    broken: list[Broken] = []
    for index, annotation in enumerate(annotations):
        for pointer, ref in ((("claim",), annotation["claim"]), (("sources", 0), annotation["sources"][0])):
            if rng.random() < 0.45:
                continue
            meant = _resolves(by_path, ref)
            assert meant is not None
            lines = by_path[ref["path"]].content.split("\n")
            kind = KINDS[(seed * 7 + len(broken)) % len(KINDS)]
            for _attempt in range(6):
                wrong = broken_ref(rng, kind, ref, lines)
                if wrong is not None and _resolves(by_path, wrong) is None:
                    break
                kind = rng.choice(KINDS)
            else:
                continue
            if pointer == ("claim",):
                annotation["claim"] = wrong
            else:
                annotation["sources"][0] = {**annotation["sources"][0], **wrong}
            broken.append(Broken(("annotations", index, *pointer), kind, meant))
    value = {"documents": [{"path": d.path, "content": d.content} for d in docs], "annotations": annotations}
    return value, broken


def corpus(
    count: int = 30, first_seed: int = 0, words: int = 2
) -> list[tuple[str, list[Broken], dict[tuple[Any, ...], str | None]]]:
    """``count`` sessions as JSON text, each with its broken refs and the text every ref meant
    (by pointer: the broken ones' meant text, the others' own); ``words``: at least that many
    words in each boundary string where the span has them (1: as few as are unique, which
    makes boundaries such as ``"a"`` or ``"the"`` that are on every line)."""
    blocks = prose_blocks()
    made = []
    for seed in range(first_seed, first_seed + count):
        value, broken = session(seed, blocks, words)
        text = json.dumps(value, ensure_ascii=False, indent=2)
        meant = cited(text)
        for each in broken:
            meant[each.pointer] = each.meant
        made.append((text, broken, meant))
    return made


def cited(text: str) -> dict[tuple[Any, ...], str | None]:
    """What each ref of a session text cites (None: it does not resolve), by its JSON path."""
    analysis = Analysis(text)
    session = analysis.session
    return {session.ref_path(ref): (ref.text if ref.valid else None) for ref in session.refs}

"""``--fix`` on the mistakes models make, over real prose (the spec's own text).

Sessions are made right (every ref cites a span it was made for), then broken the way a
model breaks them: a boundary in another case, with typed quotes for typographic ones, with
its spaces doubled; a polarity written ``Supports``; a confidence written ``"0.9"``; a path in
another case or without its extension; CRLF content; the annotations nested inside
``session`` (all of them safe to repair), and a ref's lines off by one or two, a confidence as
a percentage, a period added at a boundary's end (unsafe). The safe fixes alone must repair
every safe kind to exactly the text that was meant; with the unsafe ones, at least 9 of 10
of the others; and no fix may ever make a ref cite other text, nor drop anything.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.fixes import fixed
from sourcecheck.core.refs import Boundaries, cite
from sourcecheck.core.session import Document

SPEC = Path(__file__).resolve().parents[2] / "docs" / "sourcecheck-spec.md"
PROSE = list(dict.fromkeys(line for line in SPEC.read_text(encoding="utf-8").split("\n") if len(line) > 40))
SAFE = ("case", "spacing", "quotes", "polarity", "confidence-string", "path-case", "path-extension")
UNSAFE = ("line-off", "percent", "trailing-period")


def span_of(rng: random.Random, content: str, lines: int) -> tuple[int, int] | None:
    """A span of whole words over one or ``lines`` lines."""
    words = list(re.finditer(r"\w+", content))
    a = rng.randrange(len(words))
    b = a + rng.randint(1, 8)
    if b >= len(words):
        return None
    start, end = words[a].start(), words[b].end()
    if content.count("\n", start, end) >= lines:
        return None
    return start, end


def made(rng: random.Random) -> tuple[dict, list[tuple[tuple, str, str]]]:
    """A right session over prose, and each source's (pointer parts, kind of mistake, meant text)."""
    first = rng.randrange(len(PROSE) - 30)
    notes = "\n".join(PROSE[first : first + 12]).replace("'", "\u2019") + "\n"  # typographic apostrophes
    article = "\n".join(PROSE[first + 15 : first + 20]) + "\n"
    documents = [Document("article.md", article, ()), Document("notes.txt", notes, ())]
    annotations, plan = [], []
    for _ in range(rng.randint(3, 8)):
        claim_span, source_span = span_of(rng, article, 1), span_of(rng, notes, 2)
        if claim_span is None or source_span is None:
            continue
        claim, source = cite(documents[0], *claim_span), cite(documents[1], *source_span)
        if not isinstance(claim, Boundaries) or not isinstance(source, Boundaries):
            continue
        kind = rng.choice(SAFE + UNSAFE)
        annotation = {
            "claim": claim.as_json(),
            "sources": [{**source.as_json(), "polarity": "supports", "confidence": 0.8}],
        }
        annotations.append(annotation)
        plan.append(((len(annotations) - 1,), kind, notes[source_span[0] : source_span[1]]))
    value = {"documents": [{"path": d.path, "content": d.content} for d in documents], "annotations": annotations}
    return value, plan


def break_it(rng: random.Random, value: dict, plan: list) -> list[tuple[int, str, str]]:
    """Make each planned mistake where it is a mistake the rules can see (the mistaken string
    occurs nowhere it would resolve); the (annotation, kind, meant text) of those made."""
    lines = value["documents"][1]["content"].split("\n")
    broken = []
    for (index,), kind, meant in plan:
        source = value["annotations"][index]["sources"][0]
        start, end = source["start"], source["end"]
        line = lines[start["line"] - 1]
        if kind == "case":
            written = start["str"].swapcase()
            if written == start["str"] or written.lower() in line.lower().replace(start["str"].lower(), "", 1):
                continue
            start["str"] = written
        elif kind == "spacing":
            if " " not in start["str"] or "  " in line:
                continue
            start["str"] = start["str"].replace(" ", "  ", 1)
        elif kind == "quotes":
            if "\u2019" not in start["str"]:
                continue
            start["str"] = start["str"].replace("\u2019", "'")
        elif kind == "polarity":
            source["polarity"] = rng.choice(["Supports", "support", "SUPPORTS", "supported"])
        elif kind == "confidence-string":
            source["confidence"] = "0.8"
        elif kind == "path-case":
            source["path"] = "Notes.txt"
        elif kind == "path-extension":
            source["path"] = "notes"
        elif kind == "line-off":
            delta = rng.choice([-2, -1, 1, 2])
            new_start, new_end = start["line"] + delta, end["line"] + delta
            if not (1 <= new_start and new_end <= len(lines)):
                continue
            if start["str"] in lines[new_start - 1] or end["str"] in lines[new_end - 1]:
                continue  # the mistake would resolve somewhere: not the mistake tested here
            start["line"], end["line"] = new_start, new_end
        elif kind == "percent":
            source["confidence"] = 80
        elif kind == "trailing-period":
            end_line = lines[end["line"] - 1]
            if (end["str"] + ".") in end_line:
                continue
            end["str"] += "."
        broken.append((index, kind, meant))
    return broken


def cited_sources(text: str) -> dict[int, str | None]:
    analysis = Analysis(text)
    index_of = analysis.session.index_of
    return {
        index_of(ref.annotation): (ref.text if ref.valid else None) for ref in analysis.session.refs if ref.is_source
    }


def test_fix_repairs_every_safe_kind_and_unsafe_fixes_the_rest_without_ever_citing_other_text():
    rng = random.Random(1234)
    repaired = {"safe": 0, "unsafe": 0}
    made_count = {"safe": 0, "unsafe": 0}
    for round in range(120):
        value, plan = made(rng)
        if not plan:
            continue
        broken = break_it(rng, value, plan)
        shape = rng.random()
        if shape < 0.15:  # the CLI's shape, the annotations nested inside it (safe to repair)
            nested = {"documents": value["documents"], "annotations": value["annotations"]}
            value = {"session": nested, "annotations": []}
        elif shape < 0.3:  # CRLF content (safe: every line keeps its number)
            value["documents"][1]["content"] = value["documents"][1]["content"].replace("\n", "\r\n")
        text = json.dumps(value, ensure_ascii=False, indent=2)
        count = len(broken)
        safe_text = fixed(text).text
        every_text = fixed(text, unsafe=True).text
        for result in (safe_text, every_text):
            after = json.loads(result)
            assert len(after["annotations"]) == len(plan)  # nothing dropped, nothing left nested
            assert all(len(a["sources"]) == 1 for a in after["annotations"])
        safe_cited, every_cited = cited_sources(safe_text), cited_sources(every_text)
        for index, kind, meant in broken:
            for cited in (safe_cited, every_cited):  # never other text
                assert cited.get(index) in (None, meant), (round, kind, cited.get(index), meant)
            group = "safe" if kind in SAFE else "unsafe"
            made_count[group] += 1
            if group == "safe":
                assert safe_cited.get(index) == meant, (round, kind)
                assert Analysis(safe_text).exit_code in (0, 1, 2)
            elif every_cited.get(index) == meant:
                repaired["unsafe"] += 1
        assert count == len(broken)
    assert made_count["safe"] > 100 and made_count["unsafe"] > 60
    assert repaired["unsafe"] >= 0.9 * made_count["unsafe"], (repaired, made_count)


def test_the_safe_fixes_leave_every_guess_to_unsafe_fixes():
    """An off-by-one line is only ever repaired by --unsafe-fixes."""
    value = {
        "documents": [
            {"path": "a", "content": "The claim is here."},
            {"path": "n", "content": "First line.\nThe flag is optional.\nThird line.\n"},
        ],
        "annotations": [
            {
                "claim": {"path": "a", "start": {"line": 1, "str": "claim"}, "end": {"line": 1, "str": "here"}},
                "sources": [
                    {
                        "path": "n",
                        "start": {"line": 3, "str": "The flag"},
                        "end": {"line": 3, "str": "optional"},
                        "polarity": "supports",
                        "confidence": 0.9,
                    }
                ],
            }
        ],
    }
    text = json.dumps(value, indent=2)
    assert fixed(text).text == text
    assert cited_sources(fixed(text, unsafe=True).text) == {0: "The flag is optional"}

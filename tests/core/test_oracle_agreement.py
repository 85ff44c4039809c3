"""The checker agrees with an independent reading of docs/rules.md on generated sessions."""

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.sessiongen import generate
from sourcecheck.core.analysis import Analysis
from sourcecheck.formats.json import report_json
from tests.support.oracle import judge, review

RULES_VERDICT_KEYS = ("pointer", "verdict", "supports", "refutes", "support_strength", "refute_strength")
"""The keys docs/rules.md gives each of ``--json``'s ``annotations``."""


def compare(text: str) -> None:
    expected = judge(text)
    got = report_json_for(text)
    assert got["exit_code"] == expected["exit_code"]
    if expected["refs"] is None:  # not JSON: only the verdict is fixed
        assert "invalid-json" in {f["code"] for f in got["findings"]}
        return
    assert sorted((f["code"], f["pointer"]) for f in got["findings"]) == sorted(expected["findings"])
    assert [{k: r[k] for k in ("pointer", "valid", "text")} for r in got["refs"]] == expected["refs"]
    reviewed = review(text)
    assert reviewed is not None
    spans = {r["pointer"]: {k: r[k] for k in ("path", "start", "end")} for r in got["refs"] if r["valid"]}
    assert spans == reviewed["spans"]
    assert all(set(r) == {"pointer", "valid", "text"} for r in got["refs"] if not r["valid"])
    # docs/rules.md's keys as the oracle has them; the rest is additive (unsupported_words)
    assert [{k: a[k] for k in RULES_VERDICT_KEYS} for a in got["annotations"]] == reviewed["annotations"]
    assert got["uncited"] == reviewed["uncited"]


def report_json_for(text: str) -> dict:
    from sourcecheck.inputs import Checked

    return report_json(Checked("t", Analysis(text)))


@pytest.mark.parametrize("seed", range(40))
def test_generated_sessions_agree_with_the_oracle(seed):
    generated = generate(
        seed, documents=3, lines=12, annotations=25, broken=0.25, shape="cli" if seed % 3 == 0 else "spec"
    )
    compare(generated.text(indent=None if seed % 2 else 2))


MUTATIONS = [
    lambda s, r: s["annotations"][0].pop("claim"),
    lambda s, r: s["annotations"][0].__setitem__("sources", []),
    lambda s, r: s["annotations"][0].__setitem__("sources", {"a": 1}),
    lambda s, r: s["annotations"][0]["sources"].append("not a ref"),
    lambda s, r: s["annotations"][0]["sources"].append(dict(s["annotations"][0]["sources"][0])),
    lambda s, r: s["annotations"][0]["sources"][0].__setitem__("path", s["annotations"][0]["claim"]["path"]),
    lambda s, r: s["annotations"][0]["claim"].__setitem__("polarity", "supports"),
    lambda s, r: s["annotations"][0]["claim"]["start"].__setitem__("line", True),
    lambda s, r: s["annotations"][0]["claim"]["start"].__setitem__("line", 2.0),
    lambda s, r: s["annotations"][0]["claim"]["end"].__setitem__("str", 7),
    lambda s, r: s["annotations"][0]["claim"].pop("end"),
    lambda s, r: s["annotations"][0]["claim"].__setitem__("start", []),
    lambda s, r: s["annotations"][0]["sources"][0].pop("polarity"),
    lambda s, r: s["annotations"][0]["sources"][0].pop("confidence"),
    lambda s, r: s["annotations"][0]["sources"][0].__setitem__("confidence", True),
    lambda s, r: s["annotations"][0]["sources"][0].__setitem__("confidence", 0.0),
    lambda s, r: s["annotations"][0]["sources"][0].__setitem__("confidence", 0.29),
    lambda s, r: s["annotations"][0]["sources"][0].__setitem__("polarity", None),
    lambda s, r: s["documents"].append({"path": s["documents"][1]["path"], "content": "x"}),
    lambda s, r: s["documents"].append({"path": "crlf", "content": "a\r\nb"}),
    lambda s, r: s["documents"].append({"path": 3, "content": "x"}),
    lambda s, r: s["documents"].append({"content": "x"}),
    lambda s, r: s["documents"].append("doc"),
    lambda s, r: s.__setitem__("extra", 1),
    lambda s, r: s.pop("annotations"),
    lambda s, r: s.pop("documents"),
    lambda s, r: s.__setitem__("documents", {}),
    lambda s, r: s.__setitem__("annotations", "none"),
    lambda s, r: s["annotations"].append(3),
    lambda s, r: s["annotations"][0]["claim"].__setitem__("path", s["documents"][0]["path"] + "?"),
]


@pytest.mark.parametrize("index", range(len(MUTATIONS)))
def test_every_kind_of_broken_session_agrees_with_the_oracle(index):
    rng = random.Random(index)
    for seed in range(3):
        session = generate(seed + 100 * index, documents=2, lines=6, annotations=3, broken=0.0).session
        MUTATIONS[index](session, rng)
        compare(json.dumps(session, ensure_ascii=False, indent=1))


def test_a_non_object_root_and_non_json_agree_with_the_oracle():
    for text in ["[]", "3", '"x"', "null", "{", "", '{"documents": [], "annotations": [], }', '{"a": NaN}']:
        compare(text)


# -- keys written twice ---------------------------------------------------------------------
# The parse decodes an annotation without looking at its pairs; that it holds no key twice is
# taken from the check (a clean annotation whose text has no more `:` than its keys), or from
# its keys counted, else it is decoded again (see JLazy). Strings holding `:` or not (written
# as it is or as an escape), and keys written twice, anywhere.

WORDS = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "be:ta", "::"]


@st.composite
def sessions_with_keys_twice(draw):
    lines = [" ".join(draw(st.permutations(WORDS))[:5]) for _ in range(3)]
    documents = [
        {"path": draw(st.sampled_from(["a:1", "a"])), "content": "\n".join(lines)},
        {"path": "b", "content": "\n".join(lines[::-1])},
    ]

    def ref(doc, source):
        line = draw(st.integers(1, 3))
        words = (documents[doc]["content"].split("\n"))[line - 1].split(" ")
        i = draw(st.integers(0, len(words) - 1))
        j = draw(st.integers(i, len(words) - 1))
        value = {
            "path": documents[doc]["path"],
            "start": {"line": line, "str": words[i]},
            "end": {"line": line, "str": words[j]},
        }
        if source:
            value |= {"polarity": draw(st.sampled_from(["supports", "refutes"])), "confidence": 0.9}
        return value

    annotations = [
        {"claim": ref(0, False), "sources": [ref(1, True) for _ in range(draw(st.integers(1, 2)))]}
        for _ in range(draw(st.integers(1, 4)))
    ]
    text = json.dumps({"documents": documents, "annotations": annotations}, indent=draw(st.sampled_from([None, 1])))
    # Write some members twice (the first time with the value kept, or another one).
    members = list(re.finditer(r'"(?:path|line|str|polarity|confidence|claim)": (?:"[^"]*"|[0-9.]+)', text))
    for match in sorted(
        draw(st.sets(st.sampled_from(members), max_size=3)) if members else [], key=re.Match.start, reverse=True
    ):
        key = match.group().split(":")[0]
        again = draw(st.sampled_from([match.group(), f'{key}: "x:y"', f"{key}: 7"]))
        text = text[: match.start()] + again + ", " + text[match.start() :]
    # A `:` in a string may be written as an escape (the same value: the count of `:` as
    # written no longer tells the strings' from the keys').
    for written in draw(st.sets(st.sampled_from(["be:ta", "x:y", "a:1"]))):
        text = text.replace(written, written.replace(":", draw(st.sampled_from(["\\u003a", "\\u003A"]))))
    return text


@settings(max_examples=150)
@given(sessions_with_keys_twice())
def test_keys_written_twice_in_annotations_agree_with_the_oracle(text):
    compare(text)

"""Generate large, realistic SourceCheck sessions for benchmarks and tests.

    python bench/sessiongen.py --size 12M --refs 30000 -o big.sourcecheck.json
    python bench/sessiongen.py --size 12M --refs 30000 --broken-refs 9 -o few-findings.sourcecheck.json

A session has an ``article`` and N source documents of prose lines that mix English
words (with the repetitions real prose has: "the", "of"), CJK text, emoji and combining
marks. Each annotation cites a span of the article and 1 to 3 source spans whose
boundaries are the shortest strings unique on their lines, as a careful author writes
them; a few percent of refs are broken on purpose, one kind of breakage each.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

WORDS = (
    "the of and to in is was that for on with as by at from this the the of a an report outcome result "
    "latency memory scheduler release benchmark claim source evidence frame load trial data study "
    "increase decrease positive negative median percent users system version update notes team said "
    "according measured observed rose fell between during after before while since however also"
).split()
CJK = (
    "这是 一个 测试 文档 数据 显示 延迟 降低 内存 占用 发布 说明 调度器 高负载 丢帧 报告 结果 研究 東京 日本語 한국어"
).split()
EMOJI = ["🚀", "📉", "📈", "⚠️", "😬", "✅", "🔥", "🧪"]
COMBINING = ["é", "ñ", "ü", "å"]  # e + U+0301 and friends: two code points each
BROKEN_KINDS = (
    "ambiguous",
    "not-found",
    "line-out-of-range",
    "unknown-path",
    "lines-reversed",
    "boundary-order",
    "boundary-empty",
    "bad-polarity",
    "bad-confidence",
    "invalid-field",
    "low-confidence",
)


def prose_line(rng: random.Random) -> str:
    tokens = []
    for _ in range(rng.randint(8, 22)):
        roll = rng.random()
        if roll < 0.78:
            tokens.append(rng.choice(WORDS))
        elif roll < 0.9:
            tokens.append(rng.choice(CJK))
        elif roll < 0.95:
            tokens.append(rng.choice(EMOJI))
        elif roll < 0.98:
            tokens.append(rng.choice(COMBINING) + rng.choice(WORDS))
        else:
            tokens.append(str(rng.randint(0, 999)) + rng.choice(["%", "ms", " MB", ""]))
    line = " ".join(tokens)
    return line[0].upper() + line[1:] + rng.choice([".", ".", ".", "!", "?", ";", ":"])


def count(line: str, needle: str) -> int:
    n, at = 0, line.find(needle)
    while at >= 0:
        n += 1
        at = line.find(needle, at + 1)
    return n


def unique_from(line: str, start: int) -> str | None:
    """The shortest string starting at ``start`` that occurs once on ``line``."""
    for end in range(start + 1, len(line) + 1):
        if count(line, line[start:end]) == 1:
            return line[start:end]
    return None


def unique_to(line: str, end: int) -> str | None:
    """The shortest string ending at ``end`` (exclusive) that occurs once on ``line``."""
    for start in range(end - 1, -1, -1):
        if count(line, line[start:end]) == 1:
            return line[start:end]
    return None


@dataclass
class Generated:
    session: dict[str, Any]
    expected: dict[str, str] = field(default_factory=dict)  # ref pointer -> text, for refs meant to resolve
    broken: dict[str, str] = field(default_factory=dict)  # ref pointer -> kind of breakage

    def text(self, indent: int | None = 2) -> str:
        return json.dumps(self.session, ensure_ascii=False, indent=indent) + "\n"


def make_ref(rng: random.Random, path: str, lines: list[str], max_lines: int = 3) -> tuple[dict[str, Any], str] | None:
    """A valid ref into a random span of ``lines`` and the text it resolves to."""
    for _ in range(20):
        first = rng.randrange(len(lines))
        extra = rng.choice([0, 0, 0, 0, 1, 2]) if max_lines > 1 else 0
        last = min(len(lines) - 1, first + extra)
        a, b = lines[first], lines[last]
        if not a or not b:
            continue
        i = rng.randrange(len(a))
        j = rng.randrange(i + 1, len(a) + 1) if first == last else rng.randrange(1, len(b) + 1)
        start, end = unique_from(a, i), unique_to(b, j)
        if start is None or end is None:
            continue
        if first == last:
            text = a[i:j]
        else:
            text = "\n".join([a[i:], *lines[first + 1 : last], b[:j]])
        ref = {"path": path, "start": {"line": first + 1, "str": start}, "end": {"line": last + 1, "str": end}}
        return ref, text
    return None


def break_ref(rng: random.Random, ref: dict[str, Any], kind: str, lines: list[str]) -> None:
    start, end = ref["start"], ref["end"]
    line = lines[start["line"] - 1]
    if kind == "ambiguous":
        # In the line's order (not a set's): the same session whatever the hash seed.
        repeated = [ch for ch in dict.fromkeys(line) if line.count(ch) > 1]
        start["str"] = rng.choice(repeated) if repeated else start["str"]
    elif kind == "not-found":
        start["str"] = "§" + start["str"] + "§"
    elif kind == "line-out-of-range":
        end["line"] = rng.choice([0, len(lines) + 1, len(lines) + 50])
    elif kind == "unknown-path":
        ref["path"] = ref["path"] + "-missing"
    elif kind == "lines-reversed":
        if start["line"] == end["line"]:
            start["line"] = min(len(lines), start["line"] + 1)
            end["line"] = max(1, start["line"] - 1)
            if start["line"] == end["line"]:
                end["line"] = start["line"] - 1 or len(lines) + 1
        else:
            start["line"], end["line"] = end["line"], start["line"]
    elif kind == "boundary-order":
        if start["line"] == end["line"] and start["str"] != end["str"]:
            start["str"], end["str"] = end["str"], start["str"]
        else:
            start["str"] = ""
    elif kind == "boundary-empty":
        end["str"] = ""
    elif kind == "invalid-field":
        start["line"] = rng.choice([str(start["line"]), float(start["line"]), True, None])


def generate(
    seed: int = 0,
    documents: int = 3,
    lines: int = 40,
    annotations: int = 50,
    broken: float = 0.04,
    shape: str = "spec",
) -> Generated:
    """A session with ``documents`` sources of ``lines`` lines and ``annotations`` annotations."""
    rng = random.Random(seed)
    docs = {"article": [prose_line(rng) for _ in range(max(lines, 5))]}
    for index in range(documents):
        path = rng.choice(["report", "notes", "study", "数据", "thread"]) + f"-{index}"
        docs[path] = [prose_line(rng) if rng.random() > 0.05 else "" for _ in range(lines)]
    sources = [p for p in docs if p != "article"]
    out = Generated({})
    annotation_values: list[dict[str, Any]] = []
    for _ in range(annotations):
        made = make_ref(rng, "article", docs["article"], max_lines=1)
        if made is None:
            continue
        claim, claim_text = made
        base = f"/annotations/{len(annotation_values)}"
        annotation: dict[str, Any] = {"claim": claim, "sources": []}
        plan = [("claim", claim, "article", claim_text)]
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            path = rng.choice(sources)
            made = make_ref(rng, path, docs[path])
            if made is None:
                continue
            ref, text = made
            ref["polarity"] = rng.choice(["supports", "supports", "supports", "refutes"])
            ref["confidence"] = round(rng.uniform(0.3, 1.0), 2)
            annotation["sources"].append(ref)
            plan.append((f"sources/{len(annotation['sources']) - 1}", ref, path, text))
        if not annotation["sources"]:
            continue
        for where, ref, path, text in plan:
            pointer = f"{base}/{where}"
            if rng.random() < broken:
                kind = rng.choice(BROKEN_KINDS)
                if kind in ("bad-polarity", "bad-confidence", "low-confidence") and where == "claim":
                    kind = "ambiguous"
                if kind == "bad-polarity":
                    ref["polarity"] = rng.choice(["support", "Supports", "refute", 1])
                    out.expected[pointer] = text
                elif kind == "bad-confidence":
                    ref["confidence"] = rng.choice([95, 1.5, -0.1, "0.9"])
                    out.expected[pointer] = text
                elif kind == "low-confidence":
                    ref["confidence"] = 0.1
                    out.expected[pointer] = text
                else:
                    break_ref(rng, ref, kind, docs[path])
                out.broken[pointer] = kind
            else:
                out.expected[pointer] = text
        annotation_values.append(annotation)
    doc_values = [{"path": p, "content": "\n".join(ls)} for p, ls in docs.items()]
    if shape == "cli":
        out.session = {"session": {"documents": doc_values}, "annotations": annotation_values}
    else:
        out.session = {"documents": doc_values, "annotations": annotation_values}
    return out


def parse_size(text: str) -> int:
    text = text.strip().upper().rstrip("B")
    scale = {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("KMG")) * scale)


def generate_sized(
    size: int, refs: int, seed: int = 0, documents: int = 12, broken: float = 0.03, broken_refs: int | None = None
) -> Generated:
    """A session of about ``size`` bytes (UTF-8) with about ``refs`` refs, a share ``broken``
    of them broken on purpose; or, with ``broken_refs``, about that many broken refs whatever
    the size (each is a finding or two: few findings in a big file, so that a benchmark can
    compare it with a small file without the diagnostics report's size in between). Without
    ``broken_refs`` the output is what it always was for a seed."""
    if broken_refs is not None:
        broken = broken_refs / max(1, refs)
    annotations = max(1, round(refs / 2.6))  # 1 claim + 1.6 sources on average
    ref_bytes = refs * 230  # a ref, indented, is about this many bytes
    prose_bytes = max(size - ref_bytes, 2_000)
    lines = max(20, prose_bytes // (documents + 1) // 115)  # a prose line is about 115 bytes
    return generate(seed, documents=documents, lines=lines, annotations=annotations, broken=broken)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="100K", help="approximate file size (100K, 1M, 12M)")
    parser.add_argument("--refs", type=int, default=300, help="approximate number of refs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--broken", type=float, default=0.03, help="share of refs broken on purpose")
    parser.add_argument(
        "--broken-refs", type=int, default=None, help="about this many refs broken on purpose (instead of --broken)"
    )
    parser.add_argument("-o", "--output", default="-", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    generated = generate_sized(
        parse_size(args.size), args.refs, args.seed, broken=args.broken, broken_refs=args.broken_refs
    )
    text = generated.text()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        print(
            f"{args.output}: {len(text.encode()) / 1e6:.1f} MB, "
            f"{len(set(generated.expected) | set(generated.broken))} refs",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A second, deliberately plain reading of docs/rules.md, to judge the real checker against.

It shares no code with ``sourcecheck``: ``json.loads`` for reading, a straight walk for
the rules, ``str.find`` for occurrences. It answers only what docs/rules.md fixes for
``--json`` apart from positions: codes, severities, pointers, refs and the exit code.
"""

from __future__ import annotations

import json
import math
from typing import Any

EXIT2 = {
    "invalid-json",
    "invalid-field",
    "duplicate-path",
    "non-lf-content",
    "bad-polarity",
    "bad-confidence",
    "empty-sources",
}
EXIT1 = {
    "unknown-path",
    "line-out-of-range",
    "boundary-empty",
    "boundary-not-found",
    "boundary-ambiguous",
    "lines-reversed",
    "boundary-order",
}
WARN = {"unknown-field", "duplicate-key", "self-citation", "duplicate-source"}


def _ptr(parts: list[Any]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class _DupDict(dict):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = _DupDict() if len({k for k, _ in pairs}) != len(pairs) else {}
    for k, v in pairs:
        if k in d and isinstance(d, _DupDict):
            d.setdefault("\0dups", []).append(k)  # type: ignore[union-attr]
        d[k] = v
    return d


def _count(line: str, s: str) -> list[int]:
    out, i = [], line.find(s)
    while i >= 0:
        out.append(i)
        i = line.find(s, i + 1)
    return out


def judge(text: str) -> dict[str, Any]:
    def bad_constant(name: str) -> Any:
        raise ValueError(name)

    try:
        root = json.loads(text, object_pairs_hook=_pairs, parse_constant=bad_constant)
    except (ValueError, RecursionError):
        return {"exit_code": 2, "findings": [("invalid-json", "")], "refs": None}
    findings: list[tuple[str, str]] = []
    refs: list[dict[str, Any]] = []

    def add(code: str, parts: list[Any]) -> None:
        findings.append((code, _ptr(parts)))

    def walk_dups(value: Any, parts: list[Any]) -> None:
        if isinstance(value, dict):
            for key in value.get("\0dups", []):
                add("duplicate-key", parts + [key])
            for k, v in value.items():
                if k != "\0dups":
                    walk_dups(v, parts + [k])
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk_dups(v, parts + [i])

    walk_dups(root, [])

    def keys(d: dict[str, Any]) -> list[str]:
        return [k for k in d if k != "\0dups"]

    def unknown(d: dict[str, Any], allowed: set[str], parts: list[Any]) -> None:
        for k in keys(d):
            if k not in allowed:
                add("unknown-field", parts + [k])

    docs: dict[str, str] = {}

    def documents(value: Any, parts: list[Any]) -> None:
        if not isinstance(value, list):
            add("invalid-field", parts)
            return
        for i, doc in enumerate(value):
            p = parts + [i]
            if not isinstance(doc, dict):
                add("invalid-field", p)
                continue
            unknown(doc, {"path", "content"}, p)
            ok = True
            for k in ("path", "content"):
                if k not in doc:
                    add("invalid-field", p)
                    ok = False
                elif not isinstance(doc[k], str):
                    add("invalid-field", p + [k])
                    ok = False
            if not ok:
                continue
            if "\r" in doc["content"]:
                add("non-lf-content", p + ["content"])
            if doc["path"] in docs:
                add("duplicate-path", p + ["path"])
            else:
                docs[doc["path"]] = doc["content"]

    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def ref(value: Any, parts: list[Any], source: bool) -> tuple[Any, ...] | None:
        entry: dict[str, Any] = {"pointer": _ptr(parts), "valid": False, "text": None}
        refs.append(entry)
        if not isinstance(value, dict):
            add("invalid-field", parts)
            return None
        unknown(value, {"path", "start", "end"} | ({"polarity", "confidence"} if source else set()), parts)
        if source:
            if "polarity" not in value:
                add("bad-polarity", parts)
            elif not isinstance(value["polarity"], str) or value["polarity"] not in ("supports", "refutes"):
                add("bad-polarity", parts + ["polarity"])
            if "confidence" not in value:
                add("bad-confidence", parts)
            else:
                c = value["confidence"]
                if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c) or not 0 <= c <= 1:
                    add("bad-confidence", parts + ["confidence"])
                elif c < 0.3:
                    add("low-confidence", parts + ["confidence"])
        shape_ok = True
        if "path" not in value:
            add("invalid-field", parts)
            shape_ok = False
        elif not isinstance(value["path"], str):
            add("invalid-field", parts + ["path"])
            shape_ok = False
        for side in ("start", "end"):
            if side not in value:
                add("invalid-field", parts)
                shape_ok = False
                continue
            b = value[side]
            if not isinstance(b, dict):
                add("invalid-field", parts + [side])
                shape_ok = False
                continue
            unknown(b, {"line", "str"}, parts + [side])
            if "line" not in b:
                add("invalid-field", parts + [side])
                shape_ok = False
            elif not is_int(b["line"]):
                add("invalid-field", parts + [side, "line"])
                shape_ok = False
            if "str" not in b:
                add("invalid-field", parts + [side])
                shape_ok = False
            elif not isinstance(b["str"], str):
                add("invalid-field", parts + [side, "str"])
                shape_ok = False
        if not shape_ok:
            return None
        coords = (
            value["path"],
            value["start"]["line"],
            value["start"]["str"],
            value["end"]["line"],
            value["end"]["str"],
        )
        if value["path"] not in docs:
            add("unknown-path", parts + ["path"])
            return coords
        lines = docs[value["path"]].split("\n")
        found = {}
        for side in ("start", "end"):
            n, s = value[side]["line"], value[side]["str"]
            if n < 1 or n > len(lines):
                add("line-out-of-range", parts + [side, "line"])
            elif s == "":
                add("boundary-empty", parts + [side, "str"])
            else:
                occ = _count(lines[n - 1], s)
                if not occ:
                    add("boundary-not-found", parts + [side, "str"])
                elif len(occ) > 1:
                    add("boundary-ambiguous", parts + [side, "str"])
                else:
                    found[side] = occ[0]
        sl, el = value["start"]["line"], value["end"]["line"]
        if sl > el:
            add("lines-reversed", parts + ["start", "line"])
            return coords
        if len(found) < 2:
            return coords
        last = found["end"] + len(value["end"]["str"]) - 1
        if sl == el and found["start"] > last:
            add("boundary-order", parts + ["start", "str"])
            return coords
        if sl == el:
            text_ = lines[sl - 1][found["start"] : last + 1]
        else:
            text_ = "\n".join([lines[sl - 1][found["start"] :], *lines[sl : el - 1], lines[el - 1][: last + 1]])
        entry["valid"], entry["text"] = True, text_
        return coords

    if not isinstance(root, dict):
        add("invalid-field", [])
    else:
        if "session" in root:
            unknown(root, {"session", "annotations"}, [])
            s = root["session"]
            if not isinstance(s, dict):
                add("invalid-field", ["session"])
            elif "documents" not in s:
                add("invalid-field", ["session"])
            else:
                unknown(s, {"documents"}, ["session"])
                documents(s["documents"], ["session", "documents"])
        else:
            unknown(root, {"documents", "annotations"}, [])
            if "documents" not in root:
                add("invalid-field", [])
            else:
                documents(root["documents"], ["documents"])
        if "annotations" not in root:
            add("invalid-field", [])
        elif not isinstance(root["annotations"], list):
            add("invalid-field", ["annotations"])
        else:
            for i, ann in enumerate(root["annotations"]):
                p = ["annotations", i]
                if not isinstance(ann, dict):
                    add("invalid-field", p)
                    continue
                unknown(ann, {"claim", "sources"}, p)
                if "claim" not in ann:
                    add("invalid-field", p)
                srcs = ann.get("sources")
                if "sources" not in ann:
                    add("invalid-field", p)
                elif not isinstance(srcs, list):
                    add("invalid-field", p + ["sources"])
                elif not srcs:
                    add("empty-sources", p + ["sources"])
                claim_path = None
                coords_seen: set[tuple[Any, ...]] = set()
                for k in keys(ann):
                    if k == "claim":
                        ref(ann["claim"], p + ["claim"], False)
                        if isinstance(ann["claim"], dict) and isinstance(ann["claim"].get("path"), str):
                            claim_path = ann["claim"]["path"]
                    elif k == "sources" and isinstance(srcs, list):
                        for j, src in enumerate(srcs):
                            coords = ref(src, p + ["sources", j], True)
                            if coords is not None:
                                if coords in coords_seen:
                                    add("duplicate-source", p + ["sources", j])
                                coords_seen.add(coords)
                if claim_path is not None and isinstance(srcs, list):
                    for j, src in enumerate(srcs):
                        if isinstance(src, dict) and src.get("path") == claim_path:
                            add("self-citation", p + ["sources", j, "path"])
    codes = {c for c, _ in findings}
    exit_code = 2 if codes & EXIT2 else 1 if codes & EXIT1 else 0
    return {"exit_code": exit_code, "findings": findings, "refs": refs}


def review(text: str) -> dict[str, Any] | None:
    """docs/rules.md's verdicts and coverage, read plainly: for every valid ref its path and span,
    one verdict per item of ``annotations``, the uncited runs of every cited document.
    None when the text is not JSON."""

    def bad_constant(name: str) -> Any:
        raise ValueError(name)

    try:
        root = json.loads(text, parse_constant=bad_constant)
    except (ValueError, RecursionError):
        return None
    if not isinstance(root, dict):
        return {"spans": {}, "annotations": [], "uncited": []}
    holder = root.get("session") if "session" in root else root
    raw_docs = holder.get("documents") if isinstance(holder, dict) else None
    docs: dict[str, str] = {}
    order: list[str] = []
    for doc in raw_docs if isinstance(raw_docs, list) else []:
        if isinstance(doc, dict) and isinstance(doc.get("path"), str) and isinstance(doc.get("content"), str):
            if doc["path"] not in docs:
                docs[doc["path"]] = doc["content"]
                order.append(doc["path"])

    def where(content: str, offset: int) -> dict[str, int]:
        before = content[:offset]
        return {"line": before.count("\n") + 1, "column": offset - (before.rfind("\n") + 1)}

    def resolve(value: Any) -> tuple[str, int, int] | None:
        """(path, start offset, end offset) of a ref that resolves, else None."""
        if not isinstance(value, dict) or not isinstance(value.get("path"), str) or value["path"] not in docs:
            return None
        content = docs[value["path"]]
        lines = content.split("\n")
        columns = []
        for side in ("start", "end"):
            b = value.get(side)
            if not isinstance(b, dict) or isinstance(b.get("line"), bool) or not isinstance(b.get("line"), int):
                return None
            if not isinstance(b.get("str"), str) or not b["str"] or not 1 <= b["line"] <= len(lines):
                return None
            hits = _count(lines[b["line"] - 1], b["str"])
            if len(hits) != 1:
                return None
            columns.append(sum(len(x) + 1 for x in lines[: b["line"] - 1]) + hits[0])
        if value["start"]["line"] > value["end"]["line"]:
            return None
        start, end = columns[0], columns[1] + len(value["end"]["str"])
        if start >= end:
            return None
        return value["path"], start, end

    def good_confidence(c: Any) -> bool:
        return not isinstance(c, bool) and isinstance(c, (int, float)) and math.isfinite(c) and 0 <= c <= 1

    spans: dict[str, dict[str, Any]] = {}
    verdicts: list[dict[str, Any]] = []
    covered: dict[str, list[bool]] = {}
    cited: set[str] = set()
    items = root.get("annotations")
    for i, item in enumerate(items if isinstance(items, list) else []):
        claim = item.get("claim") if isinstance(item, dict) else None
        if isinstance(claim, dict) and isinstance(claim.get("path"), str):
            cited.add(claim["path"])
        claim_span = resolve(claim)
        if claim_span is not None:
            path, start, end = claim_span
            marks = covered.setdefault(path, [False] * len(docs[path]))
            for k in range(start, end):
                marks[k] = True
        sides: dict[str, list[Any]] = {"supports": [], "refutes": []}
        sources = item.get("sources") if isinstance(item, dict) else None
        for source in sources if isinstance(sources, list) else []:
            polarity = source.get("polarity") if isinstance(source, dict) else None
            confidence = source.get("confidence") if isinstance(source, dict) else None
            if resolve(source) and isinstance(polarity, str) and polarity in sides and good_confidence(confidence):
                sides[polarity].append(confidence)
        if claim_span is None:
            verdict = "unresolved"
        elif sides["supports"] and sides["refutes"]:
            verdict = "contested"
        elif sides["supports"]:
            verdict = "supported"
        elif sides["refutes"]:
            verdict = "refuted"
        else:
            verdict = "unverified"
        verdicts.append(
            {
                "pointer": f"/annotations/{i}",
                "verdict": verdict,
                "supports": len(sides["supports"]),
                "refutes": len(sides["refutes"]),
                "support_strength": max(sides["supports"]) if sides["supports"] else None,
                "refute_strength": max(sides["refutes"]) if sides["refutes"] else None,
            }
        )
        for key, value in [("claim", claim)] + [
            (f"sources/{j}", s) for j, s in enumerate(sources if isinstance(sources, list) else [])
        ]:
            found = resolve(value)
            if found is not None:
                path, start, end = found
                spans[f"/annotations/{i}/{key}"] = {
                    "path": path,
                    "start": where(docs[path], start),
                    "end": where(docs[path], end),
                }
    uncited = []
    for path in order:
        if path not in cited:
            continue
        content = docs[path]
        marks = covered.get(path, [False] * len(content))
        runs, k, uncited_chars = [], 0, 0
        while k < len(content):
            if marks[k]:
                k += 1
                continue
            j = k
            while j < len(content) and not marks[j]:
                j += 1
            if content[k:j].strip():
                runs.append({"start": where(content, k), "end": where(content, j)})
                uncited_chars += j - k
            k = j
        uncited.append({"path": path, "characters": len(content), "uncited_characters": uncited_chars, "runs": runs})
    return {"spans": spans, "annotations": verdicts, "uncited": uncited}

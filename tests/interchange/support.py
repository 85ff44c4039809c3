"""What every import test asks of a session: each ref cites exactly the text it was made of."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import sourcecheck
from sourcecheck.interchange import ImportReport

DATA = Path(__file__).with_name("data")


def data(name: str) -> Path:
    return DATA / name


def request_of(name: str) -> Any:
    stem = name.rsplit(".response.", 1)[0]
    path = DATA / f"{stem}.request.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def refs(session: dict[str, Any]) -> dict[str, str | None]:
    """Each ref's pointer and the text it resolves to (None: it does not)."""
    report = sourcecheck.check(session)
    assert report.exit_code == 0, [f.message for f in report.findings]
    return {ref.pointer: ref.text for ref in report.refs}


def assert_faithful(session: dict[str, Any], report: ImportReport) -> dict[str, str | None]:
    """Every source the report says was placed resolves to the text it names, and its claim
    to the claim's text; every ref of the session is one the report names."""
    texts = refs(session)
    named = set()
    for placed in report.placed:
        claim = placed.pointer.rsplit("/sources/", 1)[0] + "/claim"
        assert texts[placed.pointer] == placed.text, placed
        assert texts[claim] == placed.claim, placed
        named |= {placed.pointer, claim}
    assert named == set(texts)
    return texts


def annotation_texts(session: dict[str, Any]) -> list[tuple[str | None, list[str | None]]]:
    """Each annotation as (claim text, [source texts])."""
    texts = refs(session)
    return [
        (texts[f"/annotations/{i}/claim"], [texts[f"/annotations/{i}/sources/{k}"] for k in range(len(a["sources"]))])
        for i, a in enumerate(session["annotations"])
    ]

"""W3C Web Annotations (the Web Annotation Data Model): read as citations, and written.

Reading takes one annotation, a list of them, or an ``AnnotationCollection`` /
``AnnotationPage`` (its embedded pages' ``items``). An annotation whose ``target`` and
``body`` are both text spans (SpecificResources with a ``TextQuoteSelector`` {``exact``,
``prefix``, ``suffix``} and/or a ``TextPositionSelector`` {``start``, ``end``, counted in code
points}) is a source (its body) of a claim (its target); one with a span as its target only
(a highlight, or a note whose body is text: as Hypothesis keeps them) has no claim-source
pair, and is listed. A ``source`` IRI is a ``--document`` named by its ``file:`` URI or its
file name. ``polarity`` and ``confidence`` (this project's terms, defined in the context
:data:`CONTEXT`) are read back; without them a source ``supports`` its claim.

Writing (:func:`write`) makes one ``AnnotationCollection`` of a session that checks clean:
each source a Web Annotation whose ``target`` is its claim's span and whose ``body`` is its
own span, each with both selectors (the exact text with 32 characters of context on either
side, and the code point offsets into the document's content), one IRI per document.
Annotations that came from one annotation of the session carry its pointer in their ``id``
(``…#/annotations/0/sources/1``), so that reading them back makes the same annotation.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote as url_quote

from ..core.analysis import Analysis
from ..core.display import visible
from ..core.jsontext import dumps
from ..core.session import CheckedRef
from .model import Citation, Cited, LeftOut, Pointer, Segment, Source
from .wire import Wire, integer, items, string

ANNO = "http://www.w3.org/ns/anno.jsonld"
NAMESPACE = "https://sourcecheck.invalid/ns#"
"""The IRI of this project's two terms (no public home: the ``.invalid`` name says so)."""
CONTEXT: list[Any] = [
    ANNO,
    {
        "sourcecheck": NAMESPACE,
        "polarity": {"@id": "sourcecheck:polarity"},
        "confidence": {"@id": "sourcecheck:confidence", "@type": "http://www.w3.org/2001/XMLSchema#decimal"},
    },
]
"""The JSON-LD context written: the Web Annotation one, and the terms ``polarity`` and
``confidence`` of a source (the only ones the model has no term for)."""
MOTIVATION = "assessing"
"""A source assesses its claim (the model's motivation for "the user intends to assess the
target resource in some way")."""
CONTEXT_CHARACTERS = 32
"""How much text ``prefix`` and ``suffix`` hold (as Hypothesis writes them)."""


# --- reading -----------------------------------------------------------------------------------


def annotations_of(value: Any) -> list[Any]:
    """The annotations a value holds: itself, its items, a collection's embedded pages'."""
    if isinstance(value, list):
        return value
    if not isinstance(value, dict):
        return []
    kind = value.get("type")
    kinds: list[Any] = kind if isinstance(kind, list) else [kind]
    if "AnnotationCollection" in kinds:
        found, page, seen = [], value.get("first"), 0
        while isinstance(page, dict) and seen < 10_000:
            found += items(page, "items")
            page, seen = page.get("next"), seen + 1
        return found
    if "AnnotationPage" in kinds or "items" in value:
        return items(value, "items")
    return [value]


def iri_of(resource: Any) -> str | None:
    if isinstance(resource, str):
        return resource
    return string(resource, "id") or string(resource, "@id")


def span_of(resource: Any, sources: dict[str, Source]) -> Pointer | None:
    """The text span a target or body names (None: it is not one)."""
    if not isinstance(resource, dict):
        return None
    iri = iri_of(resource.get("source"))
    selectors = resource.get("selector")
    selectors = selectors if isinstance(selectors, list) else [selectors]
    quote = next((s for s in selectors if string(s, "type") == "TextQuoteSelector"), None)
    position = next((s for s in selectors if string(s, "type") == "TextPositionSelector"), None)
    if iri is None or (quote is None and position is None):
        return None
    source = sources.get(iri)
    if source is None:
        name = iri.rstrip("/").rsplit("/", 1)[-1] or iri
        source = sources[iri] = Source(iri, f"the document {iri}", name, names=(iri,), uri=iri)
    start, end = integer(position, "start"), integer(position, "end")
    return Pointer(source, start, end, "code points", string(quote, "exact"))


_GROUP = re.compile(r"#/annotations/(\d+)(?:/|$)")


def group_of(ident: str | None) -> str | None:
    """The session annotation an exported Web Annotation came from (its id's pointer)."""
    match = _GROUP.search(ident or "")
    return f"{ident.split('#', 1)[0]}#{match.group(1)}" if ident and match else None


def exact_of(resources: list[Any]) -> str | None:
    """The first exact text the resources quote, to name what could not be placed."""
    for resource in resources:
        chosen = resource.get("selector") if isinstance(resource, dict) else None
        for selector in chosen if isinstance(chosen, list) else [chosen]:
            if string(selector, "type") == "TextQuoteSelector":
                return string(selector, "exact")
    return None


def read_one(annotation: Any, where: str, sources: dict[str, Source]) -> Segment | LeftOut:
    if not isinstance(annotation, dict):
        return LeftOut(where, "it is not an annotation (a JSON object)")
    ident = string(annotation, "id")
    where = f"{where} ({ident})" if ident else where
    targets = annotation.get("target")
    targets = targets if isinstance(targets, list) else [targets]
    claims = [span for span in (span_of(t, sources) for t in targets) if span is not None]
    body = annotation.get("body")
    bodies = [span for span in (span_of(b, sources) for b in (body if isinstance(body, list) else [body])) if span]
    exact = exact_of(targets)
    if len(claims) != 1:
        what = "no text span as its target" if not claims else f"{len(claims)} text spans as its targets"
        return LeftOut(where, f"it has {what}; a claim is one span", text=exact)
    if not bodies:
        return LeftOut(
            where,
            "it has no claim-source pair: its target is a span but no body is one (a highlight or a note)",
            text=exact,
        )
    polarity = string(annotation, "polarity")
    polarity = polarity if polarity in ("supports", "refutes") else "supports"
    confidence = annotation.get("confidence")
    value = confidence if isinstance(confidence, (int, float)) and not isinstance(confidence, bool) else None
    citations = tuple(
        Citation(f"{where} body {k}" if len(bodies) > 1 else f"{where} body", span, value, polarity)
        for k, span in enumerate(bodies)
    )
    return Segment(f"{where} target", claims[0], citations, group_of(ident))


def read(wire: Wire, request: Any = None) -> Cited:
    """The claim-source pairs Web Annotations hold (see the module's docstring)."""
    values = list(wire.events) if wire.streamed else annotations_of(wire.value)
    sources: dict[str, Source] = {}
    segments: list[Segment] = []
    left: list[LeftOut] = []
    for index, annotation in enumerate(values):
        found = read_one(annotation, f"annotation {index + 1}", sources)
        if isinstance(found, Segment):
            segments.append(found)
        else:
            left.append(found)
    return Cited("w3c", None, tuple(segments), tuple(left))


# --- writing -----------------------------------------------------------------------------------


class Unexportable(ValueError):
    """A session that cannot be written as Web Annotations: each problem, for a person."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def iri(base: str, path: str) -> str:
    """A document's IRI: its path (percent-encoded) under ``base`` (a folder's URI, ending in ``/``)."""
    return base + url_quote(path.lstrip("/"), safe="/")


def selectors(ref: CheckedRef) -> list[dict[str, Any]]:
    assert ref.span is not None and ref.document is not None
    start, end = ref.span
    content = ref.document.content
    return [
        {
            "type": "TextQuoteSelector",
            "exact": content[start:end],
            "prefix": content[max(start - CONTEXT_CHARACTERS, 0) : start],
            "suffix": content[end : end + CONTEXT_CHARACTERS],
        },
        {"type": "TextPositionSelector", "start": start, "end": end},
    ]


def resource(ref: CheckedRef, base: str) -> dict[str, Any]:
    assert ref.document is not None
    return {"type": "SpecificResource", "source": iri(base, ref.document.path), "selector": selectors(ref)}


def problems_of(analysis: Analysis) -> list[str]:
    errors = [finding for finding in analysis.findings if finding.severity.value == "error"]
    return [f"{finding.pointer or '/'}: {finding.code}: {visible(finding.message)}" for finding in errors]


def write(session: dict[str, Any] | str, base: str, name: str = "session") -> dict[str, Any]:
    """The Web Annotations of ``session`` (a parsed session, or its JSON text): an
    ``AnnotationCollection`` whose id is ``base`` + ``name`` and whose documents are IRIs under
    ``base``. Raises :class:`Unexportable` when the session does not check clean."""
    text = session if isinstance(session, str) else dumps(session, indent=True).decode("utf-8")
    analysis = Analysis(text)
    problems = problems_of(analysis) if analysis.is_session else ["it is not a SourceCheck session"]
    if problems:
        raise Unexportable(problems)
    collection = iri(base, name)
    written = []
    for annotation in analysis.session.annotations:
        claim = annotation.claim
        assert claim is not None
        for source in annotation.sources:
            written.append(
                {
                    "id": f"{collection}#{analysis.session.ref_pointer(source)}",
                    "type": "Annotation",
                    "motivation": MOTIVATION,
                    "polarity": source.polarity,
                    "confidence": source.confidence,
                    "target": resource(claim, base),
                    "body": resource(source, base),
                }
            )
    return {
        "@context": CONTEXT,
        "id": collection,
        "type": "AnnotationCollection",
        "label": f"SourceCheck citations of {name}",
        "total": len(written),
        "first": {"id": f"{collection}#page-1", "type": "AnnotationPage", "startIndex": 0, "items": written},
    }


__all__ = ["CONTEXT", "NAMESPACE", "Unexportable", "read", "write"]

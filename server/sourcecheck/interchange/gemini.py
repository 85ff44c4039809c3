"""Google's Gemini API: a candidate's ``groundingMetadata``.

The answer is the first candidate's text parts joined (parts marked ``thought`` are the
model's thinking, not its answer); each ``groundingSupports`` entry is a cited segment:
``segment`` {``startIndex`` (absent means 0), ``endIndex``, ``text``, ``partIndex``} counts
UTF-8 bytes into the answer's text, or into the part ``partIndex`` names; each of its
``groundingChunkIndices`` is a citation of that ``groundingChunks`` entry, with the
``confidenceScores`` entry beside it as its confidence. Chunks:

- ``retrievedContext`` {``uri``, ``title``, ``text``} (file search, RAG): placed by its text
  in the ``--document`` named like its title or URI, else its text is a document of its own.
- ``web`` (Google Search) and ``maps``: no page text; not placeable unless the page is given
  with ``--document`` (named like its title or URI), whose whole text it then cites.

A stream (server-sent events, or a JSON array of chunks) is put together first: its text
parts joined, and the grounding metadata its chunks carry (offsets count in the whole text).
"""

from __future__ import annotations

from typing import Any

from .model import ANSWER_KEY, Citation, Cited, LeftOut, Pointer, Segment, Source, answer_source, said
from .wire import NotAResponse, Wire, integer, items, obj, stream_events, string


def chunks_of(wire: Wire) -> list[dict[str, Any]]:
    """The response's chunks: one for a response, each for a stream."""
    if wire.streamed:
        return stream_events(wire)
    if isinstance(wire.value, list):
        return [chunk for chunk in wire.value if isinstance(chunk, dict)]
    if isinstance(wire.value, dict):
        return [wire.value.get("response", wire.value) if "candidates" not in wire.value else wire.value]
    raise NotAResponse("is not a Gemini response: it has no `candidates`")


def first_candidate(chunk: dict[str, Any]) -> dict[str, Any] | None:
    for candidate in items(chunk, "candidates"):
        if isinstance(candidate, dict) and integer(candidate, "index") in (None, 0):
            return candidate
    return None


Grounding = tuple[str, dict[str, Any]]  # where the metadata is in the response, and it


def parts_and_grounding(chunks: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Grounding], int]:
    """The first candidate's parts (a stream's text joined into one part), its grounding
    metadata (a stream's last that has supports: it counts in the whole text), and how many
    other candidates there were."""
    parts: list[dict[str, Any]] = []
    grounding: list[Grounding] = []
    others = 0
    for number, chunk in enumerate(chunks):
        candidate = first_candidate(chunk)
        others = max(others, len(items(chunk, "candidates")) - (candidate is not None))
        if candidate is None:
            continue
        parts.extend(part for part in items(obj(candidate, "content"), "parts") if isinstance(part, dict))
        metadata = obj(candidate, "groundingMetadata")
        if items(metadata, "groundingSupports"):
            where = (f"{number}/" if len(chunks) > 1 else "") + "candidates/0/groundingMetadata"
            grounding.append((where, metadata))
    if not parts and not grounding:
        raise NotAResponse("is not a Gemini response: its candidates have no content parts")
    if len(chunks) > 1:  # a stream: its text is one part, as the SDKs join it
        text = "".join(string(part, "text") or "" for part in parts if not part.get("thought"))
        parts, grounding = [{"text": text}], grounding[-1:]
    return parts, grounding, others


def part_starts(parts: list[dict[str, Any]]) -> tuple[str, list[int | None]]:
    """The answer, and where each part starts in it in UTF-8 bytes (None for a part that is
    not answer text: thinking, a function call)."""
    answer, size = "", 0
    bytes_at: list[int | None] = []
    for part in parts:
        text = string(part, "text")
        if text is None or part.get("thought"):
            bytes_at.append(None)
            continue
        bytes_at.append(size)
        answer += text
        size += len(text.encode("utf-8"))
    return answer, bytes_at


def chunk_source(chunk: Any, index: int) -> tuple[Source | None, Pointer | None, str | None]:
    """What a grounding chunk is: its source, a pointer (None: the pointer is the whole page)
    and why it cannot be placed without a ``--document``."""
    context = obj(chunk, "retrievedContext")
    if context:
        title, uri, text = string(context, "title"), string(context, "uri"), string(context, "text")
        names = tuple(name for name in (title, uri) if name)
        label = f"grounding chunk {index}" + (f" ({said(title or uri or '')})" if title or uri else "")
        key = f"retrieved {uri or title or index}\n{text}"  # chunks of one file are placed apart
        source = Source(key, label, title or uri or f"chunk-{index + 1}.txt", fallback=text, names=names, uri=uri)
        if text is None:
            return source, Pointer(source, whole=True), f"{label} carries no text: give its file with --document"
        return source, Pointer(source, quoted=text), None
    for kind in ("web", "maps"):
        page = obj(chunk, kind)
        if page:
            title, uri = string(page, "title"), string(page, "uri")
            names = tuple(name for name in (title, uri) if name)
            label = f"the {kind} page {said(title or uri or str(index))}"
            source = Source(f"{kind} {uri or title or index}", label, title or f"page-{index + 1}.txt", names=names)
            like = said(title or uri or "its title")
            why = f"{label} carries no page text: give the page with --document FILE named like {like}"
            return source, Pointer(source, whole=True), why
    return None, None, f"grounding chunk {index} is of a kind this version does not know"


def segment_pointer(segment: dict[str, Any], bytes_at: list[int | None]) -> Pointer | str:
    """The claim: the segment's bytes, counted from the answer's start (or its part's)."""
    part = integer(segment, "partIndex")
    base = 0
    if part is not None:
        if not 0 <= part < len(bytes_at) or bytes_at[part] is None:
            return f"its partIndex {part} names no text part of the answer"
        base = bytes_at[part] or 0
    start, end = integer(segment, "startIndex") or 0, integer(segment, "endIndex")
    if end is None:
        return "its segment has no endIndex"
    return Pointer(ANSWER_KEY, base + start, base + end, "UTF-8 bytes", string(segment, "text"))


def supports(prefix: str, metadata: dict[str, Any], bytes_at: list[int | None]) -> tuple[list[Segment], list[LeftOut]]:
    """The segments one grounding metadata cites, and the supports that cannot be placed."""
    chunks = items(metadata, "groundingChunks")
    segments: list[Segment] = []
    left: list[LeftOut] = []
    for index, support in enumerate(items(metadata, "groundingSupports")):
        where = f"{prefix}/groundingSupports/{index}"
        claim = segment_pointer(obj(support, "segment"), bytes_at)
        if isinstance(claim, str):
            left.append(LeftOut(where, f"its claim cannot be placed: {claim}"))
            continue
        scores = items(support, "confidenceScores")
        citations: list[Citation] = []
        for k, chunk_index in enumerate(items(support, "groundingChunkIndices")):
            at = f"{where}/groundingChunkIndices/{k}"
            valid = isinstance(chunk_index, int) and 0 <= chunk_index < len(chunks)
            source, pointer, why = chunk_source(chunks[chunk_index], chunk_index) if valid else (None, None, None)
            if not valid:
                why = f"it names grounding chunk {chunk_index!r}, which the response does not have"
            score = scores[k] if k < len(scores) and isinstance(scores[k], (int, float)) else None
            citations.append(Citation(at, pointer, score, why_not=why))
        if not citations:
            left.append(LeftOut(where, "it names no grounding chunk", text=claim.quoted))
            continue
        segments.append(Segment(where, claim, tuple(citations)))
    return segments, left


def read(wire: Wire, request: Any = None) -> Cited:
    """What a Gemini response cites (the request is not needed: chunks carry their text)."""
    parts, grounding, others = parts_and_grounding(chunks_of(wire))
    answer, bytes_at = part_starts(parts)
    segments: list[Segment] = []
    left: list[LeftOut] = []
    for prefix, metadata in grounding:
        found, missed = supports(prefix, metadata, bytes_at)
        segments += found
        left += missed
    notes: list[str] = []
    if others:
        notes.append(f"the response has {others + 1} candidates: only the first (index 0) is imported")
    return Cited("gemini", answer_source(answer), tuple(segments), tuple(left), tuple(notes))


__all__ = ["read"]

"""Cohere's Chat API (v2): a response's ``message.citations``.

The answer is the message's ``text`` content items joined; each citation is a cited segment:
``start`` .. ``end`` (exclusive) counted in code points (Cohere's documentation counts
"characters"; docs/decisions.md says how that was checked), in the content item
``content_index`` names when there are several, with ``text`` the cited segment. Its
``sources`` are what it cites: Cohere names a document, not a span of it, so each source
cites that document's text as given (its ``text`` or ``snippet`` field, or the request's
document of that id), placed in the ``--document`` named like its title or id when one is
given. A citation of the model's plan or thinking (``type`` ``PLAN``, ``THINKING_CONTENT``)
is not of the answer, and is listed.

A stream (server-sent events, or JSON Lines of them) is put together first:
``content-delta`` events add to their content item's text, ``citation-start`` events carry
the citations.
"""

from __future__ import annotations

from typing import Any

from .model import ANSWER_KEY, Citation, Cited, LeftOut, Pointer, Segment, Source, answer_source, said
from .wire import NotAResponse, Wire, integer, items, obj, stream_events, string

TEXT_FIELDS = ("text", "snippet", "content", "body")


def message_of(wire: Wire) -> dict[str, Any]:
    """The message a response holds, a streamed one put together."""
    if not wire.streamed:
        message = obj(wire.value, "message")
        if not message:
            raise NotAResponse("is not a Cohere v2 chat response: it has no `message`")
        return message
    contents: dict[int, str] = {}
    citations: list[Any] = []
    for event in stream_events(wire):
        kind, delta = event.get("type"), obj(obj(event, "delta"), "message")
        index = integer(event, "index") or 0
        if kind in ("content-start", "content-delta"):
            contents[index] = contents.get(index, "") + (string(obj(delta, "content"), "text") or "")
        elif kind == "citation-start":
            citations.append(obj(delta, "citations"))
    if not contents:
        raise NotAResponse("is a stream of events with no content (`content-delta`)")
    return {"content": [{"type": "text", "text": contents[i]} for i in sorted(contents)], "citations": citations}


def request_documents(request: Any) -> dict[str, dict[str, Any]]:
    """The request's documents by id: v2 takes strings (ids ``doc:0``, ...) or objects with
    ``id`` and ``data``."""
    found: dict[str, dict[str, Any]] = {}
    for number, document in enumerate(items(request, "documents")):
        if isinstance(document, str):
            found[f"doc:{number}"] = {"text": document}
        elif isinstance(document, dict):
            data = obj(document, "data") or document
            found[string(document, "id") or f"doc:{number}"] = data
    return found


def document_text(fields: dict[str, Any]) -> str | None:
    for name in TEXT_FIELDS:
        text = string(fields, name)
        if text is not None:
            return text
    return None


def source_of(source: Any, documents: dict[str, dict[str, Any]]) -> tuple[Pointer | None, str | None]:
    """What one source of a citation points at, and why it cannot be placed whatever is given."""
    kind, ident = string(source, "type") or "document", string(source, "id")
    fields = obj(source, "document") if kind == "document" else obj(source, "tool_output")
    fields = {**documents.get(ident or "", {}), **fields}
    title = string(fields, "title")
    names = tuple(name for name in (title, ident, string(fields, "id"), string(fields, "url")) if name)
    label = f"{'document' if kind == 'document' else 'tool output'} {ident or '?'}" + (
        f" ({said(title)})" if title else ""
    )
    text = document_text(fields)
    made = Source(
        f"{kind} {ident}", label, title or (ident or "document").replace(":", "-"), fallback=text, names=names
    )
    if text is None:
        why = f"{label} has no text field ({', '.join(TEXT_FIELDS)}) to cite: give it with --document"
        return Pointer(made, whole=True), why
    return Pointer(made, quoted=text), None


def read(wire: Wire, request: Any = None) -> Cited:
    """What a Cohere v2 response (and its request, for documents the response names only)
    cites."""
    message = message_of(wire)
    contents = [item for item in items(message, "content") if isinstance(item, dict)]
    starts: dict[int, int] = {}
    answer = ""
    for index, item in enumerate(contents):
        if string(item, "type") in (None, "text") and string(item, "text") is not None:
            starts[index] = len(answer)
            answer += item["text"]
    documents = request_documents(request)
    segments: list[Segment] = []
    left: list[LeftOut] = []
    for number, citation in enumerate(items(message, "citations")):
        where = f"message/citations/{number}"
        kind = string(citation, "type")
        if kind not in (None, "TEXT_CONTENT"):
            left.append(LeftOut(where, f"it cites the model's {kind.lower().replace('_', ' ')}, not its answer"))
            continue
        content = integer(citation, "content_index")
        base = starts.get(content if content is not None else min(starts, default=0))
        start, end = integer(citation, "start"), integer(citation, "end")
        if base is None:
            left.append(LeftOut(where, f"its content_index {content} names no text of the answer"))
            continue
        offsets = (base + start, base + end) if start is not None and end is not None else (None, None)
        claim = Pointer(ANSWER_KEY, offsets[0], offsets[1], "code points", string(citation, "text"))
        cited = []
        for k, source in enumerate(items(citation, "sources")):
            at, why = source_of(source, documents)
            cited.append(Citation(f"{where}/sources/{k}", at, why_not=why))
        if not cited:
            left.append(LeftOut(where, "it names no source", string(citation, "text")))
            continue
        segments.append(Segment(where, claim, tuple(cited)))
    return Cited("cohere", answer_source(answer), tuple(segments), tuple(left))


__all__ = ["message_of", "read"]

"""Anthropic's Messages API: a response's text blocks and their ``citations``.

The answer is the response's text blocks joined (as the SDKs' ``.text`` joins them); each
text block with citations is a cited segment. The documents are the request's: a
``document_index`` counts the request's ``document`` blocks across all its messages, in order
(tool results' too); a ``search_result_index`` its ``search_result`` blocks. Citation types:

- ``char_location``: ``start_char_index`` .. ``end_char_index`` (exclusive), counted in code
  points ("character indices, 0-indexed"; docs/decisions.md says how that was checked), in a
  plain text document (``source.type`` ``text``), and ``cited_text``.
- ``content_block_location``: ``start_block_index`` .. ``end_block_index`` into a custom
  content document (``source.type`` ``content``), whose blocks joined by line breaks are one
  session document.
- ``page_location``: pages of a PDF, which the request carries as bytes: placed only in the
  page's text given with ``--document`` (named like the document's title), by ``cited_text``.
- ``search_result_location``: blocks of a ``search_result``, placed in its text.
- ``web_search_result_location``: a web page the response carries no text of: not placeable
  unless the page is given with ``--document`` (named like its URL or title).

A stream (server-sent events) is put together first: ``content_block_start`` opens a block,
``text_delta`` adds to its text, ``citations_delta`` adds a citation to it.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from .model import ANSWER_KEY, Citation, Cited, Pointer, Segment, Source, answer_source, said
from .wire import NotAResponse, Wire, obj, stream_events, string


def message_of(wire: Wire) -> dict[str, Any]:
    """The message a response holds, a streamed one put together."""
    if not wire.streamed:
        value = wire.value
        if isinstance(value, dict) and isinstance(value.get("result"), dict):  # a line of batch results
            value = value["result"].get("message", value)
        if not isinstance(value, dict) or not isinstance(value.get("content"), list):
            raise NotAResponse("is not a Messages API response: it has no `content` list of blocks")
        return value
    message: dict[str, Any] = {"content": []}
    blocks: dict[int, dict[str, Any]] = {}
    for event in stream_events(wire):
        kind = event.get("type")
        if kind == "message_start" and isinstance(event.get("message"), dict):
            message = {**event["message"], "content": []}
        elif kind == "content_block_start" and isinstance(event.get("content_block"), dict):
            blocks[_index(event)] = dict(event["content_block"])
        elif kind == "content_block_delta" and isinstance(event.get("delta"), dict):
            add_delta(blocks.setdefault(_index(event), {"type": "text", "text": ""}), event["delta"])
    message["content"] = [blocks[index] for index in sorted(blocks)]
    if not message["content"]:
        raise NotAResponse("is a stream of events with no content blocks (`content_block_start`)")
    return message


def _index(event: dict[str, Any]) -> int:
    index = event.get("index")
    return index if isinstance(index, int) else 0


def add_delta(block: dict[str, Any], delta: dict[str, Any]) -> None:
    if delta.get("type") == "text_delta" and isinstance(delta.get("text"), str):
        block["text"] = (block.get("text") or "") + delta["text"]
    elif delta.get("type") == "citations_delta" and isinstance(delta.get("citation"), dict):
        block["citations"] = [*(block.get("citations") or []), delta["citation"]]


# --- the request's documents -----------------------------------------------------------------


def request_blocks(request: Any) -> list[dict[str, Any]]:
    """The request's content blocks in order, those inside tool results too."""
    found: list[dict[str, Any]] = []
    messages = request.get("messages") if isinstance(request, dict) else None
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            found.append(block)
            inner = block.get("content") if block.get("type") == "tool_result" else None
            found.extend(b for b in (inner if isinstance(inner, list) else []) if isinstance(b, dict))
    return found


def block_texts(content: Any) -> list[str] | None:
    """The texts of a custom content document's (or a search result's) blocks."""
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return None
    return [block.get("text", "") if isinstance(block, dict) else "" for block in content]


def document_source(block: dict[str, Any], index: int) -> tuple[Source, list[str] | None]:
    """The source a request's document block is, and its blocks when it is custom content."""
    title = string(block, "title")
    label = f"document {index}" + (f" ({said(title)})" if title else "")
    filename = title or f"document-{index + 1}.txt"
    source = obj(block, "source")
    kind = source.get("type")
    names = tuple(name for name in (title, string(source, "url"), string(source, "file_id")) if name)
    data = string(source, "data")
    if kind == "text" and data is not None:
        return Source(f"document {index}", label, filename, text=data, names=names), None
    if kind == "content":
        blocks = block_texts(source.get("content"))
        if blocks is not None:
            return Source(f"document {index}", label, filename, text="\n".join(blocks), names=names), blocks
    if kind == "base64" and str(source.get("media_type", "")).startswith("text/"):
        try:
            text = base64.b64decode(source.get("data", ""), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            text = None
        if text is not None:
            return Source(f"document {index}", label, filename, text=text, names=names), None
    return Source(f"document {index}", label, filename, names=names), None


def search_source(block: dict[str, Any], index: int) -> tuple[Source, list[str] | None]:
    url = block.get("source") if isinstance(block.get("source"), str) else None
    title = block.get("title") if isinstance(block.get("title"), str) else None
    blocks = block_texts(block.get("content"))
    label = f"search result {index}" + (f" ({said(title or url or '')})" if title or url else "")
    names = tuple(name for name in (url, title) if name)
    text = "\n".join(blocks) if blocks is not None else None
    return Source(
        f"search result {index}", label, title or url or f"search-result-{index + 1}.txt", text, None, names
    ), blocks


class Documents:
    """The request's documents and search results, by index, and those the response names
    when there is no request (known by their title only)."""

    def __init__(self, request: Any) -> None:
        self.documents: list[tuple[Source, list[str] | None]] = []
        self.results: list[tuple[Source, list[str] | None]] = []
        self.has_request = request is not None
        for block in request_blocks(request):
            if block.get("type") == "document":
                self.documents.append(document_source(block, len(self.documents)))
            elif block.get("type") == "search_result":
                self.results.append(search_source(block, len(self.results)))

    def document(self, citation: dict[str, Any]) -> tuple[Source, list[str] | None]:
        index = citation.get("document_index")
        if isinstance(index, int) and 0 <= index < len(self.documents):
            return self.documents[index]
        title = citation.get("document_title") if isinstance(citation.get("document_title"), str) else None
        number = index if isinstance(index, int) else 0
        label = f"document {number}" + (f" ({said(title)})" if title else "")
        names = (title,) if title else (f"document-{number + 1}",)
        return Source(f"document {number}", label, title or f"document-{number + 1}.txt", names=names), None

    def result(self, citation: dict[str, Any]) -> tuple[Source, list[str] | None]:
        index = citation.get("search_result_index")
        if isinstance(index, int) and 0 <= index < len(self.results):
            return self.results[index]
        url = citation.get("source") if isinstance(citation.get("source"), str) else None
        title = citation.get("title") if isinstance(citation.get("title"), str) else None
        names = tuple(name for name in (url, title) if name)
        key = f"search result {index if isinstance(index, int) else 0}"
        return Source(
            key, f"{key} ({said(title or url or '')})", title or url or "search-result.txt", names=names
        ), None


# --- citations -------------------------------------------------------------------------------


def block_span(blocks: list[str], start: Any, end: Any) -> tuple[int, int] | None:
    """The code point span of blocks ``[start, end)`` in the blocks joined by line breaks."""
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(blocks)):
        return None
    first = sum(len(text) + 1 for text in blocks[:start])
    return first, first + len("\n".join(blocks[start:end]))


def blocks_pointer(source: Source, blocks: list[str] | None, citation: dict[str, Any]) -> Pointer:
    """A block citation's pointer: the blocks' span, and ``cited_text`` as the joined blocks
    write it (the API writes cited blocks "joined together", without the line breaks)."""
    quoted = citation.get("cited_text") if isinstance(citation.get("cited_text"), str) else None
    if blocks is None:
        return Pointer(source, quoted=quoted)
    span = block_span(blocks, citation.get("start_block_index"), citation.get("end_block_index"))
    if span is None:
        return Pointer(source, quoted=quoted)
    cited = blocks[citation["start_block_index"] : citation["end_block_index"]]
    if quoted is not None and quoted in ("".join(cited), " ".join(cited)):
        quoted = "\n".join(cited)
    return Pointer(source, span[0], span[1], "code points", quoted)


def pointer_of(citation: dict[str, Any], documents: Documents) -> tuple[Pointer | None, str | None]:
    """What a citation points at, and why it cannot be placed whatever is given (None: it may)."""
    kind = citation.get("type")
    quoted = citation.get("cited_text") if isinstance(citation.get("cited_text"), str) else None
    if kind == "char_location":
        source, _ = documents.document(citation)
        start, end = citation.get("start_char_index"), citation.get("end_char_index")
        offsets = (start, end) if isinstance(start, int) and isinstance(end, int) else (None, None)
        return Pointer(source, offsets[0], offsets[1], "code points", quoted), None
    if kind == "content_block_location":
        return blocks_pointer(*documents.document(citation), citation), None
    if kind == "search_result_location":
        return blocks_pointer(*documents.result(citation), citation), None
    if kind == "page_location":
        source, _ = documents.document(citation)
        page = citation.get("start_page_number")
        pages = f"pages {page}-{citation.get('end_page_number')}"
        why = f"{source.label} is a PDF ({pages}) whose text the response does not carry: give the pages' text "
        pointer = Pointer(source, quoted=quoted, page=page if isinstance(page, int) else None)
        return pointer, why + f"with --document FILE named like {said(source.filename)}"
    if kind == "web_search_result_location":
        url = string(citation, "url") or ""
        title = string(citation, "title")
        source = Source(f"web {url}", f"the web page {url}", title or url or "page.txt", names=(url, title or ""))
        why = f"a web search result carries no page text: give the page {url} with --document FILE named like its URL"
        return Pointer(source, quoted=quoted), why
    return None, f"a citation of type {said(str(kind))}, which this version does not know"


def read(wire: Wire, request: Any = None) -> Cited:
    """What an Anthropic response (and its request) cites."""
    message = message_of(wire)
    documents = Documents(request)
    answer = ""
    segments: list[Segment] = []
    notes: list[str] = []
    for index, block in enumerate(message["content"]):
        if not isinstance(block, dict) or block.get("type") != "text" or not isinstance(block.get("text"), str):
            continue
        start = len(answer)
        answer += block["text"]
        citations = block.get("citations") if isinstance(block.get("citations"), list) else []
        if not citations:
            continue
        cited = []
        for number, citation in enumerate(citations):
            where = f"content/{index}/citations/{number}"
            at, why = pointer_of(citation, documents) if isinstance(citation, dict) else (None, "not an object")
            cited.append(Citation(where, at, why_not=why))
        claim = Pointer(ANSWER_KEY, start, len(answer), "code points", block["text"])
        segments.append(Segment(f"content/{index}", claim, tuple(cited)))
    if segments and not documents.has_request:
        notes.append("no --request given: documents are known by their titles only (give --request FILE)")
    return Cited("anthropic", answer_source(answer), tuple(segments), (), tuple(notes))


__all__ = ["message_of", "read"]

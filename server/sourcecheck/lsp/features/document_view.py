"""The document view: a document of a session shown as plain text, with its real lines.

A document's text is one long JSON string in the session file; the view shows it as the
text it is (``workspace/textDocumentContent`` for the URI scheme ``sourcecheck``), so that
line 12 of the view is line 12 of the refs. In the view:

- the spans refs cite are marked (semantic tokens ``claim``, ``supports``, ``refutes``,
  with the other kinds of the same characters as modifiers), distinguishable without colour
  (the VS Code extension underlines claims, italicises supports and strikes refutes);
- hover lists the refs that cite the character under the cursor, each with a link back to
  the ref in the session file;
- selecting text offers to cite it (see :mod:`.cite`).

Views of a session are refreshed when it changes. Reachable from a code lens on each
document, from go to definition on a document's ``path``, and from a command with a picker
(``sourcecheck/documents`` lists a session's documents with their view URIs).
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from ...core.display import shorten, visible
from ...core.explain import confidence_of, polarity_of, where
from ...core.session import CheckedRef
from ..app import Shown, View, view_uri
from ..markup import RichText

TOKEN_TYPES = ["claim", "supports", "refutes"]
"""The semantic token types of the view (its legend); each is also a modifier."""
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_TYPES)
DOCUMENTS = "sourcecheck/documents"


def content(shown: Shown, params: types.TextDocumentContentParams) -> types.TextDocumentContentResult:
    return types.TextDocumentContentResult(text=shown.document.content)


def kind_of(ref: CheckedRef) -> str | None:
    """``claim``, ``supports`` or ``refutes`` (None: a source without a valid polarity)."""
    return polarity_of(ref) if ref.is_source else "claim"


def semantic_tokens(shown: Shown, params: types.SemanticTokensParams) -> types.SemanticTokens:
    """The cited spans of the document, split where the set of kinds citing them changes
    and at line ends (a token lies on one line)."""
    document = shown.document
    edges: dict[int, list[tuple[int, int]]] = {}  # offset -> (kind, +1/-1)
    for ref in shown.view.analysis.refs_into(document):
        kind = kind_of(ref)
        if not ref.valid or ref.span is None or kind is None:
            continue
        bit = TOKEN_TYPES.index(kind)
        edges.setdefault(ref.span[0], []).append((bit, 1))
        edges.setdefault(ref.span[1], []).append((bit, -1))
    counts = [0, 0, 0]
    runs: list[tuple[int, int, int]] = []  # start, end, kinds (bits)
    points = sorted(edges)
    for here, after in zip(points, points[1:], strict=False):
        for bit, change in edges[here]:
            counts[bit] += change
        kinds = sum(1 << bit for bit, count in enumerate(counts) if count > 0)
        if kinds:
            runs.append((here, after, kinds))
    data: list[int] = []
    previous_line, previous_start = 0, 0
    lines = shown.lines
    for start, end, kinds in runs:
        at = start
        while at < end:
            line = lines.line_of(at)
            stop = min(end, lines.line_end(line))
            if stop > at:
                begin = lines.position(at, shown.client.encoding)
                finish = lines.position(stop, shown.client.encoding)
                main = 0 if kinds & 1 else 2 if kinds & 4 else 1
                delta_line = begin.line - previous_line
                delta_start = begin.character - previous_start if delta_line == 0 else begin.character
                data += [delta_line, delta_start, finish.character - begin.character, main, kinds]
                previous_line, previous_start = begin.line, begin.character
            next_line = line + 1
            if next_line >= lines.line_count:
                break
            at = max(stop, lines.starts[next_line])
    return types.SemanticTokens(data=data)


def ref_line(view: View, ref: CheckedRef) -> int | None:
    """The 1-based line of the session file where a ref is written."""
    node = view.analysis.node(view.analysis.session.ref_path(ref))
    return view.analysis.lines.line_of(node.start) + 1 if node is not None else None


def hover(shown: Shown, params: types.HoverParams) -> types.Hover | None:
    """The refs that cite the character under the cursor, with the way back to each."""
    offset = shown.offset(params.position)
    view = shown.view
    refs = view.analysis.refs_covering(shown.document, offset)
    if not refs:
        return None
    out = RichText(view.client.markdown)
    first = min(ref.span[0] for ref in refs if ref.span)
    last = max(ref.span[1] for ref in refs if ref.span)
    out.para(out.strong(f"cited by {len(refs)} ref{'s' if len(refs) != 1 else ''}"))
    for ref in refs:
        line = ref_line(view, ref)
        back = f"line {line} of the session" if line is not None else "the session"
        link = out.link(back, f"{view.uri}#L{line}") if line is not None else back
        if ref.is_source:
            confidence = confidence_of(ref)
            kind = polarity_of(ref) or "no valid polarity"
            claim = ref.annotation.claim
            cited = claim.text if claim is not None and claim.valid else None
            mark = "✓" if kind == "supports" else "✗"
            head = f"{mark} {kind} · confidence {confidence if confidence is not None else '?'}"
            out.para(head, f" · {where(ref)} · ", link)
            if cited is not None:
                out.para("the claim: ", out.code(shorten(visible(cited), 120)))
        else:
            sources = ref.annotation.sources
            out.para(
                out.strong("claim"),
                f" · {where(ref)} · {len(sources)} source{'s' if len(sources) != 1 else ''} · ",
                link,
            )
    return types.Hover(contents=out.markup(), range=shown.range(max(first, 0), last))


def documents(view: View, params: Any) -> list[dict[str, Any]]:
    """The session's documents, for a picker: path, lines, how often cited, view URI."""
    analysis = view.analysis
    found = []
    for document in analysis.session.documents:
        refs = analysis.refs_into(document)
        found.append(
            {
                "path": document.path,
                "lines": len(document.lines),
                "refs": len(refs),
                "uri": view_uri(view.uri, document.path),
            }
        )
    return found


def definition(view: View, path: str) -> types.Location:
    """Where go to definition on a document's ``path`` lands: its view, at line 1."""
    start = types.Position(line=0, character=0)
    return types.Location(uri=view_uri(view.uri, path), range=types.Range(start=start, end=start))

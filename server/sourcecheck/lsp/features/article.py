"""A cited file as the surface: the article (or a source) open in the editor shows what the
workspace's sessions say of its text, where the writer writes.

For each claim citing its text, an inlay hint with the claim's verdict ("supported · 2
sources", "refuted", "unverified"); for each passage sources cite, "cited by 2 claims"; a
hover with each claim or source at the cursor, its session, its verdict and the other side's
text; go to definition to the annotation in its session; a claim refuted or unverified as an
information diagnostic; and while the writer edits the file, each citation carried across
the edit by ``sync``'s core (``core/citations.py``): a citation the edit breaks is a warning
on the spot, and a code action updates the session to the edited text ("Update
`s.sourcecheck.json` to this text") or accepts the change, titled with what it does.

Every feature is a function of an :class:`Article` (one version of the file, the
citations of every session into it), as the session's features are of a view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from ...core.accept import synced
from ...core.analysis import Analysis
from ...core.citations import CitedSpan, at, verdict_said
from ...core.display import both_ends, visible
from ...core.driftsaid import plural, quote, ref_said
from ...core.positions import LineTable, Position
from ...core.resync import Drift
from ..app import Client, lsp_range
from ..markup import RichText

CODE = "cited-here"
"""The code of the article's diagnostics (claims and changed citations; not findings)."""
HINT_WIDTH = 60


@dataclass(frozen=True)
class CitingSession:
    """A session citing the file: its URI, its analysis, its version in the editor (None: not
    open, its file's), its document that is the file, and what the file's edits did."""

    uri: str
    name: str  # its file name, for titles (shown in backticks)
    analysis: Analysis
    version: int | None
    document: str
    drift: Drift | None


@dataclass(frozen=True)
class Article:
    """One version of a cited file, and every session's citations into it."""

    uri: str
    version: int
    text: str
    client: Client
    cited: tuple[CitedSpan, ...]
    sessions: dict[str, CitingSession]  # by session URI
    lines: LineTable = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", LineTable(self.text))

    def offset(self, position: types.Position) -> int:
        return self.lines.offset(Position(position.line, position.character), self.client.encoding)

    def range(self, start: int, end: int) -> types.Range:
        return lsp_range(self.lines.span(start, end, self.client.encoding))


def _session_range(session: CitingSession, path: tuple[Any, ...], client: Client) -> types.Range | None:
    node = session.analysis.node(path)
    if node is None:
        return None
    return lsp_range(session.analysis.span(node.start, node.end, client.encoding))


def inlay_hints(article: Article, params: types.InlayHintParams) -> list[types.InlayHint]:
    """A claim's verdict after its text; ``cited by N claims`` after a cited passage."""
    first, last = article.offset(params.range.start), article.offset(params.range.end)
    found: list[types.InlayHint] = []
    passages: dict[tuple[int, int], list[CitedSpan]] = {}
    for cited in article.cited:
        if cited.span is None or cited.span[1] < first or cited.span[0] > last:
            continue
        if cited.role == "source":
            passages.setdefault(cited.span, []).append(cited)
            continue
        label = verdict_said(cited) + (" (edited: the session cites it as it was)" if cited.changed else "")
        found.append(_hint(article, cited.span[1], label))
    for span, sources in passages.items():
        count = len(sources)
        found.append(_hint(article, span[1], f"cited by {count} claim{'s' if count != 1 else ''}"))
    return sorted(found, key=lambda h: (h.position.line, h.position.character))


def _hint(article: Article, offset: int, label: str) -> types.InlayHint:
    position = article.lines.position(offset, article.client.encoding)
    return types.InlayHint(
        position=types.Position(position.line, position.character),
        label=" " + visible(label),
        kind=types.InlayHintKind.Type,
        padding_left=True,
    )


def hover(article: Article, params: types.HoverParams) -> types.Hover | None:
    """Each claim or source citing the text at the cursor: its session, verdict, other side."""
    here = at(article.cited, article.offset(params.position))
    if not here:
        return None
    out = RichText(article.client.markdown)
    for cited in here:
        session = article.sessions[cited.session]
        if cited.role == "claim":
            out.para(out.strong("Claim"), " in ", out.code(session.name), out.prose(": " + verdict_said(cited)))
            for other in cited.others:
                side = other.polarity or "source"
                confidence = f", {other.confidence:g}" if other.confidence is not None else ""
                cites = both_ends(other.text, HINT_WIDTH) if other.text is not None else "(does not resolve)"
                out.para(out.prose(f"- {side}{confidence}: "), out.code(cites), " in ", out.code(other.path or "?"))
        else:
            claim = cited.others[0] if cited.others else None
            said = both_ends(claim.text, HINT_WIDTH) if claim is not None and claim.text is not None else "?"
            out.para(
                out.strong("Source"),
                " in ",
                out.code(session.name),
                " of the claim ",
                out.code(said),
                out.prose(f": {cited.verdict}"),
            )
        if cited.changed and cited.drift is not None:
            out.para(out.text("since the session was saved: " + ref_said(_document(article, cited), cited.drift)))
        out.rule()
    start, end = here[0].span or (0, 0)
    return types.Hover(contents=out.markup(), range=article.range(start, end))


def _document(article: Article, cited: CitedSpan) -> Any:
    session = article.sessions[cited.session]
    assert session.drift is not None
    return session.drift.document(session.document)


def definition(article: Article, params: types.DefinitionParams) -> list[types.Location]:
    """The annotation, in its session file, of each claim or source at the cursor."""
    found = []
    for cited in at(article.cited, article.offset(params.position)):
        session = article.sessions[cited.session]
        where = _session_range(session, cited.annotation + cited.ref.tail, article.client)
        if where is not None:
            found.append(types.Location(uri=session.uri, range=where))
    return found


def diagnostics(article: Article) -> list[types.Diagnostic]:
    """Claims refuted or unverified (information); citations an edit of the file changed
    (warnings, on the spot)."""
    found = []
    for cited in article.cited:
        session = article.sessions[cited.session]
        if cited.changed:
            start, end = cited.span or (_deleted_at(cited), _deleted_at(cited))
            message = (
                f"this edit changes the text a {cited.role} of `{visible(session.name)}` cites: "
                + ref_said(_document(article, cited), cited.drift)  # type: ignore[arg-type]
                + "; update the session to this text (the quick fix) or undo the edit"
            )
            found.append(_diagnostic(article, start, end, message, types.DiagnosticSeverity.Warning))
        elif cited.role == "claim" and cited.verdict in ("refuted", "unverified", "contested") and cited.span:
            said = {
                "refuted": "its sources refute it",
                "unverified": "no source supports or refutes it",
                "contested": "its sources both support and refute it",
            }[cited.verdict]
            message = f"claim {quote(cited.was, 50)} is {cited.verdict} in `{visible(session.name)}`: {said}"
            found.append(_diagnostic(article, *cited.span, message, types.DiagnosticSeverity.Information))
    return found


def _deleted_at(cited: CitedSpan) -> int:
    return cited.drift.at if cited.drift is not None and cited.drift.at is not None else 0


def _diagnostic(article: Article, start: int, end: int, message: str, severity: types.DiagnosticSeverity) -> Any:
    return types.Diagnostic(
        range=article.range(start, end), message=visible(message), severity=severity, code=CODE, source="sourcecheck"
    )


def code_actions(article: Article, params: types.CodeActionParams) -> list[types.CodeAction]:
    """For each session the file's edits changed: update it to the file's text, as ``sync``
    does (all its refs keep their text), or accept the change (some cite edited text)."""
    found = []
    for session in article.sessions.values():
        drift = session.drift
        document = drift.document(session.document) if drift is not None else None
        if drift is None or document is None or document.state != "changed" or document.held:
            continue
        accept = bool(document.changed_refs)
        result = synced(drift, frozenset({session.document}) if accept else False)
        if not result.edits:
            continue
        moving = document.moving
        if accept:
            changed = plural(len(document.changed_refs), "changed ref")
            title = f"Accept this text in `{visible(session.name)}` ({changed} re-anchored or removed)"
        else:
            title = f"Update `{visible(session.name)}` to this text" + (
                f" (re-anchor {plural(moving, 'ref')})" if moving else ""
            )
        found.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                is_preferred=not accept or None,
                edit=_session_edit(session, result.edits, article.client),
            )
        )
    return found


def _session_edit(session: CitingSession, edits: Sequence[tuple[int, int, str]], client: Client) -> types.WorkspaceEdit:
    analysis = session.analysis
    text_edits = [
        types.TextEdit(range=lsp_range(analysis.span(start, end, client.encoding)), new_text=text)
        for start, end, text in edits
    ]
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=session.uri, version=session.version)
    if client.document_changes:
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=identifier, edits=text_edits)]
        )
    return types.WorkspaceEdit(changes={session.uri: text_edits})


__all__ = ["Article", "CODE", "CitingSession", "code_actions", "definition", "diagnostics", "hover", "inlay_hints"]

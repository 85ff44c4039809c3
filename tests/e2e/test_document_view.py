"""The document view and citing from a selection, end to end over LSP with both profiles:
a document of a session as text with its real lines, its cited spans marked, hover back to
the refs, and a selection turned into a ref written into the session file."""

import asyncio
import json

from lsprotocol import types

from sourcecheck.core.analysis import Analysis
from sourcecheck.lsp.app import VIEW_SCHEME, parse_view_uri, view_uri
from tests.support.lsp_support import FIXTURES

ARTICLE = FIXTURES / "orbit-article.sourcecheck.json"
NOTES_LINE_3 = "Performance: cold start p50 drops from 820ms to 517ms (-37%) on bench/ref-7."


def doc_id(uri):
    return types.TextDocumentIdentifier(uri=uri)


def open_session(editor):
    uri, text = ARTICLE.as_uri(), ARTICLE.read_text(encoding="utf-8")
    editor.open(uri, text)
    return uri, text


async def open_view(editor, session_uri, path):
    """Open a document view as an editor does: ask for its text, then open it."""
    uri = view_uri(session_uri, path)
    result = await editor.client.workspace_text_document_content_async(types.TextDocumentContentParams(uri=uri))
    editor.open(uri, result.text)
    return uri, result.text


async def test_the_server_provides_text_for_its_own_uri_scheme(editor):
    assert list(editor.capabilities.workspace.text_document_content.schemes) == [VIEW_SCHEME]


async def test_a_sessions_documents_are_listed_with_their_view_uris(editor, client):
    uri, _ = open_session(editor)
    documents = await client.protocol.send_request_async("sourcecheck/documents", {"uri": uri})
    assert [(d["path"], d["lines"], d["refs"]) for d in documents] == [
        ("article", 7, 4),
        ("release-notes", 5, 3),
        ("发布说明", 3, 3),
        ("forum/thread-42", 3, 1),
    ]
    assert all(parse_view_uri(d["uri"]) == (uri, d["path"]) for d in documents)


async def test_a_document_view_shows_the_text_with_the_lines_refs_count(editor):
    uri, _ = open_session(editor)
    _, text = await open_view(editor, uri, "release-notes")
    assert text.split("\n")[2] == NOTES_LINE_3


async def marks(editor, client, uri, path):
    """(line, kind, text) of each semantic token of a document's view."""
    view, text = await open_view(editor, uri, path)
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc_id(view))
    )
    legend = editor.capabilities.semantic_tokens_provider.legend.token_types
    lines = text.split("\n")
    marked, line, start = [], 0, 0
    data = list(tokens.data)
    for at in range(0, len(data), 5):
        delta_line, delta_start, length, kind, _ = data[at : at + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        begin = editor.offset(lines[line], types.Position(line=0, character=start))
        end = editor.offset(lines[line], types.Position(line=0, character=start + length))
        marked.append((line + 1, legend[kind], lines[line][begin:end]))
    return marked


async def test_cited_spans_are_marked_by_kind_in_the_view(editor, client):
    uri, _ = open_session(editor)
    notes = await marks(editor, client, uri, "release-notes")
    assert (3, "supports", "cold start p50 drops from 820ms to 517ms (-37%)") in notes
    assert {kind for _, kind, _ in notes} == {"supports"}
    forum = await marks(editor, client, uri, "forum/thread-42")
    assert forum == [(3, "refutes", "It dropped 3 frames per minute on my laptop under heavy load 😬")]
    article = await marks(editor, client, uri, "article")
    assert {kind for _, kind, _ in article} == {"claim"}


async def test_hover_in_the_view_lists_the_refs_citing_there_with_a_way_back(editor, client):
    uri, _ = open_session(editor)
    view, text = await open_view(editor, uri, "release-notes")
    at = text.index("517ms")
    hover = await editor.hover(view, at)
    value = hover.contents.value
    assert "cited by 1 ref" in value and "supports · confidence 0.95" in value
    assert "cuts cold-start latency by 37%" in value  # the claim it is cited for
    if hover.contents.kind == types.MarkupKind.Markdown:
        assert f"<{uri}#L" in value  # a link to the source in the session file


async def test_selecting_text_in_the_view_writes_a_source_that_cites_exactly_it(editor, client):
    uri, session = open_session(editor)
    view, text = await open_view(editor, uri, "forum/thread-42")
    selected = "dropped 3 frames per minute"
    start = text.index(selected)
    actions = await editor.code_actions(view, editor.range_of(view, start, start + len(selected)), [])
    titles = [action.title for action in actions]
    supports = next(a for a in actions if "as a source that supports" in a.title)
    assert any("as the claim of a new annotation" in title for title in titles)
    editor.apply(uri, supports.edit)
    analysis = Analysis(editor.texts[uri])
    added = [
        ref
        for ref in analysis.session.refs
        if ref.is_source and ref.doc_path == "forum/thread-42" and ref.text == selected
    ]
    assert len(added) == 1 and added[0].valid
    assert json.loads(editor.texts[uri])  # still JSON
    errors_before = [f.code for f in Analysis(session).findings if f.severity.value == "error"]
    assert [f.code for f in analysis.findings if f.severity.value == "error"] == errors_before


async def test_a_selection_that_cannot_be_cited_says_why_and_edits_nothing(editor):
    uri, _ = open_session(editor)
    view, text = await open_view(editor, uri, "article")
    at = text.index("\n")  # a selection that starts at a line break
    actions = await editor.code_actions(view, editor.range_of(view, at, at + 3), [])
    assert len(actions) == 1 and actions[0].disabled is not None and "line break" in actions[0].disabled.reason
    assert actions[0].edit is None


async def test_citing_inside_a_content_string_of_the_session_file(editor):
    uri, session = open_session(editor)
    inside = session.index("cold start p50")
    actions = await editor.code_actions(uri, editor.range_of(uri, inside, inside + len("cold start p50")), [])
    new = next(a for a in actions if "as the claim of a new annotation" in a.title)
    editor.apply(uri, new.edit)
    analysis = Analysis(editor.texts[uri])
    claim = analysis.session.annotations[-1].claim
    assert claim.valid and claim.doc_path == "release-notes" and claim.text == "cold start p50"


async def test_go_to_definition_on_a_documents_path_opens_its_view(editor, client):
    uri, session = open_session(editor)
    at = session.index('"path": "release-notes"') + 10
    location = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc_id(uri), position=editor.position(session, at))
    )
    assert location.uri == view_uri(uri, "release-notes")


async def test_the_open_views_of_a_session_are_refreshed_after_it_changes(editor, client):
    uri, session = open_session(editor)
    view, _ = await open_view(editor, uri, "article")
    client.content_refreshes.clear()
    at = session.index("Orbit 2.4 cuts")
    editor.edit(uri, at, at, "Now ")
    for _ in range(200):
        if view in client.content_refreshes:
            break
        await asyncio.sleep(0.02)
    assert view in client.content_refreshes
    result = await client.workspace_text_document_content_async(types.TextDocumentContentParams(uri=view))
    assert "Now Orbit 2.4 cuts" in result.text


async def test_a_document_view_is_never_checked_as_a_session(editor, client):
    """Its URI ends with the session's (in the query), and its text may even look like JSON."""
    uri, _ = open_session(editor)
    view = view_uri(uri, "article")
    editor.open(view, '{"documents": [], "annotations": [1]}')
    if editor.pull:
        assert await editor.diagnostics(view) == []
    else:
        await client.text_document_hover_async(
            types.HoverParams(text_document=doc_id(view), position=types.Position(line=0, character=1))
        )
        await asyncio.sleep(0.3)
        assert [p for p in client.published if p.uri == view] == []


async def test_the_cite_target_is_the_annotation_the_editors_requests_place_the_cursor_in(editor):
    uri, session = open_session(editor)
    view, text = await open_view(editor, uri, "forum/thread-42")
    selected = "dropped 3 frames per minute"
    start = text.index(selected)

    async def target() -> str:
        actions = await editor.code_actions(view, editor.range_of(view, start, start + len(selected)), [])
        return next(a.title for a in actions if "as a source that supports" in a.title)

    assert "(the last)" in await target()  # no request has told where the cursor is
    first = session.index('"str": "cuts"')  # in the first annotation
    position = editor.position(session, first)
    params = types.DocumentHighlightParams(text_document=doc_id(uri), position=position)
    await editor.client.text_document_document_highlight_async(params)  # the cursor moved there
    assert '"cuts cold-start latency by 37%" (at the cursor)' in await target()
    second = session.index('"str": "the new scheduler"')
    await editor.hover(uri, second)  # a hover there
    assert '"the new scheduler' in await target() and "(at the cursor)" in await target()
    rng = editor.range_of(uri, first, first)
    await editor.code_actions(uri, rng, [])  # a code action request there
    assert '"cuts cold-start latency by 37%" (at the cursor)' in await target()


async def test_after_a_cite_from_a_view_the_client_is_asked_for_the_sessions_hints_again(editor, client):
    uri, _ = open_session(editor)
    view, text = await open_view(editor, uri, "forum/thread-42")
    start = text.index("dropped 3 frames")
    actions = await editor.code_actions(view, editor.range_of(view, start, start + len("dropped 3 frames")), [])
    refreshes = client.hint_refreshes
    editor.apply(uri, next(a for a in actions if "as a source that supports" in a.title).edit)
    workspace = client.capabilities.workspace
    refreshable = bool(workspace and workspace.inlay_hint and workspace.inlay_hint.refresh_support)
    for _ in range(200 if refreshable else 40):  # the refresh follows a pause of 0.3 s
        if client.hint_refreshes > refreshes:
            break
        await asyncio.sleep(0.02)
    assert (client.hint_refreshes > refreshes) == refreshable

"""``sourcecheck sync``: the session's documents brought up to date with their files, every
ref carried across the change (the logic is ``core/resync.py`` and ``core/accept.py``, the
words ``core/driftsaid.py``'s; this is reading the files, writing the session and saying what
happened, for people and, with ``--json``, programs: one JSON object per document)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import disk
from ..core import resync
from ..core.accept import Accepted, Synced, claim_text, synced, with_verdicts
from ..core.analysis import Analysis
from ..core.display import json_visible, plural, visible
from ..core.driftsaid import claim_said, lines_of, named, outcome_said, quote, ref_said, refs_phrase, unread_phrase
from ..core.filestate import FileState, Unreadable
from ..core.jsonlex import escape_lone_surrogates
from ..core.session import CheckedRef, pointer
from ..inputs import Refused, SessionFile, load_session
from .files import write_atomically


def cited_paths(analysis: Analysis) -> list[str]:
    """The documents some ref cites, in the session's order: the only ones whose files are
    read (a document cited by nothing, `.git/config` listed by a stranger, is never read)."""
    cited = {ref.doc_path for ref in analysis.session.refs if ref.doc_path is not None}
    return [path for path in analysis.session.by_path if path in cited]


def read_files(session: SessionFile, max_size_mb: int, hidden: bool = False) -> dict[str, FileState]:
    """What reading the file of each cited document of the session gives (see
    ``disk.document_file``)."""
    return {
        path: disk.document_file(session.folder, path, max_size_mb, hidden=hidden, session=session.name)
        for path in cited_paths(session.analysis)
    }


def accepted_paths(analysis: Analysis, named_paths: list[str] | None, shown: str) -> bool | frozenset[str]:
    """What ``--accept`` accepts: every changed document (no path named), or the named ones
    (each must be a document of the session)."""
    if named_paths is None:
        return False
    if not named_paths:
        return True
    documents = analysis.session.by_path
    unknown = [path for path in named_paths if path not in documents]
    if unknown:
        listed = ", ".join(named(path) for path in list(documents)[:10])
        raise Refused(f"{shown}: {named(unknown[0])} is not a document of the session; its documents: {listed}")
    return frozenset(named_paths)


def run_sync(args: argparse.Namespace) -> int:
    session_name: str | None = args.session
    accept_named: list[str] | None = args.accept
    if session_name is None and accept_named:  # `sync --accept SESSION`: the session, not a path
        session_name, accept_named = accept_named[0], accept_named[1:]
    if session_name is None:
        raise Refused(
            "sourcecheck sync: name the session file: `sourcecheck sync SESSION [--check | --accept [PATH...]]`"
        )
    session = load_session(session_name, args.max_size_mb)
    analysis = session.analysis
    accept = accepted_paths(analysis, accept_named, session.shown)
    check: bool = args.check
    drift = resync.plan(analysis, read_files(session, args.max_size_mb, args.read_hidden))
    result = synced(drift, False if check else accept)
    updated = [] if check else drift.updated(accept)
    if updated:
        text = result.text(analysis.text)
        write_atomically(session.name, text, expect=session.data)
        result = with_verdicts(analysis, result, Analysis(text))
    if args.json:
        for entry in sync_json(session, drift, result, check, accept):
            sys.stdout.write(one_line(entry))
    else:
        sys.stdout.write("".join(line + "\n" for line in sync_lines(session, drift, result, check, accept)))
    return sync_exit(drift, result, check, accept)


def one_line(entry: dict[str, Any]) -> str:
    """One object of JSON Lines, safe to show (hidden characters escaped, lone surrogates kept)."""
    return json_visible(escape_lone_surrogates(json.dumps(entry, ensure_ascii=False))) + "\n"


def left_failing(result: Synced) -> list[Accepted]:
    """The outcomes that leave the check failing: a source removed that was its annotation's last."""
    return [o for o in result.outcomes if o.action == "source removed" and o.verdict_after == "unverified"]


def sync_exit(drift: resync.Drift, result: Synced, check: bool, accept: bool | frozenset[str]) -> int:
    """0 when, after this run, every document equals its file and the check passes as far as
    the sync goes (``--check``: every document equals its file already)."""
    if check:
        return 0 if drift.up_to_date else 1
    updated = {id(d) for d in drift.updated(accept)}
    for document in drift.documents:
        if document.state in ("missing", "unreadable"):
            return 1
        if document.state == "changed" and id(document) not in updated:
            return 1
    return 1 if left_failing(result) else 0


def ref_label(session: SessionFile, ref: CheckedRef) -> str:
    """Where a ref is, for a person: ``FILE:LINE: /annotations/0/sources/0`` (the line of the
    session file), its claim, its document and lines."""
    analysis = session.analysis
    path = analysis.session.ref_path(ref)
    extent = analysis.tree.locate(path)
    line = analysis.lines.line_of(extent[0]) + 1 if extent is not None else 0
    where = lines_of(ref.start.line, ref.end.line) if ref.start is not None and ref.end is not None else "?"
    return (
        f"{session.shown}:{line}: {visible(pointer(path))} "
        f"({claim_said(claim_text(ref))}; {named(ref.doc_path or '')}, {where})"
    )


def _document_line(document: resync.DocumentDrift, check: bool, accepted: bool) -> str:
    label = named(document.document.path)
    if isinstance(document.file, Unreadable):
        return f"{label}: {visible(document.file.reason)}; its document is kept as it was; {unread_phrase(document)}"
    note = f" ({document.file.note})" if document.file.note else ""
    head = f"{label}: its file has changed{note}; {refs_phrase(document, would=check)}"
    if not document.changed_refs:
        return head + ("; `sourcecheck sync` would update it" if check else "; its content is updated")
    if accepted:
        return head + "; accepted: its content is updated"
    if document.held and not check:
        return head + (
            f": the document is kept as it was; {plural(len(document.held), 'ref')} cannot be cited in the new "
            "text (no boundary is unique there): remove or re-cite them, then accept"
        )
    return head + (": the document would be kept as it was" if check else ": the document is kept as it was")


def sync_lines(
    session: SessionFile, drift: resync.Drift, result: Synced, check: bool, accept: bool | frozenset[str]
) -> list[str]:
    """What ``sync`` says of each document, then of each changed ref, then in sum."""
    out: list[str] = []
    accepted = {id(d) for d in ([] if check else drift.updated(accept)) if d.changed_refs}
    outcomes = {id(o.drift.ref): o for o in result.outcomes}
    for document in drift.documents:
        if document.state == "same":
            continue
        out.append(_document_line(document, check, id(document) in accepted))
        if isinstance(document.file, Unreadable):
            out += [
                f"  {ref_label(session, ref.ref)}: cites {quote(ref.was)}; not checked against its file"
                for ref in document.refs
                if ref.state == "unread"
            ]
            continue
        for ref in document.changed_refs:
            said = f"  {ref_label(session, ref.ref)}: {ref_said(document, ref)}"
            outcome = outcomes.get(id(ref.ref))
            if outcome is not None and id(document) in accepted:
                said += f"; {outcome_said(outcome)}"
            out.append(said)
    out.append(sync_summary(session.shown, drift, check, accept, result))
    uncited = len(session.analysis.session.by_path) - len(drift.documents)
    if uncited:
        out.append(
            f"{session.shown}: {plural(uncited, 'document')} that no ref cites "
            f"{'is' if uncited == 1 else 'are'} not read (sync reads only the files that refs cite)"
        )
    return out


def sync_summary(shown: str, drift: resync.Drift, check: bool, accept: bool | frozenset[str], result: Synced) -> str:
    if drift.up_to_date:
        return f"{shown}: up to date: every document equals its file"
    updated = [] if check else drift.updated(accept)
    changed = [d for d in drift.documents if d.state == "changed"]
    current = sum(1 for d in changed if d.all_kept) if check else len(updated)
    kept_back = len([d for d in changed if (check and d.changed_refs) or (not check and d not in updated)])
    unread = sum(1 for d in drift.documents if d.state in ("missing", "unreadable"))
    parts = []
    if current:
        parts.append(f"{plural(current, 'document')} {'would be updated' if check else 'updated'}")
    if kept_back:
        parts.append(
            f"{plural(kept_back, 'document')} {'would be ' if check else ''}kept as "
            f"{'it was' if kept_back == 1 else 'they were'} (refs cite text that changed)"
        )
    if unread:
        parts.append(f"{plural(unread, 'file')} not read")
    failing = left_failing(result)
    if failing and not check:
        parts.append(f"{plural(len(failing), 'claim')} to judge now (the check fails until then)")
    advice = ""
    if kept_back:
        advice = f"; judge the changed refs, then run `sourcecheck sync {shown} --accept`"
    elif check and current:
        advice = f"; run `sourcecheck sync {shown}` to update it"
    return f"{shown}: " + ", ".join(parts) + advice


def _ref_json(ref: resync.RefDrift, outcome: Accepted | None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "pointer": ref.pointer,
        "claim": claim_text(ref.ref),
        "state": ref.state,
        "was": ref.was,
        "now": ref.now,
        "ref": ref.anchor.as_json() if ref.anchor is not None and ref.state != "deleted" else None,
    }
    if ref.place_count:
        entry["places"] = [
            {"line": place.line, "ref": place.anchor.as_json() if place.anchor is not None else None}
            for place in ref.places
        ]
        entry["place_count"] = ref.place_count
    if ref.reason is not None:
        entry["reason"] = ref.reason
    if outcome is not None:
        entry["outcome"] = outcome.action
        entry["verdict"] = outcome.verdict
        entry["verdict_after"] = outcome.verdict_after
    return entry


def sync_json(
    session: SessionFile, drift: resync.Drift, result: Synced, check: bool, accept: bool | frozenset[str]
) -> list[dict[str, Any]]:
    """``sync --json``: one object per document, in the session's order: its path, its state
    beside its file, what this run did (or, with ``--check``, would do) with it, and each ref
    into it with its pointer, claim, state, was and now."""
    updated = {id(d) for d in ([] if check else drift.updated(accept))}
    outcomes = {id(o.drift.ref): o for o in result.outcomes}
    found = {id(d.document): d for d in drift.documents}
    entries = []
    for document in session.analysis.session.by_path.values():
        state = found.get(id(document))
        if state is None:
            continue
        entry: dict[str, Any] = {"path": document.path, "state": state.state, "action": _action(state, check, updated)}
        if isinstance(state.file, Unreadable):
            entry["reason"] = state.file.reason
        elif state.file.note:
            entry["note"] = state.file.note
        accepted = id(state) in updated and bool(state.changed_refs)
        refs = state.refs if state.state != "same" else _same_refs(session.analysis, document.path)
        entry["refs"] = [_ref_json(ref, outcomes.get(id(ref.ref)) if accepted else None) for ref in refs]
        entries.append(entry)
    return entries


def _action(document: resync.DocumentDrift, check: bool, updated: set[int]) -> str:
    if document.state == "same":
        return "none"
    if document.state in ("missing", "unreadable"):
        return "kept as it was"
    if check:
        return "would update" if document.all_kept else "would keep as it was"
    if id(document) in updated:
        return "updated" if document.all_kept else "accepted"
    return "kept as it was"


def _same_refs(analysis: Analysis, path: str) -> list[resync.RefDrift]:
    """The refs into a document equal to its file: each kept where it is."""
    return [
        resync.RefDrift(ref, analysis.session.ref_path(ref), "kept", ref.text, ref.text, None)
        if ref.valid
        else resync.RefDrift(ref, analysis.session.ref_path(ref), "unresolved", None, None, None)
        for ref in analysis.session.refs
        if ref.doc_path == path and ref.document is not None
    ]

"""``sourcecheck sync``: the session's documents brought up to date with their files, every
ref carried across the change (the logic is ``core/resync.py``'s; this is reading the files,
writing the session and saying what happened, for people and, with ``--json``, programs)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import disk
from ..core import resync
from ..core.analysis import Analysis
from ..core.display import visible
from ..core.session import Ref, pointer
from .files import load_session, write_atomically
from .wording import dump_json, in_quotes, plural, quoted


def ref_label(ref: Ref) -> str:
    """Where a ref is, for a person: its pointer in the session file."""
    return visible(pointer(ref.json_path))


def lines_of(line: int, end_line: int) -> str:
    return f"line {line}" if line == end_line else f"lines {line}-{end_line}"


def ref_place(ref: Ref) -> str:
    where = lines_of(ref.start.line, ref.end.line) if ref.start is not None and ref.end is not None else "?"
    return f"{quoted(ref.doc_path or '')}, {where}"


def read_files(session: Any, max_size_mb: int) -> dict[str, resync.FileState]:
    """What reading the file of each document of the session gives (see ``disk.document_file``)."""
    analysis: Analysis = session.analysis
    return {path: disk.document_file(session.folder, path, max_size_mb) for path in analysis.session.by_path}


def run_sync(args: argparse.Namespace) -> int:
    session = load_session(args.session, args.max_size_mb)
    analysis = session.analysis
    drift = resync.plan(analysis, read_files(session, args.max_size_mb))
    accept: bool = args.accept
    check: bool = args.check
    updated = [] if check else drift.updated(accept)
    written = False
    if updated:
        text = resync.applied(analysis.text, resync.edits(drift, accept))
        write_atomically(session.name, text, expect=session.data)
        written = True
    if args.json:
        sys.stdout.write(dump_json(sync_json(session, drift, check, accept, written)) + "\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in sync_lines(session, drift, check, accept)))
    return sync_exit(drift, check, accept)


def sync_exit(drift: resync.Drift, check: bool, accept: bool) -> int:
    """0 when, after this run, every document equals its file (``--check``: already does)."""
    if check:
        return 0 if drift.up_to_date else 1
    for document in drift.documents:
        if document.state == "unreadable":
            return 1
        if document.state == "changed":
            if not accept and document.changed_refs:
                return 1
            if accept and any(ref.anchor is None for ref in document.changed_refs):
                return 1
    return 0


def _said(text: str | None) -> str:
    return in_quotes(text) if text is not None else "deleted"


def sync_lines(session: Any, drift: resync.Drift, check: bool, accept: bool) -> list[str]:
    """What ``sync`` says of each document, then of each changed ref, then in sum."""
    analysis: Analysis = session.analysis
    shown = session.shown
    out: list[str] = []
    kept_back = missing = updated = 0
    for document in drift.documents:
        label = quoted(document.document.path)
        if document.state == "same":
            continue
        if isinstance(document.file, resync.Unreadable):
            missing += 1
            out.append(f"{label}: {document.file.reason}; its document is kept as it was")
            continue
        note = (
            f" ({document.file.note})" if isinstance(document.file, resync.FileContent) and document.file.note else ""
        )
        kept, changed = document.kept_refs, document.changed_refs
        moving = sum(1 for ref in kept if ref.moves)
        carried = f"{plural(len(kept), 'ref')} into it {'keeps its' if len(kept) == 1 else 'keep their'} text"
        if moving:
            carried += f" ({moving} re-anchored)"
        if not changed:
            updated += 1
            what = "`sourcecheck sync` would update it" if check else "its content is updated"
            out.append(f"{label}: its file has changed{note}; {carried}; {what}")
        elif accept and not check:
            updated += 1
            out.append(
                f"{label}: its file has changed{note}; {carried}, {plural(len(changed), 'ref')} "
                f"{'cites' if len(changed) == 1 else 'cite'} text that changed; accepted: its content is updated"
            )
        else:
            kept_back += 1
            out.append(
                f"{label}: its file has changed{note}; {carried}, but {plural(len(changed), 'ref')} "
                f"{'cites' if len(changed) == 1 else 'cite'} text that changed: the document is kept as it was"
            )
        for ref in changed:
            extent = analysis.tree.locate(ref.ref.json_path)
            line = analysis.lines.line_of(extent[0]) + 1 if extent is not None else 0
            said = f"{shown}:{line}: {ref_label(ref.ref)} ({ref_place(ref.ref)}): "
            said += f"was {_said(ref.was)}, now {_said(ref.now)}"
            if ref.reason is not None:
                said += f" ({visible(ref.reason)})"
            if accept and not check:
                if ref.anchor is not None:
                    where = lines_of(ref.anchor.start_line, ref.anchor.end_line)
                    said += f"; re-anchored to {where}: judge its claim again"
                else:
                    said += f"; left as it was (`sourcecheck {shown}` reports it)"
            out.append(said)
    out.append(sync_summary(shown, drift, check, accept, updated, kept_back, missing))
    return out


def sync_summary(
    shown: str, drift: resync.Drift, check: bool, accept: bool, updated: int, kept_back: int, missing: int
) -> str:
    if drift.up_to_date:
        return f"{shown}: up to date: every document equals its file"
    parts = []
    if updated:
        parts.append(f"{plural(updated, 'document')} {'out of date' if check else 'updated'}")
    if kept_back:
        parts.append(
            f"{plural(kept_back, 'document')} kept as {'it was' if kept_back == 1 else 'they were'} "
            "(refs cite text that changed)"
        )
    if missing:
        parts.append(f"{plural(missing, 'file')} not read")
    advice = ""
    if kept_back and not accept:
        advice = f"; judge the changed refs, then run `sourcecheck sync --accept {shown}`"
    elif check and updated:
        advice = f"; run `sourcecheck sync {shown}` to update it"
    return f"{shown}: " + ", ".join(parts) + advice


def sync_json(session: Any, drift: resync.Drift, check: bool, accept: bool, written: bool) -> dict[str, Any]:
    """``sync --json``: each document's state and each ref carried or changed, for programs."""
    updated = {id(d) for d in ([] if check else drift.updated(accept))}
    documents, refs = [], []
    for document in drift.documents:
        entry: dict[str, Any] = {"path": document.document.path, "state": document.state}
        if isinstance(document.file, resync.Unreadable):
            entry["reason"] = document.file.reason
        elif document.file.note:
            entry["note"] = document.file.note
        if document.state == "changed":
            entry["updated"] = id(document) in updated
        documents.append(entry)
        for ref in document.refs:
            if ref.state == "kept" and not ref.moves:
                continue
            refs.append(
                {
                    "pointer": ref.pointer,
                    "path": document.document.path,
                    "state": ref.state,
                    "was": ref.was,
                    "now": ref.now,
                    "ref": ref.anchor.as_json() if ref.anchor is not None else None,
                }
            )
    return {"exit_code": sync_exit(drift, check, accept), "written": written, "documents": documents, "refs": refs}

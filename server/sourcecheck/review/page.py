"""The review report as one self-contained HTML page.

The page is built here as text, and every piece of it that comes from the session (paths,
messages, the file name) goes through :func:`text`: ``visible()`` first (no control or bidi
character survives), then ``html.escape``. Document text is not in the markup at all: it is
in the JSON data block, written by :func:`json_for_script` so that it can close no element
(``<``, ``>`` and ``&`` are escaped) and holds no raw line separator or invisible character,
and the script only ever makes text nodes of it.

The page asks for nothing: a Content-Security-Policy allows only the one style sheet and the
one script (``static/report.css`` and ``static/report.js``, see :mod:`.assets`), by their
hashes, and nothing else at all (no connections, images, fonts, frames).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from ..core.analysis import Analysis
from ..core.display import json_escape, plural, visible
from ..core.explain import lines_said
from ..core.verdicts import VERDICTS, WEAK, percent
from .assets import csp, script, style
from .model import HIDDEN_CLASS, LETTER, FailingRef, Message, Review, build, script_data

MEANING = {
    "supported": "counted sources support it, none refutes",
    "contested": "counted sources both support and refute it",
    "refuted": "counted sources refute it, none supports",
    "unverified": "the claim resolves; no source counts",
    "unresolved": "the claim does not resolve",
}
WEAK_MEANING = f"the winning side\u2019s strongest source is below {WEAK:g}"
ROWS = 2000
"""Failing refs listed in the summary at most (the rest are counted)."""
OPEN = 8
"""A list of the summary this long or shorter is open; a longer one is opened by a click."""


_UNSAFE_IN_SCRIPT = re.compile(f"[<>&\u2028\u2029{HIDDEN_CLASS}]")


def json_for_script(value: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: ``<``, ``>``, ``&``,
    U+2028/2029 and every invisible or reordering character (lone surrogates included) as
    ``\\uXXXX`` escapes."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _UNSAFE_IN_SCRIPT.sub(json_escape, text)


def text(value: str) -> str:
    """Untrusted text as HTML text or attribute value: visible, then escaped."""
    return html.escape(visible(value), quote=True)


def render(analysis: Analysis, name: str, editor: bool = False) -> str:
    """The review report of a checked session, as one HTML page. ``name`` is what the page
    calls the session (its file name). With ``editor``, for an editor's webview: a click on a
    claim asks the editor (``acquireVsCodeApi().postMessage({type: "reveal", line})``) to show
    the line of the session file where its annotation starts (each claim's ``data-line``)."""
    review = build(analysis, name)
    return page(review, editor)


def page(review: Review, editor: bool) -> str:
    summary = review.summary
    title = f"Review of {review.name}"
    data = json_for_script(script_data(review, editor))
    claimed = [d for d in review.documents if d.claimed]
    others = [d for d in review.documents if not d.claimed]
    out: list[str] = [
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        f'<meta http-equiv="Content-Security-Policy" content="{csp()}">\n',
        '<meta name="referrer" content="no-referrer">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        '<meta name="color-scheme" content="light dark">\n',
        '<meta name="generator" content="sourcecheck report">\n',
        f"<title>{text(title)}</title>\n<style>{style().text}</style>\n</head>\n",
        f'<body class="{"editor" if editor else "browser"}">\n',
        '<header class="top"><div class="in">',
        f'<h1><span class="kicker">SourceCheck review</span><span class="path">{text(review.name)}</span></h1>',
        '<nav aria-label="Sections"><a href="#summary">Summary</a>',
    ]
    if claimed:
        out.append('<a href="#documents">Documents with claims</a>')
    if others:
        out.append('<a href="#sources">Source documents</a>')
    out.append("</nav>")
    out.append(keys_help())
    out.append(f'<p class="line" id="summary-line">{text(summary.line())}</p>')
    out.append(controls(review))
    out.append("</div></header>\n")
    out.append('<div class="layout">\n<main>\n')
    out.append(
        '<noscript><p class="card">This page draws the documents with its script; with scripts off, only the '
        "summary shows.</p></noscript>\n"
    )
    out.append(summary_section(review))
    if claimed:
        out.append('<section class="block" id="documents" aria-labelledby="documents-h">')
        out.append('<h2 id="documents-h">Documents with claims</h2>\n')
        for d in claimed:
            stats = (
                f"{lines_said(d.document)} · {plural(d.claims, 'claim')} · "
                f"{d.uncited_share} uncited ({d.uncited_characters:,} of {len(d.document.content):,} characters)"
            )
            if d.cited_spans:
                stats += f" · {plural(d.cited_spans, 'span')} cited as a source"
            out.append(
                f'<section class="doc" id="d{d.index}" aria-labelledby="d{d.index}-h"><header>'
                f'<h3 id="d{d.index}-h" class="path">{text(d.document.path)}</h3>'
                f'<span class="stats">{text(stats)}</span></header>'
                f'<div class="lines" data-doc="{d.index}"><p class="loading">Drawing the document…</p></div>'
                "</section>\n"
            )
        out.append("</section>\n")
    if others:
        out.append('<section class="block" id="sources" aria-labelledby="sources-h">')
        out.append(
            '<h2 id="sources-h">Source documents</h2><p class="muted">Each opens on a click; the spans cited '
            "from it are marked: a click on one tells which claims cite it.</p>\n"
        )
        for d in others:
            cited = plural(d.cited_spans, "span") + " cited" if d.cited_spans else "nothing cited"
            out.append(
                f'<details class="doc" id="d{d.index}" data-doc="{d.index}"><summary>'
                f'<h3 class="path">{text(d.document.path)}</h3>'
                f'<span class="stats">{text(cited)} · {lines_said(d.document)}</span></summary>'
                f'<div class="lines" data-doc="{d.index}"></div></details>\n'
            )
        out.append("</section>\n")
    out.append(
        '<section id="appendix" aria-label="Every claim with its sources"><h2>Every claim with its sources</h2>'
        "</section>\n</main>\n"
    )
    out.append('<aside id="panel" class="empty" tabindex="-1" aria-live="polite" aria-label="Sources"></aside>\n')
    out.append("</div>\n")
    out.append(f'<script type="application/json" id="sc-data">{data}</script>\n')
    out.append(f"<script>{script().text}</script>\n</body>\n</html>\n")
    return "".join(out)


def keys_help() -> str:
    rows = [
        ("j  n  ↓", "next claim"),
        ("k  p  ↑", "previous claim"),
        ("Enter", "show the focused claim's sources (a click does too)"),
        ("s", "move to the sources panel"),
        ("f", "filter the claims by verdict (then ← → choose)"),
        ("Esc", "clear the selection"),
        ("?", "this list"),
    ]
    items = "".join(f"<dt>{text(k)}</dt><dd>{text(v)}</dd>" for k, v in rows)
    return f'<details class="keys"><summary>Keyboard</summary><dl>{items}</dl></details>'


def mark(verdict: str, weak: bool = False) -> str:
    """A verdict's mark, as in the margin: its letter in a box; a weak one adds a small w
    and a dotted box."""
    if weak:
        return f'<span class="vm v-{verdict} weak">{LETTER[verdict]}<span class="wk">w</span></span>'
    return f'<span class="vm v-{verdict}">{LETTER[verdict]}</span>'


def controls(review: Review) -> str:
    """The filter by verdict and the documents' font. Both need the script, which shows them."""
    verdicts = review.summary.verdicts
    weak = sum(1 for v in verdicts if v.weak)
    options = [("all", "", "every claim", len(verdicts))]
    options += [(v, mark(v), MEANING[v], review.summary.count(v)) for v in VERDICTS]
    options.append(("weak", mark("supported", weak=True), WEAK_MEANING, weak))
    radios = "".join(
        f'<label title="{meaning}"><input type="radio" name="filter" value="{value}"{" checked" * (value == "all")}>'
        f'{shown}{value} <span class="num muted">{count:,}</span></label>'
        for value, shown, meaning, count in options
    )
    return (
        '<div class="controls" id="controls" hidden>'
        f'<fieldset class="filter" id="filter"><legend>Show claims <kbd>f</kbd></legend>{radios}</fieldset>'
        '<p class="muted" id="filter-status" aria-live="polite"></p>'
        '<label class="font" title="Documents are shown in a monospace face; this shows them in a serif one">'
        '<input type="checkbox" id="prose"> prose font for documents</label></div>'
    )


def summary_section(review: Review) -> str:
    summary = review.summary
    total = len(summary.verdicts)
    out = ['<section class="block" id="summary" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>']
    out.append('<div class="cards">')
    # claims by verdict
    out.append('<div class="card"><h3>Claims by verdict</h3>')
    if total:
        out.append('<div class="bar" aria-hidden="true">')
        for verdict in VERDICTS:
            count = summary.count(verdict)
            if count:
                out.append(f'<span class="v-{verdict}" data-share="{count}/{total}"></span>')
        out.append("</div>")
    out.append('<table class="verdicts"><tbody>')
    for verdict in VERDICTS:
        count = summary.count(verdict)
        out.append(
            f'<tr title="{MEANING[verdict]}"><td><span class="vm v-{verdict}">{LETTER[verdict]}</span> {verdict}</td>'
            f'<td class="num" data-verdict="{verdict}">{count:,}</td>'
            f'<td class="num muted">{percent(count / total) if total else "–"}</td></tr>'
        )
    out.append(f'</tbody><tfoot><tr><td>all claims</td><td class="num" data-total>{total:,}</td><td></td></tr>')
    out.append("</tfoot></table>")
    weak = summary.weakly_supported
    out.append(
        f'<p class="muted" data-weak="{weak}">{plural(weak, "claim")} supported only weakly '
        f"(strongest source below {WEAK:g})</p>"
    )
    out.append("</div>")
    # uncited text
    out.append('<div class="card"><h3>Uncited text</h3>')
    if summary.coverage:
        out.append('<table class="coverage"><tbody>')
        by_path = {d.document.path: d for d in review.documents}
        for cov in summary.coverage:
            d = by_path[cov.document.path]
            out.append(
                f'<tr><td><a class="path" href="#d{d.index}">{text(cov.document.path)}</a>'
                f'<div class="small muted">{cov.uncited_characters:,} of {cov.characters:,} characters</div></td>'
                f'<td class="num share" data-uncited="{d.index}">{text(d.uncited_share)}</td></tr>'
            )
        out.append("</tbody></table>")
        out.append('<p class="muted">Text that no resolved claim covers, whitespace aside.</p>')
    else:
        out.append('<p class="muted">No document holds a claim.</p>')
    out.append("</div>")
    # findings
    out.append('<div class="card"><h3>Findings</h3>')
    failing = len(review.failing)
    out.append(
        f'<p data-findings="{review.errors} {review.warnings} {review.hints}">'
        f"{plural(review.errors, 'error')}, {plural(review.warnings, 'warning')}, {plural(review.hints, 'hint')}</p>"
    )
    out.append(
        f'<p data-failing="{failing}">'
        + (f'<a href="#failing">{plural(failing, "failing ref")}</a>' if failing else "every ref resolves")
        + "</p>"
    )
    out.append("</div></div>")
    out.append(legend())
    out.append(failing_table(review.failing, review))
    if review.other:
        out.append(
            f'<details class="list"{" open" if len(review.other) <= OPEN else ""}><summary>'
            f'Other findings ({len(review.other):,})</summary><ul class="why">'
        )
        for message in review.other[:ROWS]:
            out.append(f"<li>{message_html(message)}</li>")
        out.append("</ul></details>")
    out.append(unresolved_list(review))
    out.append("</section>\n")
    return "".join(out)


def legend() -> str:
    items = [
        f'<li title="{MEANING[v]}"><span class="vm v-{v}">{LETTER[v]}</span><span class="sample seg v-{v}">{v}</span>'
        "</li>"
        for v in VERDICTS
        if v != "unresolved"
    ]
    items += [
        f'<li title="{MEANING["unresolved"]}"><span class="vm v-unresolved">X</span>unresolved</li>',
        f'<li title="{WEAK_MEANING}">{mark("supported", weak=True)}{mark("refuted", weak=True)}'
        f"weak (strongest source below {WEAK:g})</li>",
        '<li><span class="sample seg unc">uncited text</span></li>',
        '<li><span class="sample seg cs">cited, supports</span></li>',
        '<li><span class="sample seg cr">cited, refutes</span></li>',
    ]
    meanings = "".join(f"<dt>{v}</dt><dd>{MEANING[v]}</dd>" for v in VERDICTS)
    return (
        f'<div class="legend-row"><ul class="legend" aria-label="Legend">{"".join(items)}</ul>'
        f'<details class="meanings"><summary>What the verdicts mean</summary><dl>{meanings}'
        f"<dt>weak</dt><dd>{text(WEAK_MEANING)}: its mark has a small w and a dotted box</dd></dl></details></div>"
    )


def message_html(message: Message) -> str:
    return (
        f'<span class="sev {message.severity}">{message.severity}</span>'
        f'<span class="muted">session line {message.line} · {text(message.code)}: </span>{text(message.text)}'
    )


def failing_table(failing: list[FailingRef], review: Review) -> str:
    if not failing:
        return ""
    out = [
        f'<details class="list" id="failing"{" open" if len(failing) <= OPEN else ""}>'
        f"<summary>Failing refs ({len(failing):,})</summary>",
        '<table class="failing"><thead><tr><th>Session line</th><th>Ref</th><th>Document</th><th>Why</th><th></th>',
        "</tr></thead><tbody>",
    ]
    for row in failing[:ROWS]:
        claim = review.claims[row.claim]
        what = "claim" if row.source is None else f"source {row.source + 1}"
        line = row.messages[0].line if row.messages else claim.session_line
        path = f'<span class="path">{text(row.path)}</span>' if row.path is not None else '<span class="muted">—</span>'
        reasons = "".join(f"<li>{text(m.text)} <span class='muted'>({text(m.code)})</span></li>" for m in row.messages)
        out.append(
            f'<tr data-claim-row="{row.claim}"><td class="num">{line}</td>'
            f"<td>annotation {row.claim + 1}, {what}</td><td>{path}</td><td><ul>{reasons}</ul></td>"
            f'<td><button type="button" class="linkish show" data-claim="{row.claim}" '
            f'data-line="{claim.session_line}">show</button></td></tr>'
        )
    out.append("</tbody></table>")
    if len(failing) > ROWS:
        out.append(f'<p class="more">and {len(failing) - ROWS:,} more: `sourcecheck FILE` lists them all.</p>')
    out.append("</details>")
    return "".join(out)


def unresolved_list(review: Review) -> str:
    """The claims that do not resolve, as buttons: those with no line to sit on are reached
    only from here."""
    rows = [c for c in review.claims if c.verdict.verdict == "unresolved"]
    if not rows:
        return ""
    number = {claim: n for n, claim in enumerate(review.order(), 1)}
    out = [
        f'<details class="list" id="unresolved"{" open" if len(rows) <= OPEN else ""}>'
        f'<summary>Claims that do not resolve ({len(rows):,})</summary><ul class="why">'
    ]
    for claim in rows[:ROWS]:
        where = ""
        if claim.ref is not None and isinstance(claim.ref.doc_path, str):
            where = f' in <span class="path">{text(claim.ref.doc_path)}</span>'
            if claim.doc_line:
                where += f", line {claim.doc_line}"
        out.append(
            f'<li><button type="button" class="claim v-unresolved" id="x{claim.index}" data-claim="{claim.index}" '
            f'data-line="{claim.session_line}" data-n="{number[claim.index]}" '
            f'aria-label="claim {number[claim.index]}: unresolved">X</button> claim {number[claim.index]}, '
            f"annotation {claim.index + 1}{where} "
            f'<span class="muted">(session line {claim.session_line})</span></li>'
        )
    out.append("</ul></details>")
    return "".join(out)

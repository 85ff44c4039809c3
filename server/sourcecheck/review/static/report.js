// @ts-check
// The review report's script: draws the documents from the page's JSON data, lazily, and the
// sources of a claim on demand. It is put inline in the page, allowed by the page's
// Content-Security-Policy by its hash (review/assets.py), and type-checked with the VS Code
// extension's TypeScript (npm run typecheck:report in vscode-extension).
//
// Document text is untrusted: it only ever reaches the page as text nodes (`put`), with every
// control, bidirectional or zero-width character shown as an escape, as core/display.py's
// visible() writes it. No markup is ever made from data: no string is parsed as HTML or run as code.
//
// A document is drawn in chunks of lines: the first chunk at once, the others as they scroll
// near (an IntersectionObserver) or when the browser is idle; a source document when it is
// first opened. Before printing, everything is drawn and every claim's sources are listed.
//
// What the script shares with the Python side (the hidden characters, the verdict letters,
// the segment flags, the weak threshold) is in the data, `D.k` (review/model.py, shared()).

/**
 * A stretch of a document with marks: [start, end, kind, claims, sources], UTF-16 offsets.
 * @typedef {[number, number, number, number[], number[]]} Segment
 * @typedef {{p: string, t: string, c: boolean, s: Segment[], ls?: number[]}} Doc
 * A message: [severity, code, text, session line].
 * @typedef {[string, string, string, number]} Msg
 * [doc, span, verdict, doc line, session line, sources, support strength, refute strength,
 *  weak, messages, path, the words its sources do not have ("not in its sources: every")]
 * @typedef {[number, [number, number] | null, number, number, number, number[], number | null,
 *   number | null, boolean, Msg[], string | null, string | null]} Claim
 * [claim, doc, span, doc line, session line, polarity, polarity as written, confidence,
 *  confidence as written, counts, messages, path]
 * @typedef {[number, number, [number, number] | null, number, number, string | null, string | null,
 *   number | null, string | null, boolean, Msg[], string | null]} Source
 * @typedef {{hidden: string, letters: string[], shown: string[], uncited: number, supports: number,
 *   refutes: number, other: number, weak: number, aside: string}} Shared
 * @typedef {{name: string, editor: boolean, k: Shared, verdicts: string[], docs: Doc[], claims: Claim[],
 *   sources: Source[], order: number[]}} Data
 * @typedef {{postMessage(message: unknown): void, getState(): unknown, setState(state: unknown): void}} VsCodeApi
 * @typedef {{box: Element, chunks: HTMLElement[], done: boolean[], left: number, perRow: number}} View
 */

(() => {
"use strict";
/** @param {string} id */
function byId(id) { return /** @type {HTMLElement} */ (document.getElementById(id)); }
/** @type {Data} */
const D = JSON.parse(byId("sc-data").textContent || "null");
const V = D.verdicts;
const K = D.k;
const LETTER = K.letters;
const ICON = ["\u2713", "\u00b1", "\u2717", "?", "!"];
const CHUNK = 200;
const HIDDEN = new RegExp("[" + K.hidden + "]", "gu");
const KIND = K.shown.map((v) => (v ? " v-" + v : ""));
/** @type {(() => VsCodeApi) | undefined} */
const acquire = /** @type {any} */ (globalThis).acquireVsCodeApi;
const vscode = D.editor && typeof acquire === "function" ? acquire() : null;
const panel = byId("panel");
/** @type {Map<number, number[]>[]} */
const claimsAt = D.docs.map(() => new Map());
D.claims.forEach((c, i) => {
  if (c[0] >= 0 && c[3] > 0) {
    const m = claimsAt[c[0]];
    let list = m.get(c[3]);
    if (!list) m.set(c[3], (list = []));
    list.push(i);
  }
});
for (const m of claimsAt) {
  for (const list of m.values()) list.sort((a, b) => start(a) - start(b) || a - b);
}
/** @param {number} i */
function start(i) { const s = D.claims[i][1]; return s ? s[0] : -1; }
/** @type {Map<number, number>} */
const rank = new Map(D.order.map((c, k) => [c, k]));
/** A claim's number: its place in reading order (the order of j / k), from 1. @param {number} i */
function number(i) { return (rank.get(i) ?? i) + 1; }

// --- text, safely ---------------------------------------------------------------------
/**
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {string} [cls]
 * @param {unknown} [text]
 * @returns {HTMLElementTagNameMap[T]}
 */
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
/** @param {string} ch */
function escaped(ch) {
  if (ch === "\r") return "\\r";
  const c = ch.codePointAt(0) || 0;
  return c < 0x100 ? "\\x" + c.toString(16).padStart(2, "0") : "\\u" + c.toString(16).padStart(4, "0");
}
/**
 * Append untrusted text to a node: text nodes only, hidden characters as visible escapes.
 * @template {Node} T
 * @param {T} parent
 * @param {string} text
 * @returns {T}
 */
function put(parent, text) {
  let at = 0;
  HIDDEN.lastIndex = 0;
  let m;
  while ((m = HIDDEN.exec(text)) !== null) {
    if (m.index > at) parent.appendChild(document.createTextNode(text.slice(at, m.index)));
    const e = el("span", "esc", escaped(m[0]));
    e.title = "U+" + (m[0].codePointAt(0) || 0).toString(16).toUpperCase().padStart(4, "0");
    parent.appendChild(e);
    at = m.index + m[0].length;
  }
  if (at < text.length) parent.appendChild(document.createTextNode(text.slice(at)));
  return parent;
}
/**
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {string} cls
 * @param {string} text
 */
function putEl(tag, cls, text) { return put(el(tag, cls), text); }

// --- lines ------------------------------------------------------------------------------
/** @param {Doc} doc */
function starts(doc) {
  if (doc.ls) return doc.ls;
  const t = doc.t, ls = [0];
  let i = -1;
  while ((i = t.indexOf("\n", i + 1)) !== -1) ls.push(i + 1);
  doc.ls = ls;
  return ls;
}
/** @param {Doc} doc @param {number} n */
function lineEnd(doc, n) { const ls = starts(doc); return n + 1 < ls.length ? ls[n + 1] - 1 : doc.t.length; }
/** @param {Doc} doc @param {number} offset */
function lineOf(doc, offset) {
  const ls = starts(doc);
  let lo = 0, hi = ls.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (ls[mid] <= offset) lo = mid; else hi = mid - 1; }
  return lo;
}
/** @param {Doc} doc @param {number} offset */
function firstSeg(doc, offset) {
  const s = doc.s;
  let lo = 0, hi = s.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (s[mid][1] <= offset) lo = mid + 1; else hi = mid; }
  return lo;
}

/** @param {number} i */
function claimButton(i) {
  const c = D.claims[i], v = c[2];
  const b = el("button", "claim v-" + V[v] + (c[8] ? " weak" : ""), LETTER[v]);
  if (c[8]) b.appendChild(el("span", "wk", "w"));
  b.type = "button";
  b.id = "c" + i;
  b.dataset.claim = String(i);
  b.dataset.line = String(c[4]);
  b.dataset.n = String(number(i));
  b.title = "claim " + number(i) + ": " + V[v] + (c[8] ? ", weakly (" + weakly(c) + ")" : "") + " (annotation " +
    (i + 1) + ", at line " + c[4] + " of the session)";
  b.setAttribute("aria-label", b.title);
  return b;
}
/** What makes a claim weak: its winning side's strongest source. @param {Claim} c */
function weakly(c) {
  const strongest = c[2] === V.indexOf("refuted") ? c[7] : c[6];
  return "strongest source " + strongest + ", below " + K.weak;
}

/** @param {number} di @param {number} n @param {Node} into */
function renderLine(di, n, into) {
  const doc = D.docs[di], t = doc.t, segs = doc.s;
  const a = starts(doc)[n], b = lineEnd(doc, n);
  const row = el("div", "ln");
  row.id = "d" + di + "-L" + (n + 1);
  row.appendChild(el("span", "no", n + 1));
  const mk = el("span", "mk");
  for (const i of claimsAt[di].get(n + 1) || []) mk.appendChild(claimButton(i));
  row.appendChild(mk);
  const tx = el("span", "tx");
  let at = a, uncited = false;
  for (let k = firstSeg(doc, a); k < segs.length && segs[k][0] < b; k++) {
    const [s, e, kind, cl, sl] = segs[k];
    const from = Math.max(s, a), to = Math.min(e, b);
    if (from > at) put(tx, t.slice(at, from));
    if (to > from) {
      let cls = "seg" + KIND[kind & (K.uncited - 1)];
      if (kind & K.uncited) { cls += " unc"; uncited = true; }
      if (kind & K.supports) cls += " cs";
      if (kind & K.refutes) cls += " cr";
      if (kind & K.other) cls += " co";
      if (cl.length) cls += " cl" + filterClasses(cl);
      const sp = el("span", cls);
      if (cl.length) { sp.dataset.c = cl.join(" "); sp.dataset.line = String(D.claims[cl[0]][4]); }
      if (sl.length) sp.dataset.s = sl.join(" ");
      tx.appendChild(put(sp, t.slice(from, to)));
    }
    at = Math.max(at, to);
  }
  if (at < b) put(tx, t.slice(at, b));
  if (uncited) row.classList.add("has-u");
  row.appendChild(tx);
  into.appendChild(row);
}

// --- documents in chunks --------------------------------------------------------------------
/** @type {Map<number, View>} */
const views = new Map();
let scale = 1;
const observer = "IntersectionObserver" in window
  ? new IntersectionObserver((entries) => {
    for (const e of entries) {
      const t = /** @type {HTMLElement} */ (e.target);
      if (e.isIntersecting) renderChunk(Number(t.dataset.doc), Number(t.dataset.chunk));
    }
  }, { rootMargin: "1600px 0px" })
  : null;
/** @param {number} di @param {number} c */
function estimate(di, c) {
  const doc = D.docs[di], ls = starts(doc), perRow = /** @type {View} */ (views.get(di)).perRow;
  let rows = 0;
  for (let n = c * CHUNK; n < Math.min(ls.length, (c + 1) * CHUNK); n++) {
    rows += Math.max(1, Math.ceil((lineEnd(doc, n) - ls[n]) / perRow));
  }
  return rows * 25 * scale;
}
/** @param {number} di @returns {View | null} */
function setup(di) {
  let view = views.get(di);
  if (view) return view;
  const box = document.querySelector('.lines[data-doc="' + di + '"]');
  if (!box) return null;
  box.textContent = "";
  const count = Math.ceil(starts(D.docs[di]).length / CHUNK);
  view = { box, chunks: [], done: [], left: count, perRow: Math.max(20, Math.floor((box.clientWidth - 150) / 8.2)) };
  views.set(di, view);
  for (let c = 0; c < count; c++) {
    const ph = el("div", "chunk pending");
    ph.dataset.doc = String(di);
    ph.dataset.chunk = String(c);
    view.chunks.push(ph);
    view.done.push(false);
    box.appendChild(ph);
  }
  renderChunk(di, 0);
  for (let c = 1; c < count; c++) {
    view.chunks[c].style.height = estimate(di, c) + "px";
    if (observer) observer.observe(view.chunks[c]);
  }
  return view;
}
/** @param {number} di @param {number} c */
function renderChunk(di, c) {
  const view = setup(di);
  if (!view || c < 0 || c >= view.chunks.length || view.done[c]) return;
  view.done[c] = true;
  view.left--;
  const ph = view.chunks[c], frag = document.createDocumentFragment();
  const total = starts(D.docs[di]).length;
  for (let n = c * CHUNK; n < Math.min(total, (c + 1) * CHUNK); n++) renderLine(di, n, frag);
  const guess = c === 0 && view.chunks.length > 1 ? estimate(di, 0) : 0;
  ph.textContent = "";
  ph.appendChild(frag);
  ph.style.height = "";
  ph.classList.remove("pending");
  if (observer) observer.unobserve(ph);
  if (guess > 0) { const real = ph.offsetHeight; if (real > 0) scale = real / guess; }
  if (selected >= 0) mark(selected, true);
}
/** @param {number} di */
function openDoc(di) {
  const box = document.getElementById("d" + di);
  if (box instanceof HTMLDetailsElement && !box.open) box.open = true;
  return setup(di);
}
/** @param {number} di @param {number} first @param {number} last */
function ensureLines(di, first, last) {
  openDoc(di);
  for (let c = Math.floor((first - 1) / CHUNK); c <= Math.floor((last - 1) / CHUNK); c++) renderChunk(di, c);
}
/** @param {number} i */
function claimLines(i) {
  const c = D.claims[i];
  if (!c[1]) return [c[3], c[3]];
  const doc = D.docs[c[0]];
  return [lineOf(doc, c[1][0]) + 1, lineOf(doc, Math.max(c[1][0], c[1][1] - 1)) + 1];
}
/** @param {number} i */
function claimEl(i) {
  const c = D.claims[i];
  if (c[0] >= 0 && c[3] > 0) {
    const [first, last] = claimLines(i);
    ensureLines(c[0], first, last);
    return document.getElementById("c" + i);
  }
  return document.getElementById("x" + i);
}

// Idle time draws the rest of the documents with claims, so that find-in-page sees them.
/** @type {(f: (deadline: {timeRemaining(): number}) => void) => void} */
const idle = window.requestIdleCallback ? (f) => window.requestIdleCallback(f) : (f) => setTimeout(() => f({ timeRemaining: () => 8 }), 30);
/** @param {{timeRemaining(): number}} deadline */
function fill(deadline) {
  for (const [di, view] of views) {
    if (!D.docs[di].c) continue;
    for (let c = 0; c < view.chunks.length; c++) {
      if (deadline.timeRemaining() < 6) { idle(fill); return; }
      renderChunk(di, c);
    }
  }
}

// --- the sources of a claim ----------------------------------------------------------------
const WORDS = 60;
const AROUND = 200;
/** The nearest line with text before (`step` -1) or after (1) line `n`, its end or its start
 * at most AROUND characters of it; null when there is none within a few lines.
 * @param {Doc} doc @param {number} n @param {number} step */
function around(doc, n, step) {
  const ls = starts(doc);
  for (let k = n + step, left = 3; left > 0 && k >= 0 && k < ls.length; k += step, left--) {
    let a = ls[k], z = lineEnd(doc, k);
    if (!doc.t.slice(a, z).trim()) continue;
    const cut = z - a > AROUND;
    if (cut && step < 0) { a = z - AROUND; if (/[\udc00-\udfff]/.test(doc.t[a])) a++; }
    if (cut && step > 0) { z = a + AROUND; if (/[\ud800-\udbff]/.test(doc.t[z - 1])) z--; }
    const line = el("span", "ctx around");
    if (cut && step < 0) line.appendChild(document.createTextNode("\u2026"));
    put(line, doc.t.slice(a, z));
    if (cut && step > 0) line.appendChild(document.createTextNode("\u2026"));
    return line;
  }
  return null;
}
/** A cited span in its lines, with the nearest line of text before and after it (the speaker
 * of a quote is often on the line above). @param {number} di @param {number} s @param {number} e */
function quote(di, s, e) {
  const doc = D.docs[di], t = doc.t;
  const first = lineOf(doc, s), last = lineOf(doc, Math.max(s, e - 1));
  const ls = starts(doc)[first], le = lineEnd(doc, last);
  const before = around(doc, first, -1), after = around(doc, last, 1);
  let a = Math.max(ls, s - WORDS), z = Math.min(le, e + WORDS);
  if (a > ls) { const sp = t.indexOf(" ", a); if (sp !== -1 && sp < s && s - sp < WORDS) a = sp + 1; }
  if (z < le) { const sp = t.lastIndexOf(" ", z); if (sp > e) z = sp; }
  if (a > ls && a < s && /[\udc00-\udfff]/.test(t[a])) a++;
  if (z < le && z > e && /[\ud800-\udbff]/.test(t[z - 1])) z--;
  const q = el("blockquote", "quote");
  if (before) q.appendChild(before);
  if (a > ls) q.appendChild(el("span", "ctx", "\u2026"));
  if (a < s) q.appendChild(putEl("span", "ctx", t.slice(a, s)));
  const m = el("mark");
  if (e - s > 700) {
    put(m, t.slice(s, s + 320));
    m.appendChild(el("span", "ctx", " [\u2026 " + (e - s - 640) + " characters \u2026] "));
    put(m, t.slice(e - 320, e));
  } else put(m, t.slice(s, e));
  q.appendChild(m);
  if (z > e) q.appendChild(putEl("span", "ctx", t.slice(e, z)));
  if (z < le) q.appendChild(el("span", "ctx", "\u2026"));
  if (after) q.appendChild(after);
  return q;
}
/** @param {number} di @param {number} line */
function lineQuote(di, line) {
  const doc = D.docs[di], t = doc.t, n = line - 1;
  const a = starts(doc)[n], b = lineEnd(doc, n);
  const q = el("blockquote", "quote");
  put(q, t.slice(a, Math.min(b, a + 400)));
  if (b > a + 400) q.appendChild(el("span", "ctx", "\u2026"));
  return q;
}
/** @param {number} di @param {number} line @param {string} label */
function place(di, line, label) {
  const a = el("a");
  a.href = "#d" + di + "-L" + line;
  a.appendChild(putEl("span", "path", D.docs[di].p));
  a.appendChild(document.createTextNode(", " + label));
  return a;
}
/** @param {number} di @param {[number, number] | null} span @param {number} line */
function where(di, span, line) {
  const doc = D.docs[di];
  if (!span) return place(di, line, "line " + line);
  const first = lineOf(doc, span[0]) + 1, last = lineOf(doc, Math.max(span[0], span[1] - 1)) + 1;
  return place(di, first, first === last ? "line " + first : "lines " + first + "\u2013" + last);
}
/** @param {Msg[]} list */
function messages(list) {
  const ul = el("ul", "why");
  for (const [sev, code, text, line] of list) {
    const li = el("li");
    li.appendChild(el("span", "sev " + sev, sev));
    li.appendChild(el("span", "muted", "session line " + line + " \u00b7 " + code + ": "));
    put(li, text);
    ul.appendChild(li);
  }
  return ul;
}
/** @param {number | null} x */
function strength(x) { return x === null ? "none" : String(x); }

/** @param {number} k */
function sourceItem(k) {
  const [, di, span, line, sline, pol, polWritten, conf, confWritten, counts, msgs, path] = D.sources[k];
  const li = el("li", "src" + (pol ? " p-" + pol : "") + (counts ? "" : " nocount"));
  li.id = "s" + k;
  const head = el("p", "head");
  head.appendChild(el("span", "pm", pol === "supports" ? "\u2713" : pol === "refutes" ? "\u2717" : "?"));
  if (pol) head.appendChild(el("strong", "", pol));
  else {
    const b = el("strong", "", "polarity ");
    b.appendChild(putEl("span", "path", polWritten || "missing"));
    b.appendChild(document.createTextNode(" (not valid)"));
    head.appendChild(b);
  }
  const c = el("span", "", "confidence ");
  if (conf !== null) c.appendChild(document.createTextNode(String(conf)));
  else {
    c.appendChild(putEl("span", "path", confWritten || "missing"));
    c.appendChild(document.createTextNode(" (not valid)"));
  }
  head.appendChild(c);
  if (conf !== null && conf < K.weak) head.appendChild(el("span", "badge", "weak"));
  if (!counts) head.appendChild(el("span", "badge", "does not count"));
  li.appendChild(head);
  const loc = el("p", "muted");
  if (di >= 0 && (span || line > 0)) loc.appendChild(where(di, span, line));
  else if (di >= 0) loc.appendChild(putEl("span", "path", D.docs[di].p));
  else {
    loc.appendChild(document.createTextNode("document "));
    loc.appendChild(putEl("span", "path", path === null ? "(no path)" : path));
    loc.appendChild(document.createTextNode(" (not in the session)"));
  }
  loc.appendChild(document.createTextNode(" \u00b7 session line " + sline));
  if (vscode) {
    const r = el("button", "linkish reveal", "show in session");
    r.type = "button";
    r.dataset.reveal = String(sline);
    loc.appendChild(document.createTextNode(" "));
    loc.appendChild(r);
  }
  li.appendChild(loc);
  if (span) li.appendChild(quote(di, span[0], span[1]));
  else {
    const p = el("p", "", "does not resolve");
    p.prepend(el("span", "sev error", "failing"));
    li.appendChild(p);
    if (di >= 0 && line > 0) li.appendChild(lineQuote(di, line));
  }
  if (msgs.length) li.appendChild(messages(msgs));
  return li;
}

/** @param {number} i @param {boolean} preview */
function claimPane(i, preview) {
  const c = D.claims[i], [di, span, v, line, sline, srcs, sup, ref, weak, msgs, path, unsupported] = c;
  const pane = el("div", "pane" + (preview ? " preview" : ""));
  pane.dataset.claim = String(i);
  pane.appendChild(el("p", "eyebrow", "Claim " + number(i) + " of " + D.claims.length + " \u00b7 annotation " + (i + 1) +
    ", at line " + sline + " of the session" + (preview ? " \u00b7 preview" : "")));
  const h = el("h2");
  const letter = el("span", "vm v-" + V[v] + (weak ? " weak" : ""), LETTER[v]);
  if (weak) letter.appendChild(el("span", "wk", "w"));
  h.appendChild(letter);
  h.appendChild(el("span", "v-" + V[v], ICON[v] + " " + V[v]));
  if (weak) h.appendChild(el("span", "badge", "weak: " + weakly(c)));
  pane.appendChild(h);
  const loc = el("p", "muted");
  if (di >= 0 && (span || line > 0)) {
    loc.appendChild(document.createTextNode("in "));
    loc.appendChild(where(di, span, line));
  }
  else if (path !== null) {
    loc.appendChild(document.createTextNode("in "));
    loc.appendChild(putEl("span", "path", path));
    if (di < 0) loc.appendChild(document.createTextNode(" (not in the session)"));
  }
  if (loc.childNodes.length) pane.appendChild(loc);
  if (span) pane.appendChild(quote(di, span[0], span[1]));
  else if (di >= 0 && line > 0) pane.appendChild(lineQuote(di, line));
  if (unsupported) {
    const p = el("p", "unsupported");
    p.appendChild(putEl("strong", "", unsupported));
    p.appendChild(el("span", "muted", " (" + K.aside + ")"));
    pane.appendChild(p);
  }
  if (msgs.length) pane.appendChild(messages(msgs));
  const counted = srcs.filter((k) => D.sources[k][9]);
  const up = counted.filter((k) => D.sources[k][5] === "supports").length;
  pane.appendChild(el("p", "", counted.length + " of " + srcs.length + " source" + (srcs.length === 1 ? "" : "s") +
    " count: " + up + " support" + (up ? " (strongest " + strength(sup) + ")" : "") + ", " + (counted.length - up) +
    " refute" + (counted.length - up ? " (strongest " + strength(ref) + ")" : "")));
  if (srcs.length) {
    pane.appendChild(el("h3", "", "Sources"));
    const ol = el("ol", "srcs");
    for (const k of srcs) ol.appendChild(sourceItem(k));
    pane.appendChild(ol);
  }
  return pane;
}

/** @param {number[]} list @param {number} di */
function citedPane(list, di) {
  const pane = el("div", "pane");
  pane.appendChild(el("p", "eyebrow", "Cited text in a source document"));
  const h = el("h2");
  h.appendChild(putEl("span", "path", D.docs[di].p));
  pane.appendChild(h);
  pane.appendChild(el("p", "", "Cited by " + list.length + " source" + (list.length === 1 ? "" : "s") + ":"));
  const ol = el("ol", "srcs");
  for (const k of list) {
    const s = D.sources[k], c = D.claims[s[0]];
    const li = el("li", "src" + (s[5] ? " p-" + s[5] : "") + (s[9] ? "" : " nocount"));
    const head = el("p", "head");
    head.appendChild(el("span", "pm", s[5] === "supports" ? "\u2713" : s[5] === "refutes" ? "\u2717" : "?"));
    head.appendChild(el("strong", "", (s[5] || "no valid polarity") + " \u00b7 confidence " +
      (s[7] !== null ? s[7] : "not valid")));
    head.appendChild(document.createTextNode(" for "));
    const b = el("button", "linkish", "claim " + number(s[0]));
    b.type = "button";
    b.dataset.claim = String(s[0]);
    head.appendChild(b);
    head.appendChild(el("span", "vm v-" + V[c[2]], LETTER[c[2]]));
    head.appendChild(el("span", "muted", V[c[2]]));
    li.appendChild(head);
    if (c[1]) li.appendChild(quote(c[0], c[1][0], c[1][1]));
    ol.appendChild(li);
  }
  pane.appendChild(ol);
  return pane;
}

/** @param {Node} pane */
function show(pane) {
  panel.textContent = "";
  panel.appendChild(pane);
  panel.classList.remove("empty");
}
function emptyPanel() {
  const pane = el("div", "pane");
  pane.appendChild(el("p", "hint", "Select a claim to see its sources: click it, or move with j / k and press Enter."));
  show(pane);
  panel.classList.add("empty");
}

// --- the filter by verdict, and the documents' font ------------------------------------------
// The filter hides, on screen only, the margin marks and the text marks of the claims of other
// verdicts, and j / k skip them; print shows every claim. Both choices are kept: in an editor's
// webview for the panel's life (its page is replaced after each edit), in a browser the font.
const FILTERS = ["all", ...V, "weak"];
let filter = "all";
const controls = document.getElementById("controls");
const filterBox = document.getElementById("filter");
const filterStatus = document.getElementById("filter-status");
const prose = document.getElementById("prose");
/** @param {number} i */
function matches(i) {
  const c = D.claims[i];
  return filter === "all" || (filter === "weak" ? c[8] : V[c[2]] === filter);
}
/** The classes of a stretch of claim text: one per filter a claim in it matches. @param {number[]} claims */
function filterClasses(claims) {
  const found = new Set();
  for (const i of claims) {
    found.add(" f-" + V[D.claims[i][2]]);
    if (D.claims[i][8]) found.add(" f-weak");
  }
  return [...found].join("");
}
/** @param {string} value @param {boolean} remember */
function setFilter(value, remember) {
  filter = FILTERS.includes(value) ? value : "all";
  if (filter === "all") delete document.body.dataset.filter;
  else document.body.dataset.filter = filter;
  if (filterBox) {
    for (const radio of filterBox.querySelectorAll("input[name=filter]")) {
      if (radio instanceof HTMLInputElement) radio.checked = radio.value === filter;
    }
  }
  if (filterStatus) {
    const n = D.order.filter(matches).length;
    filterStatus.textContent = filter === "all" ? "" : "showing " + n + " of " + D.claims.length + " claims: " + filter;
  }
  if (remember) save();
}
/** @param {boolean} on @param {boolean} remember */
function setProse(on, remember) {
  document.body.classList.toggle("prose", on);
  if (prose instanceof HTMLInputElement) prose.checked = on;
  if (remember) save();
}
const KEY = "sourcecheck.report";
/** @returns {{prose?: unknown, filter?: unknown}} */
function load() {
  try {
    const state = vscode ? vscode.getState() : JSON.parse(localStorage.getItem(KEY) || "null");
    return state && typeof state === "object" ? state : {};
  } catch {
    return {};
  }
}
function save() {
  const on = document.body.classList.contains("prose");
  try {
    if (vscode) vscode.setState({ prose: on, filter });
    else localStorage.setItem(KEY, JSON.stringify({ prose: on }));
  } catch {
    // storage refused (a sandboxed frame): the choice holds for this page only
  }
}

// --- selection ------------------------------------------------------------------------------
let selected = -1, shown = -1;
/** @param {number} i @param {boolean} on */
function mark(i, on) {
  const c = D.claims[i];
  const scope = c[0] >= 0 ? document.getElementById("d" + c[0]) : null;
  const found = scope ? scope.querySelectorAll('[data-c~="' + i + '"]') : [];
  for (const e of found) e.classList.toggle("sel", on);
  const b = document.getElementById("c" + i) || document.getElementById("x" + i);
  if (b) b.classList.toggle("sel", on);
}
/** @param {number} i @param {{focus?: boolean, reveal?: boolean}} how */
function select(i, how) {
  if (selected >= 0) mark(selected, false);
  selected = i;
  const b = claimEl(i);
  mark(i, true);
  shown = i;
  show(claimPane(i, false));
  if (how.focus && b) {
    b.focus({ preventScroll: true });
    const r = b.getBoundingClientRect();
    if (r.top < 80 || r.bottom > window.innerHeight - 80) b.scrollIntoView({ block: "center" });
  }
  if (how.reveal && vscode) vscode.postMessage({ type: "reveal", line: D.claims[i][4] });
}
/** @param {number} i */
function preview(i) {
  // On a narrow page the panel lies over the bottom of the text: a preview there would
  // cover the claim under the pointer, which could then not be clicked.
  if (i === shown || getComputedStyle(panel).position === "fixed") return;
  shown = i;
  show(claimPane(i, i !== selected));
}
function unpreview() {
  if (shown === selected) return;
  shown = selected;
  if (selected >= 0) show(claimPane(selected, false)); else emptyPanel();
}
/** @param {number} delta */
function move(delta) {
  const n = D.order.length;
  const at = selected >= 0 ? (rank.get(selected) ?? -1) : delta > 0 ? -1 : n;
  for (let k = at + delta; k >= 0 && k < n; k += delta) {
    if (matches(D.order[k])) { select(D.order[k], { focus: true }); return; }
  }
  if (selected >= 0 && matches(selected)) select(selected, { focus: true }); // at the end: stay
}
/**
 * The nearest element around `target` (itself included) that matches `selector`.
 * @param {Element} target
 * @param {string} selector
 * @returns {HTMLElement | null}
 */
function up(target, selector) {
  const found = target.closest(selector);
  return found instanceof HTMLElement ? found : null;
}
/** @param {HTMLElement} e @param {string} name */
function numbers(e, name) { return (e.dataset[name] || "").split(" ").map(Number); }
/** @param {Element} target */
function claimOf(target) {
  const b = up(target, "[data-claim]");
  if (b && !b.classList.contains("pane")) return Number(b.dataset.claim);
  const s = up(target, ".seg.cl");
  if (!s) return -1;
  const list = numbers(s, "c");
  const at = list.indexOf(selected);
  return list[(at + 1) % list.length];
}
/** @param {number} di @param {number} line */
function flashLine(di, line) {
  ensureLines(di, line, line);
  const row = document.getElementById("d" + di + "-L" + line);
  if (!row) return;
  row.scrollIntoView({ block: "center" });
  row.classList.add("flash");
  setTimeout(() => row.classList.remove("flash"), 1600);
}

document.addEventListener("click", (event) => {
  const t = event.target;
  if (!(t instanceof Element)) return;
  const reveal = up(t, "[data-reveal]");
  if (reveal) { if (vscode) vscode.postMessage({ type: "reveal", line: Number(reveal.dataset.reveal) }); return; }
  const link = t.closest('a[href^="#"]');
  if (link) {
    const href = link.getAttribute("href") || "", m = /^#d(\d+)-L(\d+)$/.exec(href);
    if (m) { event.preventDefault(); flashLine(+m[1], +m[2]); return; }
    const to = document.getElementById(href.slice(1));
    if (to instanceof HTMLDetailsElement) to.open = true;
    return;
  }
  const i = claimOf(t);
  if (i >= 0) { select(i, { focus: true, reveal: true }); return; }
  const cited = up(t, ".seg[data-s]");
  const lines = cited && up(cited, ".lines");
  if (cited && lines) {
    const di = Number(lines.dataset.doc);
    if (selected >= 0) mark(selected, false);
    selected = shown = -1;
    show(citedPane(numbers(cited, "s"), di));
  }
});
document.addEventListener("mouseover", (event) => {
  const t = event.target;
  if (!(t instanceof Element) || t.closest("#panel")) return;
  const hit = up(t, ".claim, .seg.cl");
  if (hit) preview(hit.classList.contains("claim") ? Number(hit.dataset.claim) : numbers(hit, "c")[0]);
  else if (shown !== selected && t.closest(".lines")) unpreview();
});
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const t = event.target;
  if (t instanceof Element && t.closest('input:not([type="radio"]):not([type="checkbox"]), textarea, select, [contenteditable]')) return;
  const onClaim = t instanceof Element && t.classList.contains("claim");
  const key = event.key;
  if (key === "j" || key === "n" || (onClaim && (key === "ArrowDown" || key === "ArrowRight"))) move(1);
  else if (key === "k" || key === "p" || (onClaim && (key === "ArrowUp" || key === "ArrowLeft"))) move(-1);
  else if (key === "s" && shown >= 0) { panel.focus(); }
  else if (key === "f" && filterBox) {
    const on = filterBox.querySelector("input[name=filter]:checked");
    if (on instanceof HTMLElement) on.focus();
  }
  else if (key === "Escape") {
    if (selected >= 0) {
      const b = document.getElementById("c" + selected);
      mark(selected, false);
      selected = shown = -1;
      emptyPanel();
      if (b) b.focus();
    }
  } else if (key === "?") { const k = document.querySelector("details.keys"); if (k instanceof HTMLDetailsElement) k.open = !k.open; }
  else return;
  event.preventDefault();
});
document.addEventListener("toggle", (event) => {
  const d = event.target;
  if (d instanceof HTMLDetailsElement && d.open && d.dataset.doc !== undefined) setup(Number(d.dataset.doc));
}, true);

// --- printing: everything drawn, every claim with its sources ------------------------------
let printed = false;
function forPrint() {
  if (printed) return;
  printed = true;
  for (const d of document.querySelectorAll("details.list, details.meanings")) if (d instanceof HTMLDetailsElement) d.open = true;
  for (let di = 0; di < D.docs.length; di++) {
    const view = openDoc(di);
    if (view) for (let c = 0; c < view.chunks.length; c++) renderChunk(di, c);
  }
  const box = document.getElementById("appendix");
  if (!box) return;
  const frag = document.createDocumentFragment();
  for (const i of D.order) frag.appendChild(claimPane(i, false));
  box.appendChild(frag);
}
window.addEventListener("beforeprint", forPrint);
if (window.matchMedia) {
  const media = window.matchMedia("print");
  if (media.addEventListener) media.addEventListener("change", (e) => { if (e.matches) forPrint(); });
}

// --- start ------------------------------------------------------------------------------------
const kept = load();
setProse(kept.prose === true, false);
setFilter(typeof kept.filter === "string" ? kept.filter : "all", false);
if (filterBox) {
  filterBox.addEventListener("change", (event) => {
    const t = event.target;
    if (t instanceof HTMLInputElement && t.checked) setFilter(t.value, true);
  });
}
if (prose instanceof HTMLInputElement) prose.addEventListener("change", () => setProse(prose.checked, true));
if (controls) controls.hidden = false;
for (const s of document.querySelectorAll(".bar span[data-share]")) {
  if (!(s instanceof HTMLElement)) continue;
  const [a, b] = (s.dataset.share || "0/1").split("/").map(Number);
  s.style.width = (100 * a / b) + "%";
}
emptyPanel();
for (let di = 0; di < D.docs.length; di++) if (D.docs[di].c) setup(di);
idle(fill);
const target = /^#d(\d+)-L(\d+)$/.exec(location.hash);
if (target) flashLine(+target[1], +target[2]);
/** @type {any} */ (window).sourcecheckReview = { select: (/** @type {number} */ i) => select(i, { focus: true }), forPrint, views, ready: true };
document.documentElement.dataset.ready = "1";
if (window.performance && performance.mark) performance.mark("sourcecheck-drawn");
})();

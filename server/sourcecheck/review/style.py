"""The report's style sheet: light and dark, screen and print, marks that do not rely on colour.

Each verdict has a letter in the margin and its own underline (solid, double, wavy, dashed);
uncited text is hatched with a dotted underline and a dotted bar before its line; cited
source spans are underlined solid (supports) or wavy (refutes). Colour only adds to that.
"""

STYLE = """
:root {
  color-scheme: light dark;
  --bg: #fbfaf7; --fg: #1f2328; --muted: #59636e; --faint: #8c959f; --rule: #e4e2dc;
  --card: #ffffff; --raised: #f3f1ec; --focus: #0a69da; --link: #0a5cc2; --mark: #fff2a8;
  --sup: #1a7f37; --sup-bg: #e3f6e8; --con: #9a6700; --con-bg: #fcf0cc;
  --ref: #c7222c; --ref-bg: #fde4e3; --unv: #6639ba; --unv-bg: #efe8fb; --unr: #59636e; --unr-bg: #ebecee;
  --unc: #8c959f; --hatch: rgba(120, 120, 120, .16);
  --cs-bg: rgba(26, 127, 55, .13); --cr-bg: rgba(199, 34, 44, .12);
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", "Apple Color Emoji",
    "Segoe UI Emoji", "Noto Color Emoji", sans-serif;
  --text: Charter, "Bitstream Charter", "Sitka Text", Cambria, "Noto Serif", "DejaVu Serif", "Apple Color Emoji",
    "Segoe UI Emoji", "Noto Color Emoji", serif;
  --mono: ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14161a; --fg: #e6e6e3; --muted: #a1a9b3; --faint: #737b86; --rule: #2b2f36;
    --card: #1b1e23; --raised: #23272e; --focus: #5aa5ff; --link: #7cb7ff; --mark: #5a4d12;
    --sup: #4ac26b; --sup-bg: #15301e; --con: #e3b341; --con-bg: #3a2e0f;
    --ref: #ff7b72; --ref-bg: #43191b; --unv: #bc98f5; --unv-bg: #2c2142; --unr: #a1a9b3; --unr-bg: #2a2e35;
    --unc: #737b86; --hatch: rgba(200, 200, 200, .10);
    --cs-bg: rgba(74, 194, 107, .16); --cr-bg: rgba(255, 123, 114, .16);
  }
}
body.vscode-light { color-scheme: light; }
body.vscode-dark, body.vscode-high-contrast {
  color-scheme: dark;
  --bg: var(--vscode-editor-background, #1e1e1e); --fg: var(--vscode-editor-foreground, #d4d4d4);
  --muted: #a1a9b3; --faint: #737b86; --rule: #2b2f36; --card: #202327; --raised: #2a2d33;
  --focus: var(--vscode-focusBorder, #5aa5ff); --link: var(--vscode-textLink-foreground, #7cb7ff); --mark: #5a4d12;
  --sup: #4ac26b; --sup-bg: #15301e; --con: #e3b341; --con-bg: #3a2e0f;
  --ref: #ff7b72; --ref-bg: #43191b; --unv: #bc98f5; --unv-bg: #2c2142; --unr: #a1a9b3; --unr-bg: #2a2e35;
  --unc: #737b86; --hatch: rgba(200, 200, 200, .10);
  --cs-bg: rgba(74, 194, 107, .16); --cr-bg: rgba(255, 123, 114, .16);
}

* { box-sizing: border-box; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; font: 15px/1.5 var(--sans); background: var(--bg); color: var(--fg); }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 3px; }
button { font: inherit; color: inherit; }
h1, h2, h3 { line-height: 1.25; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.path { font-family: var(--mono); font-size: .92em; overflow-wrap: break-word; }
.muted { color: var(--muted); }
.small { font-size: 13px; }
td.share { font-size: 17px; font-weight: 600; }
.esc { font-family: var(--mono); font-size: .85em; padding: 0 2px; border-radius: 3px;
  background: var(--raised); color: var(--ref); outline: 1px solid var(--rule); }

.top { border-bottom: 1px solid var(--rule); background: var(--card); }
.top .in { max-width: 1560px; margin: 0 auto; padding: 14px 24px 12px; display: flex; gap: 10px 28px;
  align-items: baseline; flex-wrap: wrap; }
.top h1 { font-size: 19px; margin: 0; font-weight: 650; }
.top h1 .kicker { color: var(--muted); font-weight: 500; margin-right: .4em; }
.top nav { display: flex; gap: 16px; flex-wrap: wrap; font-size: 14px; }
.top .line { margin: 0; color: var(--muted); flex-basis: 100%; font-size: 14px; }
details.keys { margin-left: auto; font-size: 14px; position: relative; }
details.keys summary { cursor: pointer; color: var(--muted); }
details.keys dl { position: absolute; right: 0; z-index: 5; background: var(--card); border: 1px solid var(--rule);
  border-radius: 8px; padding: 10px 14px; margin: 6px 0 0; width: 330px; box-shadow: 0 6px 24px rgba(0,0,0,.15);
  display: grid; grid-template-columns: auto 1fr; gap: 4px 12px; }
details.keys dt { font-family: var(--mono); white-space: nowrap; }
details.keys dd { margin: 0; }
kbd { font-family: var(--mono); font-size: .85em; border: 1px solid var(--rule); border-bottom-width: 2px;
  border-radius: 4px; padding: 0 4px; background: var(--raised); }

.layout { max-width: 1560px; margin: 0 auto; padding: 0 24px 48px; display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(320px, 440px); gap: 28px; align-items: start; }
main { min-width: 0; }
section.block { margin-top: 22px; }
section.block > h2 { font-size: 17px; margin: 0 0 10px; }

.cards { display: flex; flex-wrap: wrap; gap: 16px; }
.card { background: var(--card); border: 1px solid var(--rule); border-radius: 10px; padding: 12px 16px; }
.cards > .card { flex: 1 1 250px; }
.card p { margin: 6px 0 0; }
table.verdicts td, table.coverage td { border-bottom: 0; padding: 2px 6px 2px 0; }
.card h3 { font-size: 14px; margin: 0 0 8px; color: var(--muted); font-weight: 600; text-transform: uppercase;
  letter-spacing: .04em; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--rule); vertical-align: top; text-align: left; }
th { font-weight: 600; color: var(--muted); }
tfoot td { border-bottom: 0; font-weight: 600; }
.bar { display: flex; height: 10px; border-radius: 5px; overflow: hidden; margin: 6px 0 10px;
  background: var(--raised); }
.bar span { display: block; height: 100%; }
.bar .v-supported { background: var(--sup); } .bar .v-contested { background: var(--con); }
.bar .v-refuted { background: var(--ref); } .bar .v-unverified { background: var(--unv); }
.bar .v-unresolved { background: var(--unr); }
table.failing { table-layout: fixed; }
table.failing td { overflow-wrap: anywhere; }
table.failing th:nth-child(1) { width: 5.5em; } table.failing th:nth-child(2) { width: 8em; }
table.failing th:nth-child(3) { width: 24%; } table.failing th:nth-child(5) { width: 3.5em; }
table.failing ul, .why { margin: 0; padding-left: 1.1em; }
.more { color: var(--muted); font-size: 13px; margin: 6px 0 0; }
.legend-row { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 24px; margin: 14px 2px 4px; }
details.meanings { font-size: 13.5px; color: var(--muted); }
details.meanings summary { cursor: pointer; }
details.meanings dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 6px 0 0; }
details.meanings dt { font-weight: 600; }
details.meanings dd { margin: 0; }
details.list { margin: 12px 0 0; background: var(--card); border: 1px solid var(--rule); border-radius: 10px;
  padding: 8px 14px; }
details.list > summary { cursor: pointer; font-weight: 600; }
details.list[open] > summary { margin-bottom: 6px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 13.5px; margin: 0; padding: 0; list-style: none; }
.legend li { display: flex; align-items: center; gap: 6px; }
.legend .sample { font-family: var(--text); font-size: 15px; padding: 0 2px; }
.linkish { background: none; border: 0; padding: 0; color: var(--link); text-decoration: underline; cursor: pointer; }

/* verdict marks: a letter in a box, its shape the same in print */
.vm, .claim { display: inline-flex; align-items: center; justify-content: center; min-width: 1.55em; height: 1.45em;
  padding: 0 3px; border-radius: 4px; font: 700 11.5px/1 var(--sans); border: 1.5px solid currentColor; }
.claim { cursor: pointer; background: var(--card); }
.claim.sel, .claim:hover { box-shadow: 0 0 0 2px var(--focus); }
.v-supported { color: var(--sup); } .v-contested { color: var(--con); } .v-refuted { color: var(--ref); }
.v-unverified { color: var(--unv); } .v-unresolved { color: var(--unr); border-style: dashed; }
.vm.v-supported, .claim.v-supported { background: var(--sup-bg); }
.vm.v-contested, .claim.v-contested { background: var(--con-bg); }
.vm.v-refuted, .claim.v-refuted { background: var(--ref-bg); }
.vm.v-unverified, .claim.v-unverified { background: var(--unv-bg); }
.vm.v-unresolved, .claim.v-unresolved { background: var(--unr-bg); }

/* documents */
.doc { background: var(--card); border: 1px solid var(--rule); border-radius: 10px; margin: 0 0 16px; }
.doc > header, .doc > summary { padding: 10px 16px; border-bottom: 1px solid var(--rule); }
.doc > summary { cursor: pointer; list-style-position: inside; }
details.doc:not([open]) > summary { border-bottom: 0; }
.doc h3 { display: inline; font-size: 15px; margin: 0; }
.doc .stats { color: var(--muted); font-size: 13.5px; margin-left: .6em; }
.lines { padding: 8px 0 10px; font: 15.5px/1.6 var(--text); }
.lines .loading { padding: 0 16px; color: var(--muted); font-family: var(--sans); }
.chunk { content-visibility: auto; contain-intrinsic-size: auto 1200px; }
.chunk.pending { content-visibility: visible; }
.ln { display: flex; align-items: flex-start; min-height: 1.6em; }
.ln:target, .ln.flash { background: var(--mark); }
.no { flex: 0 0 3.6em; padding-right: .7em; text-align: right; color: var(--faint); font: 12px/2.05 var(--mono);
  user-select: none; }
.mk { flex: 0 0 3.9em; display: flex; flex-wrap: wrap; gap: 2px; justify-content: flex-end; padding: 2px 6px 0 0; }
.tx { flex: 1 1 auto; min-width: 0; white-space: pre-wrap; overflow-wrap: anywhere; padding: 0 16px 0 8px;
  border-left: 3px solid transparent; tab-size: 4; }
.ln.has-u .tx { border-left: 3px dotted var(--unc); }
.seg { text-decoration-skip-ink: none; text-underline-offset: 3px; }
.seg.cl { cursor: pointer; border-radius: 2px; }
.seg.v-supported { background: var(--sup-bg); text-decoration: underline solid var(--sup) 2px; color: inherit; }
.seg.v-contested { background: var(--con-bg); text-decoration: underline double var(--con) 3px; color: inherit; }
.seg.v-refuted { background: var(--ref-bg); text-decoration: underline wavy var(--ref) 1.5px; color: inherit; }
.seg.v-unverified { background: var(--unv-bg); text-decoration: underline dashed var(--unv) 2px; color: inherit; }
.seg.unc { background-image: repeating-linear-gradient(135deg, transparent 0 5px, var(--hatch) 5px 7px);
  text-decoration: underline dotted var(--unc) 1.5px; }
.seg.cs { background-color: var(--cs-bg); text-decoration: underline solid var(--sup) 2px; cursor: pointer; }
.seg.cr { background-color: var(--cr-bg); text-decoration: underline wavy var(--ref) 1.5px; cursor: pointer; }
.seg.co { text-decoration: underline dashed var(--faint) 2px; cursor: pointer; }
.seg.cs.cr { text-decoration: underline double var(--con) 3px; }
.seg.sel { outline: 2px solid var(--focus); outline-offset: 1px; }
.seg.flash { outline: 3px solid var(--focus); }

/* the sources panel */
aside#panel { position: sticky; top: 0; max-height: 100vh; overflow: auto; padding: 22px 2px 24px; }
aside#panel:focus { outline: none; }
.pane { background: var(--card); border: 1px solid var(--rule); border-radius: 10px; padding: 14px 16px; }
.pane.preview { border-style: dashed; }
.pane .eyebrow { margin: 0 0 4px; color: var(--muted); font-size: 13px; }
.pane h2 { font-size: 17px; margin: 0 0 6px; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.pane h3 { font-size: 13px; margin: 14px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.pane p { margin: 4px 0; }
.badge { font: 600 12px/1.6 var(--sans); padding: 0 7px; border-radius: 9px; border: 1px solid currentColor; }
.quote { margin: 6px 0 8px; padding: 6px 10px; border-left: 3px solid var(--rule); background: var(--raised);
  border-radius: 0 6px 6px 0; font: 14.5px/1.55 var(--text); white-space: pre-wrap; overflow-wrap: anywhere; }
.quote mark { background: var(--mark); color: inherit; padding: 0 1px; border-radius: 2px; }
.quote .ctx { color: var(--muted); }
ol.srcs { list-style: none; padding: 0; margin: 0; display: grid; gap: 10px; }
.src { border: 1px solid var(--rule); border-radius: 8px; padding: 8px 10px; }
.src.p-supports { border-left: 4px solid var(--sup); }
.src.p-refutes { border-left: 4px double var(--ref); }
.src.nocount { border-left: 4px dashed var(--faint); }
.src .head { display: flex; flex-wrap: wrap; gap: 2px 8px; align-items: baseline; font-size: 14px; }
.pm { font-weight: 700; }
.p-supports .pm { color: var(--sup); } .p-refutes .pm { color: var(--ref); }
.why li { font-size: 13.5px; }
.sev { font: 600 11px/1.5 var(--sans); text-transform: uppercase; letter-spacing: .04em; padding: 0 5px;
  border-radius: 3px; border: 1px solid currentColor; margin-right: 4px; }
.sev.error { color: var(--ref); } .sev.warning { color: var(--con); } .sev.hint { color: var(--muted); }
.hint { color: var(--muted); }
#appendix { display: none; }

@media (max-width: 980px) {
  .layout { grid-template-columns: minmax(0, 1fr); }
  aside#panel { position: fixed; left: 0; right: 0; bottom: 0; max-height: 42vh; padding: 0; z-index: 4;
    box-shadow: 0 -4px 18px rgba(0,0,0,.18); }
  aside#panel .pane { border-radius: 10px 10px 0 0; }
  aside#panel.empty { display: none; }
}

@media print {
  :root { --bg: #fff; --fg: #000; --card: #fff; --raised: #fff; --rule: #bbb; --muted: #333; --faint: #555;
    --sup: #000; --con: #000; --ref: #000; --unv: #000; --unr: #000; --unc: #555; --link: #000; --mark: #fff; }
  body { font-size: 11pt; }
  .top nav, details.keys, aside#panel, noscript, .linkish.show { display: none !important; }
  .layout { display: block; padding: 0; }
  .doc, .card, .pane { border-color: #999; break-inside: auto; }
  .seg, .vm, .claim, .quote, .src { background: none !important; }
  .chunk, .chunk.pending { content-visibility: visible; height: auto !important; }
  .ln { break-inside: avoid; }
  .claim::after { content: attr(data-n); font-weight: 400; margin-left: 1px; }
  .quote mark { text-decoration: underline 1.5px; }
  #appendix { display: block; break-before: page; }
  #appendix .pane { margin: 0 0 10px; break-inside: avoid; }
  a { text-decoration: none; }
}
"""

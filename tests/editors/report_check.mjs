// Drives the review report (`sourcecheck report`) in headless Chromium and prints what it saw
// as JSON. One browser, one fresh page per check:
//   orbit:   renders, a click on a claim shows its sources, j/k and arrows move between claims,
//            Enter shows, print draws every claim's sources; screenshots (light, dark);
//   hostile: everything drawn, clicked, hovered and printed; no injected script may run;
//   editor:  a click on a claim posts {type: "reveal", line} to acquireVsCodeApi();
//   reading: a session written out of reading order: j / k and the numbers in the panel, the
//            weak marks, the documents' font and its toggle, the filter by verdict (keyboard,
//            screen, print), and the choices kept (a browser's storage, an editor's state);
//   second:  a reviewer's second pass: a cited span shows the nearest line of text around it,
//            a claim the words its sources do not have;
//   big:     the 12 MB session: times to first paint and to drawn, long tasks, j latency.
// Every page is watched for console errors, page errors and requests (there must be none but
// the file itself). Usage: node report_check.mjs CONFIG_JSON
import { createRequire } from "node:module";

// playwright-core is installed beside code-server (NODE_PATH), not in this repository.
const { chromium } = createRequire(`${process.env.NODE_PATH}/`)("playwright-core");

const config = JSON.parse(process.argv[2]);
const seen = {};
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
});

async function open(file, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    colorScheme: options.colorScheme ?? "light",
    deviceScaleFactor: options.scale ?? 1,
  });
  const page = await context.newPage();
  const watch = { console: [], errors: [], requests: [], failed: [] };
  page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") watch.console.push(`${m.type()}: ${m.text()}`); });
  page.on("pageerror", (e) => watch.errors.push(String(e)));
  page.on("request", (r) => { if (r.url() !== `file://${file}`) watch.requests.push(r.url()); });
  page.on("requestfailed", (r) => watch.failed.push(r.url()));
  if (options.init) await page.addInitScript(options.init, options.initArg);
  const started = Date.now();
  await page.goto(`file://${file}`);
  await page.waitForSelector("html[data-ready]", { timeout: 30000 });
  watch.loadMs = Date.now() - started;
  return { context, page, watch };
}

const active = (page) => page.evaluate(() => document.activeElement?.id ?? null);
const panelText = (page) => page.locator("#panel").innerText();

async function orbit() {
  const { context, page, watch } = await open(config.orbit);
  const out = { watch };
  out.lines = await page.locator(".ln").count();
  out.claims = await page.locator(".lines .claim").count();
  out.order = await page.evaluate(() => JSON.parse(document.getElementById("sc-data").textContent).order);
  out.panelBefore = await panelText(page);
  // a click on a claim's text shows its sources
  await page.locator('.seg.cl[data-c~="1"]').first().click();
  out.panelAfterClick = await panelText(page);
  out.selectedAfterClick = await page.locator(".claim.sel").getAttribute("id");
  // keyboard: Escape, then j, j, k, arrows, Enter
  await page.keyboard.press("Escape");
  await page.evaluate(() => document.activeElement.blur());
  const keys = [];
  for (const key of ["j", "j", "k", "n", "ArrowDown", "p", "ArrowUp"]) {
    await page.keyboard.press(key);
    keys.push([key, await active(page)]);
  }
  out.keys = keys;
  await page.keyboard.press("Enter");
  out.panelAfterEnter = await panelText(page);
  out.focusVisible = await page.evaluate(() => {
    const e = document.activeElement;
    return { matches: e.matches(":focus-visible"), outline: getComputedStyle(e).outlineStyle };
  });
  // a source document opens on a click and shows its cited spans
  await page.locator("details.doc summary").first().click();
  await page.waitForSelector("details.doc[open] .ln", { timeout: 5000 });
  out.sourceLines = await page.locator("details.doc[open] .ln").count();
  out.citedSpans = await page.locator("details.doc[open] .seg[data-s]").count();
  await page.locator("details.doc[open] .seg[data-s]").first().click();
  out.citedPanel = await panelText(page);
  // the screenshot: the contested claim with its sources
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator("#c1").click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(5, 5);
  await page.waitForTimeout(150);
  if (config.shot) await page.screenshot({ path: config.shot });
  // print: everything drawn, every claim's sources listed
  await page.emulateMedia({ media: "print" });
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  out.print = await page.evaluate(() => ({
    panes: document.querySelectorAll("#appendix .pane").length,
    closed: document.querySelectorAll("details:not(.keys):not([open])").length,
    appendixShown: getComputedStyle(document.getElementById("appendix")).display,
    panelShown: getComputedStyle(document.getElementById("panel")).display,
  }));
  await context.close();
  if (config.shotDark) {
    const dark = await open(config.orbit, { colorScheme: "dark" });
    await dark.page.locator("#c1").click();
    await dark.page.evaluate(() => window.scrollTo(0, 0));
    await dark.page.mouse.move(5, 5);
    await dark.page.waitForTimeout(150);
    await dark.page.screenshot({ path: config.shotDark });
    out.darkWatch = dark.watch;
    await dark.context.close();
  }
  return out;
}

// A narrow page (a webview beside the editor): the sources panel lies over the bottom of the
// text. Hovering a claim there previews nothing (the preview would cover it), and a click on
// it selects it at once.
async function narrow() {
  const { context, page, watch } = await open(config.orbit, { viewport: { width: 700, height: 600 } });
  const claim = page.locator(".lines .claim").last();
  await claim.evaluate((b) => window.scrollBy(0, b.getBoundingClientRect().top - window.innerHeight + 60));
  const box = await claim.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const out = { watch, id: await claim.getAttribute("id") };
  out.afterHover = await page.evaluate(() => ({ empty: document.getElementById("panel").classList.contains("empty"), position: getComputedStyle(document.getElementById("panel")).position }));
  await claim.click({ timeout: 2000 });
  out.selected = await page.evaluate(() => document.querySelector(".lines .claim.sel")?.id ?? null);
  out.panel = await panelText(page);
  // the panel is a sheet at the bottom: the header (its filter) and the claim stay in view
  out.sheet = await page.evaluate(() => {
    const r = document.getElementById("panel").getBoundingClientRect();
    const c = document.querySelector(".lines .claim.sel").getBoundingClientRect();
    return { atBottom: Math.round(r.bottom) === innerHeight, belowHalf: r.top > innerHeight / 2, claimAbove: c.bottom <= r.top };
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  out.filterClickable = await page.locator('#filter input[value="supported"]').check({ timeout: 2000 }).then(() => true, () => false);
  await context.close();
  return out;
}

async function hostile() {
  const { context, page, watch } = await open(config.hostile);
  await page.evaluate(() => window.sourcecheckReview.forPrint());
  const claims = await page.locator(".claim").count();
  for (let i = 0; i < claims; i++) {
    const b = page.locator(".claim").nth(i);
    await b.hover();
    await b.click();
  }
  const cited = await page.locator(".seg[data-s]").count();
  for (let i = 0; i < cited; i++) await page.locator(".seg[data-s]").nth(i).click();
  for (let i = 0; i < 8; i++) await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(200);
  const out = await page.evaluate(() => ({
    pwned: typeof window.__pwned === "undefined" ? null : String(window.__pwned),
    scripts: document.scripts.length,
    bad: [...document.querySelectorAll("img, iframe, svg, object, embed, textarea, link, a[href^='javascript' i]")].map((e) => e.outerHTML.slice(0, 80)),
    handlers: [...document.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
    hrefs: [...document.querySelectorAll("[href]")].map((e) => e.getAttribute("href")).filter((h) => !/^#[a-z][\w-]*$/.test(h)),
    bidiInText: /[\u202a-\u202e\u2066-\u2069\u200b\u2028\u2029\u0000-\u0008]/.test(document.body.innerText),
    escapes: [...new Set([...document.querySelectorAll(".esc")].map((e) => e.textContent))].sort(),
    pwnedShownAsText: document.body.innerText.includes("window.__pwned='script'"),
    claims: document.querySelectorAll(".claim").length,
    appendix: document.querySelectorAll("#appendix .pane").length,
  }));
  out.watch = watch;
  await context.close();
  return out;
}

async function editor() {
  const { context, page, watch } = await open(config.editor, {
    init: () => {
      window.__posted = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => null, setState: () => {} });
    },
  });
  const line = await page.locator("#c2").getAttribute("data-line");
  await page.locator("#c2").click();
  await page.locator('.seg.cl[data-c~="0"]').first().click();
  const posted = await page.evaluate(() => window.__posted);
  await context.close();
  return { line: Number(line), posted, watch };
}

const eyebrow = (page) => page.locator("#panel .eyebrow").first().innerText().catch(() => "");
// The margin marks a reader sees: id, number, text, box style (hidden ones are left out).
const marks = (page) => page.evaluate(() => [...document.querySelectorAll(".lines .claim")]
  .filter((b) => b.offsetParent !== null)
  .map((b) => ({ id: b.id, n: b.dataset.n, text: b.textContent, border: getComputedStyle(b).borderTopStyle, title: b.title })));
// The face of a document's text: its declared family, and whether "iiiii" is as wide as "MMMMM" in it.
const face = (page, selector) => page.evaluate((sel) => {
  const host = document.querySelector(sel);
  if (!host) return null;
  const width = (text) => { const s = document.createElement("span"); s.textContent = text; host.appendChild(s); const w = s.getBoundingClientRect().width; s.remove(); return w; };
  return { family: getComputedStyle(host).fontFamily, monospaced: Math.abs(width("iiiii") - width("MMMMM")) < 0.5 };
}, selector);

async function reading() {
  const { context, page, watch } = await open(config.reading);
  const out = { watch };
  out.order = await page.evaluate(() => JSON.parse(document.getElementById("sc-data").textContent).order);
  out.marks = await marks(page);
  // j / k: reading order, and the panel numbers claims the same way
  await page.evaluate(() => document.activeElement.blur());
  out.keys = [];
  for (const key of ["j", "j", "j", "k"]) {
    await page.keyboard.press(key);
    out.keys.push([key, await active(page), await eyebrow(page)]);
  }
  await page.keyboard.press("Escape");
  // the documents' face: monospace by default, prose on the toggle, kept on reload
  out.font = { article: await face(page, ".lines .tx"), source: null, quote: null };
  await page.locator("details.doc summary").first().click();
  await page.waitForSelector("details.doc[open] .ln");
  out.font.source = await face(page, "details.doc[open] .tx");
  await page.locator("#c7").click();
  out.font.quote = await face(page, "#panel .quote");
  out.proseVisible = await page.locator("#prose").isVisible();
  await page.locator("#prose").check();
  out.fontProse = { article: await face(page, ".lines .tx"), quote: await face(page, "#panel .quote") };
  // the page's storage reaches other documents a moment later (on a busy machine, after the
  // reload would have begun): wait until a new page sees it, then reload
  const probe = await context.newPage();
  await probe.goto(`file://${config.reading}`);
  await probe.waitForFunction(() => (localStorage.getItem("sourcecheck.report") || "").includes('"prose":true'), null, { timeout: 10000 });
  await probe.close();
  await page.reload();
  await page.waitForSelector("html[data-ready]");
  out.fontAfterReload = { article: await face(page, ".lines .tx"), checked: await page.locator("#prose").isChecked() };
  await page.locator("#prose").uncheck();
  // the filter, from the keyboard: f, then arrows; j / k visit only what it shows
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press("f");
  out.filterFocus = await page.evaluate(() => ({ tag: document.activeElement.tagName, value: document.activeElement.value }));
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  out.filter = await page.evaluate(() => document.body.dataset.filter ?? null);
  out.filterStatus = await page.locator("#filter-status").innerText();
  out.filteredMarks = await marks(page);
  out.filteredKeys = [];
  for (const key of ["j", "j", "j", "k"]) {
    await page.keyboard.press(key);
    out.filteredKeys.push([key, await active(page), await eyebrow(page)]);
  }
  // a dimmed claim's text has no verdict marks; a shown one keeps them
  out.segs = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".lines .seg.cl")].map((e) =>
    [e.dataset.c, getComputedStyle(e).textDecorationLine])));
  await page.locator("#filter").getByLabel(/weak/).check();
  out.weakMarks = await marks(page);
  // print: every claim, whatever the filter
  await page.emulateMedia({ media: "print" });
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  out.print = {
    marks: (await marks(page)).length,
    appendix: await page.locator("#appendix .pane").count(),
    controls: await page.evaluate(() => getComputedStyle(document.getElementById("controls")).display),
  };
  await context.close();
  // in an editor's webview the page is replaced after each edit: the filter and the font are
  // kept in the webview's state
  const state = { filter: "refuted", prose: true };
  const editor = await open(config.readingEditor, {
    init: (kept) => {
      window.__states = [];
      window.acquireVsCodeApi = () => ({ postMessage: () => {}, getState: () => kept, setState: (s) => window.__states.push(s) });
    },
    initArg: state,
  });
  out.editor = {
    filter: await editor.page.evaluate(() => document.body.dataset.filter ?? null),
    checked: await editor.page.locator('#filter input[value="refuted"]').isChecked(),
    prose: await editor.page.locator("#prose").isChecked(),
    marks: (await marks(editor.page)).map((m) => m.id),
  };
  await editor.page.locator("#filter").getByLabel(/contested/).check();
  out.editor.states = await editor.page.evaluate(() => window.__states);
  out.editorWatch = editor.watch;
  await editor.context.close();
  return out;
}

async function second() {
  const { context, page, watch } = await open(config.second);
  await page.locator('.seg.cl[data-c~="0"]').first().click();
  const out = { watch, panel: await panelText(page) };
  out.claimAround = await page.locator("#panel .pane > .quote .around").allInnerTexts();
  out.sourceAround = await page.locator("#panel .src .quote .around").allInnerTexts();
  out.unsupported = await page.locator("#panel .unsupported").allInnerTexts();
  await context.close();
  return out;
}

async function big() {
  const { context, page, watch } = await open(config.big, {
    init: () => {
      window.__long = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__long.push(Math.round(e.duration));
      }).observe({ type: "longtask", buffered: true });
    },
  });
  const out = { watch };
  out.timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0];
    const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, Math.round(e.startTime)]));
    const drawn = performance.getEntriesByName("sourcecheck-drawn")[0];
    return { firstPaint: paint["first-paint"], firstContentfulPaint: paint["first-contentful-paint"],
      domContentLoaded: Math.round(nav.domContentLoadedEventEnd), drawn: drawn ? Math.round(drawn.startTime) : null };
  });
  const t = Date.now();
  for (let i = 0; i < 20; i++) await page.keyboard.press("j");
  out.twentyJMs = Date.now() - t;
  out.focused = await active(page);
  const t2 = Date.now();
  await page.locator("details.doc summary").first().click();
  await page.waitForSelector("details.doc[open] .ln");
  out.openSourceMs = Date.now() - t2;
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 3));
  await page.waitForTimeout(1500);
  out.longTasks = await page.evaluate(() => window.__long);
  out.nodes = await page.evaluate(() => document.getElementsByTagName("*").length);
  await context.close();
  return out;
}

try {
  for (const name of ["orbit", "narrow", "hostile", "editor", "reading", "second", "big"]) {
    if (!config[name === "narrow" ? "orbit" : name]) continue;
    try {
      seen[name] = await { orbit, narrow, hostile, editor, reading, second, big }[name]();
    } catch (error) {
      seen[name] = { error: String(error && error.stack ? error.stack : error) };
    }
  }
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(seen));

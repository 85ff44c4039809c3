// Drives real VS Code (code-server in headless Chromium) through the review webview and the
// reference lenses: opens a session, runs "SourceCheck: Open Review", reads the report in
// the webview (an iframe in an iframe), clicks the claim with index CLAIM in it and reads where the
// session editor's cursor went (the status bar's "Ln N"); types EDIT at LINE:COLUMN of the
// session and waits for the report to say EXPECT, deletes it again and saves; types with
// pauses, and with the panel hidden (the test counts the review requests of each phase:
// `phases`, wall-clock ms); then clicks the first "cited by N refs" lens and counts the
// entries of the references peek. Prints what it saw as JSON, with the time each step was
// done at (timings).
// Usage: node vscode_review_check.mjs URL FOLDER FILE CLAIM LINE:COLUMN EDIT EXPECT SHOTS_DIR
import { activeTab, clock, command, cursor, goTo, openWorkbench, save, waitForCursor } from "./code_server.mjs";

const [url, folder, file, claim, editAt, edit, expect, shots] = process.argv.slice(2);
const [editLine, editColumn] = editAt.split(":");
const wait = Number(process.env.SOURCECHECK_WAIT_MS ?? 90000);
const { timings, mark } = clock();
const seen = {
  report: "",
  claims: [],
  clicked: null,
  cursorBefore: "",
  cursor: "",
  activeTab: "",
  reportAfterEdit: "",
  updateMs: null,
  reportRestored: "",
  scrollBefore: null,
  scrollAfter: null,
  panels: 0,
  csp: "",
  phases: {},
  hiddenShown: "",
  lens: "",
  peekTitle: "",
  peekEntries: [],
  error: null,
  timings,
};
const { page, opened, close } = await openWorkbench(url, folder, file, mark);

// The review: the webview's outer frame holds the page in its active frame.
const report = page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");
const reportText = () => report.locator("body").innerText({ timeout: 2000 }).catch(() => "");

/** Polls the report until `test(text)` holds (at most `ms`); its text then. */
async function reportWhen(test, ms = 15000) {
  const deadline = Date.now() + ms;
  let text = "";
  while (Date.now() < deadline) {
    text = await reportText();
    if (test(text)) return text;
    await page.waitForTimeout(50);
  }
  return text;
}

/** Runs `body` as a phase the test counts review requests in. */
async function phase(name, body) {
  const began = Date.now();
  await body();
  seen.phases[name] = [began, Date.now()];
  mark(name);
}

async function typeWithPauses(text, pause) {
  for (const ch of text) {
    await page.keyboard.type(ch);
    await page.waitForTimeout(pause);
  }
}

try {
  await opened;
  await page.waitForSelector(".codelens-decoration", { timeout: wait }); // the server is up
  seen.cursorBefore = await cursor(page);
  mark("server");

  await command(page, "SourceCheck: Open Review");
  await report.locator("button.claim[data-line]").first().waitFor({ timeout: 30000 });
  await report.locator("html[data-ready]").waitFor({ timeout: 30000 });
  seen.report = await reportText();
  seen.claims = await report
    .locator("button.claim[data-claim][data-line]")
    .evaluateAll((nodes) => nodes.map((n) => ({ claim: n.getAttribute("data-claim"), line: n.getAttribute("data-line") })));
  seen.csp = await report.locator('meta[http-equiv="Content-Security-Policy"]').first().getAttribute("content").catch(() => "");
  mark("review");
  await page.screenshot({ path: `${shots}/review.png` });

  // A click on a claim shows its annotation in the session's editor.
  const target = report.locator(`button.claim[data-claim="${claim}"]`).first();
  seen.clicked = await target.getAttribute("data-line");
  await target.click();
  await waitForCursor(page, seen.clicked).catch(() => undefined);
  seen.cursor = await cursor(page);
  seen.activeTab = (await page.locator(".tab.active").first().innerText().catch(() => "")).trim();
  mark("revealed");
  await page.screenshot({ path: `${shots}/revealed.png` });

  // Typing in the session: the report follows (debounced), at the same scroll position, with
  // the filter chosen in it.
  await report.locator('#filter input[value="supported"]').check();
  await report.locator("body").evaluate(() => window.scrollTo(0, 600));
  // the page tells the extension its scroll position 100 ms after scrolling stops
  await page.waitForTimeout(400);
  seen.scrollBefore = await report.locator("body").evaluate(() => window.scrollY);
  await page.locator(".tab", { hasText: file }).first().click(); // back from the webview to the session
  await activeTab(page, file);
  await goTo(page, editLine, editColumn);
  await page.keyboard.type(edit, { delay: 30 });
  const typed = Date.now();
  seen.reportAfterEdit = await reportWhen((text) => text.includes(expect));
  if (seen.reportAfterEdit.includes(expect)) seen.updateMs = Date.now() - typed;
  // the replaced page is scrolled back where it was once it has loaded
  const scrolled = Date.now() + 5000;
  do {
    seen.scrollAfter = await report.locator("body").evaluate(() => (document.readyState === "complete" ? window.scrollY : null)).catch(() => null);
  } while (seen.scrollAfter !== seen.scrollBefore && Date.now() < scrolled && (await page.waitForTimeout(50), true));
  seen.filterAfterEdit = await report.locator("body").evaluate(() => document.body.dataset.filter ?? null).catch(() => null);
  mark("edited");
  await page.screenshot({ path: `${shots}/edited.png` });
  await report.locator('#filter input[value="all"]').check();
  await page.locator(".tab", { hasText: file }).first().click(); // back to the session, its cursor where it was
  await activeTab(page, file);
  // Typed away again and saved: the report follows back.
  for (let i = 0; i < edit.length; i++) await page.keyboard.press("Backspace");
  seen.reportRestored = await reportWhen((text) => text !== "" && !text.includes(expect));
  await save(page);
  mark("restored");

  // Open Review again: the same panel is revealed, not a second one.
  await command(page, "View: Focus Active Editor Group");
  await command(page, "SourceCheck: Open Review");
  await activeTab(page, "Review:");
  seen.panels = await page.locator(".tab", { hasText: "Review:" }).count();

  // Typing with pauses longer than 400 ms (the old debounce), the panel visible: one
  // review, after the last key.
  await page.locator(".tab", { hasText: file }).first().click();
  await activeTab(page, file);
  await goTo(page, editLine, editColumn);
  await phase("visible", async () => {
    await typeWithPauses(edit, 600);
    seen.visibleShown = await reportWhen((text) => text.includes(expect));
  });
  for (let i = 0; i < edit.length; i++) await page.keyboard.press("Backspace");
  await reportWhen((text) => text !== "" && !text.includes(expect));
  // The panel hidden (its editors joined into the session's group, the session in front):
  // no review while typing; one when it is shown again.
  await command(page, "View: Join All Editor Groups");
  await activeTab(page, file);
  await phase("hidden", async () => {
    await goTo(page, editLine, editColumn);
    await page.keyboard.type(edit, { delay: 30 });
    await page.waitForTimeout(2500); // longer than the panel's pause: nothing may be asked meanwhile
  });
  await phase("shown", async () => {
    await page.locator(".tab", { hasText: "Review:" }).first().click();
    seen.hiddenShown = await reportWhen((text) => text.includes(expect));
  });
  await page.locator(".tab", { hasText: file }).first().click();
  await activeTab(page, file);
  for (let i = 0; i < edit.length; i++) await page.keyboard.press("Backspace");
  await save(page);

  // A "cited by N refs" lens opens the references peek on its refs.
  await goTo(page, 1, 1);
  const lens = page.locator(".codelens-decoration a", { hasText: /cited by \d+ ref/ }).first();
  await lens.waitFor({ timeout: 15000 });
  seen.lens = (await lens.innerText()).trim();
  await lens.click();
  await page.waitForFunction(() => document.querySelectorAll(".peekview-widget .ref-tree .monaco-list-row .referenceMatch").length > 0, null, { timeout: 15000 });
  seen.peekTitle = (await page.locator(".peekview-widget .peekview-title").first().innerText().catch(() => "")).trim();
  // The tree's entries (a file's row, shown when there are several files, has no match).
  seen.peekEntries = await page
    .locator(".peekview-widget .ref-tree .monaco-list-row")
    .evaluateAll((rows) => rows.filter((r) => r.querySelector(".referenceMatch")).map((r) => r.innerText.trim()));
  mark("lens");
  await page.screenshot({ path: `${shots}/references.png` });
} catch (error) {
  seen.error = String(error);
  await page.screenshot({ path: `${shots}/error.png` }).catch(() => undefined);
}
await close();
process.stdout.write(JSON.stringify(seen));

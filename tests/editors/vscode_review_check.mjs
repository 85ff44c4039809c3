// Drives real VS Code (code-server in headless Chromium) through the review webview and the
// reference lenses: opens a session, runs "SourceCheck: Open Review", reads the report in
// the webview (an iframe in an iframe), clicks the claim with index CLAIM in it and reads where the
// session editor's cursor went (the status bar's "Ln N"); types EDIT at LINE:COLUMN of the
// session and waits for the report to say EXPECT, deletes it again and saves; then clicks the first "cited by N
// refs" lens and counts the entries of the references peek. Prints what it saw as JSON.
// Usage: node vscode_review_check.mjs URL FOLDER FILE CLAIM LINE:COLUMN EDIT EXPECT SHOTS_DIR
import { command as palette, openWorkbench } from "./code_server.mjs";

const [url, folder, file, claim, editAt, edit, expect, shots] = process.argv.slice(2);
const wait = Number(process.env.SOURCECHECK_WAIT_MS ?? 90000);
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
  lens: "",
  peekTitle: "",
  peekEntries: [],
  error: null,
};
const { browser, page, opened } = await openWorkbench(url, folder, file);

async function command(name) {
  await palette(page, name, 500);
}

async function cursor() {
  return (await page.locator("#status\\.editor\\.selection").first().innerText().catch(() => "")).trim();
}

// The review: the webview's outer frame holds the page in its active frame.
const report = page.frameLocator("iframe.webview.ready").frameLocator("iframe#active-frame");

try {
  await opened;
  await page.waitForSelector(".codelens-decoration", { timeout: wait }); // the server is up
  seen.cursorBefore = await cursor();

  await command("SourceCheck: Open Review");
  await report.locator("button.claim[data-line]").first().waitFor({ timeout: 30000 });
  await page.waitForTimeout(1000);
  seen.report = await report.locator("body").innerText();
  seen.claims = await report
    .locator("button.claim[data-claim][data-line]")
    .evaluateAll((nodes) => nodes.map((n) => ({ claim: n.getAttribute("data-claim"), line: n.getAttribute("data-line") })));
  seen.csp = await report.locator('meta[http-equiv="Content-Security-Policy"]').first().getAttribute("content").catch(() => "");
  await page.screenshot({ path: `${shots}/review.png` });

  // A click on a claim shows its annotation in the session's editor.
  const target = report.locator(`button.claim[data-claim="${claim}"]`).first();
  seen.clicked = await target.getAttribute("data-line");
  await target.click();
  await page
    .waitForFunction((line) => (document.querySelector("#status\\.editor\\.selection")?.textContent ?? "").includes(`Ln ${line},`), seen.clicked, { timeout: 15000 })
    .catch(() => undefined);
  seen.cursor = await cursor();
  seen.activeTab = (await page.locator(".tab.active").first().innerText().catch(() => "")).trim();
  await page.screenshot({ path: `${shots}/revealed.png` });

  // Typing in the session: the report follows (debounced), at the same scroll position.
  await report.locator("body").evaluate(() => window.scrollTo(0, 600));
  await page.waitForTimeout(500); // the scroll position reaches the extension
  seen.scrollBefore = await report.locator("body").evaluate(() => window.scrollY);
  await command("Go to Line/Column");
  await page.waitForTimeout(300);
  await page.keyboard.type(editAt);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(300);
  await page.keyboard.type(edit, { delay: 30 });
  const typed = Date.now();
  for (let i = 0; i < 100; i++) {
    seen.reportAfterEdit = await report.locator("body").innerText().catch(() => "");
    if (seen.reportAfterEdit.includes(expect)) {
      seen.updateMs = Date.now() - typed;
      break;
    }
    await page.waitForTimeout(100);
  }
  await page.waitForTimeout(500);
  seen.scrollAfter = await report.locator("body").evaluate(() => window.scrollY).catch(() => null);
  await page.screenshot({ path: `${shots}/edited.png` });
  // Typed away again and saved: the report follows back.
  for (let i = 0; i < edit.length; i++) await page.keyboard.press("Backspace");
  for (let i = 0; i < 100; i++) {
    seen.reportRestored = await report.locator("body").innerText().catch(() => "");
    if (seen.reportRestored && !seen.reportRestored.includes(expect)) break;
    await page.waitForTimeout(100);
  }
  await command("File: Save");
  await page.waitForTimeout(1000);

  // Open Review again: the same panel is revealed, not a second one.
  await command("View: Focus Active Editor Group");
  await command("SourceCheck: Open Review");
  await page.waitForTimeout(1500);
  seen.panels = await page.locator(".tab", { hasText: "Review:" }).count();

  // A "cited by N refs" lens opens the references peek on its refs.
  await page.locator(".tab", { hasText: file }).first().click();
  await page.waitForTimeout(500);
  await command("Go to Line/Column");
  await page.waitForTimeout(300);
  await page.keyboard.type("1:1");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(1000);
  const lens = page.locator(".codelens-decoration a", { hasText: /cited by \d+ ref/ }).first();
  await lens.waitFor({ timeout: 15000 });
  seen.lens = (await lens.innerText()).trim();
  await lens.click();
  await page.waitForSelector(".peekview-widget .ref-tree .monaco-list-row", { timeout: 15000 });
  await page.waitForTimeout(1000);
  seen.peekTitle = (await page.locator(".peekview-widget .peekview-title").first().innerText().catch(() => "")).trim();
  // The tree's entries (a file's row, shown when there are several files, has no match).
  seen.peekEntries = await page
    .locator(".peekview-widget .ref-tree .monaco-list-row")
    .evaluateAll((rows) => rows.filter((r) => r.querySelector(".referenceMatch")).map((r) => r.innerText.trim()));
  await page.screenshot({ path: `${shots}/references.png` });
} catch (error) {
  seen.error = String(error);
  await page.screenshot({ path: `${shots}/error.png` }).catch(() => undefined);
}
await browser.close();
process.stdout.write(JSON.stringify(seen));

// Drives real VS Code (code-server in headless Chromium) through the document view: opens a
// session, runs "SourceCheck: Open Document View", picks a document, selects LENGTH
// characters from LINE:COLUMN of its text, runs "SourceCheck: Cite Selection", chooses the
// "supports" action and saves the session. Prints what it saw as JSON, with the time each
// step was done at (timings).
// Usage: node vscode_view_check.mjs URL FOLDER FILE DOCUMENT LINE COLUMN LENGTH SHOTS_DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { activeTab, clock, command, cursor, fileWhen, goTo, openWorkbench, save } from "./code_server.mjs";

const [url, folder, file, documentPath, line, column, length, shots] = process.argv.slice(2);
const wait = Number(process.env.SOURCECHECK_WAIT_MS ?? 90000);
const { timings, mark } = clock();
const seen = { view: "", actions: [], suggestions: [], error: null, timings };
const { page, opened, close } = await openWorkbench(url, folder, file, mark);
const before = readFileSync(join(folder, file), "utf-8");

const rows = (selector) => page.evaluate((s) => [...document.querySelectorAll(s)].map((r) => r.getAttribute("aria-label") || r.innerText.trim()).filter(Boolean), selector);

try {
  await opened;
  // The server is up once the session's code lenses are shown.
  await page.waitForSelector(".codelens-decoration", { timeout: wait });
  mark("server");

  // Completion in the session file: the boundary strings of the line a str names.
  const suggestAt = process.env.SOURCECHECK_SUGGEST_AT;
  if (suggestAt) {
    const [l, c] = suggestAt.split(":");
    await goTo(page, l, c);
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".suggest-widget .monaco-list-row", { timeout: 30000 });
    seen.suggestions = await rows(".suggest-widget .monaco-list-row");
    mark("completion");
    await page.screenshot({ path: `${shots}/completion.png` });
    await page.keyboard.press("Escape");
    await page.waitForSelector(".suggest-widget .monaco-list-row", { state: "hidden" });
  }

  await command(page, "SourceCheck: Open Document View");
  await page.waitForSelector(".quick-input-widget .monaco-list-row", { timeout: 30000 });
  await page.locator(".quick-input-widget .quick-input-box input").fill(documentPath);
  await page.waitForFunction(
    (name) => (document.querySelector(".quick-input-widget .monaco-list-row.focused")?.textContent ?? "").startsWith(name),
    documentPath,
    { timeout: 15000 },
  );
  await page.keyboard.press("Enter");
  await activeTab(page, documentPath.split("/").pop());
  // the view's text is drawn, its first line being the document's first
  await page.waitForFunction(
    () => (document.querySelector(".editor-group-container.active .monaco-editor .view-lines")?.textContent ?? "").trim().length > 0,
    null,
    { timeout: 15000 },
  );
  seen.view = await page.evaluate(() => {
    const editors = [...document.querySelectorAll(".editor-group-container.active .monaco-editor .view-lines")];
    return editors.map((e) => e.innerText).join("\n");
  });
  mark("view");

  await goTo(page, line, column);
  for (let i = 0; i < Number(length); i++) await page.keyboard.press("Shift+ArrowRight");
  await page.waitForFunction((n) => (document.querySelector("#status\\.editor\\.selection")?.textContent ?? "").includes(`(${n} selected)`), length, { timeout: 15000 });
  // the semantic tokens, if any are coming, before the screenshot
  await page.waitForSelector(".editor-group-container.active .view-lines span[class*='mtk']", { timeout: 5000 }).catch(() => undefined);
  await page.screenshot({ path: `${shots}/document-view.png` });
  seen.selection = await cursor(page);

  await command(page, "SourceCheck: Cite Selection");
  await page.waitForSelector(".quick-input-widget .monaco-list-row", { timeout: 30000 });
  seen.actions = (await page.evaluate(() => [...document.querySelectorAll(".quick-input-widget .monaco-list-row")].map((r) => r.innerText.trim()).filter(Boolean)));
  mark("actions");
  await page.screenshot({ path: `${shots}/cite-actions.png` });
  if (!seen.actions.some((title) => title.includes("as a source that supports"))) throw new Error(`no supports action among ${JSON.stringify(seen.actions)}`);
  await page.locator(".quick-input-widget .quick-input-box input").fill("as a source that supports");
  await page.waitForFunction(
    () => (document.querySelector(".quick-input-widget .monaco-list-row.focused")?.textContent ?? "").includes("as a source that supports"),
    null,
    { timeout: 15000 },
  );
  mark("chosen");
  await page.keyboard.press("Enter");

  // The edit lands in the session file, which VS Code saves (files.refactoring.autoSave);
  // saved again from its tab, in case it did not.
  await fileWhen(page, join(folder, file), (text) => text !== before, "the cite action changed nothing");
  mark("cited");
  await page.locator(".tab", { hasText: file }).first().click();
  await activeTab(page, file);
  await save(page);
  mark("saved");
  await page.screenshot({ path: `${shots}/cited.png` });
} catch (error) {
  seen.error = String(error);
  await page.screenshot({ path: `${shots}/error.png` }).catch(() => undefined);
}
await close();
process.stdout.write(JSON.stringify(seen));

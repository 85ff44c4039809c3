// Drives real VS Code (code-server in headless Chromium) through a cited article: opens FILE (an
// article two sessions of FOLDER cite), waits for the claims' verdicts in its inlay hints, types
// EDIT at LINE:COLUMN (inside a claimed sentence), waits for the warning that says the session
// cites the text as it was, runs the quick fix whose title starts with FIX, and waits until
// SESSION (in FOLDER) holds the edited text. Prints what it saw as JSON.
// Usage: node vscode_article_check.mjs URL FOLDER FILE LINE:COLUMN EDIT FIX SESSION SHOTS_DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { clock, command, fileWhen, goTo, openWorkbench } from "./code_server.mjs";

const [url, folder, file, editAt, edit, fix, session, shots] = process.argv.slice(2);
const [editLine, editColumn] = editAt.split(":");
const wait = Number(process.env.SOURCECHECK_WAIT_MS ?? 90000);
const { timings, mark } = clock();
const seen = { lines: "", infos: 0, warnings: 0, actions: [], session: "", problems: "", error: null, timings };
const { page, opened, close } = await openWorkbench(url, folder, file, mark);
const before = readFileSync(join(folder, session), "utf-8");

const lines = () => page.evaluate(() => document.querySelector(".editor-group-container.active .monaco-editor .view-lines")?.innerText ?? "");
const count = (selector) => page.evaluate((s) => document.querySelectorAll(`.editor-group-container.active ${s}`).length, selector);

try {
  await opened;
  // The server is up, and has indexed the folder, once a verdict is shown after a claim.
  await page.waitForFunction(
    () => (document.querySelector(".editor-group-container.active .monaco-editor .view-lines")?.innerText ?? "").replace(/\u00a0/g, " ").includes("supported · 1 source"),
    null,
    { timeout: wait },
  );
  seen.lines = await lines();
  await page.waitForSelector(".editor-group-container.active .squiggly-info", { timeout: 30000 });
  seen.infos = await count(".squiggly-info");
  mark("verdicts");
  await page.screenshot({ path: `${shots}/article.png` });

  // The problems of the sessions not open (workspace/diagnostic): b.sourcecheck.json's broken claim.
  await command(page, "Problems: Focus on Problems View");
  await page.waitForFunction(() => (document.querySelector(".markers-panel")?.textContent ?? "").includes("boundary-not-found"), null, { timeout: 30000 });
  seen.problems = await page.evaluate(() => document.querySelector(".markers-panel")?.innerText ?? "");
  await page.screenshot({ path: `${shots}/problems.png` });
  await command(page, "View: Focus Active Editor Group");

  await goTo(page, editLine, editColumn);
  await page.keyboard.type(edit);
  await page.waitForSelector(".editor-group-container.active .squiggly-warning", { timeout: 30000 });
  seen.warnings = await count(".squiggly-warning");
  mark("edited");
  await page.screenshot({ path: `${shots}/edited.png` });

  await page.keyboard.press("Control+.");
  await page.waitForSelector(".action-widget .monaco-list-row", { timeout: 30000 });
  seen.actions = await page.evaluate(() => [...document.querySelectorAll(".action-widget .monaco-list-row")].map((r) => r.innerText.trim()).filter(Boolean));
  const index = seen.actions.findIndex((title) => title.startsWith(fix));
  if (index < 0) throw new Error(`no action "${fix}" among ${JSON.stringify(seen.actions)}`);
  // chosen with the keyboard (the menu takes no click through its pointer block)
  for (let moves = 0; moves < 10; moves++) {
    const focused = await page.evaluate(() => document.querySelector(".action-widget .monaco-list-row.focused")?.innerText.trim() ?? "");
    if (focused.startsWith(fix)) break;
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  mark("fixed");
  // The edit lands in the session, opened in a tab if it was not; saved (VS Code saves after a
  // refactoring, files.refactoring.autoSave; saved here all the same, in case it did not).
  await page.waitForTimeout(1000);
  await command(page, "File: Save All Files");
  seen.session = await fileWhen(page, join(folder, session), (text) => text !== before, "the session did not follow", 30000);
  mark("followed");
} catch (error) {
  seen.error = String(error);
  await page.screenshot({ path: `${shots}/error.png` }).catch(() => undefined);
}
await close();
process.stdout.write(JSON.stringify(seen));

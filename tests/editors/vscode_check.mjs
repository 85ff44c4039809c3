// Drives real VS Code (code-server in headless Chromium) through a SourceCheck session:
// opens the file, reads the Problems panel, hovers the ambiguous boundary, applies the
// first quick fix, waits for the problem to go and saves. Prints what it saw as JSON, with
// the time each step was done at (timings).
// Usage: node vscode_check.mjs URL FOLDER FILE LINE COLUMN SHOTS_DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { clock, command, fileWhen, goTo, openWorkbench, save } from "./code_server.mjs";

const [url, folder, file, line, column, shots] = process.argv.slice(2);
const wait = Number(process.env.SOURCECHECK_WAIT_MS ?? 90000);
const { timings, mark } = clock();
const seen = { problems: "", hover: "", actions: [], fixedProblems: "", restricted: false, error: null, timings };
const { page, opened, close } = await openWorkbench(url, folder, file, mark);
const path = join(folder, file);
const before = readFileSync(path, "utf-8");

const problemsHave = (text) => page.waitForFunction((t) => (document.querySelector(".markers-panel")?.textContent ?? "").includes(t), text, { timeout: wait });
/** The message of SourceCheck's notification among those in `where` (toasts, or the notifications centre). */
const sourcecheckMessage = (where) =>
  [...document.querySelectorAll(where)].find((n) => n.textContent.includes("SourceCheck"))?.querySelector(".notification-list-item-message")?.textContent;
/** Rejects once VS Code says the extension could not start its server (no use waiting on): in
 * a toast, or, when VS Code keeps its toasts hidden (it has, now and then), in the centre the
 * notifications are kept in, opened once the extension's status bar item turns red. */
const serverFailed = async () => {
  const failed = () => [...document.querySelectorAll(".notification-toast, .statusbar-item.error-kind")].some((n) => n.textContent.includes("SourceCheck"));
  await page.waitForFunction(failed, null, { timeout: wait + 1000 });
  let message = await page.evaluate(sourcecheckMessage, ".notification-toast");
  if (!message) {
    await command(page, "Notifications: Show Notifications");
    message = await (await page.waitForFunction(sourcecheckMessage, ".notifications-center .notification-list-item", { timeout: 30000 })).jsonValue();
  }
  throw new Error(`the server did not start: ${message}`);
};

async function panelText() {
  return (await page.locator(".markers-panel").first().innerText().catch(() => "")) || "";
}

try {
  await opened;
  // Restricted Mode shows in the status bar and a banner, which a busy machine may draw
  // after the editor: looked for now and again once the problems are in.
  const restrictedNow = () => page.evaluate(() => document.body.innerText.includes("Restricted Mode"));
  seen.restricted = await restrictedNow();

  await command(page, "Problems: Focus on Problems View");
  await Promise.race([problemsHave("boundary-ambiguous"), serverFailed()]);
  seen.problems = await panelText();
  mark("problems");
  seen.restricted = seen.restricted || (await restrictedNow());
  await page.screenshot({ path: `${shots}/problems.png` });

  await command(page, "View: Focus Active Editor Group");
  await goTo(page, line, column);
  await command(page, "Show or Focus Hover");
  await page.waitForFunction(() => [...document.querySelectorAll(".monaco-hover")].some((h) => h.textContent.includes("does not resolve")), null, { timeout: 30000 });
  seen.hover = await page.evaluate(() => [...document.querySelectorAll(".monaco-hover")].map((h) => h.innerText).join("\n"));
  mark("hover");
  await page.screenshot({ path: `${shots}/hover.png` });
  await page.keyboard.press("Escape");

  await goTo(page, line, column);
  await command(page, "Quick Fix...");
  await page.waitForSelector(".action-widget .monaco-list-row", { timeout: 30000 });
  seen.actions = await page.evaluate(() => [...document.querySelectorAll(".action-widget .monaco-list-row")].map((r) => r.innerText.trim()).filter(Boolean));
  mark("actions");
  await page.screenshot({ path: `${shots}/quickfix.png` });
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !(document.querySelector(".markers-panel")?.textContent ?? "").includes("boundary-ambiguous"), null, { timeout: 30000 });
  seen.fixedProblems = await panelText();
  mark("fixed");
  // VS Code may save a file a fix changed by itself (files.refactoring.autoSave): saved
  // here in case it does not, and done once the fix is on disk.
  await save(page);
  await fileWhen(page, path, (text) => text !== before, "the fix is not saved");
  mark("saved");
  await page.screenshot({ path: `${shots}/fixed.png` });
} catch (error) {
  seen.error = String(error);
  await page.screenshot({ path: `${shots}/error.png` }).catch(() => undefined);
}
await close();
process.stdout.write(JSON.stringify(seen));

// Drives real VS Code (code-server in headless Chromium) through a SourceCheck session:
// opens the file, reads the Problems panel, hovers the ambiguous boundary, applies the
// first quick fix and waits for the problem to go. Prints what it saw as JSON.
// Usage: node vscode_check.mjs URL FOLDER FILE LINE COLUMN SHOTS_DIR
import { command as palette, openWorkbench } from "./code_server.mjs";

const [url, folder, file, line, column, shots] = process.argv.slice(2);
const wait = Number(process.env.SOURCECHECK_WAIT_MS ?? 90000);
const seen = { problems: "", hover: "", actions: [], fixedProblems: "", error: null };
const { browser, page, opened } = await openWorkbench(url, folder, file);

async function command(name) {
  await palette(page, name, 400);
}

async function goTo(lineNumber, col) {
  await command("Go to Line/Column");
  await page.waitForTimeout(300);
  await page.keyboard.type(`${lineNumber}:${col}`);
  await page.keyboard.press("Enter");
}

async function panelText() {
  return (await page.locator(".markers-panel").first().innerText().catch(() => "")) || "";
}

try {
  await opened;

  await command("View: Show Problems");
  await page.waitForFunction(() => (document.querySelector(".markers-panel")?.textContent ?? "").includes("boundary-ambiguous"), null, { timeout: wait });
  await page.waitForTimeout(500);
  seen.problems = await panelText();
  await page.screenshot({ path: `${shots}/problems.png` });

  await command("View: Focus Active Editor Group");
  await goTo(line, column);
  await command("Show or Focus Hover");
  await page.waitForSelector(".monaco-hover .hover-contents, .monaco-hover .rendered-markdown", { timeout: 30000 });
  await page.waitForFunction(() => [...document.querySelectorAll(".monaco-hover")].some((h) => h.textContent.includes("does not resolve")), null, { timeout: 30000 });
  seen.hover = await page.evaluate(() => [...document.querySelectorAll(".monaco-hover")].map((h) => h.innerText).join("\n"));
  await page.screenshot({ path: `${shots}/hover.png` });
  await page.keyboard.press("Escape");

  await command("View: Focus Active Editor Group");
  await goTo(line, column);
  await command("Quick Fix...");
  await page.waitForSelector(".action-widget .monaco-list-row", { timeout: 30000 });
  seen.actions = await page.evaluate(() => [...document.querySelectorAll(".action-widget .monaco-list-row")].map((r) => r.innerText.trim()).filter(Boolean));
  await page.screenshot({ path: `${shots}/quickfix.png` });
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !(document.querySelector(".markers-panel")?.textContent ?? "").includes("boundary-ambiguous"), null, { timeout: 30000 });
  seen.fixedProblems = await panelText();
  await command("View: Focus Active Editor Group");
  await command("File: Save");
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${shots}/fixed.png` });
} catch (error) {
  seen.error = String(error);
  await page.screenshot({ path: `${shots}/error.png` }).catch(() => undefined);
}
await browser.close();
process.stdout.write(JSON.stringify(seen));

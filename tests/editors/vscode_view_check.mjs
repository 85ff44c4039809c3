// Drives real VS Code (code-server in headless Chromium) through the document view: opens a
// session, runs "SourceCheck: Open Document View", picks a document, selects LENGTH
// characters from LINE:COLUMN of its text, runs "SourceCheck: Cite Selection", chooses the
// "supports" action and saves the session. Prints what it saw as JSON.
// Usage: node vscode_view_check.mjs URL FOLDER FILE DOCUMENT LINE COLUMN LENGTH SHOTS_DIR
import { command as palette, openWorkbench } from "./code_server.mjs";

const [url, folder, file, documentPath, line, column, length, shots] = process.argv.slice(2);
const wait = Number(process.env.SOURCECHECK_WAIT_MS ?? 90000);
const seen = { view: "", actions: [], suggestions: [], error: null };
const { browser, page, opened } = await openWorkbench(url, folder, file);

async function command(name) {
  await palette(page, name, 500);
}

try {
  await opened;
  // The server is up once the session's code lenses are shown.
  await page.waitForSelector(".codelens-decoration", { timeout: wait });

  // Completion in the session file: the boundary strings of the line a str names.
  const suggestAt = process.env.SOURCECHECK_SUGGEST_AT;
  if (suggestAt) {
    await command("Go to Line/Column");
    await page.waitForTimeout(300);
    await page.keyboard.type(suggestAt);
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".suggest-widget .monaco-list-row", { timeout: 30000 });
    await page.waitForTimeout(500);
    seen.suggestions = await page.evaluate(() => [...document.querySelectorAll(".suggest-widget .monaco-list-row")].map((r) => r.getAttribute("aria-label") || r.innerText.trim()));
    await page.screenshot({ path: `${shots}/completion.png` });
    await page.keyboard.press("Escape");
    await page.waitForTimeout(300);
  }

  await command("SourceCheck: Open Document View");
  await page.waitForSelector(".quick-input-widget .monaco-list-row", { timeout: 30000 });
  await page.keyboard.type(documentPath);
  await page.waitForTimeout(400);
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (name) => [...document.querySelectorAll(".tab")].some((tab) => tab.textContent.includes(name) && tab.classList.contains("active")),
    documentPath.split("/").pop(),
    { timeout: 30000 },
  );
  await page.waitForTimeout(1500);
  seen.view = await page.evaluate(() => {
    const editors = [...document.querySelectorAll(".editor-group-container.active .monaco-editor .view-lines")];
    return editors.map((e) => e.innerText).join("\n");
  });

  await command("Go to Line/Column");
  await page.waitForTimeout(300);
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(300);
  for (let i = 0; i < Number(length); i++) await page.keyboard.press("Shift+ArrowRight");
  await page.waitForTimeout(1500); // the semantic tokens are in by now
  await page.screenshot({ path: `${shots}/document-view.png` });

  await command("SourceCheck: Cite Selection");
  await page.waitForSelector(".quick-input-widget .monaco-list-row", { timeout: 30000 });
  await page.waitForTimeout(500);
  seen.actions = await page.evaluate(() => [...document.querySelectorAll(".quick-input-widget .monaco-list-row")].map((r) => r.innerText.trim()).filter(Boolean));
  await page.screenshot({ path: `${shots}/cite-actions.png` });
  if (!seen.actions.some((title) => title.includes("as a source that supports"))) throw new Error(`no supports action among ${JSON.stringify(seen.actions)}`);
  await page.keyboard.type("as a source that supports");
  await page.waitForTimeout(400);
  await page.keyboard.press("Enter");
  await page.waitForTimeout(1500);

  // Save the session file, which the edit changed.
  await page.locator(".tab", { hasText: file }).first().click();
  await page.waitForTimeout(500);
  await command("File: Save");
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${shots}/cited.png` });

} catch (error) {
  seen.error = String(error);
  await page.screenshot({ path: `${shots}/error.png` }).catch(() => undefined);
}
await browser.close();
process.stdout.write(JSON.stringify(seen));

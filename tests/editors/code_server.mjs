// What every code-server driver of the real-editor tests shares: headless Chromium as this
// machine runs it (playwright-core, installed beside code-server: NODE_PATH), the workbench
// opened on a folder with one file, and the command palette.
import { createRequire } from "node:module";

const { chromium } = createRequire(`${process.env.NODE_PATH}/`)("playwright-core");

/** A browser on code-server at `url`, with `file` of `folder` open in the editor. */
export async function openWorkbench(url, folder, file) {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  const opened = (async () => {
    await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
    await page.waitForSelector(".monaco-workbench", { timeout: 90000 });
    await page.waitForTimeout(2000);
    await page.locator(".explorer-folders-view .monaco-list-row", { hasText: file }).first().click();
    await page.waitForSelector(".monaco-editor .view-lines", { timeout: 30000 });
  })();
  return { browser, page, opened };
}

/** Runs a command from the palette (F1), by its title. */
export async function command(page, name, settle = 400) {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget .quick-input-box input", { state: "visible" });
  await page.keyboard.type(name);
  await page.waitForTimeout(settle);
  await page.keyboard.press("Enter");
}

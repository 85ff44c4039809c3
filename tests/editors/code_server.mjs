// What every code-server driver of the real-editor tests shares: headless Chromium as this
// machine runs it (playwright-core, installed beside code-server: NODE_PATH), the workbench
// opened on a folder with one file, the command palette, and a clock.
//
// One Chromium serves a whole test module: `node code_server.mjs serve` launches it as a
// server, prints its endpoint as one JSON line and keeps it until its standard input closes
// (tests/editors/test_vscode.py starts it with code-server, once). A driver given that
// endpoint in SOURCECHECK_BROWSER_WS connects to it and works in a context of its own, closed
// at the end; without it, the driver launches a browser of its own.
//
// No fixed sleeps: every step waits for what it needs (a row of the palette that is the
// command, the status bar's "Ln N, Col M", a tab, a panel's text).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const { chromium } = createRequire(`${process.env.NODE_PATH}/`)("playwright-core");

const LAUNCH = {
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
};

/** Milliseconds since the driver started, per step: `seen.timings` tells where a run's time went. */
export function clock() {
  const began = Date.now();
  const timings = {};
  return { timings, mark: (name) => { timings[name] = Date.now() - began; } };
}

/** A browser on code-server at `url`, with `file` of `folder` open in the editor. `close()`
 * ends the context (and the browser, or the connection to the shared one). */
export async function openWorkbench(url, folder, file, mark = () => {}) {
  const shared = process.env.SOURCECHECK_BROWSER_WS;
  const browser = shared ? await chromium.connect(shared) : await chromium.launch(LAUNCH);
  const context = await browser.newContext({ viewport: { width: 1500, height: 950 } });
  const page = await context.newPage();
  mark("browser");
  const opened = (async () => {
    await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
    await page.waitForSelector(".monaco-workbench", { timeout: 90000 });
    mark("workbench");
    await page.locator(".explorer-folders-view .monaco-list-row", { hasText: file }).first().click({ timeout: 60000 });
    await page.waitForSelector(".monaco-editor .view-lines", { timeout: 30000 });
    await activeTab(page, file);
    mark("editor");
  })();
  const close = async () => {
    await context.close().catch(() => undefined);
    await browser.close().catch(() => undefined);
  };
  return { browser, page, opened, close };
}

/** Waits until the active tab is `name`'s. */
export async function activeTab(page, name, timeout = 30000) {
  await page.waitForFunction(
    (n) => [...document.querySelectorAll(".tab.active")].some((tab) => tab.textContent.includes(n)),
    name,
    { timeout },
  );
}

const INPUT = ".quick-input-widget .quick-input-box input";
const FOCUSED = ".quick-input-widget .quick-input-list .monaco-list-row.focused";

/** The focused row of the quick input, once it is one whose label starts with `label`
 * (VS Code's labels end with ", <keybinding>"); moves down to it if it is not the first. */
async function chooseRow(page, label, timeout = 15000) {
  const wanted = label.toLowerCase();
  const is = (found) => {
    const f = typeof found === "string" ? found.toLowerCase() : "";
    return f === wanted || f.startsWith(`${wanted},`) || f.startsWith(`${wanted}...`);
  };
  const deadline = Date.now() + timeout;
  let moves = 0;
  for (;;) {
    const found = await page.locator(FOCUSED).first().getAttribute("aria-label", { timeout: 5000 }).catch(() => null);
    if (is(found)) return;
    // the row wanted further down (a command ranked after a similar one): look for it
    const labels = await page.evaluate(() => [...document.querySelectorAll(".quick-input-widget .quick-input-list .monaco-list-row")].map((r) => r.getAttribute("aria-label") ?? ""));
    if (labels.some(is) && moves < 20) {
      await page.keyboard.press("ArrowDown");
      moves++;
      continue;
    }
    if (Date.now() > deadline) throw new Error(`the palette offers no "${label}" (focused: ${found}; rows: ${labels.slice(0, 5).join(" | ")})`);
    await page.waitForTimeout(50);
  }
}

/** Runs a command from the palette (F1), by its title. */
export async function command(page, name) {
  await page.keyboard.press("F1");
  await page.locator(INPUT).waitFor({ state: "visible" });
  await page.locator(INPUT).fill(`>${name}`);
  await chooseRow(page, name.replace(/\.\.\.$/, ""));
  await page.keyboard.press("Enter");
}

/** Puts the cursor at `line`:`column` (1-based) of the active editor, and waits until the
 * status bar says so. */
export async function goTo(page, line, column) {
  await page.keyboard.press("F1");
  await page.locator(INPUT).waitFor({ state: "visible" });
  await page.locator(INPUT).fill(`:${line}:${column}`);
  await chooseRow(page, `Go to line ${line} and character ${column}.`);
  await page.keyboard.press("Enter");
  await waitForCursor(page, line, column);
}

/** The status bar's cursor position ("Ln 3, Col 14"). */
export async function cursor(page) {
  return (await page.locator("#status\\.editor\\.selection").first().innerText().catch(() => "")).trim();
}

/** Waits until the status bar shows the cursor at `line` (and `column`, if given). */
export async function waitForCursor(page, line, column, timeout = 15000) {
  const wanted = column === undefined ? `Ln ${line},` : `Ln ${line}, Col ${column}`;
  await page.waitForFunction(
    (w) => (document.querySelector("#status\\.editor\\.selection")?.textContent ?? "").includes(w),
    wanted,
    { timeout },
  );
}

/** Saves the active editor (Ctrl+S) and waits until its tab is no longer dirty. */
export async function save(page) {
  await page.keyboard.press("Control+S");
  await page.waitForFunction(() => !document.querySelector(".tab.active.dirty"), null, { timeout: 15000 });
}

/** Waits until the file at `path` holds what `test` accepts; its text then. */
export async function fileWhen(page, path, test, what, timeout = 15000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = readFileSync(path, "utf-8");
    if (test(text)) return text;
    if (Date.now() > deadline) throw new Error(`${path}: ${what}, still not so after ${timeout} ms`);
    await page.waitForTimeout(50);
  }
}

/** The shared browser: `node code_server.mjs serve`. */
if (process.argv[2] === "serve") {
  const server = await chromium.launchServer(LAUNCH);
  process.stdout.write(`${JSON.stringify({ ws: server.wsEndpoint() })}\n`);
  process.stdin.resume();
  process.stdin.on("end", async () => {
    await server.close();
    process.exit(0);
  });
}

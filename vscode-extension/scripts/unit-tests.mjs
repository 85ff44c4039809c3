// Runs the extension's unit tests, test/*.test.ts: the parts of the extension that do not
// need VS Code (settings.ts, schedule.ts, the webview's HTML), bundled by esbuild into
// out/test and run with node --test. `npm run test:unit`; tests/editors/test_vscode.py runs it.
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const extension = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(extension, "out", "test");
const tests = readdirSync(join(extension, "test")).filter((name) => name.endsWith(".test.ts"));
rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: extension,
  entryPoints: tests.map((name) => `test/${name}`),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node18",
  outdir: out,
  outExtension: { ".js": ".mjs" },
  logLevel: "warning",
});
const run = spawnSync(process.execPath, ["--test", ...tests.map((name) => join(out, name.replace(/\.ts$/, ".mjs")))], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);

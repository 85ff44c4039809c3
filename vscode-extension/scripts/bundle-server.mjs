// Bundles the language server into the extension, as Microsoft's Python tools extension
// template does: the sourcecheck package and its pure-Python dependencies (pygls, lsprotocol,
// cattrs, attrs, typing-extensions) installed into bundled/libs, which the extension puts on
// PYTHONPATH. The .vsix then works with any Python 3.11+, nothing else installed.
// Python: $PYTHON, else the repository's .venv, else python3.
import { execFileSync } from "node:child_process";
import { existsSync, rmSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const extension = resolve(here, "..");
const repository = resolve(extension, "..");
const target = join(extension, "bundled", "libs");
const venv = join(repository, ".venv", "bin", "python");
const python = process.env.PYTHON || (existsSync(venv) ? venv : "python3");

rmSync(join(extension, "bundled"), { recursive: true, force: true });
mkdirSync(target, { recursive: true });
try {
  execFileSync(
    python,
    ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile", "--target", target, "--upgrade", repository],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
} catch (error) {
  process.stderr.write(`bundling the server with ${python} failed:\n${error.stderr ?? error}\n`);
  process.exit(1);
}
// Metadata and scripts are of no use inside an extension; the packages are what runs. orjson
// and PyStemmer are compiled for one platform and Python: left out, so that the .vsix runs
// anywhere (the server then reads messages with Python's json, a little slower on big files,
// and stems words with snowballstemmer's Python, the same stems).
const compiled = (entry) =>
  entry === "orjson" || entry.startsWith("orjson-") || entry.startsWith("Stemmer.") || entry.startsWith("pystemmer-");
for (const entry of ["bin"]) rmSync(join(target, entry), { recursive: true, force: true });
for (const entry of readdirSync(target)) {
  if (compiled(entry)) rmSync(join(target, entry), { recursive: true, force: true });
}
console.log(`bundled the server into ${target}`);

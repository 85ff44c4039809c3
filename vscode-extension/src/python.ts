// Which Python runs the language server that is bundled in the extension (bundled/libs: the
// sourcecheck package and its pure-Python dependencies, put on PYTHONPATH), as Microsoft's
// Python tools extension template does it: sourcecheck.interpreter if set, else the
// interpreter the Python extension has selected (when it is installed), else python3 or
// python on PATH. Each must be Python 3.11 or newer.

import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PythonExtension } from "@vscode/python-extension";
import * as vscode from "vscode";

export const MINIMUM = [3, 11] as const;

export interface Interpreter {
  path: string;
  origin: string;
}

/** The folder of the bundled server, if this extension carries one. */
export function bundledLibs(context: vscode.ExtensionContext): string | undefined {
  const libs = join(context.extensionPath, "bundled", "libs");
  return existsSync(join(libs, "sourcecheck", "lsp", "__main__.py")) ? libs : undefined;
}

/** The Python version of an interpreter ("3.11"), or undefined if it does not run. */
export function versionOf(python: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      python,
      ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
      { cwd: tmpdir(), timeout: 15000, killSignal: "SIGKILL", windowsHide: true }, // not the workspace: nothing of it on sys.path
      (error, stdout) => resolve(error ? undefined : String(stdout).trim()),
    );
  });
}

export function recentEnough(version: string): boolean {
  const [major, minor] = version.split(".").map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

/** The Python extension's API, or undefined when it is not installed. */
export async function pythonExtension(): Promise<PythonExtension | undefined> {
  if (!vscode.extensions.getExtension("ms-python.python")) return undefined;
  try {
    return await PythonExtension.api();
  } catch {
    return undefined;
  }
}

/** The interpreters to try, in order, each with where it came from. `configured` is
 * sourcecheck.interpreter as it applies (the workspace's value only in a trusted workspace). */
export async function candidates(configured: string, onPath: (name: string) => string | undefined): Promise<Interpreter[]> {
  const found: Interpreter[] = [];
  if (configured) found.push({ path: configured, origin: "sourcecheck.interpreter" });
  const python = await pythonExtension();
  if (python) {
    const active = python.environments.getActiveEnvironmentPath();
    const resolved = await python.environments.resolveEnvironment(active).catch(() => undefined);
    const executable = resolved?.executable.uri?.fsPath;
    if (executable) found.push({ path: executable, origin: "the Python extension's selected interpreter" });
  }
  for (const name of ["python3", "python"]) {
    const path = onPath(name);
    if (path && !found.some((c) => c.path === path)) found.push({ path, origin: `${name} on PATH` });
  }
  return found;
}

/** The first candidate that is Python 3.11+, or a message saying what to do. */
export async function chooseInterpreter(tried: Interpreter[]): Promise<Interpreter | string> {
  const refused: string[] = [];
  for (const candidate of tried) {
    const version = await versionOf(candidate.path);
    if (version && recentEnough(version)) return candidate;
    refused.push(`${candidate.path} (${candidate.origin}): ${version ? `Python ${version}` : "does not run"}`);
  }
  const seen = refused.length ? ` Tried: ${refused.join("; ")}.` : " No Python was found.";
  return `SourceCheck needs Python ${MINIMUM.join(".")} or newer to run its language server.${seen} Install one, select it with "Python: Select Interpreter", or set sourcecheck.interpreter to its path.`;
}

/** Calls `listener` when the Python extension's selected interpreter changes. */
export async function onInterpreterChange(listener: () => void): Promise<vscode.Disposable | undefined> {
  const python = await pythonExtension();
  return python?.environments.onDidChangeActiveEnvironmentPath(() => listener());
}

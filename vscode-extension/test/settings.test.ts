// The settings that name a program to run: in a workspace not trusted, the workspace's own
// values are never read (settings.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { EXECUTED, type Inspected, type Settings, executable, setByWorkspace } from "../src/settings";

/** A configuration as VS Code's: `get` gives the most specific value that is set. */
function settings(values: Record<string, Inspected<string>>): Settings {
  return {
    get<T>(key: string): T | undefined {
      const v = values[key] ?? {};
      return (v.workspaceFolderValue ?? v.workspaceValue ?? v.globalValue ?? v.defaultValue) as T | undefined;
    },
    inspect<T>(key: string): Inspected<T> | undefined {
      return values[key] as Inspected<T> | undefined;
    },
  };
}

const planted = settings({
  "server.path": { defaultValue: "", globalValue: "/home/me/.venv/bin/sourcecheck-ls", workspaceValue: "./evil.sh" },
  interpreter: { defaultValue: "", workspaceFolderValue: "./bin/python-that-is-not" },
});

test("in a workspace not trusted, a folder's server.path and interpreter are ignored", () => {
  assert.equal(executable(planted, "server.path", false), "/home/me/.venv/bin/sourcecheck-ls");
  assert.equal(executable(planted, "interpreter", false), "");
});

test("in a trusted workspace, the workspace's values apply", () => {
  assert.equal(executable(planted, "server.path", true), "./evil.sh");
  assert.equal(executable(planted, "interpreter", true), "./bin/python-that-is-not");
});

test("values are trimmed and anything but a string is no value", () => {
  const odd = settings({ "server.path": { globalValue: "  /usr/bin/sourcecheck-ls \n" }, interpreter: { globalValue: 3 as unknown as string } });
  assert.equal(executable(odd, "server.path", false), "/usr/bin/sourcecheck-ls");
  assert.equal(executable(odd, "interpreter", true), "");
});

test("trust granted restarts only when the workspace sets something else", () => {
  assert.deepEqual(EXECUTED.map((key) => setByWorkspace(planted, key)), [true, true]);
  const same = settings({ "server.path": { globalValue: "/x", workspaceValue: "/x" }, interpreter: {} });
  assert.deepEqual(EXECUTED.map((key) => setByWorkspace(same, key)), [false, false]);
});

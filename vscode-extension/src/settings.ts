// The two settings that name a program the extension runs: sourcecheck.server.path (the
// server's command) and sourcecheck.interpreter (the Python that runs it). A workspace's own
// settings (.vscode/settings.json, a .code-workspace file) come with a folder anyone may have
// written, so in a workspace the user has not trusted they are ignored: the user's settings,
// else the default, apply. VS Code does that itself for the restrictedConfigurations that
// package.json declares (capabilities.untrustedWorkspaces); the extension reads them the
// same way here rather than rely on it. Pure: no vscode import at run time (test/settings.test.ts).

/** The settings that are executed, under the `sourcecheck` section. */
export const EXECUTED = ["server.path", "interpreter"] as const;
export type Executed = (typeof EXECUTED)[number];

/** What `vscode.WorkspaceConfiguration.inspect` tells of one setting, in part. */
export interface Inspected<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The part of `vscode.WorkspaceConfiguration` read here. */
export interface Settings {
  get<T>(key: string): T | undefined;
  inspect<T>(key: string): Inspected<T> | undefined;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** The value of an executed setting: whatever applies in a trusted workspace; in one not
 * trusted, the user's value (or the default), never the workspace's. */
export function executable(config: Settings, key: Executed, trusted: boolean): string {
  if (trusted) return text(config.get<string>(key));
  const seen = config.inspect<string>(key);
  return text(seen?.globalValue ?? seen?.defaultValue);
}

/** Whether the workspace sets an executed setting to something other than what applies
 * without it (when trust is granted, the server is started again with it). */
export function setByWorkspace(config: Settings, key: Executed): boolean {
  const seen = config.inspect<string>(key);
  const own = text(seen?.workspaceFolderValue ?? seen?.workspaceValue);
  return own !== "" && own !== text(seen?.globalValue ?? seen?.defaultValue);
}

// SourceCheck for VS Code: starts the sourcecheck-ls language server for session files
// and shows, in the status bar, the server's state and how the active session's refs fare.
// Commands: document views and citing a selection (here), the review webview and the
// reference lenses' command (review.ts).

import { execFile } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import { bundledLibs, candidates, chooseInterpreter, onInterpreterChange } from "./python";
import { CodeAction, CodeActionRequest, LanguageClient, LanguageClientOptions, ServerOptions, State, TransportKind } from "vscode-languageclient/node";
import { Reviews, showReferences } from "./review";
import { EXECUTED, executable, setByWorkspace } from "./settings";

/** The URI scheme of the server's document views (a document of a session shown as text). */
const VIEW_SCHEME = "sourcecheck";

interface ServerCommand {
  env?: Record<string, string>;
  command: string;
  args: string[];
  origin: string;
}

interface Summary {
  refs: number;
  resolved: number;
  failing: number;
  errors: number;
  warnings: number;
}

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel;
let status: vscode.StatusBarItem;
/** Starts and stops run one after another on this chain. */
let queue: Promise<void> = Promise.resolve();
let shuttingDown = false;
let libs: string | undefined; // the bundled server's packages, when the extension carries them
/** The open review webviews (SourceCheck: Open Review), one per session. */
let reviews: Reviews | undefined;

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** How a Python is started to run the server: `-P` (and PYTHONSAFEPATH) so that neither the
 * folder it starts in nor the script's is put on sys.path, and the system's temp folder as that
 * folder: a workspace holding a package named `sourcecheck` (a stranger's repository) could
 * otherwise shadow the real one and run its code. */
const RUN_MODULE = ["-P", "-m", "sourcecheck.lsp"];
const SAFE_START = { cwd: tmpdir(), env: { ...process.env, PYTHONSAFEPATH: "1" } };

/** Whether `python` can import sourcecheck.lsp; asynchronous, the child is killed after 15 s. */
function canImport(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, ["-P", "-c", "import sourcecheck.lsp"], { ...SAFE_START, timeout: 15000, killSignal: "SIGKILL", windowsHide: true }, (error) =>
      resolve(!error),
    );
  });
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The command that starts the server, or a message saying how to get one. In a workspace
 * not trusted, the workspace's sourcecheck.server.path and sourcecheck.interpreter are not
 * read (settings.ts): a folder's settings must not choose what runs. */
export async function findServer(
  config: vscode.WorkspaceConfiguration,
  libs?: string,
  trusted: boolean = vscode.workspace.isTrusted,
): Promise<ServerCommand | string> {
  const path = executable(config, "server.path", trusted);
  if (path) {
    const resolved = isAbsolute(path) ? path : onPath(path);
    if (!resolved) {
      return `The command "${path}" set in sourcecheck.server.path was not found. Set it to the full path of sourcecheck-ls, or clear it.`;
    }
    return { command: resolved, args: [], origin: "sourcecheck.server.path" };
  }
  if (libs) {
    // The server bundled in the extension: any Python 3.11+ runs it, nothing else installed.
    const chosen = await chooseInterpreter(await candidates(executable(config, "interpreter", trusted), onPath));
    if (typeof chosen === "string") return chosen;
    const env = { PYTHONPATH: [libs, process.env.PYTHONPATH].filter(Boolean).join(delimiter) };
    return { command: chosen.path, args: RUN_MODULE, origin: `the bundled server, run by ${chosen.origin}`, env };
  }
  const interpreter = executable(config, "interpreter", trusted);
  if (interpreter) {
    if (!(await canImport(interpreter))) {
      return `The Python in sourcecheck.interpreter (${interpreter}) cannot import sourcecheck. Install it there with: ${interpreter} -m pip install sourcecheck`;
    }
    return { command: interpreter, args: RUN_MODULE, origin: "sourcecheck.interpreter" };
  }
  const installed = onPath("sourcecheck-ls");
  if (installed) {
    return { command: installed, args: [], origin: "PATH" };
  }
  const probed = new Set<string>();
  for (const python of ["python3", "python"]) {
    const found = onPath(python);
    if (!found) continue;
    const real = realPath(found);
    if (probed.has(real)) continue; // python is often the same file as python3
    probed.add(real);
    if (await canImport(python)) {
      return { command: python, args: RUN_MODULE, origin: `${python} on PATH` };
    }
  }
  return "No SourceCheck language server was found. Install the Python package (pip install sourcecheck) so that sourcecheck-ls is on PATH, or set sourcecheck.interpreter to a Python that has it.";
}

function showStatus(text: string, tooltip: string, error = false): void {
  status.text = text;
  status.tooltip = tooltip;
  status.backgroundColor = error ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  status.show();
}

async function refreshSummary(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || client.state !== State.Running) return;
  if (!editor || !["json", "jsonc"].includes(editor.document.languageId)) {
    showStatus("$(check) SourceCheck", "SourceCheck language server: running");
    return;
  }
  try {
    const summary = await client.sendRequest<Summary | null>("sourcecheck/summary", { uri: editor.document.uri.toString() });
    if (!summary) {
      showStatus("$(check) SourceCheck", "SourceCheck language server: running (this file is not a session)");
      return;
    }
    const failing = summary.failing;
    const text = `${failing ? "$(error)" : "$(check)"} ${summary.refs} refs, ${failing} failing`;
    showStatus(text, `SourceCheck: ${summary.resolved} of ${summary.refs} refs resolve; ${summary.errors} errors, ${summary.warnings} warnings`);
  } catch (error) {
    output.appendLine(`summary failed: ${String(error)}`);
  }
}

/** Reports a start failure: output channel, status bar and an error dialog (not awaited, so restarts are not held up). */
function reportFailure(message: string): void {
  output.appendLine(message);
  showStatus("$(error) SourceCheck", message, true);
  void vscode.window.showErrorMessage(`SourceCheck: ${message}`, "Open Settings", "Show Output").then((choice) => {
    if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "sourcecheck");
    if (choice === "Show Output") output.show();
  });
}

/** Stops and disposes a client, by default the current one. */
async function stopClient(old: LanguageClient | undefined = client): Promise<void> {
  if (old === client) client = undefined;
  await old?.dispose().catch(() => undefined); // the client logs its own stop errors; a failed start has nothing to stop
}

async function startServer(): Promise<void> {
  showStatus("$(sync~spin) SourceCheck", "SourceCheck language server: starting");
  const found = await findServer(vscode.workspace.getConfiguration("sourcecheck"), libs);
  if (shuttingDown) return;
  if (typeof found === "string") {
    reportFailure(found);
    return;
  }
  const restricted = vscode.workspace.isTrusted ? "" : "; the workspace is not trusted: its own sourcecheck.server.path and sourcecheck.interpreter are ignored";
  output.appendLine(`starting ${found.command} ${found.args.join(" ")} (from ${found.origin}${restricted})`);
  const serverOptions: ServerOptions = {
    run: { command: found.command, args: found.args, transport: TransportKind.stdio, options: { cwd: SAFE_START.cwd, env: { ...SAFE_START.env, ...found.env } } },
    debug: { command: found.command, args: found.args, transport: TransportKind.stdio, options: { cwd: SAFE_START.cwd, env: { ...SAFE_START.env, ...found.env } } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "json" },
      { scheme: "file", language: "jsonc" },
      { scheme: "untitled", language: "json" },
      { scheme: "file", pattern: "**/*.sourcecheck.json" },
      // the files sessions cite (an article, its sources): their claims' verdicts where the writer writes
      { scheme: "file", language: "markdown" },
      { scheme: "file", language: "plaintext" },
      { scheme: VIEW_SCHEME }, // document views: text the server provides (workspace/textDocumentContent)
    ],
    outputChannel: output,
    traceOutputChannel: output,
  };
  const started = new LanguageClient("sourcecheck", "SourceCheck", serverOptions, clientOptions);
  client = started;
  started.onDidChangeState((event) => {
    if (event.newState === State.Starting) showStatus("$(sync~spin) SourceCheck", "SourceCheck language server: starting");
    if (event.newState === State.Stopped) showStatus("$(error) SourceCheck", "SourceCheck language server: stopped (see SourceCheck: Show Output)", true);
    if (event.newState === State.Running) {
      void refreshSummary();
      reviews?.refreshAll();
    }
  });
  try {
    await started.start();
  } catch (error) {
    reportFailure(`the language server (${found.command}) could not start: ${String(error)}. Check sourcecheck.server.path / sourcecheck.interpreter.`);
    return;
  }
  if (shuttingDown) await stopClient(started); // deactivated while the server was starting
}

/** Stops the current client and starts a new one, after any start or stop already under way. */
function restartServer(): Promise<void> {
  queue = queue
    .then(() => stopClient())
    .then(startServer)
    .catch((error: unknown) => output.appendLine(`restart failed: ${String(error)}`));
  return queue;
}

interface SessionDocument {
  path: string;
  lines: number;
  refs: number;
  uri: string;
}

/** Opens a document view beside the session: the URI given (a code lens), else one picked
 * from the active session's documents. */
async function openDocumentView(uri?: string): Promise<void> {
  if (!uri) {
    const editor = vscode.window.activeTextEditor;
    if (!client || client.state !== State.Running || !editor) {
      void vscode.window.showInformationMessage("SourceCheck: open a session file first.");
      return;
    }
    const session = editor.document.uri.scheme === VIEW_SCHEME ? decodeURIComponent(editor.document.uri.query) : editor.document.uri.toString();
    const documents = await client.sendRequest<SessionDocument[]>("sourcecheck/documents", { uri: session });
    if (!documents.length) {
      void vscode.window.showInformationMessage("SourceCheck: this file is not a session with documents.");
      return;
    }
    const picked = await vscode.window.showQuickPick(
      documents.map((d) => ({ label: d.path, description: `${d.lines} lines · cited by ${d.refs} refs`, uri: d.uri })),
      { placeHolder: "Open which document of the session as text?" },
    );
    if (!picked) return;
    uri = picked.uri;
  }
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri, true));
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
}

/** Cites the selection of the active editor: the server's cite actions for it (the same as
 * its refactorings in the session file), picked from a list and applied. VS Code offers no
 * code actions in a read-only editor, and a document view is read-only. */
async function citeSelection(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!client || client.state !== State.Running || !editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage("SourceCheck: select the text to cite first (in a document view or a document's content).");
    return;
  }
  const result = await client.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: editor.document.uri.toString() },
    range: client.code2ProtocolConverter.asRange(editor.selection),
    context: { diagnostics: [], only: ["refactor.rewrite"] },
  });
  const actions = (result ?? []).filter((action): action is CodeAction => "title" in action && !("command" in action && typeof action.command === "string"));
  if (!actions.length) {
    void vscode.window.showInformationMessage("SourceCheck: this selection is not in a document of a session.");
    return;
  }
  const refusal = actions.find((action) => action.disabled);
  if (refusal?.disabled && actions.length === 1) {
    void vscode.window.showWarningMessage(`SourceCheck: ${refusal.disabled.reason}`);
    return;
  }
  const picked = await vscode.window.showQuickPick(
    actions.filter((action) => action.edit).map((action) => ({ label: action.title, action })),
    { placeHolder: "Cite the selection as…" },
  );
  if (!picked?.action.edit) return;
  const edit = await client.protocol2CodeConverter.asWorkspaceEdit(picked.action.edit);
  await vscode.workspace.applyEdit(edit);
}

function shutdown(): Promise<void> {
  shuttingDown = true;
  return stopClient();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("SourceCheck", { log: true });
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  status.command = "sourcecheck.showOutput";
  // One disposable, registered once, stops whichever client is current (first, while the output channel still exists).
  reviews = new Reviews(
    () => (client?.state === State.Running ? client : undefined),
    (line) => output.appendLine(line),
  );
  context.subscriptions.push({ dispose: () => void shutdown() }, output, status, reviews);
  libs = bundledLibs(context);
  // A different interpreter selected in the Python extension: the bundled server restarts with it.
  const watching = await onInterpreterChange(() => {
    if (libs) void vscode.commands.executeCommand("sourcecheck.restartServer");
  });
  if (watching) context.subscriptions.push(watching);
  context.subscriptions.push(
    vscode.commands.registerCommand("sourcecheck.showOutput", () => output.show()),
    vscode.commands.registerCommand("sourcecheck.openDocumentView", (uri?: string) => openDocumentView(uri)),
    vscode.commands.registerCommand("sourcecheck.citeSelection", () => citeSelection()),
    vscode.commands.registerCommand("sourcecheck.openReview", (uri?: vscode.Uri) => reviews?.open(uri)),
    vscode.commands.registerCommand("sourcecheck.showReferences", (uri: unknown, position: unknown, locations: unknown) =>
      showReferences(uri, position, locations),
    ),
    vscode.commands.registerCommand("sourcecheck.restartServer", () => {
      output.appendLine("restarting the server");
      return restartServer();
    }),
    vscode.window.onDidChangeActiveTextEditor(() => void refreshSummary()),
    vscode.languages.onDidChangeDiagnostics((event) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (active && event.uris.some((uri) => uri.toString() === active)) void refreshSummary();
    }),
    // Trust granted: the workspace's own server.path / interpreter now apply.
    vscode.workspace.onDidGrantWorkspaceTrust(async () => {
      const config = vscode.workspace.getConfiguration("sourcecheck");
      if (EXECUTED.some((key) => setByWorkspace(config, key))) await vscode.commands.executeCommand("sourcecheck.restartServer");
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("sourcecheck.server.path") || event.affectsConfiguration("sourcecheck.interpreter")) {
        await vscode.commands.executeCommand("sourcecheck.restartServer");
      }
    }),
  );
  await restartServer();
}

export function deactivate(): Promise<void> {
  return shutdown();
}

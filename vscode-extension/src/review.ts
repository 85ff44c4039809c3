// The review report of a session in a webview beside it (SourceCheck: Open Review), and the
// command of the server's reference lenses (sourcecheck.showReferences).
//
// The report is the server's: `sourcecheck/review` answers `{html}`, a self-contained page of
// the session's current version. The webview shows that page as it is, with two things put
// at the start of its <head>: a Content-Security-Policy that allows inline script and style
// and nothing else (no network, no files: localResourceRoots is empty), and a small inline
// script that lets the report call acquireVsCodeApi() more than once (VS Code allows one
// call) and keeps the scroll position when the page is replaced after an edit.
//
// A claim in the report carries data-line (its annotation's 1-based line in the session
// file); clicking it posts {type: "reveal", line}: the session's editor shows that line.
//
// When to ask again (schedule.ts): after a pause in typing that grows with how long the last
// review took, only while the panel is visible, one request at a time (a newer one cancels
// the older with the LSP cancellation token).

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { ReviewScheduler } from "./schedule";

const REVIEW_REQUEST = "sourcecheck/review";
const VIEW_SCHEME = "sourcecheck";
/** JSON-RPC's error code for a request the client cancelled. */
const REQUEST_CANCELLED = -32800;

interface ReviewAnswer {
  html: string;
}

/** Inline script and style only: the report is self-contained. */
export const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";

/** The script put before the report's own: one VS Code API for every acquireVsCodeApi()
 * call, and the scroll position kept across a replacement of the page. */
function prelude(scrollX: number, scrollY: number): string {
  return `<script>(() => {
  const acquire = globalThis.acquireVsCodeApi;
  if (typeof acquire !== "function") return;
  let api;
  globalThis.acquireVsCodeApi = () => (api ??= acquire());
  const vscode = globalThis.acquireVsCodeApi();
  addEventListener("DOMContentLoaded", () => scrollTo(${scrollX}, ${scrollY}));
  let timer;
  addEventListener("scroll", () => {
    clearTimeout(timer);
    timer = setTimeout(() => vscode.postMessage({ type: "sourcecheck.scroll", x: scrollX, y: scrollY }), 100);
  }, { passive: true });
})();</script>`;
}

/** The server's page with the CSP and the prelude at the start of its <head> (made if it has none). */
export function webviewHtml(html: string, scrollX = 0, scrollY = 0): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="${CSP}">${prelude(scrollX, scrollY)}`;
  const opening = /<head(\s[^>]*)?>/i.exec(html);
  if (opening) {
    const at = opening.index + opening[0].length;
    return html.slice(0, at) + head + html.slice(at);
  }
  const root = /<html(\s[^>]*)?>/i.exec(html);
  if (root) {
    const at = root.index + root[0].length;
    return html.slice(0, at) + `<head>${head}</head>` + html.slice(at);
  }
  return `<!DOCTYPE html><html><head>${head}</head><body>${html}</body></html>`;
}

class NotRunning extends Error {}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function basename(uri: vscode.Uri): string {
  return uri.path.split("/").pop() || uri.toString();
}

/** The session a document is or belongs to: a document view names its session in its query. */
export function sessionOf(uri: vscode.Uri): vscode.Uri {
  if (uri.scheme === VIEW_SCHEME) {
    const query = decodeURIComponent(uri.query).replace(/^session=/, "");
    return vscode.Uri.parse(query, true);
  }
  return uri;
}

class ReviewPanel {
  readonly panel: vscode.WebviewPanel;
  readonly scheduler: ReviewScheduler<ReviewAnswer | null, vscode.CancellationToken>;
  private html = "";
  private scroll = { x: 0, y: 0 };
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly session: vscode.Uri,
    private readonly reviews: Reviews,
    column: vscode.ViewColumn,
  ) {
    this.panel = vscode.window.createWebviewPanel(
      "sourcecheck.review",
      `Review: ${basename(session)}`,
      { viewColumn: column, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [], enableFindWidget: true },
    );
    this.panel.webview.html = webviewHtml("<p>Asking the SourceCheck server for the review…</p>");
    this.scheduler = new ReviewScheduler({
      ask: (token) => this.ask(token),
      show: (answer) => this.show(answer),
      failed: (error) => this.failed(error),
      visible: () => this.panel.visible,
      cancellation: () => new vscode.CancellationTokenSource(),
    });
    this.disposables.push(
      this.panel.webview.onDidReceiveMessage((message: unknown) => this.onMessage(message)),
      this.panel.onDidDispose(() => this.dispose()),
      this.panel.onDidChangeViewState(() => {
        if (this.panel.visible) {
          void this.scheduler.shown(); // edits made while it was hidden
        } else if (this.html) {
          // A hidden webview is made again from its html when shown: let that html hold
          // the latest scroll position.
          this.panel.webview.html = webviewHtml(this.html, this.scroll.x, this.scroll.y);
        }
      }),
    );
  }

  get key(): string {
    return this.session.toString();
  }

  /** The session changed: ask again after the pause (when the panel is visible). */
  schedule(): void {
    this.scheduler.changed();
  }

  /** Ask for the report now (an older request in flight is cancelled) and show it. */
  update(): Promise<void> {
    return this.scheduler.update();
  }

  private ask(token: vscode.CancellationToken): Promise<ReviewAnswer | null> {
    const client = this.reviews.client();
    if (!client) return Promise.reject(new NotRunning());
    return client.sendRequest<ReviewAnswer | null>(REVIEW_REQUEST, { uri: this.key }, token);
  }

  private show(answer: ReviewAnswer | null): void {
    if (this.reviews.disposed(this)) return;
    const html = answer && typeof answer.html === "string" ? answer.html : "<p>This file is not a SourceCheck session.</p>";
    if (html === this.html) return;
    this.html = html;
    this.panel.webview.html = webviewHtml(html, this.scroll.x, this.scroll.y);
  }

  private failed(error: unknown): void {
    if (this.reviews.disposed(this)) return;
    if (error instanceof NotRunning) {
      if (!this.html) this.panel.webview.html = webviewHtml("<p>The SourceCheck server is not running (see SourceCheck: Show Output).</p>");
      return;
    }
    if ((error as { code?: unknown } | undefined)?.code === REQUEST_CANCELLED) return;
    this.reviews.log(`review of ${this.key} failed: ${String(error)}`);
    if (!this.html) {
      // Nothing shown yet: say why instead of waiting forever.
      this.panel.webview.html = webviewHtml(`<p>The SourceCheck server gave no review: ${escapeHtml(String(error))}</p>`);
    }
  }

  private onMessage(message: unknown): void {
    if (!message || typeof message !== "object") return;
    const { type, line, x, y } = message as { type?: unknown; line?: unknown; x?: unknown; y?: unknown };
    if (type === "sourcecheck.scroll" && typeof x === "number" && typeof y === "number") {
      this.scroll = { x, y };
    } else if (type === "reveal" && typeof line === "number" && Number.isFinite(line)) {
      void this.reveal(Math.max(1, Math.floor(line)));
    }
  }

  /** Show the session with the cursor at the start of `line` (1-based). */
  private async reveal(line: number): Promise<void> {
    const key = this.key;
    const visible = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === key);
    const document = visible?.document ?? (await vscode.workspace.openTextDocument(this.session));
    const row = Math.min(line, document.lineCount) - 1;
    const at = new vscode.Position(row, document.lineAt(row).firstNonWhitespaceCharacterIndex);
    const column =
      visible?.viewColumn ??
      (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    const editor = await vscode.window.showTextDocument(document, { viewColumn: column, preserveFocus: false, preview: false });
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  dispose(): void {
    this.scheduler.dispose();
    this.reviews.forget(this);
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** The open review panels, one per session. */
export class Reviews implements vscode.Disposable {
  private readonly panels = new Map<string, ReviewPanel>();
  private readonly disposables: vscode.Disposable[];

  constructor(
    readonly client: () => LanguageClient | undefined,
    readonly log: (line: string) => void,
  ) {
    this.disposables = [
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length) this.panels.get(event.document.uri.toString())?.schedule();
      }),
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const uri of event.uris) this.panels.get(uri.toString())?.schedule();
      }),
    ];
  }

  /** SourceCheck: Open Review, for `uri` (the editor title or context menu), else the active editor. */
  async open(uri?: vscode.Uri): Promise<void> {
    const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
    if (!target) {
      void vscode.window.showInformationMessage("SourceCheck: open a session file first.");
      return;
    }
    if (!this.client()) {
      void vscode.window.showWarningMessage("SourceCheck: the language server is not running (see SourceCheck: Show Output).");
      return;
    }
    const session = sessionOf(target);
    const key = session.toString();
    const open = this.panels.get(key);
    if (open) {
      open.panel.reveal(undefined, true);
      await open.update();
      return;
    }
    await vscode.workspace.openTextDocument(session); // the server reads what the editor has open
    const panel = new ReviewPanel(session, this, vscode.ViewColumn.Beside);
    this.panels.set(key, panel);
    await panel.update();
  }

  /** Ask every open panel again (the server restarted). */
  refreshAll(): void {
    for (const panel of this.panels.values()) void panel.update();
  }

  disposed(panel: ReviewPanel): boolean {
    return this.panels.get(panel.key) !== panel;
  }

  forget(panel: ReviewPanel): void {
    if (this.panels.get(panel.key) === panel) this.panels.delete(panel.key);
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.panel.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

interface LspPosition {
  line: number;
  character: number;
}

interface LspLocation {
  uri: string;
  range: { start: LspPosition; end: LspPosition };
}

function asPosition(position: LspPosition): vscode.Position {
  return new vscode.Position(position.line, position.character);
}

/** The lens command: `[session_uri, position, locations]` in plain LSP JSON, shown in the
 * references peek at `position` of the session. */
export async function showReferences(uri: unknown, position: unknown, locations: unknown): Promise<void> {
  if (typeof uri !== "string" || !position || typeof position !== "object" || !Array.isArray(locations)) {
    void vscode.window.showErrorMessage("SourceCheck: sourcecheck.showReferences needs a URI, a position and locations.");
    return;
  }
  const found = (locations as LspLocation[]).map(
    (location) =>
      new vscode.Location(vscode.Uri.parse(location.uri, true), new vscode.Range(asPosition(location.range.start), asPosition(location.range.end))),
  );
  await vscode.commands.executeCommand("editor.action.showReferences", vscode.Uri.parse(uri, true), asPosition(position as LspPosition), found);
}

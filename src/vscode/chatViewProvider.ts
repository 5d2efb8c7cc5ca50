import * as vscode from 'vscode';
import { parseWebviewMessage, type HostToWebview } from '../contract/messages';
import type { ChatPresenter } from '../panel/chatPresenter';
import { DisposableBase, DisposableStore, toDisposable } from '../util/disposable';
import { type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';
import { renderPanelHtml } from './webviewHtml';

/** Hosts the chat webview view; the presenter owns all state, this only carries messages. */
export class ChatViewProvider extends DisposableBase implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | null = null;
  private viewSubscriptions = new DisposableStore();
  private badge: vscode.ViewBadge | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly presenter: () => ChatPresenter,
    private readonly logger: Logger,
  ) {
    super();
    this.register(toDisposable(() => this.viewSubscriptions.dispose()));
  }

  post(message: HostToWebview): void {
    void this.view?.webview.postMessage(message);
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  /** The view's badge (kept for a view that is resolved later, as the activity bar shows it). */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.badge = badge;
    if (this.view) this.view.badge = badge;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.viewSubscriptions.dispose();
    this.viewSubscriptions = new DisposableStore();
    this.view = view;
    view.badge = this.badge;
    view.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')] };
    view.webview.html = renderPanelHtml(view.webview, this.extensionUri);
    this.viewSubscriptions.add(view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    // Without retained context a hidden view loses its document; it asks for a snapshot when back.
    this.viewSubscriptions.add(view.onDidChangeVisibility(() => {
      if (!view.visible) this.presenter().detachView();
    }));
    this.viewSubscriptions.add(view.onDidDispose(() => {
      this.presenter().detachView();
      if (this.view === view) this.view = null;
    }));
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.logger.warn(`[panel] ignored an invalid message from the webview: ${parsed.error}`);
      return;
    }
    this.presenter().handle(parsed.message).catch((error: unknown) => this.logger.error(`[panel] ${parsed.message.type} failed: ${errorMessage(error)}`));
  }
}

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Frame } from '../../acp/frames';
import { parseInspectorMessage, type FrameFilterView, type HostToInspector, type InspectorToHost } from '../../contract/inspectorView';
import { NO_FILTER } from '../../inspector/frameFilter';
import { InspectorModel } from '../../inspector/inspectorModel';
import { renderInspectorDocument } from '../../panel/inspectorDocument';
import { assertNever } from '../../util/assertNever';
import { DisposableBase, toDisposable } from '../../util/disposable';
import type { Logger } from '../../util/logger';

/** What one inspector tab looks at: a live conversation or a replayed recording. */
export interface InspectorTarget {
  title: string;
  /** A sentence under the title (what was skipped, that frames were dropped), or null. */
  note(): string | null;
  /** The frames as recorded, before redaction. */
  frames(): readonly Frame[];
  hasToolCall(toolCallId: string): boolean;
  showInThread(toolCallId: string): void;
  showReport(): void;
  exportFrames(): void;
}

/**
 * The frame inspector tab: the host holds the frames, their index and the filter; the webview
 * holds the rows and asks for a frame's text when one is selected, so a filter or a selection
 * never moves the frames' text across.
 */
export class FrameInspectorPanel extends DisposableBase {
  static readonly viewType = 'tandem.frameInspector';
  private readonly panel: vscode.WebviewPanel;
  private model: InspectorModel | null = null;
  private pendingFilter: FrameFilterView = NO_FILTER;
  private ready = false;
  private readonly disposedEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.disposedEmitter.event;

  constructor(extensionUri: vscode.Uri, private target: InspectorTarget, private readonly logger: Logger) {
    super();
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    this.panel = vscode.window.createWebviewPanel(FrameInspectorPanel.viewType, target.title, vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist],
      retainContextWhenHidden: true,
    });
    const { webview } = this.panel;
    webview.html = renderInspectorDocument({
      cspSource: webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      asset: (distPath) => webview.asWebviewUri(vscode.Uri.joinPath(dist, ...distPath.split('/'))).toString(),
    });
    this.register(webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)));
    this.register(this.panel.onDidDispose(() => {
      this.disposedEmitter.fire();
      this.dispose();
    }));
    this.register(toDisposable(() => this.panel.dispose()));
  }

  /** Shows `target` (again), filtered to `toolCallId` when given. */
  show(target: InspectorTarget, toolCallId: string | null): void {
    this.target = target;
    this.panel.title = target.title;
    this.pendingFilter = { ...NO_FILTER, toolCallId };
    this.panel.reveal();
    if (this.ready) this.load();
  }

  private post(message: HostToInspector): void {
    void this.panel.webview.postMessage(message);
  }

  private load(): void {
    const started = Date.now();
    this.model = new InspectorModel(this.target.frames());
    const visible = this.model.applyFilter(this.pendingFilter);
    this.post({ type: 'frames', title: this.target.title, note: this.target.note(), rows: this.model.rows(), methods: [...this.model.index.methods], filter: this.model.filter, visible });
    this.logger.debug(`[inspector] ${this.model.shown.length} frames indexed in ${Date.now() - started} ms`);
    const model = this.model;
    void model.checkDelivery().then((marks) => {
      if (this.model === model && marks.length > 0) this.post({ type: 'marks', marks });
    });
  }

  private receive(raw: unknown): void {
    const message = parseInspectorMessage(raw);
    if (!message) {
      this.logger.warn('[inspector] ignored an invalid message from the webview');
      return;
    }
    this.handle(message);
  }

  private handle(message: InspectorToHost): void {
    switch (message.type) {
      case 'ready':
      case 'refresh':
        this.ready = true;
        if (message.type === 'refresh') this.pendingFilter = this.model?.filter ?? NO_FILTER;
        return this.load();
      case 'filter':
        if (this.model) this.post({ type: 'filtered', filter: message.filter, visible: this.model.applyFilter(message.filter) });
        return;
      case 'select': {
        const detail = this.model?.detail(message.index);
        if (detail) this.post({ type: 'detail', index: message.index, text: detail.text, inThread: detail.toolCallId !== null && this.target.hasToolCall(detail.toolCallId) });
        return;
      }
      case 'showInThread':
        return this.target.showInThread(message.toolCallId);
      case 'showReport':
        return this.target.showReport();
      case 'export':
        return this.target.exportFrames();
      default:
        assertNever(message, 'inspector message');
    }
  }
}

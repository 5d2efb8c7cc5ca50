import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Frame } from '../../wire/frame';
import { parseInspectorMessage, type FrameFilterView, type HostToInspector, type InspectorToHost } from '../../contract/inspectorView';
import { NO_FILTER } from '../frameFilter';
import { InspectorModel } from '../inspectorModel';
import type { Redaction } from '../../redaction/slicedRedaction';
import { renderInspectorDocument } from '../../panel/panelDocument';
import { assertNever } from '../../util/assertNever';
import { DisposableBase, toDisposable } from '../../util/disposable';
import { type Logger } from '../../util/logger';
import { errorMessage } from '../../redaction/redactedLog';
import { FRAME_INSPECTOR_PANEL_TYPE } from '../../contract/ids';

/** What one inspector tab looks at: a live conversation or a replayed recording. */
export interface InspectorTarget {
  title: string;
  /** A sentence under the title (what was skipped, that frames were dropped), or null. */
  note(): string | null;
  /** The frames as recorded, before redaction. */
  frames(): readonly Frame[];
  /** How those frames are redacted (their store redacts each frame once). */
  redaction: Redaction;
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
  private readonly panel: vscode.WebviewPanel;
  private model: InspectorModel | null = null;
  private pendingFilter: FrameFilterView = NO_FILTER;
  private ready = false;
  private readonly disposedEmitter = this.register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.disposedEmitter.event;

  constructor(extensionUri: vscode.Uri, private target: InspectorTarget, private readonly logger: Logger) {
    super();
    const dist = vscode.Uri.joinPath(extensionUri, 'dist');
    this.panel = vscode.window.createWebviewPanel(FRAME_INSPECTOR_PANEL_TYPE, target.title, vscode.ViewColumn.Active, {
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
    if (this.ready) void this.load();
  }

  private post(message: HostToInspector): void {
    void this.panel.webview.postMessage(message);
  }

  private async load(): Promise<void> {
    const started = Date.now();
    const model = new InspectorModel(this.target.frames(), this.target.redaction);
    this.model = model;
    const visible = await model.applyFilter(this.pendingFilter);
    if (this.model !== model) return;
    this.post({ type: 'frames', title: this.target.title, note: this.target.note(), rows: model.rows(), methods: model.methods(), connections: model.connections(), filter: model.filter, visible });
    this.logger.debug(`[inspector] ${model.index.frames.length} frames indexed in ${Date.now() - started} ms`);
    // Redaction (for search and details) and the delivery check go on after the list is shown.
    void model.shown();
    const marks = await model.checkDelivery();
    if (this.model === model && marks.length > 0) this.post({ type: 'marks', marks });
  }

  private receive(raw: unknown): void {
    const message = parseInspectorMessage(raw);
    if (!message) {
      this.logger.warn('[inspector] ignored an invalid message from the webview');
      return;
    }
    this.handle(message).catch((error: unknown) => this.logger.error(`[inspector] ${message.type} failed: ${errorMessage(error)}`));
  }

  private async applyFilter(filter: FrameFilterView): Promise<void> {
    const model = this.model;
    if (!model) return;
    const visible = await model.applyFilter(filter);
    // A search waits for the redaction; a later filter may have come meanwhile, and only the current one is shown.
    if (this.model === model && model.filter === filter) this.post({ type: 'filtered', filter, visible });
  }

  private async showDetail(index: number): Promise<void> {
    const detail = await this.model?.detail(index);
    if (detail) this.post({ type: 'detail', index, text: detail.text, inThread: detail.toolCallId !== null && this.target.hasToolCall(detail.toolCallId) });
  }

  private async handle(message: InspectorToHost): Promise<void> {
    switch (message.type) {
      case 'ready':
      case 'refresh':
        this.ready = true;
        if (message.type === 'refresh') this.pendingFilter = this.model?.filter ?? NO_FILTER;
        return this.load();
      case 'filter':
        return this.applyFilter(message.filter);
      case 'select':
        return this.showDetail(message.index);
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

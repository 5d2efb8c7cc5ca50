import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FrameStore } from '../../acp/frames';
import type { Frame } from '../../wire/frame';
import { conversationFrames } from '../conversationFrames';
import { conversationReport } from '../conversationReport';
import { buildFrameIndex } from '../frameIndex';
import type { InspectedConversation } from '../inspectedConversation';
import { exportFrames, recordingHeader, writeRecording } from '../recording';
import { reportMarkdown } from '../reportMarkdown';
import { storeRedaction, type Redaction } from '../../redaction/slicedRedaction';
import { DisposableBase } from '../../util/disposable';
import { type Logger } from '../../util/logger';
import { errorMessage } from '../../redaction/redactedLog';
import { FrameInspectorPanel, type InspectorTarget } from './frameInspectorPanel';
import { ReportDocuments } from './reportDocuments';
import { COMMANDS } from '../../contract/ids';

export interface InspectorFeatureOptions {
  extensionUri: vscode.Uri;
  /** The window's frames, every agent's. */
  frames: FrameStore;
  /** The conversation in front of the user; null until it opened a session. */
  conversation(): InspectedConversation | null;
  /** The conversation in front when it is a replayed recording: its frames are the replay's own. */
  inspectedReplay?(): Inspected | null;
  /** Brings the chat panel to the tool call's card. */
  showInThread(toolCallId: string): void;
  logger: Logger;
}

/** A conversation and where its frames come from: the window's traffic, or a replay's own. */
export interface Inspected {
  conversation: InspectedConversation;
  frames(): Frame[];
  redaction: Redaction;
  note(): string | null;
  showInThread(toolCallId: string): void;
}


function stamp(date: Date): string {
  return date.toISOString().replace(/[:.]/g, '-').slice(0, 19);
}

/** Asks where to save, then writes; the user's home is offered so nothing lands in the project unasked. */
async function saveText(name: string, filters: Record<string, string[]>, text: () => Promise<string> | string): Promise<vscode.Uri | null> {
  const uri = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(join(homedir(), name)), filters });
  if (!uri) return null;
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(await text()));
  return uri;
}

/**
 * The inspector's commands: the frame inspector tab (one, re-aimed at whichever conversation it
 * is opened for), the fidelity report, exports and recordings of the conversation in front.
 */
export class InspectorFeature extends DisposableBase {
  private panel: FrameInspectorPanel | null = null;
  private readonly reports = this.register(new ReportDocuments('tandem-report'));

  constructor(private readonly options: InspectorFeatureOptions) {
    super();
    this.register(vscode.commands.registerCommand(COMMANDS.showFrameInspector, (toolCallId?: unknown) => this.run(() => this.showInspector(this.conversation(), typeof toolCallId === 'string' ? toolCallId : null))));
    this.register(vscode.commands.registerCommand(COMMANDS.showFidelityReport, () => this.run(() => this.showReport(this.conversation()))));
    this.register(vscode.commands.registerCommand(COMMANDS.exportConversationFrames, () => this.run(() => this.exportFrames(this.conversation()))));
    this.register(vscode.commands.registerCommand(COMMANDS.saveRecording, () => this.run(() => this.saveRecording(this.conversation()))));
  }

  override dispose(): void {
    this.panel?.dispose();
    super.dispose();
  }

  /** Opens the inspector on a target of its own (a replay's frames). */
  inspect(target: InspectorTarget, toolCallId: string | null = null): void {
    if (!this.panel) {
      const panel = new FrameInspectorPanel(this.options.extensionUri, target, this.options.logger);
      this.panel = panel;
      panel.onDidDispose(() => {
        if (this.panel === panel) this.panel = null;
      });
    }
    this.panel.show(target, toolCallId);
  }

  async run(command: () => Promise<void> | void): Promise<void> {
    try {
      await command();
    } catch (error) {
      this.options.logger.error(`[inspector] ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Tandem: {0}', errorMessage(error)));
    }
  }

  /** The conversation in front with its frames out of the window's, or null (and the user told why). */
  private conversation(): Inspected | null {
    const replay = this.options.inspectedReplay?.();
    if (replay) return replay;
    const conversation = this.options.conversation();
    if (!conversation) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No conversation to inspect yet: start one with an agent first.'));
      return null;
    }
    const store = this.options.frames;
    return {
      conversation,
      frames: () => {
        const all = store.frames();
        return conversationFrames(all, buildFrameIndex(all), conversation.sessionIds);
      },
      redaction: storeRedaction(store),
      note: () => (store.dropped > 0 ? `The oldest ${store.dropped.toLocaleString()} frames of this window were dropped to bound memory.` : null),
      showInThread: (id) => this.options.showInThread(id),
    };
  }

  /** Opens the inspector on what `inspected` holds; each open and refresh reads the frames that arrived since. */
  showInspector(inspected: Inspected | null, toolCallId: string | null = null): void {
    if (!inspected) return;
    const { conversation } = inspected;
    this.inspect({
      title: `Frames: ${conversation.label}`,
      note: inspected.note,
      frames: inspected.frames,
      redaction: inspected.redaction,
      hasToolCall: (id) => conversation.hasToolCall(id),
      showInThread: inspected.showInThread,
      showReport: () => void this.run(() => this.showReport(inspected)),
      exportFrames: () => void this.run(() => this.exportFrames(inspected)),
    }, toolCallId);
  }

  private async showReport(inspected: Inspected | null): Promise<void> {
    if (!inspected) return;
    const report = await conversationReport(inspected.conversation, inspected.frames());
    await this.reports.show(`Fidelity report, ${inspected.conversation.label}`, reportMarkdown(report, inspected.conversation.cwd));
    const choice = await vscode.window.showInformationMessage(report.summary, vscode.l10n.t('Export JSON…'));
    if (choice) await saveText(`tandem-report-${stamp(new Date())}.json`, { JSON: ['json'] }, () => `${JSON.stringify(report, null, 2)}\n`);
  }

  private async exportFrames(inspected: Inspected | null): Promise<void> {
    if (!inspected) return;
    const frames = inspected.frames();
    const saved = await saveText(`tandem-frames-${stamp(new Date())}.ndjson`, { NDJSON: ['ndjson', 'jsonl'] }, () => exportFrames(frames, inspected.redaction));
    if (saved) void vscode.window.showInformationMessage(vscode.l10n.t('Saved {0} frames, redacted, to {1}.', frames.length, saved.fsPath));
  }

  private async saveRecording(inspected: Inspected | null): Promise<void> {
    if (!inspected) return;
    const frames = inspected.frames();
    const now = new Date();
    const header = recordingHeader(frames, inspected.conversation.cwd, now);
    const saved = await saveText(`tandem-recording-${stamp(now)}.tandem.ndjson`, { 'Tandem recording': ['ndjson'] }, () => writeRecording(header, frames, inspected.redaction));
    if (saved) void vscode.window.showInformationMessage(vscode.l10n.t('Saved a recording of {0} frames, redacted, to {1}.', frames.length, saved.fsPath));
  }
}

import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { describeSkipped, MAX_RECORDING_BYTES, readRecording, RecordingError, type LoadedRecording } from '../../inspector/recording';
import type { ReplaySpeed } from '../replayChannel';
import type { SessionController } from '../../conversation/sessionController';
import { RecordingReplay } from '../panel/recordingReplay';
import { storeRedaction } from '../../redaction/slicedRedaction';
import { DisposableBase, toDisposable } from '../../util/disposable';
import type { Logger } from '../../util/logger';
import type { Inspected, InspectorFeature } from '../../inspector/vscode/inspectorFeature';
import { COMMANDS } from '../../contract/ids';

export interface ReplayCommandOptions {
  /** The window's folders: a replayed session says it works in the first. */
  roots(): readonly string[];
  inspector: InspectorFeature;
  logger: Logger;
  /**
   * Shows the replayed conversation's thread (read-only) where conversations are shown, which
   * then owns it; without it the replay is seen through its frames and report only.
   */
  showReplay?(replay: RecordingReplay): void;
  /** Brings the shown replay's thread to a tool call's card. */
  showInThread?(toolCallId: string): void;
}

/** A recording's text, or why it cannot be read: too large, or not text. */
async function readRecordingFile(uri: vscode.Uri): Promise<LoadedRecording> {
  const { size } = await vscode.workspace.fs.stat(uri);
  if (size > MAX_RECORDING_BYTES) throw new RecordingError(`This file is ${Math.round(size / (1024 * 1024))} MB; Tandem replays recordings up to ${MAX_RECORDING_BYTES / (1024 * 1024)} MB.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    throw new RecordingError('This file is not text (not UTF-8): it is not a Tandem recording.');
  }
  return readRecording(text);
}

/** "Replay Recording…": a recording plays into a conversation of its own, where nothing runs. */
export class ReplayCommand extends DisposableBase {
  /** Every replay of this window, by its conversation: the inspector of a replay tab shows the replay's own frames. */
  private readonly replays = new Map<SessionController, { replay: RecordingReplay; inspected: Inspected }>();

  constructor(private readonly options: ReplayCommandOptions) {
    super();
    this.register(vscode.commands.registerCommand(COMMANDS.replayRecording, () => options.inspector.run(() => this.replay())));
    this.register(toDisposable(() => {
      for (const { replay } of this.replays.values()) replay.dispose();
      this.replays.clear();
    }));
  }

  /** The replay whose conversation this is, as the inspector sees it; null for a live conversation. */
  inspectedFor(session: SessionController): Inspected | null {
    return this.replays.get(session)?.inspected ?? null;
  }

  private async replay(): Promise<void> {
    const [uri] = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { [vscode.l10n.t('Tandem recording')]: ['ndjson', 'jsonl'] }, openLabel: vscode.l10n.t('Replay') }) ?? [];
    if (!uri) return;
    let recording: LoadedRecording;
    try {
      recording = await readRecordingFile(uri);
    } catch (error) {
      if (!(error instanceof RecordingError)) throw error;
      void vscode.window.showErrorMessage(vscode.l10n.t('Tandem cannot replay {0}: {1}', uri.fsPath, error.message));
      return;
    }
    const speed = await vscode.window.showQuickPick([
      { label: vscode.l10n.t('Instantly'), speed: 'instant' as ReplaySpeed },
      { label: vscode.l10n.t('At recorded speed'), description: vscode.l10n.t('pauses longer than 3 s are shortened'), speed: 'recorded' as ReplaySpeed },
    ], { title: vscode.l10n.t('Replay the recording') });
    if (!speed) return;
    const replay = new RecordingReplay(recording, {
      speed: speed.speed,
      logger: this.options.logger,
      workspaceRoot: this.options.roots()[0] ?? homedir(),
    });
    const skipped = describeSkipped(recording.skipped);
    const notes: string[] = skipped ? [skipped] : [];
    const inspected = this.inspected(replay, notes);
    if (this.options.showReplay) this.options.showReplay(replay);
    else {
      // Seen through its frames alone, only the latest replay is kept.
      for (const { replay: earlier } of this.replays.values()) earlier.dispose();
      this.replays.clear();
      this.options.inspector.showInspector(inspected);
    }
    this.replays.set(replay.session, { replay, inspected });
    const played = await replay.play();
    notes.push(...played);
    const summary = notes.length > 0
      ? vscode.l10n.t('Replay finished: {0} frames; {1}', recording.frames.length, notes.join(' '))
      : vscode.l10n.t('Replay finished: {0} frames.', recording.frames.length);
    void vscode.window.showInformationMessage(summary);
  }

  private inspected(replay: RecordingReplay, notes: readonly string[]): Inspected {
    const { session } = replay;
    return {
      conversation: {
        label: session.agent.label,
        sessionIds: new Set([session.currentSessionId ?? '']),
        cwd: null,
        workspaceRoots: [],
        files: () => [],
        permissions: () => ({ projectRules: [], tandemGrants: [] }),
        hasToolCall: (id) => this.options.showInThread !== undefined && session.thread.toolCall(id) !== undefined,
      },
      frames: () => replay.frames.frames(),
      redaction: storeRedaction(replay.frames),
      note: () => ['A replay: nothing was run, read or written.', ...notes].join(' '),
      showInThread: (id) => this.options.showInThread?.(id),
    };
  }
}

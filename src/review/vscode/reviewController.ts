import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ReviewAction, ReviewRequest, ReviewView } from '../../contract/reviewView';
import { withoutBom } from '../../files/textContent';
import { ChangeFeed } from '../changeFeed';
import { handEditNote } from '../handEdits';
import { ChangeLedger, StaleHunkError, type FileWrite, type LedgerSnapshot } from '../changeLedger';
import type { FeedbackStore, ReviewFeedbackState } from '../comments/reviewFeedbackState';
import type { ReviewSource } from '../reviewSource';
import { CoalescedTask } from '../../util/coalescedTask';
import { DisposableBase, toDisposable, type Disposable } from '../../util/disposable';
import { Emitter } from '../../util/emitter';
import { type Logger } from '../../util/logger';
import { errorMessage } from '../../redaction/redactedLog';
import { keepLineEndings } from '../../files/exactLines';
import { ReviewWriter, watchedDocuments, writeFailureMessage, type WriteWatch } from '../reviewWriter';
import { type DocumentWriter } from '../../files/documents';
import { editorNote } from '../editorNote';
import { COMMANDS, SETTINGS, STORAGE_KEYS } from '../../contract/ids';

/** Bursts of ledger changes (a multi-file write, undo all) are saved once. */
const SAVE_DELAY_MS = 300;

/**
 * A clean document whose text changed and now reads as its file on disk was reloaded from disk,
 * not typed in. The document's dirty flag alone cannot say: on the first keystroke after a save
 * the change arrives before the flag is set. Read only for clean documents of files under
 * review, so not per keystroke.
 */
function reloadedFromDisk(document: vscode.TextDocument): boolean {
  if (document.isDirty) return false;
  const lines = (text: string) => withoutBom(text).replace(/\r\n?/g, '\n');
  try {
    return lines(readFileSync(document.uri.fsPath, 'utf8')) === lines(document.getText());
  } catch {
    return false;
  }
}

/** An action on one hunk; a request that does not name one has nothing to act on. */
function onHunk(run: (path: string, hunkId: string) => unknown): (request: ReviewRequest) => unknown {
  return ({ path, hunkId }) => (path && hunkId ? run(path, hunkId) : undefined);
}

/** An action on one file; a request that does not name one has nothing to act on. */
function onFile(run: (path: string) => unknown): (request: ReviewRequest) => unknown {
  return ({ path }) => (path ? run(path) : undefined);
}

/**
 * The editor side of review: one change ledger for the workspace, kept across reloads, fed by
 * fs writes, disk snapshots and hand edits, acted on from the panel, CodeLens and commands.
 */
export class ReviewController extends DisposableBase implements ReviewSource {
  private readonly ledger: ChangeLedger;
  /** Where sessions' file services record agent changes. */
  readonly feed: ChangeFeed;
  private readonly changeEmitter = this.register(new Emitter<void>());
  readonly onDidChangeChanges = this.changeEmitter.event;
  private readonly save = this.register(new CoalescedTask(SAVE_DELAY_MS, () => {
    void this.state.update(STORAGE_KEYS.reviewLedger, this.ledger.toJSON());
    void this.state.update(STORAGE_KEYS.reviewOwners, this.feed.ownersJSON());
  }));
  private feedbackState: ReviewFeedbackState | null = null;
  private readonly saveFeedback = this.register(new CoalescedTask(SAVE_DELAY_MS, () => void this.state.update(STORAGE_KEYS.reviewFeedback, this.feedbackState)));
  /** The panel's comments not sent yet and reviewed marks, kept with the pending changes they are about. */
  readonly feedbackStore: FeedbackStore = {
    read: () => this.state.get(STORAGE_KEYS.reviewFeedback),
    write: (state) => {
      this.feedbackState = state;
      this.saveFeedback.schedule();
    },
  };
  private readonly actions: Record<ReviewAction, (request: ReviewRequest) => unknown> = {
    keepHunk: onHunk((path, hunkId) => this.ledger.keepHunk(path, hunkId)),
    undoHunk: onHunk((path, hunkId) => this.write('undo', [this.ledger.undoHunk(path, hunkId)])),
    keepFile: onFile((path) => this.ledger.keepFile(path)),
    undoFile: onFile((path) => this.write('undo', [this.ledger.undoFile(path)])),
    keepAll: () => this.ledger.keepAll(),
    undoAll: () => this.write('undo', this.ledger.undoAll()),
    redoUndo: () => this.write('redo', this.ledger.redoLastUndo() ?? []),
    openReview: () => vscode.commands.executeCommand(COMMANDS.reviewChanges),
    openFile: onFile((path) => vscode.commands.executeCommand(COMMANDS.openChange, path)),
  };

  private readonly writer: ReviewWriter;
  private writeWatch: WriteWatch;

  constructor(private readonly state: vscode.Memento, documents: DocumentWriter, private readonly logger: Logger) {
    super();
    this.ledger = this.restore();
    this.feed = new ChangeFeed(this.ledger, this.state.get(STORAGE_KEYS.reviewOwners));
    this.writeWatch = this.feed;
    // The ledger already holds what an undo writes: the document changes and saves on the way are not hand edits.
    this.writer = new ReviewWriter(this.ledger, watchedDocuments(documents, () => this.writeWatch));
    // Disposed first (the store goes in reverse): what changed just before a reload is saved, not dropped.
    this.register(toDisposable(() => {
      this.save.flush();
      this.saveFeedback.flush();
    }));
    this.register(this.ledger.onDidChange(() => {
      this.changeEmitter.fire();
      this.save.schedule();
    }));
    this.register(vscode.workspace.onDidChangeTextDocument(({ document, contentChanges }) => {
      if (document.uri.scheme === 'file' && contentChanges.length > 0) this.documentChanged(document);
    }));
  }

  /** Review's own writes pass through `watch` (the change feed as the checkpoints watch it), not the bare feed. */
  watchWrites(watch: WriteWatch): void {
    this.writeWatch = watch;
  }

  get changes(): ChangeLedger {
    return this.ledger;
  }

  onDidChange(listener: () => void): Disposable {
    return this.onDidChangeChanges(listener);
  }

  view(): ReviewView {
    return {
      files: this.ledger.files().map((file) => ({ ...file, label: vscode.workspace.asRelativePath(file.path, false) })),
      canRedo: this.ledger.canRedo(),
    };
  }

  takePromptNotes(owner: string): string[] {
    // Taken either way: with the setting off, what happened now is not told later either.
    const undone = this.feed.takeUndoSummary(owner);
    const edited = this.feed.takeHandEdits(owner);
    if (!vscode.workspace.getConfiguration().get<boolean>(SETTINGS.tellAgentAboutUndo, true)) return [];
    const notes: string[] = [];
    if (undone.length > 0) notes.push(editorNote(`the user reviewed your earlier changes and undid some of them. ${undone.join('; ')}. The files on disk are the truth now; read them again before editing.`));
    if (edited.length > 0) notes.push(handEditNote(edited, (path) => vscode.workspace.asRelativePath(path, false)));
    return notes;
  }

  async act(request: ReviewRequest): Promise<void> {
    try {
      await this.actions[request.action](request);
    } catch (error) {
      if (error instanceof StaleHunkError) {
        // The click lost a race with a newer write: the views are about to show the new hunks.
        this.logger.debug(`[review] ${request.action} on a change that is no longer pending`);
        this.changeEmitter.fire();
        return;
      }
      this.showError(`Tandem could not ${request.action.replace(/([A-Z])/g, ' $1').toLowerCase()}: ${errorMessage(error)}`);
    }
  }

  /**
   * A buffer shows every line with its one line ending: lines the user did not edit keep the ones
   * the file really has, so a hand edit of a file that mixes them changes only the edited lines.
   */
  private documentChanged(document: vscode.TextDocument): void {
    const path = document.uri.fsPath;
    const current = this.ledger.encodingOf(path) === 'text' ? this.ledger.currentText(path) : undefined;
    if (typeof current !== 'string') return;
    this.feed.documentChanged(path, keepLineEndings(withoutBom(current), document.getText()), !reloadedFromDisk(document));
  }

  /** Puts undone (or redone) text back where it came from; an undo that could not be written stays pending. */
  private async write(action: 'undo' | 'redo', writes: readonly FileWrite[]): Promise<void> {
    const failures = await (action === 'undo' ? this.writer.undo(writes) : this.writer.redo(writes));
    if (failures.length === 0) return;
    this.showError(writeFailureMessage(failures, (path) => vscode.workspace.asRelativePath(path, false), action, writes.length));
  }

  private showError(sentence: string): void {
    this.logger.error(`[review] ${sentence}`);
    void vscode.window.showErrorMessage(sentence, vscode.l10n.t('Show Log')).then((choice) => choice && vscode.commands.executeCommand(COMMANDS.showLog));
  }

  private restore(): ChangeLedger {
    const snapshot = this.state.get<LedgerSnapshot>(STORAGE_KEYS.reviewLedger);
    if (!snapshot) return new ChangeLedger();
    try {
      return ChangeLedger.fromJSON(snapshot);
    } catch (error) {
      this.logger.warn(`[review] pending changes from the last window could not be restored: ${errorMessage(error)}`);
      return new ChangeLedger();
    }
  }
}

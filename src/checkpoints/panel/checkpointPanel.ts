import type { CheckpointAction, CheckpointHostMessage, CheckpointPreviewView, CheckpointsView, RestoreScope } from '../../contract/checkpointView';
import type { Checkpoint } from '../checkpoints';
import type { CheckpointService } from '../checkpointService';
import { conversationRestore } from '../checkpointsConversation';
import { messageCheckpoints } from '../checkpointsLookup';
import type { RestorePlan } from '../checkpointsPlan';
import { messageLabel } from '../checkpointsRecorder';
import { restoreSummary } from '../checkpointsRestore';
import { assertNever } from '../../util/assertNever';
import { CoalescedTask } from '../../util/coalescedTask';
import { DisposableStore, type Disposable } from '../../util/disposable';
import { errorMessage } from '../../redaction/redactedLog';
import type { AgentDefinition } from '../../agents/agentConfig';
import type { TabsView } from '../../contract/sessionTabsView';
import type { SessionController } from '../../conversation/sessionController';
import { editorNote } from '../../review/editorNote';


/** A preview shown in the panel, waiting for the user's choice. */
interface OpenPreview {
  id: string;
  plan: RestorePlan;
  tabId: string;
  /** null: the message has no checkpoint (only its conversation can be restored). */
  checkpoint: Checkpoint | null;
  /** The message restored to; null for "Redo restore". */
  entryId: string | null;
  /** How the notice names the point restored to. */
  restoredTo: string;
}

/** Checkpoint news reach the panel once per burst (an agent writing many files). */
const REFRESH_DELAY_MS = 100;

/** Why a user message offers no restore of the files (its conversation can still go back there). */
const NO_CHECKPOINT = 'Tandem has no checkpoint of the files for this message: it was sent in another window or workspace, before Tandem kept checkpoints, or into a turn that was already running.';

/** Files named to the agent after a restore it did not see; more are counted. */
const MAX_NOTED_FILES = 20;

/** The agent of the conversation the restore was made from is told, with its next message, that its files moved back. */
function restoredNote(labels: readonly string[], restoredTo: string): string {
  const named = labels.slice(0, MAX_NOTED_FILES).join(', ');
  const more = labels.length > MAX_NOTED_FILES ? ` and ${labels.length - MAX_NOTED_FILES} more` : '';
  return editorNote(`the user restored ${labels.length === 1 ? 'a file' : `${labels.length} files`} to how ${labels.length === 1 ? 'it was' : 'they were'} ${restoredTo}: ${named}${more}. The files on disk are the truth now; read them again before editing.`);
}

/** What checkpoints need of a conversation tab: the panel's own tabs are these. */
export interface CheckpointTab {
  readonly id: string;
  readonly title: string;
  readonly agent: AgentDefinition;
  readonly session: SessionController;
  openExisting(target: Parameters<SessionController['openExisting']>[0], failure: string): Promise<void>;
}

/** The open conversations, as far as checkpoints look at them and open one. */
export interface CheckpointTabs {
  readonly active: CheckpointTab;
  find(tabId: string): CheckpointTab | undefined;
  view(): TabsView;
  open(agent: AgentDefinition): CheckpointTab;
}

function canFork(tab: CheckpointTab): boolean {
  return tab.session.history.fork && tab.session.currentSessionId !== null;
}

/**
 * "Restore to here" in the panel: which user messages of the conversation in front have a
 * checkpoint, the preview of a restore, the restore of the code and/or the conversation (in a
 * new tab), and "Redo restore". Also the prompt path's hook, so each message gets its checkpoint.
 */
export class CheckpointPanel implements Disposable {
  private preview: OpenPreview | null = null;
  private nextPreviewId = 1;
  /** What the agent of a continued conversation is told with its next message, by session key. */
  private readonly notes = new Map<string, string[]>();
  private readonly subscriptions = new DisposableStore();
  private readonly refreshLater = this.subscriptions.add(new CoalescedTask(REFRESH_DELAY_MS, () => this.refresh()));
  /** The conversation in front, whose user messages (added, replayed, copied in) change what the panel lists. */
  private followed: { tab: CheckpointTab; userEntries: Set<string>; subscription: Disposable } | null = null;

  constructor(
    private readonly service: CheckpointService,
    private readonly tabs: CheckpointTabs,
    private readonly post: (message: CheckpointHostMessage) => void,
    private readonly tabsChanged: () => void,
  ) {
    this.subscriptions.add(service.store.onDidChange(() => this.refreshLater.schedule()));
  }

  /** Before a user message goes out: its checkpoint (resolves once it is taken). */
  beforePrompt(tab: CheckpointTab, text: string): Promise<Checkpoint> {
    this.noteSession(tab);
    return this.service.recorder.beforePrompt(tab.id, text);
  }

  /** Right after the prompt started: the thread holds the message now. */
  sent(tab: CheckpointTab, checkpoint: Checkpoint): void {
    this.service.recorder.sent(checkpoint, tab.session.thread);
  }

  /** Notes for the agent of a conversation continued from a checkpoint, once; then cleared. */
  takePromptNotes(sessionKey: string): string[] {
    const notes = this.notes.get(sessionKey) ?? [];
    this.notes.delete(sessionKey);
    return notes;
  }

  /** Every user message of the conversation in front, with its checkpoint or why it has none. */
  view(): CheckpointsView {
    const tab = this.tabs.active;
    for (const open of this.tabs.view().tabs) this.noteSession(this.tabs.find(open.id));
    const last = this.service.store.lastRestore;
    const found = this.checkpointsOf(tab);
    const messages = [];
    for (let index = 0; index < tab.session.thread.length; index++) {
      const entry = tab.session.thread.entryAt(index);
      if (entry?.kind !== 'user') continue;
      const checkpoint = found.get(entry.id);
      messages.push(checkpoint
        ? { entryId: entry.id, restorable: checkpoint.dropped === null, reason: checkpoint.dropped, lastRestored: last?.restoredTo === checkpoint.id }
        : { entryId: entry.id, restorable: false, reason: NO_CHECKPOINT, lastRestored: false });
    }
    return { messages, redo: last ? `Put back what the files held ${last.label}` : null };
  }

  /** The conversation in front changed (or the webview came back): its checkpoints again. */
  refresh(): void {
    this.refreshLater.cancel();
    this.follow(this.tabs.active);
    this.post({ type: 'checkpointUpdate', update: { kind: 'list', checkpoints: this.view() } });
  }

  async handle(action: CheckpointAction): Promise<void> {
    switch (action.kind) {
      case 'preview':
        return this.previewMessage(action.entryId);
      case 'previewRedo':
        return this.previewRedo();
      case 'restore':
        return this.restore(action.previewId, action.scope, new Set(action.keepMine));
      case 'dismiss':
        if (this.preview?.id === action.previewId) this.closePreview();
        return;
      default:
        assertNever(action, 'checkpoint action');
    }
  }

  /** Shows what "Redo restore" would change (the command and the panel's button). */
  async previewRedo(): Promise<void> {
    const point = this.service.store.lastRestore;
    if (!point) return this.showError('Nothing to redo: no restore can be taken back.');
    await this.showPreview(this.tabs.active, point, null, point.label);
  }

  dispose(): void {
    this.followed?.subscription.dispose();
    this.followed = null;
    this.subscriptions.dispose();
    this.notes.clear();
  }

  /** The checkpoints of the tab's user messages: its own, and those of the conversations it copies or replays. */
  private checkpointsOf(tab: CheckpointTab): Map<string, Checkpoint> {
    return messageCheckpoints(this.service.store.list(), { tabId: tab.id, sessionId: tab.session.currentSessionId }, tab.session.thread);
  }

  /** The tab's messages so far went to the session it is in now. */
  private noteSession(tab: CheckpointTab | undefined): void {
    const sessionId = tab?.session.currentSessionId ?? null;
    if (tab && sessionId !== null) this.service.store.noteSession(tab.id, sessionId);
  }

  /** Lists again when a user message of the conversation in front comes, is replayed or is copied in. */
  private follow(tab: CheckpointTab): void {
    if (this.followed?.tab === tab) return;
    this.followed?.subscription.dispose();
    const userEntries = new Set<string>();
    const subscription = tab.session.thread.onDelta((delta) => {
      if (delta.type === 'entryAdded' && delta.entry.kind === 'user') userEntries.add(delta.entry.id);
      const relevant = delta.type === 'threadCleared' || (delta.type === 'textAppended' ? userEntries.has(delta.entryId) : userEntries.has(delta.entry.id));
      if (relevant) this.refreshLater.schedule();
    });
    this.followed = { tab, userEntries, subscription };
  }

  private async previewMessage(entryId: string): Promise<void> {
    const tab = this.tabs.active;
    const checkpoint = this.checkpointsOf(tab).get(entryId);
    if (checkpoint) return this.showPreview(tab, checkpoint, entryId, `before your message “${checkpoint.label}”`);
    const entry = tab.session.thread.snapshot().find((candidate) => candidate.id === entryId);
    if (entry?.kind !== 'user') return this.showError('This message has no checkpoint: it is no longer in the conversation.');
    await this.showPreview(tab, null, entryId, `before your message “${messageLabel(entry.text)}”`);
  }

  /** `checkpoint` null: only the conversation can go back (the preview says why the files cannot). */
  private async showPreview(tab: CheckpointTab, checkpoint: Checkpoint | null, entryId: string | null, restoredTo: string): Promise<void> {
    const plan = checkpoint ? await this.service.plan(checkpoint.id) : { checkpointId: '', files: [], problems: [], error: NO_CHECKPOINT };
    const id = `p${this.nextPreviewId++}`;
    this.preview = { id, plan, tabId: tab.id, checkpoint, entryId, restoredTo };
    this.post({ type: 'checkpointUpdate', update: { kind: 'preview', preview: this.previewView(this.preview, tab) } });
  }

  private previewView(preview: OpenPreview, tab: CheckpointTab): CheckpointPreviewView {
    const { plan } = preview;
    const conversation = preview.entryId === null ? null : canFork(tab)
      ? `The conversation continues in a new tab, in a fork of this session that is told to disregard this message and what followed.`
      : `The conversation continues in a new tab, as a new session of ${tab.agent.label} (it cannot fork this one), told what you had asked before this message.`;
    return {
      previewId: preview.id,
      entryId: preview.entryId,
      title: preview.entryId === null ? `Redo restore: put back what the files held ${preview.restoredTo}` : `Restore to ${preview.restoredTo}`,
      files: plan.files.map((file) => ({
        path: file.path,
        label: this.service.label(file.path),
        action: file.action,
        added: file.added,
        removed: file.removed,
        binary: file.binary,
        handEdit: file.handEdit,
        note: file.note,
      })),
      problems: plan.problems,
      error: plan.error,
      conversation,
    };
  }

  private closePreview(): void {
    this.preview = null;
    this.post({ type: 'checkpointUpdate', update: { kind: 'preview', preview: null } });
  }

  private async restore(previewId: string, scope: RestoreScope, keepMine: ReadonlySet<string>): Promise<void> {
    const preview = this.preview;
    if (!preview || preview.id !== previewId) return this.closePreview();
    this.closePreview();
    const tab = this.tabs.find(preview.tabId) ?? this.tabs.active;
    // An agent at work would go on changing files under the restore.
    if (this.tabs.view().tabs.some((open) => open.busy)) return this.showError('Nothing was restored: an agent is still working. Stop it (or wait for its turn to end), then restore again.');
    const codeRestored = scope !== 'conversation' && (await this.restoreCode(tab, preview, keepMine));
    if (scope !== 'code' && preview.entryId !== null) await this.continueFrom(tab, preview.entryId, codeRestored);
    this.refresh();
  }

  /** True when the files are back at that point (some written, or none needed it). */
  private async restoreCode(tab: CheckpointTab, preview: OpenPreview, keepMine: ReadonlySet<string>): Promise<boolean> {
    const { plan, checkpoint } = preview;
    if (plan.error !== null || !checkpoint) {
      tab.session.thread.addNotice('warning', `The files were not restored. ${plan.error}`);
      return false;
    }
    try {
      const outcome = await this.service.restore(plan, keepMine, checkpoint.label);
      const unexpected = outcome.skipped.some((skip) => !keepMine.has(skip.path)) || plan.problems.length > 0;
      tab.session.thread.addNotice(unexpected ? 'warning' : 'info', restoreSummary(outcome, plan.problems, (path) => this.service.label(path), preview.restoredTo));
      if (outcome.written.length > 0) this.addNote(tab.session.key, restoredNote(outcome.written.map((path) => this.service.label(path)), preview.restoredTo));
      return outcome.written.length > 0 || plan.files.length === 0;
    } catch (error) {
      tab.session.thread.addNotice('error', `The files could not be restored: ${errorMessage(error)}. Nothing was lost: what was written is listed in the log, and "Redo restore" puts it back.`, ['showLog']);
      return false;
    }
  }

  /** The conversation goes on from before the message in a new tab; the original stays as it is. */
  private async continueFrom(tab: CheckpointTab, entryId: string, codeRestored: boolean): Promise<void> {
    const sessionId = tab.session.currentSessionId;
    const decision = conversationRestore({ entries: tab.session.thread.snapshot(), messageId: entryId, agentLabel: tab.agent.label, canFork: canFork(tab), codeRestored });
    if (!decision) return this.showError('That message is no longer in the conversation.');
    const copy = this.tabs.open(tab.agent);
    copy.session.thread.restore(decision.entries);
    copy.session.thread.setFact('title', `${tab.title} (restored)`);
    copy.session.thread.addNotice('info', decision.notice);
    this.addNote(copy.session.key, decision.agentNote);
    this.tabsChanged();
    if (decision.route === 'fork' && sessionId) await copy.openExisting({ kind: 'fork', sessionId }, 'fork the session');
    else await copy.session.start();
    this.tabsChanged();
  }

  private addNote(sessionKey: string, note: string): void {
    this.notes.set(sessionKey, [...(this.notes.get(sessionKey) ?? []), note]);
  }

  private showError(sentence: string): void {
    this.tabs.active.session.thread.addNotice('warning', sentence);
  }
}

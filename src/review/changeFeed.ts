import type { ChangeLedger, FileHandEdits } from './changeLedger';
import type { ContentEncoding, RecordedChange } from './types';

/** Files whose writer is kept, the most recently changed; a file beyond them is anyone's again. */
const MAX_OWNERS = 2_000;

/**
 * Everything that moves the change ledger besides review actions: agent changes (written
 * through the editor's documents or seen on disk) and the user's own edits of files with
 * pending hunks. An agent write into a document also shows up as a document change; it must
 * reach the ledger once, as the agent's change, or every write re-renders the review twice.
 */
export class ChangeFeed {
  /** Which session last changed each file, so notes on undone changes reach that agent only. */
  private readonly owners = new Map<string, string>();
  /** Per path, how many agent writes are going into its document right now. */
  private readonly agentWrites = new Map<string, number>();

  /** `owners`: what `ownersJSON` gave in the window before (read from storage, so checked). */
  constructor(private readonly ledger: ChangeLedger, owners: unknown = {}) {
    if (typeof owners !== 'object' || owners === null || Array.isArray(owners)) return;
    for (const [path, owner] of Object.entries(owners)) if (typeof owner === 'string') this.owners.set(path, owner);
  }

  /** `owner`: the session that made the change (its key). */
  record(path: string, change: RecordedChange, owner?: string): void {
    if (owner) {
      this.owners.delete(path);
      this.owners.set(path, owner);
      if (this.owners.size > MAX_OWNERS) this.owners.delete(this.owners.keys().next().value ?? path);
    }
    this.ledger.record(path, change);
  }

  /** Which session made each file's last change, saved with the ledger: after a reload, notes on undone changes still reach their agent. */
  ownersJSON(): Record<string, string> {
    return Object.fromEntries(this.owners);
  }

  /** True when the ledger's pending change already ends in this content (it came through fs/*). */
  alreadyRecorded(path: string, text: string | null, encoding: ContentEncoding = 'text'): boolean {
    return this.ledger.currentText(path) === text && this.ledger.encodingOf(path) === encoding;
  }

  /**
   * Runs an agent's write of `path` into the editor's document. The document changes it causes
   * meanwhile are the agent's, which `record` enters once the write is done: not hand edits.
   */
  async agentWrite(path: string, write: () => Promise<void>): Promise<void> {
    this.agentWrites.set(path, (this.agentWrites.get(path) ?? 0) + 1);
    try {
      await write();
    } finally {
      const left = (this.agentWrites.get(path) ?? 1) - 1;
      if (left > 0) this.agentWrites.set(path, left);
      else this.agentWrites.delete(path);
    }
  }

  /**
   * An open document's text changed. A hand edit of a file with pending hunks keeps the
   * ledger's current text true. Documents never hold the BOM (the editor keeps it as the
   * file's encoding), so a current text that has one keeps it. A document's text says nothing
   * exact about content held as bytes: such a file is checked on disk when it is undone.
   * `byHand` false: the change is not the user's typing (the editor reloaded the file from disk),
   * so it is no news for the agent.
   */
  documentChanged(path: string, documentText: string, byHand = true): void {
    if (this.agentWrites.has(path) || this.ledger.encodingOf(path) !== 'text') return;
    const current = this.ledger.currentText(path);
    if (current === undefined || current === null) return;
    const text = current.startsWith('\uFEFF') ? `\uFEFF${documentText}` : documentText;
    if (text === current) return;
    if (byHand) this.ledger.editByHand(path, text);
    else this.ledger.updateCurrent(path, text);
  }

  /** What the user undid of `owner`'s changes since the last call; then cleared. */
  takeUndoSummary(owner: string): string[] {
    return this.ledger.takeUndoSummary(this.ownedBy(owner));
  }

  /** Where the user edited `owner`'s pending lines by hand since the last call; then cleared. */
  takeHandEdits(owner: string): FileHandEdits[] {
    return this.ledger.takeHandEdits(this.ownedBy(owner));
  }

  private ownedBy(owner: string): (path: string) => boolean {
    // Files whose writer is unknown (changed before owners were kept) go to whoever asks first.
    return (path) => (this.owners.get(path) ?? owner) === owner;
  }
}

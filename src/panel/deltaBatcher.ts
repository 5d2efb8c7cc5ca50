import type { ThreadDelta } from '../contract/viewModel';

/**
 * Collects thread deltas and hands them over in one batch per frame interval. Consecutive
 * appends to one entry merge into one, so a 17,000-chunk answer costs a few hundred messages.
 */
export class DeltaBatcher {
  private pending: ThreadDelta[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly flushTo: (deltas: ThreadDelta[]) => void, private readonly intervalMs = 16) {}

  push(delta: ThreadDelta): void {
    const last = this.pending[this.pending.length - 1];
    if (last && delta.type === 'textAppended' && last.type === 'textAppended' && last.entryId === delta.entryId) {
      last.text += delta.text;
    } else if (last && delta.type === 'entryUpdated' && last.type === 'entryUpdated' && last.entry.id === delta.entry.id) {
      this.pending[this.pending.length - 1] = delta;
    } else if (delta.type === 'threadCleared') {
      this.pending = [delta];
    } else {
      this.pending.push(delta.type === 'textAppended' ? { ...delta } : delta);
    }
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushTo(batch);
  }

  /** Drops what is pending: the next view gets a full snapshot instead. */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
  }

  dispose(): void {
    this.discard();
  }
}

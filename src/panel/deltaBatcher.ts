import type { ThreadDelta } from '../contract/viewModel';
import { CoalescedTask } from '../util/coalescedTask';

/**
 * Collects thread deltas and hands them over in one batch per frame interval. Consecutive
 * appends to one entry merge into one, so a 17,000-chunk answer costs a few hundred messages.
 */
export class DeltaBatcher {
  private pending: ThreadDelta[] = [];
  private readonly delivery: CoalescedTask;

  constructor(private readonly flushTo: (deltas: ThreadDelta[]) => void, intervalMs = 16) {
    this.delivery = new CoalescedTask(intervalMs, () => this.deliver());
  }

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
    this.delivery.schedule();
  }

  /** Hands over what is pending now (every push schedules a delivery, so nothing waits unscheduled). */
  flush(): void {
    this.delivery.flush();
  }

  /** Drops what is pending: the next view gets a full snapshot instead. */
  discard(): void {
    this.delivery.cancel();
    this.pending = [];
  }

  dispose(): void {
    this.discard();
  }

  private deliver(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushTo(batch);
  }
}

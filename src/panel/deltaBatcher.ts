import type { ThreadDelta } from '../contract/viewModel';
import { CoalescedTask } from '../util/coalescedTask';

/**
 * Collects thread deltas and hands them over in one batch per frame interval (the first after a
 * quiet interval in the next task). Consecutive appends to one entry merge into one, so a
 * 17,000-chunk answer costs a few hundred messages.
 *
 * At most one batch is in flight: receiving a batch costs the browser's main thread (shared
 * with the workbench) a few milliseconds, so while the webview has not acknowledged the last
 * one, deltas keep merging here and go out together on its ack. A webview that never acks
 * (old, hidden, gone) is waited for only `ackTimeoutMs`.
 */
export class DeltaBatcher {
  private pending: ThreadDelta[] = [];
  private readonly delivery: CoalescedTask;
  /** Batches sent and not yet acknowledged; a flush can send while one is out, so this can pass 1. */
  private unacknowledged = 0;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly flushTo: (deltas: ThreadDelta[]) => void,
    private readonly intervalMs = 16,
    private readonly ackTimeoutMs = 250,
  ) {
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
    // After a quiet interval the first delta (an answer's first words) goes out in the next task,
    // with whatever the same read of the agent's output brings, not an interval later.
    this.delivery.schedule(this.quiet() ? 0 : this.intervalMs);
  }

  /** Hands over what is pending now, in flight or not: what follows must not overtake it. */
  flush(): void {
    this.delivery.cancel();
    this.send();
  }

  /** The webview applied `batches` batches; whatever waited for that goes out, no sooner than the interval. */
  acknowledge(batches: number): void {
    if (this.unacknowledged === 0) return;
    this.unacknowledged = Math.max(0, this.unacknowledged - batches);
    if (this.unacknowledged === 0) this.release();
  }

  /** Drops what is pending and forgets what is in flight: the next view gets a full snapshot instead. */
  discard(): void {
    this.delivery.cancel();
    this.pending = [];
    this.unacknowledged = 0;
    this.stopAckTimer();
  }

  dispose(): void {
    this.discard();
  }

  /** Nothing in flight, and nothing sent for an interval. */
  private quiet(): boolean {
    return this.unacknowledged === 0 && Date.now() - this.lastSentAt >= this.intervalMs;
  }

  /** The interval ended: send, unless a batch is still in flight (its ack or timeout sends). */
  private deliver(): void {
    if (this.unacknowledged === 0) this.send();
  }

  private release(): void {
    this.stopAckTimer();
    if (this.pending.length === 0 || this.delivery.pending) return;
    if (Date.now() - this.lastSentAt >= this.intervalMs) this.send();
    else this.delivery.schedule();
  }

  private send(): void {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.unacknowledged++;
    this.lastSentAt = Date.now();
    this.stopAckTimer();
    this.ackTimer = setTimeout(() => {
      this.ackTimer = null;
      this.unacknowledged = 0;
      this.release();
    }, this.ackTimeoutMs);
    this.flushTo(batch);
  }

  private stopAckTimer(): void {
    if (!this.ackTimer) return;
    clearTimeout(this.ackTimer);
    this.ackTimer = null;
  }
}

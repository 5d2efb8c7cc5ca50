import type { TerminalOutputView, TerminalStateView } from '../../contract/terminalView';
import { OutputCoalescer } from '../outputCoalescer';
import type { TerminalDisplays } from '../terminalDisplays';
import { CoalescedTask } from '../../util/coalescedTask';
import type { Disposable } from '../../util/disposable';

/** Characters of one terminal's output sent per flush; more in between counts as skipped. */
const MAX_CHARS_PER_FLUSH = 64 * 1024;

/**
 * Streams a session's terminals to the panel: changed states and new output, batched per
 * interval and bounded, so a command printing megabytes costs the webview a few messages.
 */
export class TerminalFeed implements Disposable {
  private readonly changed = new Map<string, TerminalStateView>();
  private readonly output = new OutputCoalescer(MAX_CHARS_PER_FLUSH);
  private readonly delivery: CoalescedTask;
  private readonly subscription: Disposable;

  constructor(
    displays: TerminalDisplays,
    private readonly flushTo: (changed: TerminalStateView[], output: TerminalOutputView[]) => void,
    intervalMs = 50,
  ) {
    this.delivery = new CoalescedTask(intervalMs, () => this.deliver());
    this.subscription = displays.onEvent((event) => {
      if (event.type === 'changed') this.changed.set(event.terminal.terminalId, event.terminal);
      else this.output.push(event.terminalId, event.data, event.skipped);
      this.delivery.schedule();
    });
  }

  /** Sends what is pending now (every event schedules a delivery, so nothing waits unscheduled). */
  flush(): void {
    this.delivery.flush();
  }

  /** Drops what is pending: the next view gets a snapshot that already holds it. */
  discard(): void {
    this.delivery.cancel();
    this.changed.clear();
    this.output.clear();
  }

  dispose(): void {
    this.discard();
    this.subscription.dispose();
  }

  private deliver(): void {
    if (this.changed.size === 0 && this.output.isEmpty) return;
    const changed = [...this.changed.values()];
    this.changed.clear();
    this.flushTo(changed, this.output.take());
  }
}

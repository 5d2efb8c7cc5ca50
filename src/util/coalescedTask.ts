import type { Disposable } from './disposable';

/**
 * Runs a task once, `delayMs` after the first of any number of `schedule()` calls: how bursts
 * (streamed deltas, usage updates, saves, log lines) become one piece of work per interval.
 */
export class CoalescedTask implements Disposable {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly delayMs: number,
    private readonly task: () => void,
  ) {}

  get pending(): boolean {
    return this.timer !== null;
  }

  /** `delayMs` overrides the task's own delay for this schedule; a run already scheduled keeps its time. */
  schedule(delayMs = this.delayMs): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.task();
    }, delayMs);
  }

  /** Runs the task now if it was scheduled (and not again when the delay ends). */
  flush(): void {
    if (!this.timer) return;
    this.cancel();
    this.task();
  }

  cancel(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
  }

  dispose(): void {
    this.cancel();
  }
}

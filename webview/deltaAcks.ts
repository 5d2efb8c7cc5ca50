import type { PostToHost } from './vscodeApi';

/**
 * Acknowledges applied `threadDeltas` batches at the next animation frame, so the host sends the
 * next batch only as fast as this renderer reaches frames (each message costs the main thread,
 * shared with the editor, to receive). Batches applied within one frame share one ack.
 */
export class DeltaAcks {
  private applied = 0;

  constructor(private readonly post: PostToHost) {}

  batchApplied(): void {
    this.applied++;
    if (this.applied > 1) return;
    requestAnimationFrame(() => {
      const batches = this.applied;
      this.applied = 0;
      this.post({ type: 'threadDeltasApplied', batches });
    });
  }
}

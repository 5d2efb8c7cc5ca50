import * as vscode from 'vscode';
import { FrameRedactor } from '../acp/frameRedaction';
import type { Frame, FrameStore } from '../acp/frames';
import { trafficLine } from '../acp/trafficFormat';
import { CoalescedTask } from '../util/coalescedTask';
import { DisposableBase } from '../util/disposable';

const FLUSH_MS = 200;
/**
 * Streamed text that ends inside a word waits this long for its next piece (which may finish a
 * credential) before it is shown anyway.
 */
const HOLD_MS = 500;

/**
 * "Tandem Traffic": every JSON-RPC frame both ways, secrets redacted. The channel is filled
 * from the frame store when first shown and then follows live, in batches.
 */
export class TrafficChannel extends DisposableBase {
  private channel: vscode.OutputChannel | null = null;
  private readonly redactor = new FrameRedactor();
  private pending: string[] = [];
  private readonly appendTask = this.register(new CoalescedTask(FLUSH_MS, () => this.appendPending()));

  constructor(private readonly frames: FrameStore) {
    super();
    this.register(frames.onFrame((frame) => this.onFrame(frame)));
  }

  show(): void {
    if (!this.channel) {
      this.channel = this.register(vscode.window.createOutputChannel('Tandem Traffic'));
      const dropped = this.frames.dropped;
      if (dropped > 0) this.channel.appendLine(`(${dropped} older frames were dropped to bound memory)`);
      for (const frame of this.frames.frames()) this.take(frame);
      this.appendPending();
    }
    this.channel.show(true);
  }

  private onFrame(frame: Frame): void {
    if (!this.channel) return;
    this.take(frame);
    this.appendTask.schedule();
  }

  private take(frame: Frame): void {
    for (const redacted of this.redactor.push(frame)) this.pending.push(trafficLine(redacted));
  }

  private appendPending(): void {
    for (const redacted of this.redactor.releaseStale(Date.now() - HOLD_MS)) this.pending.push(trafficLine(redacted));
    const lines = this.pending;
    this.pending = [];
    if (lines.length > 0) this.channel?.append(`${lines.join('\n')}\n`);
    // A held piece must still be shown when no further frame comes.
    if (this.redactor.holding) this.appendTask.schedule();
  }
}

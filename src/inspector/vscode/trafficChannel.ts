import * as vscode from 'vscode';
import { FrameRedactor } from '../../redaction/frameRedaction';
import type { FrameStore } from '../../acp/frames';
import type { Frame } from '../../wire/frame';
import { pushInSlices, RedactionSlices } from '../../redaction/redactionSlices';
import { trafficLine } from '../trafficFormat';
import { CoalescedTask } from '../../util/coalescedTask';
import { DisposableBase } from '../../util/disposable';

const FLUSH_MS = 200;
/**
 * Streamed text that ends inside a word waits this long for its next piece (which may finish a
 * credential) before it is shown anyway.
 */
const HOLD_MS = 500;

/**
 * "Tandem Traffic": every JSON-RPC frame both ways, secrets redacted. The channel is filled
 * from the frame store when first shown, in slices of time (a long conversation or a 16 MB file
 * answer would otherwise hold the editor up while it is redacted), and then follows live, in
 * batches. Frames that arrive while it fills wait behind the ones before them.
 */
export class TrafficChannel extends DisposableBase {
  private channel: vscode.OutputChannel | null = null;
  private readonly redactor = new FrameRedactor();
  private pending: string[] = [];
  /** While the channel fills: the frames still to redact, in order; new frames join the end. */
  private backlog: Frame[] | null = null;
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
      this.backlog = [...this.frames.frames()];
      void this.fill(this.backlog);
    }
    this.channel.show(true);
  }

  private onFrame(frame: Frame): void {
    if (!this.channel) return;
    if (this.backlog) return void this.backlog.push(frame);
    this.take(frame);
    this.appendTask.schedule();
  }

  private async fill(backlog: Frame[]): Promise<void> {
    const slices = new RedactionSlices();
    for (let next = 0; next < backlog.length && !this.store.isDisposed; next++) {
      for (const redacted of await pushInSlices(this.redactor, backlog[next] as Frame, slices)) this.pending.push(trafficLine(redacted));
      await slices.turn();
    }
    this.backlog = null;
    if (!this.store.isDisposed) this.appendPending();
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

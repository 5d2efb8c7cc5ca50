import * as vscode from 'vscode';
import type { Frame, FrameStore } from '../acp/frames';
import { formatFrame } from '../acp/trafficFormat';
import { CoalescedTask } from '../util/coalescedTask';
import { DisposableBase } from '../util/disposable';

const FLUSH_MS = 200;

/**
 * "Tandem Traffic": every JSON-RPC frame both ways, secrets redacted. The channel is filled
 * from the frame store when first shown and then follows live, in batches.
 */
export class TrafficChannel extends DisposableBase {
  private channel: vscode.OutputChannel | null = null;
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
      for (const frame of this.frames.frames()) this.channel.appendLine(formatFrame(frame));
    }
    this.channel.show(true);
  }

  private onFrame(frame: Frame): void {
    if (!this.channel) return;
    this.pending.push(formatFrame(frame));
    this.appendTask.schedule();
  }

  private appendPending(): void {
    const lines = this.pending;
    this.pending = [];
    this.channel?.append(`${lines.join('\n')}\n`);
  }
}

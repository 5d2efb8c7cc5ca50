import type * as acp from '@agentclientprotocol/sdk';
import type { TerminalOriginView, TerminalSnapshotView, TerminalStateView } from './terminalStates';
import type { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import { BoundedText } from './boundedText';
import { commandOfToolCall, terminalMetaEvents } from './terminalMeta';

export interface DisplayOpen {
  terminalId: string;
  origin: TerminalOriginView;
  command: string;
  cwd: string | null;
  toolCallId: string | null;
  /** Ends the command; null when only the agent can (it runs the command itself). */
  stop: (() => void) | null;
}

export type TerminalDisplayEvent =
  | { type: 'changed'; terminal: TerminalStateView }
  /** `skipped`: output that went by too fast to be shown, before `data` (see DisplayStream). */
  | { type: 'output'; terminalId: string; data: string; skipped: number };

interface DisplayRecord {
  spec: DisplayOpen;
  /** Set from the command in the tool call's input once it arrives (agents stream input). */
  command: string;
  toolCallId: string | null;
  startedAt: number;
  endedAt: number | null;
  exitCode: number | null;
  signal: string | null;
  agentTruncated: boolean;
  released: boolean;
  output: BoundedText;
}

/** Characters of output kept per terminal for re-showing it. */
const DISPLAY_CHARS = 256 * 1024;

/**
 * Every terminal of a session as the user sees it, whichever way the agent ran the command.
 * Pure: fed by the terminal service (`terminal/*`) and by tool-call `_meta` keys, it reports
 * changes and output as events for the panel and the editor's terminal mirrors.
 */
export class TerminalDisplays implements Disposable {
  private readonly records = new Map<string, DisplayRecord>();
  private readonly emitter = new Emitter<TerminalDisplayEvent>();
  readonly onEvent = this.emitter.event;

  constructor(private readonly now: () => number = () => Date.now()) {}

  open(spec: DisplayOpen): void {
    if (this.records.has(spec.terminalId)) return;
    this.records.set(spec.terminalId, {
      spec,
      command: spec.command,
      toolCallId: spec.toolCallId,
      startedAt: this.now(),
      endedAt: null,
      exitCode: null,
      signal: null,
      agentTruncated: false,
      released: false,
      output: new BoundedText(DISPLAY_CHARS),
    });
    this.changed(spec.terminalId);
  }

  append(terminalId: string, data: string, skipped = 0): void {
    const record = this.records.get(terminalId);
    if (!record || (!data && skipped === 0)) return;
    record.output.skip(skipped);
    record.output.append(data);
    this.emitter.fire({ type: 'output', terminalId, data, skipped });
  }

  exit(terminalId: string, status: { exitCode: number | null; signal: string | null }, agentTruncated = false): void {
    const record = this.records.get(terminalId);
    if (!record) return;
    record.endedAt ??= this.now();
    record.exitCode = status.exitCode;
    record.signal = status.signal;
    record.agentTruncated ||= agentTruncated;
    this.changed(terminalId);
  }

  release(terminalId: string): void {
    const record = this.records.get(terminalId);
    if (!record || record.released) return;
    record.released = true;
    record.endedAt ??= this.now();
    record.spec.stop = null;
    this.changed(terminalId);
  }

  /** Applies the display-terminal keys of a tool call update, and learns which card shows a terminal. */
  observe(update: acp.SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    for (const event of terminalMetaEvents(update._meta)) {
      switch (event.type) {
        case 'info':
          this.openAgentTerminal(event.terminalId, update, event.cwd);
          break;
        case 'output':
          this.openAgentTerminal(event.terminalId, update, null);
          this.append(event.terminalId, event.data);
          break;
        case 'exit':
          this.openAgentTerminal(event.terminalId, update, null);
          this.exit(event.terminalId, event);
          break;
      }
    }
    for (const content of update.content ?? []) {
      if (content.type === 'terminal') this.attachToToolCall(content.terminalId, update.toolCallId);
    }
    const command = commandOfToolCall(update);
    for (const record of this.records.values()) {
      if (command && record.spec.origin === 'agent' && record.toolCallId === update.toolCallId && record.command !== command) {
        record.command = command;
        this.changed(record.spec.terminalId);
      }
    }
  }

  /** The user's Stop. False when Tandem cannot stop it: the agent runs it (or it already ended). */
  stop(terminalId: string): boolean {
    const record = this.records.get(terminalId);
    if (!record?.spec.stop || record.endedAt !== null) return false;
    record.spec.stop();
    return true;
  }

  /** Stops every running command Tandem runs (the user stopped the turn). */
  stopAll(): void {
    for (const terminalId of this.records.keys()) this.stop(terminalId);
  }

  /** The agent's own commands that never reported an exit, when its turn was stopped or failed. */
  endAgentTerminals(): void {
    for (const record of this.records.values()) {
      if (record.spec.origin === 'agent' && record.endedAt === null) this.exit(record.spec.terminalId, { exitCode: null, signal: null });
    }
  }

  has(terminalId: string): boolean {
    return this.records.has(terminalId);
  }

  view(terminalId: string): TerminalStateView | undefined {
    const record = this.records.get(terminalId);
    return record ? this.toView(record) : undefined;
  }

  output(terminalId: string): string {
    return this.records.get(terminalId)?.output.text() ?? '';
  }

  snapshot(): TerminalSnapshotView[] {
    return [...this.records.values()].map((record) => ({ ...this.toView(record), output: record.output.text() }));
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private openAgentTerminal(terminalId: string, update: acp.ToolCall | acp.ToolCallUpdate, cwd: string | null): void {
    if (this.records.has(terminalId)) return;
    const command = commandOfToolCall(update) ?? update.title ?? 'command';
    this.open({ terminalId, origin: 'agent', command, cwd, toolCallId: update.toolCallId, stop: null });
  }

  private attachToToolCall(terminalId: string, toolCallId: string): void {
    const record = this.records.get(terminalId);
    if (!record || record.toolCallId === toolCallId) return;
    record.toolCallId = toolCallId;
    this.changed(terminalId);
  }

  private changed(terminalId: string): void {
    const record = this.records.get(terminalId);
    if (record) this.emitter.fire({ type: 'changed', terminal: this.toView(record) });
  }

  private toView(record: DisplayRecord): TerminalStateView {
    return {
      terminalId: record.spec.terminalId,
      toolCallId: record.toolCallId,
      origin: record.spec.origin,
      command: record.command,
      cwd: record.spec.cwd,
      running: record.endedAt === null,
      elapsedMs: Math.max(0, (record.endedAt ?? this.now()) - record.startedAt),
      exitCode: record.exitCode,
      signal: record.signal,
      truncated: record.agentTruncated || record.output.dropped > 0,
      released: record.released,
    };
  }
}

/** A session's terminals mirrored in the editor's terminal panel. */
export interface TerminalMirrorHandle extends Disposable {
  reveal(terminalId: string): void;
}

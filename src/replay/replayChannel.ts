import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { AgentChannel } from '../acp/agentChannel';
import type { AgentExit } from '../acp/agentChannel';
import type { Frame } from '../wire/frame';
import { parseFrameText } from '../redaction/redact';
import { toDisposable, type Disposable } from '../util/disposable';
import { isRecord } from '../util/untrustedJson';
import { rpcMessage, type RpcMessage } from '../wire/rpcMessage';
import { replaySteps, type ReplayStep } from './replaySteps';

export type ReplaySpeed = 'instant' | 'recorded';

/** What the recorded client did that only the replaying client can do again (send a prompt, answer a card). */
export interface ReplayDriver {
  /** The recorded client sent this request here: send it (true), or let the replay skip it (false). */
  clientRequest(method: string, params: unknown): Promise<boolean>;
  /** The recorded client answered the agent's request here: answer the replayed one the same way. */
  clientAnswer(method: string, request: unknown, answer: RpcMessage): Promise<void>;
  clientNotification(method: string, params: unknown): Promise<void>;
}

export interface ReplayOptions {
  speed: ReplaySpeed;
  /** How long the replay waits for the client to send what the recording says it sent. */
  waitMs: number;
}

/** A gap longer than this in a recording is replayed as this long, at recorded speed. */
const MAX_GAP_MS = 3000;
/** Frames written before the replay lets the client catch up, in instant mode. */
const BATCH = 256;

interface LiveRequest {
  id: unknown;
  method: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * An agent that is a recording: its output plays the agent's recorded frames and its input is
 * read and checked, never acted on. The client's requests are matched to the recorded ones by
 * method in order and get the recorded answers under their own ids; a request the recording
 * does not hold is answered with an error. Where the recorded client acted (a prompt, a
 * permission answer) the replay waits for the driver to do the same, so the same recording gives
 * the same conversation at any speed.
 */
export class ReplayChannel implements AgentChannel {
  readonly pid = undefined;
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly exited: Promise<AgentExit>;
  /** What the replay could not do as recorded, in order. */
  readonly notes: string[] = [];
  private resolveExit: (exit: AgentExit) => void = () => undefined;
  private stopped = false;
  private readonly steps: ReplayStep[];
  private readonly waitingLive: LiveRequest[] = [];
  /** Per method: client requests still ahead in the recording. */
  private readonly ahead = new Map<string, number>();
  /** Recorded client request id -> the live request's id, for the recorded answer. */
  private readonly liveIds = new Map<string, unknown>();
  private readonly answers = new Map<string, unknown>();
  private wake: (() => void) | null = null;
  private lines = 0;

  constructor(frames: readonly Frame[], private readonly options: ReplayOptions) {
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
    this.steps = replaySteps(frames);
    for (const step of this.steps) if (step.kind === 'clientRequest') this.ahead.set(step.method, (this.ahead.get(step.method) ?? 0) + 1);
    this.listen();
  }

  get running(): boolean {
    return !this.stopped;
  }

  stderrTail(): string[] {
    return [];
  }

  onStderrLine(): Disposable {
    return toDisposable(() => undefined);
  }

  async stop(): Promise<AgentExit> {
    if (!this.stopped) {
      this.stopped = true;
      this.wake?.();
      this.stdout.end();
      this.resolveExit({ code: 0, signal: null, requested: true, spawnError: null, stderrTail: [] });
    }
    return this.exited;
  }

  dispose(): void {
    void this.stop();
  }

  /** Plays the recording to its end (or until stopped); resolves with what could not be replayed. */
  async play(driver: ReplayDriver): Promise<string[]> {
    let previousAt: number | null = null;
    let written = 0;
    for (const step of this.steps) {
      if (this.stopped) break;
      if (step.kind === 'agentFrame') {
        if (this.options.speed === 'recorded' && previousAt !== null) await sleep(Math.min(MAX_GAP_MS, Math.max(0, step.frame.at - previousAt)));
        previousAt = step.frame.at;
        await this.emit(step);
        if (++written % BATCH === 0) await turn();
      } else {
        // Requests and answers wait on what they need themselves; a notification acts on what arrived so far.
        if (step.kind === 'clientNotification') await this.drained();
        await this.clientStep(step, driver);
      }
    }
    await this.drained();
    return this.notes;
  }

  /** Lines written to the client so far: the recorded frames played and the refusals. */
  get written(): number {
    return this.lines;
  }

  private async clientStep(step: Exclude<ReplayStep, { kind: 'agentFrame' }>, driver: ReplayDriver): Promise<void> {
    switch (step.kind) {
      case 'clientRequest': {
        const sent = await driver.clientRequest(step.method, step.params);
        const live = sent ? await this.until(() => this.takeLive(step.method)) : undefined;
        // Counted as ahead until now, so that the client's request for this very step is held, not refused.
        this.ahead.set(step.method, (this.ahead.get(step.method) ?? 1) - 1);
        if (live) this.liveIds.set(step.recordedId, live.id);
        else this.notes.push(`Tandem did not send the recorded ${step.method}: its answer was left out.`);
        return;
      }
      case 'clientAnswer': {
        await driver.clientAnswer(step.method, step.request, step.answer);
        const live = await this.until(() => this.answers.get(step.agentRequestId));
        if (live === undefined) this.notes.push(`Tandem did not answer the recorded ${step.method} as the recording did.`);
        return;
      }
      case 'clientNotification':
        return driver.clientNotification(step.method, step.params);
    }
  }

  private async emit(step: Extract<ReplayStep, { kind: 'agentFrame' }>): Promise<void> {
    let text = step.frame.text;
    if (step.answers !== null) {
      if (!this.liveIds.has(step.answers)) return;
      const message = parseFrameText(text) as Record<string, unknown>;
      text = JSON.stringify({ ...message, id: this.liveIds.get(step.answers) });
      this.liveIds.delete(step.answers);
    }
    this.lines++;
    if (!this.stdout.write(`${text}\n`)) await new Promise<void>((resolve) => this.stdout.once('drain', () => resolve()));
  }

  /** Lets the client take in what was written before the replay looks at what it did. */
  private async drained(): Promise<void> {
    while (this.stdout.readableLength > 0 && !this.stopped) await sleep(1);
    for (let i = 0; i < 3; i++) await turn();
  }

  /** Resolves with `probe`'s value once it has one, or undefined after the wait. */
  private async until<T>(probe: () => T | undefined): Promise<T | undefined> {
    const deadline = Date.now() + this.options.waitMs;
    for (;;) {
      const value = probe();
      if (value !== undefined || this.stopped || Date.now() >= deadline) return value;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private takeLive(method: string): LiveRequest | undefined {
    const at = this.waitingLive.findIndex((request) => request.method === method);
    return at < 0 ? undefined : this.waitingLive.splice(at, 1)[0];
  }

  private listen(): void {
    const decoder = new StringDecoder('utf8');
    let buffered = '';
    this.stdin.on('data', (chunk: Buffer) => {
      buffered += decoder.write(chunk);
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        this.received(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
      }
    });
  }

  /** A line from the client: a request is held for its recorded answer (or refused), an answer is noted. */
  private received(line: string): void {
    const value = parseFrameText(line);
    const message = rpcMessage(value);
    if (message.kind === 'request' && isRecord(value)) {
      const queued = this.waitingLive.filter((request) => request.method === message.method).length;
      if (queued >= (this.ahead.get(message.method) ?? 0)) this.refuse(value.id, message.method);
      else this.waitingLive.push({ id: value.id, method: message.method });
    } else if (message.kind === 'result' || message.kind === 'error') {
      this.answers.set(message.id, message.kind === 'result' ? message.result ?? null : message);
    }
    this.wake?.();
  }

  private refuse(id: unknown, method: string): void {
    const error = { code: -32603, message: `Replay: the recording holds no ${method} here, and a replay never contacts an agent.` };
    this.lines++;
    this.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`);
  }
}

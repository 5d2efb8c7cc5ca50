import type * as acp from '@agentclientprotocol/sdk';
import { FrameStore } from '../../acp/frames';
import type { AgentDefinition } from '../../agents/agentConfig';
import { SessionController } from '../../conversation/sessionController';
import type { SessionEnvironment } from '../../conversation/sessionEnvironment';
import type { OpenTarget } from '../../conversation/sessionOpening';
import { buildFrameIndex } from '../../inspector/frameIndex';
import type { Recording } from '../../inspector/recording';
import { ReplayChannel, type ReplayDriver, type ReplaySpeed } from '../replayChannel';
import { RecordedAnswers, replayFs, replayTerminals } from '../replayPorts';
import type { RpcMessage } from '../../wire/rpcMessage';
import type { Disposable } from '../../util/disposable';
import type { Logger } from '../../util/logger';
import { isRecord } from '../../util/untrustedJson';
import { folderScope } from '../../workspace/workspaceScope';

export interface RecordingReplayOptions {
  speed: ReplaySpeed;
  logger: Logger;
  /** Where the replayed session says it works; nothing there is read by the agent or written. */
  workspaceRoot: string;
  /** How long to wait for the client to act as recorded before skipping that step. */
  waitMs?: number;
}

const SETTLE_MS = 10_000;

function recordedAgent(recording: Recording): AgentDefinition {
  const agent = recording.header.agent;
  return {
    id: `replay:${agent?.name ?? 'agent'}`,
    label: `${agent?.title ?? agent?.name ?? 'Recorded agent'} (replay)`,
    description: 'A recording played back: nothing runs.',
    // Never started: the replay's channel stands in for the process. It only has to exist.
    command: process.execPath,
    args: [],
    env: {},
    defaultMode: null,
    defaultConfigOptions: {},
    installHint: null,
    authMethodWhenKeyInEnv: null,
    shareProcess: false,
  };
}

/** How the recorded conversation opened its session: a load or resume is replayed as one. */
function openTargetOf(recording: Recording): Extract<OpenTarget, { kind: 'new' | 'load' | 'resume' }> {
  for (const frame of buildFrameIndex(recording.frames).frames) {
    if (frame.direction !== 'out' || frame.kind !== 'request') continue;
    if (frame.method === 'session/new') return { kind: 'new' };
    if ((frame.method === 'session/load' || frame.method === 'session/resume') && frame.sessionId) {
      return { kind: frame.method === 'session/load' ? 'load' : 'resume', sessionId: frame.sessionId };
    }
  }
  return { kind: 'new' };
}

/** The user's text of a recorded prompt: its last text block (notes come before it, attachments after). */
function promptText(params: unknown): string {
  const blocks = isRecord(params) && Array.isArray(params.prompt) ? params.prompt : [];
  const texts = blocks.filter((block): block is { type: 'text'; text: string } => isRecord(block) && block.type === 'text' && typeof block.text === 'string');
  return texts.at(-1)?.text ?? '';
}

/**
 * A recording played into a real conversation: the same SessionController, connection and
 * thread as a live agent, with the recording as the agent and every port read-only (fs and
 * terminals answered from the recording, nothing read, written or run; permissions answered as
 * recorded). The replay sends the recorded prompts and answers the recorded permission cards
 * itself, so the thread ends up as it was.
 */
export class RecordingReplay implements Disposable {
  readonly session: SessionController;
  /** The replay's own traffic, for its inspector and report. */
  readonly frames = new FrameStore();
  private readonly channel: ReplayChannel;
  private readonly target: Extract<OpenTarget, { kind: 'new' | 'load' | 'resume' }>;
  private started = false;
  /** Lines the connection has read from the replayed agent so far. */
  private received = 0;

  constructor(private readonly recording: Recording, options: RecordingReplayOptions) {
    const waitMs = options.waitMs ?? 5000;
    this.channel = new ReplayChannel(recording.frames, { speed: options.speed, waitMs });
    const answers = new RecordedAnswers(recording.frames, buildFrameIndex(recording.frames));
    const environment: SessionEnvironment = {
      workspace: () => folderScope(options.workspaceRoot),
      wirePorts: { fs: replayFs(answers), terminals: replayTerminals(answers) },
      trusted: true,
      frames: this.frames,
      logger: options.logger,
      startAgent: () => this.channel,
      // The recording stands in for the agent: no program of the folder's files runs.
      projectPrograms: () => Promise.resolve({ start: true, ignoreSettings: null }),
    };
    this.frames.onFrame((frame) => {
      if (frame.direction === 'in') this.received++;
    });
    this.session = new SessionController(recordedAgent(recording), environment);
    this.target = openTargetOf(recording);
  }

  /** Plays the whole recording; resolves, once the conversation took in every frame, with what could not be replayed as recorded. */
  async play(): Promise<string[]> {
    const notes = await this.channel.play(this.driver());
    await this.settled(() => this.received >= this.channel.written);
    // The connection reads a line a few steps before the thread shows it.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    return notes;
  }

  dispose(): void {
    this.session.dispose();
    this.channel.dispose();
  }

  private driver(): ReplayDriver {
    return {
      clientRequest: (method, params) => this.clientRequest(method, params),
      clientAnswer: (method, request, answer) => this.clientAnswer(method, request, answer),
      clientNotification: async (method) => {
        if (method === 'session/cancel') await this.session.cancel();
      },
    };
  }

  private async clientRequest(method: string, params: unknown): Promise<boolean> {
    switch (method) {
      case 'initialize':
        if (!this.started) {
          this.started = true;
          void (this.target.kind === 'new' ? this.session.start() : this.session.openExisting(this.target));
        }
        return true;
      case 'authenticate':
      case 'session/new':
      case 'session/load':
      case 'session/resume':
        return this.started;
      case 'session/prompt':
        if (!(await this.settled(() => !this.session.turnView.running && this.session.connectionView.phase === 'ready'))) return false;
        void this.session.prompt(promptText(params));
        return true;
      default:
        return this.sessionRequest(method, params);
    }
  }

  /** Requests the user made from the conversation's controls, sent through the live connection as they were. */
  private sessionRequest(method: string, params: unknown): boolean {
    const live = this.session.live;
    if (!live || !isRecord(params)) return false;
    if (method === 'session/set_mode' && typeof params.modeId === 'string') void live.connection.setMode(live.sessionId, params.modeId).catch(() => undefined);
    else if (method === 'session/set_config_option' && typeof params.configId === 'string' && typeof params.value === 'string') void live.connection.setConfigOption(live.sessionId, params.configId, params.value).catch(() => undefined);
    else if (method === 'session/set_model' && typeof params.modelId === 'string') void live.connection.setModel(live.sessionId, params.modelId).catch(() => undefined);
    else return false;
    return true;
  }

  /** A recorded permission answer is given on the replayed card, once the card shows it. */
  private async clientAnswer(method: string, request: unknown, answer: RpcMessage): Promise<void> {
    if (method !== 'session/request_permission' || !isRecord(request) || !isRecord(request.toolCall)) return;
    const toolCallId = String(request.toolCall.toolCallId);
    const permission = await this.settled(() => this.session.thread.toolCall(toolCallId)?.permission ?? undefined);
    if (!permission) return;
    const outcome = answer.kind === 'result' && isRecord(answer.result) && isRecord(answer.result.outcome) ? (answer.result.outcome as acp.RequestPermissionOutcome) : null;
    this.session.answerPermission(permission.requestId, outcome?.outcome === 'selected' ? outcome.optionId : null);
  }

  /** Waits for the conversation to reach a state (bounded), as the recorded client was in it: checked whenever it changes. */
  private settled<T>(probe: () => T | undefined | false): Promise<T | undefined> {
    return new Promise((resolve) => {
      const subscriptions: Disposable[] = [];
      const finish = (value: T | undefined) => {
        clearTimeout(timer);
        for (const subscription of subscriptions) subscription.dispose();
        resolve(value);
      };
      const check = () => {
        const value = probe();
        if (value !== undefined && value !== false) finish(value);
      };
      const timer = setTimeout(() => finish(undefined), SETTLE_MS);
      subscriptions.push(this.session.thread.onDelta(check), this.session.onTurnChanged(check), this.session.onConnectionChanged(check), this.frames.onFrame(check));
      check();
    });
  }
}

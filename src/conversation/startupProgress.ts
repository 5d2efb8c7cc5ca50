import { startupStageLabels, startupStages, type StageStateView, type StartupStage, type StartupView } from './startup';
import type { Disposable } from '../util/disposable';
import { redactSecrets } from '../redaction/secrets';
import { describeExit } from '../acp/agentExit';
import type { AgentExit } from '../acp/agentChannel';

/**
 * How long each stage of a start may take before it counts as stalled. An agent that never
 * answers `initialize` is told so after 30 s, not left as a spinner; a new session may take
 * longer (Claude's first session starts its MCP servers and hooks), a sign-in by the agent too.
 */
export const STARTUP_TIMEOUTS_MS: Readonly<Record<StartupStage, number>> = {
  spawned: 10_000,
  initialized: 30_000,
  signedIn: 30_000,
  sessionReady: 60_000,
};

interface StageRecord {
  state: StageStateView;
  startedAt: number | null;
  endedAt: number | null;
}

/** Who the agent is, for the report. */
export interface StartupSubject {
  label: string;
  command: string;
  args: readonly string[];
}

/**
 * One start of an agent, stage by stage: each stage has its own deadline, and one that passes
 * calls `onStall` with the stage (the caller stops the agent and says so). Nothing here touches
 * the process; the caller reports where the start is.
 */
export class StartupProgress implements Disposable {
  private readonly stages = new Map<StartupStage, StageRecord>(startupStages.map((stage) => [stage, { state: 'waiting', startedAt: null, endedAt: null }]));
  private current: StartupStage | null = null;
  private timer: NodeJS.Timeout | null = null;
  private agentVersion: string | null = null;

  /** `began`: a stage began (the view to show while starting); `stalled`: a stage passed its deadline. */
  constructor(
    private readonly subject: StartupSubject,
    private readonly listener: { began(view: StartupView): void; stalled(stage: StartupStage): void },
    private readonly timeouts: Readonly<Record<StartupStage, number>> = STARTUP_TIMEOUTS_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get stalledStage(): StartupStage | null {
    for (const stage of startupStages) if (this.record(stage).state === 'stalled') return stage;
    return null;
  }

  /** The stage now running; the one before it is done. */
  begin(stage: StartupStage): void {
    if (this.current && this.current !== stage) this.finish(this.current, 'done');
    // Stages a start did not need (a shared process is initialized already; no sign-in) count as done.
    for (const earlier of startupStages.slice(0, startupStages.indexOf(stage))) {
      if (this.record(earlier).state === 'waiting') this.record(earlier).state = 'done';
    }
    this.current = stage;
    this.record(stage).state = 'running';
    this.record(stage).startedAt = this.now();
    this.watch(stage);
    this.listener.began(this.view(null, []));
  }

  /** The start got through: the running stage is done. */
  complete(): void {
    if (this.current) this.finish(this.current, 'done');
    this.current = null;
  }

  /** The agent waits for the user (sign-in): no deadline while it does. */
  waitForUser(): void {
    this.clearTimer();
  }

  /** The start failed in the running stage (the agent exited, refused, answered something unusable). */
  fail(): void {
    if (this.current) this.finish(this.current, 'failed');
    this.current = null;
  }

  noteAgent(name: string | null | undefined, version: string | null | undefined, protocolVersion: number): void {
    this.agentVersion = `${name ?? 'unknown'} ${version ?? ''} (ACP protocol ${protocolVersion})`.replace(/\s+/g, ' ');
  }

  /** What the banner shows: the stages, and for a failed start its sentence, the log tail and the report. */
  view(summary: string | null, stderrTail: readonly string[]): StartupView {
    const tail = redactSecrets(stderrTail.join('\n')).split('\n').filter((line) => line.trim()).slice(-20);
    return {
      stages: startupStages.map((stage) => ({ stage, state: this.record(stage).state, ms: this.elapsed(stage) })),
      summary,
      stderrTail: tail,
      report: summary === null ? null : this.report(summary, tail),
    };
  }

  dispose(): void {
    this.clearTimer();
  }

  private report(summary: string, tail: readonly string[]): string {
    const lines = [
      `Tandem: ${summary}`,
      '',
      `Command: ${[this.subject.command, ...this.subject.args].join(' ')}`,
      `Agent: ${this.agentVersion ?? 'did not say (no initialize answer)'}`,
      `Platform: ${process.platform} ${process.arch}, Node ${process.version}`,
      '',
      'Stages:',
      ...startupStages.map((stage) => {
        const ms = this.elapsed(stage);
        return `  ${startupStageLabels[stage].padEnd(20)} ${this.record(stage).state}${ms === null ? '' : ` (${Math.round(ms)} ms)`}`;
      }),
      '',
      tail.length > 0 ? 'Last lines the agent logged (stderr):' : 'The agent logged nothing on stderr.',
      ...tail.map((line) => `  ${line}`),
    ];
    return redactSecrets(lines.join('\n'));
  }

  private finish(stage: StartupStage, state: StageStateView): void {
    const record = this.record(stage);
    if (record.state !== 'running') return;
    record.state = state;
    record.endedAt = this.now();
    this.clearTimer();
  }

  private watch(stage: StartupStage): void {
    this.clearTimer();
    this.timer = setTimeout(() => {
      if (this.current !== stage) return;
      this.finish(stage, 'stalled');
      this.current = null;
      this.listener.stalled(stage);
    }, this.timeouts[stage]);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private elapsed(stage: StartupStage): number | null {
    const { startedAt, endedAt } = this.record(stage);
    if (startedAt === null) return null;
    return (endedAt ?? this.now()) - startedAt;
  }

  private record(stage: StartupStage): StageRecord {
    const record = this.stages.get(stage);
    if (!record) throw new Error(`unknown startup stage ${stage}`);
    return record;
  }
}

/** The banner's sentence for a failed start or a lost agent: an exit's without its log lines (they are folded under it). */
export function bannerSentence(label: string, message: string, exit: AgentExit | null): string {
  return exit ? describeExit(label, { ...exit, stderrTail: [] }) : message;
}

/** "Scripted agent did not answer `initialize` within 30 s." */
export function stallSentence(label: string, stage: StartupStage, timeouts: Readonly<Record<StartupStage, number>> = STARTUP_TIMEOUTS_MS): string {
  const seconds = Math.round(timeouts[stage] / 100) / 10;
  const what: Record<StartupStage, string> = {
    spawned: 'did not start',
    initialized: 'did not answer `initialize`',
    signedIn: 'did not finish signing in',
    sessionReady: 'did not open a session',
  };
  return `${label} ${what[stage]} within ${seconds} s; Tandem stopped it.`;
}

import type * as acp from '@agentclientprotocol/sdk';
import type { DemoTurn } from './demoSession';

/** A plan whose entries move from pending to in progress to completed as the turn works through them. */
export class PlanProgress {
  private readonly entries: acp.PlanEntry[];

  constructor(private readonly turn: DemoTurn, steps: readonly string[]) {
    this.entries = steps.map((content) => ({ content, priority: 'medium', status: 'pending' }));
  }

  show(): Promise<void> {
    return this.turn.send({ sessionUpdate: 'plan', entries: this.entries.map((entry) => ({ ...entry })) });
  }

  start(index: number): Promise<void> {
    return this.mark(index, 'in_progress');
  }

  /** `note` says how the step ended when that is not simply done (e.g. the user said no). */
  finish(index: number, note: string | null = null): Promise<void> {
    return this.mark(index, 'completed', note);
  }

  private mark(index: number, status: acp.PlanEntryStatus, note: string | null = null): Promise<void> {
    const entry = this.entries[index];
    if (!entry) return Promise.resolve();
    entry.status = status;
    if (note) entry.content = `${entry.content} (${note})`;
    return this.show();
  }
}

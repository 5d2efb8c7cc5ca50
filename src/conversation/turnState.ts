import type { TurnView } from './connection';
import type { StopReasonView } from '../thread/entries';
import type { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import type { Logger } from '../util/logger';

/** If the agent never answers a cancelled prompt, the turn still ends for the user. */
const CANCEL_GRACE_MS = 5000;

/** One prompt's turn, from sending until its stop reason; it ends once. */
export interface Turn {
  readonly ended: boolean;
}

interface TurnRecord extends Turn {
  ended: boolean;
  cancelTimer: NodeJS.Timeout | null;
}

/**
 * Whether a turn runs, announced on every change: a turn begins, ends exactly once (whoever sees
 * its end first: the agent's answer, an exit, Stop's grace period), and `onEnd` does the session's
 * part of ending it.
 */
export class TurnState implements Disposable {
  private active: TurnRecord | null = null;
  private readonly emitter = new Emitter<TurnView>();
  readonly onChanged = this.emitter.event;

  constructor(
    private readonly onEnd: (stopReason: StopReasonView, detail: string | null) => void,
    private readonly log: Logger,
  ) {}

  get current(): Turn | null {
    return this.active;
  }

  get view(): TurnView {
    return { running: this.active !== null };
  }

  begin(): Turn {
    if (this.active) throw new Error('A turn is already running.');
    const turn: TurnRecord = { ended: false, cancelTimer: null };
    this.active = turn;
    this.emitter.fire(this.view);
    return turn;
  }

  finish(turn: Turn, stopReason: StopReasonView, detail: string | null): void {
    const record = turn as TurnRecord;
    if (record.ended) return;
    record.ended = true;
    if (record.cancelTimer) clearTimeout(record.cancelTimer);
    this.onEnd(stopReason, detail);
    if (this.active === record) this.active = null;
    this.emitter.fire(this.view);
  }

  /** Stop was pressed: the turn ends here if the agent does not end it within the grace period. */
  endAfterGrace(turn: Turn): void {
    const record = turn as TurnRecord;
    record.cancelTimer ??= setTimeout(() => {
      this.log.warn('The agent did not end the cancelled turn; ending it here.');
      this.finish(record, 'cancelled', null);
    }, CANCEL_GRACE_MS);
  }

  dispose(): void {
    if (this.active?.cancelTimer) clearTimeout(this.active.cancelTimer);
    this.emitter.dispose();
  }
}

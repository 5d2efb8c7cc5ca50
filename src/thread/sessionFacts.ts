import type * as acp from '@agentclientprotocol/sdk';
import type { RateLimitView } from '../usage/rateLimits';

/** Session-level facts that are not entries of the thread. */
export interface SessionFacts {
  title: string | null;
  usage: { used: number; size: number; cost: { amount: number; currency: string } | null } | null;
  currentModeId: string | null;
  availableCommands: acp.AvailableCommand[];
  configOptions: acp.SessionConfigOption[];
  /** Plan limits the agent reported, one per window (Claude's 5-hour and weekly). */
  rateLimits: RateLimitView[];
}

export type SessionFactName = keyof SessionFacts;

/** Who can change the session facts; every change is announced on `onFactChanged`. */
export interface SessionFactsOwner {
  readonly facts: Readonly<SessionFacts>;
  setFact<K extends SessionFactName>(name: K, value: SessionFacts[K]): void;
}

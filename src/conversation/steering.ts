import type * as acp from '@agentclientprotocol/sdk';
import type { AcpConnection } from '../acp/acpConnection';
import type { SteerOutcomeView } from '../thread/entries';
import type { ThreadModel } from '../thread/threadModel';
import { type Logger } from '../util/logger';
import { errorMessage } from '../redaction/redactedLog';

/**
 * What came of steering a message into the running turn: the agent took it (into the turn, or
 * as a turn of its own), handed it back because no turn was running any more, or refused it.
 */
export type SteerResult =
  | { kind: 'taken'; outcome: SteerOutcomeView }
  | { kind: 'handedBack' }
  | { kind: 'refused'; reason: string };

/** The agent advertises `_session/steering` in its `initialize` answer (`_meta.steering.supported`). */
export function steeringSupported(init: acp.InitializeResponse | null): boolean {
  const steering = (init?._meta as { steering?: { supported?: unknown } } | null | undefined)?.steering;
  return steering?.supported === true;
}

/** Reads the agent's answer: `injected`, `startedNewTurn`, `promptRequired`, or `failed` (codex-acp). */
function resultOf(answer: unknown): SteerResult {
  const outcome = (answer as { outcome?: unknown } | null)?.outcome;
  if (outcome === 'injected' || outcome === 'startedNewTurn') return { kind: 'taken', outcome };
  if (outcome === 'promptRequired') return { kind: 'handedBack' };
  return { kind: 'refused', reason: outcome === 'failed' ? 'it could not apply it' : `it answered ${JSON.stringify(outcome ?? null)}` };
}

export async function steerTurn(connection: AcpConnection, sessionId: string, prompt: acp.ContentBlock[]): Promise<SteerResult> {
  try {
    return resultOf(await connection.steer(sessionId, prompt));
  } catch (error) {
    return { kind: 'refused', reason: errorMessage(error) };
  }
}

/**
 * Steers a message into the running turn and shows what came of it: true when the agent took it
 * (the thread shows it with what the agent did); false when it is still the caller's to send.
 */
export async function steerIntoThread(
  live: { connection: AcpConnection; sessionId: string }, text: string, attachments: readonly acp.ContentBlock[],
  conversation: { thread: ThreadModel; log: Logger; agentLabel: string },
): Promise<boolean> {
  const result = await steerTurn(live.connection, live.sessionId, [{ type: 'text', text }, ...attachments]);
  if (result.kind === 'taken') {
    conversation.thread.addUserMessage(text, result.outcome);
    return true;
  }
  if (result.kind === 'refused') {
    conversation.log.warn(`_session/steering refused: ${result.reason}`);
    conversation.thread.addNotice('warning', `${conversation.agentLabel} did not take the message into its turn (${result.reason}); it stays queued.`);
  }
  return false;
}

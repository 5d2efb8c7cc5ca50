import * as acp from '@agentclientprotocol/sdk';
import { PERMISSION_OPTIONS } from './agentKit';
import type { DemoTurn } from './demoSession';

export type Decision = 'allowed' | 'rejected' | 'cancelled';

/**
 * Whether the user lets a change happen: in "Ask before edits" the tool card asks (allow once,
 * always, reject); in "Edit freely" it goes ahead, and the review still holds every hunk.
 */
export async function consentTo(turn: DemoTurn, toolCall: acp.ToolCallUpdate): Promise<Decision> {
  if (turn.session.config.mode === 'auto') return 'allowed';
  return askPermission(turn, toolCall);
}

async function askPermission(turn: DemoTurn, toolCall: acp.ToolCallUpdate): Promise<Decision> {
  const answer = await turn.unlessStopped(turn.client.request(acp.methods.client.session.requestPermission,
    { sessionId: turn.session.id, options: PERMISSION_OPTIONS, toolCall }, { cancellationSignal: turn.signal }));
  if (answer === 'cancelled' || answer.outcome.outcome === 'cancelled') return 'cancelled';
  return answer.outcome.optionId.startsWith('allow') ? 'allowed' : 'rejected';
}

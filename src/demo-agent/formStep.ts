import * as acp from '@agentclientprotocol/sdk';
import type { DemoTurn } from './demoSession';
import type { FormAnswer } from './voice';

/** A short form with the constraints a client has to check: a required string with a length, a choice, a bounded number. */
export const GREETING_FORM: acp.ElicitationSchema = {
  type: 'object',
  title: 'Greeting settings',
  properties: {
    name: { type: 'string', title: 'Who to greet', description: '2 to 30 characters', minLength: 2, maxLength: 30 },
    style: {
      type: 'string', title: 'Style', default: 'friendly',
      oneOf: [{ const: 'friendly', title: 'Friendly' }, { const: 'formal', title: 'Formal' }, { const: 'pirate', title: 'Pirate' }],
    },
    excitement: { type: 'integer', title: 'Exclamation marks', description: '0 to 3', minimum: 0, maximum: 3, default: 1 },
  },
  required: ['name', 'style'],
};

function asFormAnswer(answer: acp.CreateElicitationResponse): FormAnswer {
  if (answer.action === 'accept') {
    const content = 'content' in answer && answer.content && typeof answer.content === 'object' ? answer.content as Record<string, unknown> : {};
    return { action: 'accept', content };
  }
  return { action: answer.action === 'decline' ? 'decline' : 'cancel', content: null };
}

/** Asks with `elicitation/create`; null when the client offers no forms. */
export async function askForm(turn: DemoTurn): Promise<FormAnswer | null | 'cancelled'> {
  if (!turn.session.offers.form) return null;
  const answer = await turn.unlessStopped(turn.client.request(acp.methods.client.elicitation.create, {
    sessionId: turn.session.id, mode: 'form', message: 'How should the sample greet people?', requestedSchema: GREETING_FORM,
  }, { cancellationSignal: turn.signal }));
  return answer === 'cancelled' ? 'cancelled' : asFormAnswer(answer);
}

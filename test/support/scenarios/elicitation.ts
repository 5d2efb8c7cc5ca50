import * as acp from '@agentclientprotocol/sdk';
import { streamText } from '../../../src/demo-agent/agentKit';
import type { Scenario } from './scenario';

/** A form with every field type the spec allows. */
export const EVERY_FIELD: acp.ElicitationSchema = {
  type: 'object',
  title: 'Deployment details',
  properties: {
    email: { type: 'string', title: 'Email', format: 'email' },
    site: { type: 'string', title: 'Site', format: 'uri' },
    day: { type: 'string', title: 'Day', format: 'date' },
    name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20 },
    replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 5 },
    ratio: { type: 'number', title: 'Ratio', minimum: 0, maximum: 1 },
    confirm: { type: 'boolean', title: 'Confirm', default: false },
    region: { type: 'string', title: 'Region', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'United States' }] },
    size: { type: 'string', title: 'Size', enum: ['s', 'm', 'l'] },
    features: { type: 'array', title: 'Features', minItems: 1, items: { type: 'string', enum: ['logs', 'metrics', 'traces'] } },
  },
  required: ['email', 'name', 'replicas', 'region', 'features'],
};

/** Scenarios that ask the user through `elicitation/create`. */
export const elicitationScenarios: Record<string, Scenario> = {
  async elicit(client, sessionId) {
    const answer = await client.request(acp.methods.client.elicitation.create, { sessionId, mode: 'form', message: 'Where should I deploy?', requestedSchema: EVERY_FIELD } as acp.CreateElicitationRequest);
    await streamText(client, sessionId, `Elicitation: ${JSON.stringify(answer)}`, { chunkSize: 1000 });
    return 'end_turn';
  },
  async 'elicit-url'(client, sessionId) {
    const pending = client.request(acp.methods.client.elicitation.create, { sessionId, mode: 'url', elicitationId: 'e-1', url: 'https://login.example.com/device?code=ABCD', message: 'Approve the device' } as acp.CreateElicitationRequest);
    const answer = await pending;
    await streamText(client, sessionId, `URL elicitation: ${JSON.stringify(answer)}`, { chunkSize: 1000 });
    return 'end_turn';
  },
  async 'elicit-complete'(client, sessionId) {
    const pending = client.request(acp.methods.client.elicitation.create, { sessionId, mode: 'url', elicitationId: 'e-2', url: 'https://login.example.com/wait', message: 'Finish in the browser' } as acp.CreateElicitationRequest);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.notify(acp.methods.client.elicitation.complete, { elicitationId: 'e-2' });
    const answer = await pending;
    await streamText(client, sessionId, `Completed: ${JSON.stringify(answer)}`, { chunkSize: 1000 });
    return 'end_turn';
  },
};

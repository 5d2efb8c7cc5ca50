import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ElicitationView } from '../../src/thread/elicitationForm';
import { formFields, validateAnswer } from '../../src/elicitation/elicitationSchema';
import type { SessionController } from '../../src/conversation/sessionController';
import { EVERY_FIELD } from '../support/scenarios/elicitation';
import { scriptedSession } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

function form(session: SessionController): ElicitationView | undefined {
  const entry = session.thread.snapshot().reverse().find((candidate) => candidate.kind === 'elicitation');
  return entry?.kind === 'elicitation' ? entry.elicitation : undefined;
}

const VALID = { email: 'dev@example.com', site: 'https://example.com', day: '2026-12-01', name: 'api', replicas: 3, ratio: 0.5, confirm: true, region: 'eu', size: 'm', features: ['logs', 'traces'] };

describe('elicitation schema', () => {
  test('every field type becomes a form field with its constraints', () => {
    const { fields, unsupported } = formFields(EVERY_FIELD);
    assert.deepEqual(unsupported, []);
    assert.deepEqual(fields.map((field) => `${field.name}:${field.kind}${field.required ? '!' : ''}`),
      ['email:text!', 'site:text', 'day:text', 'name:text!', 'replicas:number!', 'ratio:number', 'confirm:boolean', 'region:select!', 'size:select', 'features:multiSelect!']);
    const region = fields.find((field) => field.name === 'region');
    assert.deepEqual(region?.kind === 'select' && region.options.map((option) => option.label), ['Europe', 'United States']);
  });

  test('validation names each problem; a valid answer is cleaned into the response content', () => {
    const { fields } = formFields(EVERY_FIELD);
    const bad = validateAnswer(fields, { email: 'nope', site: 'not a url', day: '1/2/2026', name: 'x', replicas: 2.5, ratio: 3, region: 'mars', features: [] });
    assert.ok('errors' in bad);
    assert.deepEqual(Object.keys(bad.errors).sort(), ['day', 'email', 'features', 'name', 'ratio', 'region', 'replicas', 'site']);
    const good = validateAnswer(fields, { ...VALID, replicas: '3' });
    assert.deepEqual(good, { content: { ...VALID } });
  });
});

describe('elicitation with the scripted agent', () => {
  test('a form is shown in the thread; invalid values keep it open; accept sends the content', async (t) => {
    const session = scriptedSession(t);
    const turn = session.prompt('elicit');
    const shown = await waitFor(() => form(session), 'the form');
    assert.equal(shown.title, 'Deployment details');
    assert.equal(session.answerElicitation(shown.requestId, 'accept', { ...VALID, email: 'broken' }), false);
    assert.equal(form(session)?.errors.email, 'Enter an email address.');
    assert.equal(form(session)?.state, 'open');
    // The form shown again holds what the user entered, the wrong value included, not blank fields.
    const entered = Object.fromEntries((form(session)?.fields ?? []).map((field) => [field.name, field.defaultValue]));
    assert.deepEqual(entered, { ...VALID, email: 'broken' });
    assert.ok(session.answerElicitation(shown.requestId, 'accept', VALID));
    await turn;
    assert.equal(session.thread.lastAgentText(), `Elicitation: ${JSON.stringify({ action: 'accept', content: VALID })}`);
    assert.equal(form(session)?.state, 'accepted');
  });

  test('an answered form keeps the values that were sent, not blank fields', async (t) => {
    const session = scriptedSession(t);
    const turn = session.prompt('elicit');
    const shown = await waitFor(() => form(session), 'the form');
    assert.ok(session.answerElicitation(shown.requestId, 'accept', { ...VALID, replicas: '3' }));
    await turn;
    assert.equal(form(session)?.state, 'accepted');
    const shownAfter = Object.fromEntries((form(session)?.fields ?? []).map((field) => [field.name, field.defaultValue]));
    assert.deepEqual(shownAfter, VALID);
  });

  test('decline and cancel are answered as such; Stop cancels an open form', async (t) => {
    const session = scriptedSession(t);
    for (const action of ['decline', 'cancel'] as const) {
      const turn = session.prompt('elicit');
      const shown = await waitFor(() => (form(session)?.state === 'open' ? form(session) : undefined), 'an open form');
      session.answerElicitation(shown.requestId, action);
      await turn;
      assert.equal(session.thread.lastAgentText(), `Elicitation: ${JSON.stringify({ action })}`);
    }
    const stopped = session.prompt('elicit');
    await waitFor(() => form(session)?.state === 'open', 'a third form');
    await session.cancel();
    await stopped;
    assert.equal(form(session)?.state, 'cancelled');
  });

  test('URL mode shows the full address and host; elicitation/complete closes it', async (t) => {
    const session = scriptedSession(t);
    const turn = session.prompt('elicit-url');
    const shown = await waitFor(() => form(session), 'the link');
    assert.equal(shown.url, 'https://login.example.com/device?code=ABCD');
    assert.equal(shown.host, 'login.example.com');
    session.answerElicitation(shown.requestId, 'accept');
    await turn;
    assert.equal(session.thread.lastAgentText(), 'URL elicitation: {"action":"accept"}');
    await session.prompt('elicit-complete');
    assert.equal(form(session)?.state, 'completed');
    assert.equal(session.thread.lastAgentText(), 'Completed: {"action":"accept"}');
  });
});

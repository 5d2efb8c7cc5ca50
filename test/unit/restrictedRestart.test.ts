import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectionView } from '../../src/conversation/connection';
import { scriptedSession } from '../support/sessionBuilders';

test('Restart and opening an earlier session in Restricted Mode keep saying why no agent starts', async (t) => {
  const session = scriptedSession(t, { trusted: false });
  const shown: ConnectionView[] = [];
  session.onConnectionChanged((state) => shown.push(state));
  const restricted = session.connectionView;
  assert.equal(restricted.phase, 'restricted');
  assert.equal(await session.restart(), false);
  assert.deepEqual(session.connectionView, restricted);
  assert.equal(await session.openExisting({ kind: 'load', sessionId: 'earlier' }), false);
  assert.deepEqual(session.connectionView, restricted);
  assert.ok(shown.every((state) => state.phase === 'restricted' && state.message === restricted.message), 'never idle in between');
  assert.equal(session.agentPid, undefined);
});

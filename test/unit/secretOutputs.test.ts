import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeExit } from '../../src/acp/agentExit';
import type { TranscriptsState } from '../../src/panel/transcripts';
import { taggedLogger } from '../../src/util/logger';
import { errorMessage, redactingLogger } from '../../src/redaction/redactedLog';
import { REDACTED } from '../../src/redaction/secrets';
import { workspaceTranscripts } from '../../src/vscode/transcriptStorage';
import { generated } from '../support/secretFormats';

describe('outputs without secrets', () => {
  test('every level of the log is redacted, under any tag', () => {
    const written: string[] = [];
    const capture = (message: string) => void written.push(message);
    const log = taggedLogger(redactingLogger({ trace: capture, debug: capture, info: capture, warn: capture, error: capture }), 'terminal');
    const token = `ghp_${generated(11, 36)}`;
    log.trace(`a ${token}`);
    log.debug(`b ${token}`);
    log.info(`terminal term-1: shell bash -lc 'curl -H "Authorization: Bearer ${generated(12, 30)}"'`);
    log.warn(`d --password ${generated(13, 12)}`);
    log.error(`e DB_PASSWORD=${generated(14, 12)}`);
    assert.deepEqual(written, [
      `[terminal] a ${REDACTED}`,
      `[terminal] b ${REDACTED}`,
      `[terminal] terminal term-1: shell bash -lc 'curl -H "Authorization: Bearer ${REDACTED}"'`,
      `[terminal] d --password ${REDACTED}`,
      `[terminal] e DB_PASSWORD=${REDACTED}`,
    ]);
  });

  test('the exit sentence keeps its shape; the stderr tail loses its credentials', () => {
    const key = `sk-ant-api03-${generated(15, 40)}`;
    const exit = { code: 1, signal: null, requested: false, spawnError: null, stderrTail: ['booting', `ANTHROPIC_API_KEY=${key} rejected`, 'fatal: 401'] };
    assert.equal(describeExit('Claude Code', exit), `Claude Code exited with code 1. Last output: booting / ANTHROPIC_API_KEY=${REDACTED} rejected / fatal: 401`);
  });

  test('a private key in the stderr tail is dropped even when its BEGIN line scrolled out', () => {
    const body = [generated(16, 64, 'ABCabc0123+/'), generated(17, 64, 'ABCabc0123+/'), generated(18, 20, 'ABCabc0123+/')];
    const exit = { code: 2, signal: null, requested: false, spawnError: null, stderrTail: [...body, '-----END RSA PRIVATE KEY-----'] };
    const sentence = describeExit('Agent', exit);
    for (const line of body) assert.ok(!sentence.includes(line.slice(0, 8)), sentence);
    assert.ok(sentence.endsWith('-----END RSA PRIVATE KEY-----'), sentence);
  });

  test('transcripts are stored without credentials, and ones stored before are read without them', () => {
    const token = `npm_${generated(19, 36)}`;
    const entries = [{ kind: 'user' as const, id: 'u1', text: `publish with ${token}` }];
    const state: TranscriptsState = { open: [{ tabId: 't', agentId: 'a', sessionId: 's', title: 'x', updatedAt: '', entries }], activeTabId: 't', closed: [] };
    let stored: unknown = state;
    const memento = { get: () => stored, update: (_key: string, value: unknown) => ((stored = value), Promise.resolve()), keys: () => [] };
    const storage = workspaceTranscripts(memento as never);
    assert.deepEqual(storage.read()?.open[0]?.entries, [{ kind: 'user', id: 'u1', text: `publish with ${REDACTED}` }]);
    storage.write(state);
    assert.ok(!JSON.stringify(stored).includes(token));
    assert.deepEqual((stored as TranscriptsState).open[0]?.entries, [{ kind: 'user', id: 'u1', text: `publish with ${REDACTED}` }]);
  });
});

describe('error sentences', () => {
  test('an agent error that quotes a key is shown without it', () => {
    const key = 'sk-ant-api03-' + 'Q'.repeat(40);
    const shown = errorMessage(new Error(`invalid x-api-key ${key}`));
    assert.ok(!shown.includes('Q'.repeat(8)), shown);
    assert.match(shown, /invalid x-api-key/);
  });
});

/**
 * A streamed answer's pieces are redacted with the kilobytes of text before them, so that a
 * credential split between two pieces is found; only the line a piece starts on is searched
 * again (`searchStart`). These cases check that this finds, over every new piece, exactly what
 * searching the whole text finds, for texts made of credentials, look-alikes, prose, JSON,
 * settings lines and private keys cut at every kind of place.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameRedactor } from '../../src/redaction/frameRedaction';
import type { Frame } from '../../src/wire/frame';
import { secretsOfPiece } from '../../src/redaction/pieceRedaction';
import { maskPieces, redactSecrets } from '../../src/redaction/secrets';
import { generated, LOOK_ALIKES, SECRET_FORMATS } from '../support/secretFormats';

const PROSE = [
  'The build passes now.', 'See `src/index.ts` for the entry point:', '- item one, then **bold** text', '```ts', '```',
  'const key = getKey();', 'password: string;', '"password": "', '"api_key": "', 'TOKEN = ', 'export ', 'Authorization: Bearer ',
  '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', 'https://user:', '@example.com/repo', '?key=', '&sig=',
];
const SEPARATORS = ['', ' ', '\n', '\n\n', '\\n', '\r\n', ': ', '='];

/** A deterministic text of `parts` parts: credentials, look-alikes and prose joined by separators. */
function mixedText(seed: number, parts: number): string {
  const pool = [...SECRET_FORMATS.map((format) => format.text), ...LOOK_ALIKES, ...PROSE];
  let text = '';
  for (let index = 0; index < parts; index++) {
    const pick = Number.parseInt(generated(seed * 31 + index, 4, '0123456789'), 10);
    text += (pool[pick % pool.length] ?? '') + (SEPARATORS[(pick >> 3) % SEPARATORS.length] ?? '');
  }
  return text;
}

/** The new piece of `text` after `fresh`, masked as a search from `start` gives it. */
function maskedPiece(text: string, fresh: number, mayGoOn: boolean, whole: boolean): string {
  const ranges = secretsOfPiece(text, mayGoOn, whole ? 0 : fresh);
  return maskPieces([text.slice(fresh)], ranges, '', fresh)[0] ?? '';
}

test('a piece searched from the line it starts on is masked exactly as by a search of the whole text', () => {
  let cases = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const text = mixedText(seed, 6 + (seed % 20));
    for (let cut = 1; cut <= 12; cut++) {
      const fresh = Math.floor((text.length * cut) / 13);
      for (const mayGoOn of [true, false]) {
        assert.equal(maskedPiece(text, fresh, mayGoOn, false), maskedPiece(text, fresh, mayGoOn, true), `seed ${seed}, piece from ${fresh}: ${JSON.stringify(text)}`);
        cases++;
      }
    }
  }
  assert.ok(cases >= 9000, `${cases} cases`);
});

const chunkFrame = (text: string, at: number): Frame => ({
  at,
  direction: 'in',
  text: JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } }),
});

test('streamed in pieces of 1 to 13 characters, a long answer shows no credential that redacting it whole hides', () => {
  const answer = Array.from({ length: 60 }, (_, index) => mixedText(1000 + index, 12)).join('\n');
  const whole = redactSecrets(answer);
  let checked = 0;
  for (let size = 1; size <= 13; size += 3) {
    const redactor = new FrameRedactor();
    const frames: Frame[] = [];
    for (let at = 0; at * size < answer.length; at++) frames.push(...redactor.push(chunkFrame(answer.slice(at * size, (at + 1) * size), at)));
    frames.push(...redactor.releaseStale(Number.POSITIVE_INFINITY));
    const shown = frames.map((frame) => (JSON.parse(frame.text) as { params: { update: { content: { text: string } } } }).params.update.content.text).join('');
    for (const format of SECRET_FORMATS) {
      for (const secret of format.secrets) {
        if (!answer.includes(secret) || whole.includes(secret.slice(0, 12))) continue;
        assert.ok(!shown.includes(secret.slice(0, 12)), `${format.name} shows in ${size}-character pieces`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 50, `${checked} credentials checked`);
});

/**
 * The credential matcher over a run of several MB without a break (a minified file read into
 * one JSON string): the regular expression engine ran out of stack on it, so the redaction of
 * that text threw, and the export, traffic line or frame it was for failed with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameRedactor } from '../../src/redaction/frameRedaction';
import { redactSecrets } from '../../src/redaction/secrets';

const MB = 1024 * 1024;
const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

test('a run of 8 MB without a break is redacted without throwing, and no credential around or after it survives', () => {
  const run = 'x'.repeat(8 * MB);
  for (const text of [`{"text":"${run}"} ${token}`, `${token} ${run}`, `{"content":"${run}","key":"${token}"}`]) {
    const redacted = redactSecrets(text);
    assert.ok(!redacted.includes(token.slice(0, 12)), `${text.slice(0, 20)}…: the credential survived`);
  }
  const frame = { at: 1, direction: 'in' as const, text: JSON.stringify({ jsonrpc: '2.0', id: 3, result: { content: `${token}\n${run}` } }) };
  const shown = new FrameRedactor().push(frame).map((each) => each.text).join('');
  assert.ok(!shown.includes(token.slice(0, 12)), 'the frame is shown without the credential');
});

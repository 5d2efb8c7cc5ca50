import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactFrames } from '../../src/redaction/frameRedaction';
import type { Frame } from '../../src/wire/frame';
import { trafficLine } from '../../src/inspector/trafficFormat';
import { REDACTED, redactFrameText } from '../../src/redaction/redact';

/** The traffic line of one frame, redacted as the traffic channel does. */
function formatFrame(frame: Frame): string {
  const [redacted] = redactFrames([frame]);
  assert.ok(redacted, 'the frame comes out');
  return trafficLine(redacted);
}

describe('traffic redaction', () => {
  test('secret-named keys, env values and key-shaped strings are removed; the rest stays', () => {
    const frame = JSON.stringify({
      jsonrpc: '2.0', id: 3, method: 'terminal/create',
      params: {
        command: 'deploy', args: ['--token', 'sk-ant-abcdefghijklmnop1234'],
        env: [{ name: 'AWS_SECRET', value: 'wJalrXUtnFEMI' }, { name: 'PLAIN', value: 'visible-to-nobody' }],
        apiKey: 'AIzaSyA-1234567890abcdefghijklmn', headers: [{ name: 'Authorization', value: 'Bearer abc' }],
        cwd: '/work/project',
      },
    });
    const redacted = redactFrameText(frame);
    for (const secret of ['sk-ant-abcdefghijklmnop1234', 'wJalrXUtnFEMI', 'visible-to-nobody', 'AIzaSyA-1234567890abcdefghijklmn', 'Bearer abc']) {
      assert.ok(!redacted.includes(secret), `${secret} must not appear`);
    }
    const parsed = JSON.parse(redacted) as { params: { env: { name: string; value: string }[]; cwd: string; command: string } };
    assert.deepEqual(parsed.params.env.map((pair) => pair.name), ['AWS_SECRET', 'PLAIN']);
    assert.equal(parsed.params.env[0]?.value, REDACTED);
    assert.equal(parsed.params.cwd, '/work/project');
    assert.equal(parsed.params.command, 'deploy');
  });

  test('argument lists are redacted as the command line they make; other arguments stay', () => {
    const frame = JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'terminal/create', params: { command: 'aws', args: ['configure', 'set', 'aws_secret_access_key', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'] } });
    const parsed = JSON.parse(redactFrameText(frame)) as { params: { args: string[] } };
    assert.deepEqual(parsed.params.args, ['configure', 'set', 'aws_secret_access_key', REDACTED]);
    const mcp = JSON.stringify({ method: 'session/new', params: { mcpServers: [{ name: 'db', command: 'npx', args: ['-y', 'db-mcp', '--password', 'hunter2', '--port', '5432'] }] } });
    assert.ok(redactFrameText(mcp).includes(`"args":["-y","db-mcp","--password","${REDACTED}","--port","5432"]`));
  });

  test('a line that is not JSON is still scrubbed and shown', () => {
    assert.equal(redactFrameText('oops sk-abcdefghijklmnopqrstuv {'), `oops ${REDACTED} {`);
  });

  test('formatted lines carry time and direction', () => {
    const line = formatFrame({ at: Date.UTC(2026, 0, 2, 3, 4, 5), direction: 'in', text: '{"jsonrpc":"2.0","method":"session/update"}' });
    assert.equal(line, '2026-01-02T03:04:05.000Z ← agent {"jsonrpc":"2.0","method":"session/update"}');
  });
});

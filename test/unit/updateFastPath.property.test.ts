/**
 * The `session/update` fast path must accept, clean and drop exactly what the SDK does. Checked
 * two ways against the SDK itself: the check against the SDK's own zod schema (the one its
 * dispatch parses with), and whole streams of lines through Tandem's AcpConnection against the
 * bare SDK client, compared by what reaches the session, in order, and what gets reported.
 */
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, test, type TestContext } from 'node:test';
import * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { zSessionNotification } from '../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js';
import { AcpConnection } from '../../src/acp/acpConnection';
import { checkedSessionNotification } from '../../src/acp/updateCheck';
import { hotUpdate, recordedUpdates, sessionUpdateParams } from '../support/updateArbitraries';
import { waitFor } from '../support/waitFor';

const line = (message: unknown) => `${JSON.stringify(message)}\n`;
const updateLine = (params: unknown) => line({ jsonrpc: '2.0', method: 'session/update', params });
const END = { sessionId: 'end', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'end' } } };

/** The SDK's verdict: the params its handler would get, or null when it drops them. */
function sdkVerdict(params: unknown): unknown {
  const parsed = zSessionNotification.safeParse(params);
  return parsed.success ? parsed.data : null;
}

function hasNonTextBlock(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNonTextBlock);
  if (typeof value !== 'object' || value === null) return false;
  const { type } = value as { type?: unknown };
  return type === 'image' || type === 'resource_link' || Object.values(value).some(hasNonTextBlock);
}

describe('the update check against the SDK schema', () => {
  test('whatever the check passes, the SDK accepts and hands on unchanged; the rest is left to the SDK', () => {
    let taken = 0;
    let left = 0;
    fc.assert(fc.property(sessionUpdateParams, (params) => {
      const checked = checkedSessionNotification(params);
      if (checked === null) {
        left++;
        return;
      }
      taken++;
      assert.equal(checked, params, 'a checked update is used as it is');
      assert.deepStrictEqual(sdkVerdict(params), params);
    }), { numRuns: 4000 });
    assert.ok(taken > 500 && left > 500, `both paths are exercised (${taken} taken, ${left} left to the SDK)`);
  });

  test('every hot update in the shapes agents send is taken, text content and all', () => {
    fc.assert(fc.property(hotUpdate, fc.constantFrom('s1', 'other'), (update, sessionId) => {
      fc.pre(!hasNonTextBlock(update));
      // As JSON.parse makes it (the generator's dictionaries have no prototype).
      const params = JSON.parse(JSON.stringify({ sessionId, update })) as unknown;
      assert.deepStrictEqual(sdkVerdict(params), params, 'the generator makes valid updates');
      assert.equal(checkedSessionNotification(params), params);
    }), { numRuns: 2000 });
  });

  test('recorded real-agent updates: the same verdict as the SDK, and the hot ones are taken', () => {
    const recorded = recordedUpdates();
    const takenKinds = new Set<string>();
    for (const params of recorded) {
      const checked = checkedSessionNotification(params);
      const kind = (params as { update: { sessionUpdate: string } }).update.sessionUpdate;
      if (checked !== null) {
        takenKinds.add(kind);
        assert.deepStrictEqual(sdkVerdict(params), params, kind);
      } else {
        assert.ok(!['agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'usage_update'].includes(kind) || sdkVerdict(params) === null || hasNonTextBlock(params), `${kind} from the recording took the slow path`);
      }
    }
    assert.deepEqual([...takenKinds].sort(), ['agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'usage_update']);
  });
});

interface Outcome {
  delivered: unknown[];
  errors: number;
}

/** `lines` through the bare SDK client, as the comparison: what its handler gets, in order. */
async function throughSdk(t: TestContext, text: string): Promise<Outcome> {
  const errors = t.mock.method(console, 'error', () => undefined);
  const delivered: unknown[] = [];
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      // Left open: the SDK ends the connection when its input ends, and drops what it has not dispatched yet.
      controller.enqueue(new TextEncoder().encode(text + updateLine(END)));
    },
  });
  const connection = acp.client({ name: 'sdk-alone' })
    .onNotification(acp.methods.client.session.update, (ctx) => {
      delivered.push(ctx.params);
    })
    .connect(acp.ndJsonStream(new WritableStream<Uint8Array>(), input));
  try {
    await waitFor(() => delivered.some((params) => (params as { sessionId?: string }).sessionId === 'end'), 'the SDK reached the end line');
    return { delivered: delivered.slice(0, -1), errors: errors.mock.callCount() };
  } finally {
    connection.close();
    errors.mock.restore();
  }
}

/** The same bytes through Tandem's AcpConnection, written in the pieces `cuts` makes. */
async function throughTandem(t: TestContext, text: string, cuts: number[]): Promise<Outcome & { frames: number }> {
  const errors = t.mock.method(console, 'error', () => undefined);
  const stdout = new PassThrough();
  const stdin = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const delivered: unknown[] = [];
  let frames = 0;
  const connection = new AcpConnection({ stdout, stdin }, (frame) => {
    if (frame.direction === 'in') frames++;
  }, {
    sessionUpdate: (notification) => delivered.push(notification),
    requestPermission: () => Promise.reject(new Error('not in this test')),
    fs: null,
    terminals: null,
  });
  try {
    const bytes = Buffer.from(text + updateLine(END));
    const points = [...new Set(cuts.map((cut) => cut % bytes.length))].sort((a, b) => a - b);
    let from = 0;
    for (const point of [...points, bytes.length]) {
      if (point > from) stdout.write(bytes.subarray(from, point));
      from = point;
    }
    await waitFor(() => delivered.some((params) => (params as { sessionId?: string }).sessionId === 'end'), 'Tandem reached the end line');
    return { delivered: delivered.slice(0, -1), errors: errors.mock.callCount(), frames: frames - 1 };
  } finally {
    connection.close();
    stdout.destroy();
    errors.mock.restore();
  }
}

/** Lines an agent may write besides updates: each goes to the SDK and must not upset the order. */
const otherLine = fc.constantFrom(
  'this is not json {',
  '[1,2]',
  line({ jsonrpc: '2.0', id: 7, method: 'session/update', params: END }).trimEnd(),
  line({ jsonrpc: '1.0', method: 'session/update', params: END }).trimEnd(),
  line({ jsonrpc: '2.0', method: '_vendor/notice', params: {} }).trimEnd(),
);
const stream = fc.array(fc.oneof({ weight: 5, arbitrary: sessionUpdateParams.map((params) => updateLine(params).trimEnd()) }, otherLine), { minLength: 1, maxLength: 14 });

describe('AcpConnection against the bare SDK client', () => {
  test('the same updates reach the session, cleaned the same, in the same order, with the same reports; the tee sees every line', async (t) => {
    await fc.assert(fc.asyncProperty(stream, fc.array(fc.nat(), { maxLength: 6 }), async (lines, cuts) => {
      const text = `${lines.join('\n')}\n`;
      const sdk = await throughSdk(t, text);
      const tandem = await throughTandem(t, text, cuts);
      assert.deepStrictEqual(tandem.delivered, sdk.delivered);
      assert.equal(tandem.errors, sdk.errors, 'each dropped update is reported once, as by the SDK');
      assert.equal(tandem.frames, lines.length, 'the frame tee saw every line');
    }), { numRuns: 60 });
  });

  test('order holds across both paths: updates the SDK validates, a permission request, checked chunks', async (t) => {
    const stdout = new PassThrough();
    const stdin = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const events: string[] = [];
    const connection = new AcpConnection({ stdout, stdin }, () => undefined, {
      sessionUpdate: ({ update }) => events.push(update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : update.sessionUpdate),
      requestPermission: () => {
        events.push('permission');
        return new Promise(() => undefined);
      },
      fs: null,
      terminals: null,
    });
    t.after(() => {
      connection.close();
      stdout.destroy();
    });
    const chunk = (text: string) => updateLine({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
    const long = 'x'.repeat(1536 * 1024);
    stdout.write([
      updateLine({ sessionId: 's1', update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' } }),
      chunk('one'),
      line({ jsonrpc: '2.0', id: 1, method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 't1' }, options: [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }] } }),
      chunk('two'),
      chunk(long),
      chunk('three'),
    ].join(''));
    await waitFor(() => events.length >= 6, 'every event');
    assert.deepEqual(events, ['current_mode_update', 'one', 'permission', 'two', long, 'three']);
  });

  test('an update line over the SDK limit ends the connection as too large, even when it arrives in one piece', async (t) => {
    const stdout = new PassThrough();
    const stdin = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const delivered: string[] = [];
    const connection = new AcpConnection({ stdout, stdin }, () => undefined, {
      sessionUpdate: ({ update }) => delivered.push(update.sessionUpdate),
      requestPermission: () => Promise.reject(new Error('not in this test')),
      fs: null,
      terminals: null,
    });
    t.after(() => {
      connection.close();
      stdout.destroy();
    });
    const text = 'x'.repeat(acp.DEFAULT_MAX_MESSAGE_BYTES);
    stdout.write(updateLine(END) + updateLine({ sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } }));
    assert.deepEqual(await connection.failed, { kind: 'tooLarge', maxBytes: acp.DEFAULT_MAX_MESSAGE_BYTES });
    assert.deepEqual(delivered, ['agent_message_chunk'], 'only the update before it arrived');
  });
});

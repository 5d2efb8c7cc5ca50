import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseInspectorMessage } from '../../src/contract/inspectorView';
import { NO_FILTER } from '../../src/inspector/frameFilter';
import { InspectorModel } from '../../src/inspector/inspectorModel';
import { renderInspectorDocument } from '../../src/panel/panelDocument';
import { REDACTED } from '../../src/redaction/secrets';
import { FrameScript } from '../support/frameBuilders';

const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('inspector model', () => {
  const script = new FrameScript()
    .open('s1')
    .toolCall('s1', 't1', 'execute', { rawInput: { command: `curl -H "Authorization: token ${secret}"` } })
    .line('in', 'warning: not json');
  const model = new InspectorModel(script.frames);

  test('frames are shown, searched and detailed redacted: a secret cannot be found by searching for it', async () => {
    assert.ok(!(await model.shown()).some((frame) => frame.text.includes(secret)));
    assert.deepEqual(await model.applyFilter({ ...NO_FILTER, text: secret.slice(0, 12) }), []);
    assert.deepEqual(await model.applyFilter({ ...NO_FILTER, text: REDACTED }), [4]);
    assert.ok(!(await model.detail(4))?.text.includes(secret));
  });

  test('a filter that lets everything through sends no list; details are pretty JSON, or the line as it came', async () => {
    assert.equal(await model.applyFilter(NO_FILTER), null);
    assert.equal(model.filter, NO_FILTER);
    assert.match((await model.detail(0))?.text ?? '', /^\{\n {2}"jsonrpc": "2.0",/);
    assert.deepEqual(await model.detail(5), { text: 'warning: not json', toolCallId: null });
    assert.equal((await model.detail(4))?.toolCallId, 't1');
    assert.equal(await model.detail(99), null);
  });

  test('names in rows are redacted too, though the rows come before the frames are', () => {
    const leaky = new InspectorModel(new FrameScript().toolCall('s1', secret, 'read').frames);
    assert.equal(leaky.rows()[0]?.toolCallId, REDACTED);
    assert.ok(!JSON.stringify(leaky.rows()).includes(secret));
  });

  test('rows carry what the list shows, and nothing of the frame text', () => {
    const rows = model.rows();
    assert.equal(rows.length, 6);
    assert.deepEqual({ ...rows[1], at: 0 }, { index: 1, at: 0, direction: 'in', kind: 'result', method: 'initialize', id: '0', updateKind: null, sessionId: null, size: rows[1]?.size, latencyMs: 5, pair: 0, toolCallId: null, connection: null, mark: null });
    assert.ok(!JSON.stringify(rows).includes('curl'));
  });

  test('the delivery check marks what the SDK dropped, after the list', async () => {
    const checked = new InspectorModel(new FrameScript().update('s1', { sessionUpdate: 'tool_call', title: 'no id' }).update('s1', { sessionUpdate: 'plan', entries: [] }).frames);
    assert.equal(checked.index.frames[0]?.mark, null);
    const marks = await checked.checkDelivery();
    assert.deepEqual(marks.map((entry) => [entry.index, entry.mark.kind]), [[0, 'dropped']]);
    assert.equal(checked.rows()[0]?.mark?.kind, 'dropped');
    assert.deepEqual(await checked.applyFilter({ ...NO_FILTER, markedOnly: true }), [0]);
  });

  test('messages from the inspector webview are validated', () => {
    assert.deepEqual(parseInspectorMessage({ type: 'select', index: 3 }), { type: 'select', index: 3 });
    assert.equal(parseInspectorMessage({ type: 'select', index: -1 }), null);
    assert.equal(parseInspectorMessage({ type: 'filter', filter: { direction: 'sideways', method: null, toolCallId: null, text: null, markedOnly: false } }), null);
    assert.equal(parseInspectorMessage({ type: 'runCommand', command: 'rm' }), null);
    assert.equal(parseInspectorMessage('ready'), null);
  });

  test('the inspector document runs only its own nonce-carrying bundle and loads nothing remote', () => {
    const html = renderInspectorDocument({ cspSource: 'vscode-resource:', nonce: 'N0NCE', asset: (path) => `vscode-resource:/dist/${path}` });
    const csp = /content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-N0NCE'(;|$)/);
    assert.doesNotMatch(csp, /unsafe|https?:/);
    assert.match(html, /<script nonce="N0NCE" src="vscode-resource:\/dist\/inspector.js"><\/script>/);
  });
});

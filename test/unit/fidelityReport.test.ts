import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deliveryMarks } from '../../src/inspector/deliveryCheck';
import { fidelityReport, type ReportInputs } from '../../src/inspector/fidelityReport';
import { buildFrameIndex } from '../../src/inspector/frameIndex';
import { reportMarkdown } from '../../src/inspector/reportMarkdown';
import { changeWords } from '../../src/contract/reviewView';
import { FrameScript } from '../support/frameBuilders';

const ws = '/work';

/** A Claude Code–shaped turn: no fs or terminal calls, edits on disk, reads never asked, a display terminal in `_meta`. */
function diskAgentTurn(): FrameScript {
  return new FrameScript()
    .open('s1', { agentName: 'claude-code-acp', agentCapabilities: { loadSession: true, promptCapabilities: { image: true, embeddedContext: true }, mcpCapabilities: { http: true }, sessionCapabilities: { list: {}, resume: {} } } })
    .request('out', 2, 'session/prompt', { sessionId: 's1', prompt: [{ type: 'text', text: 'fix it' }, { type: 'resource_link', uri: 'file:///work/a.ts', name: 'a.ts' }] })
    .toolCall('s1', 'r1', 'read', { locations: [{ path: '/work/a.ts' }], _meta: { claudeCode: { toolName: 'Read' } } })
    .toolDone('s1', 'r1')
    .toolCall('s1', 'r2', 'read', { rawInput: { file_path: '/work/b.ts' } })
    .toolDone('s1', 'r2')
    .toolCall('s1', 'r3', 'read', { locations: [{ path: '/etc/hosts' }] })
    .request('in', 0, 'session/request_permission', { sessionId: 's1', toolCall: { toolCallId: 'r3' }, options: [] })
    .result('out', 0, { outcome: { outcome: 'selected', optionId: 'allow' } })
    .toolDone('s1', 'r3')
    .toolCall('s1', 'w1', 'edit', { locations: [{ path: '/work/a.ts' }], content: [{ type: 'diff', path: '/work/a.ts', oldText: 'a', newText: 'b' }] })
    .request('in', 1, 'session/request_permission', { sessionId: 's1', toolCall: { toolCallId: 'w1' }, options: [] })
    .result('out', 1, { outcome: { outcome: 'selected', optionId: 'allow' } })
    .toolDone('s1', 'w1')
    .toolCall('s1', 'w2', 'edit', { content: [{ type: 'diff', path: '/work/new.ts', oldText: null, newText: 'x' }] })
    .toolDone('s1', 'w2')
    .toolCall('s1', 'x1', 'execute', { _meta: { terminal_info: { terminal_id: 'x1' } } })
    .update('s1', { sessionUpdate: 'tool_call_update', toolCallId: 'x1', _meta: { terminal_output: { terminal_id: 'x1', data: 'ok\n' } } })
    .toolDone('s1', 'x1')
    .update('s1', { sessionUpdate: 'usage_update', used: 10, size: 100 })
    .update('s1', { sessionUpdate: 'mystery_update' })
    .request('in', 2, '_claude/notify', { sessionId: 's1' })
    .error('out', 2, -32601, 'Method not found')
    .result('in', 2, { stopReason: 'end_turn' })
    .request('out', 3, 'session/load', { sessionId: 'old', cwd: ws, mcpServers: [] })
    .error('in', 3, -32603, 'Session not found');
}

function inputs(frames: FrameScript, overrides: Partial<ReportInputs> = {}): ReportInputs {
  return {
    frames: frames.frames,
    agentLabel: 'Claude Code',
    workspaceRoots: [ws],
    files: [{ path: '/work/a.ts', origin: 'disk', deleted: false, toolCallIds: ['w1'] }, { path: '/work/new.ts', origin: 'disk', deleted: false, toolCallIds: ['w2'] }],
    projectRules: [{ path: '/work/.claude/settings.local.json', label: '.claude/settings.local.json', allow: ['Bash(npm test:*)'], deny: [] }],
    tandemGrants: [],
    ...overrides,
  };
}

describe('fidelity report', () => {
  const report = fidelityReport(inputs(diskAgentTurn()));

  test('declared capabilities next to what happened when Tandem used them', () => {
    const load = report.capabilities.find((use) => use.method === 'session/load');
    assert.deepEqual({ declared: load?.declared, calls: load?.calls, failed: load?.failed, lastError: load?.lastError }, { declared: true, calls: 1, failed: 1, lastError: 'Session not found' });
    assert.deepEqual(report.capabilities.filter((use) => use.declared).map((use) => use.method), ['session/load', 'session/resume', 'session/list']);
    assert.deepEqual(report.promptContent.map((row) => [row.type, row.declared, row.sent]), [['text', true, 1], ['resource_link', true, 1], ['image', true, 0], ['audio', false, 0], ['resource', true, 0]]);
    assert.deepEqual(report.mcpTransports, [{ transport: 'stdio', declared: true }, { transport: 'http', declared: true }, { transport: 'sse', declared: false }]);
    assert.equal(report.agent?.name, 'claude-code-acp');
    assert.equal(report.protocolVersion, 1);
  });

  test('client capabilities advertised vs called: no fs or terminal call at all, two permission requests', () => {
    const calls = Object.fromEntries(report.clientMethods.map((use) => [use.method, [use.advertised, use.calls]]));
    assert.deepEqual(calls['fs/read_text_file'], [true, 0]);
    assert.deepEqual(calls['fs/write_text_file'], [true, 0]);
    assert.deepEqual(calls['terminal/create'], [true, 0]);
    assert.deepEqual(calls['session/request_permission'], [true, 2]);
    assert.deepEqual(calls['_claude/notify'], [false, 1]);
    assert.deepEqual(report.unserved, [{ name: '_claude/notify', count: 1 }]);
  });

  test('file changes by how they arrived; reads inside the workspace that never asked, with their paths; the one outside', () => {
    assert.deepEqual(report.files.map((file) => [file.path, file.arrival]), [['/work/a.ts', 'disk'], ['/work/new.ts', 'disk']]);
    assert.deepEqual(report.silentReads.map((read) => read.paths), [['/work/a.ts'], ['/work/b.ts']]);
    assert.deepEqual(report.outsideWorkspace.map((tool) => [tool.toolCallId, tool.asked]), [['r3', true]]);
    assert.deepEqual(report.permissions, [{ kind: 'read', toolCalls: 3, asked: 1 }, { kind: 'edit', toolCalls: 2, asked: 1 }, { kind: 'execute', toolCalls: 1, asked: 0 }]);
  });

  test('update kinds, _meta keys and marked frames', () => {
    assert.equal(report.updateKinds.find((row) => row.name === 'usage_update')?.count, 1);
    assert.deepEqual(report.metaKeys.map((row) => row.name).sort(), ['claudeCode', 'terminal_info', 'terminal_output']);
    assert.deepEqual(report.marked.map((row) => row.kind), ['unknown']);
  });

  test('what the SDK dropped on the way replaces the guess from the frame alone', async () => {
    const frames = diskAgentTurn().frames;
    const delivery = await deliveryMarks(frames, buildFrameIndex(frames));
    const checked = fidelityReport({ ...inputs(diskAgentTurn()), frames, deliveryMarks: delivery });
    assert.deepEqual(checked.marked.map((row) => [row.kind, row.reason.slice(0, 24)]), [['dropped', 'the SDK found it invalid']]);
  });

  test('the one-line summary', () => {
    assert.equal(report.summary, 'Claude Code wrote 2 files to disk itself, read 2 files without asking, asked twice, called 1 method Tandem does not serve, sent 1 frame Tandem could not use as sent.');
  });

  test('an editor-writing agent: writes through fs/* count as editor changes; a diff Tandem never saw change is said so', () => {
    const script = new FrameScript()
      .open('s1', { agentName: 'gemini-cli' })
      .toolCall('s1', 'e1', 'edit', { content: [{ type: 'diff', path: '/work/x.ts', newText: 'x' }] })
      .request('in', 0, 'fs/read_text_file', { sessionId: 's1', path: '/work/x.ts' })
      .result('out', 0, { content: '' })
      .request('in', 1, 'fs/write_text_file', { sessionId: 's1', path: '/work/x.ts', content: 'x' })
      .result('out', 1, null)
      .toolDone('s1', 'e1')
      .toolCall('s1', 'e2', 'edit', { content: [{ type: 'diff', path: '/work/y.ts', newText: 'y' }] })
      .toolDone('s1', 'e2');
    const gemini = fidelityReport(inputs(script, { agentLabel: 'Gemini CLI', files: [], projectRules: [] }));
    assert.deepEqual(gemini.files.map((file) => [file.path, file.arrival, file.toolCallIds]), [['/work/x.ts', 'editor', ['e1']], ['/work/y.ts', 'diffOnly', ['e2']]]);
    const calls = Object.fromEntries(gemini.clientMethods.map((use) => [use.method, use.calls]));
    assert.equal(calls['fs/read_text_file'], 1);
    assert.equal(calls['fs/write_text_file'], 1);
    assert.equal(gemini.updateKinds.find((row) => row.name === 'usage_update'), undefined);
    assert.equal(gemini.summary, 'Gemini CLI changed 1 file through the editor, showed diffs for 1 file that Tandem never saw change, never asked.');
  });

  test('what a loaded session replays (before its answer, and after it as Gemini CLI does) is history: counted apart from what the agent did', () => {
    const script = new FrameScript()
      .open('s1', { agentName: 'claude-code-acp', agentCapabilities: { loadSession: true } })
      .request('out', 3, 'session/load', { sessionId: 'old', cwd: ws, mcpServers: [] })
      .toolCall('old', 'r0', 'read', { locations: [{ path: '/work/old.ts' }] })
      .toolDone('old', 'r0')
      .toolCall('old', 'w0', 'edit', { status: 'completed', content: [{ type: 'diff', path: '/work/old.ts', oldText: 'a', newText: 'b' }] })
      .result('in', 3, {})
      .toolCall('old', 'w9', 'edit', { status: 'completed', content: [{ type: 'diff', path: '/work/late.ts', oldText: 'a', newText: 'b' }] })
      .request('out', 4, 'session/prompt', { sessionId: 'old', prompt: [{ type: 'text', text: 'go on' }] })
      .toolCall('old', 'r1', 'read', { locations: [{ path: '/work/now.ts' }] })
      .toolDone('old', 'r1')
      .result('in', 4, { stopReason: 'end_turn' });
    const loaded = fidelityReport(inputs(script, { files: [], projectRules: [] }));
    assert.equal(loaded.replayedToolCalls, 3);
    assert.deepEqual(loaded.permissions, [{ kind: 'read', toolCalls: 1, asked: 0 }]);
    assert.deepEqual(loaded.silentReads.map((read) => read.paths), [['/work/now.ts']]);
    assert.deepEqual(loaded.files, [], 'a replayed diff is no file this conversation saw change');
    assert.equal(loaded.summary, 'Claude Code read 1 file without asking, never asked, replayed 3 tool calls of an earlier session (not counted above).');
    assert.match(reportMarkdown(loaded, ws), /3 tool calls that a loaded session replayed from its history \(`session\/load`\) are not counted/);

    // A load the agent refused replays nothing: what follows it is the agent's own doing.
    const refused = new FrameScript()
      .open('s1')
      .request('out', 3, 'session/load', { sessionId: 'gone', cwd: ws, mcpServers: [] })
      .error('in', 3, -32603, 'Internal error')
      .toolCall('s1', 'r2', 'read', { locations: [{ path: '/work/a.ts' }] });
    assert.equal(fidelityReport(inputs(refused, { files: [], projectRules: [] })).replayedToolCalls, 0);
  });

  test('credentials in what the agent sent (a command in a title, an error) do not reach the report', () => {
    const secret = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const leaky = fidelityReport(inputs(new FrameScript().open('s1').toolCall('s1', 'x1', 'execute', { title: `git push https://${secret}@github.com/a/b`, locations: [{ path: '/etc/hosts' }] }).request('out', 5, 'session/load', { sessionId: 'old' }).error('in', 5, -32603, `bad token ${secret}`), { files: [] }));
    assert.equal(leaky.outsideWorkspace.length, 1, 'the title is in the report');
    assert.ok(!JSON.stringify(leaky).includes(secret));
    assert.ok(!reportMarkdown(leaky, ws).includes(secret));
  });

  test('the document escapes what the agent controls and shows the standing grants', () => {
    const hostile = fidelityReport(inputs(new FrameScript().open('s1').toolCall('s1', 'r1', 'read', { title: '[click](https://evil.example) <img src=x>', locations: [{ path: '/work/a|b`c.ts' }] }), { files: [] }));
    const markdown = reportMarkdown(hostile, ws);
    assert.ok(!markdown.includes('[click](https'), 'no link from an agent title');
    assert.ok(markdown.includes('\\<img') && !/[^\\]<img/.test(markdown), 'no HTML from an agent title');
    assert.ok(markdown.includes('\\[click\\]'));
    assert.ok(markdown.includes('a\\|b`c.ts'));
    assert.ok(markdown.includes('Bash(npm test:*)'));
    assert.match(reportMarkdown(report, ws), /\*\*Claude Code wrote 2 files to disk itself/);
  });
  test('the document names files as the cards do: relative inside the workspace folder, whole outside it', () => {
    const reads = new FrameScript()
      .open('s1')
      .toolCall('s1', 'r1', 'read', { title: 'Read /work/src/b.ts', locations: [{ path: '/work/src/b.ts' }] })
      .toolCall('s1', 'r2', 'read', { title: 'Read /etc/hosts', locations: [{ path: '/etc/hosts' }] });
    const markdown = reportMarkdown(fidelityReport(inputs(reads, { files: [{ path: '/work/src/a.ts', origin: 'editor', deleted: false, toolCallIds: [] }] })), ws);
    const lines = markdown.split('\n');
    assert.ok(lines.includes('| ` src/a.ts ` | through the editor |  |'), markdown);
    assert.ok(lines.includes('| Read src/b.ts | read | ` src/b.ts ` | no |'), markdown);
    assert.ok(lines.includes('| Read /etc/hosts | read | ` /etc/hosts ` | no |'), 'outside the workspace the whole path stays');
    assert.ok(!markdown.includes('/work/'), 'no path inside the workspace is shown whole');
  });

  test('a deleted file is described in the words of its card, and the summary says it was deleted', () => {
    const deleting = new FrameScript()
      .open('s1', { agentName: 'demo' })
      .toolCall('s1', 'd1', 'delete', { locations: [{ path: '/work/src/legacy.ts' }], content: [{ type: 'diff', path: '/work/src/legacy.ts', oldText: 'old', newText: '' }] })
      .toolDone('s1', 'd1')
      .toolCall('s1', 'w1', 'edit', { locations: [{ path: '/work/src/a.ts' }] })
      .toolDone('s1', 'w1');
    const files = [{ path: '/work/src/legacy.ts', origin: 'disk' as const, deleted: true, toolCallIds: ['d1'] }, { path: '/work/src/a.ts', origin: 'disk' as const, deleted: false, toolCallIds: ['w1'] }];
    const deleted = fidelityReport(inputs(deleting, { agentLabel: 'Demo agent', files, projectRules: [] }));
    const markdown = reportMarkdown(deleted, ws);
    const how = (path: string) => markdown.split('\n').find((line) => line.startsWith(`| \` ${path} \``))?.split(' | ')[1];
    assert.equal(how('src/legacy.ts'), changeWords('disk', true), markdown);
    assert.equal(how('src/legacy.ts'), 'deleted on disk by the agent');
    assert.equal(how('src/a.ts'), changeWords('disk', false));
    assert.equal(deleted.summary, 'Demo agent wrote 1 file to disk itself, deleted 1 file on disk itself, never asked.');
  });
});

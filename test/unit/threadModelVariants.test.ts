import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import { ThreadModel } from '../../src/thread/threadModel';
import { newToolCallView } from '../../src/thread/toolCallMapping';
import { MemoryGrantStore, PermissionPolicy } from '../../src/permissions/permissionPolicy';
import { toolPaths } from '../../src/permissions/toolPaths';
import { SessionOptions } from '../../src/conversation/sessionOptions';
import { LegacyModelsReader, parseLegacyModels } from '../../src/acp/legacyModels';
import { turnUsage, usageView } from '../../src/usage/panel/usageView';
import { parseProjectRules } from '../../src/permissions/projectRules';
import { findTrigger, matchCommands } from '../../webview/completionMatch';
import type { ToolCallView } from '../../src/thread/entries';
import { tempWorkspace } from '../support/sessionBuilders';

const chunk = (sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk', text: string): acp.SessionUpdate => ({ sessionUpdate, content: { type: 'text', text } });

describe('thread model: every update variant', () => {
  test('each variant lands where it belongs (entries or session facts)', () => {
    const model = new ThreadModel();
    const updates: acp.SessionUpdate[] = [
      chunk('user_message_chunk', 'replayed question'),
      chunk('agent_thought_chunk', 'thinking'),
      chunk('agent_message_chunk', 'answer'),
      { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read a.ts', kind: 'read', status: 'pending' },
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
      { sessionUpdate: 'plan', entries: [{ content: 'one', priority: 'low', status: 'pending' }] },
      { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'init', description: 'Set up' }] },
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      { sessionUpdate: 'config_option_update', configOptions: [{ id: 'mode', name: 'Mode', type: 'select', currentValue: 'plan', options: [{ value: 'plan', name: 'Plan' }] }] },
      { sessionUpdate: 'session_info_update', title: 'A title' },
      { sessionUpdate: 'usage_update', used: 10, size: 100 },
      { sessionUpdate: 'notice', severity: 'error', title: 'Quota exceeded' } as acp.SessionUpdate,
    ];
    for (const update of updates) model.applyUpdate(update);
    assert.deepEqual(model.snapshot().map((entry) => entry.kind), ['user', 'thought', 'agentMessage', 'toolCall', 'plan', 'notice']);
    assert.equal(model.toolCall('t1')?.status, 'completed');
    assert.deepEqual(model.facts.availableCommands.map((command) => command.name), ['init']);
    assert.equal(model.facts.currentModeId, 'plan');
    assert.equal(model.facts.configOptions[0]?.currentValue, 'plan');
    assert.equal(model.facts.title, 'A title');
    assert.deepEqual(model.facts.usage, { used: 10, size: 100, cost: null });
    const notice = model.snapshot().at(-1);
    assert.ok(notice?.kind === 'notice' && notice.severity === 'error');
    model.applyUpdate({ sessionUpdate: 'session_info_update', title: null });
    assert.equal(model.facts.title, null, 'a null title clears it');
    model.applyUpdate({ sessionUpdate: 'config_option_update', configOptions: [] });
    assert.deepEqual(model.facts.configOptions, [], 'config options are replaced wholesale');
  });

  test('upsert quirks: an update before its tool_call, a tool_call repeated, content and locations replaced wholesale', () => {
    const model = new ThreadModel();
    model.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text: 'early' } }] });
    model.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Run make', kind: 'execute', status: 'in_progress', locations: [{ path: '/w/Makefile', line: 2 }] });
    model.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'x', locations: [{ path: '/w/b' }] });
    model.applyUpdate({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'failed', content: [] });
    assert.equal(model.snapshot().length, 1, 'one card per id');
    const tool = model.toolCall('x');
    assert.equal(tool?.title, 'Run make');
    assert.equal(tool?.toolKind, 'execute');
    assert.equal(tool?.status, 'failed');
    assert.deepEqual(tool?.content, []);
    assert.deepEqual(tool?.locations, [{ path: '/w/b', line: null }]);
    model.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'y', title: 'unknown kind', kind: 'teleport' as acp.ToolKind });
    assert.equal(model.toolCall('y')?.toolKind, 'other');
  });

  test('cancel semantics: running and asking calls become cancelled, finished ones keep their status; a later turn is separate', () => {
    const model = new ThreadModel();
    model.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'ok', title: 'done', status: 'completed' });
    model.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'bad', title: 'broke', status: 'failed' });
    model.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'wait', title: 'pending', status: 'pending' });
    model.setPermission({ toolCallId: 'ask', title: 'asks' }, 'p9', [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }]);
    model.endTurn('cancelled');
    assert.deepEqual(['ok', 'bad', 'wait', 'ask'].map((id) => model.toolCall(id)?.status), ['completed', 'failed', 'cancelled', 'cancelled']);
    assert.equal(model.toolCall('ask')?.permission, null);
    model.addUserMessage('next');
    model.applyUpdate({ sessionUpdate: 'tool_call', toolCallId: 'new', title: 'new', status: 'in_progress' });
    model.endTurn('end_turn');
    assert.equal(model.toolCall('new')?.status, 'in_progress', 'only a cancelled or failed turn stops its calls');
  });

  test('a permission answered by Tandem\'s policy leaves a note on the card', () => {
    const model = new ThreadModel();
    model.notePermission({ toolCallId: 'r', title: 'Read a', kind: 'read' }, 'Allowed automatically');
    assert.equal(model.toolCall('r')?.permissionNote, 'Allowed automatically');
    assert.equal(model.toolCall('r')?.permission, null);
  });
});

describe('session options, usage and commands (pure)', () => {
  test('legacy models are read from the raw session/new answer; mode, model, thought level come first', () => {
    const raw = { sessionId: 's1', models: { availableModels: [{ modelId: 'auto', name: 'Auto', description: 'Let it pick' }, { modelId: 'pro' }], currentModelId: 'auto' } };
    const expected = { availableModels: [{ modelId: 'auto', name: 'Auto', description: 'Let it pick' }, { modelId: 'pro', name: 'pro', description: null }], currentModelId: 'auto' };
    assert.deepEqual(parseLegacyModels(raw), expected);
    const reader = new LegacyModelsReader();
    reader.sent(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session/new', params: { cwd: '/w', mcpServers: [] } }));
    for (const line of [JSON.stringify({ jsonrpc: '2.0', id: 3, result: raw }), 'not json']) reader.received(line);
    assert.deepEqual(reader.models('s1'), expected);
    assert.equal(reader.models('other'), null);
    const thread = new ThreadModel();
    thread.setFact('configOptions', [
      { id: 'x', name: 'Custom', type: 'select' as const, currentValue: 'a', options: [{ value: 'a', name: 'A' }] },
      { id: 'effort', name: 'Effort', category: 'thought_level', type: 'select' as const, currentValue: 'low', options: [{ value: 'low', name: 'Low' }] },
      { id: 'model', name: 'Model', category: 'model', type: 'select' as const, currentValue: 'm', options: [{ value: 'm', name: 'M' }] },
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select' as const, currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }] },
    ]);
    assert.deepEqual(new SessionOptions(thread).controls().map((control) => control.id), ['mode', 'model', 'effort', 'x']);
  });

  test('per-turn usage from the prompt answer: the usage field, Gemini\'s snake_case quota; never a percentage', () => {
    assert.deepEqual(turnUsage({ stopReason: 'end_turn', _meta: { quota: { token_count: { input_tokens: 137, output_tokens: 6 } } } }),
      { kind: 'turn', inputTokens: 137, outputTokens: 6, totalTokens: 143 });
    assert.deepEqual(turnUsage({ stopReason: 'end_turn', usage: { inputTokens: 2621, outputTokens: 10, totalTokens: 2631 } } as acp.PromptResponse),
      { kind: 'turn', inputTokens: 2621, outputTokens: 10, totalTokens: 2631 });
    assert.equal(turnUsage({ stopReason: 'end_turn' }), null);
    const context = usageView({ used: 90, size: 100, cost: null }, { stopReason: 'end_turn', _meta: { quota: { token_count: { input_tokens: 1, output_tokens: 1 } } } });
    assert.equal(context?.kind === 'context' && context.level, 'warning', 'usage_update wins over per-turn numbers');
    assert.equal(usageView({ used: 1, size: 0, cost: null }, null), null, 'a zero-size window is no window');
  });

  test('composer triggers: / only at the start, @ after a space; commands match by prefix first', () => {
    assert.deepEqual(findTrigger('/rev', 4), { char: '/', query: 'rev', start: 0 });
    assert.equal(findTrigger('a /rev', 6), null);
    assert.deepEqual(findTrigger('look at @src/ma', 15), { char: '@', query: 'src/ma', start: 8 });
    assert.equal(findTrigger('mail me@example', 15), null);
    const commands = [{ name: 'preview', description: '', inputHint: null }, { name: 'review', description: '', inputHint: null }];
    assert.deepEqual(matchCommands(commands, 're').map((command) => command.name), ['review', 'preview']);
  });

  test('project rules: allow and deny lists; files without rules or not JSON are skipped', () => {
    assert.deepEqual(parseProjectRules('{"permissions":{"allow":["Bash(ls:*)",3]}}', '/w/.claude/settings.local.json', 'x'), { path: '/w/.claude/settings.local.json', label: 'x', allow: ['Bash(ls:*)'], deny: [] });
    assert.equal(parseProjectRules('{"permissions":{}}', 'p', 'x'), null);
    assert.equal(parseProjectRules('{oops', 'p', 'x'), null);
  });
});

describe('permission policy (pure)', () => {
  const tool = (patch: Partial<ToolCallView>): ToolCallView => ({ ...newToolCallView('t'), ...patch });
  const options: acp.PermissionOption[] = [
    { optionId: 'yes', name: 'Allow', kind: 'allow_once' }, { optionId: 'always', name: 'Always', kind: 'allow_always' }, { optionId: 'no', name: 'No', kind: 'reject_once' },
  ];

  test('never automatic outside the workspace, through a symlink out of it, or for a file tool without a path', (t) => {
    const root = tempWorkspace(t, 'tandem-policy-');
    const outside = tempWorkspace(t, 'tandem-outside-');
    mkdirSync(join(root, 'src'));
    symlinkSync(outside, join(root, 'link'));
    const policy = new PermissionPolicy({ workspaceRoots: () => [root], autoAllowKinds: () => ['read', 'execute'], store: new MemoryGrantStore() });
    const agent = policy.forAgent('a');
    assert.equal(agent.decide(tool({ toolKind: 'read', locations: [{ path: join(root, 'src', 'a.ts'), line: null }] }), options, 's')?.optionId, 'yes');
    assert.equal(agent.decide(tool({ toolKind: 'read', locations: [{ path: '/etc/passwd', line: null }] }), options, 's'), null);
    assert.equal(agent.decide(tool({ toolKind: 'read', locations: [{ path: join(root, 'link', 'secret'), line: null }] }), options, 's'), null);
    assert.equal(agent.decide(tool({ toolKind: 'read' }), options, 's'), null);
    assert.equal(agent.decide(tool({ toolKind: 'read', rawInput: JSON.stringify({ file_path: '/etc/shadow' }), locations: [{ path: join(root, 'a'), line: null }] }), options, 's'), null, 'raw input paths count');
    assert.equal(agent.decide(tool({ toolKind: 'edit', locations: [{ path: join(root, 'a'), line: null }] }), options, 's'), null, 'only configured kinds');
    assert.equal(agent.decide(tool({ toolKind: 'read', locations: [{ path: join(root, 'a'), line: null }] }), options.slice(1), 's'), null, 'needs an allow-once option');
    assert.deepEqual(toolPaths(tool({ content: [{ type: 'diff', path: '/d', oldText: null, newText: '' }] })), ['/d']);
  });

  test('an "always" answer for a file tool covers that kind inside this workspace only; it is stored and survives a restart', () => {
    const store = new MemoryGrantStore();
    const roots = ['/w'];
    const policy = new PermissionPolicy({ workspaceRoots: () => roots, autoAllowKinds: () => [], store, now: () => 1000 });
    const edit = tool({ toolKind: 'edit', locations: [{ path: '/w/a.ts', line: null }] });
    assert.equal(policy.forAgent('claude').answered(edit, options, 'always', 's'), 'yes', 'the agent is answered allow-once');
    const reloaded = new PermissionPolicy({ workspaceRoots: () => roots, autoAllowKinds: () => [], store });
    assert.match(reloaded.forAgent('claude').decide(tool({ toolKind: 'edit', locations: [{ path: '/w/b.ts', line: null }] }), options, 's')?.reason ?? '', /Edits inside the workspace/);
    assert.equal(reloaded.forAgent('gemini').decide(edit, options, 's'), null, 'grants are per agent');
    roots[0] = '/other';
    assert.equal(reloaded.forAgent('claude').decide(tool({ toolKind: 'edit', locations: [{ path: '/other/a.ts', line: null }] }), options, 's'), null, 'and per workspace');
    assert.equal(policy.forAgent('claude').answered(tool({ toolKind: 'edit', locations: [{ path: '/elsewhere', line: null }] }), options, 'always', 's'), 'always', 'outside the workspace the agent\'s own option is passed on');
  });
});

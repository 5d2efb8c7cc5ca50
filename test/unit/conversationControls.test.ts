import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { FrameStore } from '../../src/acp/frames';
import type { HostToWebview } from '../../src/contract/messages';
import type { ConversationView } from '../../src/contract/conversationView';
import type { MentionView } from '../../src/conversation/queuedPrompts';
import type { ChatPresenter } from '../../src/panel/chatPresenter';
import type { EditorActions } from '../../src/panel/editorActions';
import { MemoryGrantStore, PermissionPolicy } from '../../src/permissions/permissionPolicy';
import { readProjectRules } from '../../src/permissions/projectRules';
import type { ToolKindView } from '../../src/acp/toolKinds';
import { onTestEnd, scriptedPresenter, tempWorkspace, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

interface Harness {
  presenter: ChatPresenter;
  posted: HostToWebview[];
  frames: FrameStore;
  policy: PermissionPolicy;
  workspace: string;
  conversation(): ConversationView;
  ready(): Promise<void>;
}

function harness(t: TestScope, env: Record<string, string>, options: { autoAllow?: ToolKindView[]; editor?: EditorActions['conversation']; defaults?: Record<string, string> } = {}): Harness {
  const workspace = tempWorkspace(t);
  const policy = new PermissionPolicy({ workspaceRoots: () => [workspace], autoAllowKinds: () => options.autoAllow ?? [], store: new MemoryGrantStore(), projectRules: () => readProjectRules([workspace]) });
  onTestEnd(t, () => policy.dispose());
  const panel = scriptedPresenter(t, { env, definition: { defaultConfigOptions: options.defaults ?? {} }, workspace, permissionPolicy: policy, actions: { conversation: options.editor } });
  const conversation = () => {
    const last = panel.posted.filter((message) => message.type === 'conversationChanged').at(-1);
    assert.ok(last?.type === 'conversationChanged', 'a conversation view was posted');
    return last.conversation;
  };
  return { presenter: panel.presenter, posted: panel.posted, frames: panel.environment.frames, policy, workspace, conversation, ready: panel.ready };
}

describe('config pickers', () => {
  test('config options: mode, model, thought level lead; grouped and boolean options; optimistic change confirmed by the agent', async (t) => {
    const h = harness(t, { SCRIPTED_AGENT_OPTIONS: 'config' });
    await h.ready();
    await waitFor(() => h.conversation().controls.length === 4, 'four pickers');
    const controls = h.conversation().controls;
    assert.deepEqual(controls.map((control) => control.id), ['mode', 'model', 'effort', 'fast']);
    const model = controls[1];
    assert.ok(model?.kind === 'select');
    assert.deepEqual(model.choices.map((choice) => `${choice.group}:${choice.value}`), ['Fast models:scripted-small', 'Smart models:scripted-large']);
    assert.equal(controls[3]?.kind, 'boolean', 'booleans are offered because Tandem advertises them');

    const change = h.presenter.handle({ type: 'setSessionOption', optionId: 'mode', value: 'auto' });
    const optimistic = h.conversation().controls[0];
    assert.ok(optimistic?.kind === 'select' && optimistic.currentValue === 'auto' && optimistic.pending, 'shown at once, marked pending');
    await change;
    const confirmed = h.conversation().controls[0];
    assert.ok(confirmed?.kind === 'select' && confirmed.currentValue === 'auto' && !confirmed.pending);
    await h.presenter.handle({ type: 'setSessionOption', optionId: 'fast', value: true });
    await h.presenter.sendPrompt('options');
    assert.deepEqual(JSON.parse(h.presenter.currentSession.thread.lastAgentText()), { mode: 'auto', model: 'scripted-large', effort: 'low', fast: true, booleans: true });
    assert.ok(h.frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"session/set_config_option"') && frame.text.includes('"type":"boolean"')));
  });

  test('a refused change rolls back with a message; a value the agent never offered is not sent', async (t) => {
    const h = harness(t, { SCRIPTED_AGENT_OPTIONS: 'config' });
    await h.ready();
    await h.presenter.handle({ type: 'setSessionOption', optionId: 'effort', value: 'refuse-me' });
    const effort = h.conversation().controls.find((control) => control.id === 'effort');
    assert.ok(effort?.kind === 'select' && effort.currentValue === 'low' && !effort.pending, 'rolled back');
    const notice = h.presenter.currentSession.thread.snapshot().at(-1);
    assert.ok(notice?.kind === 'notice' && notice.severity === 'warning' && /kept its setting.*refuses refuse-me/.test(notice.text), JSON.stringify(notice));
    const sent = h.frames.frames().filter((frame) => frame.direction === 'out' && frame.text.includes('set_config_option')).length;
    await h.presenter.handle({ type: 'setSessionOption', optionId: 'mode', value: 'not-a-mode' });
    assert.equal(h.frames.frames().filter((frame) => frame.direction === 'out' && frame.text.includes('set_config_option')).length, sent);
  });

  test('legacy modes and models (no config options): set_mode, the raw set_model, and the current mode update', async (t) => {
    const h = harness(t, { SCRIPTED_AGENT_OPTIONS: 'legacy' });
    await h.ready();
    await waitFor(() => h.conversation().controls.length === 2, 'legacy pickers');
    assert.deepEqual(h.conversation().controls.map((control) => [control.id, control.source, control.kind === 'select' && control.currentValue]),
      [['legacy:mode', 'mode', 'default'], ['legacy:model', 'model', 'scripted-large']]);
    await h.presenter.handle({ type: 'setSessionOption', optionId: 'legacy:model', value: 'scripted-small' });
    await h.presenter.handle({ type: 'setSessionOption', optionId: 'legacy:mode', value: 'plan' });
    assert.deepEqual(h.conversation().controls.map((control) => control.kind === 'select' && control.currentValue), ['plan', 'scripted-small']);
    assert.ok(h.frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"method":"session/set_model"')));
    await h.presenter.sendPrompt('options');
    const state = JSON.parse(h.presenter.currentSession.thread.lastAgentText()) as { mode: string; model: string };
    assert.deepEqual([state.mode, state.model], ['plan', 'scripted-small']);
    await h.presenter.handle({ type: 'setSessionOption', optionId: 'legacy:model', value: 'refuse-me' });
    assert.equal(h.conversation().controls[1]?.kind === 'select' && h.conversation().controls[1]?.currentValue, 'scripted-small', 'rolled back');
  });
});

describe('per-agent defaults', () => {
  test('a default config option is applied after the session starts; a default model reaches a legacy-models agent through session/set_model', async (t) => {
    const config = harness(t, { SCRIPTED_AGENT_OPTIONS: 'config' }, { defaults: { effort: 'high' } });
    await config.ready();
    await config.presenter.sendPrompt('options');
    assert.equal((JSON.parse(config.presenter.currentSession.thread.lastAgentText()) as { effort: string }).effort, 'high');
    const legacy = harness(t, { SCRIPTED_AGENT_OPTIONS: 'legacy' }, { defaults: { model: 'scripted-small' } });
    await legacy.ready();
    await waitFor(() => legacy.conversation().controls[1]?.kind === 'select' && legacy.conversation().controls[1]?.currentValue === 'scripted-small' && !legacy.conversation().controls[1]?.pending, 'the default model shown');
    await legacy.presenter.sendPrompt('options');
    assert.equal((JSON.parse(legacy.presenter.currentSession.thread.lastAgentText()) as { model: string }).model, 'scripted-small');
    assert.ok(!legacy.presenter.currentSession.thread.snapshot().some((entry) => entry.kind === 'notice'), 'no false "not accepted" warning');
  });
});

describe('usage meter and commands', () => {
  test('usage_update fills the meter, warns at 85%, is full at 100%; commands carry their input hint', async (t) => {
    const h = harness(t, {});
    await h.ready();
    assert.equal(h.conversation().usage, null, 'no usage before the agent reports any (never a made-up number)');
    await h.presenter.sendPrompt('usage 50000 200000 0.25');
    await waitFor(() => h.conversation().usage?.kind === 'context', 'context usage');
    assert.deepEqual(h.conversation().usage, { kind: 'context', used: 50000, size: 200000, percent: 25, level: 'normal', cost: { amount: 0.25, currency: 'USD' } });
    await h.presenter.sendPrompt('usage 171000 200000');
    await waitFor(() => h.conversation().usage?.kind === 'context' && h.conversation().usage?.kind === 'context' && (h.conversation().usage as { level: string }).level === 'warning', 'warning level');
    await h.presenter.sendPrompt('usage 200000 200000');
    await waitFor(() => (h.conversation().usage as { level?: string } | null)?.level === 'full', 'full');
    const turn = h.presenter.sendPrompt('conversation');
    await waitFor(() => h.conversation().commands.length === 2, 'commands');
    assert.deepEqual(h.conversation().commands[1], { name: 'test', description: 'Run the tests', inputHint: 'a test name pattern' });
    const permission = await waitFor(() => h.presenter.currentSession.thread.toolCall('conv-edit')?.permission ?? undefined, 'the edit asks');
    h.presenter.currentSession.answerPermission(permission.requestId, 'allow-once');
    await turn;
    assert.equal(h.presenter.currentSession.thread.facts.title, 'Greet the world');
  });
});

describe('permission policy', () => {
  test('reads inside the workspace are allowed automatically and say so; outside the workspace they are asked', async (t) => {
    const h = harness(t, {}, { autoAllow: ['read', 'search'] });
    await h.ready();
    await h.presenter.sendPrompt(`ask read ${join(h.workspace, 'inside.txt')}`);
    assert.equal(h.presenter.currentSession.thread.lastAgentText(), 'Outcome: allow-once');
    const card = h.presenter.currentSession.thread.findLastToolCall((tool) => tool.toolKind === 'read');
    assert.match(card?.permissionNote ?? '', /Allowed automatically: reads inside the workspace/);
    assert.equal(card?.permission, null);

    const outside = h.presenter.sendPrompt('ask read /etc/hostname');
    const permission = await waitFor(() => h.presenter.currentSession.thread.findLastToolCall((tool) => tool.permission !== null)?.permission ?? undefined, 'a prompt for the outside path');
    h.presenter.currentSession.answerPermission(permission.requestId, 'reject-once');
    await outside;
    assert.equal(h.presenter.currentSession.thread.lastAgentText(), 'Outcome: reject-once');

    const edit = h.presenter.sendPrompt(`ask edit ${join(h.workspace, 'inside.txt')}`);
    const editPermission = await waitFor(() => h.presenter.currentSession.thread.findLastToolCall((tool) => tool.permission !== null)?.permission ?? undefined, 'edits are not auto-allowed');
    h.presenter.currentSession.answerPermission(editPermission.requestId, null);
    await edit;
  });

  test('"always" becomes a grant kept by Tandem (the agent gets allow-once), applies next time, is listed and revocable', async (t) => {
    const h = harness(t, {});
    await h.ready();
    const first = h.presenter.sendPrompt('ask execute npm test');
    const permission = await waitFor(() => h.presenter.currentSession.thread.findLastToolCall((tool) => tool.permission !== null)?.permission ?? undefined, 'the prompt');
    h.presenter.currentSession.answerPermission(permission.requestId, 'allow-always');
    await first;
    assert.equal(h.presenter.currentSession.thread.lastAgentText(), 'Outcome: allow-once', 'the agent is not told to persist anything');
    const permissions = await waitFor(() => {
      const last = h.posted.filter((message) => message.type === 'permissionsChanged').at(-1);
      return last?.type === 'permissionsChanged' && last.permissions.grants.length === 1 ? last.permissions : undefined;
    }, 'the grant listed');
    assert.equal(permissions.grants[0]?.description, 'Commands: npm test');

    await h.presenter.sendPrompt('ask execute npm test');
    assert.equal(h.presenter.currentSession.thread.lastAgentText(), 'Outcome: allow-once', 'answered by the grant without asking');
    assert.match(h.presenter.currentSession.thread.findLastToolCall(() => true)?.permissionNote ?? '', /Allowed by your rule: Commands: npm test/);

    await h.presenter.handle({ type: 'revokeGrant', grantId: permissions.grants[0]?.id ?? '' });
    assert.equal(h.policy.view('scripted').grants.length, 0);
    const again = h.presenter.sendPrompt('ask execute npm test');
    const asked = await waitFor(() => h.presenter.currentSession.thread.findLastToolCall((tool) => tool.permission !== null)?.permission ?? undefined, 'asked again after revoking');
    h.presenter.currentSession.answerPermission(asked.requestId, 'reject-once');
    await again;
  });

  test('rules an agent saved inside the project are shown', (t) => {
    const workspace = tempWorkspace(t);
    mkdirSync(join(workspace, '.claude'), { recursive: true });
    writeFileSync(join(workspace, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test:*)', 'Write'], deny: ['Read(.env)'] } }));
    const rules = readProjectRules([workspace]);
    assert.deepEqual(rules.map((rule) => [rule.label, rule.allow, rule.deny]), [['.claude/settings.local.json', ['Bash(npm test:*)', 'Write'], ['Read(.env)']]]);
  });
});

describe('prompt attachments', () => {
  const mention = (path: string, kind: MentionView['kind'] = 'file', lines: [number, number] | null = null): MentionView => ({
    kind, label: path.split('/').pop() ?? path, path, detail: path, startLine: lines?.[0] ?? null, endLine: lines?.[1] ?? null, open: false,
  });

  test('with embedded context: resources carry the unsaved buffer text; a selection carries its lines; images are sent', async (t) => {
    const h = harness(t, { SCRIPTED_AGENT_PROMPT: 'rich' }, { editor: { readMention: async (m) => (m.kind === 'selection' ? 'line two' : 'UNSAVED buffer text') } });
    const file = join(h.workspace, 'notes.md');
    writeFileSync(file, 'saved text\n');
    await h.ready();
    await h.presenter.handle({ type: 'sendPrompt', text: 'echo look', mentions: [mention(file), mention(file, 'selection', [2, 2]), mention(h.workspace, 'folder')], images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }] });
    const prompt = h.frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"session/prompt"'));
    const blocks = (JSON.parse(prompt?.text ?? '{}') as { params: { prompt: { type: string; resource?: { uri: string; text: string }; uri?: string }[] } }).params.prompt;
    assert.deepEqual(blocks.map((block) => block.type), ['text', 'resource', 'resource', 'resource_link', 'image']);
    assert.equal(blocks[1]?.resource?.text, 'UNSAVED buffer text');
    assert.match(blocks[2]?.resource?.uri ?? '', /notes\.md#L2-2$/);
  });

  test('without embedded context: resource links; images refused with a message', async (t) => {
    const h = harness(t, {});
    await h.ready();
    await h.presenter.handle({ type: 'sendPrompt', text: 'echo look', mentions: [mention(join(h.workspace, 'a.ts'))], images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }] });
    const prompt = h.frames.frames().find((frame) => frame.direction === 'out' && frame.text.includes('"session/prompt"'));
    const blocks = (JSON.parse(prompt?.text ?? '{}') as { params: { prompt: { type: string }[] } }).params.prompt;
    assert.deepEqual(blocks.map((block) => block.type), ['text', 'resource_link']);
    assert.ok(h.presenter.currentSession.thread.snapshot().some((entry) => entry.kind === 'notice' && /does not accept images/.test(entry.text)));
  });
});

import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { hookFilesFor, parseProjectHooks, projectHooksNotice, readProjectHooks, type ProjectHook } from '../../src/permissions/projectHooks';
import { scriptedEnvironment, scriptedSession, tempWorkspace } from '../support/sessionBuilders';

const claudeSettings = {
  permissions: { allow: ['Bash(ls:*)'] },
  hooks: {
    SessionStart: [{ hooks: [{ type: 'command', command: './scripts/setup.sh' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }, { type: 'prompt', prompt: 'Is this safe?' }] }],
  },
};

function writeJson(workspace: string, relative: string, json: unknown): void {
  mkdirSync(join(workspace, relative, '..'), { recursive: true });
  writeFileSync(join(workspace, relative), JSON.stringify(json));
}

describe('project hooks', () => {
  test('command hooks are read per event with their matcher; other hook types and switches are not commands', () => {
    assert.deepEqual(parseProjectHooks({ json: claudeSettings, label: '.claude/settings.json' }), [
      { event: 'SessionStart', matcher: null, command: './scripts/setup.sh', file: '.claude/settings.json' },
      { event: 'PreToolUse', matcher: 'Bash', command: './check.sh', file: '.claude/settings.json' },
    ]);
    const gemini = { hooks: { enabled: true, BeforeTool: [{ matcher: '*', hooks: [{ name: 'log', type: 'command', command: 'node log.js' }] }, { type: 'command', command: 'bare.sh' }] } };
    assert.deepEqual(parseProjectHooks({ json: gemini, label: '.gemini/settings.json' }).map((hook) => [hook.event, hook.matcher, hook.command]), [['BeforeTool', null, 'node log.js'], ['BeforeTool', null, 'bare.sh']]);
    assert.deepEqual(parseProjectHooks({ json: { hooks: 'nope' }, label: 'x' }), []);
    assert.deepEqual(parseProjectHooks({ json: { hooks: { SessionStart: [null, 3, { hooks: [{ command: 4 }] }] } }, label: 'x' }), []);
  });

  test('each agent has its own files: Claude Code by id, command or name, Gemini CLI; others none', () => {
    assert.deepEqual(hookFilesFor({ id: 'claude-code', command: 'claude-agent-acp' }), ['.claude/settings.local.json', '.claude/settings.json']);
    assert.deepEqual(hookFilesFor({ id: 'mine', command: '/opt/bin/claude-agent-acp' }), ['.claude/settings.local.json', '.claude/settings.json']);
    assert.deepEqual(hookFilesFor({ id: 'mine', command: 'node', name: '@zed-industries/claude-code-acp' }), ['.claude/settings.local.json', '.claude/settings.json']);
    assert.deepEqual(hookFilesFor({ id: 'gemini', command: 'gemini' }), ['.gemini/settings.json']);
    assert.deepEqual(hookFilesFor({ id: 'codex', command: 'codex-acp' }), []);
  });

  test('both Claude Code settings files are read, comments allowed', (t) => {
    const workspace = tempWorkspace(t);
    writeJson(workspace, '.claude/settings.json', claudeSettings);
    mkdirSync(join(workspace, '.claude'), { recursive: true });
    writeFileSync(join(workspace, '.claude', 'settings.local.json'), '{ // mine\n "hooks": { "Stop": [{ "hooks": [{ "type": "command", "command": "say done" }] }] } }');
    const hooks = readProjectHooks({ id: 'claude-code', command: 'claude-agent-acp' }, workspace);
    assert.deepEqual(hooks.map((hook) => `${hook.file} ${hook.event} ${hook.command}`), ['.claude/settings.local.json Stop say done', '.claude/settings.json SessionStart ./scripts/setup.sh', '.claude/settings.json PreToolUse ./check.sh']);
    assert.deepEqual(readProjectHooks({ id: 'codex', command: 'codex-acp' }, workspace), []);
  });

  test('the notice names every command with its event and file, without credentials, and bounded', () => {
    const hook = (command: string): ProjectHook => ({ event: 'SessionStart', matcher: null, command, file: '.claude/settings.json' });
    const text = projectHooksNotice('Claude Code', [hook('./scripts/setup.sh'), { ...hook('./check.sh'), event: 'PreToolUse', matcher: 'Bash' }, hook('curl -H "token: ghp_abcdefghijklmnopqrstuvwxyz0123456789" x')]);
    assert.match(text, /^Claude Code will run these project hooks: SessionStart: \.\/scripts\/setup\.sh \[\.claude\/settings\.json\]; PreToolUse \(Bash\): \.\/check\.sh \[\.claude\/settings\.json\]; SessionStart: curl -H "token: «redacted»" x/);
    const many = projectHooksNotice('Gemini CLI', Array.from({ length: 60 }, (_, i) => hook(`${'x'.repeat(500)}${i}`)));
    assert.match(many, /; and 10 more\./);
    assert.ok(many.length < 60 * 260, 'long commands are cut');
  });

  test('a session with the agent opens with one notice of its project hooks, before session/new', async (t) => {
    const workspace = tempWorkspace(t);
    writeJson(workspace, '.claude/settings.json', claudeSettings);
    const environment = scriptedEnvironment(t, { workspace });
    const session = scriptedSession(t, { environment, definition: { id: 'claude-code', label: 'Claude Code' } });
    const sentWhenNoticed: boolean[] = [];
    session.thread.onDelta(() => {
      if (session.thread.snapshot().some((entry) => entry.kind === 'notice') && sentWhenNoticed.length === 0) {
        sentWhenNoticed.push(environment.frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"session/new"')));
      }
    });
    assert.ok(await session.start());
    const notices = session.thread.snapshot().flatMap((entry) => (entry.kind === 'notice' ? [entry.text] : []));
    assert.equal(notices.length, 1);
    assert.match(notices[0] ?? '', /^Claude Code will run these project hooks: SessionStart: \.\/scripts\/setup\.sh/);
    assert.deepEqual(sentWhenNoticed, [false]);
  });

  test('an agent that reads no such files gets no notice', async (t) => {
    const workspace = tempWorkspace(t);
    writeJson(workspace, '.claude/settings.json', claudeSettings);
    const session = scriptedSession(t, { workspace });
    assert.ok(await session.start());
    assert.ok(!session.thread.snapshot().some((entry) => entry.kind === 'notice'));
  });
});

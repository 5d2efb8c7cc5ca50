import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseProjectHooks } from '../../src/permissions/projectHooks';

const claudeSettings = {
  permissions: { allow: ['Bash(ls:*)'] },
  hooks: {
    SessionStart: [{ hooks: [{ type: 'command', command: './scripts/setup.sh' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }, { type: 'prompt', prompt: 'Is this safe?' }] }],
  },
};

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
});

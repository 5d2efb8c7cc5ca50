import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { builtInPresets, resolveAgents } from '../../src/agents/agentConfig';

const presets = builtInPresets('/ext/dist/demo-agent.js', '/usr/bin/node');

describe('agent configuration', () => {
  test('presets come first, the demo agent is labelled as such', () => {
    const { agents, problems } = resolveAgents({}, presets);
    assert.deepEqual(agents.map((agent) => agent.id), ['demo', 'claude-code', 'gemini', 'codex', 'opencode', 'qwen-code', 'copilot', 'goose', 'cursor']);
    assert.equal(agents[0]?.label, 'Demo agent (offline)');
    assert.deepEqual(agents[2]?.args, ['--acp']);
    assert.deepEqual(problems, []);
  });

  test("Zed-style agent_servers entries work as they are, and adjust presets", () => {
    const { agents, problems } = resolveAgents({
      'My Agent': { command: 'my-agent', args: ['--acp'], env: { LOG: '1' }, default_mode: 'plan', default_config_options: { model: 'big' } },
      'claude-code': { env: { CLAUDE_CODE_USE_BEDROCK: '1' }, defaultMode: 'default' },
      broken: { args: ['x'] },
      alsoBroken: 'nope',
    }, presets);
    const mine = agents.find((agent) => agent.id === 'My Agent');
    assert.equal(mine?.command, 'my-agent');
    assert.deepEqual(mine?.args, ['--acp']);
    assert.deepEqual(mine?.env, { LOG: '1' });
    assert.equal(mine?.defaultMode, 'plan');
    assert.deepEqual(mine?.defaultConfigOptions, { model: 'big' });
    const claude = agents.find((agent) => agent.id === 'claude-code');
    assert.equal(claude?.command, 'claude-agent-acp');
    assert.equal(claude?.defaultMode, 'default');
    assert.deepEqual(claude?.env, { CLAUDE_CODE_USE_BEDROCK: '1' });
    assert.match(claude?.installHint ?? '', /npm install -g @agentclientprotocol\/claude-agent-acp/);
    assert.equal(problems.length, 2);
    assert.equal(resolveAgents({ solo: { command: 'solo-agent', share_process: false } }, presets).agents.find((agent) => agent.id === 'solo')?.shareProcess, false);
  });
});

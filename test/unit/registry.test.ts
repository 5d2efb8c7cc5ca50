import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { builtInPresets, resolveAgents } from '../../src/agents/agentConfig';
import { parseRegistry, registryPlatform, settingsForRegistryAgent } from '../../src/registry/registry';
import { repoRoot } from '../support/scriptedAgentSpec';

const registry = parseRegistry(JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'registry.json'), 'utf8')));

describe('ACP agent registry', () => {
  test('agents with a distribution are read; entries without one are skipped', () => {
    assert.deepEqual(registry.map((agent) => agent.id), ['fixture-npx-agent', 'fixture-uvx-agent', 'fixture-binary-agent']);
    assert.throws(() => parseRegistry({ nope: [] }), /not an ACP registry/);
  });

  test('each distribution becomes a tandem.agents entry that resolves to a runnable agent', () => {
    const platform = registryPlatform('linux', 'x64');
    assert.equal(platform, 'linux-x86_64');
    const [npx, uvx, binary] = registry.map((agent) => settingsForRegistryAgent(agent, platform));
    assert.deepEqual(npx?.settings, { label: 'Fixture npx agent', command: 'npx', args: ['--yes', '@fixture/acp-agent@2.3.1', '--acp'], env: { FIXTURE_MODE: 'acp' } });
    assert.deepEqual(uvx?.settings.args, ['fixture-acp==0.4.0', 'acp']);
    assert.equal(binary?.settings.command, 'fixture-agent');
    assert.match(binary?.note ?? '', /Download https:\/\/example.invalid\/fixture-linux-x86_64.tar.gz/);
    assert.throws(() => settingsForRegistryAgent(registry[2] as never, 'windows-x86_64'), /no distribution for windows-x86_64/);

    const { agents, problems } = resolveAgents({ 'fixture-npx-agent': npx?.settings }, builtInPresets('/ext/demo.js', '/usr/bin/node'));
    assert.deepEqual(problems, []);
    const added = agents.find((agent) => agent.id === 'fixture-npx-agent');
    assert.equal(added?.label, 'Fixture npx agent');
    assert.deepEqual(added?.args, ['--yes', '@fixture/acp-agent@2.3.1', '--acp']);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { builtInPresets, resolveAgents } from '../../src/agents/agentConfig';
import type { HostToWebview } from '../../src/contract/messages';
import { scriptedPresenter, tempWorkspace } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

const { agents } = resolveAgents({}, builtInPresets('/ext/dist/demo-agent.js', '/usr/bin/node'));
const installLines: Record<string, RegExp> = {
  opencode: /npm install -g opencode-ai.*opencode auth login/,
  'qwen-code': /npm install -g @qwen-code\/qwen-code.*OPENAI_API_KEY/,
  copilot: /npm install -g @github\/copilot.*\/login/,
  goose: /Goose CLI.*goose configure/,
  cursor: /cursor\.com\/install.*agent login/,
};

function lastConnectionMessage(posted: HostToWebview[]): string | undefined {
  for (const message of [...posted].reverse()) {
    if (message.type === 'connectionChanged') return message.connection.message ?? undefined;
    if (message.type === 'snapshot') return message.state.connection.message ?? undefined;
  }
  return undefined;
}

describe('presets for agents this machine may not have', () => {
  for (const [id, installLine] of Object.entries(installLines)) {
    test(`${id}: offered in the picker, and a missing program is explained with its install and sign-in line`, async (t) => {
      // A PATH with nothing on it: the lookup a real start does finds no program, whatever this machine has installed.
      const emptyPath = tempWorkspace(t, 'tandem-no-agents-');
      const preset = agents.find((agent) => agent.id === id);
      assert.ok(preset, `a preset for ${id}`);
      const offered = agents.map((agent) => (agent.id === id ? { ...agent, env: { ...agent.env, PATH: emptyPath } } : agent));
      const panel = scriptedPresenter(t, { agents: offered, agent: 'process' });
      await panel.presenter.handle({ type: 'ready' });
      await panel.presenter.handle({ type: 'selectAgent', agentId: id });
      await waitFor(() => panel.session().connectionView.phase === 'failed' && lastConnectionMessage(panel.posted) !== undefined, `${id} reported missing`);
      const listed = panel.posted.flatMap((message) => (message.type === 'agentsChanged' ? message.agents : message.type === 'snapshot' ? message.state.agents : []));
      assert.ok(listed.some((choice) => choice.id === id && choice.label === preset.label), `${preset.label} is in the picker`);
      const shown = lastConnectionMessage(panel.posted) ?? '';
      assert.ok(shown.startsWith(`${preset.label} is not installed: "${preset.command}" was not found.`), shown);
      assert.match(shown, installLine);
      assert.equal(panel.session().agentPid, undefined, 'nothing was started in its place');
    });
  }
});

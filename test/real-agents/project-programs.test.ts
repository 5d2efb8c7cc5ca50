import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ProjectProgramConsent, type ProgramConsentAnswer, type ProgramConsentRecord } from '../../src/permissions/projectProgramConsent';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import { startOpenAIModelServer } from '../support/model-servers/openai';
import { claudeAgentSpec, geminiAgentSpec, opencodeAgentSpec } from '../support/real-agents';
import { realAgentSession, startScriptedRealAgent, type ScriptedRealAgent } from '../support/realAgentRun';
import { waitFor } from '../support/waitFor';

/** An MCP server that only leaves a marker file and exits: the file says whether Gemini CLI started it. */
const markerServer = (marker: string) => ({ command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); process.exit(0)`] });

/** The same as a shell command line, for hooks. */
const markerCommand = (marker: string) => `'${process.execPath}' -e "require('fs').writeFileSync('${marker}', 'ran')"`;

/** Consent that answers every question with `answer`, remembering nothing between sessions. */
function answering(answer: ProgramConsentAnswer) {
  const records: ProgramConsentRecord[] = [];
  const store = { load: () => [...records], save: (saved: ProgramConsentRecord[]) => void records.splice(0, records.length, ...saved) };
  const consent = new ProjectProgramConsent(store, () => Promise.resolve(answer));
  return { projectPrograms: consent.check.bind(consent) };
}

/**
 * One turn with the project's programs ignored by the agent's own switch, where `planted` must not
 * appear; then one allowed, where it must (the control: this agent does run them).
 */
async function switchHolds(t: Parameters<typeof realAgentSession>[0], agent: ScriptedRealAgent, planted: string): Promise<void> {
  const refused = realAgentSession(t, agent, { environment: answering(null) }).session;
  assert.equal(await refused.start(), false);
  assert.equal(refused.agentPid, undefined, 'the agent process was started');
  assert.equal(existsSync(planted), false);

  const ignoring = realAgentSession(t, agent, { environment: answering('withoutProjectSettings') }).session;
  assert.ok(await ignoring.start());
  agent.model.enqueue({ text: 'Hello without the project settings.' });
  await ignoring.prompt('Say hello');
  assert.equal(ignoring.thread.lastAgentText(), 'Hello without the project settings.');
  assert.equal(existsSync(planted), false, 'the project\'s program ran although the agent was told to ignore the project settings');
  await ignoring.stopAgent();

  const allowed = realAgentSession(t, agent, { environment: answering('start') }).session;
  assert.ok(await allowed.start());
  agent.model.enqueue({ text: 'Hello with the project settings.' });
  await allowed.prompt('Say hello');
  await waitFor(() => existsSync(planted), 'the allowed project program to run', 30_000, 50);
}

describe('real Gemini CLI: a project\'s MCP server runs only after a yes', () => {
  test('not started without a yes; ignored with "start without the project\'s settings"; started after a yes', async (t) => {
    const agent = await startScriptedRealAgent(startGeminiModelServer, (url) => geminiAgentSpec(url));
    const folder = agent.spec.cwd;
    const planted = join(folder, 'planted-server-ran');
    mkdirSync(join(folder, '.gemini'), { recursive: true });
    writeFileSync(join(folder, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { planted: markerServer(planted) } }));
    // Gemini CLI starts a project's MCP servers as the session opens, before any prompt.
    await switchHolds(t, agent, planted);
  });
});

describe('real Claude Code: a project\'s hooks run only after a yes', () => {
  test('its UserPromptSubmit hook: not run without a yes; not with "start without the project\'s settings"; run after a yes', async (t) => {
    const agent = await startScriptedRealAgent(startClaudeModelServer, (url) => claudeAgentSpec(url));
    const planted = join(agent.spec.cwd, 'planted-hook-ran');
    mkdirSync(join(agent.spec.cwd, '.claude'), { recursive: true });
    writeFileSync(join(agent.spec.cwd, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: markerCommand(planted) }] }] } }));
    await switchHolds(t, agent, planted);
  });
});

describe('real OpenCode: a project\'s MCP server runs only after a yes', () => {
  test('its opencode.json local server: not started without a yes; not with "start without the project\'s settings"; started after a yes', async (t) => {
    const agent = await startScriptedRealAgent(startOpenAIModelServer, (url) => opencodeAgentSpec(url));
    const planted = join(agent.spec.cwd, 'planted-server-ran');
    const server = markerServer(planted);
    writeFileSync(join(agent.spec.cwd, 'opencode.json'), JSON.stringify({ mcp: { planted: { type: 'local', command: [server.command, ...server.args] } } }));
    await switchHolds(t, agent, planted);
  });
});

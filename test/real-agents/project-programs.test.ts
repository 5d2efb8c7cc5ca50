import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ProjectProgramConsent, type ProgramConsentAnswer, type ProgramConsentRecord } from '../../src/permissions/projectProgramConsent';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import { geminiAgentSpec } from '../support/real-agents';
import { realAgentSession, startScriptedRealAgent } from '../support/realAgentRun';
import { waitFor } from '../support/waitFor';

/** An MCP server that only leaves a marker file and exits: the file says whether Gemini CLI started it. */
const markerServer = (marker: string) => ({ command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); process.exit(0)`] });

describe('real Gemini CLI: a project\'s MCP server runs only after a yes', () => {
  test('not started without a yes; ignored with "start without the project\'s settings"; started after a yes', async (t) => {
    const agent = await startScriptedRealAgent(startGeminiModelServer, (url) => geminiAgentSpec(url));
    const folder = agent.spec.cwd;
    const planted = join(folder, 'planted-server-ran');
    mkdirSync(join(folder, '.gemini'), { recursive: true });
    writeFileSync(join(folder, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { planted: markerServer(planted) } }));
    const records: ProgramConsentRecord[] = [];
    const store = { load: () => [...records], save: (saved: ProgramConsentRecord[]) => void records.splice(0, records.length, ...saved) };
    const answering = (answer: ProgramConsentAnswer) => {
      const consent = new ProjectProgramConsent(store, () => Promise.resolve(answer));
      return { projectPrograms: consent.check.bind(consent) };
    };
    const refused = realAgentSession(t, agent, { environment: answering(null) }).session;
    assert.equal(await refused.start(), false);
    assert.equal(refused.agentPid, undefined, 'the agent process was started');
    assert.equal(existsSync(planted), false);

    // Started with its switch: a whole turn goes by (servers start as the session opens, before any prompt).
    const ignoring = realAgentSession(t, agent, { environment: answering('withoutProjectSettings') }).session;
    assert.ok(await ignoring.start());
    agent.model.enqueue({ text: 'Hello without the project settings.' });
    await ignoring.prompt('Say hello');
    assert.equal(ignoring.thread.lastAgentText(), 'Hello without the project settings.');
    assert.equal(existsSync(planted), false, 'the project\'s server ran although Gemini CLI was told to ignore the project settings');
    await ignoring.stopAgent();

    // The control: with a yes, this Gemini CLI does start the project's server.
    const allowed = realAgentSession(t, agent, { environment: answering('start') }).session;
    assert.ok(await allowed.start());
    agent.model.enqueue({ text: 'Hello with the project settings.' });
    await allowed.prompt('Say hello');
    await waitFor(() => existsSync(planted), 'the allowed project server to run', 30_000, 50);
  });
});

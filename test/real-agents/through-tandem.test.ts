import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { claudeAgentSpec, geminiAgentSpec, type AgentSpec } from '../support/real-agents';
import { assertAnswerStreamsInPieces, assertStopCancelsStreamingTurn, realAgentSession, startScriptedRealAgent, throughSession } from '../support/realAgentRun';

const REPLY = 'Hello through Tandem: this answer is streamed in twelve-character pieces.';

interface Case {
  name: string;
  startServer(): Promise<ScriptedModelServer>;
  spec(url: string): AgentSpec;
}

const cases: Case[] = [
  { name: 'Claude Code (claude-agent-acp)', startServer: startClaudeModelServer, spec: (url) => claudeAgentSpec(url) },
  { name: 'Gemini CLI (gemini --acp)', startServer: startGeminiModelServer, spec: (url) => geminiAgentSpec(url) },
];

for (const agentCase of cases) {
  describe(`real ${agentCase.name} through Tandem's session layer`, () => {
    test('the streamed answer arrives in the thread model, and Stop cancels a turn', async (t) => {
      const agent = await startScriptedRealAgent(agentCase.startServer, agentCase.spec);
      const driver = throughSession(realAgentSession(t, agent));
      await assertAnswerStreamsInPieces(driver, agent.model, REPLY);
      const ended = driver.session.thread.snapshot().at(-1);
      assert.equal(ended?.kind === 'turnEnded' && ended.stopReason, 'end_turn');
      await assertStopCancelsStreamingTurn(driver, agent.model, { text: 'After the stop.' });
    });
  });
}

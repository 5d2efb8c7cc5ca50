import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { startGeminiModelServer } from '../support/model-servers/gemini';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { claudeAgentSpec, geminiAgentSpec, type AgentSpec } from '../support/real-agents';
import { realAgentSession, startScriptedRealAgent } from '../support/realAgentRun';
import { waitFor } from '../support/waitFor';

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
      const server = agent.model;
      const { session, frames } = realAgentSession(t, agent);

      server.enqueue({ text: REPLY, chunkSize: 12 });
      await session.prompt('Say hello');
      assert.equal(session.thread.lastAgentText(), REPLY);
      const ended = session.thread.snapshot().at(-1);
      assert.equal(ended?.kind === 'turnEnded' && ended.stopReason, 'end_turn');
      const chunkFrames = frames.frames().filter((frame) => frame.direction === 'in' && frame.text.includes('"agent_message_chunk"'));
      assert.ok(chunkFrames.length >= 2, `the answer came as several chunks (${chunkFrames.length})`);

      // No repeated chunks: Gemini CLI's loop detection would end a repetitive answer by itself.
      const long = Array.from({ length: 800 }, (_, i) => `w${i} `).join('');
      server.enqueue({ text: long, chunkSize: 10, delayMs: 20 }, { text: 'After the stop.' });
      const turn = session.prompt('Write a long answer');
      await waitFor(() => session.thread.lastAgentText().startsWith('w0 w1 w2 '), 'the long answer to start streaming', 30_000);
      await session.cancel();
      await turn;
      const cancelled = session.thread.snapshot().at(-1);
      assert.equal(cancelled?.kind === 'turnEnded' && cancelled.stopReason, 'cancelled');
      assert.ok(session.thread.lastAgentText().length < long.length, 'the stream stopped before the end');
      assert.ok(frames.frames().some((frame) => frame.direction === 'out' && frame.text.includes('"session/cancel"')));
    });
  });
}

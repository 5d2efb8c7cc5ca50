// What real adapters add on top of ACP, through Tandem's session layer, offline (scripted model
// servers on 127.0.0.1): a message steered into a running turn (Claude and Codex), a subagent's
// work attributed to its Agent call, and a compaction as one thread entry (Claude).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { subagentSummary } from '../../src/contract/subagentSummary';
import type { SessionController } from '../../src/conversation/sessionController';
import { startClaudeModelServer } from '../support/model-servers/claude';
import { startOpenAIModelServer } from '../support/model-servers/openai';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { claudeAgentSpec, codexAgentSpec } from '../support/real-agents';
import { realAgentSession, startScriptedRealAgent } from '../support/realAgentRun';
import type { TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';

async function claude(t: TestScope) {
  const agent = await startScriptedRealAgent(startClaudeModelServer, claudeAgentSpec);
  return { server: agent.model, spec: agent.spec, ...realAgentSession(t, agent) };
}

/** The text of every message the agent sent the model in main requests (`messages`, or `input` for the Responses API). */
function mainRequestTexts(server: ScriptedModelServer, field: 'messages' | 'input' = 'messages'): string {
  return server.requests.filter((request) => request.role === 'main').map((request) => JSON.stringify((request.body as Record<string, unknown>)[field] ?? [])).join('\n');
}

/**
 * Steers `message` into a long answer while it streams: the agent (`agentName`) advertises
 * steering and takes the message in, the thread shows it injected, the model gets it (in the
 * request's `field`) within the same turn, and the turn stays one; `reply` answers it after.
 */
async function steerIntoStreamingAnswer(session: SessionController, server: ScriptedModelServer, message: string, agent: { agentName: string; field: 'messages' | 'input'; reply: string }): Promise<void> {
  assert.ok(await session.start());
  const long = Array.from({ length: 600 }, (_, i) => `w${i} `).join('');
  server.enqueue({ text: long, chunkSize: 8, delayMs: 30 }, { text: agent.reply });
  const turn = session.prompt('Write a long answer');
  await waitFor(() => session.thread.lastAgentText().startsWith('w0 w1 '), 'the answer to stream', 90_000);
  assert.ok(session.canSteer, `${agent.agentName} advertises steering`);
  assert.equal(await session.steer(message), true);
  await turn;
  const steered = session.thread.snapshot().find((entry) => entry.kind === 'user' && entry.text === message);
  assert.equal(steered?.kind === 'user' && steered.steered, 'injected');
  assert.ok(mainRequestTexts(server, agent.field).includes(message), 'the model got the steered message');
  assert.equal(session.thread.snapshot().filter((entry) => entry.kind === 'turnEnded').length, 1, 'still one turn');
}

describe('real Claude Code: steering, subagents, compaction', () => {
  test('a message steered into a running turn is taken in (the adapter says injected) and reaches the model within the same turn', { timeout: 240_000 }, async (t) => {
    const { server, session, frames } = await claude(t);
    await steerIntoStreamingAnswer(session, server, 'Also check the tests, please.', { agentName: 'Claude', field: 'messages', reply: 'Understood: I will also check the tests.' });
    assert.ok(frames.frames().some((frame) => frame.direction === 'in' && frame.text.includes('"outcome":"injected"')), 'the adapter answered injected');
    assert.match(session.thread.lastAgentText(), /Understood: I will also check the tests\./);
  });

  test("a subagent's tool calls carry its Agent call, and the file it wrote is counted under it", { timeout: 240_000 }, async (t) => {
    const { server, spec, session } = await claude(t);
    server.enqueue({ text: 'Ready.' });
    await session.prompt('Hello');
    // Auto mode asks a classifier model before an Agent call, which the scripted server cannot play: a mode without it.
    const modes = session.thread.facts.configOptions.find((option) => option.id === 'mode');
    const choices = modes && modes.type === 'select' ? modes.options.flatMap((option) => ('value' in option ? [option.value] : option.options.map((choice) => choice.value))) : [];
    const mode = ['bypassPermissions', 'acceptEdits'].find((candidate) => choices.includes(candidate));
    assert.ok(mode, `a mode without the classifier (${choices.join(', ')})`);
    const live = session.live;
    assert.ok(live);
    await live.connection.setConfigOption(live.sessionId, 'mode', mode);
    const tools = ((server.requests.find((request) => request.role === 'main')?.body as { tools?: { name?: string }[] }).tools ?? []).map((tool) => tool.name);
    const agentTool = tools.includes('Agent') ? 'Agent' : 'Task';
    assert.ok(tools.includes(agentTool), `Claude Code offers a subagent tool (${tools.join(', ')})`);
    const target = join(spec.cwd, 'from-subagent.md');
    server.enqueue(
      { toolUses: [{ name: agentTool, input: { description: 'Write a note', prompt: 'Write from-subagent.md', subagent_type: 'general-purpose' } }] },
      { toolUses: [{ name: 'Write', input: { file_path: target, content: '# written by the subagent\n' } }] },
      { text: 'The note is written.' },
      { text: 'The subagent wrote the note.' },
    );
    await session.prompt('Have a subagent write the note');
    assert.equal(existsSync(target) ? readFileSync(target, 'utf8') : null, '# written by the subagent\n');
    const entries = session.thread.snapshot();
    const parent = session.thread.findLastToolCall((tool) => tool.title.includes('Write a note') || tool.rawInput?.includes('subagent_type') === true);
    assert.ok(parent, 'the Agent call has a card');
    const write = session.thread.findLastToolCall((tool) => tool.toolKind === 'edit');
    assert.equal(write?.parentToolCallId, parent.toolCallId, 'the Write is attributed to the Agent call');
    assert.equal(subagentSummary(entries, parent.toolCallId).filesChanged, 1);
  });

  test('/compact becomes one compaction entry in the thread, advertised and reported by the adapter', { timeout: 240_000 }, async (t) => {
    const { server, session, frames } = await claude(t);
    server.enqueue({ text: 'First answer, to have something to compact.' });
    await session.prompt('Say something');
    await session.prompt('/compact');
    assert.ok(frames.frames().some((frame) => frame.direction === 'in' && frame.text.includes('"compaction_update"')), 'the adapter sent compaction updates');
    const compaction = session.thread.snapshot().find((entry) => entry.kind === 'compaction');
    assert.ok(compaction?.kind === 'compaction', 'a compaction entry');
    assert.equal(compaction.compaction.status, 'completed');
    assert.ok(compaction.compaction.tokensBefore !== null && compaction.compaction.tokensBefore > 0, `tokens before: ${compaction.compaction.tokensBefore}`);
    assert.ok(compaction.compaction.tokensAfter !== null, 'tokens after, from the usage the adapter reports after it');
  });
});

describe('real Codex: steering', () => {
  test('a message steered into a running Codex turn is taken in and reaches the model in the same turn', { timeout: 240_000 }, async (t) => {
    const agent = await startScriptedRealAgent(startOpenAIModelServer, codexAgentSpec);
    const { session } = realAgentSession(t, agent);
    await steerIntoStreamingAnswer(session, agent.model, 'Check the tests too.', { agentName: 'codex-acp', field: 'input', reply: 'Understood: the tests too.' });
  });
});

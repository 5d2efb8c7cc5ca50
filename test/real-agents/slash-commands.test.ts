// A slash command reaches the real Claude adapter as typed, even when the editor has a note for the
// agent (what the user undid): Claude Code reads a command from the first text block only.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { editorNote } from '../../src/review/editorNote';
import type { ReviewSource } from '../../src/review/reviewSource';
import { startClaudeModelServer } from '../support/model-servers/claude';
import type { ScriptedModelServer } from '../support/model-servers/script';
import { claudeAgentSpec } from '../support/real-agents';
import { openAgentPanel } from '../support/realAgentPanel';
import { startScriptedRealAgent } from '../support/realAgentRun';
import { waitFor } from '../support/waitFor';

const COMMAND_BODY = 'Answer with the single word PLUM.';
const UNDO_NOTE = editorNote('the user reviewed your earlier changes and undid some of them. a.txt: 1 of 1 change undone. The files on disk are the truth now; read them again before editing.');

/** Pending changes with one undo the agent has not been told of yet, as review has after an Undo. */
function reviewWithOneUndoNote(): ReviewSource {
  const notes = [UNDO_NOTE];
  return {
    view: () => ({ files: [], canRedo: false }),
    onDidChange: () => ({ dispose: () => undefined }),
    act: async () => undefined,
    takePromptNotes: () => notes.splice(0),
  };
}

/** The user content of the last main-turn request the model got, as text blocks. */
function lastUserBlocks(model: ScriptedModelServer): string[] {
  const main = model.requests.filter((request) => request.role === 'main').at(-1);
  const messages = (main?.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  const content = messages.filter((message) => message.role === 'user').at(-1)?.content;
  if (typeof content === 'string') return [content];
  return Array.isArray(content) ? content.flatMap((block: { type?: string; text?: string }) => (block.type === 'text' && block.text ? [block.text] : [])) : [];
}

describe('slash commands after a review action, with the real Claude adapter', () => {
  test('a custom command after an Undo is run as a command; the note goes with the next message, after its text', { timeout: 240_000 }, async (t) => {
    const agent = await startScriptedRealAgent(startClaudeModelServer, claudeAgentSpec);
    const commands = join(agent.spec.home, '.claude', 'commands');
    mkdirSync(commands, { recursive: true });
    writeFileSync(join(commands, 'plum.md'), `${COMMAND_BODY}\n`);
    const { presenter } = await openAgentPanel(t, agent.spec, { cleanup: agent.close, review: reviewWithOneUndoNote() });
    const session = presenter.currentSession;
    await waitFor(() => session.thread.facts.availableCommands.some((command) => command.name === 'plum'), 'Claude to list /plum', 60_000);

    agent.model.enqueue({ text: 'PLUM' });
    await presenter.sendPrompt('/plum');
    await waitFor(() => !session.turnView.running, 'the command\'s turn to end', 90_000);
    const commandTurn = lastUserBlocks(agent.model).join('\n');
    assert.ok(commandTurn.includes(COMMAND_BODY), `Claude expanded /plum into its body; the model got: ${commandTurn}`);
    assert.ok(!commandTurn.includes(UNDO_NOTE), 'the note did not go with the command');

    agent.model.enqueue({ text: 'Noted.' });
    await presenter.sendPrompt('Carry on');
    await waitFor(() => !session.turnView.running, 'the next turn to end', 90_000);
    const next = lastUserBlocks(agent.model).join('\n');
    const text = next.indexOf('Carry on');
    assert.ok(text >= 0 && next.indexOf(UNDO_NOTE) > text, `the note follows the user's text; the model got: ${next}`);
  });
});

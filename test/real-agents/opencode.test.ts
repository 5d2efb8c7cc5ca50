// OpenCode 1.18.33 in ACP mode (`opencode acp`), offline: a provider of its own in a scratch XDG
// config points it at the scripted Responses API server on 127.0.0.1, no sign-in.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sha256 } from '../support/hashes';
import { startOpenAIModelServer } from '../support/model-servers/openai';
import { opencodeAgentSpec } from '../support/real-agents';
import { assertAnswerStreamsInPieces, assertNothingUnanswered, meterShowingLastUsageUpdate, openScriptedAgentPanel, reviewedRealAgentSession, startScriptedRealAgent, throughPanel } from '../support/realAgentRun';
import { TEN_LINES, wireFrames } from '../support/realAgentPanel';
import { waitFor } from '../support/waitFor';

const TIMEOUT = { timeout: 180_000 };

describe('real OpenCode (opencode acp) through Tandem', () => {
  test('the answer streams in pieces; the meter shows the usage and cost it reports', TIMEOUT, async (t) => {
    const { model, frames, presenter, conversation } = await openScriptedAgentPanel(t, startOpenAIModelServer, opencodeAgentSpec);
    await assertAnswerStreamsInPieces(throughPanel({ presenter, frames }), model, 'OpenCode, offline: this answer is streamed to Tandem in twelve-character pieces.');

    const { sent, usage } = await meterShowingLastUsageUpdate({ frames, conversation }, 'OpenCode');
    // The configured model has no price, so OpenCode says it cost 0: shown as sent, not guessed.
    assert.deepEqual(usage.cost, sent.cost ?? null);
    assertNothingUnanswered(model, 'OpenCode');
  });

  test('an edit asks permission with its own option ids and the diff it will make; allowed, it writes the disk itself', TIMEOUT, async (t) => {
    const agent = await startScriptedRealAgent(startOpenAIModelServer, opencodeAgentSpec);
    const { model, spec } = agent;
    const { session, frames, ledger, writer } = reviewedRealAgentSession(t, agent);
    const multi = join(spec.cwd, 'multi.txt');
    writeFileSync(multi, TEN_LINES);
    const edited = TEN_LINES.replace('line 2\n', 'line two\n').replace('line 9\n', 'line nine\n');
    // With an OpenAI model OpenCode edits through its apply_patch tool (no write or edit tool).
    const patchText = ['*** Begin Patch', '*** Update File: multi.txt', '@@', ' line 1', '-line 2', '+line two', ' line 3', '@@', ' line 8', '-line 9', '+line nine', ' line 10', '*** End Patch'].join('\n');
    model.enqueue(
      { toolUses: [{ name: 'read', input: { filePath: multi } }] },
      { text: 'Writing.', toolUses: [{ name: 'apply_patch', input: { patchText } }] },
      { text: 'Done.' },
    );
    const turn = session.prompt('Change the file');
    const tool = await waitFor(() => session.thread.findLastToolCall((candidate) => candidate.permission !== null), 'OpenCode to ask permission', 60_000);
    const request = wireFrames(frames, 'in').find((frame) => frame.method === 'session/request_permission');
    assert.ok(tool.permission && request);
    const diff = tool.content.find((content) => content.type === 'diff');
    assert.ok(diff?.type === 'diff', 'OpenCode sends the diff with the request, and the card shows it');
    assert.equal(diff.oldText, TEN_LINES);
    assert.equal(diff.newText, edited);
    const options = (request.params?.options ?? []) as { optionId: string; kind: string }[];
    assert.deepEqual(tool.permission.options.map((option) => option.optionId), options.map((option) => option.optionId), "the card offers the agent's own options");
    const allowOnce = options.find((option) => option.kind === 'allow_once');
    assert.ok(allowOnce);
    session.answerPermission(tool.permission.requestId, allowOnce.optionId);
    await turn;
    const answer = wireFrames(frames, 'out').find((frame) => frame.id === request.id && frame.result);
    assert.deepEqual(answer?.result, { outcome: { outcome: 'selected', optionId: allowOnce.optionId } }, 'answered with the id OpenCode gave');
    assert.equal(readFileSync(multi, 'utf8'), edited);
    assert.ok(!wireFrames(frames, 'in').some((frame) => frame.method === 'fs/write_text_file'), 'OpenCode wrote the disk itself');
    // Its updates name no file: the permission request is where review learns which file it will change.
    const file = ledger.file(multi);
    assert.equal(file?.origin, 'disk', 'reviewed as written to disk by the agent');
    assert.equal(file.hunks.length, 2);
    const second = file.hunks.find((hunk) => hunk.added.includes('line nine'));
    assert.ok(second);
    assert.deepEqual(await writer.undo([ledger.undoHunk(multi, second.id)]), []);
    assert.equal(sha256(readFileSync(multi)), sha256(Buffer.from(TEN_LINES.replace('line 2\n', 'line two\n'))), 'only the undone region changed back, byte for byte');
  });
});

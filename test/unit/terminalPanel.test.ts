import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseWebviewMessage, type HostToWebview } from '../../src/contract/messages';
import type { TerminalStateView } from '../../src/terminals/terminalStates';
import type { TerminalMirrorHandle } from '../../src/terminals/terminalDisplays';
import { terminalPrompt } from '../support/scenarios/terminals';
import { scriptedPresenter, type TestScope } from '../support/sessionBuilders';
import { scriptResult, terminalServices } from '../support/terminalHarness';
import { waitFor } from '../support/waitFor';

function terminalPresenter(t: TestScope, revealed: string[] = []) {
  return scriptedPresenter(t, {
    scope: terminalServices,
    actions: { mirrorTerminals: (): TerminalMirrorHandle => ({ reveal: (terminalId) => revealed.push(terminalId), dispose: () => undefined }) },
  });
}

function terminalMessages(posted: HostToWebview[]) {
  return posted.filter((message): message is Extract<HostToWebview, { type: 'terminalDeltas' }> => message.type === 'terminalDeltas');
}

function lastState(posted: HostToWebview[], terminalId: string): TerminalStateView | undefined {
  return terminalMessages(posted).flatMap((message) => message.changed).filter((state) => state.terminalId === terminalId).at(-1);
}

describe('terminals in the panel', () => {
  test('live output reaches the webview batched and bounded, then the exit code; a reloaded view gets it back', async (t) => {
    const { presenter, posted } = terminalPresenter(t);
    await presenter.handle({ type: 'ready' });
    // 20 MB in lines, then a marker: the panel must stay responsive and end on the newest output.
    await presenter.sendPrompt(terminalPrompt({ create: { command: "yes 'a line of output' | head -c 20000000; echo; echo DONE; exit 4" }, toolCall: true, steps: ['wait', 'release'] }));
    const terminalId = scriptResult(presenter.currentSession).terminalId as string;
    await waitFor(() => lastState(posted, terminalId)?.released, 'the released state to be posted');
    const messages = terminalMessages(posted);
    const chunks = messages.flatMap((message) => message.output).filter((chunk) => chunk.terminalId === terminalId);
    const sent = chunks.reduce((sum, chunk) => sum + chunk.data.length, 0);
    const skipped = chunks.reduce((sum, chunk) => sum + chunk.skipped, 0);
    assert.ok(chunks.every((chunk) => chunk.data.length <= 64 * 1024), 'every message is bounded');
    assert.ok(messages.length < 2000, `batched (${messages.length} messages)`);
    assert.ok(skipped > 0, 'a flood is skipped, not queued');
    assert.equal(sent + skipped, 20_000_000 + 6);
    assert.ok(chunks.at(-1)?.data.endsWith('\nDONE\n'));
    const state = lastState(posted, terminalId);
    assert.equal(state?.exitCode, 4);
    assert.equal(state?.running, false);
    assert.match(state?.toolCallId ?? '', /^terminal-call-/);

    const beforeReady = posted.length;
    await presenter.handle({ type: 'ready' });
    const snapshot = posted.slice(beforeReady).find((message) => message.type === 'snapshot');
    assert.ok(snapshot?.type === 'snapshot');
    const [terminal] = snapshot.state.terminals;
    assert.equal(terminal?.terminalId, terminalId);
    assert.ok(terminal.output.endsWith('DONE\n') && terminal.output.length <= 256 * 1024 && terminal.truncated);
  });

  test('Stop in the card kills the command; "Open in terminal panel" reveals its mirror', async (t) => {
    const revealed: string[] = [];
    const { presenter, posted } = terminalPresenter(t, revealed);
    await presenter.handle({ type: 'ready' });
    const turn = presenter.sendPrompt(terminalPrompt({ create: { command: 'sleep', args: ['1000'] }, toolCall: true, steps: ['wait'] }));
    const running = await waitFor(() => terminalMessages(posted).flatMap((message) => message.changed).find((state) => state.running), 'a running terminal');
    await presenter.handle({ type: 'terminalAction', terminalId: running.terminalId, action: 'reveal' });
    assert.deepEqual(revealed, [running.terminalId]);
    await presenter.handle({ type: 'terminalAction', terminalId: running.terminalId, action: 'kill' });
    await turn;
    assert.deepEqual(scriptResult(presenter.currentSession).results, [{ step: 'wait', exitCode: null, signal: 'SIGTERM' }]);
    await waitFor(() => lastState(posted, running.terminalId)?.signal === 'SIGTERM', 'the signal to be shown');
  });

  test('Stop on a command the agent runs itself stops the turn; the terminal then shows as ended', async (t) => {
    const { presenter } = terminalPresenter(t);
    await presenter.handle({ type: 'ready' });
    const turn = presenter.sendPrompt('display-terminal');
    const displays = presenter.currentSession.terminalDisplays;
    await waitFor(() => displays.output('display-1').includes('test 2 ok'), 'display terminal output');
    assert.equal(displays.view('display-1')?.origin, 'agent');
    assert.equal(displays.view('display-1')?.command, 'npm test');
    await presenter.handle({ type: 'terminalAction', terminalId: 'display-1', action: 'kill' });
    await turn;
    const last = presenter.currentSession.thread.snapshot().at(-1);
    assert.equal(last?.kind === 'turnEnded' && last.stopReason, 'cancelled');
    assert.equal(displays.view('display-1')?.running, false);
  });

  test('terminal and sign-in intents from the webview are validated', () => {
    assert.ok(parseWebviewMessage({ type: 'terminalAction', terminalId: 'term-1', action: 'kill' }).ok);
    assert.ok(parseWebviewMessage({ type: 'terminalAction', terminalId: 'term-1', action: 'reveal' }).ok);
    assert.ok(parseWebviewMessage({ type: 'signIn', methodId: 'login' }).ok);
    for (const bad of [
      { type: 'terminalAction', terminalId: 'term-1', action: 'rm' },
      { type: 'terminalAction', terminalId: '', action: 'kill' },
      { type: 'terminalAction', action: 'kill' },
      { type: 'signIn', methodId: 'x'.repeat(500) },
    ]) assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad));
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentHostPool } from '../../src/acp/agentHost';
import { scriptedPresenter, type TestScope } from '../support/sessionBuilders';
import { waitFor } from '../support/waitFor';
import { isAlive } from '../support/terminalHarness';

/**
 * Processes on purpose: which process serves a session is told by its pid, and that the last
 * session stops it by the process ending.
 */
function sharingPanel(t: TestScope) {
  return scriptedPresenter(t, { agent: 'process', agentHosts: new AgentHostPool() });
}

describe('one agent process for several sessions', () => {
  test('tabs with the same agent share its process, stream at once without mixing, and it stops with the last', async (t) => {
    const { presenter: panel, environment: { frames } } = sharingPanel(t);
    await panel.handle({ type: 'ready' });
    await panel.currentSession.start();
    const first = panel.currentSession;
    const slow = panel.sendPrompt('slow');
    await waitFor(() => first.thread.lastAgentText().length > 10, 'the first session streaming');
    await panel.newSession();
    const second = panel.currentSession;
    assert.notEqual(first, second);
    assert.equal(second.agentPid, first.agentPid, 'the second session runs in the same process');
    assert.notEqual(second.currentSessionId, first.currentSessionId);
    assert.equal(frames.frames().filter((frame) => frame.direction === 'out' && frame.text.includes('"method":"initialize"')).length, 1, 'initialized once');

    await panel.sendPrompt('echo from the second session');
    assert.equal(second.thread.lastAgentText(), 'You said: from the second session');
    await first.cancel();
    await slow;
    assert.ok(first.thread.lastAgentText().startsWith('w0 w1'));
    assert.ok(!first.thread.lastAgentText().includes('second session'), 'no mixing');

    const pid = first.agentPid;
    const tabs = panel.state().tabs.tabs;
    await panel.handle({ type: 'closeTab', tabId: tabs[0]?.id ?? '' });
    assert.ok(pid !== undefined && isAlive(pid), 'the process stays while a session uses it');
    await panel.sendPrompt('echo still here');
    assert.equal(panel.currentSession.thread.lastAgentText(), 'You said: still here');
    await panel.handle({ type: 'closeTab', tabId: panel.state().tabs.activeTabId });
    await waitFor(() => (pid !== undefined && !isAlive(pid)) || undefined, 'the process to stop with its last session', 5000);
  });

  test('a crash ends every session on the process; a restart gets a new process', async (t) => {
    const { presenter: panel } = sharingPanel(t);
    await panel.currentSession.start();
    const first = panel.currentSession;
    await panel.newSession();
    const second = panel.currentSession;
    const pid = second.agentPid;
    await panel.sendPrompt('crash');
    await waitFor(() => first.connectionView.phase === 'exited' || undefined, 'the other session to see the exit');
    assert.equal(second.connectionView.phase, 'exited');
    assert.ok(await second.restart());
    assert.notEqual(second.agentPid, pid);
    await panel.sendPrompt('echo after the crash');
    assert.equal(second.thread.lastAgentText(), 'You said: after the crash');
  });
});
